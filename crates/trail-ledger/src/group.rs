//! Group commit (step 7 of [`super::append`]): one fsync makes durable every record written
//! before it began, so writers in separate processes share fsyncs instead of each holding the
//! stream lock through one of their own.
//!
//! An fsync of the stream flushes every byte any process has written to it, not only the
//! caller's. So the stream lock covers only the write (step 6), and the fsync happens after it
//! is released, under a second lock, the *sync lock* (`pulses.sync`), as a database's write-ahead
//! log separates inserting from flushing (PostgreSQL's `XLogFlush` is the model). While one
//! writer, the *leader*, holds the sync lock and waits for the disk, the others append their
//! records and queue on the sync lock; the next leader's one fsync then covers all of them, and
//! the writers behind it find their record covered and return without an fsync of their own.
//!
//! `pulses.sync` holds, after the lock's holder note, two points of the stream, each a line with
//! a checksum: the *written* point (the end of the last record written, updated under the stream
//! lock) and the *durable* point (the end of the last fsync that completed, updated under the
//! sync lock). A point names the stream file (device, inode), a *run* and an offset.
//!
//! A writer, once its record is written and the stream lock released:
//!
//! 1. takes the sync lock;
//! 2. if the durable point is in its stream and run and at or past its record's end, its record
//!    is durable: it returns;
//! 3. else it is the leader: it reads the written point (everything up to it was written before
//!    this read, so before the fsync that follows), fsyncs, and publishes that point as durable;
//! 4. takes the stream lock (sync, then stream: no one waits for the sync lock while holding the
//!    stream lock, so the two cannot deadlock), names the point in the anchor, and releases both.
//!
//! Only then is the record acknowledged: after an fsync that began after it was written has
//! completed, the writer's own or a leader's whose durable point covers it.
//!
//! A *run* is a stretch of the stream known to grow only by appends. A writer that takes the
//! stream lock and finds the tail the written point names continues its run; any other tail (a
//! rotation, a stream replaced or cut by hand, a power loss that kept an older register, a
//! writer that died before publishing) starts a new run with a fresh random number. A durable
//! point only ever covers records of its own run, so an offset that came to mean other bytes can
//! never make an unsynced record look durable. A tail repaired after a crash keeps its run: the
//! torn bytes were past the written point, and so past every durable point.
//!
//! Crashes:
//! - A leader that dies before publishing (before or during its fsync) leaves the durable point
//!   where it was; the next writer in the queue finds its record not covered and leads.
//! - A writer that dies while queued was never acknowledged; its record is in the stream (the
//!   page cache outlives processes) and the next leader's fsync covers it.
//! - A failed fsync may leave pages the kernel no longer retries, which a later fsync would not
//!   report again: the leader starts a new run before returning the error, so no durable point
//!   published after it can cover those records. The writers queued behind it sync for
//!   themselves and get the error too.
//! - After a power loss, records past the last completed fsync may be partly on disk. None of
//!   them was acknowledged; the next writer's tail repair sets torn bytes aside as before.
//!
//! `pulses.sync` is not fsynced and carries no MAC: it is a cache of what the fsyncs did, as
//! the lock file is. Whoever can write it can also delete the stream.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest as _, Sha256};

use super::anchor::{Base, Skipped};
use super::error::{LedgerError, Result};
use super::frame::{self, Digest, parse_digest};
use super::handle::{Ledger, WriterState};
use super::lock::{self, StreamLock};
use super::writer::Locked;
use crate::failpoint;
use crate::fsutil;

/// The file in `stream/` holding the sync lock and the two points.
pub const FILE_NAME: &str = "pulses.sync";

/// The two points start after the holder note the lock writes (see [`lock::NOTE_LEN`]).
const WRITTEN: u64 = lock::NOTE_LEN as u64;
const DURABLE: u64 = WRITTEN + SLOT as u64;
const SLOT: usize = 256;
const MAGIC: &str = "trail-sync v1";

