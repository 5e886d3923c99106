//! `trail mcp`: trail's MCP server on stdin and stdout.
//!
//! The server is its own binary, `trail-mcp` (built from `crates/trail-mcp`, installed with
//! this one), and this command replaces itself with it. The server needs an async runtime and
//! the MCP SDK; this binary runs before and after every tool call as a hook, and what it links
//! it maps at every start (PERFORMANCE.md: a hook's cost follows how much text its code
//! is spread over). `trail-mcp` is looked for next to the running `trail` first, so the pair
//! installed together is the pair that runs, then on PATH.

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;

use crate::error::{CliError, CliResult};

const SERVER: &str = "trail-mcp";

pub fn run() -> CliResult {
    let beside = std::env::current_exe()
        .ok()
        .map(|exe| exe.with_file_name(SERVER))
        .filter(|p| p.is_file());
    let program = beside.clone().unwrap_or_else(|| PathBuf::from(SERVER));
    // Returns only when the exec failed; the client keeps stdin and stdout as they were.
    let e = Command::new(&program).exec();
    Err(CliError::failed(format!(
        "cannot run the MCP server `{}`: {e}",
        program.display()
    ))
    .with_hint(match beside {
        Some(_) => "reinstall trail: `cargo install --path crates/trail` installs trail and trail-mcp together".to_string(),
        None => "install it next to trail: `cargo install --path crates/trail` installs trail and trail-mcp together (or put trail-mcp on PATH)".to_string(),
    }))
}
