//! The anchored head: what makes a rewritten history evident, not just re-chainable.
//!
//! The hash chain alone proves nothing to someone who can write the stream: a script can drop
//! records, recompute every `prev` and seal, and the chain is intact again. The anchor is a
//! small file, `stream/pulses.anchor`, naming the last record the writer appended (its seal and
//! the byte where it ends), under an HMAC with the person's key (`~/.secrets/trail.key`, see
//! [`crate::secrets::key`]). Because every seal covers the `prev` before it, the anchored seal
//! commits to the whole history up to it: a rewrite of any earlier record changes the seal of
//! every later one, so the anchored seal is no longer found where the anchor says. Forging a
//! new anchor needs the key.
//!
//! Format: two 512-byte slots, each one line padded with spaces:
//! `trail-anchor v1 seq=N end=BYTES head=SEAL since=SEAL|- mac=HMAC`. A writer writes the slot
//! the newest anchor is *not* in (`seq % 2`), so the newest valid slot survives whatever
//! happens to the one being written; readers take the valid slot with the highest `seq`.
//! `since` is the record anchoring began after (`-` when it began with the first record).
//!
//! The writer, under the stream lock, after its records are durable (for a group of writers,
//! the one whose fsync made them durable: see [`super::group`]):
//!
//! 1. Reads both slots and keeps the newest that verifies under the key.
//! 2. Decides whether the stream still continues from it. The usual case costs a comparison:
//!    the anchor names the tail this writer found when it took the lock. Otherwise (the records
//!    of a group written by other writers, an earlier writer crashed between its fsync and its
//!    anchor, or a rotation moved the head into an archive) it reads the records after the
//!    anchored one and requires each to be sealed and chained up to that tail. An anchor that
//!    already names a later record of the live stream is left as it is. If the stream does not continue from the anchor, the anchor is
//!    left as it is: it is the evidence `trail verify` reports, and advancing it would launder a
//!    rewrite.
//! 3. Writes the new head (`seq + 1`) into the other slot. No fsync: see below.
//!
//! With no anchor file at all (a new stream, a stream written before anchors existed, or an
//! anchor someone deleted) the writer starts one over the stream as it stands and records where
//! in `since`, which `verify` reports as a note ever after: history before that point was
//! anchored as found, not as written.
//!
//! Crashes never read as tampering:
//! - The anchor is written only after the records it names are fsynced, so it never names a
//!   record that a crash could lose or a torn-tail repair could cut.
//! - A writer that dies between its fsync and its anchor leaves the anchor behind the stream;
//!   `verify` accepts an anchor that is behind as long as every record after it is sealed and
//!   chained, and reports how many are not anchored yet; the next append anchors them (step 2).
//! - The anchor is not fsynced (that would be a second disk flush per record). After a power
//!   loss it may be behind by more than one append; that is the same case as above. A slot cut
//!   in half by the loss fails its MAC and the other slot is used. A 512-byte slot is written in
//!   one sector, so in practice it is old or new, never half.
//! - `verify` reads the anchor under a shared lock on the stream, so it never sees a slot
//!   half-written by a live writer.
//!
//! Rollback: the anchor proves the history up to it was not rewritten, not that it is the
//! latest anchor. So each writer also keeps the highest `seq` it anchored next to the key
//! ([`seen_path`], in the secret store, which the agent's confinement hides; written in place and
//! not flushed, like the anchor): `verify` fails a
//! ledger whose anchor is older than that, or missing or blank after one was written (a saved
//! `~/.ledger` put back, an empty stream with an empty anchor). Where commands are not
//! confined, whoever can write the secret store can lower it too (SECURITY.md).

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::archive;
use super::frame::{self, Digest, Frame, Seal, parse_digest};
use super::reader::{ForwardReader, ReverseReader};
use crate::fsutil;
use crate::secrets::key::Key;
use trail_base::file_error::{At, FileError};

/// The anchor's file name in `stream/`.
pub const FILE_NAME: &str = "pulses.anchor";

