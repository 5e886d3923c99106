//! Hook payloads exactly as Claude Code and Codex CLI write them on stdin.
//!
//! One flat struct for every event: each field is optional here and required (or not) by the
//! event that uses it, in [`super::event::reduce`]. An unrecognised `hook_event_name` decodes to
//! [`HookEventName::Other`] and unknown fields are skipped, so newer hosts keep working.

use serde::Deserialize;
use serde_json::Value;

/// The lifecycle stage a payload reports.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub enum HookEventName {
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    Stop,
    /// A subagent (Claude Code's Agent tool) starts: its additionalContext reaches the subagent.
    SubagentStart,
    SubagentStop,
    PreCompact,
    /// A compaction finished (Claude Code sends the summary that replaced the conversation).
    PostCompact,
    SessionEnd,
    Notification,
    /// A settings file changed during the session (Claude Code); exit 2 keeps the loaded one.
    ConfigChange,
    #[serde(other)]
    Other,
}

/// A hook payload, field for field as the host sends it.
#[derive(Debug, Deserialize)]
pub struct WireHookEvent {
    pub hook_event_name: HookEventName,
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub transcript_path: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    /// Newer Claude Code builds: `default`, `plan`, `acceptEdits`, `bypassPermissions`.
    #[serde(default)]
    pub permission_mode: Option<String>,
    /// SessionStart: `startup`, `resume`, `clear` or `compact`.
    #[serde(default)]
    pub source: Option<String>,
    /// UserPromptSubmit: exactly what the person typed.
    #[serde(default)]
    pub prompt: Option<String>,
    /// Tool events.
    #[serde(default)]
    pub tool_name: Option<String>,
    #[serde(default)]
    pub tool_input: Option<Value>,
    #[serde(default)]
    pub tool_use_id: Option<String>,
    /// PostToolUse: what the tool returned (shape depends on the tool).
    #[serde(default)]
    pub tool_response: Option<Value>,
    /// PostToolUseFailure: why the tool failed.
    #[serde(default)]
    pub error: Option<Value>,
    #[serde(default)]
    pub is_interrupt: Option<bool>,
    /// How long the tool ran, where the host says.
    #[serde(default)]
    pub duration_ms: Option<u64>,
    /// Stop / SubagentStop: true when a Stop hook already made the agent continue once.
    #[serde(default)]
    pub stop_hook_active: Option<bool>,
    /// SubagentStart / SubagentStop: which subagent, and of what kind (`general-purpose`, a
    /// custom agent's name).
    #[serde(default)]
    pub agent_id: Option<String>,
    #[serde(default)]
    pub agent_type: Option<String>,
    #[serde(default)]
    pub agent_transcript_path: Option<String>,
    /// PreCompact: `manual` or `auto`.
    #[serde(default)]
    pub trigger: Option<String>,
    #[serde(default)]
    pub custom_instructions: Option<String>,
    /// PostCompact (Claude Code): the summary that now stands for the conversation.
    #[serde(default)]
    pub compact_summary: Option<String>,
    /// SessionEnd: `clear`, `logout`, `prompt_input_exit`, `other`, …
    #[serde(default)]
    pub reason: Option<String>,
    /// Notification.
    #[serde(default)]
    pub message: Option<String>,
    /// ConfigChange: the settings file that changed (or the proposal beside it).
    #[serde(default)]
    pub file_path: Option<String>,
}
