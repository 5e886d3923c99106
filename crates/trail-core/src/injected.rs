//! What trail injects into each session's context, counted, and the per-session cap.
//!
//! Every piece of context trail adds (SessionStart's rebuilt state, the prompt hook's notes, a
//! PreToolUse warning, a subagent's primer) passes [`admit`] first; the reason a tool call was
//! refused is never held back, only counted ([`given`]). It is counted in the
//! session's own journal, `.trail/state/context/<session>.jsonl`, one line per injection; once
//! the context window holds `cap` tokens from trail, the next injection is replaced by one line
//! saying what was held back. A compaction empties the window (Claude Code's SessionStart with
//! `source: compact`), so the count starts again there, while the session's total goes on.
//!
//! Tokens are estimated, not counted by a tokenizer (a hook cannot load one):
//! [`crate::ledger::rehydrate::estimate_tokens`], the larger of characters / 4 and words × 4/3,
//! which errs high on code and identifiers.
//!
//! The journal is append-only and read whole at each injection (a session's lines are a few
//! kilobytes). Two hooks of one session injecting at the same instant may both fit under the
//! cap: the cap can be overshot by one injection, never more. Nothing is read or written when
//! nothing is injected, so an allowed tool call costs no I/O here (ARCHITECTURE, the hot path).

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::file_error::{At, FileError};
use crate::layout::Layout;
use crate::ledger::rehydrate::estimate_tokens;
use crate::time::Ts;

/// A session's journal is capped when read: past this it is refused, and injections go on
/// uncounted (the error is reported).
const MAX_JOURNAL: u64 = 4 << 20;

/// One line of the journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Line {
    at: String,
    event: String,
    /// Tokens the agent received (the text, or the notice in its place).
    tokens: u64,
    /// Tokens held back by the cap (0: everything was given).
    #[serde(default, skip_serializing_if = "is_zero")]
    withheld: u64,
    /// This injection opens a new context window (after a compaction).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    window: bool,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What one event injected, summed over the session.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EventTally {
    pub injections: u64,
    pub tokens: u64,
    pub withheld: u64,
}

/// What a session received from trail.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// The session's id as the host gave it.
    pub session: String,
    /// Tokens given over the whole session.
    pub tokens: u64,
    /// Tokens given since the context window began (the session's start or its last
    /// compaction): what the cap is compared with.
    pub window_tokens: u64,
    pub injections: u64,
    /// Injections replaced by a notice, and the tokens they would have cost.
    pub withheld_injections: u64,
    pub withheld_tokens: u64,
    /// Per event (`SessionStart`, `UserPromptSubmit`, `PreToolUse`, `SubagentStart`, …).
    pub by_event: BTreeMap<String, EventTally>,
    /// When trail last injected something.
    pub last_at: Option<String>,
}

impl Tally {
    fn add(&mut self, l: &Line) {
        if l.window {
            self.window_tokens = 0;
        }
        self.tokens += l.tokens;
        self.window_tokens += l.tokens;
        self.injections += 1;
        if l.withheld > 0 {
            self.withheld_injections += 1;
            self.withheld_tokens += l.withheld;
        }
        let e = self.by_event.entry(l.event.clone()).or_default();
        e.injections += 1;
        e.tokens += l.tokens;
        e.withheld += l.withheld;
        self.last_at = Some(l.at.clone());
    }
}

/// What to inject, after the cap had its say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Admitted {
    /// The text as it was.
    Given(String),
    /// One line in its place: the cap was reached.
    Withheld(String),
}

impl Admitted {
    pub fn text(self) -> String {
        match self {
            Admitted::Given(t) | Admitted::Withheld(t) => t,
        }
    }
}

/// The file name a session id becomes: the id itself when it is short and plain (Claude Code
/// and Codex use UUIDs), else a hash of it, so that no id can name a path elsewhere.
pub fn session_key(session: &str) -> String {
    let plain = !session.is_empty()
        && session.len() <= 100
        && session
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && !session.starts_with('-');
    if plain {
        return session.to_string();
    }
    let hex = &crate::text::sha256_hex(session.as_bytes())[..32];
    format!("h-{hex}")
}

