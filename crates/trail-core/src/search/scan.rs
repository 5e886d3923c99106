//! The scan: every file read once, front to back, in large blocks, and each term found by its
//! regex over a whole block at a time.
//!
//! ripgrep is fast because it never looks at lines that do not match: a SIMD literal search
//! (memchr, Teddy) jumps from candidate to candidate, and only then are the surroundings read.
//! The scan does the same with documents. A block's record starts are found with one SIMD
//! search ([`frame::starts`]), each term's matches are placed among them, and only records that
//! matched are read further (their time, type and projects, for filters and ranking). A record
//! that does not match costs its share of two memory-speed passes and nothing else.
//!
//! The stream is split into ranges scanned on separate threads when it is large: a range owns
//! the records that start inside it, and reads on past its end to finish the last of them.

use std::fs::File;
use std::io;
use std::ops::Range;
use std::os::unix::fs::FileExt;

use super::doc::{self, Meta};
use super::index::{self, Cache};
use super::query::Matcher;
use super::sources::{Source, SourceFile};
use super::{Filters, Skipped};
use crate::ledger::frame;
use crate::time::Ts;

/// Bytes read at a time: large enough that a read costs little per byte, small enough that the
/// block and its lower-cased copy stay in a core's L2 cache (512 KiB on the machine measured)
/// from the read to the last search in them. 1 MiB blocks cost 10-15 % more CPU there.
const BLOCK: usize = 256 << 10;

/// A line longer than this is searched in pieces (a minified file is one line).
const MAX_LINE: usize = 4 << 20;

/// A stream segment at least this large is scanned by several threads.
const PARALLEL_BYTES: u64 = 8 << 20;

/// A document that contains at least one term and passed the filters. Kept small: a word in
/// every record makes every record one.
#[derive(Clone, Debug)]
pub(crate) struct Cand {
    /// Where the document starts in its file.
    pub start: u64,
    /// Microseconds; `i64::MIN` when the document does not tell.
    time: i64,
    len: u32,
    /// 1-based line of a line document; 0 for a record.
    pub line: u32,
    /// Index into the list of files searched.
    pub file: u32,
    pub source: Source,
}

impl Cand {
    pub fn new(file: u32, source: Source, span: Range<u64>, line: u32, time: Option<Ts>) -> Cand {
        Cand {
            start: span.start,
            time: time.map_or(i64::MIN, Ts::as_micros),
            // A longer document is shown and measured by its first 4 GiB.
            len: u32::try_from(span.end - span.start).unwrap_or(u32::MAX),
            line,
            file,
            source,
        }
    }

    pub fn end(&self) -> u64 {
        self.start + u64::from(self.len)
    }

    pub fn time(&self) -> Option<Ts> {
        (self.time != i64::MIN).then_some(Ts::from_micros(self.time))
    }
}

/// What the scan found, and what ranking needs to know about everything else.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub terms: usize,
    /// Documents searched, matching or not.
    pub docs: u64,
    /// (bytes, documents) searched per source: document lengths are compared within a source.
    pub lengths: [(u64, u64); Source::ALL.len()],
    /// Bytes searched per source whose documents were not counted (blocks without a match).
    pub uncounted: [u64; Source::ALL.len()],
    /// Documents containing each term.
    pub df: Vec<u64>,
    pub cands: Vec<Cand>,
    /// Term frequencies, `terms` per candidate.
    pub tf: Vec<u32>,
    pub skipped: Vec<Skipped>,
    /// Complete windows of the stream the search cache had no usable part for (index.rs).
    pub missing_parts: usize,
}

impl Tally {
    pub(crate) fn new(terms: usize) -> Tally {
        Tally {
            terms,
            df: vec![0; terms],
            ..Tally::default()
        }
    }

    /// Documents searched: those counted, and those in uncounted bytes at their source's
    /// average length.
    pub fn documents(&self) -> f64 {
        let estimated: f64 = self
            .lengths
            .iter()
            .zip(&self.uncounted)
            .filter(|((bytes, _), _)| *bytes > 0)
            .map(|((bytes, docs), &more)| more as f64 * *docs as f64 / *bytes as f64)
            .sum();
        self.docs as f64 + estimated
    }

