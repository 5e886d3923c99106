//! The daily tier: `.trail/memory/YYYY-MM-DD.md`, created lazily with `# Daily Memory: DATE`,
//! appended to (never rewritten) with one block per flush: `## Trimmed Context (HH:MM)` when the
//! host compacts, `## Session <id> (HH:MM)` when a session ends. Dates and times are the
//! person's local ones (the stream keeps UTC).
//!
//! A flush is extractive and deterministic — what the user asked, files changed, commands run and
//! how they ended, open to-dos — so it invents nothing. Every line is redacted. Each block carries
//! the hash of its content; a flush whose content is already in the day's file adds nothing.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::file_error::FileError;
use crate::host::{Tool, ToolInput};
use crate::secrets::{Pass, Secrets, SecretsError};
use crate::time::Local;
use crate::transcript::Transcript;

/// Which moment a flush records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trigger {
    /// The host is about to compact the context.
    Compaction,
    /// The session ended.
    SessionEnd,
    /// `trail memory flush`: a transcript handed in by whoever ran the command (the agent can),
    /// so what it attributes to the user is not verified. `trimmed` as for [`Trigger::Compaction`].
    HandedIn { trimmed: bool },
}

/// The heading of the asks in a block flushed from a handed-in transcript.
pub const ASKED_UNVERIFIED: &str = "### Asked (unverified: quoted from a transcript handed to `trail memory flush`, which the agent can write; not the user's words)";

/// What a flush did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Flushed {
    pub path: PathBuf,
    /// False when the same content was already flushed today.
    pub written: bool,
    pub hash: String,
}

pub fn memory_dir(project_root: &Path) -> PathBuf {
    crate::layout::Layout::new(project_root).memory_dir()
}

use crate::text::one_line;

/// What goes before a new block in a day file that holds `existing`: the day's header when the
/// file is new (it is created lazily), else a blank line when one is missing.
pub(crate) fn block_prefix(day: &str, existing: &str) -> String {
    if existing.is_empty() {
        format!("# Daily Memory: {day}\n\n")
    } else if existing.ends_with("\n\n") {
        String::new()
    } else {
        "\n".into()
    }
}

/// Append one block to a day file (creating it and its folder) and sync it. Never rewrites, and
/// never through a symlink (DESIGN, principle 10).
pub(crate) fn append_to_day(
    project_root: &Path,
    path: &Path,
    block: &str,
) -> Result<(), trail_base::file_error::FileError> {
    crate::fsutil::append_in(project_root, path, block.as_bytes())
}

/// A day file's text ("" when there is none), read as every project file is
/// ([`crate::fsutil::read_in`]).
pub(crate) fn read_day(project_root: &Path, path: &Path) -> Result<String, FileError> {
    match crate::fsutil::read_string_in(project_root, path, crate::fsutil::MAX_PROJECT_FILE) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        r => r,
    }
}

/// What a flush keeps of a transcript, before redaction: the user's asks, the files changed
/// (with how many edits each), the commands run and how each ended, the to-dos still open, and
/// the last compaction. Daily memory renders it ([`extract`]); `trail import` builds its
/// handoff records from the same facts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extract {
    /// What the person typed (main chain only), one line each.
    pub asks: Vec<String>,
    /// Files an editing tool changed, and how many times.
    pub files: BTreeMap<String, usize>,
    /// Each shell command (one line) and how it ended.
    pub commands: Vec<(String, Outcome)>,
    /// The latest to-do list's items not completed.
    pub open: Vec<String>,
    /// The last compaction: its trigger and the context size before it.
    pub compaction: Option<(Option<String>, Option<u64>)>,
}

/// How a command ended, as the host reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    Failed,
    /// The transcript holds no result (the session ended first).
    Unknown,
}

impl Outcome {
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Failed => "failed",
            Outcome::Unknown => "no result recorded",
        }
    }
}

impl Extract {
    /// Whether there is nothing to keep.
    pub fn is_empty(&self) -> bool {
        self.asks.is_empty()
            && self.files.is_empty()
            && self.commands.is_empty()
            && self.open.is_empty()
            && self.compaction.is_none()
    }
}

