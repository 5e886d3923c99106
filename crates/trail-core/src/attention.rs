//! The attention budget (Lossless Ledger FR-4): how full the context is, and how much was added
//! to it since the last synthesis checkpoint.
//!
//! ```text
//! context      the session's current size, read from the end of its transcript (Claude Code)
//!              or rollout (Codex): conversation::context_tokens
//! fill         context / the model's window (attention.window)
//! baseline     where the count of added tokens starts: the first measure after the last
//!              checkpoint that passed, else the session's first measured size (read from the
//!              start of the file); a compaction (the context shrinks) starts it again
//! added        context - baseline
//! zones        green < attention.yellow (5k) <= yellow < attention.orange (10k) <= orange
//!              < attention.red (15k) <= red
//! ```
//!
//! The PRD's 5k/10k/15k count a working set, so they are counted from the baseline, not from
//! zero: a Claude Code context starts well above 15k (its system prompt alone).
//!
//! Whether a checkpoint passed is read from the trajectory, where `trail checkpoint` journals
//! its verdict ([`crate::checkpoint::passed_after`]), the same record the PreCompact hold waits
//! for: journals are the truth, and a second "checkpoint passed" file would be a view that could
//! disagree with them. What the budget keeps of its own is a view too, one [`Mark`] per session
//! file in `.trail/state/attention` (the zone the last measure found, when the count began, when
//! red began), so that a zone is acted on when entered, not on every prompt; losing it costs one
//! repeated notice, never a decision.
//!
//! What each zone does is the hooks' business (`trail-hook/src/prompt.rs`): yellow persists
//! (delta-synthesis: [`delta_sync`]), orange advises a checkpoint and `/clear`, red acts per
//! enforcement. In strict mode red holds new edits until a checkpoint passes: the prompt hook
//! saves the mark with `red_since`, and the edit guard asks [`hold`], which lifts as soon as the
//! trajectory holds a passing checkpoint newer than `red_since`. The mark lives where the agent
//! cannot write (the gate blocks `.trail/state/`).

use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::file_error::{At, FileError};
use crate::fsutil;
use crate::layout::Layout;
use crate::time::Ts;

/// A zone of the budget, from calm to full.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Zone {
    Green,
    Yellow,
    Orange,
    Red,
}

impl Zone {
    pub fn as_str(self) -> &'static str {
        match self {
            Zone::Green => "green",
            Zone::Yellow => "yellow",
            Zone::Orange => "orange",
            Zone::Red => "red",
        }
    }
}

/// Where the zones start, in tokens added since the baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Zones {
    pub yellow: u64,
    pub orange: u64,
    pub red: u64,
}

/// Why the zones cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AttentionError {
    #[error("the zones must grow: yellow {yellow} < orange {orange} < red {red} does not hold")]
    Order { yellow: u64, orange: u64, red: u64 },
}

impl Zones {
    /// The PRD's.
    pub const DEFAULT: Zones = Zones {
        yellow: 5_000,
        orange: 10_000,
        red: 15_000,
    };

    /// The zones a configuration sets (an order that does not grow is an error).
    pub fn configured(config: &crate::config::Config) -> Result<Zones, AttentionError> {
        Zones::new(
            u64::from(config.attention_yellow.value),
            u64::from(config.attention_orange.value),
            u64::from(config.attention_red.value),
        )
    }

    pub fn new(yellow: u64, orange: u64, red: u64) -> Result<Zones, AttentionError> {
        if yellow < orange && orange < red {
            Ok(Zones {
                yellow,
                orange,
                red,
            })
        } else {
            Err(AttentionError::Order {
                yellow,
                orange,
                red,
            })
        }
    }

    pub fn zone(&self, added: u64) -> Zone {
        if added >= self.red {
            Zone::Red
        } else if added >= self.orange {
            Zone::Orange
        } else if added >= self.yellow {
            Zone::Yellow
        } else {
            Zone::Green
        }
    }

