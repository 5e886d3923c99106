//! The search cache: an inverted index of the stream, kept in parts, that a search uses instead
//! of reading records — and never needs. A search only reads parts: a window whose part is
//! missing, no longer matches its segment, or does not parse is scanned, and the search says
//! how many were missing so that its caller can start the builder (build.rs), which writes
//! them in the background. Delete the cache and nothing is lost: the next search scans, and
//! the one after reads the parts again.
//!
//! Why: reading 100 MB costs what it costs. A word in a few records is found at memory speed,
//! but a word in every record makes each of them a candidate, and ranking 100,000 candidates
//! read from the raw text costs more than ripgrep's count. From an index, the same query reads
//! the word's postings and a table of document lengths and times.
//!
//! ```text
//! $TRAIL_HOME/cache/search/DEV-INODE-K.idx   part K of a segment: the records that start in
//!                                            bytes [K·8 MiB, (K+1)·8 MiB)
//! ```
//!
//! A part is built once its window is complete (a record starts past its end): the stream is
//! append-only and a record followed by another never changes (its seal and the hash chain say
//! so, and `trail verify` finds any change), so a part stays valid, and the window still
//! growing at the end of the stream is scanned. Parts are named by the segment's inode, so
//! rotation (a rename) keeps them; before use, a part is checked against the 64 bytes at each
//! end of what it covers, which tells a part of another file (a restored or copied stream). A
//! complete window holding nothing to index (inside a record larger than the window) gets a
//! part with no documents: it says "scan this window", so that nobody builds it again.
//!
//! Tokens are runs of ASCII word characters (`[A-Za-z0-9_]`), lower-cased, their first 16
//! bytes kept: exactly where a search word may match (at a word start, in any case), so a
//! lower-case word of word characters of at most 16 bytes is answered from the index with the
//! counts a scan would find; every other query scans.

#![expect(
    clippy::cast_possible_truncation,
    reason = "the part format stores counts and offsets as u32/u16/u8; `Builder` seals a part long before 4 GiB or 2^32 documents, and a u64 offset read back indexes a part already mapped in memory"
)]

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Write as _};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use super::doc;
use super::query::Query;
use super::scan::{self, Cand, Scan, Tally};
use super::sources::Source;
use crate::ledger::frame;
use crate::ledger::record::RecordType;
use crate::time::Ts;

/// Where parts live and how much of a segment each covers.
#[derive(Clone, Debug)]
pub struct Cache {
    pub dir: PathBuf,
    /// Bytes of a segment per part (8 MiB; tests use less).
    pub window: u64,
}

impl Cache {
    pub const WINDOW: u64 = 8 << 20;

    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: dir.into(),
            window: Cache::WINDOW,
        }
    }

    /// The cache of the personal root `trail_home` (`$TRAIL_HOME/cache/search/`): where every
    /// caller, and `trail doctor` or a benchmark deleting it, finds it.
    pub fn of_home(trail_home: &Path) -> Cache {
        Cache::new(trail_home.join("cache").join("search"))
    }
}

/// Bytes of a token kept.
const MAX_TOKEN: usize = 16;
/// Dictionary entries per block; the sparse table holds each block's first key.
const BLOCK_KEYS: usize = 256;
const MAGIC: &[u8; 8] = b"TRLSRCH1";
const VERSION: u32 = 1;
const HEADER: usize = 160;
const DOC: usize = 32;
const ENTRY: usize = 28;
/// Projects per part a `--proj` filter can be answered for (one bit each).
const MAX_PROJ: usize = 64;

/// A token as a key: its bytes, zero-padded, big-endian, so keys sort as the tokens do and a
/// prefix's tokens are one range.
fn pack(token: &[u8]) -> u128 {
    let mut b = [0u8; MAX_TOKEN];
    for (d, s) in b.iter_mut().zip(token) {
        *d = s.to_ascii_lowercase();
    }
    u128::from_be_bytes(b)
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// For each term, the keys of the tokens it matches; `None` when a term is not one the index
/// answers exactly (see the module documentation).
pub(crate) fn key_ranges(query: &Query) -> Option<Vec<(u128, u128)>> {
    if query.is_regex() {
        return None;
    }
    query
        .terms()
        .iter()
        .map(|t| {
            let [w] = &t.words[..] else { return None };
            let b = w.as_bytes();
            if b.is_empty() || b.len() > MAX_TOKEN || !b.iter().all(|&c| is_word(c)) {
                return None;
            }
            if b.iter().any(u8::is_ascii_uppercase) {
                return None; // smart case: matched exactly, which the folded index cannot tell
            }
            let lo = pack(b);
            let rest = if b.len() == MAX_TOKEN {
                0
            } else {
                u128::MAX >> (8 * b.len())
            };
            Some((lo, lo | rest))
        })
        .collect()
}

/// Answer what the cache can of one stream segment `len` bytes long, adding it to `tally`;
/// return the ranges left to scan, in order and merged: windows without a usable part, and the
/// window still growing at the end. A complete window whose part is missing or does not check
/// out, and could be built, counts in `tally.missing_parts`.
pub(crate) fn answer_segment(
    cache: &Cache,
    scan: &Scan<'_>,
    keys: &[(u128, u128)],
    seg: &Segment<'_>,
    tally: &mut Tally,
) -> io::Result<Vec<Range<u64>>> {
    let Segment { file, index, len } = *seg;
    let id = crate::fsutil::identity_of(file)?;
    let mut scratch = Scratch::default();
    let mut left: Vec<Range<u64>> = Vec::new();
    let mut lo = 0;
    while lo < len {
        let window = lo..lo + cache.window;
        if window.end >= len {
            // Still growing: scanned, with everything after it.
            push_range(&mut left, lo..len);
            break;
        }
        let answered = if let Some(p) = read_part(cache, file, id, window.clone(), len) {
            p.query(scan, keys, index, tally, &mut scratch)
                .is_ok_and(|used| used)
        } else {
            if closed(file, window.end, len) {
                tally.missing_parts += 1;
            }
            false
        };
        if !answered {
            push_range(&mut left, window.clone());
        }
        lo = window.end;
    }
    Ok(left)
}

/// One stream segment, opened: its number among the files searched and its length.
#[derive(Clone, Copy)]
pub(crate) struct Segment<'f> {
    pub file: &'f File,
    pub index: u32,
    pub len: u64,
}

