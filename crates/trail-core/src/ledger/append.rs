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
//! Recognising an already-appended orphan: the stamp changes between the intent file and the
//! stream, so records are compared by [`frame::identity`] (everything but `ts`, `prev` and the
//! seal) among the records stamped at or after the intent's provisional time.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::anchor::{AnchorWriter, Base, Skipped};
use super::frame::{self, Digest, Frame, Seal};
use super::lock::{Contention, StreamLock};
use super::reader::ReverseReader;
use super::record::{self, Intent, Record, RecordType};
use super::store::{Ledger, LedgerError, Result};
use crate::failpoint;
use crate::fsutil;
use crate::secrets::Found;
use crate::time::Ts;

const INTENT_PREFIX: &str = "pulses.intent.";
/// An intent file being written; it never holds an acknowledged record.
const INTENT_TMP_PREFIX: &str = ".pulses.intent-tmp.";
/// Leftover of an interrupted [`fsutil::atomic_write`] of the next stream during rotation.
const ROTATING_TMP_PREFIX: &str = ".pulses.log.md.rotating.tmp-";

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

/// The last complete record of the stream.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tail {
    pub ts: Option<Ts>,
    pub digest: Option<Digest>,
    /// Where the next record goes: the end of the last complete record.
    pub len: u64,
    /// The file's size: `len` plus the blank reserve after it (see [`RESERVE`]).
    pub file_len: u64,
}

/// Blank space kept after the last record, one line of spaces ending in a newline.
///
/// An fsync after an append that grows a file must also write the file's inode (its size
/// changed): two dependent disk writes per record. Writing the record over blank space the file
/// already holds needs only the data write, which is how a database's preallocated write-ahead
/// log stays fast. Readers see the reserve as trailing whitespace after the last seal, which the
/// format already allows; people see one blank-looking line at the end of the file.
pub const RESERVE: usize = 32 * 1024;

/// This writer's intent file: `P <len>\n<record>` while pending, `D` once appended. Kept locked
/// (by us) for as long as the `Ledger` lives and removed when it is dropped.
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

const INTENT_HEADER: usize = 15; // "P 000000000000\n"

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

static INTENT_SEQ: AtomicU64 = AtomicU64::new(0);

/// What a writer keeps between appends (see the module docs).
#[derive(Default)]
pub(crate) struct WriterState {
    pub(crate) lock_file: Option<Arc<File>>,
    pub(crate) intent: Option<IntentFile>,
    /// The open stream and the (device, inode) it was opened at, to notice a rotation.
    pub(crate) stream: Option<(File, (u64, u64))>,
    /// The tail as last seen, with the stream's final bytes to recognise it by.
    pub(crate) tail: Option<(Tail, Vec<u8>)>,
    /// The stream directory's mtime after the last orphan scan, and when that was.
    pub(crate) scanned: Option<(std::time::SystemTime, std::time::Instant)>,
    /// The anchor file and the key, opened once.
    pub(crate) anchor: Option<AnchorWriter>,
}

/// How many final bytes of the stream identify a cached tail (a seal line is 82).
const TAIL_KEY: u64 = 96;

impl Locked {
    /// The tail as found when the lock was taken: what the anchor should already name.
    pub(crate) fn base(&self) -> Base {
        Base {
            digest: self.tail.digest,
            len: self.tail.len,
        }
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

impl Ledger {
    /// Append one record (see the module docs for the sequence). `record.ts` is the earliest time
    /// it may carry; it is moved forward when the stream already holds a later one.
    pub fn append(&self, mut record: Record) -> Result<Appended> {
        record.validate()?;
        if record.kind == RecordType::Tangent && record.intent.is_some() {
            let current = self.current_intent()?;
            record::check_tangent(&record, current.as_ref())?;
        }
        let redacted = self.redact_record(&mut record)?;
        record.prev = None;
        let (intent_bytes_raw, _) = frame::encode(&record);

        let mut st = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let dir = self.stream_dir();
        self.write_intent(&mut st, &dir, &intent_bytes(&intent_bytes_raw))?;
        failpoint::hit("append-after-intent");

        let mut locked = self.lock_stream(&mut st)?;
        failpoint::hit("append-after-lock");
        let base = locked.base();
        let own = st.intent.as_ref().map(|i| i.path.clone());
        self.replay_orphans(&mut st, &mut locked, own.as_deref())?;

        if let Some(c) = locked.contention.clone().filter(|c| c.alerted) {
            let alert = alert_record(&c, Ts::now());
            self.append_stamped(&mut locked, alert)?;
        }
        let (offset, digest, ts) = self.append_stamped(&mut locked, record)?;
        failpoint::hit("append-after-fsync");
        if let Some(intent) = &st.intent {
            // Done before the lock is released, so no one mistakes it for a pending orphan.
            intent
                .file
                .write_at(b"D", 0)
                .map_err(LedgerError::io("write", &intent.path))?;
        }

        let rotated = if locked.tail.len > self.opts.rotate_bytes {
            Some(self.rotate_locked(&mut locked)?)
        } else {
            None
        };
        let (head, end) = match &rotated {
            Some(r) => (r.head, r.end),
            None => (digest, locked.tail.len),
        };
        let unanchored = self.advance_anchor(&mut st, base, head, end).err();
        let rotated = match rotated {
            Some(r) => {
                st.stream = None;
                st.tail = None;
                Some(r.archive)
            }
            None => {
                self.keep(&mut st, &locked);
                None
            }
        };
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
            redacted: redacted.into_iter().map(|f| f.name).collect(),
            contention,
            recovery,
            rotated,
            unanchored,
        })
    }

