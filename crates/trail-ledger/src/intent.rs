//! Intent files: a writer's record between "written down" and "appended" (steps 2, 5 and 7 of
//! [`super::append`]), and the orphans dead writers leave behind.
//!
//! An intent file is `P <len>\n<record>` while pending and starts with `D` once appended. Its
//! writer holds an OS lock on it for as long as it lives, so an unlocked intent file belongs to
//! a dead writer: an orphan, whose record whoever takes the stream lock next appends (unless
//! the stream holds it already).

use std::fs::{self, File, OpenOptions, TryLockError};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime};

use super::archive;
use super::error::{LedgerError, Result};
use super::frame::{self, Digest, Frame, Seal};
use super::reader::ReverseReader;
use super::record::Record;
use crate::time::Ts;

const INTENT_PREFIX: &str = "pulses.intent.";
/// An intent file being written; it never holds an acknowledged record.
const INTENT_TMP_PREFIX: &str = ".pulses.intent-tmp.";
/// Leftover of an interrupted [`crate::fsutil::atomic_write`] of the next stream during rotation.
const ROTATING_TMP_PREFIX: &str = ".pulses.log.md.rotating.tmp-";

const INTENT_HEADER: usize = 15; // "P 000000000000\n"

static INTENT_SEQ: AtomicU64 = AtomicU64::new(0);

/// This writer's intent file. Kept locked (by us) for as long as the `Ledger` lives and removed
/// when it is dropped.
pub(crate) struct IntentFile {
    path: PathBuf,
    file: File,
}

impl Drop for IntentFile {
    fn drop(&mut self) {
        // Removed while still locked, so no one replays a finished intent.
        let _ = fs::remove_file(&self.path);
    }
}

impl IntentFile {
    /// Write `record` (sealed) as this writer's pending intent: in place when the writer's file
    /// is still at its path, else in a new file in `dir`.
    pub(crate) fn write(slot: &mut Option<IntentFile>, dir: &Path, record: &[u8]) -> Result<()> {
        let bytes = intent_bytes(record);
        // Still ours at its path? Ask only for the inode: a full stat would make the next
        // fsync of the stream write an inode block too (see `fsutil::size_of`).
        if let Some(intent) = slot
            && crate::fsutil::identity(&intent.path).is_ok()
        {
            return intent
                .file
                .write_at(&bytes, 0)
                .map(drop)
                .map_err(LedgerError::io("write", &intent.path));
        }
        crate::fsutil::ensure_dir(dir).map_err(LedgerError::io("create", dir))?;
        *slot = None;
        *slot = Some(IntentFile::create(dir, &bytes)?);
        Ok(())
    }