/// Append `r` to `ranges`, joined to the last one when they touch.
fn push_range(ranges: &mut Vec<Range<u64>>, r: Range<u64>) {
    match ranges.last_mut() {
        Some(last) if last.end == r.start => last.end = r.end,
        _ => ranges.push(r),
    }
}

/// Whether a record starts at or after `at`: the window ending there is complete, and its part
/// can be built.
fn closed(file: &File, at: u64, len: u64) -> bool {
    // Unreadable (the file shrank): not a part anyone can build now.
    scan::next_start(file, at, len).is_ok_and(|s| s.is_some())
}

/// Remove parts of segments that are gone (named by an identity not in `live`); the number
/// removed.
pub(crate) fn sweep(cache: &Cache, live: &[(u64, u64)]) -> usize {
    let Ok(rd) = std::fs::read_dir(&cache.dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in rd.flatten() {
        let name = e.file_name();
        let Some(id) = name.to_str().and_then(parse_name) else {
            continue;
        };
        if !live.contains(&id) && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

fn part_path(cache: &Cache, id: (u64, u64), k: u64) -> PathBuf {
    cache.dir.join(format!("{:x}-{:x}-{k}.idx", id.0, id.1))
}

fn parse_name(name: &str) -> Option<(u64, u64)> {
    let stem = name.strip_suffix(".idx")?;
    let mut it = stem.splitn(3, '-');
    let dev = u64::from_str_radix(it.next()?, 16).ok()?;
    let ino = u64::from_str_radix(it.next()?, 16).ok()?;
    it.next()?.parse::<u64>().ok()?;
    Some((dev, ino))
}

/// The part for `window`, when one is written and checks out against the segment.
fn read_part(
    cache: &Cache,
    file: &File,
    id: (u64, u64),
    window: Range<u64>,
    len: u64,
) -> Option<Part> {
    let expect = Expect::of(cache, file, id, &window, len);
    let f = File::open(part_path(cache, id, expect.k)).ok()?;
    Part::open(Data::File(f), &expect)
}

/// What building one window came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Window {
    /// Its part was there and checks out.
    Kept,
    /// Its part was written.
    Built,
    /// Not complete yet (no record starts after it): scanned until it is.
    Open,
}

/// Make sure `window` of a segment has a part that checks out, building and writing it when it
/// has none. A part that cannot be written is an error: the builder stops and says so.
pub(crate) fn ensure_part(
    cache: &Cache,
    file: &File,
    id: (u64, u64),
    window: Range<u64>,
    len: u64,
) -> io::Result<Window> {
    if read_part(cache, file, id, window.clone(), len).is_some() {
        return Ok(Window::Kept);
    }
    let expect = Expect::of(cache, file, id, &window, len);
    let Some(bytes) = build(file, window, len, &expect)? else {
        return Ok(Window::Open);
    };
    write(&cache.dir, &part_path(cache, id, expect.k), &bytes)?;
    Ok(Window::Built)
}

/// The prefix of a part being written: a builder that died leaves such files, which the next
/// builder removes.
pub(crate) const TEMP_PREFIX: &str = ".part-";

/// Write a part: a temporary file renamed into place, so a reader sees a whole part or none.
/// Not synced: after a crash a part is whole, or absent, or fails its checks and is rebuilt.
fn write(dir: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// What a part must say about itself to be used.
struct Expect<'a> {
    window: u64,
    id: (u64, u64),
    k: u64,
    segment: &'a File,
    len: u64,
}

impl<'a> Expect<'a> {
    fn of(
        cache: &Cache,
        segment: &'a File,
        id: (u64, u64),
        window: &Range<u64>,
        len: u64,
    ) -> Expect<'a> {
        Expect {
            window: cache.window,
            id,
            k: window.start / cache.window,
            segment,
            len,
        }
    }
}

/// One document of a part.
struct DocEntry {
    rel: u32,
    len: u32,
    time: Option<Ts>,
    kind: u8,
    projs: u64,
}

/// Index the records that start in `window`; `None` when the window is not complete. A window
/// with nothing to index (no record starts in it, or one is too long to record) gets a part
/// with no documents, which tells a search to scan it.
fn build(
    file: &File,
    window: Range<u64>,
    len: u64,
    expect: &Expect<'_>,
) -> io::Result<Option<Vec<u8>>> {
    let mut docs: Vec<DocEntry> = Vec::new();
    let mut postings: HashMap<u128, Vec<u32>> = HashMap::new();
    let mut projs: Vec<String> = Vec::new();
    let mut first: Option<u64> = None;
    let mut keys: Vec<u128> = Vec::new();
    let mut too_long = false;
    let closed = scan::walk_records(file, window.clone(), len, |buf, base| {
        let starts = frame::starts(buf);
        for (i, &s) in starts.iter().enumerate() {
            let e = starts.get(i + 1).copied().unwrap_or(buf.len());
            let rec = &buf[s..e];
            let off = base + s as u64;
            let first = *first.get_or_insert(off);
            let (Ok(rel), Ok(rec_len)) = (u32::try_from(off - first), u32::try_from(rec.len()))
            else {
                too_long = true;
                continue;
            };
            let meta = doc::record(rec, true);
            let mut mask = 0u64;
            for p in &meta.proj {
                let i = if let Some(i) = projs.iter().position(|x| x == p) {
                    i
                } else {
                    projs.push(p.clone());
                    projs.len() - 1
                };
                // Past 64 projects the mask cannot tell: `--proj` then scans this window.
                mask |= 1u64.checked_shl(i as u32).unwrap_or(0);
            }
            let kind = meta
                .kind
                .as_deref()
                .and_then(|k| RecordType::ALL.iter().position(|t| t.as_str() == k))
                .map_or(u8::MAX, |i| i as u8);
            let d = docs.len() as u32;
            docs.push(DocEntry {
                rel,
                len: rec_len,
                time: meta.time,
                kind,
                projs: mask,
            });
            tokens(rec, &mut keys);
            keys.sort_unstable();
            let mut j = 0;
            while j < keys.len() {
                let run = keys[j..].iter().take_while(|&&k| k == keys[j]).count();
                let list = postings.entry(keys[j]).or_default();
                list.push(d);
                list.push(run as u32);
                j += run;
            }
        }
    })?;
    let Some(end) = closed else {
        return Ok(None);
    };
    let first = match first {
        Some(f) if !too_long => f,
        _ => {
            docs.clear();
            projs.clear();
            postings.clear();
            window.start
        }
    };
    let (head, tail) = end_digests(expect.segment, first, end)?;
    Ok(Some(serialize(&Built {
        expect,
        first,
        end,
        head,
        tail,
        docs: &docs,
        projs: &projs,
        postings,
    })))
}

/// Every token of `rec`, as keys.
fn tokens(rec: &[u8], out: &mut Vec<u128>) {
    out.clear();
    let mut i = 0;
    while i < rec.len() {
        if !is_word(rec[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < rec.len() && is_word(rec[i]) {
            i += 1;
        }
        out.push(pack(&rec[start..i]));
    }
}

/// Digests of the 64 bytes at each end of `first..end`: a part is for these bytes only.
fn end_digests(segment: &File, first: u64, end: u64) -> io::Result<([u8; 16], [u8; 16])> {
    let n = 64.min(end - first);
    let mut a = vec![0; n as usize];
    let mut b = vec![0; n as usize];
    segment.read_exact_at(&mut a, first)?;
    segment.read_exact_at(&mut b, end - n)?;
    let d = |x: &[u8]| -> [u8; 16] { Sha256::digest(x)[..16].try_into().unwrap_or_default() };
    Ok((d(&a), d(&b)))
}

struct Built<'a> {
    expect: &'a Expect<'a>,
    first: u64,
    end: u64,
    head: [u8; 16],
    tail: [u8; 16],
    docs: &'a [DocEntry],
    projs: &'a [String],
    postings: HashMap<u128, Vec<u32>>,
}

/// The part's bytes (little-endian):
///
/// ```text
/// 0    header    magic, version, window, dev, ino, k, first, end, head and tail digests,
///                counts, and the offset of every section and the file's length
/// 160  docs      32 bytes each: offset from `first` u32, length u32, time µs i64 (MIN: none),
///                kind u8 (RecordType, 255: other), 3 bytes, project mask u64, 4 bytes
///      projects  u16 length + bytes each
///      sparse    the first key of every block of 256 dictionary entries (u128 each)
///      dict      28 bytes each, by key: key u128, postings offset u32, length u32, df u32
///      postings  per key: (document delta, frequency) pairs as LEB128
/// ```
fn serialize(b: &Built<'_>) -> Vec<u8> {
    let mut keys: Vec<u128> = b.postings.keys().copied().collect();
    keys.sort_unstable();
    let mut post = Vec::new();
    let mut dict = Vec::with_capacity(keys.len() * ENTRY);
    for k in &keys {
        let list = &b.postings[k];
        let at = post.len() as u32;
        let mut prev = 0;
        for pair in list.chunks_exact(2) {
            leb(&mut post, pair[0] - prev);
            leb(&mut post, pair[1]);
            prev = pair[0];
        }
        dict.extend_from_slice(&k.to_le_bytes());
        dict.extend_from_slice(&at.to_le_bytes());
        dict.extend_from_slice(&(post.len() as u32 - at).to_le_bytes());
        dict.extend_from_slice(&((list.len() / 2) as u32).to_le_bytes());
    }
    let mut docs = Vec::with_capacity(b.docs.len() * DOC);
    for d in b.docs {
        docs.extend_from_slice(&d.rel.to_le_bytes());
        docs.extend_from_slice(&d.len.to_le_bytes());
        docs.extend_from_slice(&d.time.map_or(i64::MIN, Ts::as_micros).to_le_bytes());
        docs.push(d.kind);
        docs.extend_from_slice(&[0; 3]);
        docs.extend_from_slice(&d.projs.to_le_bytes());
        docs.extend_from_slice(&[0; 4]);
    }
    let mut projs = Vec::new();
    for p in b.projs.iter().take(MAX_PROJ) {
        let bytes = &p.as_bytes()[..p.len().min(u16::MAX as usize)];
        projs.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
        projs.extend_from_slice(bytes);
    }
    let sparse: Vec<u8> = keys
        .iter()
        .step_by(BLOCK_KEYS)
        .flat_map(|k| k.to_le_bytes())
        .collect();
    let off_docs = HEADER as u64;
    let off_projs = off_docs + docs.len() as u64;
    let off_sparse = off_projs + projs.len() as u64;
    let off_dict = off_sparse + sparse.len() as u64;
    let off_post = off_dict + dict.len() as u64;
    let file_len = off_post + post.len() as u64;
    let mut out = Vec::with_capacity(file_len as usize);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    for v in [
        b.expect.window,
        b.expect.id.0,
        b.expect.id.1,
        b.expect.k,
        b.first,
        b.end,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&b.head);
    out.extend_from_slice(&b.tail);
    let overflow = u32::from(b.projs.len() > MAX_PROJ);
    for v in [
        b.docs.len() as u32,
        keys.len() as u32,
        b.projs.len().min(MAX_PROJ) as u32,
        overflow,
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in [off_projs, off_sparse, off_dict, off_post, file_len] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.resize(HEADER, 0);
    out.extend_from_slice(&docs);
    out.extend_from_slice(&projs);
    out.extend_from_slice(&sparse);
    out.extend_from_slice(&dict);
    out.extend_from_slice(&post);
    out
}

fn leb(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Where a part's bytes are: its file, or (in tests that damage them) bytes in memory.
enum Data {
    File(File),
    #[cfg(test)]
    Bytes(Vec<u8>),
}

impl Data {
    fn read(&self, at: u64, n: usize) -> io::Result<Vec<u8>> {
        let mut buf = Vec::new();
        self.read_into(at, n, &mut buf)?;
        Ok(buf)
    }

    /// Read `n` bytes at `at` into `buf` (reused: its pages are already there).
    fn read_into(&self, at: u64, n: usize, buf: &mut Vec<u8>) -> io::Result<()> {
        buf.resize(n, 0);
        match self {
            Data::File(f) => f.read_exact_at(buf, at),
            #[cfg(test)]
            Data::Bytes(b) => {
                let src = usize::try_from(at)
                    .ok()
                    .and_then(|a| b.get(a..a.checked_add(n)?))
                    .ok_or_else(corrupt)?;
                buf.copy_from_slice(src);
                Ok(())
            }
        }
    }

    fn len(&self) -> io::Result<u64> {
        match self {
            Data::File(f) => crate::fsutil::size_of(f),
            #[cfg(test)]
            Data::Bytes(b) => Ok(b.len() as u64),
        }
    }
}

fn corrupt() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "search cache part does not parse",
    )
}

/// A part, checked: its header, documents and projects read, the rest read on demand.
struct Part {
    data: Data,
    first: u64,
    end: u64,
    ndocs: usize,
    nkeys: usize,
    proj_overflow: bool,
    projs: Vec<String>,
    sparse: Vec<u128>,
    off_dict: u64,
    off_post: u64,
    post_len: u64,
}

/// Little-endian reads from a checked slice.
struct Le<'a>(&'a [u8]);

impl Le<'_> {
    fn u32(&self, at: usize) -> u32 {
        u32::from_le_bytes(self.0[at..at + 4].try_into().unwrap_or_default())
    }
    fn u64(&self, at: usize) -> u64 {
        u64::from_le_bytes(self.0[at..at + 8].try_into().unwrap_or_default())
    }
    fn u128(&self, at: usize) -> u128 {
        u128::from_le_bytes(self.0[at..at + 16].try_into().unwrap_or_default())
    }
}

