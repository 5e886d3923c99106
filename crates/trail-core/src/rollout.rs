//! The context tier for Codex CLI: its rollout files (`$CODEX_HOME/sessions/YYYY/MM/DD/
//! rollout-<time>-<id>.jsonl`, the hooks' `transcript_path`), read into the same [`Transcript`]
//! as a Claude Code transcript, so that daily memory, the summary callback and the attention
//! budget work the same for both hosts.
//!
//! One JSON object per line, `{"timestamp", "type", "payload"}`, as Codex 0.169.0 writes them
//! (`tests/data/rollouts/PROVENANCE.md`). What matters:
//! - `event_msg` / `item_completed` with a `UserMessage` item: what the person typed. (Codex
//!   also records its own instructions, AGENTS.md and the environment as `response_item` user
//!   messages; those are not the person's words. Older builds wrote `event_msg` /
//!   `user_message` instead.)
//! - `response_item` / `message` by the assistant: its text.
//! - `response_item` / `function_call` (`exec_command`, `shell`, `update_plan`, …) and
//!   `custom_tool_call` (`apply_patch`), then their `…_output` by `call_id`; the
//!   `item_completed` of a `CommandExecution` says how the command ended (`status`,
//!   `exit_code`). Shell calls are read as `Bash`, plans as `TodoWrite`, so that a flush treats
//!   them as it treats Claude Code's.
//! - `event_msg` / `token_count`: `last_token_usage.input_tokens` is what the model had in its
//!   context for the last request (cached tokens included), `total_token_usage` the session's
//!   sum.
//! - `compacted`: a compaction, its `message` the summary that replaced the history.
//!
//! Everything else (`session_meta`, `turn_context`, `world_state`, `token_usage_record`, future
//! types) is ignored; lines that are not JSON are counted, never fatal.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::fsutil::ReadAt;
use crate::transcript::{Compaction, Message, ToolCall, Transcript, Usage};

/// Whether `head` (the start of a file) is a Codex rollout: its first line is `session_meta`.
/// (In JSON text `"type":"session_meta"` cannot occur inside a string value, where its quotes
/// would be escaped.)
pub fn is_rollout(head: &[u8]) -> bool {
    let first = head.split(|&b| b == b'\n').next().unwrap_or(head);
    memchr::memmem::find(first, b"\"type\":\"session_meta\"").is_some()
}

/// The shell tools a rollout names (the exec tool of 0.169.0, and the older ones).
fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "exec_command" | "shell" | "shell_command" | "local_shell" | "container.exec"
    )
}

/// A shell call's command line from its `arguments` (a JSON string): `cmd` or `command`, the
/// latter a string or an argv (`["bash", "-lc", "…"]` is the script it runs).
fn shell_command(arguments: &Value) -> Option<String> {
    let args: Value = match arguments {
        Value::String(s) => serde_json::from_str(s).ok()?,
        v => v.clone(),
    };
    let c = args.get("cmd").or_else(|| args.get("command"))?;
    match c {
        Value::String(s) => Some(s.clone()),
        Value::Array(argv) => {
            let argv: Vec<&str> = argv.iter().filter_map(Value::as_str).collect();
            match argv.as_slice() {
                [_, flag, script] if flag.starts_with('-') && flag.ends_with('c') => {
                    Some(script.to_string())
                }
                _ => Some(argv.join(" ")),
            }
        }
        _ => None,
    }
}

/// A tool call as the rest of trail reads it: shells as `Bash {command}`, plans as
/// `TodoWrite {todos}`, `apply_patch` as itself (`{command: patch}`), anything else as sent.
fn tool_call(p: &Value, timestamp: Option<String>) -> Option<ToolCall> {
    let name = p.get("name").and_then(Value::as_str)?;
    let id = p.get("call_id").and_then(Value::as_str)?.to_string();
    let arguments = p.get("arguments").or_else(|| p.get("input"));
    let (name, input) = if is_shell(name) {
        let command = arguments.and_then(shell_command)?;
        ("Bash".to_string(), json!({ "command": command }))
    } else if name == "update_plan" {
        let args: Value = arguments
            .and_then(Value::as_str)
            .and_then(|s| serde_json::from_str(s).ok())
            .unwrap_or(Value::Null);
        let todos: Vec<Value> = args
            .get("plan")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|s| json!({ "content": s.get("step"), "status": s.get("status") }))
            .collect();
        ("TodoWrite".to_string(), json!({ "todos": todos }))
    } else if name == "apply_patch" {
        let patch = arguments.and_then(Value::as_str).unwrap_or_default();
        (name.to_string(), json!({ "command": patch }))
    } else {
        (name.to_string(), arguments.cloned().unwrap_or(Value::Null))
    };
    Some(ToolCall {
        id,
        name,
        input,
        result: None,
        is_error: false,
        sidechain: false,
        timestamp,
    })
}