    /// The next zone's start above `added`, if any.
    pub fn next_at(&self, added: u64) -> Option<(Zone, u64)> {
        [
            (Zone::Yellow, self.yellow),
            (Zone::Orange, self.orange),
            (Zone::Red, self.red),
        ]
        .into_iter()
        .find(|(_, at)| added < *at)
    }
}

/// Where the count of added tokens starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// The session's first measured context.
    SessionStart,
    /// The first measure after a checkpoint that passed.
    Checkpoint,
    /// The context shrank: the host compacted it.
    Compaction,
}

/// What the last measure of one session left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    /// Which session file it measured (a digest of its path).
    pub transcript: String,
    /// When it was measured.
    pub at: Ts,
    pub baseline: u64,
    pub basis: Basis,
    /// When the count began: the checkpoint's time for [`Basis::Checkpoint`], else the measure
    /// that began it.
    pub since: Ts,
    /// The context at the last measure.
    pub last: u64,
    pub zone: Zone,
    /// When red began, while red.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub red_since: Option<Ts>,
    /// Whether red holds edits (strict enforcement when it was measured).
    #[serde(default)]
    pub strict: bool,
}

/// The marks of the project's sessions, newest measure last.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Marks {
    sessions: Vec<Mark>,
}

/// The most sessions whose marks are kept: more than run at once in one project, and the file
/// stays a few KB.
const MAX_MARKS: usize = 32;

/// One measure of the budget.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Measure {
    /// The context's size now, in tokens.
    pub context: u64,
    pub window: u64,
    /// Where the window came from, in words.
    pub window_from: String,
    /// context / window.
    pub fill: f64,
    pub baseline: u64,
    pub basis: Basis,
    /// When the count began.
    pub since: Ts,
    pub added: u64,
    pub zone: Zone,
    /// The zone the last measure of the same count found (none when the count began now).
    pub previous: Option<Zone>,
    pub zones: Zones,
    /// Why the trajectory could not be read for a passing checkpoint (the count then goes on
    /// from where it was).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trajectory_error: Option<String>,
}

impl Measure {
    /// Whether this measure entered its zone (a zone is acted on when entered).
    pub fn entered(&self) -> bool {
        self.zone != Zone::Green && self.previous.is_none_or(|p| p < self.zone)
    }

    /// Whether this measure is the count's first at yellow or beyond: delta-synthesis runs
    /// then, once, even when one answer jumped past yellow.
    pub fn crossed_yellow(&self) -> bool {
        self.zone >= Zone::Yellow && self.previous.is_none_or(|p| p < Zone::Yellow)
    }
}

/// A measure and the mark that records it ([`save_mark`]).
#[derive(Clone, Debug)]
pub struct Measured {
    pub measure: Measure,
    pub mark: Mark,
}

/// The digest naming a session file in the marks.
fn key(path: &Path) -> String {
    crate::text::sha256_hex(path.to_string_lossy().as_bytes())[..16].to_string()
}

/// The marks trail wrote (anything else, such as an older plain-text band, is none).
fn read_marks(root: &Path) -> Marks {
    fsutil::read_string_in(root, &Layout::new(root).attention(), 256 << 10)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// The mark of the session in `transcript`, if one was saved.
pub fn read_mark(root: &Path, transcript: &Path) -> Option<Mark> {
    let key = key(transcript);
    read_marks(root)
        .sessions
        .into_iter()
        .find(|m| m.transcript == key)
}

/// Save `mark` in place of its session's, keeping the `MAX_MARKS` most recently measured.
/// Two sessions saving at the same instant can lose one update: that session's next measure
/// then begins a new count (one repeated notice), nothing more.
pub fn save_mark(root: &Path, mark: &Mark) -> Result<(), FileError> {
    let mut marks = read_marks(root);
    marks.sessions.retain(|m| m.transcript != mark.transcript);
    marks.sessions.push(mark.clone());
    marks.sessions.sort_by_key(|m| m.at);
    let over = marks.sessions.len().saturating_sub(MAX_MARKS);
    marks.sessions.drain(..over);
    let path = Layout::new(root).attention();
    let json = serde_json::to_string(&marks)
        .map_err(io::Error::other)
        .at("encode", &path)?;
    fsutil::atomic_write_in(root, &path, json.as_bytes()).at("write", &path)
}

/// What the budget is measured with.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub zones: Zones,
    /// The model's context window, in tokens.
    pub window: u64,
    /// Whether a person set the window (`attention.window`): else the session's model says it
    /// where it can ([`crate::conversation::window_of`]; issue 22: it was fixed at 200,000).
    pub window_set: bool,
    /// Whether grounding enforcement is strict (red then holds edits).
    pub strict: bool,
}