/// The facts of a flush (see [`Extract`]), unredacted. Tool calls of sidechains (subagents
/// running inside the session) are left out, as the person's context never held them.
pub fn gather(t: &Transcript) -> Extract {
    let mut x = Extract {
        asks: t
            .messages
            .iter()
            .filter(|m| m.role == "user" && !m.sidechain)
            .map(|m| one_line(&m.text, 240))
            .filter(|s| !s.is_empty() && !s.starts_with('<') && !s.starts_with("Caveat:"))
            .collect(),
        ..Extract::default()
    };
    let mut todos: Option<ToolInput> = None;
    for c in t.tool_calls.iter().filter(|c| !c.sidechain) {
        let tool = Tool::from_name(&c.name);
        if !(tool.edits_files() || matches!(tool, Tool::Bash | Tool::TodoWrite)) {
            continue;
        }
        let input = ToolInput::decode(&tool, c.input.clone());
        match (&tool, &input) {
            (t, _) if t.edits_files() => {
                for f in input.files() {
                    *x.files.entry(f.to_string()).or_default() += 1;
                }
            }
            (_, ToolInput::Bash { command: Some(cmd) }) => {
                let outcome = match (&c.result, c.is_error) {
                    (_, true) => Outcome::Failed,
                    (Some(_), false) => Outcome::Ok,
                    (None, false) => Outcome::Unknown,
                };
                x.commands.push((one_line(cmd, 160), outcome));
            }
            (Tool::TodoWrite, _) => todos = Some(input),
            _ => {}
        }
    }
    x.open = todos
        .as_ref()
        .map(|t| {
            t.open_todos()
                .into_iter()
                .map(|s| one_line(s, 200))
                .collect()
        })
        .unwrap_or_default();
    x.compaction = t
        .compactions
        .last()
        .map(|c| (c.trigger.clone(), c.pre_tokens));
    x
}

/// The subsections a flush derives from a transcript: the day's log (what was asked, changed,
/// run, left open, compacted), not knowledge someone stated. A dream may leave their lines out
/// of core memory, and a rewrite that drops them loses nothing (`dream::compare_with_prior`).
pub const LOG_HEADINGS: [&str; 5] = [
    "### Asked",
    "### Files changed",
    "### Commands",
    "### Open next steps",
    "### Compaction",
];

/// Whether `heading` (a Markdown heading line of a daily file) opens one of the flush's log
/// subsections ([`LOG_HEADINGS`]; `### Asked (unverified: …)` too).
pub fn is_log_heading(heading: &str) -> bool {
    LOG_HEADINGS.iter().any(|h| {
        heading
            .strip_prefix(h)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
    })
}

/// The extractive body of a flush (without its heading), redacted by `p`.
pub fn extract(t: &Transcript, p: &mut Pass<'_>) -> String {
    render(&gather(t), p)
}

/// An [`Extract`] as daily memory writes it, redacted by `p`.
pub fn render(x: &Extract, p: &mut Pass<'_>) -> String {
    let mut red = |s: &str| p.redact(s).into_owned();
    let mut body = String::new();
    if !x.asks.is_empty() {
        let _ = writeln!(body, "{}", LOG_HEADINGS[0]);
        for a in &x.asks {
            let _ = writeln!(body, "- {}", red(a));
        }
    }
    if !x.files.is_empty() {
        let _ = writeln!(body, "{}", LOG_HEADINGS[1]);
        for (f, n) in &x.files {
            let _ = writeln!(
                body,
                "- {} ({n} edit{})",
                red(f),
                if *n == 1 { "" } else { "s" }
            );
        }
    }
    if !x.commands.is_empty() {
        let _ = writeln!(body, "{}", LOG_HEADINGS[2]);
        for (cmd, outcome) in &x.commands {
            let line = format!("`{}` — {}", cmd.replace('`', "'"), outcome.as_str());
            let _ = writeln!(body, "- {}", red(&line));
        }
    }
    if !x.open.is_empty() {
        let _ = writeln!(body, "{}", LOG_HEADINGS[3]);
        for o in &x.open {
            let _ = writeln!(body, "- {}", red(o));
        }
    }
    if let Some((trigger, tokens)) = &x.compaction {
        let _ = writeln!(
            body,
            "{}\n- {} at {} tokens",
            LOG_HEADINGS[4],
            trigger.as_deref().unwrap_or("?"),
            tokens.map_or("?".into(), |n| n.to_string())
        );
    }
    body
}

