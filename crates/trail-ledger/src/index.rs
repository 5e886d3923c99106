//! The index (LedgerPulse §10): timestamp → byte offset, plus `covered`, the number of stream
//! bytes it describes.
//!
//! It is a cache and never needed for correctness. Appends do not touch it (that keeps the hot
//! path at one write and one fsync); readers keep it current: they trust it up to `covered`,
//! scan the rest, and rewrite it atomically when the unindexed tail has grown. A missing,
//! unreadable or stale index (one whose entries do not point at the records they name) is
//! rebuilt.
//!
//! `trail log --since` asks it where the records at or after a time begin ([`seek`]). An answer
//! is checked against the stream before it is used — the offset must open a record, as a scan
//! would find it, and that record must carry the time the index names — so an index that is
//! corrupt, cut short, left from another stream or pointing into a record costs a rebuild, never
//! a wrong answer. The lookup reads the file in place, a binary search by positioned reads: the
//! index of a 100 MB stream is 5 MB of JSON, and parsing it whole would cost several times what
//! the whole query may.

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::ops::Range;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::frame::{self, Frame, Seal};
use super::handle::index_path_for;
use super::reader::{ForwardReader, ReadAt};
use crate::fsutil::{self, to_usize};
use crate::time::Ts;
use trail_base::file_error::{At, FileError};

pub const SCHEMA: &str = "ledgerpulse-index/v1";

/// Rewrite the index when more than this many stream bytes are not covered by it.
const REWRITE_AFTER: u64 = 256 * 1024;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Index {
    pub schema: String,
    pub offsets: BTreeMap<String, u64>,
    #[serde(default)]
    pub covered: u64,
}

impl Index {
    pub fn len(&self) -> usize {
        self.offsets.len()
    }
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }
}

/// Read an index file; `None` when missing or unreadable.
pub fn load(path: &Path) -> Option<Index> {
    parse(&std::fs::read(path).ok()?)
}

/// Read an index from its JSON bytes; `None` for anything that is not a valid index.
pub fn parse(bytes: &[u8]) -> Option<Index> {
    let idx: Index = serde_json::from_slice(bytes).ok()?;
    (idx.schema == SCHEMA).then_some(idx)
}

/// Whether `idx` plausibly describes `file`: it covers no more than the file holds, `covered`
/// falls on a record boundary, and its last entry points at a record with that timestamp.
pub fn plausible<R: ReadAt + ?Sized>(idx: &Index, file: &R, len: u64) -> bool {
    let last = idx.offsets.iter().max_by_key(|(_, o)| **o);
    match last {
        None => plausible_with(None, idx.covered, file, len),
        Some((ts, &off)) => match Ts::parse_strict(ts) {
            Ok(ts) => plausible_with(Some((ts, off)), idx.covered, file, len),
            Err(_) => false,
        },
    }
}

/// [`plausible`], given the index's last entry and `covered`.
fn plausible_with<R: ReadAt + ?Sized>(
    last: Option<(Ts, u64)>,
    covered: u64,
    file: &R,
    len: u64,
) -> bool {
    if covered > len {
        return false;
    }
    let Some((ts, off)) = last else {
        return covered == 0;
    };
    if off >= covered || record_ts_at(file, off, len) != Some(ts) {
        return false;
    }
    if covered < len {
        // Either the next record starts there, or the blank reserve does.
        let mut b = [0u8; 4];
        let n = (len - covered).min(4) as usize;
        if file.read_exact_at(&mut b[..n], covered).is_err()
            || !(b[..n] == b"---\n"[..n] || b[..n].iter().all(u8::is_ascii_whitespace))
        {
            return false;
        }
    }
    true
}

/// How far past an offset to look for a record's front matter.
const FRONT_WINDOW: u64 = 64 * 1024;

/// The timestamp of the record that starts at `off`, if one does: `off` begins a line that
/// opens a record (where a scan of the stream would find one) and the record's front matter
/// parses. Compares the time itself, not its spelling: a stream from another writer may write
/// `.483Z` where the index says `.483000Z`.
pub fn record_ts_at<R: ReadAt + ?Sized>(file: &R, off: u64, len: u64) -> Option<Ts> {
    if off >= len {
        return None;
    }
    if off > 0 {
        let mut before = [0u8];
        file.read_exact_at(&mut before, off - 1).ok()?;
        if before[0] != b'\n' {
            return None;
        }
    }
    let mut buf = vec![0u8; to_usize(FRONT_WINDOW.min(len - off))];
    file.read_exact_at(&mut buf, off).ok()?;
    let starts = frame::starts(&buf);
    if starts.first() != Some(&0) {
        return None;
    }
    let end = starts.get(1).copied().unwrap_or(buf.len());
    Frame::split_unhashed(off, &buf[..end])
        .parse_front()
        .ok()
        .map(|r| r.ts)
}