/// A point of the stream: everything up to `end` of run `run` of the stream file `stream`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Point {
    /// (device, inode) of the stream file.
    pub stream: (u64, u64),
    pub run: u64,
    pub end: u64,
    /// The seal of the record ending at `end` (zero when there is none).
    pub head: Digest,
}

impl Point {
    /// Whether everything up to `other` lies within this point (same stream, same run).
    fn covers(&self, other: &Point) -> bool {
        self.stream == other.stream && self.run == other.run && self.end >= other.end
    }
}

/// What a writer hands from step 6 to step 7: the point its records end at, and the tail it
/// found when it took the stream lock (what the anchor should already name).
pub(crate) struct Written {
    pub point: Point,
    pub base: Base,
}

/// How a record became durable.
pub(crate) struct Durable {
    /// This writer ran the fsync (false: a concurrent leader's covered it).
    pub fsynced: bool,
    pub unanchored: Option<Skipped>,
}

impl Ledger {
    /// End of step 6, under the stream lock: publish the tail as the written point, continuing
    /// the run when the tail found on taking the lock (`base`) is the one the point named.
    pub(crate) fn publish_written(
        &self,
        st: &mut WriterState,
        locked: &Locked,
        base: Base,
    ) -> Result<Written> {
        let file = self.sync_file(st)?;
        let found_head = base.digest.unwrap_or([0; 32]);
        let run = match read_point(&file, WRITTEN, "written") {
            Some(p)
                if p.stream == locked.stream_id && p.end == base.len && p.head == found_head =>
            {
                p.run
            }
            _ => fresh_run(),
        };
        let point = Point {
            stream: locked.stream_id,
            run,
            end: locked.tail.len,
            head: locked.tail.digest.unwrap_or([0; 32]),
        };
        // Traced before it is published: a leader that reads the point must find the trace
        // line of the write before its own.
        wrote(point.stream, point.end);
        let path = self.sync_path();
        file.write_all_at(&render("written", &point), WRITTEN)
            .map_err(LedgerError::io("write", &path))?;
        Ok(Written { point, base })
    }

    /// Step 7 (the module docs): return once an fsync that covers `own` has completed, running
    /// it when no one else's does, and anchor what it made durable.
    pub(crate) fn make_durable(&self, st: &mut WriterState, own: Written) -> Result<Durable> {
        let file = self.sync_file(st)?;
        let path = self.sync_path();
        let (_sync, _) = StreamLock::acquire(
            file.clone(),
            &path,
            "the pulse stream's sync lock",
            self.opts.alert_after,
            self.alert_fn(),
        )
        .map_err(LedgerError::io("lock", &path))?;
        if let Some(d) = read_point(&file, DURABLE, "durable")
            && d.covers(&own.point)
        {
            ack(own.point.stream, own.point.end, false);
            return Ok(Durable {
                fsynced: false,
                unanchored: None,
            });
        }
        failpoint::pause("group-leader");
        // Everything before the written point was written before this read, so before the fsync.
        let target = read_point(&file, WRITTEN, "written")
            .filter(|w| w.covers(&own.point))
            .unwrap_or(own.point);
        failpoint::pause("group-before-fsync");
        let stream_path = self.stream_path();
        let stream = match &st.stream {
            Some((f, id)) if *id == own.point.stream => f,
            _ => {
                return Err(LedgerError::io("sync", &stream_path)(io::Error::other(
                    "the stream this writer appended to is no longer open",
                )));
            }
        };
        if let Err(e) = fsync(stream, own.point.stream) {
            // Best effort: the error is what the caller must see.
            let _ = self.start_new_run(st, &file);
            return Err(LedgerError::io("sync", &stream_path)(e));
        }
        failpoint::hit("append-after-fsync");
        failpoint::pause("group-after-fsync");
        file.write_all_at(&render("durable", &target), DURABLE)
            .map_err(LedgerError::io("write", &path))?;
        let unanchored = self.anchor_durable(st, &own, &target).err();
        ack(own.point.stream, own.point.end, true);
        Ok(Durable {
            fsynced: true,
            unanchored,
        })
    }

