//! One check that every reader of the stream format finds the same records in the same bytes.
//!
//! The stream is read in several ways: forwards (`verify`, the index, `log`), backwards
//! (rehydration, the anchor), all at once ([`frame::split_all`]), from a record in the middle
//! (the index extends from where it stopped), by the writer's tail scan, which decides what a
//! repair cuts, and by `verify`, which reports what it finds. Where two of them disagree about
//! where records are, one of them loses a record the other sees. The property tests
//! (`tests/core/properties.rs`) and the `stream_readers` fuzz target both run [`readers_agree`] on
//! arbitrary bytes; it is not part of the API.

use std::fmt;

use super::anchor::Found;
use super::frame::{self, Frame, Seal};
use super::index::{self, Index};
use super::reader::{ForwardReader, ReverseReader};
use super::tail::{self, TailScan};
use super::verify::{Report, Segment, Verifier};

/// Two readers that do not agree on the same bytes.
#[derive(Debug)]
pub struct Disagreement {
    /// Which readers.
    pub readers: &'static str,
    pub detail: String,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} disagree: {}", self.readers, self.detail)
    }
}

impl std::error::Error for Disagreement {}

/// Fail with a [`Disagreement`] between `readers` unless `cond` holds.
macro_rules! agree {
    ($cond:expr, $readers:literal, $($detail:tt)+) => {
        if !$cond {
            return Err(Disagreement {
                readers: $readers,
                detail: format!($($detail)+),
            });
        }
    };
}

/// (offset, bytes) of each record segment, oldest first.
type Segments = Vec<(u64, Vec<u8>)>;

/// Check that every reader agrees on `data` as a stream (see the module docs).
pub fn readers_agree(data: &[u8]) -> Result<(), Disagreement> {
    let (segments, preamble) = read_forward(data, 0)?;
    reverse_agrees(data, &segments, &preamble)?;
    split_all_agrees(data, &segments, &preamble)?;
    reading_from_a_record_agrees(data, &segments)?;
    let report = verify(data)?;
    verify_agrees(&report, &segments)?;
    tail_scan_agrees(data, &segments, &report)?;
    index_agrees(data, &segments)
}

fn read_error(readers: &'static str) -> impl Fn(std::io::Error) -> Disagreement {
    move |e| Disagreement {
        readers,
        detail: format!("reading bytes in memory failed: {e}"),
    }
}

fn read_forward(data: &[u8], start: u64) -> Result<(Segments, Vec<u8>), Disagreement> {
    let mut fr = ForwardReader::new(data, start, data.len() as u64);
    let mut segments = Vec::new();
    while let Some(seg) = fr
        .next_segment()
        .map_err(read_error("the forward reader"))?
    {
        segments.push(seg);
    }
    Ok((segments, fr.preamble))
}

/// Backwards from `end`: the segments, oldest first, and the preamble once the start is reached.
fn read_reverse(data: &[u8], end: u64) -> Result<(Segments, Vec<u8>), Disagreement> {
    let mut rr = ReverseReader::new(data, end);
    let mut segments = Vec::new();
    while let Some(seg) = rr
        .next_segment()
        .map_err(read_error("the reverse reader"))?
    {
        segments.push(seg);
    }
    segments.reverse();
    Ok((segments, rr.preamble.unwrap_or_default()))
}

fn reverse_agrees(data: &[u8], segments: &Segments, preamble: &[u8]) -> Result<(), Disagreement> {
    let (reverse, reverse_pre) = read_reverse(data, data.len() as u64)?;
    agree!(
        reverse == *segments,
        "the forward and reverse readers",
        "{} segments forwards, {} backwards",
        segments.len(),
        reverse.len()
    );
    agree!(
        reverse_pre == preamble,
        "the forward and reverse readers",
        "preambles of {} and {} bytes",
        preamble.len(),
        reverse_pre.len()
    );
    Ok(())
}

fn split_all_agrees(data: &[u8], segments: &Segments, preamble: &[u8]) -> Result<(), Disagreement> {
    let (pre, frames) = frame::split_all(0, data);
    agree!(
        pre == preamble,
        "split_all and the forward reader",
        "preambles of {} and {} bytes",
        pre.len(),
        preamble.len()
    );
    agree!(
        frames.len() == segments.len(),
        "split_all and the forward reader",
        "{} frames, {} segments",
        frames.len(),
        segments.len()
    );
    for (f, (off, seg)) in frames.iter().zip(segments) {
        agree!(
            f.offset == *off && f.bytes.len() + f.trailer.len() == seg.len(),
            "split_all and the forward reader",
            "a frame at {} of {} bytes, a segment at {off} of {} bytes",
            f.offset,
            f.bytes.len() + f.trailer.len(),
            seg.len()
        );
    }
    Ok(())
}