    fn create(dir: &Path, bytes: &[u8]) -> Result<IntentFile> {
        let seq = INTENT_SEQ.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let name = format!("{}-{nanos}-{seq}", std::process::id());
        let tmp = dir.join(format!("{INTENT_TMP_PREFIX}{name}"));
        let path = dir.join(format!("{INTENT_PREFIX}{name}"));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&tmp)
            .map_err(LedgerError::io("create", &tmp))?;
        // Held until this writer is done: an unlocked intent file belongs to a dead writer. The
        // file only gets its visible name once locked and written, so no one can mistake it for
        // an orphan in between (the lock follows the open file through the rename).
        file.lock().map_err(LedgerError::io("lock", &tmp))?;
        file.write_all_at(bytes, 0)
            .map_err(LedgerError::io("write", &tmp))?;
        fs::rename(&tmp, &path).map_err(LedgerError::io("rename", &tmp))?;
        Ok(IntentFile { path, file })
    }

    /// Mark the record appended. Done before the stream lock is released, so no one mistakes
    /// the file for a pending orphan.
    pub(crate) fn mark_done(&self) -> Result<()> {
        self.file
            .write_at(b"D", 0)
            .map(drop)
            .map_err(LedgerError::io("write", &self.path))
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

fn intent_bytes(record: &[u8]) -> Vec<u8> {
    let mut v = format!("P {:012}\n", record.len()).into_bytes();
    v.extend_from_slice(record);
    v
}

/// The record in an intent file's bytes, if it is pending.
fn pending_record(bytes: &[u8]) -> Option<Option<&[u8]>> {
    match bytes.first()? {
        b'D' => Some(None),
        b'P' => {
            let len: usize = std::str::from_utf8(bytes.get(2..INTENT_HEADER - 1)?)
                .ok()?
                .parse()
                .ok()?;
            Some(Some(bytes.get(INTENT_HEADER..INTENT_HEADER + len)?))
        }
        _ => None,
    }
}

/// Whether the stream directory has gained no entry since an orphan scan: orphans appear as
/// directory entries, so an unchanged directory (looked at recently) has none to offer.
#[derive(Clone, Copy)]
pub(crate) struct Scanned {
    mtime: SystemTime,
    at: Instant,
}

impl Scanned {
    /// The directory as it is now.
    pub(crate) fn now(dir: &Path) -> Option<Scanned> {
        let mtime = fs::metadata(dir).and_then(|m| m.modified()).ok()?;
        Some(Scanned {
            mtime,
            at: Instant::now(),
        })
    }

    pub(crate) fn still_current(&self, dir: &Path) -> bool {
        fs::metadata(dir)
            .and_then(|m| m.modified())
            .is_ok_and(|now| now == self.mtime && self.at.elapsed().as_secs() < 1)
    }
}

/// A dead writer's pending record.
pub(crate) struct Orphan {
    /// The record's provisional stamp: a copy in the stream is stamped at or after it.
    pub ts: Ts,
    /// The record's [`frame::identity`], which survives restamping.
    id: Digest,
    pub record: Record,
    /// Its intent file, locked by us until removed.
    pub claim: Claim,
}

/// An orphan's intent file, locked by the writer replaying it.
pub(crate) struct Claim {
    path: PathBuf,
    _file: File,
}

impl Claim {
    /// Remove the intent file, once its record is in the stream.
    pub(crate) fn remove(self) -> Result<()> {
        remove_if_present(&self.path)
    }
}

impl Orphan {
    /// Whether the stream (`file`, records up to `len`) holds this record already: a writer
    /// that died between its fsync and marking its intent done.
    pub(crate) fn already_in(&self, file: &File, len: u64, path: &Path) -> Result<bool> {
        let mut rr = ReverseReader::new(file, len);
        while let Some((off, seg)) = rr.next_segment().map_err(LedgerError::io("read", path))? {
            let f = Frame::split(off, &seg);
            if frame::identity(f.bytes) == self.id {
                return Ok(true);
            }
            match f.parse() {
                Ok(r) if r.ts < self.ts => return Ok(false),
                _ => {}
            }
        }
        Ok(false)
    }
}

/// What a scan of the stream directory found.
#[derive(Default)]
pub(crate) struct Orphans {
    /// Pending records, oldest intent first (which keeps the writers' order).
    pub pending: Vec<Orphan>,
    /// Intent files that could not be read back, as kept under `archive/`.
    pub unreadable: Vec<PathBuf>,
}

impl Orphans {
    /// The orphans in `dir` other than `own` (this writer's). Sweeps what dead writers left
    /// half-made; sets unreadable intents aside under `archive_dir`. Call under the stream lock.
    pub(crate) fn find(dir: &Path, own: Option<&Path>, archive_dir: &Path) -> Result<Orphans> {
        let mut found = Orphans::default();
        for (path, file) in unlocked_intents(dir, own)? {
            found.read(path, file, archive_dir)?;
        }
        found.pending.sort_by_key(|o| o.ts);
        Ok(found)
    }

    /// Read one orphan through the handle we locked: a writer that finished meanwhile may
    /// already have unlinked the path (its content then says done).
    fn read(&mut self, path: PathBuf, mut file: File, archive_dir: &Path) -> Result<()> {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut file, &mut bytes)
            .map_err(LedgerError::io("read", &path))?;
        let record = match pending_record(&bytes) {
            // Appended already; its writer died before removing the file.
            Some(None) => return remove_if_present(&path),
            Some(Some(rec)) => sealed_record(rec),
            None => None,
        };
        if let Some((record, id)) = record {
            self.pending.push(Orphan {
                ts: record.ts,
                id,
                record,
                claim: Claim { path, _file: file },
            });
        } else {
            let saved = archive::keep(archive_dir, "torn-intent", "bin", &bytes)?;
            remove_if_present(&path)?;
            self.unreadable.push(saved);
        }
        Ok(())
    }
}

