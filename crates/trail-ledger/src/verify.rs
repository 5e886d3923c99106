//! Verification: every record of every segment, the seals and the hash chain, and the anchored
//! head (see [`super::anchor`]): the chain shows a record changed in place, the anchor shows a
//! history rewritten whole (records dropped, every `prev` and seal recomputed) or cut short.

use std::io;

use serde::Serialize;

use super::anchor::{self, Anchor, Found};
use super::error::{LedgerError, Result};
use super::frame::{self, Digest, Frame, Seal};
use super::handle::{Ledger, STREAM_FILE};
use super::imported::{self, Join};
use super::intent;
use super::reader::{self, ForwardReader, ReadAt};
use crate::time::Ts;

/// What is wrong with a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Problem {
    /// The last record of the stream is incomplete (a crash mid-write); the next append repairs it.
    Torn,
    /// Bytes that are not a record, or a record that does not parse.
    Corrupt,
    /// A seal that does not match its record: the record was changed after it was written.
    Tampered,
    /// `prev` does not name the record before: a record was removed, inserted or reordered.
    ChainBroken,
    /// A timestamp not after the one before it.
    OutOfOrder,
    /// A record without a seal in a sealed stream.
    Unsealed,
    /// The anchored seal is not where the anchor says: records up to it were rewritten.
    Rewritten,
    /// The stream ends before the anchored head: records were cut off or removed.
    Truncated,
    /// A stream with records and no anchor (or no key to check it with).
    Unanchored,
    /// An anchor that does not verify under the person's key.
    AnchorForged,
    /// An anchor older than one already written, or none after one was: an older copy of the
    /// ledger was put back.
    RolledBack,
    /// An imported segment no record of the stream joins (see `ledger::imported`): nothing
    /// vouches for its records.
    Unjoined,
}

#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub file: String,
    pub offset: u64,
    pub problem: Problem,
    pub ts: Option<String>,
    pub detail: String,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    pub segments: usize,
    pub records: usize,
    pub sealed: usize,
    pub findings: Vec<Finding>,
    /// Intent files of writers that died before appending; the next write replays them.
    pub pending_intents: usize,
    pub anchor: AnchorReport,
    /// Imported segments checked (each its own chain, joined to this one).
    pub imported: usize,
    /// Imported batches an interrupted import left; the next import finishes them.
    pub pending_imports: usize,
    /// Other machines' replicas checked with this report (`trail sync`; see
    /// [`super::replica`]).
    pub machines: usize,
    /// Records of the local-only ledger (projects that opted out of sync; see
    /// [`super::local`]), checked with its own anchor.
    pub local_records: usize,
}

impl Report {
    /// Fold in the local-only ledger's report, its findings named under `local/`.
    pub fn add_local(&mut self, other: Report) {
        self.local_records += other.records;
        self.pending_intents += other.pending_intents;
        self.fold(super::local::LOCAL_DIR, other);
    }

    /// Fold in machine `id`'s replica report, its findings named under `machines/<id>/`.
    pub fn add_machine(&mut self, id: &str, other: Report) {
        self.machines += 1;
        self.imported += other.imported;
        self.fold(&format!("{}/{id}", super::replica::MACHINES_DIR), other);
    }

    /// Another ledger's counts and findings, its files named under `dir`.
    fn fold(&mut self, dir: &str, other: Report) {
        self.segments += other.segments;
        self.records += other.records;
        self.sealed += other.sealed;
        self.findings
            .extend(other.findings.into_iter().map(|mut f| {
                f.file = format!("{dir}/{}", f.file);
                f
            }));
    }
}

/// What the anchor says and how the stream compares.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AnchorReport {
    /// `anchored`, `missing`, `forged`, `no-key`, `plain` (records with no seals, the plain
    /// spec format, and no anchor ever written), or `none` (an empty stream without one).
    pub status: &'static str,
    pub anchor: Option<Anchor>,
    /// Records after the anchored head, sealed and chained but not anchored yet (a writer
    /// stopped between its fsync and its anchor; the next append anchors them).
    pub not_yet_anchored: usize,
    /// Records the stream already held when anchoring began (anchored as found).
    pub adopted: Option<usize>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.findings.is_empty()
    }
}