    pub fn tf_of(&self, cand: usize) -> &[u32] {
        &self.tf[cand * self.terms..(cand + 1) * self.terms]
    }

    pub(crate) fn count(&mut self, source: Source, bytes: u64, docs: u64) {
        self.docs += docs;
        let l = &mut self.lengths[source.index()];
        l.0 += bytes;
        l.1 += docs;
    }

    pub(crate) fn push(&mut self, cand: Cand, tf: &[u32]) {
        for (df, &n) in self.df.iter_mut().zip(tf) {
            *df += u64::from(n > 0);
        }
        self.cands.push(cand);
        self.tf.extend_from_slice(tf);
    }

    fn merge(&mut self, other: Tally) {
        self.docs += other.docs;
        for (a, b) in self.lengths.iter_mut().zip(other.lengths) {
            a.0 += b.0;
            a.1 += b.1;
        }
        for (a, b) in self.uncounted.iter_mut().zip(other.uncounted) {
            *a += b;
        }
        for (a, b) in self.df.iter_mut().zip(other.df) {
            *a += b;
        }
        self.cands.extend(other.cands);
        self.tf.extend(other.tf);
        self.skipped.extend(other.skipped);
        self.missing_parts += other.missing_parts;
    }
}

/// What every part of the scan needs.
pub(crate) struct Scan<'a> {
    pub matchers: &'a [Matcher],
    pub filters: &'a Filters,
    pub project_root: &'a std::path::Path,
    /// The search cache, and the keys of the query's terms, when the index can answer them.
    pub index: Option<(&'a Cache, &'a [(u128, u128)])>,
}

/// Scan every file; `opened[i]` keeps the stream segments open, so hits are read from the
/// files that were searched even if the stream rotates meanwhile.
pub(crate) fn scan_all(scan: &Scan<'_>, files: &[SourceFile]) -> (Tally, Vec<Option<File>>) {
    let mut tally = Tally::new(scan.matchers.len());
    let mut opened = Vec::with_capacity(files.len());
    for (i, sf) in files.iter().enumerate() {
        let file = match open(scan, sf) {
            Ok(Some(f)) => f,
            Ok(None) => {
                opened.push(None);
                continue;
            }
            Err(e) => {
                tally.skipped.push(Skipped::new(sf, &e));
                opened.push(None);
                continue;
            }
        };
        let result = match sf.source {
            Source::Stream => scan_segment(scan, &file, source_id(i), &mut tally),
            _ => scan_lines(scan, &file, source_id(i), sf, &mut tally),
        };
        if let Err(e) = result {
            tally.skipped.push(Skipped::new(sf, &e));
        }
        opened.push((sf.source == Source::Stream).then_some(file));
    }
    (tally, opened)
}

/// Open a file to search: the stream's as the ledger opens them, the project's never through a
/// symlink or a FIFO (`fsutil::open_in`). `None` when it does not exist.
pub(crate) fn open(scan: &Scan<'_>, sf: &SourceFile) -> io::Result<Option<File>> {
    let r = match sf.source {
        Source::Stream => crate::ledger::reader::open_if_exists(&sf.path),
        _ => crate::fsutil::open_in(scan.project_root, &sf.path, crate::fsutil::Access::Read)
            .map(Some),
    };
    match r {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        r => Ok(r?),
    }
}

