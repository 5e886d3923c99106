//! A session as its host records it, whichever host: Claude Code's transcript
//! ([`crate::transcript`]) or Codex's rollout ([`crate::rollout`]), told apart by their first
//! line and read into one [`Transcript`]. Daily memory, the context summary callback and the
//! attention budget ask here, so each works for both hosts.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::file_error::{At, FileError};
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
pub fn context_tokens(path: &Path) -> Result<Option<u64>, FileError> {
    context_tokens_io(path).at("read", path)
}

fn context_tokens_io(path: &Path) -> std::io::Result<Option<u64>> {
    let file = File::open(path)?;
    let len = crate::fsutil::size_of(&file)?;
    let mut head = Vec::new();
    (&file).take(HEAD).read_to_end(&mut head)?;
    Ok(match Format::of(&head) {
        Format::ClaudeCode => crate::transcript::context_tokens_in(&file, len),
        Format::CodexRollout => crate::rollout::context_tokens_in(&file, len),
    })
}

/// How much of a session file's end is read for its model.
const MODEL_TAIL: u64 = 512 << 10;

/// The model the session's latest answer came from (a Claude Code transcript's
/// `message.model`, a Codex rollout's `turn_context` model), read from the end of the file.
pub fn model(path: &Path) -> Result<Option<String>, FileError> {
    model_io(path).at("read", path)
}

fn model_io(path: &Path) -> std::io::Result<Option<String>> {
    // The prompt hook asks on every prompt: the last 64 KB first (the latest answer is
    // usually there), the last 512 KB only when it is not.
    for tail in [64 << 10, MODEL_TAIL] {
        if let Some(m) = model_in_tail(path, tail)? {
            return Ok(Some(m));
        }
    }
    Ok(None)
}

fn model_in_tail(path: &Path, size: u64) -> io::Result<Option<String>> {
    use std::io::{Seek, SeekFrom};
    let mut file = File::open(path)?;
    let len = crate::fsutil::size_of(&file)?;
    file.seek(SeekFrom::Start(len.saturating_sub(size)))?;
    let mut tail = Vec::new();
    file.take(size).read_to_end(&mut tail)?;
    Ok(tail
        .split(|&b| b == b'\n')
        .rev()
        .filter(|l| memchr::memmem::find(l, b"\"model\"").is_some())
        .find_map(|l| {
            let v = serde_json::from_slice::<serde_json::Value>(l).ok()?;
            [v.pointer("/message/model"), v.pointer("/payload/model")]
                .into_iter()
                .flatten()
                .find_map(|m| m.as_str().filter(|m| !m.is_empty()).map(String::from))
        }))
}

/// The context window of a model, by its name, where the name says it: Claude models take
/// 200,000 tokens (1,000,000 when the name asks for the long context), GPT-5 400,000, GPT-4.1
/// 1,047,576, GPT-4o 128,000, o3 and o4 200,000. `None` for a name this table does not know.
pub fn window_of(model: &str) -> Option<u64> {
    let m = model.to_ascii_lowercase();
    Some(if m.contains("[1m]") || m.contains("-1m") {
        1_000_000
    } else if m.starts_with("claude")
        || m.contains("sonnet")
        || m.contains("opus")
        || m.contains("haiku")
    {
        200_000
    } else if m.starts_with("gpt-5") || m.starts_with("codex") {
        400_000
    } else if m.starts_with("gpt-4.1") {
        1_047_576
    } else if m.starts_with("gpt-4o") {
        128_000
    } else if m.starts_with("o3") || m.starts_with("o4") {
        200_000
    } else {
        return None;
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
pub fn first_context_tokens(path: &Path) -> Result<Option<u64>, FileError> {
    first_context_tokens_io(path).at("read", path)
}

fn first_context_tokens_io(path: &Path) -> std::io::Result<Option<u64>> {
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

#[cfg(test)]
mod model_tests {
    use super::*;

    /// Found by issue 22: the budget's window was fixed at 200,000 whatever the model.
    #[test]
    fn the_model_is_read_from_the_end_and_names_its_window() {
        let dir = tempfile::tempdir().unwrap();
        let t = dir.path().join("t.jsonl");
        std::fs::write(
            &t,
            "{\"type\":\"assistant\",\"message\":{\"model\":\"claude-opus-4-1\",\"usage\":{}}}\n\
             {\"type\":\"user\",\"message\":{\"content\":\"hi\"}}\n",
        )
        .unwrap();
        assert_eq!(model(&t).unwrap().as_deref(), Some("claude-opus-4-1"));
        let r = dir.path().join("rollout.jsonl");
        std::fs::write(
            &r,
            "{\"type\":\"turn_context\",\"payload\":{\"model\":\"gpt-5-codex\"}}\n",
        )
        .unwrap();
        assert_eq!(model(&r).unwrap().as_deref(), Some("gpt-5-codex"));
        assert_eq!(window_of("claude-sonnet-4-5-20250929"), Some(200_000));
        assert_eq!(window_of("claude-sonnet-4-5[1m]"), Some(1_000_000));
        assert_eq!(window_of("gpt-5-codex"), Some(400_000));
        assert_eq!(window_of("llama3"), None);
    }
}
