//! git's objects read from its files: a loose object, or one in a pack (deltas applied).
//!
//! Only what [`super::kept`] needs: a commit's tree and a tree's entries. Nothing here runs git
//! or anything a repository's config names. Every read is bounded, and a pack is read at the
//! offsets its index gives (a pack can be gigabytes; a hook's memory budget is 4 MB), so an
//! object costs its own size and the reads that find it. Anything this does not read (a SHA-256
//! repository, an object in an alternate store or missing from a partial clone, a version of a
//! file it does not know, a corrupt byte) is `None`, and the caller asks git instead.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::{DecompressorOxide, decompress, inflate_flags};

/// A SHA-1 object id's length; a SHA-256 repository is not read here.
pub(crate) const OID: usize = 20;
/// The largest object read: commits and trees, not blobs, are asked for.
const MAX_OBJECT: usize = 16 << 20;
/// The longest delta chain followed (git's own default is 50; `--depth` allows 4095).
const MAX_CHAIN: usize = 4096;
/// Compressed bytes read from a pack at a time.
const CHUNK: usize = 8192;

pub(crate) type Oid = [u8; OID];

/// An object's kind, as a pack numbers it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Commit,
    Tree,
    Blob,
    Tag,
}

/// The object store of one repository: `.git/objects`, its packs found on first need.
pub(crate) struct Store {
    /// The work tree: every file is opened below it as a project's are (no symlink, no FIFO).
    work: PathBuf,
    dir: PathBuf,
    packs: Option<Vec<Pack>>,
}

struct Pack {
    idx: File,
    data: File,
    /// The index's fan-out table: how many ids begin with a byte at most this one.
    fanout: [u32; 256],
}

impl Store {
    pub(crate) fn new(work: &Path, objects: &Path) -> Self {
        Self {
            work: work.to_path_buf(),
            dir: objects.to_path_buf(),
            packs: None,
        }
    }

    /// The object `oid`: its kind and body.
    pub(crate) fn read(&mut self, oid: &Oid) -> Option<(Kind, Vec<u8>)> {
        self.read_chained(oid, 0)
    }

    fn read_chained(&mut self, oid: &Oid, depth: usize) -> Option<(Kind, Vec<u8>)> {
        if depth > MAX_CHAIN {
            return None;
        }
        if let Some(found) = self.loose(oid) {
            return Some(found);
        }
        let at = self
            .packs()
            .iter()
            .enumerate()
            .find_map(|(i, p)| p.offset_of(oid).map(|o| (i, o)))?;
        self.packed(at.0, at.1, depth)
    }

    fn loose(&self, oid: &Oid) -> Option<(Kind, Vec<u8>)> {
        let hex = crate::text::hex(oid);
        let path = self.dir.join(&hex[..2]).join(&hex[2..]);
        let file = open(&self.work, &path)?;
        let mut zipped = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(file, MAX_OBJECT as u64 + 1),
            &mut zipped,
        )
        .ok()?;
        let raw = miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(&zipped, MAX_OBJECT + 64)
            .ok()?;
        let nul = memchr::memchr(0, &raw)?;
        let (kind, size) = std::str::from_utf8(&raw[..nul]).ok()?.split_once(' ')?;
        let kind = match kind {
            "commit" => Kind::Commit,
            "tree" => Kind::Tree,
            "blob" => Kind::Blob,
            "tag" => Kind::Tag,
            _ => return None,
        };
        let body = raw[nul + 1..].to_vec();
        (size.parse::<usize>().ok()? == body.len()).then_some((kind, body))
    }

    fn packs(&mut self) -> &[Pack] {
        let (work, dir) = (&self.work, &self.dir);
        self.packs.get_or_insert_with(|| {
            let Ok(entries) = std::fs::read_dir(dir.join("pack")) else {
                return Vec::new();
            };
            let mut names: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "idx"))
                .collect();
            names.sort();
            names.iter().filter_map(|p| Pack::open(work, p)).collect()
        })
    }

    /// The object at `offset` of pack `i`, its deltas applied.
    fn packed(&mut self, i: usize, offset: u64, depth: usize) -> Option<(Kind, Vec<u8>)> {
        let mut deltas: Vec<Vec<u8>> = Vec::new();
        let mut offset = offset;
        loop {
            if deltas.len() > MAX_CHAIN {
                return None;
            }
            let pack = &self.packs.as_ref()?[i];
            let (kind, size, body_at) = pack.header(offset)?;
            match kind {
                1..=4 => {
                    let mut body = pack.inflate(body_at, size)?;
                    let kind = [Kind::Commit, Kind::Tree, Kind::Blob, Kind::Tag][kind as usize - 1];
                    for delta in deltas.iter().rev() {
                        body = apply_delta(&body, delta)?;
                    }
                    return Some((kind, body));
                }
                6 => {
                    let (back, n) = pack.offset_delta(body_at)?;
                    deltas.push(pack.inflate(body_at + n, size)?);
                    offset = offset.checked_sub(back).filter(|&o| o > 0)?;
                }
                7 => {
                    let mut base = [0u8; OID];
                    pack.data.read_exact_at(&mut base, body_at).ok()?;
                    let delta = pack.inflate(body_at + OID as u64, size)?;
                    // A base named by id may live anywhere: read it whole, then apply.
                    let (kind, mut body) = self.read_chained(&base, depth + deltas.len() + 1)?;
                    body = apply_delta(&body, &delta)?;
                    for delta in deltas.iter().rev() {
                        body = apply_delta(&body, delta)?;
                    }
                    return Some((kind, body));
                }
                _ => return None,
            }
        }
    }
}

