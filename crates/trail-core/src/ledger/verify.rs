//! Verification: every record of every segment, the seals and the hash chain, and the anchored
//! head (see [`super::anchor`]): the chain shows a record changed in place, the anchor shows a
//! history rewritten whole (records dropped, every `prev` and seal recomputed) or cut short.

use std::fs::File;

use serde::Serialize;

use super::anchor::{self, Anchor, Found};
use super::error::{LedgerError, Result};
use super::frame::{self, Digest, Frame, Seal};
use super::handle::{Ledger, STREAM_FILE};
use super::intent;
use super::reader::ForwardReader;
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
}

/// What the anchor says and how the stream compares.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AnchorReport {
    /// `anchored`, `missing`, `forged`, `no-key`, or `none` (an empty stream without one).
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

struct Chain {
    prev: Option<Digest>,
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

impl Ledger {
    /// Read every segment (archives, then the stream) as one chain and report each problem.
    /// `progress` is called with (bytes done, bytes total) as the scan goes.
    pub fn verify(&self, progress: &mut dyn FnMut(u64, u64)) -> Result<Report> {
        let anchor_path = self.anchor_path();
        let found = anchor::read(&self.lock_path(), &anchor_path, &self.opts.secrets_dir)
            .map_err(LedgerError::io("read", &anchor_path))?;
        let anchor = match &found {
            Found::Valid(a) => Some(a.clone()),
            _ => None,
        };
        let segments = self.segments()?;
        let total: u64 = segments
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum();
        let mut done_before = 0;
        let mut report = Report::default();
        let mut chain = Chain {
            prev: None,
            last_ts: None,
            sealed_seen: false,
            head: anchor.as_ref().map(|a| a.head),
            since: anchor.as_ref().and_then(|a| a.since),
            found: None,
            after: 0,
            since_at: None,
            live_end: 0,
        };
        let n = segments.len();
        for (i, path) in segments.iter().enumerate() {
            let Some(file) =
                super::reader::open_if_exists(path).map_err(LedgerError::io("open", path))?
            else {
                continue;
            };
            report.segments += 1;
            let is_live = i + 1 == n;
            let name = path
                .strip_prefix(self.stream_dir())
                .unwrap_or(path)
                .display()
                .to_string();
            let len = crate::fsutil::size_of(&file).map_err(LedgerError::io("stat", path))?;
            self.verify_segment(
                &file,
                len,
                &name,
                is_live,
                &mut chain,
                &mut report,
                &mut |d| progress(done_before + d, total),
            )
            .map_err(LedgerError::io("read", path))?;
            done_before += len;
        }
        self.check_anchor(&found, &chain, &mut report);
        report.pending_intents = intent::count(&self.stream_dir());
        Ok(report)
    }

