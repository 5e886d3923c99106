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

use crate::host::{Tool, ToolInput};
use crate::secrets::{Pass, Secrets};
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
pub(crate) fn append_to_day(project_root: &Path, path: &Path, block: &str) -> std::io::Result<()> {
    crate::fsutil::append_in(project_root, path, block.as_bytes())
}

/// A day file's text ("" when there is none), read as every project file is
/// ([`crate::fsutil::read_in`]).
pub(crate) fn read_day(project_root: &Path, path: &Path) -> std::io::Result<String> {
    match crate::fsutil::read_string_in(project_root, path, crate::fsutil::MAX_PROJECT_FILE) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        r => r,
    }
}

/// The extractive body of a flush (without its heading), redacted by `p`.
pub fn extract(t: &Transcript, p: &mut Pass<'_>) -> String {
    let mut red = |s: &str| p.redact(s).into_owned();
    let mut body = String::new();
    let asks: Vec<String> = t
        .messages
        .iter()
        .filter(|m| m.role == "user" && !m.sidechain)
        .map(|m| one_line(&m.text, 240))
        .filter(|s| !s.is_empty() && !s.starts_with('<') && !s.starts_with("Caveat:"))
        .collect();
    if !asks.is_empty() {
        body.push_str("### Asked\n");
        for a in asks {
            let _ = writeln!(body, "- {}", red(&a));
        }
    }
    let mut files: BTreeMap<String, usize> = BTreeMap::new();
    let mut commands = Vec::new();
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
                    *files.entry(f.to_string()).or_default() += 1;
                }
            }
            (_, ToolInput::Bash { command: Some(cmd) }) => {
                let outcome = match (&c.result, c.is_error) {
                    (_, true) => "failed",
                    (Some(_), false) => "ok",
                    (None, false) => "no result recorded",
                };
                commands.push(format!(
                    "`{}` — {outcome}",
                    one_line(cmd, 160).replace('`', "'")
                ));
            }
            (Tool::TodoWrite, _) => todos = Some(input),
            _ => {}
        }
    }
    if !files.is_empty() {
        body.push_str("### Files changed\n");
        for (f, n) in &files {
            let _ = writeln!(
                body,
                "- {} ({n} edit{})",
                red(f),
                if *n == 1 { "" } else { "s" }
            );
        }
    }
    if !commands.is_empty() {
        body.push_str("### Commands\n");
        for c in &commands {
            let _ = writeln!(body, "- {}", red(c));
        }
    }
    let open: Vec<String> = todos
        .as_ref()
        .map(|t| {
            t.open_todos()
                .into_iter()
                .map(|s| one_line(s, 200))
                .collect()
        })
        .unwrap_or_default();
    if !open.is_empty() {
        body.push_str("### Open next steps\n");
        for o in open {
            let _ = writeln!(body, "- {}", red(&o));
        }
    }
    if let Some(c) = t.compactions.last() {
        let _ = writeln!(
            body,
            "### Compaction\n- {} at {} tokens",
            c.trigger.as_deref().unwrap_or("?"),
            c.pre_tokens.map_or("?".into(), |n| n.to_string())
        );
    }
    body
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
) -> std::io::Result<Flushed> {
    let (body, session) = secrets
        .pass(|p| {
            let session = p.redact(session.unwrap_or("unknown")).into_owned();
            (extract(t, p), session)
        })
        .map_err(std::io::Error::other)?;
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
        return Ok(Flushed {
            path,
            written: false,
            hash,
        });
    }
    let mut block = block_prefix(&day, &existing);
    let heading = match trigger {
        Trigger::Compaction | Trigger::HandedIn { trimmed: true } => {
            format!("## Trimmed Context ({time})")
        }
        Trigger::SessionEnd | Trigger::HandedIn { trimmed: false } => {
            format!("## Session {session} ({time})")
        }
    };
    let _ = write!(block, "{heading}\n{marker}\n{body}");
    append_to_day(project_root, &path, &block)?;
    Ok(Flushed {
        path,
        written: true,
        hash,
    })
}
