//! What the conversation was doing when its context went: the user's last prompts, word for word,
//! and the last tool calls with how they ended, from the end of the host's own record (Claude
//! Code's transcript, Codex's rollout: [`crate::conversation`] tells them apart).
//!
//! Only the file's end is read ([`TAILS`]): a session start must not parse a 50 MB transcript,
//! and what matters is the latest. The first, small read usually holds the last prompts; larger
//! ones are tried while it holds fewer than asked for (turns with long tool output in between).
//!
//! What is not the person's words is left out: prompts the host delivered (`isMeta`, scheduled
//! or wrapped ones: [`crate::host::origin`]), the compact summary (a `user` line Claude Code
//! writes itself), the output of local commands. A slash command the person typed is kept as
//! they typed it (`/compact keep the plan`).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::conversation::Format;
use crate::transcript::{ToolCall, Transcript};

/// How much of a session file's end is read: the small tail, then larger ones while it holds
/// fewer prompts than asked for (a turn with long tool output in between).
pub const TAILS: [u64; 3] = [64 << 10, 512 << 10, 2 << 20];

/// One tool call, as the packet names it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Call {
    pub tool: String,
    /// What it was called on: the command, the file, else its input in short.
    pub on: String,
    pub outcome: Outcome,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Ok,
    Failed,
    /// No result recorded: it was running (or its result was lost) when the context ended.
    InFlight,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Failed => "failed",
            Outcome::InFlight => "no result: in flight when the context ended",
        }
    }
}

/// What the end of a session file says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Said {
    /// The user's last prompts, oldest first, as typed.
    pub prompts: Vec<String>,
    /// The last main-chain tool calls, oldest first.
    pub calls: Vec<Call>,
}

impl Said {
    pub fn is_empty(&self) -> bool {
        self.prompts.is_empty() && self.calls.is_empty()
    }
}

/// The last `prompts` prompts and `calls` tool calls of the session file at `path`. An error
/// names the file.
pub fn read(
    path: &Path,
    prompts: usize,
    calls: usize,
) -> Result<Said, trail_base::file_error::FileError> {
    use trail_base::file_error::At;
    read_tails(path, prompts, calls).at("read", path)
}

fn read_tails(path: &Path, prompts: usize, calls: usize) -> io::Result<Said> {
    let mut file = File::open(path)?;
    let len = crate::fsutil::size_of(&file)?;
    let mut head = Vec::new();
    (&mut file).take(4096).read_to_end(&mut head)?;
    let format = Format::of(&head);
    let mut said = Said::default();
    for tail in TAILS {
        let mut text = tail_text(&mut file, len, tail)?;
        if format == Format::ClaudeCode {
            text = slim(&text);
        }
        said = of(&format.parse(&text), prompts, calls);
        if said.prompts.len() >= prompts || tail >= len {
            break;
        }
    }
    Ok(said)
}

/// The whole lines of the last `tail` bytes of a file `len` long.
fn tail_text(file: &mut File, len: u64, tail: u64) -> io::Result<String> {
    let start = len.saturating_sub(tail);
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.take(tail).read_to_end(&mut bytes)?;
    let whole = if start == 0 {
        &bytes[..]
    } else {
        memchr::memchr(b'\n', &bytes).map_or(&[][..], |i| &bytes[i + 1..])
    };
    Ok(String::from_utf8_lossy(whole).into_owned())
}

