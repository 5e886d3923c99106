//! `trail sync --dry-run`: what the next sync would send, per project, before anything is sent.

use std::collections::BTreeMap;
use std::path::Path;

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
    /// What no sync sends: the records of projects that opted out (`.trail/no-sync`), kept in
    /// the local-only ledger.
    pub kept: Vec<Share>,
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
    let mut by = Shares::default();
    for f in &snapshot {
        let from = sent.get(&f.name).copied().unwrap_or(0).min(f.len);
        by.count(&f.file, from, f.len, Path::new(&f.name))?;
    }
    let mut kept = Shares::default();
    if let Some(local) = ledger.local() {
        for path in local.segments()? {
            let Ok(file) = std::fs::File::open(&path) else {
                continue;
            };
            let len = file.metadata().map_err(SyncError::io("stat", &path))?.len();
            kept.count(&file, 0, len, &path)?;
        }
    }
    let projects = by.shares();
    Ok(Pending {
        remote: remote(places),
        records: projects.iter().map(|p| p.records).sum(),
        bytes: projects.iter().map(|p| p.bytes).sum(),
        projects,
        kept: kept.shares(),
    })
}

/// Records and bytes per project.
#[derive(Default)]
struct Shares(BTreeMap<String, (usize, u64)>);

impl Shares {
    /// Count the records of `file` between `from` and `len`.
    fn count(&mut self, file: &std::fs::File, from: u64, len: u64, name: &Path) -> Result<()> {
        if from >= len {
            return Ok(());
        }
        let mut r = ForwardReader::new(file, from, len);
        while let Some((off, bytes)) = r.next_segment().map_err(SyncError::io("read", name))? {
            let project = Frame::split(off, &bytes)
                .parse()
                .ok()
                .and_then(|rec| rec.focus.first().map(|x| x.proj.clone()))
                .filter(|p| !p.is_empty())
                .unwrap_or_else(|| "(none)".into());
            let e = self.0.entry(project).or_default();
            e.0 += 1;
            e.1 += bytes.len() as u64;
        }
        let pre = r.preamble.len() as u64;
        if pre > 0 {
            self.0.entry("(none)".into()).or_default().1 += pre;
        }
        Ok(())
    }

    fn shares(self) -> Vec<Share> {
        self.0
            .into_iter()
            .map(|(project, (records, bytes))| Share {
                project,
                records,
                bytes,
            })
            .collect()
    }
}
