//! Reading a stream in either direction without loading it whole.
//!
//! Rehydration and the writer's tail check read backwards from the end in growing blocks, so
//! their cost depends on how much they need, not on how big the stream has grown. Full scans
//! (verify, the index, log filters) read forwards in large chunks.

use std::fs::File;
use std::io;
use std::path::Path;

pub use crate::fsutil::ReadAt;

use super::frame;

/// Block size of reverse reads: larger than the blank reserve at the end of a stream.
const FIRST_CHUNK: usize = 64 * 1024;

/// Yields record segments (offset, bytes from a record start to the next start or the end)
/// newest first.
pub struct ReverseReader<'f, R: ReadAt + ?Sized = File> {
    file: &'f R,
    /// File offset of `buf[0]`.
    pos: u64,
    buf: Vec<u8>,
    /// `buf[..cut]` has not been handed out yet.
    cut: usize,
    /// Record starts found in `buf[..cut]`, ascending. Found with one forward (SIMD) search per
    /// block rather than a backward search per record.
    starts: Vec<usize>,
    chunk: usize,
    /// Bytes before the first record start, once the reader has reached offset 0.
    pub preamble: Option<Vec<u8>>,
}

impl<'f, R: ReadAt + ?Sized> ReverseReader<'f, R> {
    /// Read `file` backwards from `end` (usually its length).
    pub fn new(file: &'f R, end: u64) -> ReverseReader<'f, R> {
        ReverseReader {
            file,
            pos: end,
            buf: Vec::new(),
            cut: 0,
            starts: Vec::new(),
            chunk: FIRST_CHUNK,
            preamble: None,
        }
    }

    /// The next segment, newest first, borrowed from the reader's buffer (no copy).
    pub fn next_ref(&mut self) -> io::Result<Option<(u64, &[u8])>> {
        loop {
            if let Some(s) = self.starts.pop() {
                let end = self.cut;
                self.cut = s;
                return Ok(Some((self.pos + s as u64, &self.buf[s..end])));
            }
            if self.pos == 0 {
                if self.cut > 0 {
                    self.preamble = Some(self.buf[..self.cut].to_vec());
                    self.cut = 0;
                }
                return Ok(None);
            }
            // Read the block before what we hold, into the same buffer: memory stays at one
            // block plus one partial record however far back the reader goes (fresh pages cost
            // more than the reads themselves).
            let n = self
                .chunk
                .min(usize::try_from(self.pos).unwrap_or(usize::MAX));
            let keep = self.cut;
            if self.buf.len() < n + keep {
                self.buf.resize(n + keep, 0);
            }
            self.buf.copy_within(0..keep, n);
            let new_pos = self.pos - n as u64;
            self.file.read_exact_at(&mut self.buf[..n], new_pos)?;
            self.cut = n + keep;
            self.pos = new_pos;
            // A start at offset 0 of the buffer is only certain at the start of the file.
            let at_file_start = self.pos == 0;
            self.starts = frame::starts(&self.buf[..self.cut]);
            self.starts.retain(|&s| s > 0 || at_file_start);
        }
    }

    /// The next segment, newest first, as an owned copy.
    pub fn next_segment(&mut self) -> io::Result<Option<(u64, Vec<u8>)>> {
        Ok(self.next_ref()?.map(|(off, seg)| (off, seg.to_vec())))
    }
}

/// Yields record segments oldest first, reading `chunk` bytes at a time.
pub struct ForwardReader<'f, R: ReadAt + ?Sized = File> {
    file: &'f R,
    /// File offset of `buf[0]`.
    pos: u64,
    read_to: u64,
    end: u64,
    buf: Vec<u8>,
    /// Index into `buf` from which record starts are still to be reported.
    cursor: usize,
    preamble_done: bool,
    pub preamble: Vec<u8>,
}

const FORWARD_CHUNK: usize = 4 << 20;

impl<'f, R: ReadAt + ?Sized> ForwardReader<'f, R> {
    /// Read `file` from `start` (which must be a line start, e.g. 0 or a record offset) to `end`.
    pub fn new(file: &'f R, start: u64, end: u64) -> ForwardReader<'f, R> {
        ForwardReader {
            file,
            pos: start,
            read_to: start,
            end,
            buf: Vec::new(),
            cursor: 0,
            preamble_done: false,
            preamble: Vec::new(),
        }
    }

    fn fill(&mut self) -> io::Result<bool> {
        if self.read_to >= self.end {
            return Ok(false);
        }
        let n = FORWARD_CHUNK.min(usize::try_from(self.end - self.read_to).unwrap_or(usize::MAX));
        let old = self.buf.len();
        self.buf.resize(old + n, 0);
        self.file
            .read_exact_at(&mut self.buf[old..], self.read_to)?;
        self.read_to += n as u64;
        Ok(true)
    }

    pub fn next_segment(&mut self) -> io::Result<Option<(u64, Vec<u8>)>> {
        loop {
            // The first start at or after the cursor, then the one after it.
            let first = next_start(&self.buf, self.cursor);
            if !self.preamble_done {
                if let Some(s) = first {
                    self.preamble = self.buf[..s].to_vec();
                    self.preamble_done = true;
                    self.cursor = s;
                    continue;
                }
                if !self.fill()? {
                    self.preamble = std::mem::take(&mut self.buf);
                    self.pos = self.end;
                    self.preamble_done = true;
                    return Ok(None);
                }
                continue;
            }
            if self.cursor >= self.buf.len() && self.read_to >= self.end {
                return Ok(None);
            }
            let s = self.cursor;
            if let Some(e) = next_start(&self.buf, s + 1) {
                let seg = self.buf[s..e].to_vec();
                self.cursor = e;
                return Ok(Some((self.pos + s as u64, seg)));
            }
            // Compact: drop what has been handed out, then read more.
            if s > 0 {
                self.buf.drain(..s);
                self.pos += s as u64;
                self.cursor = 0;
            }
            if !self.fill()? {
                let seg = std::mem::take(&mut self.buf);
                let off = self.pos;
                self.pos += seg.len() as u64;
                self.cursor = 0;
                if seg.is_empty() {
                    return Ok(None);
                }
                return Ok(Some((off, seg)));
            }
        }
    }
}

/// The first record start in `buf` at or after `from`.
fn next_start(buf: &[u8], from: usize) -> Option<usize> {
    if from > buf.len() {
        return None;
    }
    let mut search = from;
    let finder = memchr::memmem::Finder::new(b"schema:");
    while let Some(hit) = finder.find(&buf[search..]) {
        let hit = search + hit;
        if let Some(s) = frame::start_before(buf, hit)
            && s >= from
        {
            return Some(s);
        }
        search = hit + 1;
    }
    None
}

/// Open a stream for reading; `Ok(None)` when it does not exist.
pub fn open_if_exists(path: &Path) -> Result<Option<File>, trail_base::file_error::FileError> {
    match crate::fsutil::open_no_atime(std::fs::OpenOptions::new().read(true), path) {
        Ok(f) => Ok(Some(f)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}