/// A Claude Code transcript's lines as far as the packet reads them, so that parsing costs what
/// the packet needs rather than what the session printed: a tool result keeps its call's id and
/// whether it failed, not its output (most of a transcript's bytes); an assistant line without a
/// tool call, and every line that is neither a user's nor an assistant's (attachments,
/// snapshots, progress), is left out. Keys are found as they stand in the line: inside a JSON
/// string a quote is escaped, so `"tool_use_id":"` there is a key, never a tool's output.
fn slim(text: &str) -> String {
    let mut out = String::with_capacity(text.len() / 4);
    for line in text.lines() {
        let has = |k: &str| memchr::memmem::find(line.as_bytes(), k.as_bytes()).is_some();
        let user = has("\"type\":\"user\"");
        if !user && !has("\"type\":\"assistant\"") && !has("compact_boundary") {
            continue;
        }
        if !user && !has("\"tool_use\"") && !has("compact_boundary") {
            continue;
        }
        match (user && has("\"tool_result\""), result_of(line)) {
            (true, Some(small)) => out.push_str(&small),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// A tool-result line made small: its one result's call id and outcome. `None` when the line
/// holds more than that (text too, or several results): it is parsed whole.
fn result_of(line: &str) -> Option<String> {
    const ID: &str = "\"tool_use_id\":\"";
    let b = line.as_bytes();
    let mut ids = memchr::memmem::find_iter(b, ID.as_bytes());
    let at = ids.next()? + ID.len();
    if ids.next().is_some() || memchr::memmem::find(b, b"\"type\":\"text\"").is_some() {
        return None;
    }
    let id = &line[at..at + line[at..].find('"')?];
    let flag = |k: &str| memchr::memmem::find(b, k.as_bytes()).is_some();
    Some(
        serde_json::json!({
            "type": "user",
            "isSidechain": flag("\"isSidechain\":true"),
            "message": {"role": "user", "content": [{
                "type": "tool_result",
                "tool_use_id": id,
                "is_error": flag("\"is_error\":true"),
                "content": "",
            }]},
        })
        .to_string(),
    )
}

/// The prompts and calls a parsed session holds.
pub fn of(t: &Transcript, prompts: usize, calls: usize) -> Said {
    let mut p: Vec<String> = t
        .messages
        .iter()
        .filter(|m| m.role == "user" && !m.sidechain)
        .filter(|m| t.summary.as_deref() != Some(m.text.as_str()))
        .filter_map(|m| typed(&m.text))
        .collect();
    p.drain(..p.len().saturating_sub(prompts));
    let mut c: Vec<Call> = t
        .tool_calls
        .iter()
        .filter(|c| !c.sidechain)
        .map(call)
        .collect();
    c.drain(..c.len().saturating_sub(calls));
    Said {
        prompts: p,
        calls: c,
    }
}

/// The person's words in a user line, when it holds any: a slash command as typed, nothing for
/// a local command's output or a delivered prompt.
fn typed(text: &str) -> Option<String> {
    let t = text.trim();
    if t.is_empty() || t.starts_with("<local-command-") {
        return None;
    }
    if t.starts_with("<command-") {
        let tag = |name: &str| -> Option<&str> {
            let open = format!("<{name}>");
            let close = format!("</{name}>");
            let a = t.find(&open)? + open.len();
            let b = t[a..].find(&close)? + a;
            Some(t[a..b].trim())
        };
        let name = tag("command-name")?;
        let args = tag("command-args").unwrap_or_default();
        return Some(if args.is_empty() {
            name.to_string()
        } else {
            format!("{name} {args}")
        });
    }
    // Claude Code's wrappers for what it delivers on others' behalf (task notifications…).
    if crate::host::origin::wrapped(t).is_some() {
        return None;
    }
    Some(t.to_string())
}

fn call(c: &ToolCall) -> Call {
    let field = |k: &str| c.input.get(k).and_then(Value::as_str).map(str::to_string);
    let on = field("command")
        .or_else(|| field("file_path"))
        .or_else(|| field("path"))
        .or_else(|| field("pattern"))
        .or_else(|| field("url"))
        .unwrap_or_else(|| match &c.input {
            Value::Null => String::new(),
            v => v.to_string(),
        });
    Call {
        tool: c.name.clone(),
        on,
        outcome: match (&c.result, c.is_error) {
            (None, _) => Outcome::InFlight,
            (Some(_), true) => Outcome::Failed,
            (Some(_), false) => Outcome::Ok,
        },
    }
}

/// The session file to read for a session that has just started with nothing in it (Claude
/// Code's `/clear` opens a new transcript): the most recently written other `.jsonl` beside it,
/// which is the conversation that was cleared (one directory per project).
pub fn previous(path: &Path) -> Option<PathBuf> {
    let dir = path.parent()?;
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| {
            let p = e.path();
            p != path
                && p.extension().is_some_and(|x| x == "jsonl")
                && e.file_type().is_ok_and(|t| t.is_file())
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max_by_key(|(t, _)| *t)
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(v: &serde_json::Value) -> String {
        format!("{v}\n")
    }

    fn user(text: &str) -> String {
        line(&serde_json::json!({"type":"user","message":{"role":"user","content":text}}))
    }

    fn tool_use(id: &str, command: &str) -> String {
        line(
            &serde_json::json!({"type":"assistant","message":{"role":"assistant","content":[
            {"type":"tool_use","id":id,"name":"Bash","input":{"command":command}}]}}),
        )
    }

    fn tool_result(id: &str, error: bool) -> String {
        line(
            &serde_json::json!({"type":"user","message":{"role":"user","content":[
            {"type":"tool_result","tool_use_id":id,"content":"out","is_error":error}]}}),
        )
    }

    #[test]
    fn the_persons_last_words_and_the_calls_in_flight() {
        let text = [
            user("first ask"),
            user("use the staging db on port 5433, not 5432"),
            tool_use("t1", "cargo test"),
            tool_result("t1", true),
            line(&serde_json::json!({"type":"user","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>Caveat</local-command-caveat>"}})),
            user("<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args>keep the plan</command-args>"),
            user("<local-command-stdout>Compacted</local-command-stdout>"),
            line(&serde_json::json!({"type":"user","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued"}})),
            user("<task-notification>a job finished</task-notification>"),
            user("now wire the hook"),
            tool_use("t2", "cargo build"),
            tool_result("t2", false),
            tool_use("t3", "cargo test -p trail"),
        ]
        .concat();
        let said = of(&crate::conversation::parse(&text), 3, 2);
        assert_eq!(
            said.prompts,
            [
                "use the staging db on port 5433, not 5432",
                "/compact keep the plan",
                "now wire the hook"
            ]
        );
        assert_eq!(
            said.calls,
            [
                Call {
                    tool: "Bash".into(),
                    on: "cargo build".into(),
                    outcome: Outcome::Ok
                },
                Call {
                    tool: "Bash".into(),
                    on: "cargo test -p trail".into(),
                    outcome: Outcome::InFlight
                }
            ]
        );
        let all = of(&crate::conversation::parse(&text), 10, 10);
        assert_eq!(all.calls[0].outcome, Outcome::Failed);
    }

    #[test]
    fn a_slimmed_transcript_says_what_the_whole_one_says() {
        let big = "x".repeat(50_000);
        let text = [
            user("first ask"),
            tool_use("t1", "cargo test"),
            line(&serde_json::json!({"type":"user","message":{"role":"user","content":[
                {"type":"tool_result","tool_use_id":"t1","content":format!("{big} \\\"is_error\\\":true"),"is_error":false}]}})),
            line(&serde_json::json!({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":big}]}})),
            line(&serde_json::json!({"type":"attachment","attachment":{"type":"hook_additional_context","content":[big]}})),
            tool_use("t2", "ls /nope"),
            tool_use("t3", "echo side"),
            line(&serde_json::json!({"type":"user","message":{"role":"user","content":[
                {"type":"tool_result","tool_use_id":"t2","content":"no such file","is_error":true},
                {"type":"tool_result","tool_use_id":"t3","content":"side","is_error":false}]}})),
            line(&serde_json::json!({"type":"user","isSidechain":true,"message":{"role":"user","content":[
                {"type":"tool_result","tool_use_id":"t9","content":big,"is_error":true}]}})),
            user("now the expiry"),
        ]
        .concat();
        let slimmed = slim(&text);
        assert!(slimmed.len() < 2_000, "{}", slimmed.len());
        let whole = of(&crate::conversation::parse(&text), 5, 5);
        let slim_said = of(&crate::conversation::parse(&slimmed), 5, 5);
        assert_eq!(slim_said, whole);
        assert_eq!(
            whole.calls.iter().map(|c| c.outcome).collect::<Vec<_>>(),
            [Outcome::Ok, Outcome::Failed, Outcome::Ok]
        );
    }

    #[test]
    fn only_the_end_is_read_and_a_cut_line_is_not_misread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        // A long start (a prompt with a huge paste) then the last prompt.
        let mut text = user(&"x".repeat(3 << 20));
        text.push_str(&user("the last words"));
        std::fs::write(&path, &text).unwrap();
        let said = read(&path, 3, 3).unwrap();
        assert_eq!(said.prompts, ["the last words"]);
        // No prompt in the small tail: the larger one finds it.
        let mut text = user("said before a long output");
        text.push_str(&tool_use("t1", "cat big"));
        text.push_str(&line(
            &serde_json::json!({"type":"user","message":{"role":"user","content":[
            {"type":"tool_result","tool_use_id":"t1","content":"y".repeat(600 << 10)}]}}),
        ));
        std::fs::write(&path, &text).unwrap();
        let said = read(&path, 3, 3).unwrap();
        assert_eq!(said.prompts, ["said before a long output"]);
        assert_eq!(said.calls[0].outcome, Outcome::Ok);
        assert!(read(&dir.path().join("missing.jsonl"), 3, 3).is_err());
    }

    #[test]
    fn after_clear_the_cleared_conversation_is_beside_the_new_one() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.jsonl");
        let new = dir.path().join("new.jsonl");
        std::fs::write(&old, user("before clear")).unwrap();
        std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
        std::fs::write(&new, "").unwrap();
        assert_eq!(previous(&new), Some(old));
    }
}
