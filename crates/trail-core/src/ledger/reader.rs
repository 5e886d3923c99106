//! Reading a stream in either direction without loading it whole.
//!
//! Rehydration and the writer's tail check read backwards from the end in growing blocks, so
//! their cost depends on how much they need, not on how big the stream has grown. Full scans
//! (verify, the index, log filters) read forwards in large chunks.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

use super::frame;

const FIRST_CHUNK: usize = 16 * 1024;
const MAX_CHUNK: usize = 1 << 20;

/// Yields record segments (offset, bytes from a record start to the next start or the end)
/// newest first.
pub struct ReverseReader<'f> {
    file: &'f File,
    /// File offset of `buf[0]`.
    pos: u64,
    buf: Vec<u8>,
    chunk: usize,
    /// Bytes before the first record start, once the reader has reached offset 0.
    pub preamble: Option<Vec<u8>>,
}

impl<'f> ReverseReader<'f> {
    /// Read `file` backwards from `end` (usually its length).
    pub fn new(file: &'f File, end: u64) -> ReverseReader<'f> {
        ReverseReader {
            file,
            pos: end,
            buf: Vec::new(),
            chunk: FIRST_CHUNK,
            preamble: None,
        }
    }

    pub fn next_segment(&mut self) -> io::Result<Option<(u64, Vec<u8>)>> {
        loop {
            if let Some(s) = frame::last_start(&self.buf, self.pos == 0) {
                let seg = self.buf.split_off(s);
                return Ok(Some((self.pos + s as u64, seg)));
            }
            if self.pos == 0 {
                if !self.buf.is_empty() {
                    self.preamble = Some(std::mem::take(&mut self.buf));
                }
                return Ok(None);
            }
            let n = self
                .chunk
                .min(usize::try_from(self.pos).unwrap_or(usize::MAX));
            let new_pos = self.pos - n as u64;
            let mut nb = vec![0u8; n + self.buf.len()];
            self.file.read_exact_at(&mut nb[..n], new_pos)?;
            nb[n..].copy_from_slice(&self.buf);
            self.buf = nb;
            self.pos = new_pos;
            self.chunk = (self.chunk * 2).min(MAX_CHUNK);
        }
    }
}

/// Yields record segments oldest first, reading `chunk` bytes at a time.
pub struct ForwardReader<'f> {
    file: &'f File,
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

impl<'f> ForwardReader<'f> {
    /// Read `file` from `start` (which must be a line start, e.g. 0 or a record offset) to `end`.
    pub fn new(file: &'f File, start: u64, end: u64) -> ForwardReader<'f> {
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
                match first {
                    Some(s) => {
                        self.preamble = self.buf[..s].to_vec();
                        self.preamble_done = true;
                        self.cursor = s;
                        continue;
                    }
                    None => {
                        if !self.fill()? {
                            self.preamble = std::mem::take(&mut self.buf);
                            self.pos = self.end;
                            self.preamble_done = true;
                            return Ok(None);
                        }
                        continue;
                    }
                }
            }
            if self.cursor >= self.buf.len() && self.read_to >= self.end {
                return Ok(None);
            }
            let s = self.cursor;
            match next_start(&self.buf, s + 1) {
                Some(e) => {
                    let seg = self.buf[s..e].to_vec();
                    self.cursor = e;
                    return Ok(Some((self.pos + s as u64, seg)));
                }
                None => {
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
        if let Some(s) = frame::start_before(buf, hit) {
            if s >= from {
                return Some(s);
            }
        }
        search = hit + 1;
    }
    None
}

/// Open a stream for reading; `Ok(None)` when it does not exist.
pub fn open_if_exists(path: &Path) -> io::Result<Option<File>> {
    match File::open(path) {
        Ok(f) => Ok(Some(f)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}
