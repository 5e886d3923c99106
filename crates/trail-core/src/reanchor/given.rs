//! Which packets a session chain was given: `.trail/state/reanchor/<session>.jsonl`, a line per
//! packet with each part's content hash, so that the same packet never reaches one context
//! twice.
//!
//! A chain is what the host keeps under one session id: Claude Code 2.1.328 keeps the id across
//! `--resume`/`--continue` and compaction, and gives `/clear` a new one (measured in
//! `tests/cli/claude_e2e.rs`); Codex keeps its thread id across `resume`. A resume reloads the
//! conversation, packets included: its context already holds every part given since the window
//! opened, and gets only the parts that changed. A compaction replaces the conversation with a
//! summary, so it opens a new window (as [`crate::injected`] counts it) and the packet is given
//! whole; a `/clear` starts a new chain.
//!
//! The journal is append-only; a torn or foreign line is skipped (the worst it costs is one
//! part given again).

use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::file_error::{At, FileError};
use crate::fsutil;
use crate::injected::session_key;
use crate::layout::Layout;

/// A chain's journal is read whole; past this it is refused (the packet is given).
const MAX_JOURNAL: u64 = 1 << 20;

/// One packet given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Given {
    pub at: String,
    /// What opened the context it went into: `clear`, `compact`, `resume`.
    pub source: String,
    /// This packet went into a context window of its own (a compaction's, a clear's).
    #[serde(default)]
    pub window: bool,
    /// Each part given: its name and content hash.
    pub parts: Vec<(String, String)>,
}

/// What the current context window of a chain was given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Window {
    /// The parts of every packet since the last one that opened the window: name, hash.
    pub parts: Vec<(String, String)>,
    /// When the latest packet was given.
    pub last: Option<String>,
}

/// What the current context window of `session`'s chain was given.
pub fn in_window(root: &Path, session: &str) -> Result<Window, FileError> {
    let path = Layout::new(root).reanchored(&session_key(session));
    let text = match fsutil::read_string_in(root, &path, MAX_JOURNAL) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Window::default()),
        Err(e) => return Err(e),
    };
    let mut parts = Vec::new();
    let mut last = None;
    for g in text
        .lines()
        .filter_map(|l| serde_json::from_str::<Given>(l).ok())
    {
        if g.window {
            parts.clear();
        }
        parts.extend(g.parts);
        last = Some(g.at);
    }
    Ok(Window { parts, last })
}

/// Journal what `session`'s chain was given. One write, not synced: a line lost to a crash
/// costs a part given twice, and a session start spares the `fsync`.
pub fn record(root: &Path, session: &str, given: &Given) -> Result<(), FileError> {
    use std::io::Write;
    let path = Layout::new(root).reanchored(&session_key(session));
    // A line of its own even after a torn one: a leading newline costs a blank line at most.
    let mut line = b"\n".to_vec();
    serde_json::to_writer(&mut line, given)
        .map_err(io::Error::other)
        .at("encode a line for", &path)?;
    line.push(b'\n');
    fsutil::open_in(root, &path, fsutil::Access::Append)
        .map_err(io::Error::from)
        .and_then(|mut f| f.write_all(&line))
        .at("append to", &path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn given(window: bool, parts: &[(&str, &str)]) -> Given {
        Given {
            at: "2026-11-27T10:00:00.000000Z".into(),
            source: if window { "compact" } else { "resume" }.into(),
            window,
            parts: parts
                .iter()
                .map(|(n, h)| ((*n).to_string(), (*h).to_string()))
                .collect(),
        }
    }

    fn names(v: &[(String, String)]) -> Vec<&str> {
        v.iter().map(|(_, h)| h.as_str()).collect()
    }

    #[test]
    fn a_window_holds_what_was_given_since_it_opened_in_its_chain_only() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert_eq!(in_window(root, "s1").unwrap(), Window::default());
        record(
            root,
            "s1",
            &given(false, &[("state", "a1"), ("user", "b1")]),
        )
        .unwrap();
        record(root, "s1", &given(false, &[("state", "a2")])).unwrap();
        assert_eq!(
            names(&in_window(root, "s1").unwrap().parts),
            ["a1", "b1", "a2"]
        );
        assert!(in_window(root, "s2").unwrap().parts.is_empty());
        // A compaction opens a new window: what came before it is no longer in the context.
        record(root, "s1", &given(true, &[("state", "a3")])).unwrap();
        assert_eq!(names(&in_window(root, "s1").unwrap().parts), ["a3"]);
        // A torn line does not hide the lines around it.
        let path = Layout::new(root).reanchored("s1");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("{\"at\":\"2026");
        std::fs::write(&path, text).unwrap();
        record(root, "s1", &given(false, &[("user", "b4")])).unwrap();
        assert_eq!(names(&in_window(root, "s1").unwrap().parts), ["a3", "b4"]);
        // A hostile session id names no path elsewhere.
        record(root, "../../x", &given(false, &[("state", "d")])).unwrap();
        assert_eq!(names(&in_window(root, "../../x").unwrap().parts), ["d"]);
        assert!(!root.join("x.jsonl").exists());
    }
}