const SLOT: usize = 512;
const MAGIC: &str = "trail-anchor v1";

/// One anchored head.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Anchor {
    pub seq: u64,
    /// Where the anchored record ends in its segment.
    pub end: u64,
    /// The anchored record's seal.
    #[serde(serialize_with = "hex_digest")]
    pub head: Digest,
    /// The record anchoring began after, when the stream already had records then.
    #[serde(serialize_with = "hex_opt")]
    pub since: Option<Digest>,
}

fn hex_digest<S: serde::Serializer>(d: &Digest, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&frame::hex(d))
}

#[expect(clippy::ref_option, reason = "serde's serialize_with passes &Option")]
fn hex_opt<S: serde::Serializer>(d: &Option<Digest>, s: S) -> Result<S::Ok, S::Error> {
    match d {
        Some(d) => s.serialize_str(&frame::hex(d)),
        None => s.serialize_none(),
    }
}

/// What the anchor file says, read with the key.
#[derive(Clone, Debug)]
pub enum Found {
    /// No anchor file, or one with nothing in it.
    Missing,
    /// The newest slot that verifies.
    Valid(Anchor),
    /// Something is written there, and none of it verifies under the key.
    Forged,
    /// The key cannot be read, so the anchor cannot be checked.
    NoKey(String),
}

/// Why a writer left the anchor where it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skipped {
    /// The stream does not continue from the anchored head.
    Diverged,
    /// The anchor file holds slots that do not verify.
    Forged,
    /// The key or the anchor file could not be used.
    Unavailable(String),
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skipped::Diverged => f.write_str(
                "the pulse stream does not continue from its anchored head (it was rewritten or \
                 cut); the anchor was left as evidence",
            ),
            Skipped::Forged => f.write_str(
                "the pulse stream's anchor does not verify under your key; it was left as \
                 evidence",
            ),
            Skipped::Unavailable(e) => write!(f, "the pulse stream could not be anchored: {e}"),
        }
    }
}

/// A writer's open anchor file and key, kept between appends.
pub(crate) struct AnchorWriter {
    key: Key,
    file: File,
    id: (u64, u64),
}

/// The tail a writer found when it took the lock: what the anchor should name already.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Base {
    pub digest: Option<Digest>,
    pub len: u64,
}

enum Slot {
    Empty,
    Valid(Anchor),
    Invalid,
}

fn message(a: &Anchor) -> String {
    format!(
        "{MAGIC} seq={} end={} head={} since={}",
        a.seq,
        a.end,
        frame::hex(&a.head),
        a.since
            .as_ref()
            .map_or_else(|| "-".to_string(), |d| frame::hex(d))
    )
}

fn render(a: &Anchor, key: &Key) -> Vec<u8> {
    let msg = message(a);
    let mut line = format!("{msg} mac={}", key.mac(msg.as_bytes())).into_bytes();
    line.resize(SLOT - 1, b' ');
    line.push(b'\n');
    line
}

fn parse_slot(bytes: &[u8], key: &Key) -> Slot {
    let text = bytes
        .iter()
        .rposition(|&b| !matches!(b, b' ' | b'\n' | 0))
        .map_or(&[][..], |i| &bytes[..=i]);
    if text.is_empty() {
        return Slot::Empty;
    }
    let Ok(text) = std::str::from_utf8(text) else {
        return Slot::Invalid;
    };
    let Some((msg, mac)) = text.rsplit_once(" mac=") else {
        return Slot::Invalid;
    };
    if !key.verify(msg.as_bytes(), mac) {
        return Slot::Invalid;
    }
    let Some(rest) = msg.strip_prefix(MAGIC) else {
        return Slot::Invalid;
    };
    let (mut seq, mut end, mut head, mut since) = (None, None, None, None);
    for field in rest.split_whitespace() {
        match field.split_once('=') {
            Some(("seq", v)) => seq = v.parse().ok(),
            Some(("end", v)) => end = v.parse().ok(),
            Some(("head", v)) => head = parse_digest(v),
            Some(("since", "-")) => since = Some(None),
            Some(("since", v)) => since = parse_digest(v).map(Some),
            _ => return Slot::Invalid,
        }
    }
    match (seq, end, head, since) {
        (Some(seq), Some(end), Some(head), Some(since)) => Slot::Valid(Anchor {
            seq,
            end,
            head,
            since,
        }),
        _ => Slot::Invalid,
    }
}

