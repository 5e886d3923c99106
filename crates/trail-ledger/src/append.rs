//! Crash-safe append.
//!
//! The sequence (DESIGN.md "Atomic append"), and what each step protects against:
//!
//! 1. Validate, redact and seal the record: nothing secret ever reaches a file, not even the
//!    intent file.
//! 2. Write it to a private intent file (`pulses.intent.<pid>-<n>`), holding an OS lock on that
//!    file for as long as the writer lives. If the writer dies from here on, the record is not
//!    lost: whoever takes the stream lock next finds the intent file unlocked and appends it.
//! 3. Take the stream lock (alerting when the wait is long).
//! 4. Repair a torn tail: bytes after the last complete record are copied to
//!    `archive/torn-<ts>.bin`, then cut off.
//! 5. Replay orphaned intent files of dead writers, unless their record is already in the stream.
//! 6. Stamp the record (`ts` strictly after the last record's, `prev` = its digest) and append
//!    it with one write; mark the intent file done; publish the stream's new end as the
//!    *written point* (`pulses.sync`); release the stream lock. The intent is marked done before
//!    the lock goes, so a live writer's intent file is never mistaken for an orphan. The record
//!    is not durable yet, and not acknowledged.
//! 7. Make it durable, sharing the fsync with concurrent writers (group commit, see
//!    [`super::group`]): take the *sync lock*; if the *durable point* already covers the record,
//!    a concurrent writer's fsync did; otherwise fsync up to the latest written point, publish
//!    it as the durable point, and name its head in the anchor (see [`super::anchor`]: what
//!    makes a rewritten history evident) under the stream lock again. Only now is the record
//!    acknowledged: never before an fsync that began after its write has completed, and the
//!    anchor never names a record that is not durable.
//!
//! A rotation (step 6, when the stream has passed its threshold) syncs and anchors under the
//! stream lock itself, and needs no step 7.
//!
//! The intent file is not fsynced: it guards against the writer *process* dying, and the page
//! cache outlives processes. After a power loss an unsynced intent file may be empty or torn;
//! its seal then fails and it is set aside, which loses nothing acknowledged (acknowledgement
//! comes after step 7). This keeps at most one fsync per record, as a database with a write-ahead
//! log has, and with writers in parallel one fsync per group of them.
//!
//! Why the fsync leaves the stream lock: held through it, the lock serialised one disk flush per
//! record whatever the number of writers, and eight writer processes appended at 0.75× the rate
//! of SQLite's WAL (which does the same); the fsync outside lets the others write while it runs,
//! and the next one covers them all (`bench/run.sh append`).
//!
//! A long-lived writer (one `Ledger` appending many records) keeps its intent file, lock files
//! and stream open between appends, rewrites its intent file in place and marks it done instead
//! of deleting it, and trusts its cached view of the tail when the stream still ends with the
//! bytes it last saw. The fsync then dominates the cost, as it should.
//!
//! Where each step lives: 1 and the sequence here; 2 and 5 in [`super::intent`]; 3, 6 and the
//! anchor in [`super::writer`]; 4 in [`super::tail`]; 7 in [`super::group`].
//!
//! Recognising an already-appended orphan: the stamp changes between the intent file and the
//! stream, so records are compared by [`frame::identity`] (everything but `ts`, `prev` and the
//! seal) among the records stamped at or after the intent's provisional time.

use std::path::PathBuf;

use super::anchor::{Base, Skipped};
use super::error::{LedgerError, Result};
use super::frame::{self, Digest, Frame};
use super::group::{self, Written};
use super::handle::{Ledger, WriterState};
use super::intent::{IntentFile, Orphans, Scanned};
use super::lock::Contention;
use super::reader::ReverseReader;
use super::record::{self, Intent, Record, RecordType};
use super::writer::{Locked, Recovery};
use crate::failpoint;
use crate::fsutil;
use crate::time::Ts;

