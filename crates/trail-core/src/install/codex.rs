//! Codex CLI: trail's hooks in `.codex/hooks.json` (or `~/.codex/hooks.json`), same shape as
//! Claude Code's settings. Codex has no PostToolUseFailure: a failed command reaches PostToolUse
//! without its exit code, which trail reads from the session's rollout file
//! ([`crate::host::codex`]).

use std::path::{Path, PathBuf};

use super::claude::HostSpec;

pub const EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PreCompact",
    "Stop",
    "SubagentStop",
    "SessionEnd",
];

pub const CODEX: HostSpec = HostSpec {
    word: "codex",
    events: EVENTS,
    tool_matcher: None,
    // Codex 0.169 has no fail-closed switch for hooks: trail's own deadline is the guard there.
    fail_closed: None,
};

pub fn hooks_path(project_root: &Path, home: &Path, global: bool) -> PathBuf {
    if global {
        home.join(".codex").join("hooks.json")
    } else {
        project_root.join(".codex").join("hooks.json")
    }
}