/// The chain as the scan has followed it so far, across segments.
struct Chain {
    prev: Option<Digest>,
    first_ts: Option<Ts>,
    last_ts: Option<Ts>,
    sealed_seen: bool,
    /// The anchored seal and `since`, looked for as the scan goes.
    head: Option<Digest>,
    since: Option<Digest>,
    /// Where the anchored seal was found (segment, end offset).
    found: Option<(String, u64)>,
    after: usize,
    since_at: Option<usize>,
    /// The end of the live stream's last complete record.
    live_end: u64,
}

/// One segment as the scan sees it.
pub(crate) struct Segment<'a, R: ReadAt + ?Sized> {
    pub file: &'a R,
    pub len: u64,
    /// Its path under `stream/`, as findings name it.
    pub name: &'a str,
    /// The live stream (the last segment), where an incomplete last record is a tear, not
    /// corruption.
    pub is_live: bool,
}

/// A verification in progress: the chain followed so far and the report it makes.
pub(crate) struct Verifier {
    chain: Chain,
    pub report: Report,
    /// The joins of imported segments met on the way, with the record that made each.
    joins: Vec<(Join, String, u64)>,
}

impl Ledger {
    /// Read every segment (archives, then the stream) as one chain and report each problem.
    /// `progress` is called with (bytes done, bytes total) as the scan goes.
    pub fn verify(&self, progress: &mut dyn FnMut(u64, u64)) -> Result<Report> {
        let anchor_path = self.anchor_path();
        let found = anchor::read(&self.lock_path(), &anchor_path, &self.opts.secrets_dir)?;
        let seen = anchor::seen(&self.opts.secrets_dir, &anchor_path);
        let mut v = Verifier::new(&found);
        self.verify_segments(&mut v, progress)?;
        v.check_anchor(&found, seen);
        v.check_rollback(&found, seen);
        v.report.pending_intents = intent::count(&self.stream_dir());
        self.verify_imported(&mut v)?;
        Ok(v.report)
    }