impl Pack {
    fn open(work: &Path, idx_path: &Path) -> Option<Self> {
        let idx = open(work, idx_path)?;
        let pack = open(work, &idx_path.with_extension("pack"))?;
        let mut head = [0u8; 8 + 256 * 4];
        idx.read_exact_at(&mut head, 0).ok()?;
        // Version 2 only (`\377tOc`, 2): git has written no other since 2008.
        if head[..8] != [0xff, b't', b'O', b'c', 0, 0, 0, 2] {
            return None;
        }
        let mut fanout = [0u32; 256];
        for (i, f) in fanout.iter_mut().enumerate() {
            *f = be32(&head[8 + 4 * i..])?;
        }
        if fanout.windows(2).any(|w| w[0] > w[1]) {
            return None;
        }
        let mut magic = [0u8; 8];
        pack.read_exact_at(&mut magic, 0).ok()?;
        (magic[..4] == *b"PACK" && matches!(be32(&magic[4..]), Some(2 | 3))).then_some(Self {
            idx,
            data: pack,
            fanout,
        })
    }

    /// Where `oid` starts in the pack, found by halving the index's sorted ids.
    fn offset_of(&self, oid: &Oid) -> Option<u64> {
        let first = oid[0] as usize;
        let mut lo = u64::from(if first == 0 {
            0
        } else {
            self.fanout[first - 1]
        });
        let mut hi = u64::from(self.fanout[first]);
        let total = u64::from(self.fanout[255]);
        let ids_at = 8 + 256 * 4;
        let mut probe = [0u8; OID];
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            self.idx
                .read_exact_at(&mut probe, ids_at + mid * OID as u64)
                .ok()?;
            match probe.cmp(oid) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let offsets_at = ids_at + total * (OID as u64 + 4);
                    let mut word = [0u8; 4];
                    self.idx
                        .read_exact_at(&mut word, offsets_at + mid * 4)
                        .ok()?;
                    let small = u32::from_be_bytes(word);
                    if small & 0x8000_0000 == 0 {
                        return Some(u64::from(small));
                    }
                    // A pack over 2 GiB: the offset is in the table of large ones.
                    let mut long = [0u8; 8];
                    let large_at = offsets_at + total * 4 + u64::from(small & 0x7fff_ffff) * 8;
                    self.idx.read_exact_at(&mut long, large_at).ok()?;
                    return Some(u64::from_be_bytes(long));
                }
            }
        }
        None
    }

    /// An entry's kind, inflated size and where its data starts.
    fn header(&self, offset: u64) -> Option<(u8, usize, u64)> {
        let mut head = [0u8; 16];
        let n = self.data.read_at(&mut head, offset).ok()?;
        let head = &head[..n];
        let first = *head.first()?;
        let kind = (first >> 4) & 7;
        let mut size = usize::from(first & 15);
        let mut shift = 4;
        let mut i = 0;
        let mut byte = first;
        while byte & 0x80 != 0 {
            i += 1;
            byte = *head.get(i)?;
            if shift > 60 {
                return None;
            }
            size |= usize::from(byte & 0x7f) << shift;
            shift += 7;
        }
        (size <= MAX_OBJECT).then_some((kind, size, offset + i as u64 + 1))
    }

    /// An offset delta's distance back to its base, and the bytes that said it.
    fn offset_delta(&self, at: u64) -> Option<(u64, u64)> {
        let mut head = [0u8; 10];
        let n = self.data.read_at(&mut head, at).ok()?;
        let (back, used) = offset_varint(&head[..n])?;
        Some((back, used as u64))
    }

    /// `size` bytes inflated from the zlib stream at `at`, read a chunk at a time.
    fn inflate(&self, mut at: u64, size: usize) -> Option<Vec<u8>> {
        // One spare byte: a stream that would write past `size` is caught, not cut short.
        let mut out = vec![0u8; size + 1];
        let mut written = 0;
        let mut state = Box::new(DecompressorOxide::new());
        let mut chunk = vec![0u8; CHUNK];
        loop {
            let n = self.data.read_at(&mut chunk, at).ok()?;
            if n == 0 {
                return None;
            }
            let flags = inflate_flags::TINFL_FLAG_PARSE_ZLIB_HEADER
                | inflate_flags::TINFL_FLAG_HAS_MORE_INPUT
                | inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;
            let (status, used, made) =
                decompress(&mut state, &chunk[..n], &mut out, written, flags);
            written += made;
            at += used as u64;
            match status {
                TINFLStatus::Done => {
                    out.truncate(written);
                    return (written == size).then_some(out);
                }
                TINFLStatus::NeedsMoreInput if used > 0 || made > 0 => {}
                _ => return None,
            }
        }
    }
}

