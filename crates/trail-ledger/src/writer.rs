//! The writer's steps under the stream lock, which [`super::append`] and [`super::rotate`]
//! compose: take the lock (finishing an interrupted rotation, reopening the stream, repairing
//! its tail), append one stamped record, and name a durable head in the anchor.

use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::Arc;

use super::anchor::{self, AnchorWriter, Base, Skipped};
use super::error::{LedgerError, Result};
use super::frame::{self, Digest};
use super::handle::{Ledger, WriterState, index_path_for};
use super::index;
use super::lock::{self, AlertFn, Contention, StreamLock};
use super::record::Record;
use super::tail::Tail;
use crate::failpoint;
use crate::fsutil;
use crate::time::Ts;

/// Repairs made when taking the lock.
#[derive(Debug, Clone, Default)]
pub struct Recovery {
    /// Where torn tail bytes were kept.
    pub torn_saved: Vec<PathBuf>,
    /// Orphaned intent records appended.
    pub replayed: usize,
    /// Orphaned intent files whose record was already in the stream.
    pub already_present: usize,
    /// Intent files that could not be read back (torn by a power loss); kept in the archive.
    pub unreadable_intents: Vec<PathBuf>,
    /// A rotation interrupted by a crash was completed.
    pub finished_rotation: bool,
}

impl Recovery {
    pub fn is_empty(&self) -> bool {
        self.torn_saved.is_empty()
            && self.replayed == 0
            && self.already_present == 0
            && self.unreadable_intents.is_empty()
            && !self.finished_rotation
    }
}

/// An open stream with its lock held: the state every mutation starts from.
pub(crate) struct Locked {
    _lock: StreamLock,
    pub file: File,
    /// (device, inode) of `file`, to notice a rotation next time.
    pub stream_id: (u64, u64),
    pub tail: Tail,
    pub contention: Option<Contention>,
    pub recovery: Recovery,
}

impl Locked {
    /// The tail as found when the lock was taken: what the anchor should already name.
    pub(crate) fn base(&self) -> Base {
        Base {
            digest: self.tail.digest,
            len: self.tail.len,
        }
    }

    /// Make everything written to the stream so far durable, under the lock: for rotation and
    /// recovery, which must not leave the lock before their records are durable (appends sync
    /// after it, in a group: [`super::group`]).
    pub(crate) fn sync(&self, path: &std::path::Path) -> Result<()> {
        super::group::fsync(&self.file, self.stream_id).map_err(LedgerError::io("sync", path))
    }
}

impl Ledger {
    /// Take the stream lock (steps 3 and 4 of [`super::append`]): wait for it, finish a
    /// rotation a crash interrupted, open the stream, and find its tail, repairing a torn one.
    pub(crate) fn lock_stream(&self, st: &mut WriterState) -> Result<Locked> {
        let (lock, contention) = self.take_lock(st)?;
        let mut recovery = Recovery {
            finished_rotation: self.finish_rotation()?,
            ..Recovery::default()
        };
        let (file, stream_id) = self.open_stream(st, recovery.finished_rotation)?;
        let tail = self.find_tail(st, &file, &mut recovery)?;
        failpoint::hit("append-after-repair");
        Ok(Locked {
            _lock: lock,
            file,
            stream_id,
            tail,
            contention,
            recovery,
        })
    }

    /// Wait for the stream lock, alerting when the wait is long.
    pub(crate) fn take_lock(
        &self,
        st: &mut WriterState,
    ) -> Result<(StreamLock, Option<Contention>)> {
        let dir = self.stream_dir();
        let lock_path = self.lock_path();
        let lock_file = if let Some(f) = &st.lock_file {
            f.clone()
        } else {
            fsutil::ensure_dir(&dir).map_err(LedgerError::io("create", &dir))?;
            let f = Arc::new(
                lock::open_lock_file(&lock_path).map_err(LedgerError::io("open", &lock_path))?,
            );
            st.lock_file = Some(f.clone());
            f
        };
        StreamLock::acquire(
            lock_file,
            &lock_path,
            "the pulse stream lock",
            self.opts.alert_after,
            self.alert_fn(),
        )
        .map_err(LedgerError::io("lock", &lock_path))
    }

    pub(crate) fn alert_fn(&self) -> Option<AlertFn> {
        let sink = self.opts.alert_sink.clone();
        let command = self.opts.alert_command.clone();
        if sink.is_none() && command.is_none() {
            return None;
        }
        Some(Arc::new(move |msg: &str| {
            if let Some(cmd) = &command
                && let Err(e) = lock::run_alert_command(cmd, msg)
                && let Some(s) = &sink
            {
                s(&format!(
                    "trail: alert_command `{cmd}` failed to start: {e}"
                ));
            }
            if let Some(s) = &sink {
                s(msg);
            }
        }))
    }

