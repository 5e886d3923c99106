//! trail-mcp: trail's Model Context Protocol server, over stdio, for any MCP client.
//!
//! `trail mcp` runs it (the `trail` binary execs the `trail-mcp` binary installed next to it,
//! so tokio and the MCP SDK never load into a hook: see `crates/trail/src/cmd/mcp.rs`). The
//! crate is the only one in the workspace with an async runtime, a single-threaded one.
//!
//! ```text
//! tools      search → timeline → get (progressive disclosure: compact hits first, then what
//!            surrounds one, then whole records), resume, decide, checkpoint, show, remember,
//!            recall, status (tools.rs)
//! resources  trail://resume, trail://notes, trail://memory, trail://report, trail://session/{id}
//!            (resources.rs)
//! prompts    resume, handoff (prompts.rs)
//! ```
//!
//! What it never does: approve, dismiss, skip or allow a junction, grant anything, or change
//! the mode. Those are the person's acts (DESIGN, principle 7); no tool, resource or prompt
//! here reaches `state::protocol`'s deciding functions, and a test walks the whole surface with
//! hostile arguments to hold that (`crates/trail/tests/cli/mcp.rs`).
//!
//! Everything it returns passes one redaction ([`redact`]) on its way out, whatever it was read
//! from; ids handed back by the client are hostile input (`trail_core::search::retrieve`).

mod context;
mod error;
mod prompts;
pub mod redact;
mod resources;
mod server;
mod session;
mod status;
pub mod tools;

use std::process::ExitCode;

pub use server::{TrailServer, tools_list_json};

/// Serves MCP on stdin and stdout until the client closes them. Diagnostics go to stderr
/// (stdout carries only the protocol).
pub fn run() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("trail mcp: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(server::serve_stdio()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("trail mcp: {e}");
            ExitCode::FAILURE
        }
    }
}
