//! trail-zones: where a path really lands and what it protects, and the gate's vocabulary the
//! library holds without the gate.
//!
//! - [`paths`]: the places a command is judged against (the project root, home, the temporary
//!   directory, trail's own homes) and how a path is classified among them.
//! - [`zones`]: the protected zones (the secret store and key, trail's records, the hosts'
//!   settings, git's config and hooks) a path or a command's words reach, and how.
//! - [`command`]: a command's words and redirections as the gate's parser hands them on.
//! - [`verdict`]: allow, junction, block.
//! - [`custom`]: the rules a person or project configures, as data.
//!
//! The gate (`trail-gate`) judges commands with these; the library (`trail-core`) keeps its
//! confinement, search and `trail show` out of the zones with them, without depending on the
//! gate: editing a gate rule rebuilds neither this crate nor the library.

// The floor and the secret store's file name, named as they were inside the gate.
use trail_base::layout;
use trail_secrets as secrets;

pub mod command;
pub mod custom;
pub mod paths;
pub mod verdict;
pub mod zones;

pub use paths::{Place, Places};
pub use verdict::Verdict;
