//! The context tier: Claude Code session transcripts (JSONL), read robustly.
//!
//! One JSON object per line. What matters: user and assistant messages (text, tool calls, tool
//! results), token usage per API message — a message split over several lines repeats one
//! `message.id` and one `usage`, so it is counted once — the main chain versus sidechains
//! (`isSidechain`, subagents), `compact_boundary` records and compact summaries. Unknown line
//! types are ignored; lines that are not JSON are counted, never fatal.

use std::collections::HashSet;
use std::fs::File;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use crate::file_error::{At, FileError};
use crate::fsutil::ReadAt;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_creation_input_tokens: u64,
    pub cache_read_input_tokens: u64,
}

impl Usage {
    fn of(v: &Value) -> Option<Usage> {
        let u = v.get("usage")?;
        let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
        Some(Usage {
            input_tokens: n("input_tokens"),
            output_tokens: n("output_tokens"),
            cache_creation_input_tokens: n("cache_creation_input_tokens"),
            cache_read_input_tokens: n("cache_read_input_tokens"),
        })
    }

    /// What the model had in its context for this message.
    pub fn context(&self) -> u64 {
        self.input_tokens + self.cache_creation_input_tokens + self.cache_read_input_tokens
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Message {
    pub role: String,
    pub text: String,
    pub sidechain: bool,
    pub timestamp: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub input: Value,
    pub result: Option<String>,
    pub is_error: bool,
    pub sidechain: bool,
    /// When the call was made (the line's `timestamp`), if the host wrote one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Compaction {
    pub trigger: Option<String>,
    pub pre_tokens: Option<u64>,
    pub timestamp: Option<String>,
}

/// The context size when an answer came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FillPoint {
    pub timestamp: Option<String>,
    pub context: u64,
}

/// A whole transcript.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Transcript {
    pub messages: Vec<Message>,
    pub tool_calls: Vec<ToolCall>,
    /// Main-chain usage, each API message counted once.
    pub usage: Usage,
    /// The current context size: the latest main-chain assistant message's input + cache
    /// creation + cache read, unless a compaction came after it (then unknown until the next).
    pub context_tokens: Option<u64>,
    pub compactions: Vec<Compaction>,
    /// The context size at each main-chain answer, in order (`trail import` writes it to the
    /// timeline, for `trail report`'s chart).
    #[serde(skip)]
    pub fill: Vec<FillPoint>,
    /// The latest compact summary (the running summary of what came before).
    pub summary: Option<String>,
    /// Line numbers (1-based) that were not JSON.
    pub bad_lines: Vec<usize>,
    pub lines: usize,
}

