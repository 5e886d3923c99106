//! Domain events: what happened, in trail's terms, whichever host reported it.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use super::DecodeError;
use super::tool::{Tool, ToolInput};
use super::wire::{HookEventName, WireHookEvent};

/// Facts about the session that come with every event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Envelope {
    pub session_id: Option<String>,
    pub transcript_path: Option<PathBuf>,
    pub cwd: Option<PathBuf>,
    pub permission_mode: Option<String>,
    /// Set when the payload comes from a subagent's context rather than the main session.
    pub agent_id: Option<String>,
}

/// Why a session started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionSource {
    Startup,
    Resume,
    Clear,
    Compact,
    Other(String),
}

impl SessionSource {
    /// The host's word for it (`startup`, `resume`, `clear`, `compact`, or what it sent).
    pub fn as_str(&self) -> &str {
        match self {
            SessionSource::Startup => "startup",
            SessionSource::Resume => "resume",
            SessionSource::Clear => "clear",
            SessionSource::Compact => "compact",
            SessionSource::Other(s) => s,
        }
    }
}

/// What happened.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    SessionStarted {
        source: SessionSource,
    },
    PromptSubmitted {
        prompt: String,
    },
    ToolRequested {
        tool: Tool,
        input: ToolInput,
        /// A shell tool's input exactly as sent (`Null` for other tools): a rewrite to run the
        /// command confined replaces the whole input, so every other field must be kept.
        sent: Value,
        tool_use_id: Option<String>,
    },
    ToolFinished {
        tool: Tool,
        input: ToolInput,
        /// The input exactly as the host sent it, for the proof log's preview (a record of the
        /// call, never read for a decision).
        sent: Value,
        response: Option<Value>,
        /// Whether the tool succeeded, from the host's own report.
        ok: bool,
        error: Option<String>,
        duration: Option<Duration>,
        tool_use_id: Option<String>,
    },
    StopRequested {
        stop_hook_active: bool,
    },
    /// A subagent starts; what trail adds to its context is all it hears from trail.
    SubagentStarted {
        agent_type: Option<String>,
    },
    SubagentStopped {
        stop_hook_active: bool,
        agent_id: Option<String>,
    },
    CompactRequested {
        /// `manual` or `auto`.
        trigger: String,
        custom_instructions: Option<String>,
    },
    /// A compaction finished: its trigger, and the summary the host wrote, when it sends one.
    Compacted {
        trigger: String,
        summary: Option<String>,
    },
    SessionEnded {
        reason: String,
    },
    /// A settings file changed mid-session (`source`: user_settings, project_settings,
    /// local_settings, policy_settings, skills).
    ConfigChanged {
        source: String,
        file_path: Option<String>,
    },
    Notified {
        message: String,
    },
    /// An event trail does not act on (newer hosts add events).
    Ignored,
}

/// A finished shell call's input as the agent sent it: a host reports the command trail's
/// PreToolUse rewrote to run confined, and the proof log, daily memory and the attention
/// budget are about the agent's command, not trail's wrapper.
fn unconfined(tool: &Tool, mut input: Value) -> Value {
    if matches!(tool, Tool::Bash | Tool::Monitor)
        && let Some(orig) = input
            .get("command")
            .and_then(Value::as_str)
            .and_then(super::rewrite::original)
    {
        input["command"] = Value::String(orig);
    }
    input
}

/// A requested call's typed input, and a shell tool's input as sent (`Null` for the rest).
fn requested(tool: &Tool, input: Value) -> (ToolInput, Value) {
    let sent = if matches!(tool, Tool::Bash | Tool::Monitor) {
        input.clone()
    } else {
        Value::Null
    };
    (ToolInput::decode(tool, input), sent)
}

