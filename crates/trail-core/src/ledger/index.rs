//! The index (LedgerPulse §10): timestamp → byte offset, plus `covered`, the number of stream
//! bytes it describes.
//!
//! It is a cache and never needed for correctness. Appends do not touch it (that keeps the hot
//! path at one write and one fsync); readers that want it trust it up to `covered`, scan the
//! rest, and rewrite it atomically when the unindexed tail has grown. A missing, unreadable or
//! stale index (one whose entries do not point at the records they name) is rebuilt.

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::frame::{Frame, Seal};
use super::reader::{ForwardReader, ReadAt};
use crate::fsutil;

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
    if idx.covered > len {
        return false;
    }
    let Some((ts, &off)) = idx.offsets.iter().max_by_key(|(_, o)| **o) else {
        return idx.covered == 0;
    };
    if off >= idx.covered || off >= len {
        return false;
    }
    let mut head = vec![0u8; 160.min((len - off) as usize)];
    if file.read_exact_at(&mut head, off).is_err() {
        return false;
    }
    let head = String::from_utf8_lossy(&head);
    if !head.starts_with("---") || !head.contains(&format!("ts: {ts}")) {
        return false;
    }
    if idx.covered < len {
        // Either the next record starts there, or the blank reserve does.
        let mut b = [0u8; 4];
        let n = (len - idx.covered).min(4) as usize;
        if file.read_exact_at(&mut b[..n], idx.covered).is_err()
            || !(b[..n] == b"---\n"[..n] || b[..n].iter().all(u8::is_ascii_whitespace))
        {
            return false;
        }
    }
    true
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
pub fn rebuild(segment: &Path, idx_path: &Path) -> io::Result<Index> {
    let file = File::open(segment)?;
    let len = crate::fsutil::size_of(&file)?;
    let mut idx = Index {
        schema: SCHEMA.into(),
        ..Index::default()
    };
    extend(&mut idx, &file, len)?;
    write(idx_path, &idx)?;
    Ok(idx)
}

/// The index of `segment`, brought up to date: loaded when plausible, extended over the
/// unindexed tail, rebuilt when stale, and rewritten when the tail it had to scan was large.
pub fn refresh(segment: &Path, idx_path: &Path) -> io::Result<Index> {
    Ok(refresh_counting(segment, idx_path)?.0)
}

/// [`refresh`], plus the number of records the index leaves out (an unsealed last record).
pub fn refresh_counting(segment: &Path, idx_path: &Path) -> io::Result<(Index, usize)> {
    let file = File::open(segment)?;
    let len = crate::fsutil::size_of(&file)?;
    let mut idx = match load(idx_path) {
        Some(i) if plausible(&i, &file, len) => i,
        _ => Index {
            schema: SCHEMA.into(),
            ..Index::default()
        },
    };
    let before = idx.covered;
    let uncovered = extend(&mut idx, &file, len)?;
    if idx.covered - before > REWRITE_AFTER || (before == 0 && idx.covered > 0) {
        // A failed cache write is not an error for the reader.
        let _ = write(idx_path, &idx);
    }
    Ok((idx, uncovered))
}

fn write(path: &Path, idx: &Index) -> io::Result<()> {
    let bytes = serde_json::to_vec(idx).map_err(io::Error::other)?;
    fsutil::atomic_write(path, &bytes)
}