/// git's offset encoding (a pack's delta offsets, the index's version-4 path prefixes): seven
/// bits a byte, each continuation adding one so that no value has two spellings.
pub(crate) fn offset_varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut byte = *bytes.first()?;
    let mut value = u64::from(byte & 0x7f);
    let mut i = 1;
    while byte & 0x80 != 0 {
        byte = *bytes.get(i)?;
        value = value.checked_add(1)?.checked_mul(128)? | u64::from(byte & 0x7f);
        i += 1;
    }
    Some((value, i))
}

/// A delta's little-endian size: seven bits a byte, low bits first.
fn size_varint(bytes: &[u8], at: &mut usize) -> Option<usize> {
    let mut value = 0usize;
    let mut shift = 0;
    loop {
        let byte = *bytes.get(*at)?;
        *at += 1;
        if shift > 56 {
            return None;
        }
        value |= usize::from(byte & 0x7f) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
}

/// `base` rebuilt by `delta`: copies from the base and inserted bytes, checked against both
/// sizes the delta states.
pub(crate) fn apply_delta(base: &[u8], delta: &[u8]) -> Option<Vec<u8>> {
    let mut at = 0;
    if size_varint(delta, &mut at)? != base.len() {
        return None;
    }
    let size = size_varint(delta, &mut at)?;
    if size > MAX_OBJECT {
        return None;
    }
    let mut out = Vec::with_capacity(size);
    while at < delta.len() {
        let op = delta[at];
        at += 1;
        if op & 0x80 != 0 {
            let mut word = |bits: std::ops::Range<u8>| -> Option<usize> {
                let mut v = 0usize;
                for (i, bit) in bits.enumerate() {
                    if op & (1 << bit) != 0 {
                        v |= usize::from(*delta.get(at)?) << (8 * i);
                        at += 1;
                    }
                }
                Some(v)
            };
            let from = word(0..4)?;
            let len = match word(4..7)? {
                0 => 0x10000,
                n => n,
            };
            out.extend_from_slice(base.get(from..from.checked_add(len)?)?);
        } else if op != 0 {
            let len = usize::from(op);
            out.extend_from_slice(delta.get(at..at + len)?);
            at += len;
        } else {
            return None;
        }
        if out.len() > size {
            return None;
        }
    }
    (out.len() == size).then_some(out)
}

/// The tree a commit records (its first line).
pub(crate) fn commit_tree(body: &[u8]) -> Option<Oid> {
    let hex = body.strip_prefix(b"tree ")?.get(..2 * OID)?;
    parse_hex(hex)
}

/// A 40-digit hex id.
pub(crate) fn parse_hex(hex: &[u8]) -> Option<Oid> {
    if hex.len() != 2 * OID {
        return None;
    }
    let mut oid = [0u8; OID];
    for (i, pair) in hex.chunks(2).enumerate() {
        let digit = |c: u8| (c as char).to_digit(16);
        oid[i] = u8::try_from(digit(pair[0])? * 16 + digit(pair[1])?).ok()?;
    }
    Some(oid)
}

/// One entry of a tree.
pub(crate) struct Entry<'a> {
    pub name: &'a [u8],
    pub oid: Oid,
    /// A subtree (mode 40000), descended into; anything else (a file, a link, a submodule's
    /// commit) is a path git keeps.
    pub is_tree: bool,
}

