//! Fork detection (Lossless Ledger FR-1, issue 12 item 11): what the agent asserts, checked
//! against what the journals hold. The journals win; a fork is logged to the trajectory
//! (`fork_detected`) and said where the agent reads it (`trail decide`'s answer, SessionStart's
//! packet, `trail checkpoint`).
//!
//! Three families, each a kind of assertion and the journal it answers to:
//!
//! ```text
//! kind            the agent asserts                    the journal holds                 a fork when
//! decision        a new decision (`trail decide`)      the latest earlier decision on    the topic is the same (title
//!                                                      the same topic                    words, or a cited file and
//!                                                                                        range with a title word in
//!                                                                                        common) and the decision is
//!                                                                                        not the same, nor a
//!                                                                                        refinement, nor says which
//!                                                                                        decision it supersedes
//! active_context  NOTES.md's Current Task              the state file's objective and    the task names another step
//!                                                      plan step in flight               number, or shares no content
//!                                                                                        word with them
//! citation        a decision's citation, verified      the cited file now                the quote is no longer where
//!                 when it was recorded                                                   it was cited
//! ```
//!
//! Words are compared as content words ([`crate::memory::verify`]'s: lower case, three letters
//! or more, no stop words); negations (`not`, `never`, `without`, `instead`, …) are compared on
//! their own, so "do not cache tokens" is never a refinement of "cache tokens".

use std::collections::BTreeSet;
use std::path::Path;

use serde::Serialize;

use crate::decided::pulse::Carried;
use crate::grounding::standing::Standing;
use crate::secrets::Secrets;
use crate::state::State;
use crate::trajectory::{self, Body, Entry};

/// Which family a fork is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Decision,
    ActiveContext,
    Citation,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Decision => "decision",
            Kind::ActiveContext => "active_context",
            Kind::Citation => "citation",
        }
    }
}

/// What the agent asserted, what the journals hold, and which wins (the journals).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fork {
    pub kind: Kind,
    pub asserted: String,
    pub journal: String,
}

impl Fork {
    /// The fork in a line, for the agent's context and a person's terminal.
    pub fn line(&self) -> String {
        let t = |s: &str| crate::text::one_line(s, 240);
        match self.kind {
            Kind::Decision => format!(
                "fork: the decision {} contradicts {}; the journals hold the earlier one as \
                 decided. If it replaces it, record it again naming the earlier id in its \
                 rationale (\"supersedes ID: why\")",
                t(&self.asserted),
                t(&self.journal)
            ),
            Kind::ActiveContext => format!(
                "fork: NOTES.md's Active Context says {}, the state file says {}; the state file \
                 wins (a passing `trail checkpoint` writes Active Context from it)",
                t(&self.asserted),
                t(&self.journal)
            ),
            Kind::Citation => format!(
                "fork: {} was verified when recorded; now {}; the code wins: check the decision \
                 against the code before building on it",
                t(&self.asserted),
                t(&self.journal)
            ),
        }
    }

    /// Its trajectory entry.
    pub fn entry(&self, session: Option<&str>) -> Entry {
        Entry::now(
            Body::ForkDetected(trajectory::ForkDetected {
                kind: self.kind.as_str().into(),
                asserted: self.asserted.clone(),
                journal: self.journal.clone(),
            }),
            session,
        )
    }
}

/// Every fork appended to the trajectory (redacted, as every entry is). The first error stops
/// the rest: the caller reports it.
pub fn log(
    root: &Path,
    forks: &[Fork],
    session: Option<&str>,
    secrets: &Secrets,
) -> Result<(), trail_base::file_error::FileError> {
    for f in forks {
        trajectory::journal::append(root, &f.entry(session), secrets)?;
    }
    Ok(())
}

/// Words that turn a decision around.
const NEGATIONS: &[&str] = &[
    "avoid", "cannot", "dont", "don't", "drop", "instead", "never", "no", "none", "not", "remove",
    "stop", "without", "won't",
];

/// Content words, a plural's `s` dropped (`tokens` and `token` are one word here).
fn content(s: &str) -> BTreeSet<String> {
    crate::memory::verify::content_words(s)
        .into_iter()
        .map(|w| match w.strip_suffix('s') {
            Some(one) if one.len() >= 3 && !one.ends_with('s') => one.to_string(),
            _ => w,
        })
        .collect()
}

fn negations(s: &str) -> BTreeSet<String> {
    s.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(str::to_lowercase)
        .filter(|w| NEGATIONS.contains(&w.as_str()))
        .collect()
}

/// Shared content words over all of them (0 when either says none).
fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if a.is_empty() || b.is_empty() || union == 0 {
        return 0.0;
    }
    #[expect(clippy::cast_precision_loss, reason = "word counts are small")]
    let r = a.intersection(b).count() as f64 / union as f64;
    r
}

