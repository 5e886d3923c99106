//! How far each transcript has been flushed to daily memory, so that the next flush of the same
//! session extracts only what came after: a SessionEnd after a compaction, or a second
//! compaction, used to flush the whole transcript again, and the day's file repeated itself.
//!
//! One small file per transcript under `.trail/state/flushed/`, named by a hash of the
//! transcript's path, holds where the last flush ended (always just after a whole line), the
//! hash of everything before that point, and the hash of the last line before it. The next
//! flush starts there when the transcript still begins with the same bytes. A transcript
//! rewritten in place is searched for that last line, and flushed from just after it. When the
//! line is gone too, the transcript is not the one that was flushed: all of it is new.

use std::path::Path;

use crate::file_error::{At, FileError};
use crate::layout::Layout;
use crate::text::sha256_hex;

/// Where the last flush of one transcript ended.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Mark {
    /// Bytes of the transcript flushed (the start of the first line not flushed).
    offset: usize,
    /// sha256 of those bytes.
    prefix: String,
    /// sha256 of the last line flushed (without its newline); empty when none was.
    last_line: String,
}

impl Mark {
    /// The mark for a flush that covered `text[..end]`.
    fn at(text: &str, end: usize) -> Mark {
        let flushed = &text[..end];
        let last = flushed
            .strip_suffix('\n')
            .unwrap_or(flushed)
            .rsplit('\n')
            .next()
            .unwrap_or("");
        Mark {
            offset: end,
            prefix: sha256_hex(flushed.as_bytes()),
            last_line: if last.is_empty() {
                String::new()
            } else {
                sha256_hex(last.as_bytes())
            },
        }
    }

    fn render(&self) -> String {
        format!(
            "offset={}\nprefix={}\nlast_line={}\n",
            self.offset, self.prefix, self.last_line
        )
    }

    fn parse(s: &str) -> Option<Mark> {
        let mut m = Mark {
            offset: 0,
            prefix: String::new(),
            last_line: String::new(),
        };
        for line in s.lines() {
            match line.split_once('=')? {
                ("offset", v) => m.offset = v.parse().ok()?,
                ("prefix", v) => m.prefix = v.to_string(),
                ("last_line", v) => m.last_line = v.to_string(),
                _ => {}
            }
        }
        (!m.prefix.is_empty()).then_some(m)
    }

    /// Where the part of `text` not flushed yet begins.
    fn start_in(&self, text: &str) -> usize {
        if text.is_char_boundary(self.offset)
            && sha256_hex(&text.as_bytes()[..self.offset]) == self.prefix
        {
            return self.offset;
        }
        if self.last_line.is_empty() {
            return 0;
        }
        // Rewritten: after the latest copy of the last line flushed, if it is still there.
        let mut start = 0;
        let mut end = 0;
        for line in text.split_inclusive('\n') {
            end += line.len();
            let body = line.strip_suffix('\n').unwrap_or(line);
            if sha256_hex(body.as_bytes()) == self.last_line {
                start = end;
            }
        }
        start
    }
}

/// The file that holds `transcript`'s mark: the same for every spelling of its path (the hook's
/// `transcript_path`, a path given to `trail memory flush`).
fn mark_path(root: &Path, transcript: &Path) -> std::path::PathBuf {
    let real = std::fs::canonicalize(transcript).unwrap_or_else(|_| transcript.to_path_buf());
    let key = sha256_hex(real.as_os_str().as_encoded_bytes());
    Layout::new(root).flush_mark(&key[..16])
}

/// How much of `text` a flush covers: every whole line, and a last line without its newline
/// only when it is a whole record already (JSON that parses), so that a line the host is still
/// writing is left for the next flush.
fn covered(text: &str) -> usize {
    if text.ends_with('\n') {
        return text.len();
    }
    let tail_start = text.rfind('\n').map_or(0, |i| i + 1);
    if serde_json::from_str::<serde_json::Value>(&text[tail_start..]).is_ok() {
        text.len()
    } else {
        tail_start
    }
}

/// The part of `text` (the transcript at `transcript`, read whole) that no flush has covered
/// yet: from where the last flush ended to the last whole record.
pub fn unflushed<'a>(root: &Path, transcript: &Path, text: &'a str) -> &'a str {
    let start = crate::fsutil::read_string_in(root, &mark_path(root, transcript), 1024)
        .ok()
        .and_then(|s| Mark::parse(&s))
        .map_or(0, |m| m.start_in(text));
    &text[start.min(covered(text))..covered(text)]
}

/// Records that `text` (the transcript at `transcript`) has been flushed up to its last whole
/// record. Called after the flush is written, so a crash in between flushes the part again
/// rather than losing it.
pub fn mark(root: &Path, transcript: &Path, text: &str) -> Result<(), FileError> {
    let m = Mark::at(text, covered(text));
    let path = mark_path(root, transcript);
    crate::fsutil::atomic_write_in(root, &path, m.render().as_bytes()).at("write", &path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "/home/u/.claude/projects/p/s1.jsonl";

    #[test]
    fn the_next_flush_starts_where_the_last_one_ended() {
        let dir = tempfile::tempdir().unwrap();
        let (root, t) = (dir.path(), Path::new(T));
        let first = "{\"a\":1}\n{\"b\":2}\n";
        assert_eq!(unflushed(root, t, first), first, "nothing flushed yet");
        mark(root, t, first).unwrap();
        assert_eq!(unflushed(root, t, first), "");
        let grown = format!("{first}{{\"c\":3}}\n{{\"d\":");
        assert_eq!(
            unflushed(root, t, &grown),
            "{\"c\":3}\n",
            "a line still being written waits for the next flush"
        );
        mark(root, t, &grown).unwrap();
        let done = format!("{grown}4}}");
        assert_eq!(unflushed(root, t, &done), "{\"d\":4}");
        // Another transcript has its own mark.
        assert_eq!(unflushed(root, Path::new("/other.jsonl"), first), first);
    }

    #[test]
    fn a_rewritten_transcript_resumes_after_the_last_line_flushed_or_from_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let (root, t) = (dir.path(), Path::new(T));
        mark(root, t, "{\"a\":1}\n{\"b\":2}\n").unwrap();
        // The first line rewritten, the last flushed line kept: only what follows it is new.
        let rewritten = "{\"a\":\"changed\"}\n{\"b\":2}\n{\"c\":3}\n";
        assert_eq!(unflushed(root, t, rewritten), "{\"c\":3}\n");
        // Shorter, and without the last flushed line: not the transcript that was flushed.
        assert_eq!(unflushed(root, t, "{\"z\":0}\n"), "{\"z\":0}\n");
        assert_eq!(unflushed(root, t, ""), "");
        // A mark that is not one (hand-edited, truncated) flushes everything.
        std::fs::write(mark_path(root, t), "garbage").unwrap();
        assert_eq!(unflushed(root, t, rewritten), rewritten);
    }

    #[test]
    fn marks_round_trip() {
        let m = Mark::at("x\ny\n", 4);
        assert_eq!(Mark::parse(&m.render()), Some(m.clone()));
        assert_eq!(m.last_line, sha256_hex(b"y"));
        assert_eq!(Mark::at("", 0).last_line, "");
    }
}