/// The record in an intent, when it is one whole sealed record.
fn sealed_record(rec: &[u8]) -> Option<(Record, Digest)> {
    let frame = Frame::split(0, rec);
    if frame.seal != Seal::Valid || frame::starts(rec).first() != Some(&0) {
        return None;
    }
    let r = frame.parse().ok()?;
    Some((r, frame::identity(frame.bytes)))
}

/// Intent files in `dir` no live writer holds, each locked by us now; leftovers of dead
/// writers' half-made files are swept on the way.
fn unlocked_intents(dir: &Path, own: Option<&Path>) -> Result<Vec<(PathBuf, File)>> {
    let rd = fs::read_dir(dir).map_err(LedgerError::io("read", dir))?;
    let mut out = Vec::new();
    for entry in rd {
        let entry = entry.map_err(LedgerError::io("read", dir))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let path = entry.path();
        if name.starts_with(INTENT_TMP_PREFIX) {
            // A writer that died before its intent was complete left nothing to replay. A
            // fresh one may belong to a live writer that has not locked it yet, so only old
            // leftovers are swept.
            let stale = entry
                .metadata()
                .ok()
                .and_then(|m| m.modified().ok())
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 600);
            if stale {
                let _ = fs::remove_file(&path);
            }
            continue;
        }
        if name.starts_with(ROTATING_TMP_PREFIX) {
            // A rotation that crashed while writing the next stream; we hold the lock, and
            // only lock holders write it.
            let _ = fs::remove_file(&path);
            continue;
        }
        if !name.starts_with(INTENT_PREFIX) || own == Some(path.as_path()) {
            continue;
        }
        let Ok(file) = OpenOptions::new().read(true).write(true).open(&path) else {
            continue; // finished and removed meanwhile
        };
        match file.try_lock() {
            Ok(()) => out.push((path, file)),
            Err(TryLockError::WouldBlock) => {} // its writer is alive and will append it
            Err(TryLockError::Error(e)) => return Err(LedgerError::io("lock", &path)(e)),
        }
    }
    Ok(out)
}

/// How many intent files `dir` holds (pending or not yet removed), for `verify`'s report.
pub(crate) fn count(dir: &Path) -> usize {
    fs::read_dir(dir).map_or(0, |rd| {
        rd.filter_map(std::result::Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with(INTENT_PREFIX))
            .count()
    })
}

/// Remove a file that another writer may have removed already.
fn remove_if_present(path: &Path) -> Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(LedgerError::io("remove", path)(e))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intent_files_say_whether_they_are_pending() {
        let rec = b"---\nschema: ledgerpulse/v1\n---\n";
        let mut bytes = intent_bytes(rec);
        assert_eq!(pending_record(&bytes), Some(Some(&rec[..])));
        // Rewritten in place by a shorter record: the header bounds it.
        bytes.extend_from_slice(b"stale bytes of a longer earlier record");
        assert_eq!(pending_record(&bytes), Some(Some(&rec[..])));
        bytes[0] = b'D';
        assert_eq!(pending_record(&bytes), Some(None));
        assert_eq!(pending_record(b"P 0000000"), None);
        assert_eq!(pending_record(b"garbage"), None);
        assert_eq!(pending_record(b""), None);
    }
}