    #[allow(clippy::too_many_arguments)]
    fn verify_segment(
        &self,
        file: &File,
        len: u64,
        name: &str,
        is_live: bool,
        chain: &mut Chain,
        report: &mut Report,
        progress: &mut dyn FnMut(u64),
    ) -> std::io::Result<()> {
        let mut fr = ForwardReader::new(file, 0, len);
        let mut pending: Option<(u64, Vec<u8>)> = fr.next_segment()?;
        let pre = std::mem::take(&mut fr.preamble);
        let finding = |offset: u64, problem: Problem, ts: Option<Ts>, detail: String| {
            report_push(name, offset, problem, ts, detail)
        };
        let mut found = Vec::new();
        let torn_start =
            pending.is_none() && is_live && b"---\nschema: ledgerpulse/v1\n".starts_with(&pre);
        if torn_start && !pre.is_empty() {
            found.push(finding(
                0,
                Problem::Torn,
                None,
                format!("{} bytes of an incomplete first record", pre.len()),
            ));
        } else if !pre.iter().all(u8::is_ascii_whitespace) {
            found.push(finding(
                0,
                Problem::Corrupt,
                None,
                format!(
                    "{} bytes before the first record are not a record",
                    pre.len()
                ),
            ));
        }
        while let Some((off, seg)) = pending.take() {
            pending = fr.next_segment()?;
            let last = pending.is_none();
            progress(off + seg.len() as u64);
            let f = Frame::split(off, &seg);
            report.records += 1;
            let parsed = f.parse();
            let ts = parsed.as_ref().ok().map(|r| r.ts);
            match f.seal {
                Seal::Valid => report.sealed += 1,
                Seal::Mismatch => found.push(finding(
                    off,
                    Problem::Tampered,
                    ts,
                    "the seal does not match the record's bytes".into(),
                )),
                Seal::Missing => {
                    let sealed_stream = f.expects_seal() || chain.sealed_seen;
                    if sealed_stream && last && is_live {
                        found.push(finding(off, Problem::Torn, ts, "incomplete last record (no seal); the next append sets it aside under archive/".into()));
                        continue;
                    }
                    if sealed_stream {
                        found.push(finding(
                            off,
                            Problem::Unsealed,
                            ts,
                            "a record without a seal in a sealed stream".into(),
                        ));
                    }
                }
            }
            if f.seal != Seal::Missing {
                chain.sealed_seen = true;
            }
            if !f.trailer_is_blank() {
                if last && is_live {
                    found.push(finding(f.end(), Problem::Torn, None, format!("{} bytes of an incomplete record after the last seal; the next append sets them aside under archive/", f.trailer.len())));
                } else {
                    found.push(finding(
                        f.end(),
                        Problem::Corrupt,
                        None,
                        format!(
                            "{} bytes after the record's seal are not a record",
                            f.trailer.len()
                        ),
                    ));
                }
            }
            match &parsed {
                Err(e) => found.push(finding(
                    off,
                    Problem::Corrupt,
                    None,
                    format!("does not parse: {e}"),
                )),
                Ok(r) => {
                    if let Some(p) = &r.prev {
                        let want = frame::hex(&chain.prev.unwrap_or([0; 32]));
                        if *p != want {
                            found.push(finding(
                                off,
                                Problem::ChainBroken,
                                ts,
                                format!(
                                    "prev is {}…, the record before has digest {}…",
                                    &p[..12],
                                    &want[..12]
                                ),
                            ));
                        }
                    }
                    if let Some(last_ts) = chain.last_ts
                        && r.ts <= last_ts
                    {
                        found.push(finding(
                            off,
                            Problem::OutOfOrder,
                            ts,
                            format!("not after the previous record ({last_ts})"),
                        ));
                    }
                    chain.last_ts = Some(r.ts);
                }
            }
            let d = f.chain_digest();
            chain.prev = Some(d);
            if chain.found.is_some() {
                chain.after += 1;
            } else if chain.head == Some(d) {
                chain.found = Some((name.to_string(), f.end()));
            }
            if chain.since == Some(d) {
                chain.since_at = Some(report.records);
            }
            if is_live {
                chain.live_end = f.end();
            }
        }
        report.findings.extend(found);
        Ok(())
    }
}

impl Ledger {
    /// Compare the anchor with what the scan found (see the module docs of `anchor`).
    fn check_anchor(&self, found: &Found, chain: &Chain, report: &mut Report) {
        let anchor_file = anchor::FILE_NAME;
        let stream_file = STREAM_FILE;
        let push = |report: &mut Report, file: &str, offset, problem, detail: String| {
            report
                .findings
                .push(report_push(file, offset, problem, None, detail));
        };
        report.anchor.status = match found {
            Found::Valid(_) => "anchored",
            Found::Missing if report.records == 0 => "none",
            Found::Missing => "missing",
            Found::Forged => "forged",
            Found::NoKey(_) => "no-key",
        };
        let a = match found {
            Found::Valid(a) => a,
            Found::Missing if report.records == 0 => return,
            Found::Missing => {
                return push(
                    report,
                    anchor_file,
                    0,
                    Problem::Unanchored,
                    format!(
                        "the stream holds {} records and no anchor: a rewrite of its history \
                         could not be told from the real one",
                        report.records
                    ),
                );
            }
            Found::Forged => {
                return push(
                    report,
                    anchor_file,
                    0,
                    Problem::AnchorForged,
                    "the anchor does not verify under your key: it was written or changed by \
                     someone without the key"
                        .into(),
                );
            }
            Found::NoKey(e) => {
                return push(
                    report,
                    anchor_file,
                    0,
                    Problem::Unanchored,
                    format!("the anchor cannot be checked without your key: {e}"),
                );
            }
        };
        report.anchor.anchor = Some(a.clone());
        let seal = &frame::hex(&a.head)[..12];
        match &chain.found {
            Some((_, end)) if *end == a.end => {
                report.anchor.not_yet_anchored = chain.after;
                report.anchor.adopted = a.since.map(|_| chain.since_at.unwrap_or(0));
            }
            Some((file, end)) => push(
                report,
                file,
                *end,
                Problem::Rewritten,
                format!(
                    "the anchored record (seal {seal}…) ends at byte {end}, the anchor says byte \
                     {}: bytes before it were added or removed",
                    a.end
                ),
            ),
            None if chain.live_end < a.end => push(
                report,
                stream_file,
                chain.live_end,
                Problem::Truncated,
                format!(
                    "the stream's records end at byte {}, before the anchored head (seal {seal}…) \
                     at byte {}: records were cut off or removed",
                    chain.live_end, a.end
                ),
            ),
            None => push(
                report,
                stream_file,
                a.end,
                Problem::Rewritten,
                format!(
                    "no record carries the anchored seal {seal}… (at byte {}): records up to it \
                     were changed, removed or reordered and the chain recomputed",
                    a.end
                ),
            ),
        }
    }
}

fn report_push(
    file: &str,
    offset: u64,
    problem: Problem,
    ts: Option<Ts>,
    detail: String,
) -> Finding {
    Finding {
        file: file.to_string(),
        offset,
        problem,
        ts: ts.map(|t| t.to_string()),
        detail,
    }
}
