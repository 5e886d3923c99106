//! `trail`: the command-line face of trail-core.
//!
//! main stays small: parse, dispatch, and map every error to an exit code in one place
//! ([`error`]). Exit codes: 0 ok, 1 a check failed (or the environment failed us), 2 bad input or
//! usage. A closed stdout (`trail log | head`) is success.
//!
//! The entry point is trail's own (`start`), not std's: see there why.

// std's `fn main` start-up is replaced by `start::main`; the test harness brings its own.
#![cfg_attr(not(test), no_main)]

// The hook's deadline is SIGALRM, the person check reads /proc (or ps) and /dev/tty: Unix only,
// as trail-core is (docs/GUIDE.md, "Platforms").
#[cfg(not(unix))]
compile_error!(
    "trail builds on Unix only (Linux: built and tested; macOS: untested). On Windows, run trail and the agent inside WSL; see docs/GUIDE.md, \"Platforms\"."
);

mod cli;
mod cmd;
mod confined;
mod context;
mod error;
mod output;
mod person;
mod start;

use std::process::ExitCode;

/// What the process does, from its arguments to its exit code (called by `start.rs`'s C `main`).
#[cfg_attr(test, allow(dead_code))]
fn run() -> ExitCode {
    // Hooks run before and after every tool call: they skip argument parsing entirely.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // Inside the agent's confinement, a person's act is refused and a record is queued
    // (`confined::intercept`); trail's hooks are the host's to run.
    if confined::inside()
        && let Some(exit) = confined::intercept(&args)
    {
        return exit;
    }
    match args.first().and_then(|a| a.to_str()) {
        // `trail hook --help` is a person asking: clap answers it (issue 22).
        Some("hook") if !matches!(args.get(1).and_then(|a| a.to_str()), Some("--help" | "-h")) => {
            return trail_hook::run(args.get(1).and_then(|a| a.to_str()));
        }
        Some("confine") => return confined::run(&args[1..]),
        Some("ingest-outbox") => return confined::ingest(&args[1..]),
        _ => {}
    }
    let matches = cli::command().get_matches();
    let result = cmd::dispatch(&matches);
    error::finish(result)
}
