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
//! 6. Stamp the record (`ts` strictly after the last record's, `prev` = its digest), append it
//!    with one write, and fsync. Only now is the record acknowledged.
//! 7. Mark the intent file done, then name the new head in the anchor (see [`super::anchor`]:
//!    what makes a rewritten history evident), then release the stream lock (in that order, so a
//!    live writer's intent file is never mistaken for an orphan, and the anchor never names a
//!    record that is not durable).
//!
//! The intent file is not fsynced: it guards against the writer *process* dying, and the page
//! cache outlives processes. After a power loss an unsynced intent file may be empty or torn;
//! its seal then fails and it is set aside, which loses nothing acknowledged (acknowledgement
//! comes after step 6). This keeps one fsync per record, as a database with a write-ahead log
//! has.
//!
//! A long-lived writer (one `Ledger` appending many records) keeps its intent file, lock file and
//! stream open between appends, rewrites its intent file in place and marks it done instead of
//! deleting it, and trusts its cached view of the tail when the stream still ends with the bytes
//! it last saw. The one fsync per record then dominates the cost, as it should.
//!
//! Where each step lives: 1 and the sequence here; 2 and 5 in [`super::intent`]; 3, 6 and the
//! anchor in [`super::writer`]; 4 in [`super::tail`].
//!
//! Recognising an already-appended orphan: the stamp changes between the intent file and the
//! stream, so records are compared by [`frame::identity`] (everything but `ts`, `prev` and the
//! seal) among the records stamped at or after the intent's provisional time.

use std::path::PathBuf;

use super::anchor::{Base, Skipped};
use super::error::{LedgerError, Result};
use super::frame::{self, Digest, Frame};
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
}

impl Ledger {
    /// Append one record (see the module docs for the sequence). `record.ts` is the earliest time
    /// it may carry; it is moved forward when the stream already holds a later one.
    pub fn append(&self, mut record: Record) -> Result<Appended> {
        let redacted = self.prepare(&mut record)?;
        let (sealed, _) = frame::encode(&record);

        let mut st = self.writer.lock().unwrap_or_else(|e| e.into_inner());
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
        failpoint::hit("append-after-fsync");
        if let Some(intent) = &st.intent {
            intent.mark_done()?;
        }
        self.settle(&mut st, locked, base, stamped, redacted)
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

    /// The rest of step 7, with the record durable and its intent done: rotate when the stream
    /// has passed the threshold, name the new head in the anchor, and keep the stream open for
    /// the next append. The stream lock is released when `locked` goes.
    fn settle(
        &self,
        st: &mut WriterState,
        mut locked: Locked,
        base: Base,
        (offset, digest, ts): (u64, Digest, Ts),
        redacted: Vec<String>,
    ) -> Result<Appended> {
        let rotated = if locked.tail.len > self.opts.rotate_bytes {
            Some(self.rotate_locked(&mut locked)?)
        } else {
            None
        };
        let (head, end) = match &rotated {
            Some(r) => (r.head, r.end),
            None => (digest, locked.tail.len),
        };
        let unanchored = self.advance_anchor(st, base, head, end).err();
        if rotated.is_some() {
            st.stream = None;
            st.tail = None;
        } else {
            self.remember_tail(st, &locked);
        }
        let Locked {
            contention,
            recovery,
            file,
            stream_id,
            ..
        } = locked;
        if rotated.is_none() {
            st.stream = Some((file, stream_id));
        }
        Ok(Appended {
            ts,
            digest,
            offset,
            redacted,
            contention,
            recovery,
            rotated: rotated.map(|r| r.archive),
            unanchored,
        })
    }

    /// Replace secrets in every field, storing the originals first so nothing is lost; returns
    /// the names of the secrets replaced.
    fn redact_record(&self, record: &mut Record) -> Result<Vec<String>> {
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
        let mut st = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        st.scanned = None;
        let mut locked = self.lock_stream(&mut st)?;
        let base = locked.base();
        self.replay_orphans(&mut st, &mut locked)?;
        if let Some(head) = locked.tail.digest
            && locked.tail.len != base.len
        {
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