/// Reduce a wire payload to its envelope and event.
pub fn reduce(w: WireHookEvent) -> Result<(Envelope, Event), DecodeError> {
    let envelope = Envelope {
        session_id: w.session_id,
        transcript_path: w.transcript_path.map(PathBuf::from),
        cwd: w.cwd.map(PathBuf::from),
        permission_mode: w.permission_mode,
        agent_id: w.agent_id.clone().filter(|a| !a.is_empty()),
    };
    let missing = |event, field| DecodeError::Missing { event, field };
    let event = match w.hook_event_name {
        HookEventName::SessionStart => Event::SessionStarted {
            source: match w.source.as_deref() {
                Some("startup") | None => SessionSource::Startup,
                Some("resume") => SessionSource::Resume,
                Some("clear") => SessionSource::Clear,
                Some("compact") => SessionSource::Compact,
                Some(other) => SessionSource::Other(other.into()),
            },
        },
        HookEventName::UserPromptSubmit => Event::PromptSubmitted {
            prompt: w.prompt.ok_or(missing("UserPromptSubmit", "prompt"))?,
        },
        HookEventName::PreToolUse => {
            let tool = Tool::from_name(&w.tool_name.ok_or(missing("PreToolUse", "tool_name"))?);
            let (input, sent) = requested(&tool, w.tool_input.unwrap_or(Value::Null));
            Event::ToolRequested {
                input,
                sent,
                tool,
                tool_use_id: w.tool_use_id,
            }
        }
        HookEventName::PostToolUse => {
            let tool = Tool::from_name(&w.tool_name.ok_or(missing("PostToolUse", "tool_name"))?);
            let (ok, error) = judge_response(w.tool_response.as_ref());
            let sent = unconfined(&tool, w.tool_input.unwrap_or(Value::Null));
            Event::ToolFinished {
                input: ToolInput::decode(&tool, sent.clone()),
                tool,
                sent,
                response: w.tool_response,
                ok,
                error,
                duration: w.duration_ms.map(Duration::from_millis),
                tool_use_id: w.tool_use_id,
            }
        }
        HookEventName::PostToolUseFailure => {
            let tool = Tool::from_name(
                &w.tool_name
                    .ok_or(missing("PostToolUseFailure", "tool_name"))?,
            );
            let sent = unconfined(&tool, w.tool_input.unwrap_or(Value::Null));
            Event::ToolFinished {
                input: ToolInput::decode(&tool, sent.clone()),
                tool,
                sent,
                response: w.tool_response,
                ok: false,
                error: Some(match w.error {
                    Some(Value::String(s)) => s,
                    Some(other) => other.to_string(),
                    None if w.is_interrupt == Some(true) => "interrupted".into(),
                    None => "the tool failed".into(),
                }),
                duration: w.duration_ms.map(Duration::from_millis),
                tool_use_id: w.tool_use_id,
            }
        }
        HookEventName::Stop => Event::StopRequested {
            stop_hook_active: w.stop_hook_active.unwrap_or(false),
        },
        HookEventName::SubagentStart => Event::SubagentStarted {
            agent_type: w.agent_type.filter(|t| !t.is_empty()),
        },
        HookEventName::SubagentStop => Event::SubagentStopped {
            stop_hook_active: w.stop_hook_active.unwrap_or(false),
            agent_id: w.agent_id,
        },
        HookEventName::PreCompact => Event::CompactRequested {
            trigger: w.trigger.unwrap_or_else(|| "auto".into()),
            custom_instructions: w.custom_instructions.filter(|s| !s.is_empty()),
        },
        HookEventName::PostCompact => Event::Compacted {
            trigger: w.trigger.unwrap_or_else(|| "auto".into()),
            summary: w.compact_summary.filter(|s| !s.trim().is_empty()),
        },
        HookEventName::SessionEnd => Event::SessionEnded {
            reason: w.reason.unwrap_or_else(|| "other".into()),
        },
        HookEventName::Notification => Event::Notified {
            message: w.message.unwrap_or_default(),
        },
        HookEventName::ConfigChange => Event::ConfigChanged {
            source: w.source.unwrap_or_default(),
            file_path: w.file_path,
        },
        HookEventName::Other => Event::Ignored,
    };
    Ok((envelope, event))
}

/// Success or failure from a PostToolUse response. Hosts report failures in different ways:
/// `is_error`, `success: false`, an `interrupted` Bash command, a non-zero exit code.
fn judge_response(r: Option<&Value>) -> (bool, Option<String>) {
    let Some(Value::Object(m)) = r else {
        return (true, None);
    };
    let flag = |k: &str| m.get(k).and_then(Value::as_bool);
    if flag("is_error") == Some(true) || flag("isError") == Some(true) {
        return (
            false,
            Some(text_of(m.get("content")).unwrap_or("error".into())),
        );
    }
    if flag("success") == Some(false) {
        return (
            false,
            text_of(m.get("error")).or(Some("success: false".into())),
        );
    }
    if flag("interrupted") == Some(true) {
        return (false, Some("interrupted".into()));
    }
    for k in ["exitCode", "exit_code", "returncode"] {
        if let Some(code) = m.get(k).and_then(Value::as_i64)
            && code != 0
        {
            return (false, Some(format!("exit code {code}")));
        }
    }
    (true, None)
}

fn text_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}
