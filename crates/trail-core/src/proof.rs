//! The proof log (Operator's Edge §5): one JSON line per tool call in
//! `<project>/.proof/session_log.jsonl`, appended (never rewritten) and synced, recording what
//! really happened — from the host's report, not the agent's claims.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::file_error::{At, FileError};
use crate::host::{Event, ToolInput};
use crate::secrets::{Pass, Secrets, SecretsError};
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
    /// An edit's new lines, by file as the tool named it: each line's [`line_key`] (lines the
    /// edit kept from what it replaced are not new). What `trail blame` tells the agent's lines
    /// from a person's by.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub wrote: BTreeMap<String, Vec<String>>,
}

/// A line as `trail blame` recognises it: the first 12 hex digits of the SHA-256 of the line
/// without its trailing white space. Blank lines have none (they say nothing of who wrote them).
pub fn line_key(line: &str) -> Option<String> {
    let t = line.trim_end();
    (!t.trim().is_empty()).then(|| crate::text::sha256_hex(t.as_bytes())[..12].to_string())
}

/// At most this many new lines of one edit are keyed (a large Write keeps its first ones).
const WROTE_MAX: usize = 5_000;

/// The keys of `new`'s lines that `old` does not have as many times.
fn new_lines(old: &str, new: &str) -> Vec<String> {
    let mut had: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for l in old.lines() {
        *had.entry(l.trim_end()).or_default() += 1;
    }
    let mut out = Vec::new();
    for l in new.lines() {
        match had.get_mut(l.trim_end()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => out.extend(line_key(l)),
        }
        if out.len() >= WROTE_MAX {
            break;
        }
    }
    out
}

/// What an edit wrote, by file (see [`Entry::wrote`]); an apply_patch's `+` lines per file.
fn wrote(input: &ToolInput) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let path = input.files().first().map(|f| (*f).to_string());
    let mut put = |file: Option<String>, keys: Vec<String>| {
        if let Some(f) = file
            && !keys.is_empty()
        {
            out.entry(f).or_default().extend(keys);
        }
    };
    match input {
        ToolInput::Edit {
            replace: Some(r), ..
        } => put(path, new_lines(&r.old, &r.new)),
        ToolInput::MultiEdit {
            edits: Some(edits), ..
        } => {
            let keys = edits
                .iter()
                .flat_map(|r| new_lines(&r.old, &r.new))
                .collect();
            put(path, keys);
        }
        ToolInput::Write {
            content: Some(c), ..
        } => put(path, new_lines("", c)),
        ToolInput::NotebookEdit {
            source: Some(c), ..
        } => put(path, new_lines("", c)),
        ToolInput::ApplyPatch { patch: Some(p) } => {
            let mut file = None;
            let mut keys = Vec::new();
            for l in p.lines() {
                let header = ["*** Update File: ", "*** Add File: "]
                    .iter()
                    .find_map(|h| l.strip_prefix(h));
                if let Some(f) = header {
                    put(file.take(), std::mem::take(&mut keys));
                    file = Some(f.trim().to_string());
                } else if let Some(added) = l.strip_prefix('+') {
                    keys.extend(line_key(added));
                }
            }
            put(file, keys);
        }
        _ => {}
    }
    out
}

pub fn log_path(project_root: &Path) -> PathBuf {
    crate::layout::Layout::new(project_root).proof_log()
}

/// How far past a preview's end a text is still redacted before it is cut: a secret that
/// starts inside the preview and runs past its end is found whole, so no prefix of it shows.
/// (Texts are cut before redacting at all: a tool's output can be megabytes, and only the
/// preview is written.) A private key longer than this is still found without its end.
const PAST_THE_CUT: usize = 4096;

/// `text` redacted, then cut to `max` characters on a character boundary.
fn preview_text(text: &str, max: usize, p: &mut Pass<'_>) -> String {
    let red = p.redact(crate::text::head(text, max + PAST_THE_CUT));
    crate::text::head(&red, max).to_string()
}

/// A tool's response cut to `max` characters: a string as it is, `null` as nothing, anything
/// else as compact JSON, each string in it redacted as the text it is (see
/// [`Pass::redact_json`]) and only as much of each as the preview can show.
fn preview(v: &Value, max: usize, p: &mut Pass<'_>) -> String {
    match v {
        Value::String(s) => preview_text(s, max, p),
        Value::Null => String::new(),
        other => json_preview(other, max, p),
    }
}

