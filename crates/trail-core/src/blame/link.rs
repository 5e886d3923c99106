//! The hook's side: a commit the agent made, as PostToolUse saw it, appended to
//! `.trail/state/commits.jsonl` (where the gate keeps the agent from writing). One line, no
//! process: the hook's budget has no room for git. The notes are written from these lines later
//! ([`super::note::flush`]), outside the hook.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::file_error::{At, FileError};
use crate::layout::Layout;
use crate::time::Ts;

/// Where a record sits in the hash-chained stream: its time and the digest the next record's
/// `prev` names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordRef {
    pub ts: String,
    pub digest: String,
}

/// One commit of the agent's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    #[serde(with = "crate::time::text")]
    pub at: Ts,
    /// The commit `HEAD` named right after the command.
    pub commit: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// The command, redacted and cut.
    pub command: String,
    /// The pulse the hook wrote for the commit.
    pub record: RecordRef,
}

/// Append `link` to the project's commit journal.
pub fn append(root: &Path, link: &Link) -> Result<(), FileError> {
    let path = Layout::new(root).commits();
    let mut bytes = serde_json::to_vec(link)
        .map_err(|e| FileError::new("write", &path, std::io::Error::other(e)))?;
    bytes.push(b'\n');
    if crate::fsutil::ends_inside_a_line(root, &path) {
        bytes.insert(0, b'\n');
    }
    crate::fsutil::append_in(root, &path, &bytes).at("append to", &path)
}

/// Every link in the journal, and the byte offset after each (a torn or foreign line is
/// skipped).
pub fn read(root: &Path) -> Result<Vec<(Link, u64)>, FileError> {
    let path = Layout::new(root).commits();
    let bytes = match crate::fsutil::read_in(root, &path, 64 << 20) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut out = Vec::new();
    let mut at = 0u64;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        at += line.len() as u64;
        if !line.ends_with(b"\n") {
            break;
        }
        if let Ok(l) = serde_json::from_slice::<Link>(line) {
            out.push((l, at));
        }
    }
    Ok(out)
}

/// The offset up to which notes are written.
pub fn noted(root: &Path) -> u64 {
    let path = Layout::new(root).commits_noted();
    crate::fsutil::read_in(root, &path, 64)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}

/// Notes are written up to `offset`.
pub fn mark_noted(root: &Path, offset: u64) -> Result<(), FileError> {
    let path = Layout::new(root).commits_noted();
    crate::fsutil::atomic_write_in(root, &path, format!("{offset}\n").as_bytes()).at("write", &path)
}
