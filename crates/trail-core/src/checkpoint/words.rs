//! What each step's finding means in words: a detail, and a remedy when the step did not pass.
//! `trail checkpoint` prints them and the MCP server's `checkpoint` tool returns them; the
//! remedies are also journalled with the checkpoint ([`super::Journalling::remedies`]), so
//! what the trajectory keeps does not depend on which of the two ran it.
//!
//! The remedies name `trail` commands: an agent reaches them with its shell, and the MCP tools
//! of the same names (`decide`, `checkpoint`, `show`) take the same arguments.

use serde::Serialize;

use super::{BeadState, Finding, PlanState, Report, Step, StepVerdict, Verdict};
use crate::grounding::{Enforcement, Policy};

/// A step as shown: the finding, and its meaning in words.
#[derive(Serialize)]
pub struct Shown<'a> {
    pub name: &'static str,
    pub verdict: StepVerdict,
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remedy: Option<String>,
    pub finding: &'a Finding,
}

/// The checkpoint as `trail checkpoint --json` prints it and the MCP tool returns it.
#[derive(Serialize)]
pub struct Answer<'a> {
    pub verdict: Verdict,
    pub enforcement: Enforcement,
    pub enforcement_from: &'a str,
    pub warnings: usize,
    pub steps: Vec<Shown<'a>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub errors: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes_error: Option<&'a str>,
    /// Where the agent's files disagree with the journals, each with its line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forks: Vec<ShownFork<'a>>,
}

/// A fork as shown: the finding, and its line in words.
#[derive(Serialize)]
pub struct ShownFork<'a> {
    #[serde(flatten)]
    pub fork: &'a crate::fork::Fork,
    pub said: String,
}

/// `r` in words, under `policy`.
pub fn answer<'a>(r: &'a Report, policy: &'a Policy) -> Answer<'a> {
    Answer {
        verdict: r.verdict,
        enforcement: r.enforcement,
        enforcement_from: &policy.enforcement_from,
        warnings: r.warnings,
        steps: r
            .steps
            .iter()
            .map(|s| {
                let (detail, remedy) = words(s, policy);
                Shown {
                    name: s.name,
                    verdict: s.verdict,
                    detail,
                    remedy,
                    finding: &s.finding,
                }
            })
            .collect(),
        errors: &r.errors,
        notes_error: r.notes_error.as_deref(),
        forks: r
            .forks
            .iter()
            .map(|f| ShownFork {
                fork: f,
                said: f.line(),
            })
            .collect(),
    }
}

/// Step 2's detail: each verdict with the ghosts given it.
fn ghosts(report: &crate::grounding::negative::project::Found) -> String {
    use crate::grounding::negative::Class;
    let Some(notes) = &report.notes else {
        return "no NOTES.md, so no ghost feature is listed".into();
    };
    if report.ghosts.is_empty() {
        return format!("no ghost features listed in {notes} (under a \"Ghost Features\" heading)");
    }
    let mut d = format!(
        "{} listed in {notes} checked with {} search",
        plural(report.ghosts.len(), "ghost feature"),
        report.engine.as_str()
    );
    for class in [
        Class::Unverified,
        Class::HighAmbiguity,
        Class::NotGhost,
        Class::ConfirmedGhost,
    ] {
        let of: Vec<String> = report
            .ghosts
            .iter()
            .filter(|c| c.class == class)
            .map(|c| match class {
                Class::HighAmbiguity => {
                    format!("{} ({} doc mentions)", c.feature, c.doc_mentions)
                }
                Class::NotGhost => match c.queries.iter().find_map(|q| q.examples.first()) {
                    Some(at) => format!("{} ({at})", c.feature),
                    None => c.feature.clone(),
                },
                _ => c.feature.clone(),
            })
            .collect();
        if of.is_empty() {
            continue;
        }
        let what = match class {
            Class::Unverified => "never counts as grounded",
            Class::HighAmbiguity => "for a person",
            Class::NotGhost => "the code has it: take it off the ghost list",
            Class::ConfirmedGhost => "documented, not built",
        };
        d.push_str(&format!("; {} ({what}): {}", class.flag(), of.join(", ")));
    }
    d
}

