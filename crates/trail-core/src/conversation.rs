//! A session as its host records it, whichever host: Claude Code's transcript
//! ([`crate::transcript`]) or Codex's rollout ([`crate::rollout`]), told apart by their first
//! line and read into one [`Transcript`]. Daily memory, the context summary callback and the
//! attention budget ask here, so each works for both hosts.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::ledger::reader::ReadAt;
use crate::transcript::Transcript;

/// Which host wrote a session file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Claude Code's transcript (`~/.claude/projects/<project>/<session>.jsonl`).
    ClaudeCode,
    /// Codex's rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-….jsonl`).
    CodexRollout,
}

impl Format {
    /// The format of a file that starts with `head` (a rollout's first line is its
    /// `session_meta`; anything else is read as Claude Code's).
    pub fn of(head: &[u8]) -> Format {
        if crate::rollout::is_rollout(head) {
            Format::CodexRollout
        } else {
            Format::ClaudeCode
        }
    }

    /// Read `text` (a whole file, or the part of one after a flush: only a file's first line
    /// tells its format) as this format.
    pub fn parse(self, text: &str) -> Transcript {
        match self {
            Format::ClaudeCode => crate::transcript::parse(text),
            Format::CodexRollout => crate::rollout::parse(text),
        }
    }
}

/// How much of a file's start tells its format: a rollout says `session_meta` within its first
/// hundred bytes.
const HEAD: u64 = 4096;

/// Read a session file's whole text, whichever host wrote it.
pub fn parse(text: &str) -> Transcript {
    Format::of(text.as_bytes()).parse(text)
}

/// The current context size of the session in `path`, read backwards from its end.
pub fn context_tokens(path: &Path) -> io::Result<Option<u64>> {
    let file = File::open(path)?;
    let len = crate::fsutil::size_of(&file)?;
    let mut head = Vec::new();
    (&file).take(HEAD).read_to_end(&mut head)?;
    Ok(match Format::of(&head) {
        Format::ClaudeCode => crate::transcript::context_tokens_in(&file, len),
        Format::CodexRollout => crate::rollout::context_tokens_in(&file, len),
    })
}

/// What one line says about the context size (see `transcript::decides`).
type Decide = fn(&[u8]) -> Option<Option<u64>>;

/// The most of a session file read forward for its first context size: the first assistant
/// message is near the start (past the host's instructions, tens of KB).
const FIRST_MAX: u64 = 8 << 20;

/// The session's context size when it was first measured (its first main-chain assistant
/// message, or a rollout's first `token_count`), read forward from the start: the cost is the
/// distance to that line, not the file's length. `None` when there is none in the first
/// `FIRST_MAX` bytes.
pub fn first_context_tokens(path: &Path) -> io::Result<Option<u64>> {
    use std::io::BufRead;
    let file = File::open(path)?;
    let mut r = io::BufReader::new(file).take(FIRST_MAX);
    let mut line = Vec::new();
    let mut decide: Option<Decide> = None;
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        let d = *decide.get_or_insert(match Format::of(&line) {
            Format::ClaudeCode => crate::transcript::decides,
            Format::CodexRollout => crate::rollout::decides,
        });
        if let Some(Some(n)) = d(&line) {
            return Ok(Some(n));
        }
    }
}

/// Read `src`'s lines backwards from `len` until `decide` settles the answer: it returns `None`
/// for a line that says nothing, `Some(answer)` for the line that decides. The cost depends on
/// how far back that line is, not on the file's length. `None` when no line decides.
pub(crate) fn last_deciding_line<R: ReadAt + ?Sized>(
    src: &R,
    len: u64,
    mut decide: impl FnMut(&[u8]) -> Option<Option<u64>>,
) -> Option<u64> {
    const BLOCK: u64 = 64 * 1024;
    let mut end = len;
    let mut carry: Vec<u8> = Vec::new(); // the start of a line cut by the block boundary
    while end > 0 {
        let start = end.saturating_sub(BLOCK);
        let mut buf = vec![0u8; crate::fsutil::to_usize(end - start)];
        src.read_exact_at(&mut buf, start).ok()?;
        buf.extend_from_slice(&carry);
        // Whole lines are those after the first newline (unless this block starts the file).
        let first_nl = if start == 0 {
            None
        } else {
            memchr::memchr(b'\n', &buf)
        };
        let whole = first_nl.map_or(&buf[..], |i| &buf[i + 1..]);
        for line in whole.rsplit(|&b| b == b'\n') {
            if let Some(answer) = decide(line) {
                return answer;
            }
        }
        carry = first_nl.map_or_else(Vec::new, |i| buf[..i].to_vec());
        end = start;
    }
    None
}