/// A tree's entries, `None` when it is malformed.
pub(crate) fn tree_entries(body: &[u8]) -> Option<Vec<Entry<'_>>> {
    let mut entries = Vec::new();
    let mut rest = body;
    while !rest.is_empty() {
        let space = memchr::memchr(b' ', rest)?;
        let mode = &rest[..space];
        let nul = space + 1 + memchr::memchr(0, &rest[space + 1..])?;
        let name = &rest[space + 1..nul];
        let oid: Oid = rest.get(nul + 1..nul + 1 + OID)?.try_into().ok()?;
        if name.is_empty() || mode.is_empty() || !mode.iter().all(u8::is_ascii_digit) {
            return None;
        }
        entries.push(Entry {
            name,
            oid,
            is_tree: mode == b"40000",
        });
        rest = &rest[nul + 1 + OID..];
    }
    Some(entries)
}

/// A file of the object store, opened as a project's files are (`fsutil::open_in`).
fn open(work: &Path, path: &Path) -> Option<File> {
    crate::fsutil::open_in(work, path, crate::fsutil::Access::Read).ok()
}

fn be32(b: &[u8]) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(..4)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_delta_copies_and_inserts() {
        let base = b"hello, world";
        // Sizes 12 → 11; copy 7 bytes from 0 ("hello, "), insert "git!".
        let delta = [12, 11, 0x80 | 0x10, 7, 4, b'g', b'i', b't', b'!'];
        assert_eq!(apply_delta(base, &delta).unwrap(), b"hello, git!");
        // A wrong base size, a copy past the base's end and the reserved op are refused.
        assert!(apply_delta(b"short", &delta).is_none());
        assert!(apply_delta(base, &[12, 20, 0x80 | 0x01 | 0x10, 8, 20]).is_none());
        assert!(apply_delta(base, &[12, 1, 0]).is_none());
    }

    #[test]
    fn the_offset_encoding_has_one_spelling_per_value() {
        assert_eq!(offset_varint(&[0x05]), Some((5, 1)));
        assert_eq!(offset_varint(&[0x80, 0x00]), Some((128, 2)));
        assert_eq!(offset_varint(&[0x81, 0x7f]), Some((383, 2)));
        assert_eq!(offset_varint(&[0x80]), None);
    }

    #[test]
    fn a_tree_names_its_entries_and_a_torn_one_is_refused() {
        let mut body = b"100644 a.txt\0".to_vec();
        body.extend([1u8; OID]);
        body.extend(b"40000 dir\0");
        body.extend([2u8; OID]);
        let entries = tree_entries(&body).unwrap();
        assert_eq!(entries.len(), 2);
        assert!(!entries[0].is_tree && entries[1].is_tree);
        assert_eq!(entries[1].name, b"dir");
        for cut in 1..body.len() {
            if cut != 13 + OID {
                assert!(tree_entries(&body[..cut]).is_none(), "cut at {cut}");
            }
        }
    }

    proptest! {
        #[test]
        fn no_delta_or_tree_makes_it_panic(base in prop::collection::vec(any::<u8>(), 0..64),
                                           delta in prop::collection::vec(any::<u8>(), 0..64)) {
            let _ = apply_delta(&base, &delta);
            let _ = tree_entries(&delta);
            let _ = commit_tree(&delta);
            let _ = offset_varint(&delta);
        }
    }
}