/// Measure the session in `transcript`. `None` when its size is unknown (before its first
/// answer, or right after a compaction). Saves nothing: the caller saves the mark when it acts
/// on the measure (`trail budget` only looks).
pub fn measure(
    root: &Path,
    transcript: &Path,
    setup: Setup,
    now: Ts,
) -> Result<Option<Measured>, FileError> {
    let Some(context) = crate::conversation::context_tokens(transcript)? else {
        return Ok(None);
    };
    let key = key(transcript);
    let mark = read_mark(root, transcript);
    let mut trajectory_error = None;
    let passed = mark.as_ref().and_then(|m| {
        crate::checkpoint::passed_after(root, m.since).unwrap_or_else(|e| {
            trajectory_error = Some(e.to_string());
            None
        })
    });
    let (baseline, basis, since, previous) = match (&mark, passed) {
        (Some(_), Some(at)) => (context, Basis::Checkpoint, at, None),
        // The context only shrinks when the host compacts it.
        (Some(m), None)
            if context < m.baseline || context.saturating_mul(5) < m.last.saturating_mul(4) =>
        {
            (context, Basis::Compaction, now, None)
        }
        (Some(m), None) => (m.baseline, m.basis, m.since, Some(m.zone)),
        (None, _) => {
            let first = crate::conversation::first_context_tokens(transcript)?.unwrap_or(context);
            (first.min(context), Basis::SessionStart, now, None)
        }
    };
    let added = context - baseline;
    let zone = setup.zones.zone(added);
    let red_since = match (zone, &mark) {
        (Zone::Red, Some(m)) if previous == Some(Zone::Red) => m.red_since.or(Some(now)),
        (Zone::Red, _) => Some(now),
        _ => None,
    };
    let (window, window_from) = if setup.window_set {
        (setup.window, "the attention.window setting".to_string())
    } else {
        let model = crate::conversation::model(transcript).ok().flatten();
        match model
            .as_deref()
            .and_then(|m| crate::conversation::window_of(m).map(|w| (m, w)))
        {
            Some((m, w)) => (w, format!("the session's model, {m}")),
            None => (
                setup.window,
                "the default (the model is not one trail knows)".into(),
            ),
        }
    };
    // No context is larger than its window: a session past the one assumed has the long one.
    let (window, window_from) = if context > window && !setup.window_set {
        (
            1_000_000.max(context),
            "the context seen, larger than the model's usual window".into(),
        )
    } else {
        (window.max(1), window_from)
    };
    #[expect(
        clippy::cast_precision_loss,
        reason = "a share of the window, shown to a tenth of a percent"
    )]
    let fill = context as f64 / window as f64;
    let measure = Measure {
        context,
        window,
        window_from,
        fill,
        baseline,
        basis,
        since,
        added,
        zone,
        previous,
        zones: setup.zones,
        trajectory_error,
    };
    let mark = Mark {
        transcript: key,
        at: now,
        baseline,
        basis,
        since,
        last: context,
        zone,
        red_since,
        strict: setup.strict,
    };
    Ok(Some(Measured { measure, mark }))
}