    /// The stream, open for reading and writing: the one kept from the last append unless the
    /// stream was rotated (or replaced) since.
    fn open_stream(&self, st: &mut WriterState, rotated: bool) -> Result<(File, (u64, u64))> {
        let path = self.stream_path();
        let current = fsutil::identity(&path).ok();
        match st.stream.take() {
            Some((f, id)) if Some(id) == current && !rotated => Ok((f, id)),
            _ => {
                st.tail = None;
                // Not O_APPEND: records are written at the end of the last record, into the
                // reserve (on Linux, pwrite on an O_APPEND file ignores its offset).
                let f = fsutil::open_no_atime(
                    OpenOptions::new()
                        .read(true)
                        .write(true)
                        .create(true)
                        .truncate(false),
                    &path,
                )
                .map_err(LedgerError::io("open", &path))?;
                let id = fsutil::identity_of(&f).map_err(LedgerError::io("stat", &path))?;
                Ok((f, id))
            }
        }
    }

    /// The tail this writer remembers when the stream still ends with it, else the tail found
    /// by a scan, torn bytes after it set aside and cut off.
    fn find_tail(
        &self,
        st: &mut WriterState,
        file: &File,
        recovery: &mut Recovery,
    ) -> Result<Tail> {
        if let Some((tail, key)) = st.tail.take()
            && tail.unchanged(file, &key)
        {
            return Ok(tail);
        }
        let (tail, torn) = Tail::repair(file, &self.stream_path(), &self.archive_dir())?;
        recovery.torn_saved.extend(torn);
        Ok(tail)
    }

    /// Remember the tail for the next append.
    pub(crate) fn remember_tail(st: &mut WriterState, locked: &Locked) {
        st.tail = locked.tail.key(&locked.file).map(|key| (locked.tail, key));
    }

    /// Stamp and append one record under the lock (step 6 of [`super::append`]): `ts` strictly
    /// after the last record's, `prev` its digest; one write. Not yet durable: the caller syncs
    /// ([`super::group`], or [`Locked::sync`] under the lock). Returns (offset, digest, ts).
    pub(crate) fn append_stamped(
        &self,
        locked: &mut Locked,
        mut record: Record,
    ) -> Result<(u64, Digest, Ts)> {
        if let Some(last) = locked.tail.ts
            && record.ts <= last
        {
            record.ts = last.succ();
        }
        // The first record of a chain points at the zero digest, so every record trail writes
        // names a `prev` and a torn first record is recognisable as torn.
        record.prev = Some(frame::hex(&locked.tail.digest.unwrap_or([0; 32])));
        let (bytes, digest) = frame::encode(&record);
        let path = self.stream_path();
        let offset = locked.tail.len;
        let rec_len = bytes.len();
        let (buf, file_len) = locked.tail.fill(bytes);
        #[cfg(debug_assertions)]
        if std::env::var_os("TRAIL_FAILPOINT").is_some_and(|v| v == "append-mid-write") {
            let _ = locked.file.write_all_at(&buf[..rec_len / 2], offset);
            std::process::abort();
        }
        locked
            .file
            .write_all_at(&buf, offset)
            .map_err(LedgerError::io("append to", &path))?;
        failpoint::hit("append-after-write");
        locked.tail = Tail {
            ts: Some(record.ts),
            digest: Some(digest),
            len: offset + rec_len as u64,
            file_len,
        };
        Ok((offset, digest, record.ts))
    }

    /// Name `head` (a record ending at `end` of the live stream) in the anchor, when anchors
    /// are on and the stream continues from the anchored head through `base`.
    pub(crate) fn advance_anchor(
        &self,
        st: &mut WriterState,
        base: Base,
        head: Digest,
        end: u64,
    ) -> Result<(), Skipped> {
        if !self.opts.anchor {
            return Ok(());
        }
        let site = anchor::Site {
            anchor: self.anchor_path(),
            stream: self.stream_path(),
            archive_dir: self.archive_dir(),
            secrets_dir: &self.opts.secrets_dir,
        };
        AnchorWriter::advance(&mut st.anchor, &site, base, head, end)
    }

    /// Finish a rotation (steps 3 to 5 of [`super::rotate`]) whose next stream is written:
    /// the one in progress, or one a crash interrupted. Returns whether there was one.
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
        if stream.exists() {
            // The stream was already swapped in: only the leftover remains.
            fs::remove_file(&rotating).map_err(LedgerError::io("remove", &rotating))?;
        } else {
            fs::rename(&rotating, &stream).map_err(LedgerError::io("rename", &rotating))?;
            fsutil::sync_dir(&dir).map_err(LedgerError::io("sync", &dir))?;
        }
        failpoint::hit("rotate-after-swap");
        let old_index = self.index_path();
        let _ = fs::remove_file(&old_index);
        // The archive's index is a cache: failing to write it costs time later, never data.
        let _ = index::rebuild(&archive, &index_path_for(&archive));
        Ok(true)
    }
}