/// The newest valid slot of the file's first `2 * SLOT` bytes.
fn read_slots(file: &File, key: &Key) -> io::Result<Found> {
    let mut buf = vec![0u8; 2 * SLOT];
    let mut n = 0;
    while n < buf.len() {
        match file.read_at(&mut buf[n..], n as u64)? {
            0 => break,
            k => n += k,
        }
    }
    let mut best: Option<Anchor> = None;
    let mut invalid = false;
    for chunk in buf.chunks(SLOT) {
        match parse_slot(chunk, key) {
            Slot::Empty => {}
            Slot::Invalid => invalid = true,
            Slot::Valid(a) => {
                if best.as_ref().is_none_or(|b| a.seq > b.seq) {
                    best = Some(a);
                }
            }
        }
    }
    Ok(match best {
        Some(a) => Found::Valid(a),
        None if invalid => Found::Forged,
        None => Found::Missing,
    })
}

/// Open without following a symlink or blocking on a FIFO, and only a regular file: a planted
/// link must not make the writer overwrite what it points at.
fn open_anchor(path: &Path, create: bool) -> io::Result<File> {
    let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
    let f = OpenOptions::new()
        .read(true)
        .write(create)
        .create(create)
        .truncate(false)
        .mode(0o600)
        .custom_flags(flags.bits().cast_signed())
        .open(path)?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not a regular file", path.display()),
        ));
    }
    Ok(f)
}

/// Read the anchor at `path` for `verify`, under a shared lock on the stream (`lock`) so no
/// writer is halfway through a slot. The key is only read from `secrets_dir`, never made.
pub(crate) fn read(lock: &Path, path: &Path, secrets_dir: &Path) -> Result<Found, FileError> {
    let _shared = match File::open(lock) {
        Ok(f) => {
            f.lock_shared().at("lock", lock)?;
            Some(f)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(FileError::new("open", lock, e)),
    };
    let file = match open_anchor(path, false) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Found::Missing),
        Err(e) => return Err(FileError::new("open", path, e)),
    };
    let key = match Key::load(secrets_dir) {
        Ok(Some(k)) => k,
        Ok(None) => {
            return Ok(Found::NoKey(format!(
                "{} does not exist",
                crate::secrets::key::path(secrets_dir).display()
            )));
        }
        Err(e) => return Ok(Found::NoKey(e.to_string())),
    };
    read_slots(&file, &key).at("read", path)
}

/// The files a writer's anchor is kept with.
pub(crate) struct Site<'a> {
    /// The anchor file.
    pub anchor: PathBuf,
    /// The live stream and the archive directory, to check that the stream continues from
    /// the anchored head.
    pub stream: PathBuf,
    pub archive_dir: PathBuf,
    /// Where the key is.
    pub secrets_dir: &'a Path,
}