    /// Remember the tail for the next append.
    fn keep(&self, st: &mut WriterState, locked: &Locked) {
        let len = locked.tail.len;
        let n = len.min(TAIL_KEY);
        let mut end = vec![0u8; n as usize];
        if locked.file.read_exact_at(&mut end, len - n).is_ok() {
            st.tail = Some((locked.tail, end));
        } else {
            st.tail = None;
        }
    }

    /// Write (or rewrite in place) this writer's intent file.
    fn write_intent(&self, st: &mut WriterState, dir: &Path, bytes: &[u8]) -> Result<()> {
        // Still ours at its path? Ask only for the inode: a full stat would make the next
        // fsync of the stream write an inode block too (see `fsutil::size_of`).
        if let Some(intent) = &st.intent
            && fsutil::identity(&intent.path).is_ok()
        {
            intent
                .file
                .write_at(bytes, 0)
                .map_err(LedgerError::io("write", &intent.path))?;
            return Ok(());
        }
        fsutil::ensure_dir(dir).map_err(LedgerError::io("create", dir))?;
        st.intent = None;
        st.intent = Some(new_intent(dir, bytes)?);
        Ok(())
    }

    /// Replace secrets in every field, storing the originals first so nothing is lost.
    pub fn redact_record(&self, record: &mut Record) -> Result<Vec<Found>> {
        let redactor = self.redactor()?;
        let mut found = Vec::new();
        for field in record.text_fields_mut() {
            if let std::borrow::Cow::Owned(s) = redactor.redact(field, &mut found) {
                *field = s;
            }
        }
        if !found.is_empty() {
            found.sort_by(|a, b| a.name.cmp(&b.name));
            found.dedup_by(|a, b| a.name == b.name);
            self.secret_store().store(&found)?;
        }
        Ok(found)
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
        let own = st.intent.as_ref().map(|i| i.path.clone());
        self.replay_orphans(&mut st, &mut locked, own.as_deref())?;
        if let Some(head) = locked.tail.digest
            && locked.tail.len != base.len
        {
            // Best effort: a stream left unanchored is reported by `verify`, not lost.
            let _ = self.advance_anchor(&mut st, base, head, locked.tail.len);
        }
        st.tail = None;
        Ok(locked.recovery)
    }

    pub(crate) fn lock_stream(&self, st: &mut WriterState) -> Result<Locked> {
        let dir = self.stream_dir();
        let lock_path = self.lock_path();
        let lock_file = match &st.lock_file {
            Some(f) => f.clone(),
            None => {
                fsutil::ensure_dir(&dir).map_err(LedgerError::io("create", &dir))?;
                let f = Arc::new(
                    super::lock::open_lock_file(&lock_path)
                        .map_err(LedgerError::io("open", &lock_path))?,
                );
                st.lock_file = Some(f.clone());
                f
            }
        };
        let (lock, contention) = StreamLock::acquire(
            lock_file,
            &lock_path,
            self.opts.alert_after,
            self.alert_fn(),
        )
        .map_err(LedgerError::io("lock", &lock_path))?;
        let mut recovery = Recovery {
            finished_rotation: self.finish_rotation()?,
            ..Recovery::default()
        };
        let path = self.stream_path();
        // Reuse the open stream unless it was rotated (or replaced) since.
        let current = fsutil::identity(&path).ok();
        let (file, stream_id) = match st.stream.take() {
            Some((f, id)) if Some(id) == current && !recovery.finished_rotation => (f, id),
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
                (f, id)
            }
        };
        let tail = match st.tail.take() {
            Some((tail, end)) if self.tail_unchanged(&file, &tail, &end) => tail,
            _ => self.repair_tail(&file, &mut recovery)?,
        };
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