/// Text of a `message.content` (a string, or blocks whose text parts are joined).
fn content_text(c: &Value) -> String {
    match c {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| match b.get("type").and_then(Value::as_str) {
                Some("text") => b.get("text").and_then(Value::as_str).map(String::from),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// Whether a user line is a prompt the host delivered rather than one the person typed: Claude
/// Code marks scheduled wake-ups, cron tasks, task notifications and the like with `isMeta`,
/// `promptSource: "system"` or a non-human `origin` (2.1.328). Such lines are kept with the role
/// `delivered`, so nothing reads them as the user's words.
fn delivered(v: &Value) -> bool {
    v.get("isMeta").and_then(Value::as_bool) == Some(true)
        || v.get("promptSource").and_then(Value::as_str) == Some("system")
        || v.get("origin")
            .and_then(|o| o.get("kind"))
            .and_then(Value::as_str)
            .is_some_and(|k| !matches!(k, "human" | "composer" | "person"))
}

/// Read a transcript from its text.
pub fn parse(text: &str) -> Transcript {
    let mut r = Reader::default();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        r.t.lines += 1;
        match serde_json::from_str::<Value>(line) {
            Ok(v) => r.line(&v),
            Err(_) => r.t.bad_lines.push(i + 1),
        }
    }
    r.t
}

/// A transcript being read, one JSON line after another.
#[derive(Default)]
struct Reader {
    t: Transcript,
    /// The `message.id`s whose usage is counted already.
    counted: HashSet<String>,
}

impl Reader {
    fn line(&mut self, v: &Value) {
        let sidechain = v
            .get("isSidechain")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let timestamp = v.get("timestamp").and_then(Value::as_str).map(String::from);
        match v.get("type").and_then(Value::as_str) {
            Some("system")
                if v.get("subtype").and_then(Value::as_str) == Some("compact_boundary") =>
            {
                self.compaction(v, sidechain, timestamp);
            }
            Some(role @ ("user" | "assistant")) => self.message(v, role, sidechain, timestamp),
            _ => {} // progress, file-history-snapshot, queue-operation, future types
        }
    }

    /// A compaction empties the context: its size is unknown until the next assistant message.
    fn compaction(&mut self, v: &Value, sidechain: bool, timestamp: Option<String>) {
        let meta = v.get("compactMetadata");
        self.t.compactions.push(Compaction {
            trigger: meta
                .and_then(|m| m.get("trigger"))
                .and_then(Value::as_str)
                .map(String::from),
            pre_tokens: meta
                .and_then(|m| m.get("preTokens"))
                .and_then(Value::as_u64),
            timestamp,
        });
        if !sidechain {
            self.t.context_tokens = None;
        }
    }

    /// A user or assistant line: the compact summary it may be, its tool calls and results, its
    /// text, and (main-chain assistant lines) its usage.
    fn message(&mut self, v: &Value, role: &str, sidechain: bool, timestamp: Option<String>) {
        let Some(msg) = v.get("message") else {
            return;
        };
        let content = msg.get("content").cloned().unwrap_or(Value::Null);
        if role == "user" && v.get("isCompactSummary").and_then(Value::as_bool) == Some(true) {
            self.t.summary = Some(content_text(&content));
        }
        if let Value::Array(blocks) = &content {
            self.tool_blocks(blocks, sidechain, timestamp.as_deref());
        }
        if role == "assistant"
            && !sidechain
            && let Some(u) = Usage::of(msg)
        {
            self.main_chain_usage(msg, &u, timestamp.as_deref());
        }
        let text = content_text(&content);
        if !text.is_empty() {
            self.t.messages.push(Message {
                role: if role == "user" && delivered(v) {
                    "delivered".into()
                } else {
                    role.into()
                },
                text,
                sidechain,
                timestamp,
            });
        }
    }

    /// A `tool_use` block opens a call; a `tool_result` block answers the latest call of its id.
    fn tool_blocks(&mut self, blocks: &[Value], sidechain: bool, timestamp: Option<&str>) {
        let str_of = |b: &Value, k: &str| -> String {
            b.get(k).and_then(Value::as_str).unwrap_or_default().into()
        };
        for b in blocks {
            match b.get("type").and_then(Value::as_str) {
                Some("tool_use") => self.t.tool_calls.push(ToolCall {
                    id: str_of(b, "id"),
                    name: str_of(b, "name"),
                    input: b.get("input").cloned().unwrap_or(Value::Null),
                    result: None,
                    is_error: false,
                    sidechain,
                    timestamp: timestamp.map(String::from),
                }),
                Some("tool_result") => {
                    let id = b
                        .get("tool_use_id")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    if let Some(call) = self.t.tool_calls.iter_mut().rev().find(|c| c.id == id) {
                        call.result = Some(content_text(b.get("content").unwrap_or(&Value::Null)));
                        call.is_error = b.get("is_error").and_then(Value::as_bool).unwrap_or(false);
                    }
                }
                _ => {}
            }
        }
    }

    /// The context size is the latest message's; the totals count each API message once, though
    /// its lines repeat its `usage`.
    fn main_chain_usage(&mut self, msg: &Value, u: &Usage, timestamp: Option<&str>) {
        self.t.context_tokens = Some(u.context());
        let id = msg.get("id").and_then(Value::as_str).map(String::from);
        if id.is_none_or(|id| self.counted.insert(id)) {
            self.t.fill.push(FillPoint {
                timestamp: timestamp.map(String::from),
                context: u.context(),
            });
            let total = &mut self.t.usage;
            total.input_tokens += u.input_tokens;
            total.output_tokens += u.output_tokens;
            total.cache_creation_input_tokens += u.cache_creation_input_tokens;
            total.cache_read_input_tokens += u.cache_read_input_tokens;
        }
    }
}

/// The current context size, read backwards from the end of the file: cost depends on how far
/// back the latest main-chain assistant message is, not on the transcript's length.
pub fn context_tokens(path: &Path) -> Result<Option<u64>, FileError> {
    let file = File::open(path).at("open", path)?;
    let len = crate::fsutil::size_of(&file).at("read the size of", path)?;
    Ok(context_tokens_in(&file, len))
}

/// [`context_tokens`] over any positioned source.
pub fn context_tokens_in<R: ReadAt + ?Sized>(src: &R, len: u64) -> Option<u64> {
    crate::fsutil::last_deciding_line(src, len, decides)
}

/// What one line says about the current context size, read from the end: the latest main-chain
/// assistant usage, unless a compaction came after it. `None` when the line decides nothing.
pub(crate) fn decides(line: &[u8]) -> Option<Option<u64>> {
    // Only lines that can decide are parsed.
    let usage = memchr::memmem::find(line, b"\"usage\"").is_some();
    let boundary = memchr::memmem::find(line, b"compact_boundary").is_some();
    if !usage && !boundary {
        return None;
    }
    let v = serde_json::from_slice::<Value>(line).ok()?;
    if v.get("isSidechain").and_then(Value::as_bool) == Some(true) {
        return None;
    }
    match v.get("type").and_then(Value::as_str) {
        Some("system") if v.get("subtype").and_then(Value::as_str) == Some("compact_boundary") => {
            Some(None)
        }
        Some("assistant") => v
            .get("message")
            .and_then(Usage::of)
            .map(|u| Some(u.context())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_result_answers_its_call_and_delivered_prompts_are_marked() {
        let text = [
            r#"{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"run it"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":10,"output_tokens":2}}}"#,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"a.rs","is_error":true}]}}"#,
            r#"{"type":"user","isMeta":true,"message":{"content":"wake up"}}"#,
            "not json",
        ]
        .join("\n");
        let t = parse(&text);
        assert_eq!(t.lines, 4);
        assert_eq!(t.bad_lines, vec![4]);
        assert_eq!(t.tool_calls.len(), 1);
        let call = &t.tool_calls[0];
        assert_eq!(
            (call.name.as_str(), call.input["command"].as_str()),
            ("Bash", Some("ls"))
        );
        assert_eq!(call.result.as_deref(), Some("a.rs"));
        assert!(call.is_error);
        let said: Vec<(&str, &str)> = t
            .messages
            .iter()
            .map(|m| (m.role.as_str(), m.text.as_str()))
            .collect();
        assert_eq!(said, [("assistant", "run it"), ("delivered", "wake up")]);
        assert_eq!(t.context_tokens, Some(10));
        assert_eq!(t.usage.output_tokens, 2);
    }
}
