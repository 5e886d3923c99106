//! git's index (`.git/index`) read from its bytes: the paths it holds.
//!
//! Versions 2, 3 and 4 (version 4 writes each path as a cut of the one before plus a suffix).
//! A split index (the `link` extension) keeps its entries in another file and a sparse index
//! (`sdir`) folds whole directories into one entry: both are `None`, and git is asked. The
//! trailing checksum is not verified: a torn index is read as far as it goes, and one that
//! does not hold together is `None`.

/// An entry's fixed part before its flags: times, device, inode, mode, ids, size and object id.
const FIXED: usize = 40 + super::objects::OID;
/// The flag that says a version-3 entry has a second flags word.
const EXTENDED: u16 = 0x4000;
/// A path too long for the flags' twelve bits is NUL-terminated instead.
const LONG_NAME: u16 = 0xfff;
/// A directory entry's mode: only a sparse index has them.
const DIRECTORY: u32 = 0o040_000;

/// The paths the index holds, in its order (sorted; a conflicted path once per stage).
pub(crate) fn paths(bytes: &[u8]) -> Option<Vec<Vec<u8>>> {
    if bytes.get(..4)? != b"DIRC" {
        return None;
    }
    let version = be32(bytes, 4)?;
    if !(2..=4).contains(&version) {
        return None;
    }
    let count = usize::try_from(be32(bytes, 8)?).ok()?;
    // Every entry takes at least its fixed part: a count the file cannot hold is a lie.
    if count > bytes.len() / (FIXED + 2) {
        return None;
    }
    let mut paths: Vec<Vec<u8>> = Vec::with_capacity(count);
    let mut at = 12;
    for _ in 0..count {
        let start = at;
        let mode = be32(bytes, start + 24)?;
        let flags = u16::from_be_bytes(
            bytes
                .get(start + FIXED..start + FIXED + 2)?
                .try_into()
                .ok()?,
        );
        at = start + FIXED + 2;
        if flags & EXTENDED != 0 {
            if version < 3 {
                return None;
            }
            at += 2;
        }
        if mode & 0o170_000 == DIRECTORY {
            return None;
        }
        let path = if version == 4 {
            let (cut, used) = super::objects::offset_varint(bytes.get(at..)?)?;
            at += used;
            let before = paths.last().map_or(&[][..], Vec::as_slice);
            let keep = before.len().checked_sub(usize::try_from(cut).ok()?)?;
            let end = at + memchr::memchr(0, bytes.get(at..)?)?;
            let mut path = before[..keep].to_vec();
            path.extend_from_slice(&bytes[at..end]);
            at = end + 1;
            path
        } else {
            let len = usize::from(flags & LONG_NAME);
            let end = if len < usize::from(LONG_NAME) {
                at + len
            } else {
                at + memchr::memchr(0, bytes.get(at..)?)?
            };
            let path = bytes.get(at..end)?.to_vec();
            // One to eight NULs pad the entry to a multiple of eight bytes.
            at = start + ((end - start + 8) & !7);
            if bytes.get(end..at)?.iter().any(|&b| b != 0) {
                return None;
            }
            path
        };
        if path.is_empty() {
            return None;
        }
        paths.push(path);
    }
    // Extensions until the checksum: the two that change what the entries mean refuse.
    let body_end = bytes.len().checked_sub(super::objects::OID)?;
    while at + 8 <= body_end {
        let sig = &bytes[at..at + 4];
        if sig == b"link" || sig == b"sdir" {
            return None;
        }
        let size = usize::try_from(be32(bytes, at + 4)?).ok()?;
        at = at.checked_add(8 + size)?;
    }
    Some(paths)
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A version-2 entry for `path`, padded as git pads it.
    fn entry(path: &[u8]) -> Vec<u8> {
        let mut e = vec![0u8; FIXED + 2];
        e[24..28].copy_from_slice(&0o100_644_u32.to_be_bytes());
        let flags = u16::try_from(path.len().min(0xfff)).unwrap();
        e[FIXED..].copy_from_slice(&flags.to_be_bytes());
        e.extend_from_slice(path);
        let padded = (e.len() + 8) & !7;
        e.resize(padded, 0);
        e
    }

    fn index(paths: &[&[u8]]) -> Vec<u8> {
        let mut b = b"DIRC".to_vec();
        b.extend(2u32.to_be_bytes());
        b.extend(u32::try_from(paths.len()).unwrap().to_be_bytes());
        for p in paths {
            b.extend(entry(p));
        }
        b.extend([0u8; 20]);
        b
    }

    #[test]
    fn a_version_two_index_names_its_paths() {
        let b = index(&[b"a.txt", b"dir/b.md", b"z"]);
        assert_eq!(paths(&b).unwrap(), [&b"a.txt"[..], b"dir/b.md", b"z"]);
        let long = vec![b'x'; 5000];
        assert_eq!(paths(&index(&[&long])).unwrap(), [long]);
    }

    #[test]
    fn a_torn_index_is_refused_at_every_offset_before_its_entries_end() {
        let b = index(&[b"a.txt", b"dir/b.md"]);
        let entries_end = b.len() - 20;
        for cut in 0..entries_end {
            assert!(paths(&b[..cut]).is_none(), "cut at {cut}");
        }
    }

    #[test]
    fn a_split_or_sparse_index_is_left_to_git() {
        let mut b = index(&[b"a"]);
        let sum = b.split_off(b.len() - 20);
        b.extend(b"link");
        b.extend(0u32.to_be_bytes());
        b.extend(sum);
        assert!(paths(&b).is_none());
    }

    proptest! {
        #[test]
        fn no_bytes_make_it_panic(tail in prop::collection::vec(any::<u8>(), 0..400),
                                  version in 2u32..5, count in 0u32..8) {
            let mut b = b"DIRC".to_vec();
            b.extend(version.to_be_bytes());
            b.extend(count.to_be_bytes());
            b.extend(tail);
            let _ = paths(&b);
        }
    }
}