/// `n what`, plural past one.
pub fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A step's finding in words: what was found, and what to do when it did not pass.
#[expect(
    clippy::too_many_lines,
    reason = "one arm per finding: the wording table of the seven steps, read as one"
)]
pub fn words(step: &Step, policy: &Policy) -> (String, Option<String>) {
    // A step that warns passes, but what it warns of is for someone to act on: it has a remedy.
    let failed = matches!(
        step.verdict,
        StepVerdict::Fail | StepVerdict::Error | StepVerdict::Warn
    );
    let remedy = |r: &str| failed.then(|| r.to_string());
    match &step.finding {
        Finding::Grounding { report } => {
            let detail = if report.total == 0 {
                "no decisions to ground (0/0)".to_string()
            } else {
                let mut d = format!(
                    "{} {} the threshold {}",
                    report.shown(),
                    if failed { "is below" } else { "meets" },
                    policy.threshold
                );
                if !report.ungrounded.is_empty() {
                    let names: Vec<String> = report
                        .ungrounded
                        .iter()
                        .take(3)
                        .map(|u| format!("\"{}\" ({})", u.decision, u.reason))
                        .collect();
                    d.push_str(&format!(
                        "; without a verified citation: {}",
                        names.join(", ")
                    ));
                    if report.ungrounded.len() > 3 {
                        d.push_str(&format!(" and {} more", report.ungrounded.len() - 3));
                    }
                }
                d
            };
            (
                detail,
                remedy(
                    "give each of those decisions a citation that verifies: `trail ground` lists \
                     them, `trail cite check` says why a citation fails; record the corrected \
                     decision with `trail decide --evidence '`quote` [${PROJECT_ROOT}/path:LINE]'`",
                ),
            )
        }
        Finding::GroundingError { message, hint } => (
            message.clone(),
            remedy(hint.unwrap_or("fix what the message names, then run the checkpoint again")),
        ),
        Finding::Ghosts { report } => (
            ghosts(report),
            remedy(match step.verdict {
                StepVerdict::Warn => {
                    "for a person: no code has it, yet the docs mention it often; read the \
                     mentions (`trail ghosts` shows both queries) and decide whether it is \
                     missing, then keep it listed or check it off (`- [x]`)"
                }
                _ => {
                    "an unverified ghost never counts as grounded: give it other names in \
                     NOTES.md (`- Name (also: A, B)`) so two different searches look for it, \
                     or take it off the list; `trail ghosts` checks them again"
                }
            }),
        ),
        Finding::GhostsError { message } => (
            message.clone(),
            remedy(
                "make NOTES.md a readable file (or fix `notes.path`), then run the checkpoint again",
            ),
        ),
        Finding::DecisionLog {
            scope,
            this_session,
            missing_from_notes,
            notes,
        } => {
            let detail = if this_session.is_empty() && !failed {
                format!("no decision recorded ({scope}): nothing left unlogged")
            } else if this_session.is_empty() {
                format!("no decision recorded ({scope})")
            } else if missing_from_notes.is_empty() {
                format!(
                    "{} recorded ({scope}), each in {notes}",
                    plural(this_session.len(), "decision")
                )
            } else {
                let ids: Vec<&str> = missing_from_notes.iter().map(|d| d.id.as_str()).collect();
                format!(
                    "{} recorded ({scope}); not in {notes}: {}",
                    plural(this_session.len(), "decision"),
                    ids.join(", ")
                )
            };
            let r = if this_session.is_empty() {
                "record what this session decided: `trail decide --title T --decision D \
                 --rationale R --evidence '`quote` [${PROJECT_ROOT}/path:LINE]' --test …`"
            } else {
                "NOTES.md is a view of the journals: `trail heal` writes it again from them"
            };
            (detail, remedy(r))
        }
        Finding::Unreadable { message } => (
            message.clone(),
            remedy("fix or remove the unreadable lines or file, then run the checkpoint again"),
        ),
        Finding::PlanAndBead { plan, bead } => {
            let p = match plan {
                PlanState::NoStateFile => "no active_context.yaml".to_string(),
                PlanState::NoPlan => "no plan in active_context.yaml".to_string(),
                PlanState::InFlight {
                    step,
                    total,
                    description,
                } => format!("plan step {step}/{total} in progress: {description}"),
                PlanState::AllDone { total } => format!("all {total} plan steps completed"),
                PlanState::NoneInFlight { total } => {
                    format!("no step of the {total}-step plan is marked in progress")
                }
                PlanState::Unreadable { message } => message.clone(),
            };
            let b = match bead {
                BeadState::NotInUse => "beads not in use".to_string(),
                BeadState::NoneInProgress => "no bead in progress".to_string(),
                BeadState::InProgress { bead, updated } => format!(
                    "bead {} in progress ({}){}",
                    bead.id,
                    bead.title,
                    if *updated {
                        ""
                    } else {
                        ", not updated since the last checkpoint"
                    }
                ),
                BeadState::Error { message } => format!("beads: {message}"),
            };
            let mut r = Vec::new();
            if matches!(plan, PlanState::NoneInFlight { .. }) {
                r.push(
                    "mark the step you are on `in_progress` in active_context.yaml (and the \
                     finished ones `completed`)",
                );
            }
            if matches!(bead, BeadState::InProgress { updated: false, .. }) {
                r.push("update the bead with what was decided and what comes next (`br update`, `br comments add`)");
            }
            if matches!(plan, PlanState::Unreadable { .. }) {
                r.push("fix active_context.yaml by hand (trail never overwrites a file it cannot read)");
            }
            if matches!(bead, BeadState::Error { .. }) {
                r.push("run the tracker by hand to see why it fails");
            }
            (format!("{p}; {b}"), remedy(&r.join("; ")))
        }
        Finding::Handoff {
            written,
            notes_refs,
            error,
        } => {
            let d = match (written, error) {
                (true, _) => format!(
                    "session_handoff written to the trajectory{}",
                    notes_refs
                        .as_deref()
                        .map(|n| format!(" (notes_refs {n})"))
                        .unwrap_or_default()
                ),
                (false, Some(e)) => format!("session_handoff not written: {e}"),
                (false, None) => "not written yet".to_string(),
            };
            (
                d,
                remedy("fix what stops writing .trail/trajectory/, then retry"),
            )
        }
        Finding::Decay { found } => {
            if found.no_notes {
                return ("no NOTES.md to check".into(), None);
            }
            let mut d = format!("{} in the table", plural(found.identifiers, "identifier"));
            if !found.broken.is_empty() {
                let b: Vec<String> = found
                    .broken
                    .iter()
                    .map(|(id, st)| format!("{id} {st}"))
                    .collect();
                d.push_str(&format!("; not resolving: {}", b.join(", ")));
            }
            if !found.raw.is_empty() {
                let r: Vec<String> = found
                    .raw
                    .iter()
                    .map(|x| format!("line {}: {}", x.line, x.what))
                    .collect();
                d.push_str(&format!("; raw output: {}", r.join(", ")));
            }
            (
                d,
                remedy(
                    "replace pasted output by ${PROJECT_ROOT}/path:START-END identifiers (`trail \
                     show` retrieves one when needed), and fix or drop identifiers whose lines \
                     are gone",
                ),
            )
        }
        Finding::Tests { checked, short } => {
            let d = if *checked == 0 {
                "no decision to check".to_string()
            } else if short.is_empty() {
                format!(
                    "{} checked, each with three test scenarios",
                    plural(*checked, "decision")
                )
            } else {
                let s: Vec<String> = short
                    .iter()
                    .map(|x| format!("{} \"{}\" has {}", x.decision.id, x.decision.title, x.tests))
                    .collect();
                format!("short of three test scenarios: {}", s.join(", "))
            };
            (
                d,
                remedy(
                    "record the decision again under the same title with three --test (happy \
                     path, edge case, error); the latest record of a title is the one checked",
                ),
            )
        }
    }
}