/// Whether a tool's output text says it failed: a shell's `Process exited with code N`, an
/// apply_patch's `Exit code: N`, N not 0.
fn output_failed(output: &str) -> bool {
    let code = output
        .lines()
        .find_map(|l| {
            l.strip_prefix("Process exited with code ")
                .or_else(|| l.strip_prefix("Exit code: "))
        })
        .and_then(|c| c.trim().parse::<i64>().ok());
    code.is_some_and(|c| c != 0)
}

/// Text of a message's `content` blocks (`input_text`, `output_text`, `text`).
fn content_text(c: &Value) -> String {
    match c {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// Claude Code's four usage counters from a Codex usage object: Codex's `input_tokens`
/// includes its cached and cache-written tokens, so [`Usage::context`] is `input_tokens` again.
fn usage(u: &Value) -> Usage {
    let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
    let (cached, written) = (n("cached_input_tokens"), n("cache_write_input_tokens"));
    Usage {
        input_tokens: n("input_tokens").saturating_sub(cached + written),
        output_tokens: n("output_tokens"),
        cache_creation_input_tokens: written,
        cache_read_input_tokens: cached,
    }
}

/// Read a rollout from its text.
pub fn parse(text: &str) -> Transcript {
    let mut t = Transcript::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        t.lines += 1;
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            t.bad_lines.push(i + 1);
            continue;
        };
        let timestamp = v.get("timestamp").and_then(Value::as_str).map(String::from);
        let p = v.get("payload").unwrap_or(&Value::Null);
        let kind = p.get("type").and_then(Value::as_str);
        match (v.get("type").and_then(Value::as_str), kind) {
            (Some("event_msg"), Some("item_completed")) => item_completed(&mut t, p, timestamp),
            (Some("event_msg"), Some("user_message")) => {
                let text = p.get("message").and_then(Value::as_str).unwrap_or_default();
                push_user(&mut t, text, timestamp);
            }
            (Some("event_msg"), Some("token_count")) => {
                let info = p.get("info").unwrap_or(&Value::Null);
                if let Some(last) = info.get("last_token_usage") {
                    let context = usage(last).context();
                    t.context_tokens = Some(context);
                    t.fill
                        .push(crate::transcript::FillPoint { timestamp, context });
                }
                if let Some(total) = info.get("total_token_usage") {
                    t.usage = usage(total);
                }
            }
            // The assistant's text (user-role items are what Codex injects, see the module doc).
            (Some("response_item"), Some("message"))
                if p.get("role").and_then(Value::as_str) == Some("assistant") =>
            {
                let text = content_text(p.get("content").unwrap_or(&Value::Null));
                if !text.is_empty() {
                    t.messages.push(Message {
                        role: "assistant".into(),
                        text,
                        sidechain: false,
                        timestamp,
                    });
                }
            }
            (Some("response_item"), Some("function_call" | "custom_tool_call")) => {
                t.tool_calls.extend(tool_call(p, timestamp));
            }
            (Some("response_item"), Some("function_call_output" | "custom_tool_call_output")) => {
                let id = p.get("call_id").and_then(Value::as_str).unwrap_or_default();
                let output = match p.get("output") {
                    Some(Value::String(s)) => s.clone(),
                    Some(o) => o
                        .get("content")
                        .and_then(Value::as_str)
                        .map_or_else(|| o.to_string(), String::from),
                    None => String::new(),
                };
                if let Some(call) = t.tool_calls.iter_mut().rev().find(|c| c.id == id) {
                    call.is_error |= output_failed(&output);
                    call.result = Some(output);
                }
            }
            (Some("compacted"), _) => {
                t.compactions.push(Compaction {
                    trigger: None,
                    pre_tokens: t.context_tokens,
                    timestamp,
                });
                t.context_tokens = None;
                if let Some(m) = p.get("message").and_then(Value::as_str) {
                    t.summary = Some(m.to_string());
                }
            }
            _ => {} // session_meta, turn_context, world_state, token_usage_record, future types
        }
    }
    t
}