impl Part {
    /// The part in `data`, if it is one for `expect` and its segment still holds the bytes it
    /// was built from.
    fn open(data: Data, expect: &Expect<'_>) -> Option<Part> {
        let header = data.read(0, HEADER).ok()?;
        let h = Le(&header);
        if &header[..8] != MAGIC || h.u32(8) != VERSION {
            return None;
        }
        let [window, dev, ino, k, first, end] = [16, 24, 32, 40, 48, 56].map(|at| h.u64(at));
        if (window, (dev, ino), k) != (expect.window, expect.id, expect.k)
            || first >= end
            || end > expect.len
            || first < k.checked_mul(window)?
        {
            return None;
        }
        let (ndocs, nkeys, nproj, overflow) = (
            h.u32(96) as usize,
            h.u32(100) as usize,
            h.u32(104),
            h.u32(108),
        );
        let offs = Offsets {
            projs: h.u64(112),
            sparse: h.u64(120),
            dict: h.u64(128),
            post: h.u64(136),
            file: h.u64(144),
        };
        let nblocks = nkeys.div_ceil(BLOCK_KEYS);
        // Sections in order, each of the size its count says, the last ending the file: checked
        // before anything is read, so no count can make a reader allocate more than the file.
        let sized =
            |a: u64, n: usize, unit: usize| a.checked_add((n as u64).checked_mul(unit as u64)?);
        if sized(HEADER as u64, ndocs, DOC)? != offs.projs
            || offs.sparse < offs.projs
            || sized(offs.sparse, nblocks, 16)? != offs.dict
            || sized(offs.dict, nkeys, ENTRY)? != offs.post
            || offs.file < offs.post
            || data.len().ok()? != offs.file
        {
            return None;
        }
        let (head, tail) = end_digests(expect.segment, first, end).ok()?;
        if header[64..80] != head || header[80..96] != tail {
            return None;
        }
        let proj_bytes = data
            .read(offs.projs, usize::try_from(offs.sparse - offs.projs).ok()?)
            .ok()?;
        let mut projs = Vec::new();
        let mut at = 0;
        while at < proj_bytes.len() {
            let n = u16::from_le_bytes(proj_bytes.get(at..at + 2)?.try_into().ok()?) as usize;
            projs.push(String::from_utf8(proj_bytes.get(at + 2..at + 2 + n)?.to_vec()).ok()?);
            at += 2 + n;
        }
        if projs.len() != nproj as usize {
            return None;
        }
        let sparse_bytes = data.read(offs.sparse, nblocks * 16).ok()?;
        let sparse = sparse_bytes
            .chunks_exact(16)
            .map(|c| u128::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect();
        Some(Part {
            data,
            first,
            end,
            ndocs,
            nkeys,
            proj_overflow: overflow != 0,
            projs,
            sparse,
            off_dict: offs.dict,
            off_post: offs.post,
            post_len: offs.file - offs.post,
        })
    }

    /// Answer `keys` for this part's documents. `Ok(false)` when it cannot (a `--proj`
    /// filter over more projects than a part records, or a part that indexes nothing).
    fn query(
        &self,
        scan: &Scan<'_>,
        keys: &[(u128, u128)],
        index: u32,
        tally: &mut Tally,
        scratch: &mut Scratch,
    ) -> io::Result<bool> {
        if (scan.filters.proj.is_some() && self.proj_overflow) || self.ndocs == 0 {
            return Ok(false);
        }
        let terms = keys.len();
        let tf = &mut scratch.tf;
        tf.clear();
        tf.resize(self.ndocs * terms, 0);
        for (t, &(lo, hi)) in keys.iter().enumerate() {
            let entries = self.entries(lo, hi)?;
            // A prefix's postings lie together: one read for all of them.
            let (Some(a), Some(b)) = (entries.first(), entries.last()) else {
                continue;
            };
            let from = u64::from(a.1);
            let to = u64::from(b.1) + u64::from(b.2);
            if to > self.post_len || from > to {
                return Err(corrupt());
            }
            let bytes = self.data.read(self.off_post + from, (to - from) as usize)?;
            for &(_, at, n) in &entries {
                let at = u64::from(at).checked_sub(from).ok_or_else(corrupt)? as usize;
                let list = bytes
                    .get(at..at.saturating_add(n as usize))
                    .ok_or_else(corrupt)?;
                let mut r = Leb(list);
                let mut doc = 0u32;
                while !r.0.is_empty() {
                    doc = doc.checked_add(r.next()?).ok_or_else(corrupt)?;
                    let f = r.next()?;
                    let cell = tf.get_mut(doc as usize * terms + t).ok_or_else(corrupt)?;
                    *cell = cell.saturating_add(f);
                }
            }
        }
        tally.count(Source::Stream, self.end - self.first, self.ndocs as u64);
        if tf.iter().all(|&x| x == 0) {
            return Ok(true);
        }
        let docs = &mut scratch.docs;
        self.data.read_into(HEADER as u64, self.ndocs * DOC, docs)?;
        let wanted: u64 = match &scan.filters.proj {
            Some(p) => self
                .projs
                .iter()
                .enumerate()
                .filter(|(_, x)| *x == p)
                .fold(0, |m, (i, _)| m | 1 << i),
            None => u64::MAX,
        };
        for d in 0..self.ndocs {
            let row = &tf[d * terms..(d + 1) * terms];
            if row.iter().all(|&x| x == 0) {
                continue;
            }
            let entry = &docs[d * DOC..(d + 1) * DOC];
            let e = Le(entry);
            let time = e.u64(8).cast_signed();
            let time = (time != i64::MIN).then_some(Ts::from_micros(time));
            let kind = RecordType::ALL
                .get(usize::from(entry[16]))
                .map(|k| k.as_str());
            let projs = e.u64(20);
            if !scan
                .filters
                .admits_with(Source::Stream, time, kind, |_| projs & wanted != 0)
            {
                continue;
            }
            let start = self.first + u64::from(e.u32(0));
            let span = start..start + u64::from(e.u32(4));
            let cand = Cand::new(index, Source::Stream, span, 0, time);
            tally.push(cand, row);
        }
        Ok(true)
    }

    /// The dictionary entries with keys in `lo..=hi`: (key, postings offset, length).
    fn entries(&self, lo: u128, hi: u128) -> io::Result<Vec<(u128, u32, u32)>> {
        let mut out = Vec::new();
        let mut block = self.sparse.partition_point(|&f| f <= lo).saturating_sub(1);
        while block < self.sparse.len() && self.sparse[block] <= hi {
            let n = BLOCK_KEYS.min(self.nkeys - block * BLOCK_KEYS);
            let bytes = self.data.read(
                self.off_dict + (block * BLOCK_KEYS * ENTRY) as u64,
                n * ENTRY,
            )?;
            for e in bytes.chunks_exact(ENTRY) {
                let e = Le(e);
                let key = e.u128(0);
                if key > hi {
                    return Ok(out);
                }
                if key >= lo {
                    out.push((key, e.u32(16), e.u32(20)));
                }
            }
            block += 1;
        }
        Ok(out)
    }
}

/// Buffers reused from part to part.
#[derive(Default)]
struct Scratch {
    tf: Vec<u32>,
    docs: Vec<u8>,
}

struct Offsets {
    projs: u64,
    sparse: u64,
    dict: u64,
    post: u64,
    file: u64,
}

/// LEB128 numbers from a slice.
struct Leb<'a>(&'a [u8]);

