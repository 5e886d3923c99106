//! NOTES.md written again from the journals (FR-9's "journals" source): every decision the
//! trajectory and the pulse stream hold, in the order they were made, as `trail decide` wrote
//! them, with Active Context derived as it always is ([`active`]).
//!
//! The trajectory is read first; the stream gives the decisions the trajectory lost (a deleted
//! `.trail/trajectory/`, an unreadable line). A decision in both counts once, by its id. What
//! the file held outside the Session Continuity section is not in any journal: a rebuilt file
//! has the template's title instead, so a healer tries git before this.

use std::collections::HashSet;
use std::path::Path;

use super::active::Active;
use super::continuity;
use super::entry;
use crate::ledger::Ledger;
use crate::project::Project;
use crate::time::Ts;
use crate::trajectory::{Body, Decision, Entry, journal};

/// A NOTES.md rebuilt, and where its decisions came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rebuilt {
    pub text: String,
    /// Decisions read from the trajectory.
    pub from_trajectory: usize,
    /// Decisions only the pulse stream still had.
    pub from_stream: usize,
}

/// Why the stream could not be read (the trajectory's unreadable lines are skipped: the stream
/// may hold them).
#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    #[error("cannot read the trajectory: {0}")]
    Trajectory(crate::file_error::FileError),
    #[error("cannot read the pulse stream: {0}")]
    Stream(crate::ledger::LedgerError),
}

/// The text of NOTES.md from the journals of `project` (rooted at `root`): the template, every
/// decision's entry, its verified citations as identifiers, and Active Context. `ledger` is the
/// pulse stream to read too (`None`: the trajectory only); `bead` the bead in progress.
pub fn rebuild_from_journals(
    root: &Path,
    ledger: Option<&Ledger>,
    project: &Project,
    bead: Option<String>,
) -> Result<Rebuilt, RebuildError> {
    let read = journal::read(root, None).map_err(RebuildError::Trajectory)?;
    let mut decisions = decisions_of(&read.items);
    let from_trajectory = decisions.len();
    let mut known: HashSet<String> = decisions.iter().map(|(_, d)| d.id.clone()).collect();
    if let Some(ledger) = ledger {
        let found = crate::decided::recent::recent(ledger, Some(project), usize::MAX, usize::MAX)
            .map_err(RebuildError::Stream)?;
        for c in found.into_iter().rev() {
            if known.insert(c.decision.id.clone()) {
                decisions.push((c.ts, c.decision));
            }
        }
    }
    let from_stream = decisions.len() - from_trajectory;
    decisions.sort_by_key(|(ts, _)| *ts);
    let ids: Vec<continuity::Identifier> = decisions
        .iter()
        .flat_map(|(ts, d)| entry::identifiers(*ts, d))
        .collect();
    let entries: Vec<String> = decisions
        .iter()
        .map(|(ts, d)| entry::render(*ts, d))
        .collect();
    let text = continuity::upsert_identifiers(&super::template(), &ids);
    let text = continuity::append_entries(&text, &entries);
    let active = active_from(root, &read.items, &decisions, bead);
    Ok(Rebuilt {
        text: continuity::set_active(&text, &active.fields()),
        from_trajectory,
        from_stream,
    })
}

/// Active Context as the journals and the state file have it now (what `trail decide` and
/// `trail checkpoint` write, and a rebuild writes again). Unreadable sources say nothing.
pub fn active(root: &Path, bead: Option<String>) -> Active {
    let read = journal::read(root, None)
        .map(|r| r.items)
        .unwrap_or_default();
    let decisions = decisions_of(&read);
    active_from(root, &read, &decisions, bead)
}

/// The trajectory's decisions, with when each was made.
fn decisions_of(entries: &[(journal::Place, Entry)]) -> Vec<(Ts, Decision)> {
    entries
        .iter()
        .filter_map(|(_, e)| Some((e.ts, e.decision()?.clone())))
        .collect()
}

/// Active Context from the trajectory's checkpoints and the decisions known (the trajectory's,
/// or in a rebuild the stream's too).
fn active_from(
    root: &Path,
    entries: &[(journal::Place, Entry)],
    decisions: &[(Ts, Decision)],
    bead: Option<String>,
) -> Active {
    let mut last_checkpoint = None;
    let mut reasoning: Option<(Ts, String)> = None;
    for (_, e) in entries {
        if let Body::Checkpoint(c) = &e.body {
            if c.verdict == "pass" && last_checkpoint.is_none_or(|t| e.ts >= t) {
                last_checkpoint = Some(e.ts);
            }
            if let Some(r) = c.reasoning.as_deref().filter(|r| !r.trim().is_empty())
                && reasoning.as_ref().is_none_or(|(t, _)| e.ts >= *t)
            {
                reasoning = Some((e.ts, r.to_string()));
            }
        }
    }
    for (ts, d) in decisions {
        if reasoning.as_ref().is_none_or(|(t, _)| ts >= t) {
            reasoning = Some((
                *ts,
                format!(
                    "last decision {}: {} — {}",
                    entry::stamp(*ts),
                    d.title,
                    d.decision
                ),
            ));
        }
    }
    Active {
        task: task(root),
        bead,
        last_checkpoint: last_checkpoint.map(entry::stamp),
        reasoning: reasoning.map(|(_, r)| crate::text::one_line(&r, 300)),
        ..Active::default()
    }
}

/// The objective and the plan step in flight, from `active_context.yaml`.
fn task(root: &Path) -> Option<String> {
    let loaded = crate::state::Store::new(root).load().ok()?;
    if !loaded.exists {
        return None;
    }
    let s = loaded.state;
    let total = s.plan.len();
    let step = s
        .step_in_flight()
        .or_else(|| s.plan.iter().position(|p| !p.status_is("completed")))
        .map(|i| format!("step {}/{total}: {}", i + 1, s.plan[i].description.trim()));
    let objective = s.objective.filter(|o| !o.trim().is_empty());
    match (objective, step) {
        (Some(o), Some(st)) => Some(format!("{o} — {st}")),
        (Some(o), None) => Some(o),
        (None, Some(st)) => Some(st),
        (None, None) => None,
    }
}

/// Delta-synthesis at the yellow zone (Lossless Ledger FR-4: "append recent findings to NOTES.md
/// Decision Log"): every decision of the trajectory that NOTES.md's Decision Log lacks is
/// appended, and Active Context's Reasoning State says what was persisted. Returns how many of
/// `recent` (decision ids) the Decision Log holds afterwards.
pub fn persist_decisions(
    root: &Path,
    loc: &super::Location,
    recent: &[String],
    reasoning: &str,
) -> Result<usize, super::NotesError> {
    // The file that failed, not only the directory: a person can look at it.
    let read = journal::read(root, None).map_err(|e| super::NotesError::Read {
        path: e.path,
        source: e.source,
    })?;
    let decisions = decisions_of(&read.items);
    let mut held = 0;
    super::update(root, loc, |text| {
        let missing: Vec<String> = decisions
            .iter()
            .filter(|(_, d)| !text.contains(&entry::id_marker(&d.id)))
            .map(|(ts, d)| entry::render(*ts, d))
            .collect();
        let text = continuity::append_entries(&continuity::ensure(text), &missing);
        held = recent
            .iter()
            .filter(|id| text.contains(&entry::id_marker(id)))
            .count();
        continuity::set_active(&text, &[("Reasoning State", reasoning.to_string())])
    })?;
    Ok(held)
}