/// Why a flush wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum FlushError {
    /// The day's file could not be read or appended to.
    #[error(transparent)]
    File(#[from] FileError),
    /// A secret rule of the person's does not compile, or the originals could not be kept:
    /// nothing is written unredacted.
    #[error(transparent)]
    Secrets(#[from] SecretsError),
}

/// Append a flush of `t` to today's daily file (unless the same content is there already),
/// redacted by `secrets`, which keeps the originals before anything is written.
pub fn flush(
    project_root: &Path,
    t: &Transcript,
    trigger: Trigger,
    session: Option<&str>,
    now: &Local,
    secrets: &Secrets,
) -> Result<Flushed, FlushError> {
    let pending = secrets.pass(|p| prepare(project_root, t, trigger, session, now, p))??;
    Ok(write(project_root, pending)?)
}

/// A flush worked out and not written yet: what `trail import --dry-run` counts.
#[derive(Clone, Debug)]
pub struct Pending {
    path: PathBuf,
    hash: String,
    /// The block to append; `None` when there is nothing to flush or the day has it already.
    block: Option<String>,
}

impl Pending {
    /// Whether writing it would add a block.
    pub fn writes(&self) -> bool {
        self.block.is_some()
    }
}

/// The block a flush of `t` at `now` would append to that day's file (see [`flush`]).
pub fn prepare(
    project_root: &Path,
    t: &Transcript,
    trigger: Trigger,
    session: Option<&str>,
    now: &Local,
    p: &mut Pass<'_>,
) -> Result<Pending, FileError> {
    let body = extract(t, p);
    // The hash names the content, whoever handed it in: the same session flushed by the hook
    // and by hand is one block.
    let hash: String = crate::text::sha256_hex(body.as_bytes())[..16].to_string();
    let body = match trigger {
        Trigger::HandedIn { .. } => {
            body.replacen("### Asked\n", &format!("{ASKED_UNVERIFIED}\n"), 1)
        }
        _ => body,
    };
    let (day, time) = now.day_and_minute();
    let dir = memory_dir(project_root);
    let path = dir.join(format!("{day}.md"));
    let existing = read_day(project_root, &path)?;
    let marker = format!("<!-- trail:flush sha256={hash} -->");
    if body.trim().is_empty() || existing.contains(&marker) {
        return Ok(Pending {
            path,
            hash,
            block: None,
        });
    }
    let mut block = block_prefix(&day, &existing);
    let heading = match trigger {
        Trigger::Compaction | Trigger::HandedIn { trimmed: true } => {
            format!("## Trimmed Context ({time})")
        }
        Trigger::SessionEnd | Trigger::HandedIn { trimmed: false } => format!(
            "## Session {} ({time})",
            p.redact(session.unwrap_or("unknown"))
        ),
    };
    let _ = write!(block, "{heading}\n{marker}\n{body}");
    Ok(Pending {
        path,
        hash,
        block: Some(block),
    })
}

/// Append a prepared block (its originals were kept by the pass that prepared it).
pub fn write(project_root: &Path, pending: Pending) -> Result<Flushed, FileError> {
    let Pending { path, hash, block } = pending;
    let Some(block) = block else {
        return Ok(Flushed {
            path,
            written: false,
            hash,
        });
    };
    append_to_day(project_root, &path, &block)?;
    Ok(Flushed {
        path,
        written: true,
        hash,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_headings_are_those_a_flush_writes() {
        for h in LOG_HEADINGS {
            assert!(is_log_heading(h), "{h}");
        }
        assert!(is_log_heading(ASKED_UNVERIFIED));
        for h in [
            "## Remembered (09:00)",
            "### Notes",
            "### Askedx",
            "# Daily Memory: x",
        ] {
            assert!(!is_log_heading(h), "{h}");
        }
    }
}