/// The estimate [`admit`] counts with.
pub fn tokens(text: &str) -> u64 {
    estimate_tokens(text) as u64
}

/// Decides what of `text` the session receives from `event`, and counts it. `new_window`: this
/// injection starts a new context window (a compaction). `cap` 0: no cap.
///
/// An I/O error leaves the decision to the caller: the hook injects the text and reports the
/// error (losing the count must not lose the context).
pub fn admit(
    root: &Path,
    session: &str,
    event: &str,
    text: String,
    new_window: bool,
    cap: u64,
) -> Result<Admitted, FileError> {
    let path = Layout::new(root).injected(&session_key(session));
    let (before, torn) = read(root, &path, session).at("read", &path)?;
    let used = if new_window { 0 } else { before.window_tokens };
    let want = tokens(&text);
    let (admitted, line) = if cap == 0 || used + want <= cap {
        (
            Admitted::Given(text),
            Line {
                at: Ts::now().to_string(),
                event: event.into(),
                tokens: want,
                withheld: 0,
                window: new_window,
            },
        )
    } else {
        let notice = notice(event, want, used, cap);
        let line = Line {
            at: Ts::now().to_string(),
            event: event.into(),
            tokens: tokens(&notice),
            withheld: want,
            window: new_window,
        };
        (Admitted::Withheld(notice), line)
    };
    append(root, &path, &line, torn).at("append to", &path)?;
    Ok(admitted)
}

/// Counts `text` that the session receives whatever the cap: the reason a tool call was
/// refused, which the agent must read to know what to do instead. It counts toward the cap
/// for what comes after it.
pub fn given(root: &Path, session: &str, event: &str, text: &str) -> Result<(), FileError> {
    let path = Layout::new(root).injected(&session_key(session));
    let (_, torn) = read(root, &path, session).at("read", &path)?;
    let line = Line {
        at: Ts::now().to_string(),
        event: event.into(),
        tokens: tokens(text),
        withheld: 0,
        window: false,
    };
    append(root, &path, &line, torn).at("append to", &path)
}

fn append(root: &Path, path: &Path, line: &Line, torn: bool) -> io::Result<()> {
    // After a torn line, start a fresh one: the torn bytes must not swallow this line too.
    let mut bytes = if torn { vec![b'\n'] } else { Vec::new() };
    serde_json::to_writer(&mut bytes, line).map_err(io::Error::other)?;
    bytes.push(b'\n');
    Ok(crate::fsutil::append_in(root, path, &bytes)?)
}

/// The one line that stands for what the cap held back.
fn notice(event: &str, want: u64, used: u64, cap: u64) -> String {
    format!(
        "trail: held back ~{want} tokens of {event} context: this session's context window already \
         holds ~{used} tokens from trail (cap {cap}, context.cap_tokens). `trail resume` and \
         `trail status` still answer."
    )
}

/// What `session` received so far (an empty tally when nothing was injected).
pub fn tally(root: &Path, session: &str) -> Result<Tally, FileError> {
    let path = Layout::new(root).injected(&session_key(session));
    read(root, &path, session).map(|(t, _)| t).at("read", &path)
}

/// The session trail injected into most recently in this project, by its journal's time.
pub fn latest_session(root: &Path) -> Option<String> {
    let dir = Layout::new(root).injected_dir();
    let newest = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let m = e.metadata().ok().filter(std::fs::Metadata::is_file)?;
            Some((m.modified().ok()?, e.file_name()))
        })
        .max()?;
    let name = newest.1.to_string_lossy().into_owned();
    name.strip_suffix(".jsonl").map(String::from)
}

