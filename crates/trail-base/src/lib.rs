//! trail-base: what every other crate of trail stands on, and which knows none of them.
//!
//! Files written atomically and read at offsets, every path trail keeps in a project, exact
//! timestamps and ratios, text helpers, a token estimate, git read so that no repository
//! config can make it run a program, and crash injection for tests. Nothing here knows a
//! record, a setting, a secret rule or a gate rule: the crate has no dependency that could
//! give it one (`cargo tree -p trail-base`).
//!
//! - [`failpoint`]: crash injection for tests (debug builds only).
//! - [`fsutil`]: atomic writes, locks, positioned reads, the backwards line reader.
//! - [`git`]: git, read in a way no repository config can make run a program.
//! - [`layout`]: every path trail keeps in a project, named once.
//! - [`ratio`]: exact ratios, compared without floating point.
//! - [`text`]: one-line excerpts, word splitting, hex.
//! - [`time`]: exact UTC timestamps, the ledger's only identity.
//! - [`tokens`]: a text's token count, estimated on the side of caution without a tokenizer.

#[cfg(not(unix))]
compile_error!(
    "trail builds on Unix only (Linux: built and tested; macOS: untested). On Windows, run trail and the agent inside WSL; see docs/GUIDE.md, \"Platforms\"."
);
// File offsets are u64 and buffers are indexed by usize: `fsutil::to_usize` relies on this.
#[cfg(not(target_pointer_width = "64"))]
compile_error!("trail builds for 64-bit targets only.");

pub mod failpoint;
pub mod file_error;
pub mod fsutil;
pub mod git;
pub mod layout;
pub mod project;
pub mod ratio;
pub mod text;
pub mod time;
pub mod tokens;
