//! Looking things up, the way both front ends ask (issue 23): `trail search` and the MCP
//! `search` tool call [`search()`], `trail recall` and the MCP `recall` tool call [`recall()`],
//! `trail remember` and the MCP `remember` tool call [`remember()`].
//!
//! Found by reading the two side by side: `trail search` loaded the configuration a second
//! time and searched from the configured project root, the MCP tool from the workspace's
//! canonical one; both logged Loa's pivot after a broad search, each its own way. Each front
//! end now turns arguments into a [`crate::search::Request`] and renders what comes back.

use crate::ledger::LedgerError;
use crate::memory::recall::{self as memory_recall, Hit};
use crate::search::{self, Places, Request, Results, SearchError};
use crate::secrets::SecretsError;
use crate::time::Ts;
use crate::workspace::Workspace;

/// Why a search gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// The stream's segments could not be listed.
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// A secret rule of the person's does not compile: nothing is shown unredacted.
    #[error(transparent)]
    Secrets(#[from] SecretsError),
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The project's memory could not be read or written.
    #[error(transparent)]
    Memory(#[from] crate::file_error::FileError),
}

impl From<memory_recall::RememberError> for LookupError {
    fn from(e: memory_recall::RememberError) -> LookupError {
        match e {
            memory_recall::RememberError::File(e) => LookupError::Memory(e),
            memory_recall::RememberError::Secrets(e) => LookupError::Secrets(e),
        }
    }
}

/// What a search found, where it looked, and whether its pivot was logged.
pub struct Searched {
    pub results: Results,
    /// The places searched: the cache among them, for a front end that starts its builder.
    pub places: Places,
    /// Loa's pivot after a broad search (`results.is_broad()`), when it could not be written
    /// to the trajectory: the search itself stands.
    pub pivot_error: Option<crate::file_error::FileError>,
}

/// Search the workspace's stream, journals, memory, notes (and code, if asked), with the
/// cache unless `use_cache` is false; after a broad search, log the trajectory's pivot for
/// `session`. Hits are redacted by the workspace's service, and nothing is kept: they quote
/// files that still hold what they quote.
pub fn search(
    ws: &Workspace,
    request: &Request,
    use_cache: bool,
    session: Option<&str>,
) -> Result<Searched, LookupError> {
    let mut places = Places::of(&ws.ledger, &ws.root)?;
    if !use_cache {
        places.cache = None;
    }
    let redactor = ws.secrets.redactor()?;
    let results = search::search(&places, request, redactor)?;
    let pivot_error = if results.is_broad() {
        search::log_pivot(
            &places.layout,
            &request.query,
            results.total,
            Ts::now(),
            session,
            &ws.secrets,
        )
        .err()
    } else {
        None
    };
    Ok(Searched {
        results,
        places,
        pivot_error,
    })
}

/// The tag of the record a remembered note also is: it travels with the ledger, so the other
/// machines' `recall` finds it once `trail sync` has run.
pub const REMEMBERED_TAG: &str = "remembered";

/// Keep `note` in today's daily memory (redacted), and write it to the ledger as a record of
/// this project, which `trail sync` carries to the person's other machines (or keeps here, for
/// a project that opted out). Returns where the memory line is.
pub fn remember(ws: &Workspace, note: &str) -> Result<String, LookupError> {
    let source = memory_recall::remember(&ws.root, note, &crate::time::Local::now(), &ws.secrets)?;
    let flat: String = note.split_whitespace().collect::<Vec<_>>().join(" ");
    let record = crate::ledger::record::observed_record(
        &ws.project(),
        crate::ledger::RecordType::Pulse,
        &[flat],
        &[],
        &[REMEMBERED_TAG],
    );
    ws.ledger.append(record)?;
    Ok(source)
}

/// The daily and core memory lines that match `query`, then what the person's other machines
/// recorded for this project (the notes remembered there, their records' facts and next
/// steps, as `trail sync` brought them), best first, at most `limit`.
pub fn recall(ws: &Workspace, query: &str, limit: usize) -> Result<Vec<Hit>, LookupError> {
    let mut hits = memory_recall::recall(&ws.root, query, limit)?;
    let q = memory_recall::words(query);
    if !q.is_empty() {
        let proj = ws.project().name;
        for (id, replica) in ws.ledger.replicas()? {
            let found = replica.query(&crate::ledger::query::Query {
                limit: RECALL_RECORDS,
                proj: Some(proj.clone()),
                ..crate::ledger::query::Query::default()
            })?;
            for f in found {
                let remembered = f.record.tags.iter().any(|t| t == REMEMBERED_TAG);
                for text in f.record.facts().into_iter().chain(f.record.next.clone()) {
                    let Some(covered) = memory_recall::coverage(&q, &text) else {
                        continue;
                    };
                    // Coverage first, as in memory; a note a person kept outranks a record's
                    // fact that covers as much.
                    let score = covered + if remembered { 0.005 } else { 0.0 };
                    hits.push(Hit {
                        source: format!("machine {id} {}", f.record.ts),
                        text,
                        score,
                    });
                }
            }
        }
    }
    hits.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut seen = std::collections::HashSet::new();
    hits.retain(|h| seen.insert(h.text.clone()));
    hits.truncate(limit);
    Ok(hits)
}

/// How many of another machine's newest records of the project recall reads.
const RECALL_RECORDS: usize = 2000;

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::Path;

    use super::*;
    use crate::config::{Config, FakeEnv};
    use crate::search::Mode;

    fn workspace(dir: &Path) -> Workspace {
        let proj = dir.join("proj");
        std::fs::create_dir_all(proj.join(".trail/memory")).unwrap();
        let mut vars = HashMap::new();
        vars.insert("HOME", dir.join("home").display().to_string());
        vars.insert("CLAUDE_PROJECT_DIR", proj.display().to_string());
        Workspace::new(Config::load_from(&FakeEnv(vars, proj)).unwrap())
    }

    /// Both front ends' search: what the journals hold is found from the workspace's root,
    /// redacted, and a broad search leaves its pivot in the trajectory.
    #[test]
    fn a_search_through_the_workspace_finds_the_journals_and_logs_a_broad_pivot() {
        let dir = tempfile::tempdir().unwrap();
        let ws = workspace(dir.path());
        let day = ws.root.join(".trail/memory/2026-11-30.md");
        let mut lines = String::new();
        for i in 0..=crate::search::PIVOT_AFTER {
            lines.push_str(&format!(
                "- the cache key {i} changed; token=ghp_9RGAGj0CcVVpx6Q43lddS1Wc0wcBB06gG56j\n"
            ));
        }
        std::fs::write(&day, lines).unwrap();
        let found = search(
            &ws,
            &Request::new("cache key", Mode::Lexical),
            false,
            Some("s1"),
        )
        .unwrap();
        assert!(found.results.total >= 1, "{:?}", found.results.total);
        assert!(found.pivot_error.is_none());
        assert!(found.places.cache.is_none(), "asked without the cache");
        for hit in &found.results.hits {
            let shown = serde_json::to_string(hit).unwrap();
            assert!(!shown.contains("ghp_9RGA"), "{shown}");
        }
        if found.results.is_broad() {
            let trajectory = crate::trajectory::journal::read(&ws.root, None).unwrap();
            assert!(
                trajectory
                    .items
                    .iter()
                    .any(|(_, e)| serde_json::to_string(e).unwrap().contains("pivot")),
                "no pivot logged"
            );
        }
    }

    #[test]
    fn recall_reads_the_workspace_memory() {
        let dir = tempfile::tempdir().unwrap();
        let ws = workspace(dir.path());
        std::fs::write(
            ws.root.join(".trail/memory/2026-11-30.md"),
            "- the parser keeps byte offsets\n",
        )
        .unwrap();
        let hits = recall(&ws, "parser offsets", 5).unwrap();
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert!(hits[0].text.contains("byte offsets"));
    }
}
