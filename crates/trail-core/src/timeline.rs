//! What a session did that no other journal keeps: the prompts it was given, how full its
//! context window was, when it started (and why: a new session, a resume, a `/clear`, a
//! compaction) and when the host compacted it. One JSON object a line in
//! `.trail/state/timeline/YYYY-MM-DD.jsonl`, appended by the hooks (SessionStart, the prompt
//! hook, PreCompact) and by `trail import` from the host's own transcript; read by `trail
//! report`. The proof log keeps the tool calls, the pulse stream the agent's own account, the
//! trajectory the decisions: the report joins them on the session id and the time.
//!
//! A prompt is redacted and cut to [`PROMPT_CHARS`] before it is written. The directory is
//! under `.trail/state/`, which the gate keeps the agent from writing.
//!
//! An import that reads a session again (it grew) writes its lines again: readers drop a line
//! that repeats one of the same file byte for byte, and every line of a session lands in the
//! file of its own day, so a repeat is always in the same file.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::file_error::{At, FileError};
use crate::layout::Layout;
use crate::secrets::{Secrets, SecretsError};
use crate::time::Ts;
use crate::trajectory::journal::{self, Lines};

/// The tag a hook's pulse carries to name its session (`session:<id>`).
pub const SESSION_TAG: &str = "session:";

/// How much of a prompt is kept: enough to tell what was asked.
pub const PROMPT_CHARS: usize = 300;

/// How far past the cut a prompt is still redacted, so that a secret crossing the cut is found
/// whole and no prefix of it is kept.
const PAST_THE_CUT: usize = 4096;

/// One line of the timeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Line {
    #[serde(with = "crate::time::text")]
    pub at: Ts,
    /// The host's session id.
    pub session: String,
    #[serde(flatten)]
    pub seen: Seen,
}

/// What was seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Seen {
    /// The session started: `startup`, `resume`, `clear` (the person's `/clear`) or `compact`
    /// (the host's SessionStart after a compaction).
    Start { source: String },
    /// A prompt the person typed (redacted, cut).
    Prompt { text: String },
    /// The context window held `context` tokens, of `window` when it is known.
    Fill {
        context: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<u64>,
    },
    /// The host compacted the context (`manual` or `auto`), from `pre_tokens` when it said.
    Compaction {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trigger: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pre_tokens: Option<u64>,
    },
}

/// Why lines could not be written.
#[derive(Debug, thiserror::Error)]
pub enum TimelineError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error(transparent)]
    Secrets(#[from] SecretsError),
}

/// A prompt line, the text cut to what is kept (it is redacted by [`append`]).
pub fn prompt(at: Ts, session: &str, text: &str) -> Line {
    Line {
        at,
        session: session.to_string(),
        seen: Seen::prompt(text),
    }
}

impl Seen {
    /// A prompt, the text cut to what is kept (it is redacted by [`append`]).
    pub fn prompt(text: &str) -> Seen {
        Seen::Prompt {
            text: crate::text::head(text.trim(), PROMPT_CHARS + PAST_THE_CUT).to_string(),
        }
    }
}

/// The session a record's tags name (a hook's pulse carries one).
pub fn tagged_session(tags: &[String]) -> Option<&str> {
    tags.iter().find_map(|t| t.strip_prefix(SESSION_TAG))
}

/// Append `lines` under `root`, each in the file of its day, every prompt redacted first (the
/// originals kept). Nothing is written when a prompt cannot be redacted.
pub fn append(root: &Path, lines: &[Line], secrets: &Secrets) -> Result<(), TimelineError> {
    if lines.is_empty() {
        return Ok(());
    }
    let redacted = secrets.pass(|p| {
        lines
            .iter()
            .cloned()
            .map(|mut l| {
                if let Seen::Prompt { text } = &mut l.seen {
                    let red = p.redact(text).into_owned();
                    *text = crate::text::head(&red, PROMPT_CHARS).to_string();
                }
                l
            })
            .collect::<Vec<_>>()
    })?;
    let mut by_day: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for l in &redacted {
        let bytes = by_day.entry(journal::day(l.at)).or_default();
        serde_json::to_writer(&mut *bytes, l).map_err(|e| {
            FileError::new("write", &file_for(root, l.at), std::io::Error::other(e))
        })?;
        bytes.push(b'\n');
    }
    let dir = Layout::new(root).timeline_dir();
    for (day, mut bytes) in by_day {
        let path = dir.join(format!("{day}.jsonl"));
        // After half a line (a writer killed mid-write), start a fresh one: the torn bytes
        // must not swallow these lines too.
        if crate::fsutil::ends_inside_a_line(root, &path) {
            bytes.insert(0, b'\n');
        }
        crate::fsutil::append_in(root, &path, &bytes).at("append to", &path)?;
    }
    Ok(())
}

