//! The stream's tail: where the last complete record ends, the blank reserve after it, and the
//! repair of a tail torn by a crash.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::archive;
use super::error::{LedgerError, Result};
use super::frame::{Digest, Frame, Seal};
use super::reader::{ReadAt, ReverseReader};
use crate::fsutil;
use crate::time::Ts;

/// Blank space kept after the last record, one line of spaces ending in a newline.
///
/// An fsync after an append that grows a file must also write the file's inode (its size
/// changed): two dependent disk writes per record. Writing the record over blank space the file
/// already holds needs only the data write, which is how a database's preallocated write-ahead
/// log stays fast. Readers see the reserve as trailing whitespace after the last seal, which the
/// format already allows; people see one blank-looking line at the end of the file.
pub const RESERVE: usize = 32 * 1024;

/// How many final bytes of the stream identify a cached tail (a seal line is 82).
const TAIL_KEY: u64 = 96;

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

impl Tail {
    /// Find the last complete record of `file` (the stream at `path`); set aside anything after
    /// it under `archive_dir`, then cut it off. Returns the tail and where torn bytes were kept.
    pub(crate) fn repair(
        file: &File,
        path: &Path,
        archive_dir: &Path,
    ) -> Result<(Tail, Option<PathBuf>)> {
        let len = fsutil::size_of(file).map_err(LedgerError::io("stat", path))?;
        let scan = scan_tail(file, len).map_err(LedgerError::io("read", path))?;
        let mut saved = None;
        if scan.cut < len {
            let mut torn = vec![0u8; crate::fsutil::to_usize(len - scan.cut)];
            file.read_exact_at(&mut torn, scan.cut)
                .map_err(LedgerError::io("read", path))?;
            saved = Some(archive::keep(
                archive_dir,
                "torn",
                "bin",
                strip_reserve(&torn),
            )?);
            file.set_len(scan.cut)
                .map_err(LedgerError::io("truncate", path))?;
            file.sync_all().map_err(LedgerError::io("sync", path))?;
        }
        let file_len = scan.cut.min(len);
        let tail = Tail {
            ts: scan.ts,
            digest: scan.digest,
            len: scan.end.min(file_len),
            file_len,
        };
        Ok((tail, saved))
    }

    /// The stream's final bytes, which recognise this tail next time (see [`Tail::unchanged`]).
    pub(crate) fn key(&self, file: &File) -> Option<Vec<u8>> {
        let n = self.len.min(TAIL_KEY);
        let mut end = vec![0u8; n as usize];
        file.read_exact_at(&mut end, self.len - n).ok()?;
        Some(end)
    }

    /// Whether the stream still ends exactly where this tail is, with the bytes `key` gave.
    ///
    /// The size and the key alone do not tell: another writer's record written into the reserve
    /// after this tail leaves both as they were. So the byte at `len` must still be blank
    /// reserve (a record starts with `-`).
    pub(crate) fn unchanged(&self, file: &File, key: &[u8]) -> bool {
        let Ok(size) = fsutil::size_of(file) else {
            return false;
        };
        if size != self.file_len || key.len() as u64 != self.len.min(TAIL_KEY) {
            return false;
        }
        let reserve = usize::from(self.len < self.file_len);
        let mut now = vec![0u8; key.len() + reserve];
        file.read_exact_at(&mut now, self.len - key.len() as u64)
            .is_ok()
            && now[..key.len()] == *key
            && now[key.len()..].iter().all(|&b| b == b' ' || b == b'\n')
    }

    /// What to write at `len` for `record`, and the file's length after: the record alone when
    /// it fits in the reserve (keeping at least the reserve's final newline), else the record
    /// followed by a fresh reserve.
    pub(crate) fn fill(&self, record: Vec<u8>) -> (Vec<u8>, u64) {
        let room = self.file_len.saturating_sub(self.len);
        if (record.len() as u64) < room {
            return (record, self.file_len);
        }
        let mut b = record;
        b.resize(b.len() + RESERVE - 1, b' ');
        b.push(b'\n');
        let end = self.len + b.len() as u64;
        (b, end)
    }
}

/// Where complete data ends and what the last complete record is.
#[derive(Debug)]
pub(crate) struct TailScan {
    /// Bytes from here on are torn and must be set aside (the file length when none are).
    pub cut: u64,
    /// The end of the last complete record: where the next one goes.
    pub end: u64,
    pub ts: Option<Ts>,
    pub digest: Option<Digest>,
}

pub(crate) fn scan_tail<R: ReadAt + ?Sized>(file: &R, len: u64) -> std::io::Result<TailScan> {
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

fn record_ts<R: ReadAt + ?Sized>(
    f: &Frame<'_>,
    rr: &mut ReverseReader<'_, R>,
) -> std::io::Result<Option<Ts>> {
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
    fn a_record_fills_the_reserve_until_it_no_longer_fits() {
        let fresh = Tail::default();
        let (buf, file_len) = fresh.fill(b"record".to_vec());
        assert_eq!(buf.len(), 6 + RESERVE);
        assert_eq!(file_len, buf.len() as u64);
        assert!(buf.ends_with(b" \n"));
        // Written into the reserve: the file keeps its length.
        let mid = Tail {
            len: 6,
            file_len,
            ..Tail::default()
        };
        assert_eq!(mid.fill(b"next".to_vec()), (b"next".to_vec(), file_len));
        // A record as long as the room left would eat the final newline: a new reserve follows.
        let full = Tail {
            len: file_len - 4,
            file_len,
            ..Tail::default()
        };
        let (buf, end) = full.fill(b"four".to_vec());
        assert_eq!(buf.len(), 4 + RESERVE);
        assert_eq!(end, file_len - 4 + buf.len() as u64);
    }
}
