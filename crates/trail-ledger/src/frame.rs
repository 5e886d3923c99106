//! Framing: where records start and end in a stream, the seal that closes each one, and the
//! digest that chains them.
//!
//! A record starts at a `---` line followed by `schema: ledgerpulse/v1`. Its front matter ends at
//! the next `---` line; the body runs to the seal line `<!-- seal sha256=HEX -->`, which hashes
//! every byte of the record before it. Body lines that could be mistaken for a record start or a
//! seal are escaped with one more leading backslash on write, and unescaped on read.

use std::sync::LazyLock;

use memchr::memmem;
use sha2::{Digest as _, Sha256};

use super::format::{self, ParseError};
use super::record::Record;

pub type Digest = [u8; 32];

const SEAL_PREFIX: &[u8] = b"<!-- seal sha256=";
const SEAL_SUFFIX: &[u8] = b" -->";

pub use crate::text::hex;

/// A digest written as 64 hex digits (the anchor's and the group commit's points), or `None`.
pub(crate) fn parse_digest(s: &str) -> Option<Digest> {
    if s.len() != 64 {
        return None;
    }
    let mut d = [0u8; 32];
    for (i, b) in d.iter_mut().enumerate() {
        *b = u8::from_str_radix(s.get(i * 2..i * 2 + 2)?, 16).ok()?;
    }
    Some(d)
}

pub fn digest(bytes: &[u8]) -> Digest {
    Sha256::digest(bytes).into()
}

/// Serialise and seal a record. Returns the bytes to append and the record's digest.
pub fn encode(r: &Record) -> (Vec<u8>, Digest) {
    let mut s = String::with_capacity(512 + r.body.len());
    s.push_str("---\n");
    format::write_front(r, &mut s);
    s.push_str("---\n");
    escape_body(&r.body, &mut s);
    let d = digest(s.as_bytes());
    s.push_str("<!-- seal sha256=");
    s.push_str(&hex(&d));
    s.push_str(" -->\n");
    (s.into_bytes(), d)
}

/// The content of a record without its stamp (`ts`, `prev`) or seal: the same pulse stamped twice
/// has the same identity. Used to recognise an intent file that was already appended.
pub fn identity(record_bytes: &[u8]) -> Digest {
    let mut h = Sha256::new();
    let mut in_front = false;
    let mut fences = 0;
    for line in record_bytes.split_inclusive(|&b| b == b'\n') {
        let bare = trim_eol(line);
        if bare == b"---" && fences < 2 {
            fences += 1;
            in_front = fences == 1;
        } else if in_front && (bare.starts_with(b"ts:") || bare.starts_with(b"prev:")) {
            continue;
        } else if !in_front && parse_seal_line(bare).is_some() {
            break;
        }
        h.update(line);
    }
    h.finalize().into()
}

fn escape_body(body: &str, out: &mut String) {
    if body.is_empty() {
        return;
    }
    for line in body.split_inclusive('\n') {
        let (text, eol) = match line.strip_suffix('\n') {
            Some(t) => (t, "\n"),
            None => (line, "\n"),
        };
        if needs_escape(text.trim_start_matches('\\').as_bytes()) {
            out.push('\\');
        }
        out.push_str(text);
        out.push_str(eol);
    }
}

