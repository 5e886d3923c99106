//! Imported history (`trail import`): records that carry the time of the session they came
//! from, kept in segments of their own beside the stream, each a sealed hash chain joined to
//! the stream by a record that names it and its last seal.
//!
//! Why not in the stream: the stream is in time order (LedgerPulse §4; `verify` checks it) and
//! an imported session is older than what the stream already holds. Appending it would break
//! the order, giving it the import's time would lie about when it happened, and interleaving it
//! would rewrite a journal. So each import batch becomes a segment:
//!
//! ```text
//! stream/imported/<host>-<stamp>.log.md           records of one batch, in time order, sealed
//!                                                  and chained from the zero digest
//! stream/imported/<host>-<stamp>.log.md.pending   a batch being committed (below)
//! stream/imported/import.lock                     held by the import running
//! ```
//!
//! Committing a batch ([`Ledger::commit_imported`]), and what each step protects against:
//! 1. Redact, sort, stamp and seal the records, and write them to `NAME.pending` (atomically,
//!    synced): nothing secret reaches the file, and a crash leaves a whole segment or none.
//! 2. Append the join to the stream: a `checkpoint` tagged `trail-import` whose `archive` is
//!    `imported/NAME`, with the segment's record count and last seal among its facts. From here
//!    the stream's chain and anchor vouch for the segment: a record changed in it breaks its
//!    seal, one removed, added or reordered changes its last seal, which then differs from the
//!    join's (`verify` checks both).
//! 3. Rename `NAME.pending` to `NAME`.
//!
//! A crash after step 1 leaves a pending segment that no record joins; after step 2, one that a
//! record joins. The next import finishes either first ([`Ledger::finish_imports`]): a joined
//! one is renamed; an unjoined one that verifies is joined, then renamed (its records are
//! complete); one that does not verify is set aside under `archive/`. Nothing is lost, and
//! nothing is imported twice, because what was imported is read from the segments afterwards.

use std::collections::HashSet;
use std::fs::File;
use std::path::{Path, PathBuf};

use super::anchor::Found;
use super::archive;
use super::error::{LedgerError, Result};
use super::frame::{self, Digest, Frame};
use super::handle::Ledger;
use super::reader::{ForwardReader, open_if_exists};
use super::record::{self, Record, RecordType};
use super::verify::{Segment, Verifier};
use crate::failpoint;
use crate::fsutil;
use crate::time::Ts;

/// The imported segments' directory under `stream/`.
pub const DIR: &str = "imported";
/// The tag of every join record.
pub const JOIN_TAG: &str = "trail-import";
const SEGMENT_EXT: &str = ".log.md";
const PENDING_EXT: &str = ".log.md.pending";
const LOCK_FILE: &str = "import.lock";

/// What a join record says about its segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Join {
    /// The segment's path under `stream/` (`imported/NAME`).
    pub segment: String,
    /// The seal of its last record.
    pub head: Digest,
    /// How many records it holds.
    pub records: usize,
}

impl Join {
    /// The join `r` is, if it is one: a record tagged [`JOIN_TAG`] whose `archive` names an
    /// imported segment and whose facts give its head and count.
    pub fn of(r: &Record) -> Option<Join> {
        let segment = r.archive.as_deref()?;
        if !segment.starts_with(&format!("{DIR}/")) || !r.tags.iter().any(|t| t == JOIN_TAG) {
            return None;
        }
        let facts = r.facts();
        let fact = |key: &str| {
            facts
                .iter()
                .find_map(|f| f.strip_prefix(key)?.strip_prefix(": "))
                .map(str::to_string)
        };
        Some(Join {
            segment: segment.to_string(),
            head: super::frame::parse_digest(&fact("head")?)?,
            records: fact("records")?.parse().ok()?,
        })
    }
}

/// A batch committed by [`Ledger::commit_imported`].
#[derive(Clone, Debug)]
pub struct Committed {
    /// The segment, under `stream/`.
    pub segment: String,
    pub records: usize,
    /// Its first and last record's times.
    pub from: Ts,
    pub to: Ts,
}

/// The lock an import holds while it runs, released when dropped.
pub struct ImportLock {
    _file: File,
}

impl Ledger {
    pub fn imported_dir(&self) -> PathBuf {
        self.stream_dir().join(DIR)
    }

    /// The imported segments (committed ones), by name.
    pub fn imported_segments(&self) -> Result<Vec<PathBuf>> {
        self.imported_files(SEGMENT_EXT)
    }

    /// Batches an interrupted import left (see the module docs).
    pub fn pending_imports(&self) -> Result<Vec<PathBuf>> {
        self.imported_files(PENDING_EXT)
    }

