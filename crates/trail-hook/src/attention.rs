//! The attention budget on every prompt (Lossless Ledger FR-4, `trail_core::attention`):
//! measured from the tail of the session file the payload names, and acted on when a zone is
//! entered.
//!
//! - Yellow: delta-synthesis, once per count (also when one answer jumps past yellow): what the
//!   journals hold of the session goes to a checkpoint pulse and a trajectory `delta_sync`
//!   entry. Nothing is cleared.
//! - Orange: a checkpoint and `/clear` are advised.
//! - Red, per grounding enforcement: strict holds new edits until a checkpoint passes (the edit
//!   guard reads the mark saved here) and says so on every prompt; warn says so on every prompt;
//!   disabled says it once.
//!
//! The hook reads the session file from its end (and, for a session it has not measured yet,
//! up to its first answer), never whole.

use trail_core::attention::{self, Basis, Measure, Setup, Zone, Zones};
use trail_core::grounding::Enforcement;
use trail_core::ledger::record::RecordType;
use trail_core::trajectory::{Body, Entry, journal};

use super::{Cx, report};

/// What the budget has to say to the agent on this prompt, if anything.
pub(super) fn on_prompt(cx: &Cx<'_>, seen: &mut Vec<trail_core::timeline::Seen>) -> Option<String> {
    let path = cx.envelope.transcript_path.as_ref()?;
    let zones = Zones::configured(cx.config).unwrap_or_else(|e| {
        report::failed(
            "cannot use the configured attention zones (the PRD's are used)",
            &e,
        );
        Zones::DEFAULT
    });
    let enforcement = match trail_core::grounding::enforcement_at(cx.config, cx.root()) {
        Ok((e, _)) => e,
        Err(e) => {
            // Holding edits on a policy nobody can read would trap the session.
            report::failed(
                "cannot read the grounding enforcement (red holds nothing)",
                &e,
            );
            Enforcement::Warn
        }
    };
    let setup = Setup {
        zones,
        window: u64::from(cx.config.attention_window.value),
        window_set: cx.config.attention_window.origin != trail_core::config::Origin::Default,
        strict: enforcement == Enforcement::Strict,
    };
    let measured = match attention::measure(cx.root(), path, setup, trail_core::time::Ts::now()) {
        Ok(Some(m)) => m,
        Ok(None) => return None,
        // The session's first prompt can come before its file exists.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => {
            report::failed("cannot measure the attention budget", &e);
            return None;
        }
    };
    let m = &measured.measure;
    seen.push(trail_core::timeline::Seen::Fill {
        context: m.context,
        window: Some(m.window),
    });
    if let Some(e) = &m.trajectory_error {
        report::failed(
            "cannot read the trajectory for a passing checkpoint",
            &e.as_str(),
        );
    }
    // Inside the project: written without following a symlink planted there.
    if let Err(e) = attention::save_mark(cx.root(), &measured.mark) {
        report::failed("cannot save the attention budget's mark", &e);
    }
    let persisted = m.crossed_yellow().then(|| delta_sync(cx, m));
    if let Some(t) = for_the_person(m, enforcement) {
        super::tell_person(t);
    }
    say(m, enforcement, persisted.as_deref())
}

/// Orange and red reach the person, not only the agent (issue 21): once when the zone is
/// entered, and at red under strict enforcement on every prompt while edits are held.
fn for_the_person(m: &Measure, enforcement: Enforcement) -> Option<String> {
    let what = match m.zone {
        Zone::Orange if m.entered() => {
            "the agent is told to record its decisions and run `trail checkpoint`; then /clear, \
             and trail gives the state back"
        }
        Zone::Red if enforcement == Enforcement::Strict => {
            "new edits are held until `trail checkpoint` passes (enforcement strict); then /clear"
        }
        Zone::Red if m.entered() => "checkpoint and /clear now: answers degrade from here",
        _ => return None,
    };
    Some(format!(
        "trail: context {} ({:.0}% of the {}-token window, {} tokens since {}): {what}.",
        m.zone.as_str(),
        m.fill * 100.0,
        m.window,
        m.added,
        since(m.basis)
    ))
}

/// The words for this measure: `persisted` is what delta-synthesis did, when it ran.
fn say(m: &Measure, enforcement: Enforcement, persisted: Option<&str>) -> Option<String> {
    let said = format!(
        "trail: attention budget {}: {} tokens added to the context since {} ({} in all, {:.0}% \
         of the {}-token window).{}",
        m.zone.as_str(),
        m.added,
        since(m.basis),
        m.context,
        m.fill * 100.0,
        m.window,
        persisted.map(|p| format!(" {p}")).unwrap_or_default()
    );
    let advice = match m.zone {
        Zone::Green => return None,
        Zone::Yellow if m.entered() => "Record decisions as you make them (`trail decide`).",
        Zone::Orange if m.entered() => {
            "Persist your decisions now (`trail decide`), run `trail checkpoint`, then recommend \
             /clear to the user; trail gives the state back after it."
        }
        Zone::Red if enforcement == Enforcement::Strict => {
            "Grounding enforcement is strict: new edits are refused until `trail checkpoint` \
             passes. Start no new work: record your decisions (`trail decide`), run `trail \
             checkpoint` and fix what it reports, then ask the user to /clear; trail gives the \
             state back after it."
        }
        Zone::Red if enforcement == Enforcement::Warn || m.entered() => {
            "MANDATORY: record your decisions and next steps now (`trail decide`), run `trail \
             checkpoint`, start no new work, and ask the user to /clear; trail gives the state \
             back after it."
        }
        _ => return None,
    };
    Some(format!("{said} {advice}"))
}