/// A user message, unless it repeats the one just read (a build that writes a prompt both as
/// `user_message` and as an `item_completed`).
fn push_user(t: &mut Transcript, text: &str, timestamp: Option<String>) {
    if text.is_empty()
        || t.messages
            .last()
            .is_some_and(|m| m.role == "user" && m.text == text)
    {
        return;
    }
    t.messages.push(Message {
        role: "user".into(),
        text: text.to_string(),
        sidechain: false,
        timestamp,
    });
}

/// `item_completed`: a typed prompt, or how a command ended.
fn item_completed(t: &mut Transcript, p: &Value, timestamp: Option<String>) {
    let item = p.get("item").unwrap_or(&Value::Null);
    match item.get("type").and_then(Value::as_str) {
        Some("UserMessage") => {
            let text = content_text(item.get("content").unwrap_or(&Value::Null));
            push_user(t, &text, timestamp);
        }
        Some("CommandExecution") => {
            let id = item.get("id").and_then(Value::as_str).unwrap_or_default();
            let failed = item.get("status").and_then(Value::as_str) == Some("failed")
                || item
                    .get("exit_code")
                    .and_then(Value::as_i64)
                    .is_some_and(|c| c != 0);
            if let Some(call) = t.tool_calls.iter_mut().rev().find(|c| c.id == id) {
                call.is_error |= failed;
            }
        }
        _ => {}
    }
}

/// The context size a rollout's tail decides: the latest `token_count`, unless a compaction
/// came after it. `None` when the line decides nothing.
pub(crate) fn decides(line: &[u8]) -> Option<Option<u64>> {
    let count = memchr::memmem::find(line, b"\"token_count\"").is_some();
    let compacted = memchr::memmem::find(line, b"\"compacted\"").is_some();
    if !count && !compacted {
        return None;
    }
    let v: Value = serde_json::from_slice(line).ok()?;
    match (
        v.get("type").and_then(Value::as_str),
        v["payload"].get("type").and_then(Value::as_str),
    ) {
        (Some("compacted"), _) => Some(None),
        (Some("event_msg"), Some("token_count")) => v["payload"]["info"]
            .get("last_token_usage")
            .map(|u| Some(usage(u).context())),
        _ => None,
    }
}

/// [`crate::transcript::context_tokens_in`] for a rollout: read backwards from the end, so the
/// cost does not grow with the session.
pub fn context_tokens_in<R: ReadAt + ?Sized>(src: &R, len: u64) -> Option<u64> {
    crate::fsutil::last_deciding_line(src, len, decides)
}

/// The newest rollout of a session that ran in `project` (its `session_meta.cwd` at or below
/// it), under `codex_home/sessions/YYYY/MM/DD/`, newest day first. At most `MAX_SEEN` files are
/// opened: a person with years of sessions waits for none of them.
pub fn newest_for(project: &Path, codex_home: &Path) -> Option<PathBuf> {
    const MAX_SEEN: usize = 500;
    let sorted_desc = |dir: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        v.sort_by(|a, b| b.cmp(a));
        v
    };
    let mut seen = 0;
    for year in sorted_desc(&codex_home.join("sessions")) {
        for month in sorted_desc(&year) {
            for day in sorted_desc(&month) {
                // Names start with the time the session began: newest first.
                for f in sorted_desc(&day) {
                    let name = f.file_name()?.to_string_lossy().into_owned();
                    if !(name.starts_with("rollout-") && name.ends_with(".jsonl")) {
                        continue;
                    }
                    seen += 1;
                    if seen > MAX_SEEN {
                        return None;
                    }
                    if session_cwd(&f).is_some_and(|cwd| cwd.starts_with(project)) {
                        return Some(f);
                    }
                }
            }
        }
    }
    None
}

