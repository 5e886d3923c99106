//! Decisions rendered back in each host's output format.
//!
//! Claude Code reads `hookSpecificOutput` from stdout. An allow verdict prints nothing: an
//! explicit `allow` would bypass the user's own permission rules, and trail only ever adds
//! restrictions. Codex CLI reads the same `hookSpecificOutput` but rejects unknown fields, so
//! both hosts get only the fields both schemas name (today the two renderings are the same; they
//! are kept apart so one host's additions never reach the other).

use serde_json::{Value, json};

use super::Host;

/// Claude Code caps injected context; trail stays under it.
pub const MAX_CONTEXT_CHARS: usize = 10_000;

/// What trail says back to a host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// Say nothing: the host proceeds under its own rules.
    Silent,
    /// Refuse a tool call, with the reason the agent (and the person) will read.
    Deny { reason: String },
    /// Add context to the conversation (SessionStart, UserPromptSubmit).
    Context { event: &'static str, text: String },
    /// Let a tool call run, as `input` instead of what was sent (a shell command rewritten to
    /// run confined), with `context` for the agent when there is a warning.
    Rewrite {
        input: Value,
        context: Option<String>,
    },
    /// Keep a change from taking effect (ConfigChange): the hook exits 2 with the reason on
    /// stderr, the one protocol every event honours.
    Veto { reason: String },
}

/// Cut `text` to at most `max` characters on a character boundary, saying that it was cut.
pub fn fit_context(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let note = "\n… (cut to fit; run `trail resume --level 3` for everything)";
    let keep = max.saturating_sub(note.chars().count());
    let mut s: String = text.chars().take(keep).collect();
    s.push_str(note);
    s
}

/// The JSON to print on stdout, or `None` to print nothing.
pub fn render(host: Host, r: &Response) -> Option<Value> {
    match (host, r) {
        (_, Response::Silent | Response::Veto { .. }) => None,
        (Host::ClaudeCode, Response::Deny { reason }) => Some(json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        })),
        // Codex validates its hook output strictly (no unknown fields); its PreToolUse schema
        // takes the same `hookSpecificOutput` with `permissionDecision: deny`.
        (Host::Codex, Response::Deny { reason }) => Some(json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        })),
        // Measured with Claude Code 2.1.328 and Codex 0.169: `updatedInput` replaces the whole
        // input, and Codex takes it only with `permissionDecision: allow` (without it, the
        // original command runs). Claude Code's own sandbox allows its sandboxed commands the
        // same way (`autoAllowBashIfSandboxed`).
        (_, Response::Rewrite { input, context }) => {
            let mut out = json!({
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "updatedInput": input,
            });
            if let Some(text) = context {
                out["additionalContext"] = Value::String(fit_context(text, MAX_CONTEXT_CHARS));
            }
            Some(json!({ "hookSpecificOutput": out }))
        }
        (Host::ClaudeCode, Response::Context { event, text }) => Some(json!({
            "hookSpecificOutput": {
                "hookEventName": event,
                "additionalContext": fit_context(text, MAX_CONTEXT_CHARS),
            }
        })),
        (Host::Codex, Response::Context { event, text }) => Some(json!({
            "hookSpecificOutput": {
                "hookEventName": event,
                "additionalContext": fit_context(text, MAX_CONTEXT_CHARS),
            }
        })),
    }
}