/// `v` as compact JSON, cut to `max` characters, its strings redacted as in [`preview`].
fn json_preview(v: &Value, max: usize, p: &mut Pass<'_>) -> String {
    let mut out = String::new();
    write_json(v, max, p, &mut out);
    crate::text::head(&out, max).to_string()
}

/// Appends `v` to `out` as `serde_json` would write it, stopping early once `out` holds more
/// than `max` characters (its bytes are at least that many).
fn write_json(v: &Value, max: usize, p: &mut Pass<'_>, out: &mut String) {
    let full = |out: &String| out.len() > 4 * max;
    match v {
        Value::String(s) => {
            let red = p.redact(crate::text::head(s, max + PAST_THE_CUT));
            push_json_string(out, &red);
        }
        Value::Array(items) => {
            out.push('[');
            for (i, x) in items.iter().enumerate() {
                if full(out) {
                    return;
                }
                if i > 0 {
                    out.push(',');
                }
                write_json(x, max, p, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, x)) in map.iter().enumerate() {
                if full(out) {
                    return;
                }
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, &p.redact(k));
                out.push(':');
                write_json(x, max, p, out);
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn push_json_string(out: &mut String, s: &str) {
    out.push_str(&serde_json::to_string(s).unwrap_or_default());
}

/// The entry for a finished tool call, redacted; the originals of the secrets found are kept
/// by `secrets` before it is returned. `None` for any other event.
pub fn entry_for(
    event: &Event,
    session_id: Option<&str>,
    secrets: &Secrets,
) -> Result<Option<Entry>, SecretsError> {
    secrets.pass(|p| entry_in(event, session_id, p))
}

/// [`entry_for`] inside a writer's own pass (`trail import` redacts a batch of entries in one,
/// and in a dry run keeps nothing).
pub fn entry_in(event: &Event, session_id: Option<&str>, p: &mut Pass<'_>) -> Option<Entry> {
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
    let file_touched = input.files().first().map(std::string::ToString::to_string);
    let diff_hash = tool.edits_files().then(|| diff_hash(input));
    // A command is shown as written; any other input as the host sent it.
    let input_preview = match input {
        ToolInput::Bash {
            command: Some(text),
        }
        | ToolInput::ApplyPatch { patch: Some(text) } => preview_text(text, INPUT_PREVIEW, p),
        _ => json_preview(sent, INPUT_PREVIEW, p),
    };
    Some(Entry {
        timestamp: Ts::now().to_string(),
        tool: tool.name().into_owned(),
        input_preview,
        output_preview: response
            .as_ref()
            .map(|r| preview(r, OUTPUT_PREVIEW, p))
            .unwrap_or_default(),
        success: *ok,
        file_touched: file_touched.map(|f| p.redact(&f).into_owned()),
        diff_hash,
        error: error.as_deref().map(|e| p.redact(e).into_owned()),
        duration_ms: duration.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        session_id: session_id.map(String::from),
        tool_use_id: tool_use_id.clone(),
        wrote: if *ok { wrote(input) } else { BTreeMap::new() },
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
pub fn append(project_root: &Path, entry: &Entry) -> Result<Option<SystemTime>, FileError> {
    let path = log_path(project_root);
    append_io(project_root, &path, entry).at("append to", &path)
}

fn append_io(
    project_root: &Path,
    path: &Path,
    entry: &Entry,
) -> std::io::Result<Option<SystemTime>> {
    let mut line = serde_json::to_string(entry).map_err(std::io::Error::other)?;
    line.push('\n');
    // Not through a symlink: `ln -sf ~/.bashrc .proof/session_log.jsonl` would otherwise have
    // every tool call's command appended to the person's shell start-up file.
    Ok(crate::fsutil::append_in_since(
        project_root,
        path,
        line.as_bytes(),
    )?)
}

/// Append several entries as one write, synced once (an import logs a session's calls
/// together). Never rewrites the file.
pub fn append_all(project_root: &Path, entries: &[Entry]) -> Result<(), FileError> {
    let path = log_path(project_root);
    append_all_io(project_root, &path, entries).at("append to", &path)
}

fn append_all_io(project_root: &Path, path: &Path, entries: &[Entry]) -> std::io::Result<()> {
    let mut lines = String::new();
    for e in entries {
        lines.push_str(&serde_json::to_string(e).map_err(std::io::Error::other)?);
        lines.push('\n');
    }
    if lines.is_empty() {
        return Ok(());
    }
    Ok(crate::fsutil::append_in(
        project_root,
        path,
        lines.as_bytes(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::decode;

    #[test]
    fn a_failed_edit_becomes_one_redacted_line() {
        let (_, e) = decode(br#"{"hook_event_name":"PostToolUseFailure","tool_name":"Edit","tool_input":{"file_path":"/p/a.rs","old_string":"x","new_string":"token=ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ"},"error":"String not found"}"#).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
        let entry = entry_for(&e, Some("s1"), &secrets).unwrap().unwrap();
        assert!(!entry.success);
        assert_eq!(entry.file_touched.as_deref(), Some("/p/a.rs"));
        assert!(entry.diff_hash.as_ref().is_some_and(|h| h.len() == 64));
        assert!(
            !entry.input_preview.contains("ghp_"),
            "{}",
            entry.input_preview
        );
        let kept = std::fs::read_to_string(secrets.store_path()).unwrap();
        assert_eq!(
            occurrences(&kept, "ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ"),
            1
        );
        append(dir.path(), &entry).unwrap();
        append(dir.path(), &entry).unwrap();
        let text = std::fs::read_to_string(log_path(dir.path())).unwrap();
        assert_eq!(text.lines().count(), 2);
        let back: Entry = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(back, entry);
    }

    fn occurrences(hay: &str, needle: &str) -> usize {
        hay.matches(needle).count()
    }

    /// The entry for `payload`, and the secrets file it kept originals in.
    fn entry_kept(payload: serde_json::Value) -> (Entry, String) {
        let (_, e) = decode(payload.to_string().as_bytes()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
        let entry = entry_for(&e, None, &secrets).unwrap().unwrap();
        let kept = std::fs::read_to_string(secrets.store_path()).unwrap_or_default();
        (entry, kept)
    }

    fn entry(payload: serde_json::Value) -> Entry {
        entry_kept(payload).0
    }

    const KEY_BODY: &str = "mdVPlW354z9gY69gmsXlO85zSLAAUkNEbCiW69DD48gKSdUkz+Pe/pIlRvnZzM6M\nr8bpf1iIFYqNfMxhM8nAuO77O0+bDq1ld7U07UGWwALKYnWKFonOWsUQO2WUheVC";

    /// Found by reading the secrets file after a `cat id_rsa`: the response was redacted as its
    /// JSON text, so the key was found with `\n` for its line breaks, kept escaped, and, under
    /// another name than the same key in the command, kept twice.
    #[test]
    fn a_key_in_the_command_and_in_a_json_response_is_kept_once_as_written() {
        let key =
            format!("-----BEGIN RSA PRIVATE KEY-----\n{KEY_BODY}\n-----END RSA PRIVATE KEY-----");
        let (e, kept) = entry_kept(serde_json::json!({
            "hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": format!("printf '%s\\n' '{key}' > id_rsa && cat id_rsa")},
            "tool_response": {"stdout": format!("{key}\n"), "stderr": "", "interrupted": false},
        }));
        let lines: Vec<&str> = kept.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 1, "{kept}");
        // The store writes each value as a JSON string.
        let (name, value) = lines[0].split_once('=').unwrap();
        assert_eq!(serde_json::from_str::<String>(value).unwrap(), KEY_BODY);
        let reference = format!("${{secret:{name}}}");
        assert!(e.input_preview.contains(&reference), "{}", e.input_preview);
        assert!(
            e.output_preview.contains(&reference),
            "{}",
            e.output_preview
        );
        assert!(!e.output_preview.contains("mdVPlW354z9"));
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
        let entry = entry(payload);
        assert_eq!(entry.input_preview.chars().count(), 500);
        assert_eq!(entry.output_preview.chars().count(), 1000);
        assert!(entry.success);
    }
}