/// Extend `idx` (already trusted up to `covered`) to the end of the file.
/// Returns how many records lie past `covered` (an unsealed last record).
pub(crate) fn extend<R: ReadAt + ?Sized>(idx: &mut Index, file: &R, len: u64) -> io::Result<usize> {
    let mut fr = ForwardReader::new(file, idx.covered, len);
    let mut next = fr.next_segment()?;
    while let Some((off, seg)) = next.take() {
        next = fr.next_segment()?;
        let f = Frame::split_unhashed(off, &seg);
        if f.seal == Seal::Missing && next.is_none() {
            // The last record without a seal may still be being written (or be torn): leave it
            // for the next reader rather than cover bytes that will change.
            return Ok(usize::from(f.parse().is_ok()));
        }
        if let Ok(r) = f.parse() {
            idx.offsets.insert(r.ts.to_string(), off);
        }
        // Up to the record's end, not the blank reserve after it: the next record goes there.
        idx.covered = if f.trailer_is_blank() {
            f.end()
        } else {
            off + seg.len() as u64
        };
    }
    Ok(0)
}

/// Build the index of `segment` from scratch and write it to `idx_path`.
pub fn rebuild(segment: &Path, idx_path: &Path) -> Result<Index, FileError> {
    let file = File::open(segment).at("open", segment)?;
    let len = fsutil::size_of(&file).at("read the size of", segment)?;
    let mut idx = Index {
        schema: SCHEMA.into(),
        ..Index::default()
    };
    extend(&mut idx, &file, len).at("index", segment)?;
    write(idx_path, &idx).at("write the index", idx_path)?;
    Ok(idx)
}

/// The index of `segment`, brought up to date: loaded when plausible, extended over the
/// unindexed tail, rebuilt when stale, and rewritten when the tail it had to scan was large.
pub fn refresh(segment: &Path, idx_path: &Path) -> Result<Index, FileError> {
    Ok(refresh_counting(segment, idx_path)?.0)
}

/// [`refresh`], plus the number of records the index leaves out (an unsealed last record).
pub fn refresh_counting(segment: &Path, idx_path: &Path) -> Result<(Index, usize), FileError> {
    let file = File::open(segment).at("open", segment)?;
    let len = fsutil::size_of(&file).at("read the size of", segment)?;
    update(&file, len, idx_path, Update::default()).at("index", segment)
}

/// How [`update`] treats the index it finds.
#[derive(Clone, Copy, Default)]
struct Update {
    /// Rebuild even a plausible index: one of its entries was caught lying.
    distrust: bool,
    /// Write the result back whatever changed (it was not in the shape a lookup reads in place).
    rewrite: bool,
}

/// Bring the index of the stream open as `file` up to date (see [`refresh`]).
fn update(file: &File, len: u64, idx_path: &Path, how: Update) -> io::Result<(Index, usize)> {
    let mut idx = match load(idx_path) {
        Some(i) if !how.distrust && plausible(&i, file, len) => i,
        _ => Index {
            schema: SCHEMA.into(),
            ..Index::default()
        },
    };
    let before = idx.covered;
    let uncovered = extend(&mut idx, file, len)?;
    if how.rewrite || idx.covered - before > REWRITE_AFTER || (before == 0 && idx.covered > 0) {
        // A failed cache write is not an error for the reader.
        let _ = write(idx_path, &idx);
    }
    Ok((idx, uncovered))
}

/// Where the records of `segment` (open as `file`, `len` bytes) at or after `since` begin, at
/// the latest: the offset of the newest indexed record older than `since`, checked against the
/// stream (see the module docs). `None` when no record is older, or when none could be vouched
/// for: then the whole segment may hold such records. Keeps the index current on the way.
pub fn seek(segment: &Path, file: &File, len: u64, since: Ts) -> Result<Option<u64>, FileError> {
    let idx_path = index_path_for(segment);
    let mut how = Update {
        rewrite: true,
        ..Update::default()
    };
    // Missing, cut short or in another shape: loaded whole below, if it can be.
    if let Some(disk) = InPlace::open(&idx_path) {
        if !plausible_with(disk.last(), disk.covered, file, len) {
            // In the shape trail writes, but not describing this stream.
            how.distrust = true;
        } else if len - disk.covered <= REWRITE_AFTER {
            match disk.last_before(since) {
                Some(None) => return Ok(None),
                Some(Some((ts, off))) if record_ts_at(file, off, len) == Some(ts) => {
                    return Ok(Some(off));
                }
                // An entry that does not parse, or names a record that is not there.
                _ => how.distrust = true,
            }
        }
        // Else current but for a long tail: extended below.
    }
    let (idx, _) = update(file, len, &idx_path, how).at("index", segment)?;
    Ok(idx
        .offsets
        .range(..since.to_string())
        .next_back()
        .and_then(|(ts, &off)| {
            let ts = Ts::parse_strict(ts).ok()?;
            (ts < since && record_ts_at(file, off, len) == Some(ts)).then_some(off)
        }))
}