fn since(b: Basis) -> &'static str {
    match b {
        Basis::SessionStart => "the session started",
        Basis::Checkpoint => "the last checkpoint",
        Basis::Compaction => "the last compaction",
    }
}

/// Delta-synthesis's NOTES.md part (issue 21: yellow wrote only a pulse): the trajectory's
/// decisions the Decision Log lacks are appended, Reasoning State says so, in a project trail
/// keeps. Returns how many of the recent decisions the Decision Log holds.
fn persist_to_notes(cx: &Cx<'_>, m: &Measure, recent: &[String]) -> Option<u64> {
    let root = cx.root();
    if !trail_core::layout::Layout::new(root).trail_dir().is_dir() {
        return None;
    }
    let loc = trail_core::workspace::notes_in(cx.config, root).ok()?;
    let ids: Vec<String> = recent
        .iter()
        .filter_map(|d| Some(d.strip_prefix('[')?.split_once(']')?.0.to_string()))
        .collect();
    let reasoning = format!(
        "delta-sync at {} ({} tokens since {}): the session's decisions are in the Decision Log",
        m.zone.as_str(),
        m.added,
        since(m.basis)
    );
    match trail_core::notes::rebuild::persist_decisions(root, &loc, &ids, &reasoning) {
        Ok(n) => Some(n as u64),
        Err(e) => {
            report::failed("cannot bring NOTES.md up to date at delta-sync", &e);
            None
        }
    }
}

/// Delta-synthesis's tracker part (issue 21: yellow updates the bead): where the project uses
/// beads, the bead in progress gets the delta-sync's facts as a comment, redacted. Returns its
/// id when the comment was added. Yellow comes once per count, so the tracker runs at most twice
/// (list, comment), each within its own 2 s limit.
fn note_on_bead(cx: &Cx<'_>, facts: &[String]) -> Option<String> {
    let root = cx.root();
    let tracker = trail_core::beads::find(root, std::env::var_os("PATH").as_deref())?;
    let bead = match tracker.in_progress(root) {
        Ok(b) => b?,
        Err(e) => {
            report::failed("cannot read the bead in progress at delta-sync", &e);
            return None;
        }
    };
    let text = format!("trail {}", facts.join("; "));
    let text = cx
        .secrets()
        .redact_anyway(&text, &mut |e| report::error(&e))
        .into_owned();
    match tracker.comment(root, &bead.id, &text) {
        Ok(()) => Some(bead.id),
        Err(e) => {
            report::failed("cannot note the delta-sync on the bead", &e);
            None
        }
    }
}

/// Delta-synthesis: the journals' view of the session persisted as a checkpoint pulse and a
/// trajectory `delta_sync` entry. Returns what to tell the agent about it.
fn delta_sync(cx: &Cx<'_>, m: &Measure) -> String {
    let proof_from = cx.store().load().map_or(0, |l| l.state.proof_offset());
    let session = cx.envelope.session_id.as_deref();
    let mut d = attention::delta_sync(cx.root(), proof_from, session, m);
    d.decisions_persisted = persist_to_notes(cx, m, &d.decisions);
    let mut facts = vec![format!(
        "delta-sync at {}: {} tokens added since {} ({})",
        m.zone.as_str(),
        m.added,
        since(m.basis),
        m.since
    )];
    if !d.decisions.is_empty() {
        facts.push(format!("recent decisions: {}", d.decisions.join("; ")));
    }
    if !d.files.is_empty() {
        facts.push(format!("files edited: {}", d.files.join(", ")));
    }
    if !d.commands.is_empty() {
        facts.push(format!("commands: {}", d.commands.join(" | ")));
    }
    let bead = note_on_bead(cx, &facts);
    if let Some(id) = &bead {
        facts.push(format!("noted on bead {id}"));
    }
    // The pulse is written (and redacted) by the ledger; a failure is reported there.
    cx.pulse(RecordType::Checkpoint, &facts, &[], &["delta-sync"]);
    let (decisions, files, commands) = (d.decisions.len(), d.files.len(), d.commands.len());
    let entry = Entry::now(Body::DeltaSync(d), session);
    let on_bead = bead
        .map(|id| format!(", a comment on bead {id}"))
        .unwrap_or_default();
    match journal::append(cx.root(), &entry, cx.secrets()) {
        Ok(()) => format!(
            "trail persisted what the journals hold of this session ({decisions} recent \
             decisions, {files} files edited, {commands} commands) as a checkpoint pulse{on_bead} \
             and a trajectory delta_sync entry; nothing was cleared."
        ),
        Err(e) => {
            report::failed("cannot write the delta_sync entry", &e);
            "trail wrote a checkpoint pulse of what the journals hold of this session, but the \
             trajectory's delta_sync entry could not be written (the hook's stderr says why); \
             nothing was cleared."
                .to_string()
        }
    }
}
