//! The proof log (Operator's Edge §5): one JSON line per tool call in
//! `<project>/.proof/session_log.jsonl`, appended (never rewritten) and synced, recording what
//! really happened — from the host's report, not the agent's claims.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::host::{Event, ToolInput};
use crate::secrets::{Found, Redactor};
use crate::time::Ts;

const INPUT_PREVIEW: usize = 500;
const OUTPUT_PREVIEW: usize = 1000;

/// One line of the proof log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub timestamp: String,
    pub tool: String,
    pub input_preview: String,
    pub output_preview: String,
    pub success: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_touched: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff_hash: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The host's id of the call (Claude Code's `tool_use_id`, Codex's `call_id`) when it gave
    /// one: what tells a call already logged (by the hooks, or an earlier `trail import`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
}

pub fn log_path(project_root: &Path) -> PathBuf {
    crate::layout::Layout::new(project_root).proof_log()
}

/// Cut to `max` characters on a character boundary.
fn preview(v: &Value, max: usize) -> String {
    let s = match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    s.chars().take(max).collect()
}

/// The entry for a finished tool call, redacted (secrets found are returned for storing).
pub fn entry_for(
    event: &Event,
    session_id: Option<&str>,
    redactor: &Redactor,
    found: &mut Vec<Found>,
) -> Option<Entry> {
    let Event::ToolFinished {
        tool,
        input,
        sent,
        response,
        ok,
        error,
        duration,
        tool_use_id,
    } = event
    else {
        return None;
    };
    let mut red = |s: String| redactor.redact(&s, found).into_owned();
    // A command is shown as written; any other input as the host sent it.
    let input_text = match input {
        ToolInput::Bash {
            command: Some(text),
        }
        | ToolInput::ApplyPatch { patch: Some(text) } => text.clone(),
        _ => sent.to_string(),
    };
    let file_touched = input.files().first().map(|f| f.to_string());
    let diff_hash = tool.edits_files().then(|| diff_hash(input));
    Some(Entry {
        timestamp: Ts::now().to_string(),
        tool: tool.name().into_owned(),
        input_preview: red(input_text.chars().take(INPUT_PREVIEW).collect()),
        output_preview: red(response
            .as_ref()
            .map(|r| preview(r, OUTPUT_PREVIEW))
            .unwrap_or_default()),
        success: *ok,
        file_touched: file_touched.map(&mut red),
        diff_hash,
        error: error.clone().map(&mut red),
        duration_ms: duration.map(|d| d.as_millis() as u64),
        session_id: session_id.map(String::from),
        tool_use_id: tool_use_id.clone(),
    })
}

/// What an edit changed, as the host reported it: identical edits hash alike. Each part is
/// hashed under the name the host gives it, its text as JSON.
fn diff_hash(input: &ToolInput) -> String {
    let mut h = Sha256::new();
    let mut part = |name: &str, text: &str| {
        h.update(name.as_bytes());
        h.update(serde_json::to_string(text).unwrap_or_default().as_bytes());
    };
    match input {
        ToolInput::Edit {
            replace: Some(r), ..
        } => {
            part("old_string", &r.old);
            part("new_string", &r.new);
        }
        ToolInput::MultiEdit {
            edits: Some(edits), ..
        } => {
            for r in edits {
                part("old_string", &r.old);
                part("new_string", &r.new);
            }
        }
        ToolInput::Write {
            content: Some(c), ..
        } => part("content", c),
        ToolInput::NotebookEdit {
            source: Some(s), ..
        } => part("new_source", s),
        ToolInput::ApplyPatch { patch: Some(p) } => part("command", p),
        _ => {}
    }
    crate::text::hex(&h.finalize())
}

/// Append one entry as one line and sync it. Never rewrites the file. Returns when the line
/// before it was written (`None` for the first line), which the hooks read as a clock.
pub fn append(project_root: &Path, entry: &Entry) -> std::io::Result<Option<SystemTime>> {
    let path = log_path(project_root);
    let mut line = serde_json::to_string(entry).map_err(std::io::Error::other)?;
    line.push('\n');
    // Not through a symlink: `ln -sf ~/.bashrc .proof/session_log.jsonl` would otherwise have
    // every tool call's command appended to the person's shell start-up file.
    crate::fsutil::append_in_since(project_root, &path, line.as_bytes())
}