    /// Whether the stream still ends exactly where and how this writer last saw it.
    fn tail_unchanged(&self, file: &File, tail: &Tail, end: &[u8]) -> bool {
        let Ok(size) = fsutil::size_of(file) else {
            return false;
        };
        if size != tail.file_len || end.len() as u64 != tail.len.min(TAIL_KEY) {
            return false;
        }
        let mut now = vec![0u8; end.len()];
        file.read_exact_at(&mut now, tail.len - end.len() as u64)
            .is_ok()
            && now == end
    }

    fn alert_fn(&self) -> Option<super::lock::AlertFn> {
        let sink = self.opts.alert_sink.clone();
        let command = self.opts.alert_command.clone();
        if sink.is_none() && command.is_none() {
            return None;
        }
        Some(std::sync::Arc::new(move |msg: &str| {
            if let Some(cmd) = &command
                && let Err(e) = super::lock::run_alert_command(cmd, msg)
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

    /// Find the last complete record; set aside and cut off anything after it.
    fn repair_tail(&self, file: &File, recovery: &mut Recovery) -> Result<Tail> {
        let path = self.stream_path();
        let len = fsutil::size_of(file).map_err(LedgerError::io("stat", &path))?;
        let scan = scan_tail(file, len).map_err(LedgerError::io("read", &path))?;
        if scan.cut < len {
            let mut torn = vec![0u8; (len - scan.cut) as usize];
            file.read_exact_at(&mut torn, scan.cut)
                .map_err(LedgerError::io("read", &path))?;
            let saved = self.save_to_archive("torn", "bin", strip_reserve(&torn))?;
            file.set_len(scan.cut)
                .map_err(LedgerError::io("truncate", &path))?;
            file.sync_all().map_err(LedgerError::io("sync", &path))?;
            recovery.torn_saved.push(saved);
        }
        let file_len = scan.cut.min(len);
        Ok(Tail {
            ts: scan.ts,
            digest: scan.digest,
            len: scan.end.min(file_len),
            file_len,
        })
    }

    /// Keep bytes under `archive/<kind>-<stamp>.<ext>`, durably, before anything is cut.
    pub(crate) fn save_to_archive(&self, kind: &str, ext: &str, bytes: &[u8]) -> Result<PathBuf> {
        let dir = self.archive_dir();
        fsutil::ensure_dir(&dir).map_err(LedgerError::io("create", &dir))?;
        let stamp = Ts::now().to_string().replace(':', "");
        let mut n = 0;
        loop {
            let name = if n == 0 {
                format!("{kind}-{stamp}.{ext}")
            } else {
                format!("{kind}-{stamp}-{n}.{ext}")
            };
            let p = dir.join(name);
            match OpenOptions::new().write(true).create_new(true).open(&p) {
                Ok(mut f) => {
                    f.write_all(bytes).map_err(LedgerError::io("write", &p))?;
                    f.sync_all().map_err(LedgerError::io("sync", &p))?;
                    fsutil::sync_dir(&dir).map_err(LedgerError::io("sync", &dir))?;
                    return Ok(p);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
                Err(e) => return Err(LedgerError::io("create", &p)(e)),
            }
        }
    }

    /// Stamp and append one record under the lock. Returns (offset, digest, ts).
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
        let room = locked.tail.file_len.saturating_sub(offset);
        // Keep at least the reserve's final newline after the record; extend when it won't fit.
        let (buf, file_len) = if (bytes.len() as u64) < room {
            (bytes, locked.tail.file_len)
        } else {
            let mut b = bytes;
            b.resize(rec_len + RESERVE - 1, b' ');
            b.push(b'\n');
            let end = offset + b.len() as u64;
            (b, end)
        };
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
        locked
            .file
            .sync_data()
            .map_err(LedgerError::io("sync", &path))?;
        locked.tail = Tail {
            ts: Some(record.ts),
            digest: Some(digest),
            len: offset + rec_len as u64,
            file_len,
        };
        Ok((offset, digest, record.ts))
    }

    /// Append the records of dead writers' intent files (skipping `own`).
    fn replay_orphans(
        &self,
        st: &mut WriterState,
        locked: &mut Locked,
        own: Option<&Path>,
    ) -> Result<()> {
        let dir = self.stream_dir();
        // Orphans appear as directory entries: when the directory has not changed since this
        // writer last looked (and that was recently), there is nothing new to find.
        let mtime = fs::metadata(&dir).and_then(|m| m.modified()).ok();
        if let (Some((seen, when)), Some(now)) = (st.scanned, mtime)
            && seen == now
            && when.elapsed().as_secs() < 1
        {
            return Ok(());
        }
        let rd = fs::read_dir(&dir).map_err(LedgerError::io("read", &dir))?;
        let mut orphans = Vec::new();
        for entry in rd {
            let entry = entry.map_err(LedgerError::io("read", &dir))?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let path = entry.path();
            if name.starts_with(INTENT_TMP_PREFIX) {
                // A writer that died before its intent was complete left nothing to replay. A
                // fresh one may belong to a live writer that has not locked it yet, so only
                // old leftovers are swept.
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
            if !name.starts_with(INTENT_PREFIX) {
                continue;
            }
            if own == Some(path.as_path()) {
                continue;
            }
            let Ok(file) = OpenOptions::new().read(true).write(true).open(&path) else {
                continue; // finished and removed meanwhile
            };
            match file.try_lock() {
                Ok(()) => orphans.push((path, file)),
                Err(TryLockError::WouldBlock) => {} // its writer is alive and will append it
                Err(TryLockError::Error(e)) => return Err(LedgerError::io("lock", &path)(e)),
            }
        }
        // Oldest intent first keeps the writers' order.
        let mut parsed = Vec::new();
        for (path, mut file) in orphans {
            // Read through the handle we locked: a writer that finished meanwhile may already
            // have unlinked the path (its content then says done).
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut file, &mut bytes)
                .map_err(LedgerError::io("read", &path))?;
            let record = match pending_record(&bytes) {
                Some(None) => {
                    // Appended already; its writer died before removing the file.
                    remove_if_present(&path)?;
                    continue;
                }
                Some(Some(rec)) => {
                    let frame = Frame::split(0, rec);
                    (frame.seal == Seal::Valid && frame::starts(rec).first() == Some(&0))
                        .then(|| {
                            frame
                                .parse()
                                .ok()
                                .map(|r| (r, frame::identity(frame.bytes)))
                        })
                        .flatten()
                }
                None => None,
            };
            match record {
                Some((r, id)) => parsed.push((r.ts, id, r, path, file)),
                None => {
                    let saved = self.save_to_archive("torn-intent", "bin", &bytes)?;
                    remove_if_present(&path)?;
                    locked.recovery.unreadable_intents.push(saved);
                }
            }
        }
        parsed.sort_by_key(|p| p.0);
        for (since, id, record, path, _file) in parsed {
            if self.contains_identity(&locked.file, locked.tail.len, since, &id)? {
                locked.recovery.already_present += 1;
            } else {
                self.append_stamped(locked, record)?;
                locked.recovery.replayed += 1;
            }
            remove_if_present(&path)?;
        }
        st.scanned = fs::metadata(&dir)
            .and_then(|m| m.modified())
            .ok()
            .map(|t| (t, std::time::Instant::now()));
        Ok(())
    }

    /// Whether a record with this identity was stamped at or after `since`.
    fn contains_identity(&self, file: &File, len: u64, since: Ts, id: &Digest) -> Result<bool> {
        let path = self.stream_path();
        let mut rr = ReverseReader::new(file, len);
        while let Some((off, seg)) = rr.next_segment().map_err(LedgerError::io("read", &path))? {
            let f = Frame::split(off, &seg);
            if frame::identity(f.bytes) == *id {
                return Ok(true);
            }
            match f.parse() {
                Ok(r) if r.ts < since => return Ok(false),
                _ => {}
            }
        }
        Ok(false)
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

fn new_intent(dir: &Path, bytes: &[u8]) -> Result<IntentFile> {
    let seq = INTENT_SEQ.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
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
    // file only gets its visible name once locked and written, so no one can mistake it for an
    // orphan in between (the lock follows the open file through the rename).
    file.lock().map_err(LedgerError::io("lock", &tmp))?;
    file.write_all_at(bytes, 0)
        .map_err(LedgerError::io("write", &tmp))?;
    fs::rename(&tmp, &path).map_err(LedgerError::io("rename", &tmp))?;
    Ok(IntentFile { path, file })
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

/// The torn bytes worth keeping: without the blank reserve around them.
fn strip_reserve(mut b: &[u8]) -> &[u8] {
    let pad = |b: &[u8]| {
        b.len() >= 2 && b[..b.len() - 1].iter().all(|&c| c == b' ') && b.ends_with(b"\n")
    };
    if let Some(nl) = b.iter().position(|&c| c == b'\n')
        && nl > 0
        && pad(&b[..=nl])
    {
        b = &b[nl + 1..];
    }
    let start = b[..b.len().saturating_sub(1)]
        .iter()
        .rposition(|&c| c != b' ')
        .map_or(0, |i| i + 1);
    if b.ends_with(b"\n") && b.len() - start >= 2 && pad(&b[start..]) {
        b = &b[..start];
    }
    b
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

/// Where complete data ends and what the last complete record is.
pub(crate) struct TailScan {
    /// Bytes from here on are torn and must be set aside (the file length when none are).
    pub cut: u64,
    /// The end of the last complete record: where the next one goes.
    pub end: u64,
    pub ts: Option<Ts>,
    pub digest: Option<Digest>,
}

pub(crate) fn scan_tail(file: &File, len: u64) -> std::io::Result<TailScan> {
    let mut rr = ReverseReader::new(file, len);
    let mut cut = len;
    let mut next = rr.next_segment()?;
    while let Some((off, seg)) = next.take() {
        let f = Frame::split(off, &seg);
        match f.seal {
            Seal::Valid | Seal::Mismatch => {
                if !f.trailer_is_blank() {
                    cut = f.end();
                }
                // A tampered record is evidence, not a tear: keep it and chain after it.
                return Ok(TailScan {
                    cut,
                    end: f.end(),
                    ts: record_ts(&f, &mut rr)?,
                    digest: Some(f.chain_digest()),
                });
            }
            Seal::Missing => {
                let before = rr.next_segment()?;
                let prev_sealed = before
                    .as_ref()
                    .is_some_and(|(o, s)| Frame::split(*o, s).seal != Seal::Missing);
                if !f.expects_seal()
                    && !prev_sealed
                    && let Ok(r) = f.parse()
                {
                    // A record in the plain spec format: complete as it stands.
                    return Ok(TailScan {
                        cut,
                        end: cut,
                        ts: Some(r.ts),
                        digest: Some(f.digest),
                    });
                }
                cut = off;
                next = before;
            }
        }
    }
    // No complete record. Leftover bytes that are the beginning of a record start are torn;
    // anything else is left for `verify` to report.
    if let Some(pre) = &rr.preamble {
        let start = b"---\nschema: ledgerpulse/v1\n";
        if cut == pre.len() as u64 && start.starts_with(pre) {
            cut = 0;
        }
    }
    Ok(TailScan {
        cut,
        end: cut,
        ts: None,
        digest: None,
    })
}

fn record_ts(f: &Frame<'_>, rr: &mut ReverseReader<'_>) -> std::io::Result<Option<Ts>> {
    if let Ok(r) = f.parse() {
        return Ok(Some(r.ts));
    }
    // The last record does not parse (tampered); any earlier timestamp keeps order.
    while let Some((off, seg)) = rr.next_segment()? {
        if let Ok(r) = Frame::split(off, &seg).parse() {
            return Ok(Some(r.ts));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torn_bytes_are_kept_without_the_reserve_around_them() {
        let pad = format!("{}\n", " ".repeat(40));
        let torn = b"---\nschema: ledgerpulse/v1\nts: 2026";
        let mut with_pad = torn.to_vec();
        with_pad.extend_from_slice(pad.as_bytes());
        assert_eq!(strip_reserve(&with_pad), torn);
        let mut before = pad.as_bytes().to_vec();
        before.extend_from_slice(torn);
        assert_eq!(strip_reserve(&before), torn);
        // A torn record that ends in a newline of its own keeps it.
        assert_eq!(strip_reserve(b"---\nschema: x\n"), b"---\nschema: x\n");
        assert_eq!(strip_reserve(b""), b"");
    }

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