fn file_for(root: &Path, at: Ts) -> std::path::PathBuf {
    Layout::new(root)
        .timeline_dir()
        .join(format!("{}.jsonl", journal::day(at)))
}

/// Every line under `root` at or after `since`, oldest file first, a repeated line once. Lines
/// that are not the timeline's (torn by a crash, written by someone else) are counted in `bad`.
pub fn read(root: &Path, since: Option<Ts>) -> Result<Lines<Line>, FileError> {
    let dir = Layout::new(root).timeline_dir();
    let from_day = since.map(journal::day);
    let mut out = Lines::default();
    for (name, path) in journal::jsonl_files(root, &dir)? {
        if let Some(d) = &from_day
            && name.len() == "YYYY-MM-DD.jsonl".len()
            && name.as_str() < d.as_str()
        {
            continue;
        }
        let objects = journal::read_objects(root, &path, &name, false)?;
        out.bad.extend(objects.bad);
        let mut seen = HashSet::new();
        for (place, v) in objects.items {
            if !seen.insert(v.to_string()) {
                continue;
            }
            match serde_json::from_value::<Line>(v) {
                Ok(l) if since.is_none_or(|s| l.at >= s) => out.items.push((place, l)),
                Ok(_) => {}
                Err(_) => out.bad.push(place),
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets(dir: &Path) -> Secrets {
        Secrets::new(dir.join("secrets"), Vec::new())
    }

    #[test]
    fn lines_round_trip_by_day_and_repeats_are_read_once() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let s = secrets(root);
        let day1 = Ts::parse_loose("2026-11-01T10:00:00Z").unwrap();
        let day2 = Ts::parse_loose("2026-11-02T09:00:00Z").unwrap();
        let lines = vec![
            Line {
                at: day1,
                session: "s1".into(),
                seen: Seen::Start {
                    source: "startup".into(),
                },
            },
            prompt(day1, "s1", "fix the flaky test"),
            Line {
                at: day2,
                session: "s1".into(),
                seen: Seen::Fill {
                    context: 41_000,
                    window: Some(200_000),
                },
            },
        ];
        append(root, &lines, &s).unwrap();
        // An import that reads the session again writes the same lines again.
        append(root, &lines, &s).unwrap();
        let read = read(root, None).unwrap();
        let got: Vec<Line> = read.items.into_iter().map(|(_, l)| l).collect();
        assert_eq!(got, lines);
        assert!(read.bad.is_empty());
        let later = super::read(root, Some(day2)).unwrap();
        assert_eq!(later.items.len(), 1);
    }

    #[test]
    fn a_prompt_is_redacted_and_cut_and_a_torn_line_is_bad() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let s = secrets(root);
        let at = Ts::parse_loose("2026-11-01T10:00:00Z").unwrap();
        let key = "sk-ant-api03-".to_string() + &"Zq7Xw2Rt9Lp4Vb6Nm8Kc1Jd3Hf5Gs0Ay".repeat(3);
        let long = format!("{}use the key {key} please", "x".repeat(PROMPT_CHARS - 20));
        append(root, &[prompt(at, "s1", &long)], &s).unwrap();
        let path = file_for(root, at);
        let raw = std::fs::read_to_string(&path).unwrap();
        assert!(!raw.contains("Zq7Xw2Rt9Lp4"), "{raw}");
        // A hook killed mid-write leaves half a line; the next append starts its own.
        std::fs::write(&path, format!("{raw}{{\"at\":\"2026-11-01T10:")).unwrap();
        append(root, &[prompt(at, "s1", "and then this")], &s).unwrap();
        let read = read(root, None).unwrap();
        assert_eq!(read.items.len(), 2);
        assert_eq!(read.bad.len(), 1);
        let Seen::Prompt { text } = &read.items[0].1.seen else {
            panic!("not a prompt")
        };
        assert!(text.chars().count() <= PROMPT_CHARS);
    }
}