/// The opening of an index file as [`write`] puts it down, up to its first entry.
const HEAD: &[u8] = br#"{"schema":"ledgerpulse-index/v1","offsets":{"#;
/// What closes the entries and opens `covered`'s value.
const COVERED: &[u8] = br#"},"covered":"#;
/// The longest entry: a quoted 27-byte timestamp, a colon, 20 digits and a comma.
const ENTRY_MAX: usize = 29 + 1 + 20 + 1;

/// An index file in the shape [`write`] gives it, read in place: entries `"<ts>":<offset>`
/// sorted by time, separated by commas (which neither a timestamp nor an offset contains), so
/// any byte position can be resynchronised to the next entry and searched by bisection.
struct InPlace {
    file: File,
    /// Byte range of the entries: after [`HEAD`], up to the `}` that closes them.
    entries: Range<u64>,
    covered: u64,
}

impl InPlace {
    /// `None` when the file is missing or not in [`write`]'s shape (it may still be an index:
    /// [`load`] reads any).
    fn open(path: &Path) -> Option<InPlace> {
        let file = File::open(path).ok()?;
        let size = fsutil::size_of(&file).ok()?;
        let mut head = [0u8; HEAD.len()];
        ReadAt::read_exact_at(&file, &mut head, 0).ok()?;
        if head != HEAD {
            return None;
        }
        let n = size.min(64);
        let mut tail = vec![0u8; n as usize];
        ReadAt::read_exact_at(&file, &mut tail, size - n).ok()?;
        let tail = tail.strip_suffix(b"}")?;
        let at = memchr::memmem::rfind(tail, COVERED)?;
        let digits = &tail[at + COVERED.len()..];
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let covered = std::str::from_utf8(digits).ok()?.parse().ok()?;
        let end = size - n + at as u64;
        (end >= HEAD.len() as u64).then_some(InPlace {
            file,
            entries: HEAD.len() as u64..end,
            covered,
        })
    }

    /// The entry starting at `p`: its time and offset, and where the next entry starts (the end
    /// of the entries after the last). `None` when the bytes there are not an entry.
    fn entry_at(&self, p: u64) -> Option<(Ts, u64, u64)> {
        let n = to_usize(
            (self.entries.end + 1)
                .saturating_sub(p)
                .min(ENTRY_MAX as u64),
        );
        let mut buf = [0u8; ENTRY_MAX];
        ReadAt::read_exact_at(&self.file, &mut buf[..n], p).ok()?;
        let key = buf[..n].strip_prefix(b"\"")?;
        let close = memchr::memchr(b'"', key)?;
        let ts = Ts::parse_strict(std::str::from_utf8(&key[..close]).ok()?).ok()?;
        let value = key[close + 1..].strip_prefix(b":")?;
        let digits = value.iter().take_while(|b| b.is_ascii_digit()).count();
        let off = std::str::from_utf8(&value[..digits]).ok()?.parse().ok()?;
        let sep = p + (1 + close + 2 + digits) as u64;
        match value.get(digits)? {
            b',' if sep + 1 < self.entries.end => Some((ts, off, sep + 1)),
            b'}' if sep == self.entries.end => Some((ts, off, sep)),
            _ => None,
        }
    }

    /// Where the first entry at or after byte `m` starts, if one does.
    fn entry_from(&self, m: u64) -> Option<u64> {
        if m <= self.entries.start {
            return (self.entries.start < self.entries.end).then_some(self.entries.start);
        }
        let from = m - 1;
        let n = to_usize((self.entries.end - from).min(ENTRY_MAX as u64));
        let mut buf = [0u8; ENTRY_MAX];
        ReadAt::read_exact_at(&self.file, &mut buf[..n], from).ok()?;
        let comma = memchr::memchr(b',', &buf[..n])?;
        Some(from + comma as u64 + 1)
    }

    /// The last entry, for [`plausible_with`].
    fn last(&self) -> Option<(Ts, u64)> {
        if self.entries.is_empty() {
            return None;
        }
        let from = self
            .entries
            .end
            .saturating_sub(ENTRY_MAX as u64)
            .max(self.entries.start);
        let mut buf = [0u8; ENTRY_MAX];
        let buf = &mut buf[..to_usize(self.entries.end - from)];
        ReadAt::read_exact_at(&self.file, buf, from).ok()?;
        let p = match memchr::memrchr(b',', buf) {
            Some(comma) => from + comma as u64 + 1,
            None if from == self.entries.start => from,
            None => return None,
        };
        self.entry_at(p).map(|(ts, off, _)| (ts, off))
    }