/// One stream segment: what the search cache answers, and the rest scanned, split among
/// threads when it is large.
fn scan_segment(scan: &Scan<'_>, file: &File, index: u32, tally: &mut Tally) -> io::Result<()> {
    let len = crate::fsutil::size_of(file)?;
    let ranges = match scan.index {
        Some((cache, keys)) => {
            let seg = index::Segment { file, index, len };
            index::answer_segment(cache, scan, keys, &seg, tally)?
        }
        None => std::iter::once(0..len).collect(),
    };
    let bytes: u64 = ranges.iter().map(|r| r.end - r.start).sum();
    if bytes == 0 {
        return Ok(());
    }
    // Twice the kernel's read-ahead: what is left is read in order.
    let _ = rustix::fs::fadvise(file, 0, None, rustix::fs::Advice::Sequential);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4)) as u64;
    if bytes < PARALLEL_BYTES || threads < 2 {
        for r in ranges {
            scan_records(scan, file, index, r, len, tally)?;
        }
        return Ok(());
    }
    let shares = share(&ranges, bytes.div_ceil(threads));
    let parts: Vec<io::Result<Tally>> = std::thread::scope(|s| {
        let handles: Vec<_> = shares
            .into_iter()
            .map(|share| {
                s.spawn(move || {
                    let mut t = Tally::new(scan.matchers.len());
                    for r in share {
                        scan_records(scan, file, index, r, len, &mut t)?;
                    }
                    Ok(t)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(io::Error::other("a scan thread failed")))
            })
            .collect()
    });
    for part in parts {
        tally.merge(part?);
    }
    Ok(())
}

/// `ranges` cut into consecutive shares of about `each` bytes (one per thread).
fn share(ranges: &[Range<u64>], each: u64) -> Vec<Vec<Range<u64>>> {
    let mut shares = vec![Vec::new()];
    let mut room = each;
    for r in ranges {
        let mut at = r.start;
        while at < r.end {
            if room == 0 {
                shares.push(Vec::new());
                room = each;
            }
            let to = r.end.min(at + room);
            if let Some(last) = shares.last_mut() {
                last.push(at..to);
            }
            room -= to - at;
            at = to;
        }
    }
    shares
}

/// Where the first record at or after `from` starts, looked for up to `len`; `None` when none
/// does.
pub(crate) fn next_start(file: &File, from: u64, len: u64) -> io::Result<Option<u64>> {
    // Records are short: one small read finds the next nearly always. From one byte early, so
    // a record starting exactly at `from` is seen to begin a line.
    let at = from.saturating_sub(1);
    let n = usize::try_from(len.saturating_sub(at).min(64 << 10)).unwrap_or(0);
    let mut buf = vec![0; n];
    file.read_exact_at(&mut buf, at)?;
    let skip = usize::try_from(from - at).unwrap_or(0);
    if let Some(s) = first_start(&buf, skip) {
        return Ok(Some(at + s as u64));
    }
    // A long record, or the end: a range that ends where it begins closes at the first start.
    walk_records(file, from..from, len, |_, _| {})
}

/// The records of `file` that start in `range` (a record straddling its end is read whole).
pub(crate) fn scan_records(
    scan: &Scan<'_>,
    file: &File,
    index: u32,
    range: Range<u64>,
    len: u64,
    tally: &mut Tally,
) -> io::Result<()> {
    let mut work = Work::default();
    walk_records(file, range, len, |buf, base| {
        let block = RecordBlock {
            buf,
            base,
            file: index,
        };
        records_in(scan, &mut work, &block, tally);
    })?;
    Ok(())
}

