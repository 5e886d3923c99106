//! UserPromptSubmit: the person's channel. `/edge …` commands are carried out here (only a
//! person types prompts, so this is where approvals can come from without the agent's tools);
//! then the attention budget, and a pulse when ten minutes passed without one (LedgerPulse §8).

use std::time::{Duration, SystemTime};

use trail_core::host::render::Response;
use trail_core::ledger::record::RecordType;
use trail_core::state::grants::By;
use trail_core::state::observe;

use super::Cx;
use crate::edge::{self, EdgeCmd, Outcome};

const PULSE_EVERY: Duration = Duration::from_secs(600);

/// Context sizes (tokens) where the attention budget changes band. The Lossless Ledger PRD's
/// 5k/10k/15k were written for a working set, not for a whole Claude Code context (its system
/// prompt alone is larger); these are the same bands placed on a 200k window.
const BANDS: [(u64, &str, &str); 3] = [
    (
        170_000,
        "red",
        "MANDATORY: write a pulse now (`trail pulse --summary … --next …`) with decisions and next steps, start no new work, and ask the user to /clear; trail restores the state afterwards.",
    ),
    (
        140_000,
        "orange",
        "write a pulse with decisions and next steps, then recommend /clear to the user; trail restores the state afterwards.",
    ),
    (
        100_000,
        "yellow",
        "persist what matters now: write a pulse with the decisions made and the next steps (`trail pulse`).",
    ),
];

pub(super) fn handle(cx: &Cx<'_>, prompt: &str) -> Response {
    let mut notes = Vec::new();
    if let Some(parsed) = edge::parse_prompt(prompt) {
        notes.push(match parsed {
            Ok(cmd) => run_edge(cx, &cmd),
            Err(usage) => usage,
        });
    }
    if let Some(block) = super::daily_summary(cx) {
        notes.push(block);
    }
    if let Some(n) = attention(cx) {
        notes.push(n);
    }
    ten_minute_pulse(cx);
    if notes.is_empty() {
        Response::Silent
    } else {
        Response::Context {
            event: "UserPromptSubmit",
            text: notes.join("\n\n"),
        }
    }
}

fn run_edge(cx: &Cx<'_>, cmd: &EdgeCmd) -> String {
    let store = cx.store();
    match edge::run(&store, cmd, By::Prompt) {
        Ok(o) => {
            let text = edge::describe(&o);
            match &o {
                Outcome::Decided(_) => {
                    cx.pulse(
                        RecordType::Checkpoint,
                        &[format!("decision by the user: {text}")],
                        &[],
                        &["decision"],
                    );
                }
                Outcome::Transition(t) if t.changed => {
                    cx.pulse(
                        RecordType::Checkpoint,
                        std::slice::from_ref(&text),
                        &[],
                        &["mode"],
                    );
                }
                _ => {}
            }
            let retry = matches!(&o, Outcome::Decided(d) if d.decision != "skip");
            format!(
                "trail carried out the user's `/edge` command: {text}{}",
                if retry {
                    " If you were waiting on this, retry the stopped command now, exactly as before."
                } else {
                    ""
                }
            )
        }
        Err(e) => format!("trail could not carry out the user's `/edge` command: {e}"),
    }
}

/// The attention budget: says something only when the band changes (and at red, every time).
fn attention(cx: &Cx<'_>) -> Option<String> {
    let path = cx.envelope.transcript_path.as_ref()?;
    let tokens = trail_core::transcript::context_tokens(path).ok()??;
    let band = BANDS.iter().find(|(at, _, _)| tokens >= *at);
    let name = band.map(|b| b.1).unwrap_or("green");
    let marker = cx.store().state_dir().join("attention");
    let last = std::fs::read_to_string(&marker).unwrap_or_default();
    if last.trim() != name {
        let _ = trail_core::fsutil::ensure_dir(&cx.store().state_dir());
        let _ = std::fs::write(&marker, name);
    } else if name != "red" {
        return None;
    }
    let (_, name, what) = band?;
    Some(format!(
        "trail: attention budget {name}: the context holds about {tokens} tokens; {what}"
    ))
}

/// A pulse when the stream has not moved for ten minutes while this session worked.
fn ten_minute_pulse(cx: &Cx<'_>) {
    let ledger = cx.ledger();
    let age = std::fs::metadata(ledger.stream_path())
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok());
    if age.is_some_and(|a| a < PULSE_EVERY) {
        return;
    }
    let store = cx.store();
    let (from, session) = match store.load() {
        Ok(l) => (l.state.proof_offset(), l.state.session.and_then(|s| s.id)),
        Err(_) => (0, None),
    };
    let session = cx.envelope.session_id.clone().or(session);
    let Ok(o) = observe::derive(cx.root(), from, session.as_deref()) else {
        return;
    };
    if o.total_tools() == 0 {
        return;
    }
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
    cx.pulse(RecordType::Checkpoint, &facts, &[], &["timer"]);
}