/// The working directory a rollout's `session_meta` names.
fn session_cwd(path: &Path) -> Option<PathBuf> {
    use std::io::{BufRead, Read};
    let f = std::fs::File::open(path).ok()?;
    // The first line carries Codex's whole instructions (tens of KB); a megabyte is plenty.
    let mut first = Vec::new();
    io::BufReader::new(f)
        .take(1 << 20)
        .read_until(b'\n', &mut first)
        .ok()?;
    if !is_rollout(&first) {
        return None;
    }
    let v: Value = serde_json::from_slice(&first).ok()?;
    v["payload"]
        .get("cwd")
        .and_then(Value::as_str)
        .map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_commands_are_read_from_every_argument_shape() {
        let cmd = |a: Value| shell_command(&a);
        assert_eq!(
            cmd(json!("{\"cmd\":\"ls -la\"}")).as_deref(),
            Some("ls -la")
        );
        assert_eq!(
            cmd(json!({"command": ["bash", "-lc", "cargo test"]})).as_deref(),
            Some("cargo test")
        );
        assert_eq!(
            cmd(json!({"command": ["git", "status"]})).as_deref(),
            Some("git status")
        );
        assert_eq!(cmd(json!("not json")), None);
    }

    #[test]
    fn failures_are_read_from_the_output_text() {
        assert!(output_failed(
            "Chunk ID: e027a7\nProcess exited with code 2\nOutput:\n"
        ));
        assert!(!output_failed("Process exited with code 0\n"));
        assert!(output_failed("Exit code: 1\nWall time: 0s"));
        assert!(!output_failed("Success. Updated the following files"));
    }

    #[test]
    fn a_plan_is_read_as_todos_and_a_compaction_resets_the_context() {
        let lines = [
            json!({"type":"session_meta","payload":{"id":"s","cwd":"/p"}}),
            json!({"type":"event_msg","payload":{"type":"user_message","message":"plan it"}}),
            json!({"type":"event_msg","payload":{"type":"item_completed","item":{"type":"UserMessage","content":[{"type":"text","text":"plan it"}]}}}),
            json!({"type":"response_item","payload":{"type":"function_call","name":"update_plan","call_id":"c1","arguments":"{\"plan\":[{\"step\":\"write the parser\",\"status\":\"completed\"},{\"step\":\"add tests\",\"status\":\"pending\"}]}"}}),
            json!({"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":9000,"cached_input_tokens":8000,"output_tokens":12},"total_token_usage":{"input_tokens":20000,"cached_input_tokens":8000,"output_tokens":40}}}}),
        ];
        let text = lines
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n")
            + "\n";
        let t = parse(&text);
        assert_eq!(t.messages.len(), 1, "the repeated prompt is read once");
        assert_eq!(t.tool_calls[0].name, "TodoWrite");
        let todos = crate::host::ToolInput::decode(
            &crate::host::Tool::TodoWrite,
            t.tool_calls[0].input.clone(),
        );
        assert_eq!(todos.open_todos(), ["add tests"]);
        assert_eq!(t.context_tokens, Some(9000));
        assert_eq!(
            t.usage.input_tokens + t.usage.cache_read_input_tokens,
            20000
        );
        assert_eq!(
            context_tokens_in(text.as_bytes(), text.len() as u64),
            Some(9000)
        );

        let compacted = format!(
            "{text}{}\n",
            json!({"type":"compacted","payload":{"message":"the summary so far"}})
        );
        let t = parse(&compacted);
        assert_eq!(t.context_tokens, None);
        assert_eq!(t.summary.as_deref(), Some("the summary so far"));
        assert_eq!(t.compactions[0].pre_tokens, Some(9000));
        assert_eq!(
            context_tokens_in(compacted.as_bytes(), compacted.len() as u64),
            None
        );
        assert!(is_rollout(compacted.as_bytes()));
        assert!(!is_rollout(
            br#"{"type":"user","message":{"content":"\"type\":\"session_meta\""}}"#
        ));
    }
}