/// Hand `each` the records of `file` that start in `range`, a block at a time: `each(buf, base)`
/// gets whole records, `buf` beginning at one, `base` its offset in the file. Returns where the
/// range's records end when a record starts at or past its end, `None` when the file ends first
/// (the last record may still grow).
pub(crate) fn walk_records(
    file: &File,
    range: Range<u64>,
    len: u64,
    mut each: impl FnMut(&[u8], u64),
) -> io::Result<Option<u64>> {
    // From one byte early, so a record starting exactly at `range.start` is seen to begin a line.
    let mut blocks = Blocks::new(file, range.start.saturating_sub(1), len);
    // Whether the buffer begins at a record start of ours.
    let mut synced = false;
    loop {
        blocks.fill()?;
        let at_end = blocks.at_end();
        let (base, buf) = (blocks.pos, blocks.data());
        if !synced {
            let from = usize::try_from(range.start - base).unwrap_or(0);
            match first_start(buf, from) {
                Some(s) => {
                    blocks.consume(s);
                    synced = true;
                }
                None if at_end => return Ok(None),
                // No record starts here (garbage, or inside a huge record): keep only the last
                // line, which may be the beginning of one.
                None => {
                    let keep = buf.len().saturating_sub(256);
                    let cut = memchr::memrchr(b'\n', &buf[..keep]).map_or(keep, |i| i + 1);
                    blocks.consume(cut.max(from));
                }
            }
            continue;
        }
        if base >= range.end {
            return Ok(Some(base));
        }
        // Where our records in this buffer end, and whether that ends the range: at the first
        // record start at or past the range's end, at the end of the file (its blank reserve
        // left out), or at the last start held (that record may go on in the next block).
        let past = usize::try_from(range.end - base).unwrap_or(usize::MAX);
        let (end, done) = match (past < buf.len()).then(|| first_start(buf, past)).flatten() {
            Some(s) => (s, Some(Some(base + s as u64))),
            None if at_end => (trim_end(buf), Some(None)),
            None => match last_start(buf) {
                Some(s) => (s, None),
                // One record fills the buffer: read on.
                None => continue,
            },
        };
        if end > 0 {
            each(&buf[..end], base);
        }
        if let Some(closed) = done {
            return Ok(closed);
        }
        blocks.consume(end);
    }
}

/// The first record start in `buf` at or after `from`.
fn first_start(buf: &[u8], from: usize) -> Option<usize> {
    let finder = memchr::memmem::Finder::new(b"schema:");
    let mut at = from;
    while let Some(i) = finder.find(buf.get(at..)?) {
        if let Some(s) = frame::start_before(buf, at + i).filter(|&s| s >= from) {
            return Some(s);
        }
        at += i + 1;
    }
    None
}

/// The last record start in `buf` after its first byte: searched from the end, so it costs
/// about one record, not the block.
fn last_start(buf: &[u8]) -> Option<usize> {
    let finder = memchr::memmem::FinderRev::new(b"schema:");
    let mut to = buf.len();
    while let Some(i) = finder.rfind(&buf[..to]) {
        match frame::start_before(buf, i) {
            Some(s) if s > 0 => return Some(s),
            Some(_) => return None,
            None => to = i,
        }
    }
    None
}

/// Reused buffers of [`records_in`].
#[derive(Default)]
struct Work {
    /// (position, term) of every match in the block.
    hits: Vec<(usize, usize)>,
    tf: Vec<u32>,
    /// The block lower-cased, for terms that fold case.
    lower: Vec<u8>,
}

/// Whole records of a block: `buf` begins at a record start and ends where the last one does.
#[derive(Clone, Copy)]
struct RecordBlock<'b> {
    buf: &'b [u8],
    /// File offset of `buf[0]`.
    base: u64,
    file: u32,
}

/// Find the terms in a block, then read only around them.
///
/// A block without a match is not even split into records: its bytes are counted, and BM25's
/// document count is extrapolated from the blocks that were split (exact whenever every block
/// has a match, and close otherwise: records are of a size). A rare word costs one search pass.
fn records_in(scan: &Scan<'_>, work: &mut Work, block: &RecordBlock<'_>, tally: &mut Tally) {
    let RecordBlock { buf, base, file } = *block;
    let terms = scan.matchers.len();
    work.hits.clear();
    lower_into(scan.matchers, buf, &mut work.lower);
    for (t, m) in scan.matchers.iter().enumerate() {
        m.each_end(buf, &work.lower, |end| {
            work.hits.push((end.saturating_sub(1), t));
        });
    }
    if work.hits.is_empty() {
        tally.uncounted[Source::Stream.index()] += buf.len() as u64;
        return;
    }
    if terms > 1 {
        work.hits.sort_unstable();
    }
    let starts = frame::starts(buf);
    tally.count(Source::Stream, buf.len() as u64, starts.len() as u64);
    let with_proj = scan.filters.proj.is_some();
    let mut d = 0;
    let mut i = 0;
    work.tf.resize(terms, 0);
    while i < work.hits.len() {
        while d + 1 < starts.len() && starts[d + 1] <= work.hits[i].0 {
            d += 1;
        }
        let doc_end = starts.get(d + 1).copied().unwrap_or(buf.len());
        work.tf.fill(0);
        while i < work.hits.len() && work.hits[i].0 < doc_end {
            work.tf[work.hits[i].1] += 1;
            i += 1;
        }
        // Bytes before the first record start of a file are not a record.
        let Some(&start) = starts.get(d).filter(|&&s| s <= work.hits[i - 1].0) else {
            continue;
        };
        let meta = doc::record(&buf[start..doc_end], with_proj);
        if !scan.filters.admits(Source::Stream, &meta) {
            continue;
        }
        let span = base + start as u64..base + doc_end as u64;
        let cand = Cand::new(file, Source::Stream, span, 0, meta.time);
        tally.push(cand, &work.tf);
    }
}

