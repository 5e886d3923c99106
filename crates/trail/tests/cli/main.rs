//! One integration-test binary for the `trail` CLI: every test runs the real binary in an
//! isolated HOME, TRAIL_HOME and config, so nothing depends on the machine's own setup.

mod common;

mod anchor;
mod attacks;
mod bad_input;
mod claude_e2e;
mod codex_e2e;
mod concurrency;
mod crash;
mod dream;
mod e2e;
mod gate;
mod hook;
mod hook_deadline;
mod init;
mod injected_context;
mod ledger;
mod prompt_origin;
mod regression;
mod safe_files;
mod secrets;
mod state;
mod torn_tail;
mod trust;
