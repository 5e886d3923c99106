//! The proof log (Operator's Edge §5): one JSON line per tool call in
//! `<project>/.proof/session_log.jsonl`, appended (never rewritten) and synced, recording what
//! really happened — from the host's report, not the agent's claims.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::host::{Event, Tool};
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
}

pub fn log_path(project_root: &Path) -> PathBuf {
    crate::layout::Layout::new(project_root).proof_log()
}

fn name_of(tool: &Tool) -> String {
    match tool {
        Tool::Bash => "Bash".into(),
        Tool::Edit => "Edit".into(),
        Tool::MultiEdit => "MultiEdit".into(),
        Tool::Write => "Write".into(),
        Tool::ApplyPatch => "apply_patch".into(),
        Tool::NotebookEdit => "NotebookEdit".into(),
        Tool::Read => "Read".into(),
        Tool::Mcp { server, tool } => format!("mcp__{server}__{tool}"),
        Tool::Other(n) => n.clone(),
    }
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
        response,
        ok,
        error,
        duration,
        ..
    } = event
    else {
        return None;
    };
    let mut red = |s: String| redactor.redact(&s, found).into_owned();
    let input_text = match (tool, input.get("command")) {
        (Tool::Bash | Tool::ApplyPatch, Some(Value::String(c))) => c.clone(),
        _ => input.to_string(),
    };
    let file_touched = match (tool, input.get("command")) {
        (Tool::ApplyPatch, Some(Value::String(p))) => {
            crate::host::codex::patch_paths(p).into_iter().next()
        }
        _ => ["file_path", "notebook_path", "path"]
            .iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str))
            .filter(|_| tool.edits_files() || matches!(tool, Tool::Read))
            .map(String::from),
    };
    // What the edit changed, as the host reported it: identical edits hash alike.
    let diff_hash = tool.edits_files().then(|| {
        let mut h = Sha256::new();
        for k in ["old_string", "new_string", "content", "edits", "new_source"] {
            if let Some(v) = input.get(k) {
                h.update(k.as_bytes());
                h.update(v.to_string().as_bytes());
            }
        }
        crate::text::hex(&h.finalize())
    });
    Some(Entry {
        timestamp: Ts::now().to_string(),
        tool: name_of(tool),
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
    })
}

/// Append one entry as one line and sync it. Never rewrites the file.
pub fn append(project_root: &Path, entry: &Entry) -> std::io::Result<()> {
    let path = log_path(project_root);
    let mut line = serde_json::to_string(entry).map_err(std::io::Error::other)?;
    line.push('\n');
    // Not through a symlink: `ln -sf ~/.bashrc .proof/session_log.jsonl` would otherwise have
    // every tool call's command appended to the person's shell start-up file.
    crate::fsutil::append_in(project_root, &path, line.as_bytes())
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
