//! `trail`: the command-line face of trail-core.
//!
//! main stays small: parse, dispatch, and map every error to an exit code in one place
//! ([`error`]). Exit codes: 0 ok, 1 a check failed (or the environment failed us), 2 bad input or
//! usage. A closed stdout (`trail log | head`) is success.

// The hook's deadline is SIGALRM, the person check reads /proc (or ps) and /dev/tty: Unix only,
// as trail-core is (README, "Platforms").
#[cfg(not(unix))]
compile_error!(
    "trail builds on Unix only (Linux: built and tested; macOS: untested). On Windows, run trail and the agent inside WSL; see README, \"Platforms\"."
);

mod cli;
mod cmd;
mod context;
mod detached;
mod edge;
mod error;
mod hook;
mod output;
mod person;

use std::process::ExitCode;

fn main() -> ExitCode {
    // Hooks run before and after every tool call: they skip argument parsing entirely.
    let mut args = std::env::args();
    if args.nth(1).as_deref() == Some("hook") {
        return hook::run(args.next().as_deref());
    }
    let matches = cli::command().get_matches();
    let result = cmd::dispatch(&matches);
    error::finish(result)
}
