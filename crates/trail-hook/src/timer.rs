//! The ten-minute pulse (LedgerPulse §8: a pulse "every 10 minutes of wall-clock time"): when a
//! session's oldest work not yet in a pulse is ten minutes old, trail writes one saying what the
//! session did.
//!
//! Two hooks look. UserPromptSubmit looks at every prompt. PostToolUse, which is all an
//! autonomous session runs for an hour without a prompt, looks only when a minute has turned
//! since the previous tool call. It learns when that was from the proof line it appends anyway
//! (the `fstat` that checks the log is a regular file returns its modification time), so the
//! common call makes no system call more, and above all no `stat` of the stream (README, "No
//! timestamp queries on the hot path"). A pulse is therefore at most about a minute late.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use trail_core::ledger::record::RecordType;
use trail_core::proof::Entry;
use trail_core::state::observe;
use trail_core::time::Ts;

use super::Cx;

/// How long work may go without a pulse.
const EVERY: Duration = Duration::from_mins(10);

/// How often, at most, PostToolUse looks at the stream.
const TICK: Duration = Duration::from_mins(1);

/// Whether a [`TICK`] boundary lies between the previous proof line (`None`: there was none)
/// and `now`: PostToolUse's cue to look.
pub(super) fn ticked(previous: Option<SystemTime>, now: SystemTime) -> bool {
    let tick = |t: SystemTime| {
        t.duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / TICK.as_secs())
    };
    previous.is_none_or(|p| tick(p) != tick(now))
}

/// A pulse when this session has work that no pulse followed and the oldest of it finished at
/// least ten minutes ago. The stream's modification time is when the last pulse was written.
pub(super) fn pulse_if_due(cx: &Cx<'_>) {
    let now = Ts::now();
    let last_pulse = std::fs::metadata(cx.ledger().stream_path())
        .and_then(|m| m.modified())
        .ok()
        .map(micros);
    if last_pulse.is_some_and(|t| now.as_micros().saturating_sub(t) < micros_of(EVERY)) {
        return;
    }
    let (from, session) = match cx.store().load() {
        Ok(l) => (l.state.proof_offset(), l.state.session.and_then(|s| s.id)),
        Err(_) => (0, None),
    };
    let session = cx.envelope.session_id.clone().or(session);
    let Ok(entries) = observe::entries(cx.root(), from, session.as_deref()) else {
        return;
    };
    let oldest_unpulsed = entries
        .iter()
        .filter_map(|e| Ts::parse_loose(&e.timestamp).ok())
        .map(Ts::as_micros)
        .find(|&t| last_pulse.is_none_or(|p| t > p));
    if oldest_unpulsed.is_none_or(|t| now.as_micros().saturating_sub(t) < micros_of(EVERY)) {
        return;
    }
    cx.pulse(RecordType::Checkpoint, &facts(entries), &[], &["timer"]);
}

/// What the session did so far: tool calls by name, whether tests ran, the files it changed.
fn facts(entries: Vec<Entry>) -> Vec<String> {
    let o = observe::from_entries(entries);
    let mut tools: Vec<String> = o
        .tools_used
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    tools.sort();
    let mut facts = vec![format!(
        "ten minutes without a pulse; this session so far: {} tool calls ({}), tests run: {}",
        o.total_tools(),
        tools.join(", "),
        if o.tests_run { "yes" } else { "no" }
    )];
    if !o.files_modified.is_empty() {
        facts.push(format!("files modified: {}", o.files_text()));
    }
    facts
}

fn micros(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

fn micros_of(d: Duration) -> i64 {
    i64::try_from(d.as_micros()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_tool_use_looks_once_a_minute_turns() {
        let at = |s: u64| UNIX_EPOCH + Duration::from_secs(s);
        assert!(!ticked(Some(at(120)), at(179)));
        assert!(ticked(Some(at(179)), at(180)));
        assert!(ticked(Some(at(60)), at(900)));
        assert!(ticked(None, at(5)), "the first line of a log looks");
    }
}
