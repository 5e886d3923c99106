//! What trail's tests share, as jj's `testutils` is for jj: one place for the helpers every
//! crate's tests were writing again, each a little differently.
//!
//! - [`git`]: real git run for a test's setup, isolated from the machine's and the person's
//!   configuration (no `~/.gitconfig`, no system config, no signing, `main` as the first
//!   branch), with an identity, and the output shown when it fails.
//! - [`skip!`]: a test that cannot run here (a CLI or a sandbox missing) says so and is counted,
//!   or fails where the run requires its suite.
//! - [`files`]: the files under a directory, and how often a text occurs.
//!
//! Only dev-dependencies name this crate, and it depends on no trail crate: any crate's unit or
//! integration tests may use it, and nothing of it is linked into a binary.

pub mod files;
pub mod git;
pub mod skip;