impl Leb<'_> {
    fn next(&mut self) -> io::Result<u32> {
        let mut v = 0u32;
        for shift in (0..35).step_by(7) {
            let (&b, rest) = self.0.split_first().ok_or_else(corrupt)?;
            self.0 = rest;
            v |= u32::from(b & 0x7f).checked_shl(shift).ok_or_else(corrupt)?;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(corrupt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::record::{Focus, Intent, Record, facts_body};
    use crate::search::sources::SourceFile;
    use crate::search::{Built, Filters, build_missing, scan::scan_all};

    const WORDS: [&str; 9] = [
        "backlog",
        "Backlogs",
        "checkout",
        "cache_miss",
        "deploy",
        "5433",
        "déjà",
        "TLS",
        "rare",
    ];

    /// A stream of `n` records over a few projects, types and words; returns its path.
    fn stream(dir: &Path, n: u64) -> PathBuf {
        let path = dir.join("pulses.log.md");
        let mut bytes = Vec::new();
        for i in 0..n {
            let kind = RecordType::ALL[(i % 5) as usize];
            let mut r = Record::new(
                kind,
                Ts::from_micros(1_790_000_000_000_000 + i64::try_from(i).unwrap()),
            );
            r.focus = vec![Focus {
                proj: ["shop", "infra", "docs"][(i % 3) as usize].into(),
                topic: String::new(),
            }];
            let w = |k: u64| WORDS[((i * 7 + k) % WORDS.len() as u64) as usize];
            r.intent = Some(Intent {
                primary: "continue".into(),
                summary: format!("step {i}: {} then {} and {}", w(0), w(1), w(0)),
            });
            if i % 97 == 0 {
                r.body = facts_body(&["the rare word appears here".into()]);
            }
            bytes.extend(frame::encode(&r).0);
        }
        bytes.extend(vec![b' '; 100]);
        bytes.push(b'\n');
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// What a search of `seg` (with the cache, when given) found.
    fn tally(seg: &Path, cache: Option<&Cache>, query: &str, filters: &Filters) -> Tally {
        let q = Query::lexical(query).unwrap();
        let keys = key_ranges(&q);
        let scan = Scan {
            matchers: q.matchers(),
            filters,
            project_root: Path::new("/"),
            index: cache.zip(keys.as_deref()),
        };
        let files = [SourceFile {
            source: Source::Stream,
            path: seg.to_path_buf(),
            shown: "pulses.log.md".into(),
            kind: None,
            day: None,
        }];
        let (tally, _) = scan_all(&scan, &files);
        assert!(tally.skipped.is_empty(), "{:?}", tally.skipped);
        tally
    }

    /// Candidates as (start, end, tf, time), sorted.
    fn run(
        seg: &Path,
        cache: Option<&Cache>,
        query: &str,
        filters: &Filters,
    ) -> Vec<(u64, u64, Vec<u32>, Option<Ts>)> {
        let tally = tally(seg, cache, query, filters);
        let mut v: Vec<_> = tally
            .cands
            .iter()
            .enumerate()
            .map(|(i, c)| (c.start, c.end(), tally.tf_of(i).to_vec(), c.time()))
            .collect();
        v.sort_by_key(|x| x.0);
        v
    }

    /// Parts a search of `seg` finds missing.
    fn missing(seg: &Path, cache: &Cache) -> usize {
        tally(seg, Some(cache), "backlog", &Filters::default()).missing_parts
    }

    /// What the builder does in the background, here.
    fn fill(seg: &Path, cache: &Cache) -> Built {
        let lock = cache.builder_lock(None).unwrap().expect("no other builder");
        build_missing(cache, &[seg.to_path_buf()], &lock).unwrap()
    }

    /// The parts in `dir` (not the builder's lock).
    fn parts(dir: &Path) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| rd.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        v.retain(|p| p.extension().is_some_and(|e| e == "idx"));
        v.sort();
        v
    }

    #[test]
    fn the_index_finds_exactly_what_the_scan_finds() {
        let dir = tempfile::tempdir().unwrap();
        let seg = stream(dir.path(), 400);
        let cache = Cache {
            dir: dir.path().join("cache"),
            window: 16 << 10,
        };
        let since = Ts::from_micros(1_790_000_000_000_000 + 150);
        let filters = [
            Filters::default(),
            Filters {
                types: vec!["handoff".into(), "TANGENT".into()],
                ..Filters::default()
            },
            Filters {
                since: Some(since),
                until: Some(Ts::from_micros(since.as_micros() + 100)),
                ..Filters::default()
            },
            Filters {
                proj: Some("infra".into()),
                ..Filters::default()
            },
        ];
        let queries = [
            "backlog",
            "back",
            "checkout deploy",
            "5433",
            "rare",
            "cache_m",
            "step",
            "zzz",
        ];
        let len = std::fs::metadata(&seg).unwrap().len();
        let complete = usize::try_from(len / cache.window).unwrap();
        // No cache yet: the search scans, writes nothing, and says what is missing.
        assert_eq!(missing(&seg, &cache), complete);
        assert!(!cache.dir.exists());
        let built = fill(&seg, &cache);
        assert_eq!((built.built, built.kept, built.open), (complete, 0, 0));
        assert_eq!(missing(&seg, &cache), 0);
        for query in queries {
            let q = Query::lexical(query).unwrap();
            assert!(key_ranges(&q).is_some(), "{query}");
            for f in &filters {
                let scanned = run(&seg, None, query, f);
                assert_eq!(run(&seg, Some(&cache), query, f), scanned, "{query} {f:?}");
            }
        }
        assert_eq!(parts(&cache.dir).len(), complete);
        // Built again: every part kept.
        assert_eq!(fill(&seg, &cache).kept, complete);
    }

    #[test]
    fn queries_the_index_cannot_answer_exactly_are_scanned() {
        for q in [
            "Backlog",
            "a.b",
            "déjà",
            "\"two words\"",
            "abcdefghijklmnopq",
        ] {
            assert!(key_ranges(&Query::lexical(q).unwrap()).is_none(), "{q}");
        }
        assert!(key_ranges(&Query::regex("back.*").unwrap()).is_none());
        let (lo, hi) = key_ranges(&Query::lexical("ab").unwrap()).unwrap()[0];
        assert!(lo <= pack(b"ab") && pack(b"abzzz") <= hi && pack(b"ac") > hi);
    }

    #[test]
    fn a_damaged_stale_or_deleted_cache_loses_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let seg = stream(dir.path(), 300);
        let cache = Cache {
            dir: dir.path().join("cache"),
            window: 16 << 10,
        };
        let f = Filters::default();
        let truth = run(&seg, None, "backlog", &f);
        assert_eq!(run(&seg, Some(&cache), "backlog", &f), truth);
        fill(&seg, &cache);
        assert_eq!(run(&seg, Some(&cache), "backlog", &f), truth);
        let built = parts(&cache.dir);
        assert!(built.len() >= 3);
        // Truncated, garbage, one flipped byte: each ignored (scanned around, and missing to
        // the builder), then rebuilt.
        let good = std::fs::read(&built[0]).unwrap();
        std::fs::write(&built[0], &good[..good.len() / 2]).unwrap();
        std::fs::write(&built[1], b"not a part").unwrap();
        let mut flipped = std::fs::read(&built[2]).unwrap();
        flipped[70] ^= 1; // the head digest
        std::fs::write(&built[2], &flipped).unwrap();
        assert_eq!(run(&seg, Some(&cache), "backlog", &f), truth);
        assert_eq!(missing(&seg, &cache), 3);
        assert_eq!(fill(&seg, &cache).built, 3);
        assert_eq!(std::fs::read(&built[0]).unwrap(), good);
        // A builder that died while writing left a temporary file: the next one removes it.
        std::fs::write(cache.dir.join(format!("{TEMP_PREFIX}dead")), b"half").unwrap();
        fill(&seg, &cache);
        assert!(!cache.dir.join(format!("{TEMP_PREFIX}dead")).exists());
        // The segment rewritten in place where a part begins (same inode, same length): the
        // first record's year changes, and the stale part is not believed.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&seg)
            .unwrap();
        let mut year = [0u8; 4];
        file.read_exact_at(&mut year, 32).unwrap();
        year[3] += 1;
        file.write_all_at(&year, 32).unwrap();
        let fresh = run(&seg, None, "backlog", &f);
        assert_ne!(fresh[0].3, truth[0].3);
        assert_eq!(run(&seg, Some(&cache), "backlog", &f), fresh);
        // Deleted: the same answer, and once built, the cache is back.
        std::fs::remove_dir_all(&cache.dir).unwrap();
        assert_eq!(run(&seg, Some(&cache), "backlog", &f), fresh);
        assert_eq!(missing(&seg, &cache), built.len());
        fill(&seg, &cache);
        assert_eq!(parts(&cache.dir).len(), built.len());
        // Parts of segments that are gone are swept.
        sweep(&cache, &[]);
        assert!(parts(&cache.dir).is_empty());
    }

    #[test]
    fn a_window_inside_one_long_record_is_scanned_and_built_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pulses.log.md");
        let mut bytes = Vec::new();
        for i in 0..30u8 {
            let mut r = Record::new(
                RecordType::Pulse,
                Ts::from_micros(1_790_000_000_000_000 + i64::from(i)),
            );
            r.intent = Some(Intent {
                primary: "continue".into(),
                summary: format!("backlog item {i}"),
            });
            if i == 10 {
                // Three windows long: the windows it starts after hold no record start.
                r.body = facts_body(&[format!("backlog {}", "x".repeat(12 << 10))]);
            }
            bytes.extend(frame::encode(&r).0);
        }
        std::fs::write(&path, bytes).unwrap();
        let cache = Cache {
            dir: dir.path().join("cache"),
            window: 4 << 10,
        };
        let f = Filters::default();
        let truth = run(&path, None, "backlog", &f);
        assert_eq!(truth.len(), 30);
        let before = missing(&path, &cache);
        let built = fill(&path, &cache);
        assert_eq!(built.built, before);
        assert_eq!(missing(&path, &cache), 0, "nothing left to build");
        assert_eq!(run(&path, Some(&cache), "backlog", &f), truth);
        // The last complete window, with no record after it yet, is not missing: nobody can
        // build it until one is appended.
        let mut grown = std::fs::read(&path).unwrap();
        let len = grown.len() as u64;
        let pad = (cache.window - len % cache.window) + 100;
        let mut r = Record::new(RecordType::Pulse, Ts::from_micros(1_790_000_000_000_100));
        r.body = facts_body(&[format!(
            "backlog {}",
            "y".repeat(usize::try_from(pad).unwrap())
        )]);
        grown.extend(frame::encode(&r).0);
        std::fs::write(&path, &grown).unwrap();
        assert_eq!(missing(&path, &cache), 0);
        assert_eq!(fill(&path, &cache).open, 1);
        assert_eq!(run(&path, Some(&cache), "backlog", &f).len(), 31);
    }

    #[test]
    fn no_damaged_part_panics_or_answers() {
        let dir = tempfile::tempdir().unwrap();
        let seg = stream(dir.path(), 60);
        let file = File::open(&seg).unwrap();
        let len = file.metadata().unwrap().len();
        let expect = Expect {
            window: 4 << 10,
            id: crate::fsutil::identity_of(&file).unwrap(),
            k: 0,
            segment: &file,
            len,
        };
        let good = build(&file, 0..expect.window, len, &expect)
            .unwrap()
            .unwrap();
        let q = Query::lexical("backlog step").unwrap();
        let keys = key_ranges(&q).unwrap();
        let f = Filters::default();
        let scan = Scan {
            matchers: q.matchers(),
            filters: &f,
            project_root: Path::new("/"),
            index: None,
        };
        let whole = Part::open(Data::Bytes(good.clone()), &expect).unwrap();
        let mut t = Tally::new(2);
        let mut scratch = Scratch::default();
        assert!(whole.query(&scan, &keys, 0, &mut t, &mut scratch).unwrap());
        assert!(!t.cands.is_empty());
        for i in (0..good.len()).step_by(3) {
            for bad in [good[..i].to_vec(), {
                let mut b = good.clone();
                b[i] ^= 0xA5;
                b
            }] {
                if let Some(p) = Part::open(Data::Bytes(bad), &expect) {
                    let mut t = Tally::new(2);
                    let _ = p.query(&scan, &keys, 0, &mut t, &mut scratch);
                }
            }
        }
    }
}