/// How much two titles must share to be one topic.
pub const SAME_TOPIC: f64 = 0.6;

/// A cited file and line range, from `[${PROJECT_ROOT}/path:START-END]`.
fn cited(citation: &str) -> Option<(String, u32, u32)> {
    let inner = citation
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']');
    let t = crate::cite::parse::parse_target(inner).ok()?;
    Some((t.path.trim_start_matches("./").to_string(), t.start, t.end))
}

/// Whether two decisions are on one topic: their titles share most content words, or they cite
/// overlapping lines of one file and their titles share a word (two decisions can rest on one
/// function and be about different things: "open before put", "login page copy").
fn same_topic(a: &trajectory::Decision, b: &trajectory::Decision) -> bool {
    let (ta, tb) = (content(&a.title), content(&b.title));
    if jaccard(&ta, &tb) >= SAME_TOPIC {
        return true;
    }
    if ta.is_disjoint(&tb) {
        return false;
    }
    let spans: Vec<_> = b
        .evidence
        .iter()
        .filter_map(|e| cited(&e.citation))
        .collect();
    a.evidence
        .iter()
        .filter_map(|e| cited(&e.citation))
        .any(|(p, s, e)| spans.iter().any(|(q, t, u)| *q == p && s <= *u && *t <= e))
}

/// Whether `new` decides otherwise than `old`: not the same words, not one extending the other,
/// or a negation on one side only.
fn decides_otherwise(new: &str, old: &str) -> bool {
    if negations(new) != negations(old) {
        return true;
    }
    let (n, o) = (content(new), content(old));
    !(n.is_superset(&o) || o.is_superset(&n))
}

/// Family `decision`: the fork `new` makes with the latest of `earlier` (newest first) on its
/// topic, unless `new` names that decision (a deliberate supersession).
pub fn contradicted(new: &trajectory::Decision, earlier: &[Carried]) -> Option<Fork> {
    let old = earlier
        .iter()
        .map(|c| &c.decision)
        .find(|d| d.id != new.id && same_topic(new, d))?;
    let names_it = [&new.rationale, &new.decision, &new.title]
        .iter()
        .any(|t| t.contains(&old.id));
    if names_it || !decides_otherwise(&new.decision, &old.decision) {
        return None;
    }
    Some(Fork {
        kind: Kind::Decision,
        asserted: format!("[{}] {}: {}", new.id, new.title, new.decision),
        journal: format!("[{}] {}: {}", old.id, old.title, old.decision),
    })
}

/// `step K/N` in a text: what trail writes in Current Task.
fn step_of(s: &str) -> Option<(usize, usize)> {
    let i = s.to_ascii_lowercase().find("step ")?;
    let rest = &s[i + 5..];
    let (k, rest) = rest.split_once('/')?;
    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((k.trim().parse().ok()?, n.parse().ok()?))
}

/// Family `active_context`: NOTES.md's Current Task against the state file's objective and the
/// plan step in flight. Nothing to compare (no task, no objective and no step) is no fork.
pub fn active_context(notes: &crate::notes::Active, state: &State) -> Option<Fork> {
    let task = notes.task.as_deref()?;
    let objective = state.objective.as_deref().filter(|o| !o.trim().is_empty());
    let step = state.step_in_flight();
    let journal = || {
        let mut j = objective.map_or_else(String::new, |o| format!("objective \"{o}\""));
        if let Some(k) = step {
            if !j.is_empty() {
                j.push_str(", ");
            }
            j.push_str(&format!(
                "step {}/{} \"{}\" in flight",
                k + 1,
                state.plan.len(),
                state.plan[k].description.trim()
            ));
        }
        j
    };
    if objective.is_none() && step.is_none() {
        return None;
    }
    let fork = || Fork {
        kind: Kind::ActiveContext,
        asserted: format!("Current Task \"{task}\""),
        journal: journal(),
    };
    if let (Some((k, n)), Some(s)) = (step_of(task), step)
        && (k, n) != (s + 1, state.plan.len())
    {
        return Some(fork());
    }
    let said = content(task);
    let mut held = content(objective.unwrap_or_default());
    if let Some(s) = step {
        held.extend(content(&state.plan[s].description));
    }
    (!said.is_empty() && said.is_disjoint(&held)).then(fork)
}

/// Family `citation`: every citation verified when its decision was recorded that is not now.
pub fn drifted(standings: &[Standing]) -> Vec<Fork> {
    standings
        .iter()
        .flat_map(|s| {
            s.lost().map(move |c| Fork {
                kind: Kind::Citation,
                asserted: format!("[{}] {}: {}", s.id, s.title, c.citation),
                journal: match c.found_at.first() {
                    Some(at) => format!("{} (the quote is at line {at})", c.now),
                    None => c.now.to_string(),
                },
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