/// Append several entries as one write, synced once (an import logs a session's calls
/// together). Never rewrites the file.
pub fn append_all(project_root: &Path, entries: &[Entry]) -> std::io::Result<()> {
    let mut lines = String::new();
    for e in entries {
        lines.push_str(&serde_json::to_string(e).map_err(std::io::Error::other)?);
        lines.push('\n');
    }
    if lines.is_empty() {
        return Ok(());
    }
    crate::fsutil::append_in(project_root, &log_path(project_root), lines.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    #[test]
    fn a_failed_edit_becomes_one_redacted_line() {
        let (_, e) = decode(br#"{"hook_event_name":"PostToolUseFailure","tool_name":"Edit","tool_input":{"file_path":"/p/a.rs","old_string":"x","new_string":"token=ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ"},"error":"String not found"}"#).unwrap();
        let mut found = Vec::new();
        let entry = entry_for(&e, Some("s1"), Redactor::builtin(), &mut found).unwrap();
        assert!(!entry.success);
        assert_eq!(entry.file_touched.as_deref(), Some("/p/a.rs"));
        assert!(entry.diff_hash.as_ref().is_some_and(|h| h.len() == 64));
        assert!(
            !entry.input_preview.contains("ghp_"),
            "{}",
            entry.input_preview
        );
        assert_eq!(found.len(), 1);
        let dir = tempfile::tempdir().unwrap();
        append(dir.path(), &entry).unwrap();
        append(dir.path(), &entry).unwrap();
        let text = std::fs::read_to_string(log_path(dir.path())).unwrap();
        assert_eq!(text.lines().count(), 2);
        let back: Entry = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(back, entry);
    }

    fn entry(payload: serde_json::Value) -> Entry {
        let (_, e) = decode(payload.to_string().as_bytes()).unwrap();
        entry_for(&e, None, Redactor::builtin(), &mut Vec::new()).unwrap()
    }

    #[test]
    fn each_tool_is_logged_from_its_typed_input() {
        // Codex: the patch is the preview, its first file the file touched.
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Add File: b.txt\n+b\n*** End Patch\n";
        let e = entry(
            serde_json::json!({"hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command": patch},"tool_response":"Exit code: 0"}),
        );
        assert_eq!(
            (e.tool.as_str(), e.input_preview.as_str()),
            ("apply_patch", patch)
        );
        assert_eq!(e.file_touched.as_deref(), Some("src/a.rs"));
        assert!(e.diff_hash.is_some());
        // Codex's shell is logged as Bash, its command as written.
        let e = entry(
            serde_json::json!({"hook_event_name":"PostToolUse","tool_name":"shell","tool_input":{"command":"ls -la"}}),
        );
        assert_eq!(
            (e.tool.as_str(), e.input_preview.as_str()),
            ("Bash", "ls -la")
        );
        assert_eq!((e.file_touched, e.diff_hash), (None, None));
        // A read names its file; any other tool is shown as the host sent it.
        let e = entry(
            serde_json::json!({"hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{"file_path":"/p/r.md","limit":5}}),
        );
        assert_eq!(e.file_touched.as_deref(), Some("/p/r.md"));
        assert_eq!(e.input_preview, r#"{"file_path":"/p/r.md","limit":5}"#);
        assert_eq!(e.diff_hash, None);
        let e = entry(
            serde_json::json!({"hook_event_name":"PostToolUse","tool_name":"Monitor","tool_input":{"command":"tail -f x","description":"watch"}}),
        );
        assert_eq!(
            e.input_preview,
            r#"{"command":"tail -f x","description":"watch"}"#
        );
    }

    #[test]
    fn identical_edits_hash_alike_and_different_ones_do_not() {
        let edit = |new: &str| {
            entry(
                serde_json::json!({"hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/a.rs","old_string":"a","new_string":new}}),
            )
            .diff_hash
        };
        assert_eq!(edit("b"), edit("b"));
        assert_ne!(edit("b"), edit("c"));
        let write = entry(
            serde_json::json!({"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"/p/a.rs","content":"b"}}),
        );
        assert_ne!(write.diff_hash, edit("b"));
        assert_eq!(write.file_touched.as_deref(), Some("/p/a.rs"));
        // Codex's patches too: every patch once hashed alike, whatever it changed.
        let patch = |new: &str| {
            let patch =
                format!("*** Begin Patch\n*** Update File: a.rs\n@@\n-a\n+{new}\n*** End Patch\n");
            entry(
                serde_json::json!({"hook_event_name":"PostToolUse","tool_name":"apply_patch","tool_input":{"command": patch}}),
            )
            .diff_hash
        };
        assert_eq!(patch("b"), patch("b"));
        assert_ne!(patch("b"), patch("c"));
    }

    #[test]
    fn previews_are_cut_to_the_spec_lengths() {
        let long = "x".repeat(5000);
        let payload = serde_json::json!({"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command": long},"tool_response":{"stdout": long}});
        let (_, e) = decode(payload.to_string().as_bytes()).unwrap();
        let entry = entry_for(&e, None, Redactor::builtin(), &mut Vec::new()).unwrap();
        assert_eq!(entry.input_preview.chars().count(), 500);
        assert_eq!(entry.output_preview.chars().count(), 1000);
        assert!(entry.success);
    }
}
