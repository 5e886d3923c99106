//! `trail sync --dry-run`: what the next sync would send, per project, before anything is sent.

use std::collections::BTreeMap;

use serde::Serialize;
use trail_ledger::Ledger;
use trail_ledger::frame::Frame;
use trail_ledger::reader::ForwardReader;

use crate::error::{Result, SyncError};
use crate::{Places, publish, remote};

#[derive(Clone, Debug, Serialize)]
pub struct Pending {
    pub remote: Option<String>,
    pub records: usize,
    pub bytes: u64,
    pub projects: Vec<Share>,
}

/// One project's part of what would be sent.
#[derive(Clone, Debug, Serialize)]
pub struct Share {
    /// The project of the record's first focus (`(none)` for records without one).
    pub project: String,
    pub records: usize,
    pub bytes: u64,
}

/// What the next sync would send (it reads the stream; it writes nothing but what any writer
/// taking the stream lock may: a torn tail set aside).
pub fn pending(ledger: &Ledger, places: &Places) -> Result<Pending> {
    let snapshot = ledger.snapshot()?;
    let sent = match ledger.known_machine_id() {
        Some(id) if places.dir.join("repo.git").join("HEAD").exists() => {
            let repo = crate::git::Repo::open(&places.dir.join("repo.git"))?;
            publish::already_sent(&repo, &id, &places.dir, &snapshot)?
        }
        _ => std::collections::HashMap::default(),
    };
    let mut by: BTreeMap<String, (usize, u64)> = BTreeMap::new();
    for f in &snapshot {
        let from = sent.get(&f.name).copied().unwrap_or(0).min(f.len);
        if from == f.len {
            continue;
        }
        let mut r = ForwardReader::new(&f.file, from, f.len);
        while let Some((off, bytes)) = r
            .next_segment()
            .map_err(SyncError::io("read", std::path::Path::new(&f.name)))?
        {
            let project = Frame::split(off, &bytes)
                .parse()
                .ok()
                .and_then(|rec| rec.focus.first().map(|x| x.proj.clone()))
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| "(none)".into());
            let e = by.entry(project).or_default();
            e.0 += 1;
            e.1 += bytes.len() as u64;
        }
        let pre = r.preamble.len() as u64;
        if pre > 0 {
            by.entry("(none)".into()).or_default().1 += pre;
        }
    }
    let projects: Vec<Share> = by
        .into_iter()
        .map(|(project, (records, bytes))| Share {
            project,
            records,
            bytes,
        })
        .collect();
    Ok(Pending {
        remote: remote(places),
        records: projects.iter().map(|p| p.records).sum(),
        bytes: projects.iter().map(|p| p.bytes).sum(),
        projects,
    })
}