/// `buf` lower-cased into `lower`, when a matcher searches that way.
fn lower_into(matchers: &[Matcher], buf: &[u8], lower: &mut Vec<u8>) {
    lower.clear();
    if matchers.iter().any(Matcher::folds) {
        // A plain loop: it vectorises.
        lower.extend(buf.iter().map(u8::to_ascii_lowercase));
    }
}

/// A file of lines: each line is a document.
fn scan_lines(
    scan: &Scan<'_>,
    file: &File,
    index: u32,
    sf: &SourceFile,
    tally: &mut Tally,
) -> io::Result<()> {
    let json = matches!(sf.source, Source::Proof | Source::Trajectory);
    // Markdown and code lines take their time and kind from the file.
    let file_meta = Meta {
        time: sf.day.or_else(|| modified(file)),
        kind: sf.kind.map(std::borrow::Cow::Borrowed),
        proj: Vec::new(),
    };
    if !json && !scan.filters.admits(sf.source, &file_meta) {
        return Ok(());
    }
    let len = crate::fsutil::size_of(file)?;
    let mut blocks = Blocks::new(file, 0, len);
    let mut line = 1u32;
    loop {
        blocks.fill()?;
        let at_end = blocks.at_end();
        let (base, buf) = (blocks.pos, blocks.data());
        // Binary files are not code (ripgrep's test: a NUL byte).
        if sf.source == Source::Code && base == 0 && memchr::memchr(0, buf).is_some() {
            return Ok(());
        }
        let end = match memchr::memrchr(b'\n', buf) {
            _ if at_end => buf.len(),
            Some(i) => i + 1,
            None if buf.len() >= MAX_LINE => buf.len(),
            None => continue,
        };
        let region = &buf[..end];
        let lines = LineDocs {
            scan,
            sf,
            index,
            json,
            file_meta: &file_meta,
        };
        lines.scan(region, base, line, tally);
        line = line.saturating_add(newlines(region));
        if at_end {
            return Ok(());
        }
        blocks.consume(end);
    }
}

struct LineDocs<'a, 's> {
    scan: &'a Scan<'s>,
    sf: &'a SourceFile,
    index: u32,
    json: bool,
    file_meta: &'a Meta<'a>,
}