/// Starting at a record in the middle, forwards (as the index extends) and backwards from its
/// start (as the anchor reads back from a record), the readers see the same records.
fn reading_from_a_record_agrees(data: &[u8], segments: &Segments) -> Result<(), Disagreement> {
    let Some((mid, _)) = segments.get(segments.len() / 2) else {
        return Ok(());
    };
    let k = segments.len() / 2;
    let (after, _) = read_forward(data, *mid)?;
    agree!(
        after == segments[k..],
        "the forward reader from a record and from the start",
        "{} segments from byte {mid}, {} from the start",
        after.len(),
        segments.len() - k
    );
    let (before, _) = read_reverse(data, *mid)?;
    agree!(
        before == segments[..k],
        "the reverse reader from a record and from the end",
        "{} segments before byte {mid}, {} from the end",
        before.len(),
        k
    );
    Ok(())
}

fn verify(data: &[u8]) -> Result<Report, Disagreement> {
    let mut v = Verifier::new(&Found::Missing);
    let live = Segment {
        file: data,
        len: data.len() as u64,
        name: "stream",
        is_live: true,
    };
    v.segment(&live, &mut |_| {})
        .map_err(read_error("verify"))?;
    Ok(v.report)
}

fn verify_agrees(report: &Report, segments: &Segments) -> Result<(), Disagreement> {
    let sealed = segments
        .iter()
        .filter(|(off, seg)| Frame::split(*off, seg).seal == Seal::Valid)
        .count();
    agree!(
        report.records == segments.len() && report.sealed == sealed,
        "verify and the forward reader",
        "verify counts {} records ({} sealed), the reader {} ({sealed} sealed)",
        report.records,
        report.sealed,
        segments.len()
    );
    Ok(())
}

/// The writer's tail scan names a record the readers see, stops no earlier than the last
/// sealed one, and never cuts bytes that `verify` calls clean.
fn tail_scan_agrees(data: &[u8], segments: &Segments, report: &Report) -> Result<(), Disagreement> {
    let len = data.len() as u64;
    let TailScan {
        cut, end, digest, ..
    } = tail::scan_tail(data, len).map_err(read_error("the tail scan"))?;
    agree!(
        end <= cut && cut <= len,
        "the tail scan and the stream's length",
        "end {end}, cut {cut}, length {len}"
    );
    let frames: Vec<Frame<'_>> = segments
        .iter()
        .map(|(off, seg)| Frame::split(*off, seg))
        .collect();
    if let Some(last) = frames.iter().rev().find(|f| f.seal != Seal::Missing) {
        agree!(
            digest.is_some() && end >= last.end(),
            "the tail scan and the forward reader",
            "the last sealed record ends at {}, the scan's tail at {end}",
            last.end()
        );
    }
    if let Some(d) = digest {
        agree!(
            frames
                .iter()
                .any(|f| f.offset < end && (f.chain_digest() == d || f.digest == d)),
            "the tail scan and the forward reader",
            "the scan's last record (ending at {end}) is none the reader found"
        );
    }
    agree!(
        cut == len || !report.ok(),
        "the tail scan and verify",
        "a repair would cut bytes {cut}..{len}, which verify finds nothing wrong with"
    );
    Ok(())
}

/// The index points only at records the readers see, under their own time, and leaves out
/// only an unsealed last record.
fn index_agrees(data: &[u8], segments: &Segments) -> Result<(), Disagreement> {
    let len = data.len() as u64;
    let mut idx = Index {
        schema: index::SCHEMA.into(),
        ..Index::default()
    };
    let uncovered = index::extend(&mut idx, data, len).map_err(read_error("the index"))?;
    agree!(
        idx.covered <= len,
        "the index and the stream's length",
        "covers {} of {len} bytes",
        idx.covered
    );
    for (ts, off) in &idx.offsets {
        let parsed = segments
            .iter()
            .find(|(o, _)| o == off)
            .and_then(|(o, seg)| Frame::split(*o, seg).parse().ok());
        agree!(
            parsed.is_some_and(|r| r.ts.to_string() == *ts),
            "the index and the forward reader",
            "the index puts {ts} at byte {off}, where no record with that time starts"
        );
    }
    for (i, (off, seg)) in segments.iter().enumerate() {
        let f = Frame::split(*off, seg);
        let Ok(r) = f.parse() else { continue };
        let unsealed_last = i + 1 == segments.len() && f.seal == Seal::Missing;
        agree!(
            unsealed_last || idx.offsets.contains_key(&r.ts.to_string()),
            "the index and the forward reader",
            "the record at byte {off} ({}) is not indexed",
            r.ts
        );
        agree!(
            !unsealed_last || uncovered == 1,
            "the index and the forward reader",
            "an unsealed last record at byte {off} is not counted as left out"
        );
    }
    Ok(())
}
