//! Observations (§5): what really happened in a session, derived from the proof log rather
//! than from the agent's claims; and the quality gate (§6) that compares the two.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::{Map, Value};

use sha2::{Digest, Sha256};

use super::schema::{Observations, Progress, State};
use crate::file_error::{At, FileError};
use crate::host::Tool;
use crate::proof::{self, Entry};

/// Whether a proof-log entry records a file edit (entries store [`Tool::name`]).
fn is_edit(e: &Entry) -> bool {
    Tool::from_name(&e.tool).edits_files()
}

/// Derives observations from the proof log's lines after byte `from`, keeping the entries of
/// `session` (entries that name no session count too: older hosts send no id).
pub fn derive(
    project_root: &Path,
    from: u64,
    session: Option<&str>,
) -> Result<Observations, FileError> {
    derive_with_progress(project_root, from, session).map(|(o, _)| o)
}

/// [`derive()`], with the session's progress (§1 `progress`) from the same lines.
pub fn derive_with_progress(
    project_root: &Path,
    from: u64,
    session: Option<&str>,
) -> Result<(Observations, Progress), FileError> {
    let entries = entries(project_root, from, session)?;
    let progress = progress_of(&entries);
    Ok((from_entries(entries), progress))
}

/// The proof log's entries after byte `from` that belong to `session` (as [`derive()`] reads
/// them), oldest first.
pub fn entries(
    project_root: &Path,
    from: u64,
    session: Option<&str>,
) -> Result<Vec<Entry>, FileError> {
    let path = proof::log_path(project_root);
    let mut text = String::new();
    // Not through a symlink, and never a FIFO (a hook must not block on it).
    match crate::fsutil::open_in(project_root, &path, crate::fsutil::Access::Read) {
        Ok(mut f) => {
            let len = f.metadata().at("read the size of", &path)?.len();
            f.seek(SeekFrom::Start(from.min(len)))
                .at("seek in", &path)?;
            // A torn last line (a hook killed mid-write) is skipped below, not fatal.
            let mut bytes = Vec::new();
            f.read_to_end(&mut bytes).at("read", &path)?;
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    Ok(text
        .lines()
        .filter_map(|l| serde_json::from_str::<Entry>(l).ok())
        .filter(|e| match (session, e.session_id.as_deref()) {
            (Some(s), Some(id)) => s == id,
            _ => true,
        })
        .collect())
}

/// §1 `progress`: when the last tool ran, a hash of the edits made (identical edits hash
/// alike), and how many tools ran this session.
pub fn progress_of(entries: &[Entry]) -> Progress {
    let mut h = Sha256::new();
    let mut edits = 0;
    for e in entries.iter().filter(|e| is_edit(e)) {
        edits += 1;
        h.update(e.file_touched.as_deref().unwrap_or("").as_bytes());
        h.update(e.diff_hash.as_deref().unwrap_or("").as_bytes());
    }
    Progress {
        last_tool_at: entries.last().map(|e| e.timestamp.clone()),
        last_edit_hash: (edits > 0).then(|| crate::text::hex(&h.finalize())),
        tools_used: entries.len() as u64,
        extra: Map::new(),
    }
}

pub fn from_entries(entries: impl IntoIterator<Item = Entry>) -> Observations {
    let mut o = Observations::default();
    let mut counts: Map<String, Value> = Map::new();
    for e in entries {
        let n = counts.get(&e.tool).and_then(Value::as_u64).unwrap_or(0);
        counts.insert(e.tool.clone(), Value::from(n + 1));
        if let Some(f) = &e.file_touched
            && is_edit(&e)
            && !o.files_modified.contains(f)
        {
            o.files_modified.push(f.clone());
        }
        if Tool::from_name(&e.tool) == Tool::Bash && looks_like_tests(&e.input_preview) {
            o.tests_run = true;
        }
        o.last_activity = Some(e.timestamp.clone());
    }
    o.tools_used = counts;
    o
}

/// The spec's test: the word "test" in the command (`cargo test`, `pytest`, `npm test`, …).
fn looks_like_tests(cmd: &str) -> bool {
    cmd.to_ascii_lowercase().contains("test")
}

/// The five checks of §6; empty when the state may be called done.
pub fn quality_gate(state: &State) -> Vec<String> {
    let mut issues = Vec::new();
    if !state.has_objective() {
        issues.push("No objective defined".to_string());
    }
    let completed = state
        .plan
        .iter()
        .filter(|s| s.status_is("completed"))
        .count();
    if completed == 0 {
        issues.push("No steps marked completed".into());
    }
    let in_progress = state
        .plan
        .iter()
        .filter(|s| s.status_is("in_progress"))
        .count();
    if in_progress > 0 {
        issues.push(format!("{in_progress} steps still in progress"));
    }
    let obs = state.observations.clone().unwrap_or_default();
    if obs.total_tools() < 3 {
        issues.push("Very little activity observed".into());
    }
    if completed > 0 && obs.files_modified.is_empty() {
        issues.push("Steps marked completed but no files modified".into());
    }
    issues
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::schema::Step;

    fn entry(tool: &str, input: &str, file: Option<&str>, session: Option<&str>) -> Entry {
        Entry {
            timestamp: "2026-11-26T10:00:00.000000Z".into(),
            tool: tool.into(),
            input_preview: input.into(),
            output_preview: String::new(),
            success: true,
            file_touched: file.map(String::from),
            diff_hash: None,
            error: None,
            duration_ms: None,
            session_id: session.map(String::from),
            tool_use_id: None,
            wrote: std::collections::BTreeMap::new(),
        }
    }

    #[test]
    fn observations_count_tools_files_and_tests() {
        let o = from_entries([
            entry("Read", "{}", Some("/p/a.rs"), None),
            entry("Edit", "{}", Some("/p/a.rs"), None),
            entry("Edit", "{}", Some("/p/a.rs"), None),
            entry("Bash", "cargo test -q", None, None),
        ]);
        assert_eq!(o.files_modified, vec!["/p/a.rs".to_string()]);
        assert_eq!(o.total_tools(), 4);
        assert_eq!(o.tools_used["Edit"], 2);
        assert!(o.tests_run);
    }

    #[test]
    fn derive_reads_only_this_session_after_the_offset() {
        let dir = tempfile::tempdir().unwrap();
        proof::append(dir.path(), &entry("Bash", "ls", None, Some("old"))).unwrap();
        let from = std::fs::metadata(proof::log_path(dir.path()))
            .unwrap()
            .len();
        proof::append(dir.path(), &entry("Edit", "{}", Some("/x"), Some("s1"))).unwrap();
        proof::append(dir.path(), &entry("Bash", "pytest", None, Some("s2"))).unwrap();
        let o = derive(dir.path(), from, Some("s1")).unwrap();
        assert_eq!(o.total_tools(), 1);
        assert!(!o.tests_run);
        let all = derive(dir.path(), 0, None).unwrap();
        assert_eq!(all.total_tools(), 3);
    }

    #[test]
    fn the_quality_gate_runs_all_five_checks() {
        let mut s = State::new();
        assert_eq!(
            quality_gate(&s),
            [
                "No objective defined",
                "No steps marked completed",
                "Very little activity observed"
            ]
        );
        s.objective = Some("x".into());
        s.plan = vec![
            Step {
                description: "a".into(),
                status: Some("completed".into()),
                ..Step::default()
            },
            Step {
                description: "b".into(),
                status: Some("in_progress".into()),
                ..Step::default()
            },
        ];
        s.observations = Some(from_entries([
            entry("Bash", "ls", None, None),
            entry("Bash", "ls", None, None),
            entry("Bash", "ls", None, None),
        ]));
        assert_eq!(
            quality_gate(&s),
            [
                "1 steps still in progress",
                "Steps marked completed but no files modified"
            ]
        );
        s.plan[1].status = Some("completed".into());
        s.observations = Some(from_entries([
            entry("Edit", "{}", Some("/p/a"), None),
            entry("Bash", "ls", None, None),
            entry("Bash", "ls", None, None),
        ]));
        assert!(quality_gate(&s).is_empty());
    }
}