impl LineDocs<'_, '_> {
    /// The lines of `region` (whole lines, the first numbered `first_line`) that match.
    fn scan(&self, region: &[u8], base: u64, first_line: u32, tally: &mut Tally) {
        let terms = self.scan.matchers.len();
        let lines = newlines(region) + u32::from(!region.ends_with(b"\n") && !region.is_empty());
        tally.count(self.sf.source, region.len() as u64, u64::from(lines));
        // (line start, term) for every match, then grouped by line.
        let mut hits: Vec<(usize, usize)> = Vec::new();
        let mut lower = Vec::new();
        lower_into(self.scan.matchers, region, &mut lower);
        for (t, m) in self.scan.matchers.iter().enumerate() {
            let mut line_end = 0;
            let mut line_start = 0;
            m.each_end(region, &lower, |end| {
                let at = end.saturating_sub(1);
                if at >= line_end {
                    line_start = memchr::memrchr(b'\n', &region[..at]).map_or(0, |i| i + 1);
                    line_end =
                        memchr::memchr(b'\n', &region[at..]).map_or(region.len(), |i| at + i + 1);
                }
                hits.push((line_start, t));
            });
        }
        hits.sort_unstable();
        let mut tf = vec![0u32; terms];
        let (mut counted_to, mut line) = (0usize, first_line);
        let mut i = 0;
        while i < hits.len() {
            let start = hits[i].0;
            tf.fill(0);
            while i < hits.len() && hits[i].0 == start {
                tf[hits[i].1] += 1;
                i += 1;
            }
            line = line.saturating_add(newlines(&region[counted_to..start]));
            counted_to = start;
            let end = memchr::memchr(b'\n', &region[start..]).map_or(region.len(), |e| start + e);
            let json_meta;
            let meta = if self.json {
                json_meta = doc::json_line(&region[start..end], self.sf.source);
                &json_meta
            } else {
                self.file_meta
            };
            if self.json && !self.scan.filters.admits(self.sf.source, meta) {
                continue;
            }
            let span = base + start as u64..base + end as u64;
            let cand = Cand::new(self.index, self.sf.source, span, line, meta.time);
            tally.push(cand, &tf);
        }
    }
}

/// The file's modification time.
pub(crate) fn modified(file: &File) -> Option<Ts> {
    let t = file.metadata().ok()?.modified().ok()?;
    let us = t.duration_since(std::time::UNIX_EPOCH).ok()?.as_micros();
    Some(Ts::from_micros(i64::try_from(us).ok()?))
}

fn newlines(b: &[u8]) -> u32 {
    // A plain count vectorises; a memchr per line would not pay on short lines.
    b.iter().map(|&c| u32::from(c == b'\n')).sum()
}

/// `buf` without the whitespace at its end (the stream's blank reserve).
fn trim_end(buf: &[u8]) -> usize {
    buf.iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(0, |i| i + 1)
}

/// A file read in blocks into one reused buffer; `data()` always begins where the caller asked
/// to continue (a record or line start), followed by whatever was read after it.
struct Blocks<'f> {
    file: &'f File,
    end: u64,
    buf: Vec<u8>,
    filled: usize,
    /// File offset of `buf[0]`.
    pos: u64,
    read_to: u64,
}

impl<'f> Blocks<'f> {
    fn new(file: &'f File, start: u64, end: u64) -> Blocks<'f> {
        Blocks {
            file,
            end,
            buf: Vec::new(),
            filled: 0,
            pos: start,
            read_to: start,
        }
    }

    /// Read the next block after what is held.
    fn fill(&mut self) -> io::Result<()> {
        let want = usize::try_from(self.end.saturating_sub(self.read_to))
            .unwrap_or(usize::MAX)
            .min(BLOCK);
        if self.buf.len() < self.filled + want {
            self.buf.resize(self.filled + want, 0);
        }
        let mut got = 0;
        while got < want {
            match self.file.read_at(
                &mut self.buf[self.filled + got..self.filled + want],
                self.read_to + got as u64,
            ) {
                // The file shrank under us (a torn tail cut off): what was read is all there is.
                Ok(0) => {
                    self.end = self.read_to + got as u64;
                    break;
                }
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.filled += got;
        self.read_to += got as u64;
        Ok(())
    }

    fn at_end(&self) -> bool {
        self.read_to >= self.end
    }

    fn data(&self) -> &[u8] {
        &self.buf[..self.filled]
    }

    /// Drop the first `n` bytes held.
    fn consume(&mut self, n: usize) {
        self.buf.copy_within(n..self.filled, 0);
        self.filled -= n;
        self.pos += n as u64;
    }
}

/// A source's number in a hit. Sources are the files of one project and the stream's segments:
/// far fewer than 2^32.
fn source_id(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}
