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

use super::archive;
use super::error::{LedgerError, Result};
use super::frame;
use super::handle::Ledger;
use super::record::{Intent, Record, RecordType};
use super::rehydrate::{self, RehydrateOptions};
use super::writer::Locked;
use crate::failpoint;
use crate::fsutil;
use crate::time::Ts;

/// A rotation done under the lock: where the old stream went and the new stream's only record.
pub(crate) struct Rotated {
    pub archive: PathBuf,
    /// The seal of the new stream's first record, and where it ends.
    pub head: frame::Digest,
    pub end: u64,
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
        let r = self.rotate_locked(&mut locked)?;
        // Best effort: a stream left unanchored is reported by `verify`, not lost.
        let _ = self.advance_anchor(&mut st, base, r.head, r.end);
        Ok(Rotation::Rotated {
            archive: r.archive,
            size,
        })
    }

    /// Steps 1 and 2 (see the module docs) under the lock, then the rest.
    pub(crate) fn rotate_locked(&self, locked: &mut Locked) -> Result<Rotated> {
        let state = self.rehydrate(&RehydrateOptions {
            tangents: true,
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
        Ok(Rotated {
            archive,
            head: head_digest,
            end: head_bytes.len() as u64,
        })
    }
}