    /// Step 4 of the module docs: name `target` (durable) in the anchor, under the stream lock.
    fn anchor_durable(
        &self,
        st: &mut WriterState,
        own: &Written,
        target: &Point,
    ) -> Result<(), Skipped> {
        if !self.opts.anchor {
            return Ok(());
        }
        let (_lock, _) = self
            .take_lock(st)
            .map_err(|e| Skipped::Unavailable(e.to_string()))?;
        // A rotation since has moved this stream into the archive and anchored its successor,
        // which commits to it.
        if fsutil::identity(&self.stream_path()).ok() != Some(target.stream) {
            return Ok(());
        }
        if target.end == own.point.end {
            // Alone in the group: from the tail this writer found, as a single writer does.
            return self.advance_anchor(st, own.base, own.point.head, own.point.end);
        }
        let at = Base {
            digest: Some(target.head),
            len: target.end,
        };
        self.advance_anchor(st, at, target.head, target.end)
    }

    /// After a failed fsync: publish the written point again under a new run, so no durable
    /// point can cover the records the failure may have lost (see the module docs).
    fn start_new_run(&self, st: &mut WriterState, file: &File) -> Result<()> {
        let (_lock, _) = self.take_lock(st)?;
        if let Some(mut p) = read_point(file, WRITTEN, "written") {
            p.run = fresh_run();
            let path = self.sync_path();
            file.write_all_at(&render("written", &p), WRITTEN)
                .map_err(LedgerError::io("write", &path))?;
        }
        Ok(())
    }

    /// `pulses.sync`, opened once per writer.
    fn sync_file(&self, st: &mut WriterState) -> Result<Arc<File>> {
        if let Some(f) = &st.sync_file {
            return Ok(f.clone());
        }
        let path = self.sync_path();
        let f = Arc::new(lock::open_lock_file(&path).map_err(LedgerError::io("open", &path))?);
        st.sync_file = Some(f.clone());
        Ok(f)
    }
}

/// fsync the stream `file` ((device, inode) `id`). Every fsync of the stream goes through
/// here, so the trace tests read (`TRAIL_TRACE`, debug builds) shows when each began and ended.
pub(crate) fn fsync(file: &File, id: (u64, u64)) -> io::Result<()> {
    let pid = std::process::id();
    failpoint::trace(|| format!("fsync-begin {pid} {}:{}", id.0, id.1));
    file.sync_data()?;
    failpoint::trace(|| format!("fsync-end {pid} {}:{}", id.0, id.1));
    Ok(())
}

/// Trace (see [`fsync`]) that this writer's records up to `end` of `stream` are written.
pub(crate) fn wrote(stream: (u64, u64), end: u64) {
    let pid = std::process::id();
    failpoint::trace(|| format!("wrote {pid} {}:{} {end}", stream.0, stream.1));
}

/// Trace (see [`fsync`]) that the writer whose records end at `end` of `stream` is
/// acknowledged, after its own fsync or a leader's.
pub(crate) fn ack(stream: (u64, u64), end: u64, fsynced: bool) {
    let pid = std::process::id();
    let how = if fsynced { "own" } else { "covered" };
    failpoint::trace(|| format!("ack {pid} {}:{} {end} {how}", stream.0, stream.1));
}

/// A new run's number: unique, not secret.
fn fresh_run() -> u64 {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut h = Sha256::new();
    h.update(nanos.to_le_bytes());
    h.update(std::process::id().to_le_bytes());
    h.update(SEQ.fetch_add(1, Ordering::Relaxed).to_le_bytes());
    let d = h.finalize();
    u64::from_le_bytes(d[..8].try_into().unwrap_or([0; 8]))
}