/// The journal summed, and whether it ends in a torn line.
fn read(root: &Path, path: &Path, session: &str) -> io::Result<(Tally, bool)> {
    let mut t = Tally {
        session: session.to_string(),
        ..Tally::default()
    };
    let text = match crate::fsutil::read_in(root, path, MAX_JOURNAL) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((t, false)),
        Err(e) => return Err(e.into()),
    };
    let torn = !text.is_empty() && !text.ends_with('\n');
    // A torn last line (a hook killed mid-write) is skipped, as is anything not trail's.
    for l in text
        .lines()
        .filter_map(|l| serde_json::from_str::<Line>(l).ok())
    {
        t.add(&l);
    }
    Ok((t, torn))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_the_cap_an_injection_becomes_one_line_and_a_compaction_starts_over() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let text = "word ".repeat(300);
        // The estimate's own figure: two fit under the cap, a third does not.
        let n = tokens(&text);
        assert!(n >= 300, "{n}");
        let cap = 2 * n + n / 2;
        let a = admit(root, "s1", "SessionStart", text.clone(), false, cap).unwrap();
        assert_eq!(a, Admitted::Given(text.clone()));
        let b = admit(root, "s1", "UserPromptSubmit", text.clone(), false, cap).unwrap();
        assert!(matches!(b, Admitted::Given(_)));
        // 2n used; n more would pass 2.5n.
        let c = admit(root, "s1", "UserPromptSubmit", text.clone(), false, cap).unwrap();
        let Admitted::Withheld(line) = &c else {
            panic!("{c:?}")
        };
        assert!(
            !line.contains('\n') && line.contains(&format!("~{n} tokens")),
            "{line}"
        );
        let t = tally(root, "s1").unwrap();
        assert_eq!(t.injections, 3);
        assert_eq!(t.withheld_injections, 1);
        assert_eq!(t.withheld_tokens, n);
        assert_eq!(t.tokens, 2 * n + tokens(line));
        assert_eq!(t.by_event["UserPromptSubmit"].injections, 2);
        // Another session has its own count.
        assert!(matches!(
            admit(root, "s2", "SessionStart", text.clone(), false, cap).unwrap(),
            Admitted::Given(_)
        ));
        // A compaction empties the window: the rebuilt state is given again.
        let d = admit(root, "s1", "SessionStart", text.clone(), true, cap).unwrap();
        assert_eq!(d, Admitted::Given(text.clone()));
        let t = tally(root, "s1").unwrap();
        assert_eq!(t.window_tokens, n);
        assert!(t.tokens > 3 * n);
        // No cap: everything is given, and still counted.
        let big = "x".repeat(100_000);
        let e = admit(root, "s3", "SessionStart", big.clone(), false, 0).unwrap();
        assert!(matches!(e, Admitted::Given(_)));
        assert_eq!(tally(root, "s3").unwrap().tokens, tokens(&big));
    }

    #[test]
    fn a_session_id_never_names_a_path_elsewhere() {
        assert_eq!(
            session_key("0b6c4f5e-1d2a-4c3b-9e8f-7a6b5c4d3e2f"),
            "0b6c4f5e-1d2a-4c3b-9e8f-7a6b5c4d3e2f"
        );
        for hostile in [
            "../../etc/passwd",
            "a/b",
            "",
            "-rf",
            ".",
            "x".repeat(101).as_str(),
        ] {
            let k = session_key(hostile);
            assert!(k.starts_with("h-") && k.len() == 34, "{hostile:?} -> {k}");
        }
    }

    #[test]
    fn a_torn_or_foreign_line_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        admit(root, "s", "SessionStart", "a b c".into(), false, 0).unwrap();
        let path = Layout::new(root).injected("s");
        let mut text = std::fs::read_to_string(&path).unwrap();
        text.push_str("not json\n{\"at\":\"x\",\"event\":\"Pre");
        std::fs::write(&path, text).unwrap();
        let t = tally(root, "s").unwrap();
        assert_eq!(t.injections, 1);
        // The next line is not swallowed by the torn one.
        admit(root, "s", "UserPromptSubmit", "d e f".into(), false, 0).unwrap();
        assert_eq!(tally(root, "s").unwrap().injections, 2);
        assert_eq!(latest_session(root).as_deref(), Some("s"));
    }
}