    /// Each imported segment as a chain of its own, whose last seal must be the one a record of
    /// the stream joined (see `ledger::imported`).
    pub(crate) fn verify_imported(&self, v: &mut Verifier) -> Result<()> {
        let mut joins = std::mem::take(&mut v.joins);
        for path in self.imported_segments()? {
            let bytes = std::fs::read(&path).map_err(LedgerError::io("read", &path))?;
            let name = format!(
                "{}/{}",
                imported::DIR,
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            let mut sub = Verifier::new(&Found::Missing);
            let seg = Segment {
                file: &bytes[..],
                len: bytes.len() as u64,
                name: &name,
                is_live: false,
            };
            sub.segment(&seg, &mut |_| {})
                .map_err(LedgerError::io("read", &path))?;
            let r = &mut v.report;
            r.imported += 1;
            r.records += sub.report.records;
            r.sealed += sub.report.sealed;
            r.findings.append(&mut sub.report.findings);
            let head = sub.chain.prev;
            let (mine, rest): (Vec<_>, Vec<_>) =
                joins.into_iter().partition(|(j, _, _)| j.segment == name);
            joins = rest;
            if mine.is_empty() {
                let detail = "no record of the stream joins this imported segment: nothing \
                              vouches for its records"
                    .into();
                v.find(&name, 0, Problem::Unjoined, None, detail);
                continue;
            }
            for (join, file, offset) in mine {
                if head == Some(join.head) && sub.report.records == join.records {
                    continue;
                }
                let detail = format!(
                    "the segment holds {} record(s) ending in seal {}…; the join at {file} @{offset} \
                     says {} ending in {}…: records were changed, added or removed",
                    sub.report.records,
                    head.map_or_else(|| "(none)".into(), |h| frame::hex(&h)[..12].to_string()),
                    join.records,
                    &frame::hex(&join.head)[..12]
                );
                v.find(&name, 0, Problem::Rewritten, None, detail);
            }
        }
        // Joined segments that are not there: still pending (the next import finishes them),
        // or gone.
        v.report.pending_imports = self.pending_imports()?.len();
        let dir = self.imported_dir();
        for (join, file, offset) in joins {
            let base = join
                .segment
                .strip_prefix(&format!("{}/", imported::DIR))
                .unwrap_or(&join.segment);
            if dir.join(format!("{base}.pending")).exists() {
                continue;
            }
            let detail =
                format!("the imported segment joined by the record at {file} @{offset} is missing");
            v.find(&join.segment, 0, Problem::Truncated, None, detail);
        }
        Ok(())
    }

    /// Scan every segment that exists, oldest first, as one chain.
    pub(crate) fn verify_segments(
        &self,
        v: &mut Verifier,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<()> {
        let segments = self.segments()?;
        let total: u64 = segments
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum();
        let mut done_before = 0;
        for (i, path) in segments.iter().enumerate() {
            let Some(file) = reader::open_if_exists(path).map_err(LedgerError::io("open", path))?
            else {
                continue;
            };
            let len = crate::fsutil::size_of(&file).map_err(LedgerError::io("stat", path))?;
            let name = path
                .strip_prefix(self.stream_dir())
                .unwrap_or(path)
                .display()
                .to_string();
            let segment = Segment {
                file: &file,
                len,
                name: &name,
                is_live: i + 1 == segments.len(),
            };
            v.segment(&segment, &mut |d| progress(done_before + d, total))
                .map_err(LedgerError::io("read", path))?;
            done_before += len;
        }
        Ok(())
    }
}

impl Verifier {
    /// A verification that looks for the head `found` anchors, if any.
    pub(crate) fn new(found: &Found) -> Verifier {
        let anchor = match found {
            Found::Valid(a) => Some(a),
            _ => None,
        };
        Verifier {
            chain: Chain {
                prev: None,
                first_ts: None,
                last_ts: None,
                sealed_seen: false,
                head: anchor.map(|a| a.head),
                since: anchor.and_then(|a| a.since),
                found: None,
                after: 0,
                since_at: None,
                live_end: 0,
            },
            report: Report::default(),
            joins: Vec::new(),
        }
    }

    /// The chain as far as it went: its last seal, first and last times (`None` when it holds
    /// no record).
    pub(crate) fn chain_end(&self) -> Option<(Digest, Ts, Ts)> {
        let c = &self.chain;
        Some((c.prev?, c.first_ts?, c.last_ts?))
    }

    /// Check one segment: the bytes before its first record, then each record in turn.
    /// `progress` is called with the bytes of the segment done so far.
    pub(crate) fn segment<R: ReadAt + ?Sized>(
        &mut self,
        seg: &Segment<'_, R>,
        progress: &mut dyn FnMut(u64),
    ) -> io::Result<()> {
        self.report.segments += 1;
        let mut fr = ForwardReader::new(seg.file, 0, seg.len);
        let mut pending = fr.next_segment()?;
        let pre = std::mem::take(&mut fr.preamble);
        self.check_preamble(seg.name, seg.is_live && pending.is_none(), &pre);
        while let Some((off, bytes)) = pending.take() {
            pending = fr.next_segment()?;
            progress(off + bytes.len() as u64);
            let last_of_live = seg.is_live && pending.is_none();
            self.record(
                seg.name,
                seg.is_live,
                &Frame::split(off, &bytes),
                last_of_live,
            );
        }
        Ok(())
    }

    /// Bytes before the first record: the start of a first record a crash cut short (in an
    /// otherwise empty live stream), blank, or corrupt.
    fn check_preamble(&mut self, name: &str, only_bytes_of_live: bool, pre: &[u8]) {
        let torn_start = only_bytes_of_live && b"---\nschema: ledgerpulse/v1\n".starts_with(pre);
        if torn_start && !pre.is_empty() {
            let detail = format!("{} bytes of an incomplete first record", pre.len());
            self.find(name, 0, Problem::Torn, None, detail);
        } else if !pre.iter().all(u8::is_ascii_whitespace) {
            let detail = format!(
                "{} bytes before the first record are not a record",
                pre.len()
            );
            self.find(name, 0, Problem::Corrupt, None, detail);
        }
    }

    /// One record: its seal, the bytes after it, its place in the chain, and whether it is
    /// the anchored head.
    fn record(&mut self, name: &str, is_live: bool, f: &Frame<'_>, last_of_live: bool) {
        self.report.records += 1;
        let parsed = f.parse();
        let ts = parsed.as_ref().ok().map(|r| r.ts);
        if !self.check_seal(name, f, ts, last_of_live) {
            return;
        }
        self.check_trailer(name, f, last_of_live);
        match &parsed {
            Err(e) => {
                let detail = format!("does not parse: {e}");
                self.find(name, f.offset, Problem::Corrupt, None, detail);
            }
            Ok(r) => {
                self.check_link(name, f.offset, r.prev.as_deref(), r.ts);
                if let Some(j) = Join::of(r) {
                    self.joins.push((j, name.to_string(), f.offset));
                }
            }
        }
        self.follow(name, is_live, f);
    }

    /// Whether the seal matches. Returns false for the torn last record of the live stream,
    /// about which there is nothing more to say.
    fn check_seal(
        &mut self,
        name: &str,
        f: &Frame<'_>,
        ts: Option<Ts>,
        last_of_live: bool,
    ) -> bool {
        let off = f.offset;
        match f.seal {
            Seal::Valid => self.report.sealed += 1,
            Seal::Mismatch => {
                let detail = "the seal does not match the record's bytes".into();
                self.find(name, off, Problem::Tampered, ts, detail);
            }
            Seal::Missing => {
                let sealed_stream = f.expects_seal() || self.chain.sealed_seen;
                if sealed_stream && last_of_live {
                    let detail = "incomplete last record (no seal); the next append sets it \
                                  aside under archive/"
                        .into();
                    self.find(name, off, Problem::Torn, ts, detail);
                    return false;
                }
                if sealed_stream {
                    let detail = "a record without a seal in a sealed stream".into();
                    self.find(name, off, Problem::Unsealed, ts, detail);
                }
            }
        }
        if f.seal != Seal::Missing {
            self.chain.sealed_seen = true;
        }
        true
    }

    /// Bytes between the seal and the next record: blank, a tear at the live stream's end, or
    /// corrupt.
    fn check_trailer(&mut self, name: &str, f: &Frame<'_>, last_of_live: bool) {
        if f.trailer_is_blank() {
            return;
        }
        let n = f.trailer.len();
        if last_of_live {
            let detail = format!(
                "{n} bytes of an incomplete record after the last seal; the next append sets \
                 them aside under archive/"
            );
            self.find(name, f.end(), Problem::Torn, None, detail);
        } else {
            let detail = format!("{n} bytes after the record's seal are not a record");
            self.find(name, f.end(), Problem::Corrupt, None, detail);
        }
    }

    /// `prev` names the record before, and the time moves forward.
    fn check_link(&mut self, name: &str, off: u64, prev: Option<&str>, ts: Ts) {
        if let Some(p) = prev {
            let want = frame::hex(&self.chain.prev.unwrap_or([0; 32]));
            if p != want {
                let detail = format!(
                    "prev is {}…, the record before has digest {}…",
                    &p[..12],
                    &want[..12]
                );
                self.find(name, off, Problem::ChainBroken, Some(ts), detail);
            }
        }
        if let Some(last_ts) = self.chain.last_ts
            && ts <= last_ts
        {
            let detail = format!("not after the previous record ({last_ts})");
            self.find(name, off, Problem::OutOfOrder, Some(ts), detail);
        }
        self.chain.first_ts.get_or_insert(ts);
        self.chain.last_ts = Some(ts);
    }

    /// Move the chain past this record, noting the anchored head and `since` when they pass.
    fn follow(&mut self, name: &str, is_live: bool, f: &Frame<'_>) {
        let chain = &mut self.chain;
        let d = f.chain_digest();
        chain.prev = Some(d);
        if chain.found.is_some() {
            chain.after += 1;
        } else if chain.head == Some(d) {
            chain.found = Some((name.to_string(), f.end()));
        }
        if chain.since == Some(d) {
            chain.since_at = Some(self.report.records);
        }
        if is_live {
            chain.live_end = f.end();
        }
    }

    fn find(&mut self, file: &str, offset: u64, problem: Problem, ts: Option<Ts>, detail: String) {
        self.report.findings.push(Finding {
            file: file.to_string(),
            offset,
            problem,
            ts: ts.map(|t| t.to_string()),
            detail,
        });
    }

    /// Compare the anchor with what the scan found (see the module docs of `anchor`).
    fn check_anchor(&mut self, found: &Found, seen: u64) {
        let records = self.report.records;
        // A stream in the plain spec format (another LedgerPulse writer's, or one the person
        // brought) has no seals, so nothing to anchor: it is read and extended as it is, and
        // verify says it cannot be checked, not that it failed. Only while no anchor was ever
        // written here: a ledger that had one and now holds only plain records was rewritten.
        let plain = records > 0 && self.report.sealed == 0 && seen == 0;
        self.report.anchor.status = match found {
            Found::Valid(_) => "anchored",
            Found::Missing if records == 0 => "none",
            Found::Missing if plain => "plain",
            Found::Missing => "missing",
            Found::Forged => "forged",
            Found::NoKey(_) => "no-key",
        };
        let (problem, detail) = match found {
            Found::Valid(a) => return self.compare_head(a),
            Found::Missing if records == 0 || plain => return,
            Found::Missing => (
                Problem::Unanchored,
                format!(
                    "the stream holds {records} records and no anchor: a rewrite of its history \
                     could not be told from the real one"
                ),
            ),
            Found::Forged => (
                Problem::AnchorForged,
                "the anchor does not verify under your key: it was written or changed by \
                 someone without the key"
                    .into(),
            ),
            Found::NoKey(e) => (
                Problem::Unanchored,
                format!("the anchor cannot be checked without your key: {e}"),
            ),
        };
        self.find(anchor::FILE_NAME, 0, problem, None, detail);
    }

    /// Whether the anchor is older than the newest one this person's writers wrote (`seen`,
    /// kept in the secret store): a missing, blank or older anchor after a newer one existed
    /// is a ledger put back from a copy, whatever its chain says.
    fn check_rollback(&mut self, found: &Found, seen: u64) {
        let detail = match found {
            Found::Valid(a) if a.seq < seen => format!(
                "the anchor is number {}, but number {seen} was written before: an older copy of \
                 the ledger was put back",
                a.seq
            ),
            // With records, a missing anchor is already `Unanchored`.
            Found::Missing if seen > 0 && self.report.records == 0 => format!(
                "the ledger has no anchor, but {seen} were written before: its stream and anchor \
                 were removed or replaced by a copy"
            ),
            _ => return,
        };
        self.report.anchor.status = "rolled-back";
        self.find(anchor::FILE_NAME, 0, Problem::RolledBack, None, detail);
    }

    /// Whether the anchored head was found where the anchor says, and what follows it.
    fn compare_head(&mut self, a: &Anchor) {
        self.report.anchor.anchor = Some(a.clone());
        let seal = &frame::hex(&a.head)[..12];
        let chain = &self.chain;
        let (file, offset, problem, detail) = match &chain.found {
            Some((_, end)) if *end == a.end => {
                self.report.anchor.not_yet_anchored = chain.after;
                self.report.anchor.adopted = a.since.map(|_| chain.since_at.unwrap_or(0));
                return;
            }
            Some((file, end)) => (
                file.clone(),
                *end,
                Problem::Rewritten,
                format!(
                    "the anchored record (seal {seal}…) ends at byte {end}, the anchor says byte \
                     {}: bytes before it were added or removed",
                    a.end
                ),
            ),
            None if chain.live_end < a.end => (
                STREAM_FILE.to_string(),
                chain.live_end,
                Problem::Truncated,
                format!(
                    "the stream's records end at byte {}, before the anchored head (seal {seal}…) \
                     at byte {}: records were cut off or removed",
                    chain.live_end, a.end
                ),
            ),
            None => (
                STREAM_FILE.to_string(),
                a.end,
                Problem::Rewritten,
                format!(
                    "no record carries the anchored seal {seal}… (at byte {}): records up to it \
                     were changed, removed or reordered and the chain recomputed",
                    a.end
                ),
            ),
        };
        self.find(&file, offset, problem, None, detail);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Record, RecordType};

    /// `n` sealed records, each naming the one before, as trail writes them; with the offset
    /// where each starts.
    fn chain(n: usize) -> (Vec<u8>, Vec<u64>) {
        let mut ts = Ts::parse_strict("2025-12-22T21:18:12.483Z").unwrap();
        let (mut bytes, mut starts, mut prev) = (Vec::new(), Vec::new(), [0; 32]);
        for _ in 0..n {
            let mut r = Record::new(RecordType::Pulse, ts);
            r.prev = Some(frame::hex(&prev));
            let (b, d) = frame::encode(&r);
            starts.push(bytes.len() as u64);
            bytes.extend_from_slice(&b);
            (prev, ts) = (d, ts.succ());
        }
        (bytes, starts)
    }

    fn verify(bytes: &[u8], is_live: bool) -> Report {
        let mut v = Verifier::new(&Found::Missing);
        let seg = Segment {
            file: bytes,
            len: bytes.len() as u64,
            name: "s",
            is_live,
        };
        v.segment(&seg, &mut |_| {}).unwrap();
        v.report
    }

    fn problems(r: &Report) -> Vec<(Problem, u64)> {
        r.findings.iter().map(|f| (f.problem, f.offset)).collect()
    }

    #[test]
    fn a_sealed_chain_has_nothing_to_report() {
        let (bytes, _) = chain(3);
        let r = verify(&bytes, true);
        assert_eq!((r.segments, r.records, r.sealed), (1, 3, 3));
        assert!(r.ok(), "{:?}", r.findings);
    }

    #[test]
    fn a_cut_last_record_is_torn_in_the_stream_and_damage_in_an_archive() {
        let (bytes, starts) = chain(3);
        let cut = &bytes[..bytes.len() - 20];
        let live = verify(cut, true);
        assert_eq!(problems(&live), [(Problem::Torn, starts[2])]);
        assert_eq!((live.records, live.sealed), (3, 2));
        let archived = problems(&verify(cut, false));
        assert_eq!(archived[0], (Problem::Unsealed, starts[2]));
        assert!(!archived.iter().any(|(p, _)| *p == Problem::Torn));
    }

    #[test]
    fn bytes_around_records_are_torn_only_at_the_end_of_the_stream() {
        let (mut bytes, _) = chain(2);
        let end = bytes.len() as u64;
        bytes.extend_from_slice(b"junk");
        assert_eq!(problems(&verify(&bytes, true)), [(Problem::Torn, end)]);
        assert_eq!(problems(&verify(&bytes, false)), [(Problem::Corrupt, end)]);
        let mut before = b"junk\n".to_vec();
        before.extend_from_slice(&chain(1).0);
        assert_eq!(problems(&verify(&before, true)), [(Problem::Corrupt, 0)]);
        let start = b"---\nschema: ledger";
        assert_eq!(problems(&verify(start, true)), [(Problem::Torn, 0)]);
    }

    #[test]
    fn a_record_moved_out_of_place_breaks_the_chain_and_the_order() {
        let (bytes, starts) = chain(3);
        let (a, b) = (
            usize::try_from(starts[1]).unwrap(),
            usize::try_from(starts[2]).unwrap(),
        );
        let mut swapped = bytes[..a].to_vec();
        swapped.extend_from_slice(&bytes[b..]);
        swapped.extend_from_slice(&bytes[a..b]);
        let found = problems(&verify(&swapped, true));
        let moved = a as u64 + (bytes.len() - b) as u64;
        assert_eq!(
            found,
            [
                (Problem::ChainBroken, starts[1]),
                (Problem::ChainBroken, moved),
                (Problem::OutOfOrder, moved),
            ]
        );
    }
}
