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
//! After step 2 the rotation is committed: a crash at any later point is rolled forward by the
//! next writer (`Ledger::finish_rotation`). A crash before it leaves an ordinary stream with
//! one more compaction record, and the next append simply rotates again.

use std::fs;
use std::path::PathBuf;

use super::append::Locked;
use super::frame;
use super::index;
use super::record::{Intent, Record, RecordType};
use super::rehydrate::{self, RehydrateOptions};
use super::store::{Ledger, LedgerError, Result, index_path_for};
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
        let mut st = self.writer.lock().unwrap_or_else(|e| e.into_inner());
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
        let archive = unique_archive_path(&archive_dir, closing_ts);
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

    /// Roll an interrupted rotation forward. Returns whether there was one.
    pub(crate) fn finish_rotation(&self) -> Result<bool> {
        let rotating = self.rotating_path();
        let bytes = match fs::read(&rotating) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(LedgerError::io("read", &rotating)(e)),
        };
        let frame = frame::Frame::split(0, &bytes);
        let head = match frame.parse() {
            Ok(r) if frame.seal == frame::Seal::Valid && r.archive.is_some() => r,
            _ => {
                // Cannot happen with an atomic write, but never trust a file blindly.
                fs::remove_file(&rotating).map_err(LedgerError::io("remove", &rotating))?;
                return Ok(false);
            }
        };
        let rel = head.archive.unwrap_or_default();
        let archive = self.stream_dir().join(&rel);
        let stream = self.stream_path();
        let dir = self.stream_dir();
        if stream.exists() && !archive.exists() {
            fs::rename(&stream, &archive).map_err(LedgerError::io("archive", &stream))?;
            fsutil::sync_dir(fsutil::parent_dir(&archive))
                .map_err(LedgerError::io("sync", &archive))?;
            fsutil::sync_dir(&dir).map_err(LedgerError::io("sync", &dir))?;
        }
        failpoint::hit("rotate-after-archive");
        if !stream.exists() {
            fs::rename(&rotating, &stream).map_err(LedgerError::io("rename", &rotating))?;
            fsutil::sync_dir(&dir).map_err(LedgerError::io("sync", &dir))?;
        } else {
            // The stream was already swapped in: only the leftover remains.
            fs::remove_file(&rotating).map_err(LedgerError::io("remove", &rotating))?;
        }
        failpoint::hit("rotate-after-swap");
        let old_index = self.index_path();
        let _ = fs::remove_file(&old_index);
        // The archive's index is a cache: failing to write it costs time later, never data.
        let _ = index::rebuild(&archive, &index_path_for(&archive));
        Ok(true)
    }
}

fn unique_archive_path(dir: &std::path::Path, ts: Ts) -> PathBuf {
    let base = format!("pulses-{}", ts.file_stamp());
    let mut p = dir.join(format!("{base}.log.md"));
    let mut n = 1;
    while p.exists() {
        p = dir.join(format!("{base}-{n}.log.md"));
        n += 1;
    }
    p
}
