//! Records read back for a person (`trail log`): newest first, filtered by type and project,
//! down to a time.
//!
//! Records are read backwards from the end of the newest segment, so `--limit` ends the read as
//! soon as enough are found, and the first record older than `--since` ends it too (LedgerPulse
//! §4: a stream is in time order). With `--since`, the index (LedgerPulse §10) is asked first
//! where the records at or after that time begin ([`index::seek`]), and reading goes no further
//! down; the index is brought up to date on the way, as every reader of it does. The record it
//! names is checked to be older than `--since`, so the answer is the one a read without the
//! index gives, whatever the index holds (a property test holds the two equal).

use std::fs::File;
use std::path::{Path, PathBuf};

use super::frame::{Frame, Seal};
use super::index;
use super::reader::{ReverseReader, open_if_exists};
use super::record::{Record, RecordType};
use super::{Ledger, LedgerError, Result};
use crate::time::Ts;

/// What to read back.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Only records at or after this time.
    pub since: Option<Ts>,
    /// At most this many records.
    pub limit: usize,
    /// Only records of this type.
    pub kind: Option<RecordType>,
    /// Only records focused on this project.
    pub proj: Option<String>,
    /// Read without the index. The result is the same (a property test holds the two paths to
    /// it); this exists for that test.
    pub scan: bool,
}

/// A record read back, and where it is.
#[derive(Clone, Debug)]
pub struct Found {
    pub segment: PathBuf,
    pub offset: u64,
    /// Whether it ends with a seal that matches its bytes.
    pub sealed: bool,
    /// The digest the next record's `prev` names (its seal, when it has one).
    pub digest: super::frame::Digest,
    pub record: Record,
}

impl Ledger {
    /// [`Ledger::query`] over this machine's records (the local-only ledger's too) and every
    /// other machine's `trail sync` brought (see [`Ledger::sources`]), as one timeline: each ledger's newest `limit` hold the
    /// union's. Replicas are scanned, not indexed: only a sync writes there.
    pub fn query_all(&self, q: &Query) -> Result<Vec<Found>> {
        let replicas = self.sources()?;
        let mut found = self.query(q)?;
        if replicas.is_empty() {
            return Ok(found);
        }
        let scan = Query {
            scan: true,
            ..q.clone()
        };
        for (_, r) in &replicas {
            found.extend(r.query(&scan)?);
        }
        found.sort_by_key(|f| std::cmp::Reverse(f.record.ts));
        found.truncate(q.limit);
        Ok(found)
    }

    /// The records `q` asks for, newest first (see the module docs).
    pub fn query(&self, q: &Query) -> Result<Vec<Found>> {
        let mut found = Vec::new();
        self.each(q, &mut |f| {
            found.push(f);
            found.len() < q.limit
        })?;
        Ok(found)
    }

    /// Every record at or after `since` (all of them with `None`), this machine's, its
    /// local-only ledger's and every replica's, handed to `visit` one at a time and kept by none: for a reader that folds a
    /// whole ledger (`trail report`) in the memory of one record. Each ledger is read newest
    /// first; the ledgers come one after another, so the order across machines is not time's.
    pub fn visit_all(&self, since: Option<Ts>, visit: &mut dyn FnMut(Found)) -> Result<()> {
        let q = Query {
            since,
            limit: usize::MAX,
            ..Query::default()
        };
        self.each(&q, &mut |f| {
            visit(f);
            true
        })?;
        let scan = Query { scan: true, ..q };
        // Imported history is at its sessions' own times, not in the stream's order: read
        // whole, each record filtered.
        let imported = Query {
            since: None,
            ..scan.clone()
        };
        let mut keep = |f: Found| {
            if since.is_none_or(|s| f.record.ts >= s) {
                visit(f);
            }
            true
        };
        Ledger::each_of(self.imported_segments()?, &imported, &mut keep)?;
        for (_, r) in &self.sources()? {
            r.each(&scan, &mut keep)?;
            Ledger::each_of(r.imported_segments()?, &imported, &mut keep)?;
        }
        Ok(())
    }

    /// Hand what `q` asks for to `take`, newest first, until it answers `false` or the records
    /// run out.
    fn each(&self, q: &Query, take: &mut dyn FnMut(Found) -> bool) -> Result<()> {
        Ledger::each_of(self.segments()?, q, take)
    }

    /// [`Ledger::each`] over `segments` (oldest first).
    fn each_of(
        mut segments: Vec<PathBuf>,
        q: &Query,
        take: &mut dyn FnMut(Found) -> bool,
    ) -> Result<()> {
        segments.reverse();
        for path in &segments {
            let Some(file) = open_if_exists(path).map_err(LedgerError::io("open", path))? else {
                continue;
            };
            let len = crate::fsutil::size_of(&file).map_err(LedgerError::io("stat", path))?;
            let floor = match q.since {
                Some(since) if !q.scan => index::seek(path, &file, len, since)?,
                _ => None,
            };
            if read_segment(&file, path, len, floor, q, take)? {
                break;
            }
        }
        Ok(())
    }
}

/// Read one segment newest first, down to `floor` at most, handing what `q` asks for to `take`.
/// Returns whether the query is complete (older segments have nothing more to give).
fn read_segment(
    file: &File,
    path: &Path,
    len: u64,
    floor: Option<u64>,
    q: &Query,
    take: &mut dyn FnMut(Found) -> bool,
) -> Result<bool> {
    if q.limit == 0 {
        return Ok(true);
    }
    let mut rr = ReverseReader::new(file, len);
    while let Some((offset, seg)) = rr.next_ref().map_err(LedgerError::io("read", path))? {
        // The record at the floor is older than `since`: the index lookup checked it.
        if floor.is_some_and(|f| offset <= f) {
            return Ok(true);
        }
        let f = Frame::split(offset, seg);
        let Ok(record) = f.parse() else { continue };
        if q.since.is_some_and(|s| record.ts < s) {
            return Ok(true);
        }
        if q.kind.is_some_and(|k| record.kind != k)
            || q.proj
                .as_ref()
                .is_some_and(|p| !record.focus.iter().any(|x| &x.proj == p))
        {
            continue;
        }
        let more = take(Found {
            segment: path.to_path_buf(),
            offset,
            sealed: f.seal == Seal::Valid,
            digest: f.chain_digest(),
            record,
        });
        if !more {
            return Ok(true);
        }
    }
    Ok(false)
}