    fn imported_files(&self, ext: &str) -> Result<Vec<PathBuf>> {
        let dir = self.imported_dir();
        let rd = match std::fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(LedgerError::io("read", &dir)(e)),
        };
        let mut out = Vec::new();
        for entry in rd {
            let entry = entry.map_err(LedgerError::io("read", &dir))?;
            let name = entry.file_name();
            if name.to_string_lossy().ends_with(ext) {
                out.push(entry.path());
            }
        }
        out.sort();
        Ok(out)
    }

    /// Take the import lock; `None` when another import holds it.
    pub fn lock_imports(&self) -> Result<Option<ImportLock>> {
        let dir = self.imported_dir();
        fsutil::ensure_dir(&dir).map_err(LedgerError::io("create", &dir))?;
        let path = dir.join(LOCK_FILE);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(LedgerError::io("open", &path))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(ImportLock { _file: file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(LedgerError::io("lock", &path)(e)),
        }
    }

    /// Commit one batch (see the module docs): `records` in a new segment named after `host`,
    /// joined to the stream by a record whose first fact is `summary`. Records keep their times,
    /// in order; two at the same time are a microsecond apart.
    pub fn commit_imported(
        &self,
        host: &str,
        mut records: Vec<Record>,
        summary: &str,
    ) -> Result<Option<Committed>> {
        if records.is_empty() {
            return Ok(None);
        }
        for r in &mut records {
            r.validate()?;
            self.redact_record(r)?;
        }
        records.sort_by_key(|r| r.ts);
        let (bytes, head) = seal_chain(&mut records);
        let dir = self.imported_dir();
        fsutil::ensure_dir(&dir).map_err(LedgerError::io("create", &dir))?;
        let name = free_name(&dir, host);
        let pending = dir.join(format!("{name}{PENDING_EXT}"));
        fsutil::atomic_write(&pending, &bytes).map_err(LedgerError::io("write", &pending))?;
        failpoint::hit("import-after-segment");
        let committed = Committed {
            segment: format!("{DIR}/{name}{SEGMENT_EXT}"),
            records: records.len(),
            from: records[0].ts,
            to: records[records.len() - 1].ts,
        };
        self.append(join_record(&committed, head, summary))?;
        failpoint::hit("import-after-join");
        Self::finish_pending(&pending)?;
        Ok(Some(committed))
    }

    /// Finish the batches an interrupted import left (see the module docs). Returns how many.
    pub fn finish_imports(&self) -> Result<usize> {
        let pending = self.pending_imports()?;
        if pending.is_empty() {
            return Ok(0);
        }
        let joins = self.joins()?;
        for path in &pending {
            let name = Self::segment_name(path);
            if !joins.iter().any(|j| j.segment == name) {
                if let Some((records, head, from, to)) = check_segment(path)? {
                    let c = Committed {
                        segment: name,
                        records,
                        from,
                        to,
                    };
                    let summary = format!(
                        "an interrupted import's batch of {records} record(s), joined by the next import"
                    );
                    self.append(join_record(&c, head, &summary))?;
                } else {
                    // Torn: the batch never reached the stream. Its sessions are imported
                    // again; the bytes are kept, as every repair keeps what it cuts.
                    let bytes = std::fs::read(path).map_err(LedgerError::io("read", path))?;
                    archive::keep(&self.archive_dir(), "torn-import", "bin", &bytes)?;
                    std::fs::remove_file(path).map_err(LedgerError::io("remove", path))?;
                    continue;
                }
            }
            Self::finish_pending(path)?;
        }
        Ok(pending.len())
    }

    /// `imported/NAME.log.md` for `…/NAME.log.md.pending` (or the segment itself).
    fn segment_name(path: &Path) -> String {
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        let base = file.strip_suffix(".pending").unwrap_or(&file);
        format!("{DIR}/{base}")
    }

    fn finish_pending(pending: &Path) -> Result<()> {
        let done = pending.with_extension("");
        std::fs::rename(pending, &done).map_err(LedgerError::io("rename", pending))?;
        let dir = fsutil::parent_dir(&done);
        fsutil::sync_dir(dir).map_err(LedgerError::io("sync", dir))
    }

    /// Every join record in the stream's segments.
    pub fn joins(&self) -> Result<Vec<Join>> {
        let mut out = Vec::new();
        for path in self.segments()? {
            let Some(file) = open_if_exists(&path).map_err(LedgerError::io("open", &path))? else {
                continue;
            };
            let len = fsutil::size_of(&file).map_err(LedgerError::io("stat", &path))?;
            let mut fr = ForwardReader::new(&file, 0, len);
            while let Some((off, bytes)) =
                fr.next_segment().map_err(LedgerError::io("read", &path))?
            {
                // Only a record that names an imported segment is parsed (the name is quoted
                // or not, as the writer chose).
                if memchr::memmem::find(&bytes, b"imported/").is_none() {
                    continue;
                }
                if let Some(j) = Frame::split(off, &bytes)
                    .parse()
                    .ok()
                    .as_ref()
                    .and_then(Join::of)
                {
                    out.push(j);
                }
            }
        }
        Ok(out)
    }

    /// The tags of every imported record that start with `prefix`, the prefix cut off: what
    /// an import reads to know what was imported already.
    pub fn imported_tags(&self, prefix: &str) -> Result<HashSet<String>> {
        let mut out = HashSet::new();
        for path in self.imported_segments()? {
            let Some(file) = open_if_exists(&path).map_err(LedgerError::io("open", &path))? else {
                continue;
            };
            let len = fsutil::size_of(&file).map_err(LedgerError::io("stat", &path))?;
            let mut fr = ForwardReader::new(&file, 0, len);
            while let Some((off, bytes)) =
                fr.next_segment().map_err(LedgerError::io("read", &path))?
            {
                if let Ok(r) = Frame::split(off, &bytes).parse() {
                    out.extend(
                        r.tags
                            .iter()
                            .filter_map(|t| t.strip_prefix(prefix))
                            .map(str::to_string),
                    );
                }
            }
        }
        Ok(out)
    }
}