fn unescape_body(body: &str) -> String {
    // Escaped lines are rare: most bodies come back as they are.
    if !body.starts_with('\\') && !body.contains("\n\\") {
        return body.to_string();
    }
    let mut out = String::with_capacity(body.len());
    for line in body.split_inclusive('\n') {
        let text = line.trim_end_matches(['\n', '\r']);
        if text.starts_with('\\') && needs_escape(text.trim_start_matches('\\').as_bytes()) {
            out.push_str(&line[1..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

fn needs_escape(line: &[u8]) -> bool {
    let line = trim_eol(line);
    line == b"---" || line.starts_with(SEAL_PREFIX) || is_schema_line(line)
}

fn trim_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn is_schema_line(line: &[u8]) -> bool {
    let Some(v) = line.strip_prefix(b"schema:") else {
        return false;
    };
    let v = v.trim_ascii();
    let v = v
        .strip_prefix(b"\"")
        .and_then(|v| v.strip_suffix(b"\""))
        .or_else(|| v.strip_prefix(b"'").and_then(|v| v.strip_suffix(b"'")))
        .unwrap_or(v);
    v == b"ledgerpulse/v1"
}

fn parse_seal_line(line: &[u8]) -> Option<Digest> {
    let hexpart = line.strip_prefix(SEAL_PREFIX)?.strip_suffix(SEAL_SUFFIX)?;
    if hexpart.len() != 64 {
        return None;
    }
    let mut d = [0u8; 32];
    for (i, pair) in hexpart.chunks(2).enumerate() {
        let hi = (pair[0] as char).to_digit(16)?;
        let lo = (pair[1] as char).to_digit(16)?;
        d[i] = u8::try_from(hi * 16 + lo).ok()?;
    }
    Some(d)
}

/// Is there a record start at `pos` of `buf`? `line_start_known` says whether `pos` is known to be
/// at the beginning of a line (true at offset 0 of a file).
fn start_at(buf: &[u8], pos: usize) -> bool {
    let rest = &buf[pos..];
    let after = if let Some(r) = rest.strip_prefix(b"---\n") {
        r
    } else if let Some(r) = rest.strip_prefix(b"---\r\n") {
        r
    } else {
        return false;
    };
    let end = memchr::memchr(b'\n', after).unwrap_or(after.len());
    if end == after.len() {
        // The schema line is not complete in this buffer: cannot be sure yet.
        return false;
    }
    is_schema_line(trim_eol(&after[..end]))
}

/// The record start whose schema line is at `schema_pos`, if there is one.
pub fn start_before(buf: &[u8], schema_pos: usize) -> Option<usize> {
    fence_before(buf, schema_pos).filter(|&s| start_at(buf, s))
}

/// Offsets of every record start in `buf`. `buf` must begin at a line start.
pub fn starts(buf: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    for hit in memmem::find_iter(buf, b"schema:") {
        if let Some(s) = fence_before(buf, hit)
            && start_at(buf, s)
        {
            out.push(s);
        }
    }
    out
}

/// The start of the `---` line just before the line at `schema_pos`, if the schema line begins a
/// line and the previous line is a fence that itself begins a line (or the buffer).
fn fence_before(buf: &[u8], schema_pos: usize) -> Option<usize> {
    if schema_pos < 4 || buf[schema_pos - 1] != b'\n' {
        return None;
    }
    let mut s = schema_pos - 4; // "---\n"
    if &buf[s..schema_pos] != b"---\n" {
        if schema_pos < 5 || &buf[schema_pos - 5..schema_pos] != b"---\r\n" {
            return None;
        }
        s = schema_pos - 5;
    }
    (s == 0 || buf[s - 1] == b'\n').then_some(s)
}

/// Offsets at or after `from` where a line of `buf` begins with `prefix`, in order. `from` must
/// be a line start.
fn line_starts<'b>(
    buf: &'b [u8],
    from: usize,
    prefix: &'b memmem::Finder<'static>,
) -> impl Iterator<Item = usize> + 'b {
    prefix
        .find_iter(&buf[from..])
        .map(move |i| from + i)
        .filter(move |&p| p == from || buf[p - 1] == b'\n')
}

/// Searchers built once: building one costs more than searching a record's front matter.
static FENCE: LazyLock<memmem::Finder<'static>> = LazyLock::new(|| memmem::Finder::new(b"---"));
static SEAL: LazyLock<memmem::Finder<'static>> = LazyLock::new(|| memmem::Finder::new(SEAL_PREFIX));

/// Whether a record ended with a seal, and whether that seal matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seal {
    Valid,
    Mismatch,
    Missing,
}

/// One record's bytes as found in a stream: from its start to the next record start.
#[derive(Clone, Debug)]
pub struct Frame<'a> {
    /// Absolute byte offset of the record in its file.
    pub offset: u64,
    /// The record through its seal line (or the whole segment when unsealed).
    pub bytes: &'a [u8],
    /// Bytes after the seal line up to the next record start: blank, or garbage.
    pub trailer: &'a [u8],
    pub seal: Seal,
    /// sha256 of the record's bytes before its seal line (the chain uses it for `prev`).
    pub digest: Digest,
    /// The digest written in the seal line, when there is one.
    pub stored: Option<Digest>,
    /// Where the front matter ends (`---` fence) within `bytes`, if it does.
    front_end: Option<(usize, usize)>,
    body_end: usize,
}

impl<'a> Frame<'a> {
    /// Split one segment (a record start up to the next start or the end of data).
    pub fn split(offset: u64, seg: &'a [u8]) -> Frame<'a> {
        let mut f = Frame::split_unhashed(offset, seg);
        f.hash();
        f
    }

    /// Split without hashing. `seal` is `Missing` when there is no seal line and `Valid` when
    /// there is one *unchecked*: call [`Frame::hash`] before trusting it. Rehydration uses this
    /// to skip hashing records it does not need.
    pub fn split_unhashed(offset: u64, seg: &'a [u8]) -> Frame<'a> {
        // The closing fence: the first `---` line after the opening one. One SIMD search over
        // the front rather than a search per line: rehydration splits hundreds of records.
        let first = memchr::memchr(b'\n', seg).map_or(seg.len(), |i| i + 1);
        let front_end = line_starts(seg, first, &FENCE).find_map(|p| {
            let rest = &seg[p + 3..];
            let eol = if rest.starts_with(b"\n") {
                4
            } else if rest.starts_with(b"\r\n") {
                5
            } else {
                return None;
            };
            Some((p, p + eol))
        });
        let mut seal = Seal::Missing;
        let mut body_end = seg.len();
        let mut rec_end = seg.len();
        let mut stored = None;
        if let Some((_, body_start)) = front_end {
            for p in line_starts(seg, body_start, &SEAL) {
                // A seal line counts only when it is complete (ends with a newline).
                let Some(nl) = memchr::memchr(b'\n', &seg[p..]) else {
                    break;
                };
                let eol = p + nl + 1;
                if let Some(d) = parse_seal_line(trim_eol(&seg[p..eol])) {
                    stored = Some(d);
                    body_end = p;
                    rec_end = eol;
                    break;
                }
            }
        }
        if stored.is_some() {
            seal = Seal::Valid;
        }
        Frame {
            offset,
            bytes: &seg[..rec_end],
            trailer: &seg[rec_end..],
            seal,
            digest: [0; 32],
            stored,
            front_end,
            body_end,
        }
    }

    /// Compute the digest and check the seal against it.
    pub fn hash(&mut self) {
        self.digest = digest(&self.bytes[..self.body_end]);
        if let Some(d) = self.stored {
            self.seal = if d == self.digest {
                Seal::Valid
            } else {
                Seal::Mismatch
            };
        }
    }

    /// The front matter's bytes (between the fences), when it is closed.
    pub fn front(&self) -> Option<&'a [u8]> {
        let (fm_end, _) = self.front_end?;
        let first_nl = memchr::memchr(b'\n', self.bytes).map_or(0, |i| i + 1);
        self.bytes.get(first_nl..fm_end)
    }

    /// Whether the body has a `facts:` list.
    pub fn has_facts(&self) -> bool {
        let Some((_, body_start)) = self.front_end else {
            return false;
        };
        let body = &self.bytes[body_start..self.body_end];
        body.starts_with(b"facts:\n") || memmem::find(body, b"\nfacts:").is_some()
    }

    /// The digest the next record's `prev` must name: the sealed one when there is a seal, so
    /// a record changed after sealing is reported once (as tampered), not again as a chain break.
    pub fn chain_digest(&self) -> Digest {
        self.stored.unwrap_or(self.digest)
    }

    /// Whether the bytes after the seal are only whitespace.
    pub fn trailer_is_blank(&self) -> bool {
        self.trailer.iter().all(u8::is_ascii_whitespace)
    }

    /// Offset just past this record's bytes (its seal line, when sealed).
    pub fn end(&self) -> u64 {
        self.offset + self.bytes.len() as u64
    }

    /// Whether the front matter mentions `prev:`: written by a sealing writer.
    pub fn expects_seal(&self) -> bool {
        let front = match self.front_end {
            Some((end, _)) => &self.bytes[..end],
            None => self.bytes,
        };
        // trail writes `prev` last: look there before searching the whole front matter.
        let last_line = front[..front.len().saturating_sub(1)]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(front, |i| &front[i + 1..]);
        last_line.starts_with(b"prev:") || memmem::find(front, b"\nprev:").is_some()
    }

    /// Parse the record. Errors carry line and column relative to the record's first line.
    pub fn parse(&self) -> Result<Record, ParseError> {
        let mut rec = self.parse_front()?;
        if let Some((_, body_start)) = self.front_end {
            let body = String::from_utf8_lossy(&self.bytes[body_start..self.body_end]);
            rec.body = unescape_body(&body);
        }
        Ok(rec)
    }

    /// Parse the front matter alone: the record without its body. It succeeds exactly when
    /// [`Frame::parse`] does (any bytes make a body).
    pub fn parse_front(&self) -> Result<Record, ParseError> {
        let Some((fm_end, _)) = self.front_end else {
            return Err(ParseError {
                line: 1,
                column: 1,
                message: "front matter is not closed by a `---` line".into(),
            });
        };
        let first_nl = memchr::memchr(b'\n', self.bytes).map_or(0, |i| i + 1);
        let front = std::str::from_utf8(&self.bytes[first_nl..fm_end]).map_err(|e| ParseError {
            line: 2,
            column: 1,
            message: format!("front matter is not UTF-8 ({e})"),
        })?;
        let front = if front.contains('\r') {
            std::borrow::Cow::Owned(front.replace("\r\n", "\n"))
        } else {
            std::borrow::Cow::Borrowed(front)
        };
        format::parse_front(&front).map_err(|mut e| {
            e.line += 1; // the opening fence
            e
        })
    }
}

/// Split a whole buffer (beginning at a line start) into frames. Bytes before the first record
/// start are returned separately (a preamble: blank, or garbage).
pub fn split_all(base: u64, buf: &[u8]) -> (&[u8], Vec<Frame<'_>>) {
    let starts = starts(buf);
    let pre_end = starts.first().copied().unwrap_or(buf.len());
    let mut frames = Vec::with_capacity(starts.len());
    for (i, &s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(buf.len());
        frames.push(Frame::split(base + s as u64, &buf[s..e]));
    }
    (&buf[..pre_end], frames)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Record, RecordType};
    use crate::time::Ts;

    fn rec(body: &str) -> Record {
        let mut r = Record::new(RecordType::Pulse, Ts::from_micros(1_700_000_000_000_000));
        r.body = body.to_string();
        r
    }

    #[test]
    fn a_sealed_record_splits_back_and_verifies() {
        let (bytes, d) = encode(&rec("facts:\n- \"x\"\n"));
        let (pre, frames) = split_all(0, &bytes);
        assert!(pre.is_empty());
        assert_eq!(frames.len(), 1);
        assert_eq!(frames[0].seal, Seal::Valid);
        assert_eq!(frames[0].digest, d);
        assert_eq!(frames[0].parse().unwrap().body, "facts:\n- \"x\"\n");
    }

    #[test]
    fn body_lines_that_look_like_framing_are_escaped_and_restored() {
        let body = "---\nschema: ledgerpulse/v1\n<!-- seal sha256=00 -->\n\\---\nplain\n";
        let r = rec(body);
        let (mut bytes, _) = encode(&r);
        let (second, _) = encode(&rec("two\n"));
        bytes.extend_from_slice(&second);
        let (_, frames) = split_all(0, &bytes);
        assert_eq!(frames.len(), 2);
        assert_eq!(frames[0].seal, Seal::Valid);
        assert_eq!(frames[0].parse().unwrap().body, body);
    }

    #[test]
    fn a_changed_byte_breaks_the_seal() {
        let (mut bytes, _) = encode(&rec("facts:\n- \"x\"\n"));
        let i = bytes.iter().position(|&b| b == b'x').unwrap();
        bytes[i] = b'y';
        let (_, frames) = split_all(0, &bytes);
        assert_eq!(frames[0].seal, Seal::Mismatch);
    }

    #[test]
    fn identity_ignores_the_stamp() {
        let mut a = rec("b\n");
        let (x, _) = encode(&a);
        a.ts = Ts::from_micros(5);
        a.prev = Some("cd".repeat(32));
        let (y, _) = encode(&a);
        assert_ne!(x, y);
        assert_eq!(identity(&x), identity(&y));
        a.body = "c\n".into();
        assert_ne!(identity(&encode(&a).0), identity(&x));
    }
}