/// What an append did.
#[derive(Debug, Clone)]
pub struct Appended {
    pub ts: Ts,
    pub digest: Digest,
    /// Byte offset of the record in the stream.
    pub offset: u64,
    /// Secrets replaced by `${secret:…}` references.
    pub redacted: Vec<String>,
    /// Set when the lock was contended.
    pub contention: Option<Contention>,
    /// Work done on behalf of earlier crashed writers.
    pub recovery: Recovery,
    /// The archive a rotation moved the old stream to.
    pub rotated: Option<PathBuf>,
    /// Why the anchor was not advanced, when it was not. The record is durable either way.
    pub unanchored: Option<Skipped>,
    /// Whether this writer's own fsync made the record durable; false when a concurrent
    /// writer's fsync covered it (group commit, [`super::group`]).
    pub fsynced: bool,
}

impl Ledger {
    /// Append one record (see the module docs for the sequence). `record.ts` is the earliest time
    /// it may carry; it is moved forward when the stream already holds a later one.
    pub fn append(&self, mut record: Record) -> Result<Appended> {
        if self.opts.local_only {
            return self.writes_to().append(record);
        }
        let redacted = self.prepare(&mut record)?;
        let (sealed, _) = frame::encode(&record);

        let mut st = self
            .writer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        IntentFile::write(&mut st.intent, &self.stream_dir(), &sealed)?;
        failpoint::hit("append-after-intent");

        let mut locked = self.lock_stream(&mut st)?;
        failpoint::hit("append-after-lock");
        let base = locked.base();
        self.replay_orphans(&mut st, &mut locked)?;

        if let Some(c) = locked.contention.clone().filter(|c| c.alerted) {
            self.append_stamped(&mut locked, alert_record(&c, Ts::now()))?;
        }
        let stamped = self.append_stamped(&mut locked, record)?;
        if let Some(intent) = &st.intent {
            intent.mark_done()?;
        }
        let (mut appended, written) = self.settle(&mut st, locked, base, stamped, redacted)?;
        if let Some(written) = written {
            let durable = self.make_durable(&mut st, written)?;
            appended.fsynced = durable.fsynced;
            appended.unanchored = durable.unanchored;
        }
        Ok(appended)
    }

    /// Step 1: validate the record (and a tangent against the current intent), redact it, and
    /// clear `prev`, which only the stamp sets.
    fn prepare(&self, record: &mut Record) -> Result<Vec<String>> {
        record.validate()?;
        if record.kind == RecordType::Tangent && record.intent.is_some() {
            let current = self.current_intent()?;
            record::check_tangent(record, current.as_ref())?;
        }
        let redacted = self.redact_record(record)?;
        record.prev = None;
        Ok(redacted)
    }

    /// The rest of step 6, with the record written and its intent done: publish the written
    /// point for step 7 and keep the stream open for the next append; or, when the stream has
    /// passed the threshold, rotate, which makes everything durable and anchors it under the
    /// lock (no step 7 then). The stream lock is released when `locked` goes.
    fn settle(
        &self,
        st: &mut WriterState,
        mut locked: Locked,
        base: Base,
        (offset, digest, ts): (u64, Digest, Ts),
        redacted: Vec<String>,
    ) -> Result<(Appended, Option<Written>)> {
        let mut appended = Appended {
            ts,
            digest,
            offset,
            redacted,
            contention: locked.contention.take(),
            recovery: std::mem::take(&mut locked.recovery),
            rotated: None,
            unanchored: None,
            fsynced: true,
        };
        if locked.tail.len > self.opts.rotate_bytes {
            let (stream, end) = (locked.stream_id, locked.tail.len);
            group::wrote(stream, end);
            let (rotated, unanchored) = self.rotate_locked(st, &mut locked, base)?;
            st.stream = None;
            st.tail = None;
            appended.rotated = Some(rotated.archive);
            appended.unanchored = unanchored;
            group::ack(stream, end, true);
            return Ok((appended, None));
        }
        let written = self.publish_written(st, &locked, base)?;
        Self::remember_tail(st, &locked);
        let Locked {
            file, stream_id, ..
        } = locked;
        st.stream = Some((file, stream_id));
        Ok((appended, Some(written)))
    }

