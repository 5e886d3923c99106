//! Rotation (LedgerPulse §12): keep the live stream small without dropping anything.
//!
//! Under the stream lock:
//! 1. append a compaction record carrying the rehydrated state (the old segment's summary);
//! 2. write the next stream, whose first record is a compaction record that names the archive
//!    and chains to step 1's record, to `pulses.log.md.rotating` (atomically, synced);
//! 3. move the stream to `archive/pulses-<stamp>.log.md`;
//! 4. move `pulses.log.md.rotating` into place;
//! 5. write the archive's index and drop the old one.
//!
//! After step 2 the rotation is committed: steps 3 to 5 are `Ledger::finish_rotation`
//! (`writer.rs`), which every writer also runs when it takes the lock, so a crash at any later
//! point is rolled forward by the next writer. A crash before it leaves an ordinary stream with
//! one more compaction record, and the next append simply rotates again.

use std::path::PathBuf;

use super::anchor::{Base, Skipped};
use super::archive;
use super::error::{LedgerError, Result};
use super::frame;
use super::handle::{Ledger, WriterState};
use super::record::{Intent, Record, RecordType};
use super::rehydrate::{self, RehydrateOptions};
use super::writer::Locked;
use crate::failpoint;
use crate::fsutil;
use crate::time::Ts;

/// A rotation done under the lock: where the old stream went.
pub(crate) struct Rotated {
    pub archive: PathBuf,
}

/// What `rotate` did.
#[derive(Debug, Clone)]
pub enum Rotation {
    /// The stream is below the threshold (and `force` was not given).
    NotNeeded {
        size: u64,
        threshold: u64,
    },
    Rotated {
        archive: PathBuf,
        size: u64,
    },
}

impl Ledger {
    /// Rotate when the stream is past the threshold, or always with `force`.
    pub fn rotate(&self, force: bool) -> Result<Rotation> {
        let mut st = self
            .writer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut locked = self.lock_stream(&mut st)?;
        st.stream = None;
        st.tail = None;
        let base = locked.base();
        let size = locked.tail.len;
        if size == 0 || (!force && size <= self.opts.rotate_bytes) {
            return Ok(Rotation::NotNeeded {
                size,
                threshold: self.opts.rotate_bytes,
            });
        }
        // Best effort: a stream left unanchored is reported by `verify`, not lost.
        let (r, _) = self.rotate_locked(&mut st, &mut locked, base)?;
        Ok(Rotation::Rotated {
            archive: r.archive,
            size,
        })
    }

    /// Steps 1 and 2 (see the module docs) under the lock, then the rest; the anchor follows
    /// the head from the old stream's last record (`base` is the tail the lock found) to the new
    /// stream's first. Returns why the anchor was not advanced, when it was not.
    pub(crate) fn rotate_locked(
        &self,
        st: &mut WriterState,
        locked: &mut Locked,
        base: Base,
    ) -> Result<(Rotated, Option<Skipped>)> {
        let state = self.rehydrate(&RehydrateOptions {
            tangents: true,
            own_only: true,
            ..RehydrateOptions::default()
        })?;
        let now = Ts::now();
        let mut closing = Record::new(RecordType::Compaction, now);
        closing.intent = Some(Intent {
            primary: "rotate".into(),
            summary: "segment closed by rotation; the state below summarises it".into(),
        });
        closing.tags = vec!["rotation".into()];
        closing.body = rehydrate::state_body(&state, &[]);
        let (_, closing_digest, closing_ts) = self.append_stamped(locked, closing)?;
        failpoint::hit("rotate-after-compaction");
        // Everything in the old stream becomes durable here, records other writers are still
        // waiting to sync included, before it moves into the archive. The anchor then names
        // its last record while it is still the live stream.
        locked.sync(&self.stream_path())?;
        let closing_end = locked.tail.len;
        let anchored = self.advance_anchor(st, base, closing_digest, closing_end);

        let archive_dir = self.archive_dir();
        fsutil::ensure_dir(&archive_dir).map_err(LedgerError::io("create", &archive_dir))?;
        let archive = archive::segment_path(&archive_dir, closing_ts);
        let rel = format!(
            "archive/{}",
            archive.file_name().unwrap_or_default().to_string_lossy()
        );

        let mut head = Record::new(RecordType::Compaction, closing_ts.succ());
        head.intent = Some(Intent {
            primary: "continue".into(),
            summary: format!("stream rotated; earlier records are in {rel}"),
        });
        head.tags = vec!["rotation".into()];
        head.archive = Some(rel);
        head.prev = Some(frame::hex(&closing_digest));
        head.body = rehydrate::state_body(&state, &[]);
        let (head_bytes, head_digest) = frame::encode(&head);
        // The archive name rides in the head record, so a roll-forward knows where to move to.
        let rotating = self.rotating_path();
        fsutil::atomic_write(&rotating, &head_bytes)
            .map_err(LedgerError::io("write", &rotating))?;
        failpoint::hit("rotate-after-new-stream");
        self.finish_rotation()?;
        let end = head_bytes.len() as u64;
        let closing = Base {
            digest: Some(closing_digest),
            len: closing_end,
        };
        let unanchored = anchored
            .and_then(|()| self.advance_anchor(st, closing, head_digest, end))
            .err();
        Ok((Rotated { archive }, unanchored))
    }
}