impl AnchorWriter {
    /// Name `head` (a record ending at `end` of the live stream) in the anchor, if the stream
    /// continues from the current anchor through `base` (steps 1 to 3 of the module docs).
    /// `slot` keeps the writer's open anchor between calls. Called under the stream lock, after
    /// the records are durable.
    pub(crate) fn advance(
        slot: &mut Option<AnchorWriter>,
        site: &Site<'_>,
        base: Base,
        head: Digest,
        end: u64,
    ) -> Result<(), Skipped> {
        let unavailable = |e: io::Error| Skipped::Unavailable(e.to_string());
        let w = AnchorWriter::current(slot, site).map_err(unavailable)?;
        let seen = seen(site.secrets_dir, &site.anchor);
        let since = match read_slots(&w.file, &w.key).map_err(unavailable)? {
            // Older than one already written: a copy put back. Left as it is, as evidence.
            Found::Valid(a) if a.seq < seen => return Err(Skipped::Diverged),
            Found::Valid(a) => {
                if a.end >= end && a.end > base.len && names_live(&a, site) {
                    // Already at or past `head`: another writer anchored a later durable point
                    // first (group commit, recovery). Nothing to do; moving back would be wrong.
                    return Ok(());
                }
                let named = Some(a.head) == base.digest && a.end == base.len;
                if !named && !follows(&a, base, site) {
                    return Err(Skipped::Diverged);
                }
                Some(a)
            }
            Found::Forged => return Err(Skipped::Forged),
            Found::Missing | Found::NoKey(_) => None,
        };
        let next = match since {
            Some(a) => Anchor {
                seq: a.seq + 1,
                end,
                head,
                since: a.since,
            },
            // Numbering goes on from the highest ever written, so a restarted anchor is never
            // mistaken for an older copy (its `since` still says where it restarted).
            None => Anchor {
                seq: seen + 1,
                end,
                head,
                // Anchoring starts over what is there: say so forever after.
                since: if base.len == 0 { None } else { base.digest },
            },
        };
        let slot = (next.seq % 2) * SLOT as u64;
        w.file
            .write_all_at(&render(&next, &w.key), slot)
            .map_err(unavailable)?;
        if next.seq > seen {
            note_seen(site.secrets_dir, &site.anchor, next.seq);
        }
        Ok(())
    }

    /// The writer's anchor file (still the one at the path) and key.
    fn current<'s>(
        slot: &'s mut Option<AnchorWriter>,
        site: &Site<'_>,
    ) -> io::Result<&'s AnchorWriter> {
        let current = fsutil::identity(&site.anchor).ok();
        // Replaced or removed since (by a person, or someone else): open what is there now.
        if slot.as_ref().is_none_or(|w| Some(w.id) != current) {
            let key = match slot.take() {
                Some(w) => w.key,
                None => Key::load_or_create(site.secrets_dir)?,
            };
            let file = open_anchor(&site.anchor, true)?;
            let id = fsutil::identity_of(&file)?;
            *slot = Some(AnchorWriter { key, file, id });
        }
        slot.as_ref()
            .ok_or_else(|| io::Error::other("anchor writer missing"))
    }
}

/// Where the highest `seq` ever anchored for the ledger whose anchor is `anchor` is kept: in
/// the secret store, one small file per ledger (named by a digest of its anchor's path).
pub fn seen_path(secrets_dir: &Path, anchor: &Path) -> PathBuf {
    use sha2::Digest as _;
    let canonical = anchor
        .parent()
        .and_then(|d| d.canonicalize().ok())
        .map_or_else(|| anchor.to_path_buf(), |d| d.join(FILE_NAME));
    let digest = sha2::Sha256::digest(canonical.as_os_str().as_encoded_bytes());
    let name = crate::text::hex(&digest[..8]);
    secrets_dir.join(format!("trail.anchored.{name}"))
}

/// The highest `seq` anchored so far (0: none recorded).
pub fn seen(secrets_dir: &Path, anchor: &Path) -> u64 {
    fsutil::read_text_capped(&seen_path(secrets_dir, anchor), 64)
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0)
}

/// Record `seq` as the highest anchored (the caller only ever raises it: a writer never
/// continues from a restored older anchor, which stays as evidence). Best effort: the anchor itself is
/// written; a secret store that cannot be written here costs only this check.
///
/// Written in place as a fixed-width number, and not flushed, as the anchor is: a rename and two
/// flushes here cost more than the rest of a hook's append (1.1 ms of a 4 ms PostToolUse), and a
/// flushed count could outlive an unflushed anchor through a power loss, which `verify` would
/// then take for a copy put back. The number is 21 bytes at offset 0, inside one sector: old or
/// new, never half (an older shorter count is overwritten whole).
fn note_seen(secrets_dir: &Path, anchor: &Path, seq: u64) {
    let path = seen_path(secrets_dir, anchor);
    let _ = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits().cast_signed())
        .open(&path)
        .and_then(|f| f.write_all_at(format!("{seq:020}\n").as_bytes(), 0));
}