/// New edits held: the budget is red under strict enforcement and no checkpoint has passed
/// since red began.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hold {
    /// Tokens added at the last measure.
    pub added: u64,
    pub basis: Basis,
    pub red_since: Ts,
    /// Why the trajectory could not be read: a checkpoint may have passed, but it cannot be
    /// known, so the hold stands.
    pub unreadable: Option<String>,
}

/// Whether new edits are held for the session in `transcript`. Reads one small file, and the
/// trajectory since red began only while a strict red stands.
///
/// A call that names no session file holds nothing: the budget is measured per session file,
/// and another session's red is not this one's (issue 21: a payload without
/// `transcript_path` took the hold of whichever session was measured last).
pub fn hold(root: &Path, transcript: Option<&Path>) -> Option<Hold> {
    let key = key(transcript?);
    let mark = read_marks(root)
        .sessions
        .into_iter()
        .find(|m| m.transcript == key)?;
    if mark.zone != Zone::Red || !mark.strict {
        return None;
    }
    let red_since = mark.red_since?;
    let unreadable = match crate::checkpoint::passed_after(root, red_since) {
        Ok(Some(_)) => return None,
        Ok(None) => None,
        Err(e) => Some(e.to_string()),
    };
    Some(Hold {
        added: mark.last.saturating_sub(mark.baseline),
        basis: mark.basis,
        red_since,
        unreadable,
    })
}

/// What delta-synthesis persists at yellow: the project's recent decisions (the trajectory's,
/// where `trail decide` records them), and the session's edited files and commands (the proof
/// log's), never the agent's account of them.
pub fn delta_sync(
    root: &Path,
    proof_from: u64,
    session: Option<&str>,
    m: &Measure,
) -> crate::trajectory::DeltaSync {
    let entries = crate::state::observe::entries(root, proof_from, session).unwrap_or_default();
    let mut files: Vec<String> = Vec::new();
    let mut commands: Vec<String> = Vec::new();
    for e in entries.iter().rev() {
        let tool = crate::host::Tool::from_name(&e.tool);
        if tool.edits_files()
            && let Some(f) = &e.file_touched
            && !files.contains(f)
            && files.len() < 10
        {
            files.push(f.clone());
        }
        if tool == crate::host::Tool::Bash && commands.len() < 5 {
            let c = crate::text::one_line(&e.input_preview, 160);
            if !commands.contains(&c) {
                commands.push(c);
            }
        }
    }
    crate::trajectory::DeltaSync {
        zone: Some(m.zone.as_str().into()),
        tokens: Some(m.added),
        decisions: recent_decisions(root, 5),
        decisions_persisted: None,
        files,
        commands,
    }
}

/// The newest `limit` decisions of the trajectory as identifiers (`[d-…] title`), newest
/// first, reading its day files newest first until enough are found. What cannot be read is
/// left out: delta-synthesis persists what it can.
fn recent_decisions(root: &Path, limit: usize) -> Vec<String> {
    use crate::trajectory::{Body, journal};
    let dir = Layout::new(root).trajectory_dir();
    let mut out = Vec::new();
    for (name, path) in journal::jsonl_files(root, &dir)
        .unwrap_or_default()
        .iter()
        .rev()
    {
        let Ok(objects) = journal::read_objects(root, path, name, false) else {
            continue;
        };
        let mut day: Vec<(Ts, String)> = objects
            .items
            .into_iter()
            .filter_map(|(_, v)| journal::entry(v).ok())
            .filter_map(|e| match e.body {
                Body::Decision(d) => Some((
                    e.ts,
                    format!("[{}] {}", d.id, crate::text::one_line(&d.title, 80)),
                )),
                _ => None,
            })
            .collect();
        day.sort_by_key(|d| std::cmp::Reverse(d.0));
        out.extend(day.into_iter().map(|(_, d)| d).take(limit - out.len()));
        if out.len() >= limit {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests;