/// Stamp `records` (sorted) into one chain: strictly increasing times, each `prev` the seal
/// before it (the zero digest first, as the stream's first record has). Returns the bytes and
/// the last seal.
fn seal_chain(records: &mut [Record]) -> (Vec<u8>, Digest) {
    let mut bytes = Vec::new();
    let mut prev: Digest = [0; 32];
    let mut last: Option<Ts> = None;
    for r in records.iter_mut() {
        if let Some(l) = last
            && r.ts <= l
        {
            r.ts = l.succ();
        }
        r.prev = Some(frame::hex(&prev));
        let (b, d) = frame::encode(r);
        bytes.extend_from_slice(&b);
        (prev, last) = (d, Some(r.ts));
    }
    (bytes, prev)
}

/// The join record for a committed batch.
fn join_record(c: &Committed, head: Digest, summary: &str) -> Record {
    let mut r = Record::new(RecordType::Checkpoint, Ts::now());
    r.tags = vec![JOIN_TAG.into()];
    r.archive = Some(c.segment.clone());
    r.body = record::facts_body(&[
        summary.replace('\n', " "),
        format!("segment: {}", c.segment),
        format!("records: {}", c.records),
        format!("from: {}", c.from),
        format!("to: {}", c.to),
        format!("head: {}", frame::hex(&head)),
    ]);
    r
}

/// `<host>-<stamp>`, not taken by a segment or a pending one.
fn free_name(dir: &Path, host: &str) -> String {
    let base = format!("{host}-{}", Ts::now().file_stamp());
    let taken = |n: &str| {
        dir.join(format!("{n}{SEGMENT_EXT}")).exists()
            || dir.join(format!("{n}{PENDING_EXT}")).exists()
    };
    let mut name = base.clone();
    let mut n = 1;
    while taken(&name) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

/// A segment's record count, last seal and time range, when every record in it verifies as one
/// chain; `None` when it is damaged (or empty).
fn check_segment(path: &Path) -> Result<Option<(usize, Digest, Ts, Ts)>> {
    let bytes = std::fs::read(path).map_err(LedgerError::io("read", path))?;
    let mut v = Verifier::new(&Found::Missing);
    let seg = Segment {
        file: &bytes[..],
        len: bytes.len() as u64,
        name: "pending",
        is_live: false,
    };
    v.segment(&seg, &mut |_| {})
        .map_err(LedgerError::io("read", path))?;
    let Some((head, from, to)) = v.chain_end() else {
        return Ok(None);
    };
    Ok(v.report.ok().then_some((v.report.records, head, from, to)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_round_trips_through_its_record() {
        let c = Committed {
            segment: "imported/claude-code-x.log.md".into(),
            records: 3,
            from: Ts::from_micros(1),
            to: Ts::from_micros(2),
        };
        let r = join_record(&c, [7; 32], "imported 3 sessions");
        assert!(r.validate().is_ok());
        let (bytes, _) = frame::encode(&r);
        let back = Frame::split(0, &bytes).parse().unwrap();
        assert_eq!(
            Join::of(&back),
            Some(Join {
                segment: c.segment.clone(),
                head: [7; 32],
                records: 3
            })
        );
        // An archive that is not an imported segment, or no tag: not a join.
        let mut rotation = back.clone();
        rotation.archive = Some("archive/pulses-x.log.md".into());
        assert_eq!(Join::of(&rotation), None);
        let mut untagged = back;
        untagged.tags.clear();
        assert_eq!(Join::of(&untagged), None);
    }

    #[test]
    fn a_chain_keeps_times_in_order_and_verifies() {
        let mk = |us| Record::new(RecordType::Handoff, Ts::from_micros(us));
        let mut records = vec![mk(5), mk(5), mk(9)];
        let (bytes, head) = seal_chain(&mut records);
        let times: Vec<i64> = records.iter().map(|r| r.ts.as_micros()).collect();
        assert_eq!(times, [5, 6, 9]);
        let mut v = Verifier::new(&Found::Missing);
        let seg = Segment {
            file: &bytes[..],
            len: bytes.len() as u64,
            name: "s",
            is_live: false,
        };
        v.segment(&seg, &mut |_| {}).unwrap();
        assert!(v.report.ok(), "{:?}", v.report.findings);
        assert_eq!(v.chain_end().map(|c| c.0), Some(head));
    }
}