/// Whether every record after the anchored one is sealed and chained, up to `base`: in the
/// live stream, or from the newest archive into the live stream (a rotation in between).
fn follows(a: &Anchor, base: Base, site: &Site<'_>) -> bool {
    let Ok(Some(live)) = super::reader::open_if_exists(&site.stream) else {
        return false;
    };
    if let Some(d) = chained_from(&live, a.head, a.end, base.len)
        && Some(d) == base.digest
    {
        return true;
    }
    let Some(archive) = archive::segments(&site.archive_dir)
        .ok()
        .and_then(|v| v.last().cloned())
    else {
        return false;
    };
    let Ok(Some(old)) = super::reader::open_if_exists(&archive) else {
        return false;
    };
    let Ok(old_len) = fsutil::size_of(&old) else {
        return false;
    };
    let Some(last) = chained_from(&old, a.head, a.end, old_len) else {
        return false;
    };
    chained_after(&live, Some(last), 0, base.len) == Some(base.digest)
}

/// Whether the live stream holds the anchored record where the anchor says.
fn names_live(a: &Anchor, site: &Site<'_>) -> bool {
    let Ok(Some(live)) = super::reader::open_if_exists(&site.stream) else {
        return false;
    };
    chained_from(&live, a.head, a.end, a.end).is_some()
}

/// When the record ending at `end` has seal `head`, the seal the chain reaches at `to`.
fn chained_from(file: &File, head: Digest, end: u64, to: u64) -> Option<Digest> {
    if end > to {
        return None;
    }
    let mut rr = ReverseReader::new(file, end);
    let (off, seg) = rr.next_segment().ok()??;
    let f = Frame::split(off, &seg);
    if f.end() != end || f.seal != Seal::Valid || f.chain_digest() != head {
        return None;
    }
    chained_after(file, Some(head), end, to).flatten()
}

/// Walk `[from, to)`: every record sealed and naming the one before. Returns the last seal
/// (`Some(prev)` unchanged when there is no record), or `None` when the chain does not hold.
fn chained_after(
    file: &File,
    mut prev: Option<Digest>,
    from: u64,
    to: u64,
) -> Option<Option<Digest>> {
    let mut fr = ForwardReader::new(file, from, to);
    while let Some((off, seg)) = fr.next_segment().ok()? {
        let f = Frame::split(off, &seg);
        if f.seal != Seal::Valid || !f.trailer_is_blank() {
            return None;
        }
        let r = f.parse().ok()?;
        if r.prev != Some(frame::hex(&prev.unwrap_or([0; 32]))) {
            return None;
        }
        prev = Some(f.chain_digest());
    }
    if !fr.preamble.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    Some(prev)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Key {
        let dir = tempfile::tempdir().unwrap();
        Key::load_or_create(dir.path()).unwrap()
    }

    #[test]
    fn a_slot_round_trips_and_any_change_breaks_its_mac() {
        let k = key();
        let a = Anchor {
            seq: 7,
            end: 4096,
            head: [0xab; 32],
            since: None,
        };
        let bytes = render(&a, &k);
        assert_eq!(bytes.len(), SLOT);
        assert!(matches!(parse_slot(&bytes, &k), Slot::Valid(b) if b == a));
        let text = String::from_utf8(bytes.clone()).unwrap();
        let forged = text.replacen("end=4096", "end=4000", 1);
        assert!(matches!(parse_slot(forged.as_bytes(), &k), Slot::Invalid));
        assert!(matches!(parse_slot(&bytes, &key()), Slot::Invalid));
        assert!(matches!(parse_slot(&[0u8; SLOT], &k), Slot::Empty));
        assert!(matches!(parse_slot(b"garbage", &k), Slot::Invalid));
        // Half a slot (a torn write) never verifies.
        let mut torn = bytes.clone();
        torn[40..].fill(b' ');
        assert!(matches!(parse_slot(&torn, &k), Slot::Invalid));
    }
}