    /// The newest entry older than `since`: `Some(None)` when there is none, `None` when an
    /// entry on the way does not parse. By bisection over bytes: `lo` is always the start of an
    /// entry, every entry before it is older than `since`, and none from `hi` on is. (In an index
    /// whose entries are not in order this finds some older entry, checked like any other.)
    fn last_before(&self, since: Ts) -> Option<Option<(Ts, u64)>> {
        let (mut lo, mut hi) = (self.entries.start, self.entries.end);
        let mut best = None;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.entry_from(mid).filter(|&p| p < hi) {
                // No entry starts in [mid, hi): look before mid.
                None => hi = mid,
                Some(p) => {
                    let (ts, off, next) = self.entry_at(p)?;
                    if ts < since {
                        best = Some((ts, off));
                        lo = next;
                    } else {
                        hi = p;
                    }
                }
            }
        }
        Some(best)
    }
}

fn write(path: &Path, idx: &Index) -> io::Result<()> {
    let bytes = serde_json::to_vec(idx).map_err(io::Error::other)?;
    Ok(fsutil::atomic_write(path, &bytes)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Record, RecordType};

    /// A sealed stream of `n` records a second apart; returns (bytes, offsets, times).
    fn stream(n: usize) -> (Vec<u8>, Vec<u64>, Vec<Ts>) {
        let (mut bytes, mut offs, mut times) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..n {
            let ts = Ts::from_micros(1_700_000_000_000_000 + i64::try_from(i).unwrap() * 1_000_000);
            offs.push(bytes.len() as u64);
            times.push(ts);
            bytes.extend_from_slice(&frame::encode(&Record::new(RecordType::Pulse, ts)).0);
        }
        (bytes, offs, times)
    }

    fn written(bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf, File) {
        let dir = tempfile::tempdir().unwrap();
        let seg = dir.path().join("pulses.log.md");
        std::fs::write(&seg, bytes).unwrap();
        let file = File::open(&seg).unwrap();
        (dir, seg, file)
    }

    #[test]
    fn seek_finds_the_newest_record_before_the_time_by_reading_the_index_in_place() {
        let (bytes, offs, times) = stream(300);
        let (_dir, seg, file) = written(&bytes);
        let len = bytes.len() as u64;
        rebuild(&seg, &index_path_for(&seg)).unwrap();
        let disk = InPlace::open(&index_path_for(&seg)).expect("in the shape `write` gives");
        assert_eq!(disk.last(), Some((times[299], offs[299])));
        for i in 0..300usize {
            let want = i.checked_sub(1).map(|p| offs[p]);
            assert_eq!(
                seek(&seg, &file, len, times[i]).unwrap(),
                want,
                "record {i}"
            );
            let between = Ts::from_micros(times[i].as_micros() + 1);
            assert_eq!(seek(&seg, &file, len, between).unwrap(), Some(offs[i]));
        }
    }

    #[test]
    fn a_lying_entry_is_never_used_and_the_index_is_rebuilt() {
        let (bytes, offs, times) = stream(50);
        let (_dir, seg, file) = written(&bytes);
        let len = bytes.len() as u64;
        let path = index_path_for(&seg);
        let mut idx = rebuild(&seg, &path).unwrap();
        // Record 20's entry names record 10: plausible (the last entry is true), but a lie.
        idx.offsets.insert(times[20].to_string(), offs[10]);
        write(&path, &idx).unwrap();
        assert_eq!(seek(&seg, &file, len, times[21]).unwrap(), Some(offs[20]));
        assert_eq!(
            load(&path).unwrap().offsets[&times[20].to_string()],
            offs[20]
        );
    }

    #[test]
    fn an_index_of_a_plain_stream_is_plausible() {
        // Another writer's timestamps have milliseconds; the index spells them with micros.
        let plain = "---\nschema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\n---\n\n\
                     ---\nschema: ledgerpulse/v1\nts: \"2025-12-22T21:20:00.000Z\"\ntype: pulse\n---\n\n\
                     ---\nschema: ledgerpulse/v1\nts: 2025-12-22T21:22:00.000Z\ntype: pulse\n---\n";
        let (_dir, seg, file) = written(plain.as_bytes());
        let idx = rebuild(&seg, &index_path_for(&seg)).unwrap();
        // The last record has no seal: it may still be being written, so it is left out.
        assert_eq!(idx.len(), 2);
        assert!(plausible(&idx, &file, plain.len() as u64));
    }
}