    /// Replace secrets in every field, storing the originals first so nothing is lost; returns
    /// the names of the secrets replaced.
    pub(crate) fn redact_record(&self, record: &mut Record) -> Result<Vec<String>> {
        Ok(self.opts.secrets.pass(|p| {
            for field in record.text_fields_mut() {
                p.redact_in_place(field);
            }
            p.names()
        })?)
    }

    /// Take the lock and bring the stream to a clean state: finish an interrupted rotation,
    /// repair a torn tail, replay orphaned intents.
    pub fn recover(&self) -> Result<Recovery> {
        let dir = self.stream_dir();
        if !dir.exists() {
            return Ok(Recovery::default());
        }
        let mut st = self
            .writer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        st.scanned = None;
        let mut locked = self.lock_stream(&mut st)?;
        let base = locked.base();
        self.replay_orphans(&mut st, &mut locked)?;
        if let Some(head) = locked.tail.digest
            && locked.tail.len != base.len
        {
            locked.sync(&self.stream_path())?;
            // Best effort: a stream left unanchored is reported by `verify`, not lost.
            let _ = self.advance_anchor(&mut st, base, head, locked.tail.len);
        }
        st.tail = None;
        Ok(locked.recovery)
    }

    /// Step 5: append the records of dead writers' intent files (not this writer's own),
    /// unless the stream holds them already.
    fn replay_orphans(&self, st: &mut WriterState, locked: &mut Locked) -> Result<()> {
        let dir = self.stream_dir();
        if st.scanned.is_some_and(|s| s.still_current(&dir)) {
            return Ok(());
        }
        let own = st.intent.as_ref().map(IntentFile::path);
        let orphans = Orphans::find(&dir, own, &self.archive_dir())?;
        locked
            .recovery
            .unreadable_intents
            .extend(orphans.unreadable);
        let stream = self.stream_path();
        for orphan in orphans.pending {
            if orphan.already_in(&locked.file, locked.tail.len, &stream)? {
                locked.recovery.already_present += 1;
            } else {
                self.append_stamped(locked, orphan.record)?;
                locked.recovery.replayed += 1;
            }
            orphan.claim.remove()?;
        }
        st.scanned = Scanned::now(&dir);
        Ok(())
    }

    /// The intent of the latest non-tangent record (for the tangent rule).
    pub fn current_intent(&self) -> Result<Option<Intent>> {
        let path = self.stream_path();
        let Some(file) =
            super::reader::open_if_exists(&path).map_err(LedgerError::io("open", &path))?
        else {
            return Ok(None);
        };
        let len = fsutil::size_of(&file).map_err(LedgerError::io("stat", &path))?;
        let mut rr = ReverseReader::new(&file, len);
        let mut seen = 0;
        while let Some((off, seg)) = rr.next_segment().map_err(LedgerError::io("read", &path))? {
            seen += 1;
            if seen > self.opts.max_records {
                break;
            }
            if let Ok(r) = Frame::split(off, &seg).parse() {
                if r.kind == RecordType::Tangent {
                    continue;
                }
                if r.intent.is_some() {
                    return Ok(r.intent);
                }
                if r.kind == RecordType::Compaction {
                    break;
                }
            }
        }
        Ok(None)
    }
}

/// The record written when a writer waited longer than `alert_after` for the lock.
fn alert_record(c: &Contention, ts: Ts) -> Record {
    let mut r = Record::new(RecordType::Alert, ts);
    r.intent = Some(Intent {
        primary: "alert".into(),
        summary: format!(
            "waited {:.1}s for the pulse stream lock held by {}",
            c.waited.as_secs_f64(),
            c.holder.describe()
        ),
    });
    r.tags = vec!["lock-contention".into()];
    r.body = record::facts_body(&[
        format!("holder pid: {}", c.holder.pid),
        format!("holder host: {}", c.holder.host),
        format!("holder command: {}", c.holder.command),
        format!("holder since: {}", c.holder.since),
        format!("waited ms: {}", c.waited.as_millis()),
    ]);
    r
}
