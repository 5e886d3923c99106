//! `trail`: the command-line face of trail-core.
//!
//! main stays small: parse, dispatch, and map every error to an exit code in one place
//! ([`error`]). Exit codes: 0 ok, 1 a check failed (or the environment failed us), 2 bad input or
//! usage. A closed stdout (`trail log | head`) is success.

mod cli;
mod cmd;
mod context;
mod error;
mod output;

use std::process::ExitCode;

fn main() -> ExitCode {
    let matches = cli::command().get_matches();
    let result = cmd::dispatch(&matches);
    error::finish(result)
}
