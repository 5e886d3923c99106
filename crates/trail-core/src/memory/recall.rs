//! `remember` and `recall`: notes into today's daily memory, and ranked lexical search over core
//! (`.trail/MEMORY.md`) and daily memory, every hit with its source (`memory/DATE.md#L12`).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::daily::{append_to_day, block_prefix, memory_dir, read_day};
use crate::file_error::FileError;
use crate::secrets::{Secrets, SecretsError};
use crate::time::Local;

/// Why a note could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum RememberError {
    /// The day's file could not be read or appended to.
    #[error(transparent)]
    File(#[from] FileError),
    /// A secret rule of the person's does not compile: nothing is written unredacted.
    #[error(transparent)]
    Secrets(#[from] SecretsError),
}

/// Append a note to today's daily file, redacted by `secrets` (which keeps the originals
/// first); returns its source reference.
pub fn remember(
    project_root: &Path,
    note: &str,
    now: &Local,
    secrets: &Secrets,
) -> Result<String, RememberError> {
    let flat: String = note.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = secrets.redact(&flat)?;
    let (day, time) = now.day_and_minute();
    let path = memory_dir(project_root).join(format!("{day}.md"));
    let existing = read_day(project_root, &path)?;
    let mut block = block_prefix(&day, &existing);
    block.push_str(&format!("## Remembered ({time})\n- {text}\n"));
    let line = existing.lines().count() + block.lines().count();
    append_to_day(project_root, &path, &block)?;
    Ok(format!("memory/{day}.md#L{line}"))
}

/// One recall hit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    pub source: String,
    pub text: String,
    pub score: f64,
}

/// How much of the query's words (`q`, from [`words`]) `text` holds, when any: the share
/// recall ranks by.
pub(crate) fn coverage(q: &[String], text: &str) -> Option<f64> {
    let tw = words(text);
    let matched = q.iter().filter(|w| tw.contains(w)).count();
    (matched > 0).then(|| matched as f64 / q.len() as f64)
}

pub(crate) fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric() && c != '_' && c != '-')
        .filter(|w| w.len() > 1)
        .map(str::to_lowercase)
        .collect()
}

/// Memory files to search: MEMORY.md first, then daily files newest first.
fn files(project_root: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let core = crate::layout::Layout::new(project_root).core_memory();
    if core.exists() {
        out.push(("MEMORY.md".to_string(), core));
    }
    let mut daily: Vec<PathBuf> = std::fs::read_dir(memory_dir(project_root))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "md"))
                .collect()
        })
        .unwrap_or_default();
    daily.sort();
    daily.reverse();
    for p in daily {
        let name = format!(
            "memory/{}",
            p.file_name().unwrap_or_default().to_string_lossy()
        );
        out.push((name, p));
    }
    out
}

/// Lines of memory ranked by how many query words they contain (then by recency of the file).
pub fn recall(project_root: &Path, query: &str, limit: usize) -> Result<Vec<Hit>, FileError> {
    let q = words(query);
    if q.is_empty() {
        return Ok(Vec::new());
    }
    let mut hits = Vec::new();
    for (rank, (name, path)) in files(project_root).iter().enumerate() {
        let text = read_day(project_root, path)?;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') || t.starts_with("<!--") {
                continue;
            }
            let Some(covered) = coverage(&q, t) else {
                continue;
            };
            // Coverage of the query first; core memory and newer days break ties.
            let score = covered + 0.01 / (1.0 + rank as f64);
            hits.push(Hit {
                source: format!("{name}#L{}", i + 1),
                text: t.trim_start_matches("- ").to_string(),
                score,
            });
        }
    }
    hits.sort_by(|a, b| b.score.total_cmp(&a.score));
    hits.truncate(limit);
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_notes_are_recalled_with_their_source() {
        let dir = tempfile::tempdir().unwrap();
        let now = &crate::time::Ts::parse_strict("2026-11-26T10:00:00.000Z")
            .unwrap()
            .in_utc();
        let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
        let src = remember(
            dir.path(),
            "The staging DB lives on port 5433",
            now,
            &secrets,
        )
        .unwrap();
        assert_eq!(src, "memory/2026-11-26.md#L4");
        remember(dir.path(), "Deploys need the VPN", now, &secrets).unwrap();
        std::fs::write(
            dir.path().join(".trail/MEMORY.md"),
            "## Infra\n- staging runs Postgres 16 (src: memory/2026-11-20.md#L3)\n",
        )
        .unwrap();
        let hits = recall(dir.path(), "staging port", 10).unwrap();
        assert_eq!(hits[0].source, "memory/2026-11-26.md#L4");
        assert!(hits[0].text.contains("5433"));
        assert_eq!(hits[1].source, "MEMORY.md#L2");
        let text = std::fs::read_to_string(dir.path().join(".trail/memory/2026-11-26.md")).unwrap();
        assert_eq!(
            text.lines().nth(3),
            Some("- The staging DB lives on port 5433")
        );
        assert!(recall(dir.path(), "", 5).unwrap().is_empty());
    }

    #[test]
    fn a_remembered_secret_is_redacted_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
        remember(
            dir.path(),
            "token ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ works",
            &Local::now(),
            &secrets,
        )
        .unwrap();
        let kept = std::fs::read_to_string(secrets.store_path()).unwrap();
        assert_eq!(kept.matches("ghp_R2d9").count(), 1);
        let text: String = std::fs::read_dir(dir.path().join(".trail/memory"))
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        assert!(
            !text.contains("ghp_R2d9") && text.contains("${secret:"),
            "{text}"
        );
    }
}