/// FNV-1a: enough to tell a line torn by a concurrent write from a whole one.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn render(kind: &str, p: &Point) -> Vec<u8> {
    let body = format!(
        "{MAGIC} {kind} stream={}:{} run={:016x} end={} head={}",
        p.stream.0,
        p.stream.1,
        p.run,
        p.end,
        frame::hex(&p.head)
    );
    let mut line = format!("{body} sum={:016x}", checksum(body.as_bytes())).into_bytes();
    line.resize(SLOT - 1, b' ');
    line.push(b'\n');
    line
}

fn parse(kind: &str, bytes: &[u8]) -> Option<Point> {
    let text = std::str::from_utf8(bytes).ok()?.trim_end();
    let (body, sum) = text.rsplit_once(" sum=")?;
    if u64::from_str_radix(sum, 16).ok()? != checksum(body.as_bytes()) {
        return None;
    }
    let rest = body.strip_prefix(MAGIC)?.strip_prefix(' ')?;
    let rest = rest.strip_prefix(kind)?;
    let (mut stream, mut run, mut end, mut head) = (None, None, None, None);
    for field in rest.split_whitespace() {
        match field.split_once('=')? {
            ("stream", v) => {
                let (d, i) = v.split_once(':')?;
                stream = Some((d.parse().ok()?, i.parse().ok()?));
            }
            ("run", v) => run = u64::from_str_radix(v, 16).ok(),
            ("end", v) => end = v.parse().ok(),
            ("head", v) => head = parse_digest(v),
            _ => return None,
        }
    }
    Some(Point {
        stream: stream?,
        run: run?,
        end: end?,
        head: head?,
    })
}

/// The point in the slot at `at`. The written point is read without the stream lock, so a read
/// can meet a write halfway: its checksum fails and it is read again.
fn read_point(file: &File, at: u64, kind: &str) -> Option<Point> {
    let mut buf = [0u8; SLOT];
    for _ in 0..8 {
        match file.read_at(&mut buf, at) {
            Ok(n) if n == SLOT => {}
            _ => return None,
        }
        if buf.iter().all(|&b| b == 0) {
            return None;
        }
        if let Some(p) = parse(kind, &buf) {
            return Some(p);
        }
        std::hint::spin_loop();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point() -> Point {
        Point {
            stream: (2049, 131_074),
            run: 0x0123_4567_89ab_cdef,
            end: 1_048_576,
            head: [0xab; 32],
        }
    }

    #[test]
    fn a_point_round_trips_and_a_torn_or_changed_line_does_not_parse() {
        let p = point();
        let line = render("written", &p);
        assert_eq!(line.len(), SLOT);
        assert_eq!(parse("written", &line), Some(p));
        // The kind is part of the line: a durable point never reads as a written one.
        assert_eq!(parse("durable", &line), None);
        // Half of a newer line over an older one (a read meeting a write halfway).
        let newer = render(
            "written",
            &Point {
                end: 1_049_600,
                head: [0xcd; 32],
                ..p
            },
        );
        let mut torn = line.clone();
        torn[..100].copy_from_slice(&newer[..100]);
        assert_eq!(parse("written", &torn), None);
        let text = String::from_utf8(line).unwrap();
        let changed = text.replacen("end=1048576", "end=9048576", 1);
        assert_eq!(parse("written", changed.as_bytes()), None);
        assert_eq!(parse("written", b""), None);
        assert_eq!(parse("written", &[0u8; SLOT]), None);
    }

    #[test]
    fn a_durable_point_covers_only_its_own_stream_and_run_up_to_its_end() {
        let d = point();
        assert!(d.covers(&Point { end: 10, ..d }));
        assert!(d.covers(&d));
        assert!(!d.covers(&Point {
            end: d.end + 1,
            ..d
        }));
        assert!(!d.covers(&Point {
            run: 7,
            end: 10,
            ..d
        }));
        assert!(!d.covers(&Point {
            stream: (2049, 9),
            end: 10,
            ..d
        }));
        assert_ne!(fresh_run(), fresh_run());
    }
}
