//! trail-host (trail-core re-exports it as `host`). Agent hosts (Claude Code, Codex CLI): their hook payloads exactly as they send them, reduced
//! to the domain events trail acts on (tool inputs typed once, in [`tool`]), and trail's decisions
//! rendered back in each host's format.
//!
//! This crate is on the hook path, which runs before and after every tool call: decoding is one
//! `serde_json` pass into a flat struct, with no config, index or regex involved. Unknown events
//! and unknown fields are ignored, never rejected (hosts add both all the time); only JSON that
//! does not parse, or an event missing what defines it, is an error.

pub mod codex;
pub mod event;
pub mod inject;
pub mod origin;
pub mod render;
pub mod rewrite;
pub mod tool;
pub mod wire;

pub use event::{Envelope, Event, SessionSource};
pub use tool::{Replace, Tool, ToolInput};

/// Which agent sent a payload. Both send the same shape; they differ in what they accept back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    ClaudeCode,
    Codex,
}

/// The host session a command runs in, as Claude Code tells the processes it starts
/// (`CLAUDE_CODE_SESSION_ID`): decisions and checkpoints of "this session" are its.
pub fn session_from_env() -> Option<String> {
    std::env::var("CLAUDE_CODE_SESSION_ID")
        .ok()
        .filter(|s| !s.trim().is_empty())
}

/// A payload that cannot be understood.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    #[error("hook payload is not valid JSON (line {line}, column {column}): {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{event} payload has no `{field}`")]
    Missing {
        event: &'static str,
        field: &'static str,
    },
}

/// Decode one payload from a host's stdin into its envelope and domain event.
pub fn decode(bytes: &[u8]) -> Result<(Envelope, Event), DecodeError> {
    let wire: wire::WireHookEvent =
        serde_json::from_slice(bytes).map_err(|e| DecodeError::Json {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
    event::reduce(wire)
}
