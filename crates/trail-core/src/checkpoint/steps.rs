//! The seven steps, one function each, and the journalling of the result.

use std::path::Path;

use serde::Serialize;

use super::{Finding, Inputs, Journalling, Report, Step, StepVerdict, Verdict};
use crate::cite::{Checker, Quote, Status};
use crate::notes::{self, continuity};
use crate::time::Ts;
use crate::trajectory::{self, Body, Entry, Handoff, NotesRef, SpanId, TraceId, journal};

/// A decision, named.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DecisionRef {
    pub id: String,
    pub title: String,
    pub ts: Ts,
}

/// The plan in `active_context.yaml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum PlanState {
    NoStateFile,
    NoPlan,
    InFlight {
        step: usize,
        total: usize,
        description: String,
    },
    AllDone {
        total: usize,
    },
    /// Steps remain and none is marked in progress.
    NoneInFlight {
        total: usize,
    },
    Unreadable {
        message: String,
    },
}

/// The bead in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum BeadState {
    /// No tracker on PATH, or the project has no `.beads/`.
    NotInUse,
    NoneInProgress,
    InProgress {
        bead: crate::beads::Bead,
        /// Updated since the last checkpoint that passed (or no checkpoint passed yet).
        updated: bool,
    },
    Error {
        message: String,
    },
}

/// A decision short of three test scenarios.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShortOfTests {
    pub decision: DecisionRef,
    pub tests: usize,
}

/// Output pasted where identifiers belong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Raw {
    /// The NOTES.md line, from 1.
    pub line: usize,
    /// `a code block of N lines`, `a line of N characters`.
    pub what: String,
}

/// Step 6's finding.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct DecayFinding {
    /// Identifiers in the table.
    pub identifiers: usize,
    /// Identifiers whose file or lines are gone (what the check said).
    pub broken: Vec<(String, Status)>,
    pub raw: Vec<Raw>,
    /// No NOTES.md to look at.
    pub no_notes: bool,
}

/// The longest fenced quote a Decision Log entry may hold before it counts as pasted output.
pub const MAX_QUOTE_LINES: usize = 20;
/// The longest line Active Context or the identifiers may hold.
pub const MAX_LINE_CHARS: usize = 400;
/// Test scenarios per decision (EDD: happy path, edge case, error).
pub const EDD_TESTS: usize = 3;

/// The trajectory, read once for the steps that need it.
pub struct Journal {
    pub entries: Vec<Entry>,
    /// Why it could not all be read.
    pub error: Result<(), Unreadable>,
}

/// Why the trajectory could not all be read. The steps that need it then report an error
/// rather than pass on what was left.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Unreadable {
    /// Lines that are not entries (the first three named).
    #[error("{} line(s) of the trajectory cannot be read ({})", .0.len(), first_three(.0))]
    Lines(Vec<journal::Place>),
    #[error("cannot read the trajectory: {0}")]
    File(std::sync::Arc<crate::file_error::FileError>),
}

fn first_three(places: &[journal::Place]) -> String {
    let shown: Vec<String> = places.iter().take(3).map(ToString::to_string).collect();
    shown.join(", ")
}

impl Journal {
    pub fn read(root: &Path) -> Journal {
        match journal::read(root, None) {
            Ok(r) if r.bad.is_empty() => Journal {
                entries: r.items.into_iter().map(|(_, e)| e).collect(),
                error: Ok(()),
            },
            Ok(r) => Journal {
                error: Err(Unreadable::Lines(r.bad)),
                entries: r.items.into_iter().map(|(_, e)| e).collect(),
            },
            Err(e) => Journal {
                entries: Vec::new(),
                error: Err(Unreadable::File(e.into())),
            },
        }
    }

    /// The last checkpoint that passed.
    pub fn last_pass(&self) -> Option<Ts> {
        self.entries
            .iter()
            .filter(|e| matches!(&e.body, Body::Checkpoint(c) if c.passed()))
            .map(|e| e.ts)
            .max()
    }

    /// The decisions of this session, and how the session was told.
    pub fn this_session(
        &self,
        session: Option<&str>,
    ) -> (String, Vec<(&Entry, &trajectory::Decision)>) {
        let decisions = self.entries.iter().filter_map(|e| Some((e, e.decision()?)));
        if let Some(s) = session {
            let of: Vec<_> = decisions
                .filter(|(e, _)| e.session_id.as_deref() == Some(s))
                .collect();
            return (format!("session {s}"), of);
        }
        match self.last_pass() {
            Some(t) => (
                format!("since the checkpoint of {t}"),
                decisions.filter(|(e, _)| e.ts > t).collect(),
            ),
            None => ("all decisions".into(), decisions.collect()),
        }
    }
}

pub(super) fn dref(e: &Entry, d: &trajectory::Decision) -> DecisionRef {
    DecisionRef {
        id: d.id.clone(),
        title: d.title.clone(),
        ts: e.ts,
    }
}

/// The forks the checkpoint reports: NOTES.md's Active Context against the state file, and the
/// citations of every decision in the trajectory that drifted since they were recorded. An
/// unreadable NOTES.md or state file has nothing to compare (their own steps say so); a
/// citation that cannot be read is an error.
pub fn forks(
    i: &Inputs<'_>,
    j: &Journal,
) -> Result<Vec<crate::fork::Fork>, crate::file_error::FileError> {
    let mut out = Vec::new();
    let notes = notes::read(i.root, i.notes)
        .ok()
        .flatten()
        .map(|t| notes::active::read(&t));
    let state = crate::state::Store::new(i.root)
        .load()
        .ok()
        .filter(|l| l.exists)
        .map(|l| l.state);
    if let (Some(n), Some(s)) = (&notes, &state) {
        out.extend(crate::fork::active_context(n, s));
    }
    let standings =
        crate::reanchor::standing::recheck(i.root, j.entries.iter().filter_map(Entry::decision))?;
    out.extend(crate::fork::drifted(&standings));
    Ok(out)
}

pub fn grounding(i: &Inputs<'_>) -> Step {
    let measured = crate::grounding::gather(i.root, i.loa, None)
        .and_then(|g| crate::grounding::measure(i.root, g, i.policy));
    let (verdict, finding) = match measured {
        Ok(report) => (
            match report.status {
                crate::grounding::Verdict::Pass => StepVerdict::Pass,
                crate::grounding::Verdict::Fail => StepVerdict::Fail,
            },
            Finding::Grounding {
                report: Box::new(report),
            },
        ),
        Err(e) => (
            StepVerdict::Error,
            Finding::GroundingError {
                message: e.to_string(),
                hint: e.hint(),
            },
        ),
    };
    Step {
        name: "grounding",
        verdict,
        finding,
    }
}

/// Step 2: an unverified ghost fails (its absence was never shown, so it is no grounded
/// claim); an ambiguous one warns (a person decides); confirmed ghosts, and features the code
/// turned out to have, pass. No ghost listed: nothing to check, said as skipped.
pub fn negative_grounding(i: &Inputs<'_>) -> Step {
    use crate::grounding::negative::Class;
    let (verdict, finding) = match i.ghosts {
        Ok(found) => {
            let any = |k: Class| found.ghosts.iter().any(|c| c.class == k);
            let verdict = if found.ghosts.is_empty() {
                StepVerdict::Skipped
            } else if any(Class::Unverified) {
                StepVerdict::Fail
            } else if any(Class::HighAmbiguity) {
                StepVerdict::Warn
            } else {
                StepVerdict::Pass
            };
            (
                verdict,
                Finding::Ghosts {
                    report: found.clone(),
                },
            )
        }
        Err(e) => (
            StepVerdict::Error,
            Finding::GhostsError {
                message: format!("the ghost features were not checked: {e}"),
            },
        ),
    };
    Step {
        name: "negative_grounding",
        verdict,
        finding,
    }
}

pub fn decision_log(i: &Inputs<'_>, j: &Journal) -> Step {
    let (scope, this) = j.this_session(i.session);
    let text = match notes::read(i.root, i.notes) {
        Ok(t) => t.unwrap_or_default(),
        Err(e) => {
            return Step {
                name: "decision_log",
                verdict: StepVerdict::Error,
                finding: Finding::Unreadable {
                    message: e.to_string(),
                },
            };
        }
    };
    let missing: Vec<DecisionRef> = this
        .iter()
        .filter(|(_, d)| !text.contains(&notes::entry::id_marker(&d.id)))
        .map(|(e, d)| dref(e, d))
        .collect();
    // Without a session to go by, "this session" is what came after the last passing
    // checkpoint: nothing new since one is nothing left unlogged.
    let covered = i.session.is_none() && j.last_pass().is_some();
    let verdict = if (this.is_empty() && !covered) || !missing.is_empty() {
        StepVerdict::Fail
    } else {
        StepVerdict::Pass
    };
    Step {
        name: "decision_log",
        verdict,
        finding: Finding::DecisionLog {
            scope,
            this_session: this.iter().map(|(e, d)| dref(e, d)).collect(),
            missing_from_notes: missing,
            notes: i.notes.rel.clone(),
        },
    }
}

pub fn plan_and_bead(i: &Inputs<'_>, j: &Journal) -> Step {
    let plan = plan_state(i.root);
    let bead = match &i.bead {
        None => BeadState::NotInUse,
        Some(Err(e)) => BeadState::Error {
            message: e.to_string(),
        },
        Some(Ok(None)) => BeadState::NoneInProgress,
        Some(Ok(Some(b))) => {
            let updated = match (j.last_pass(), b.updated_at.as_deref()) {
                (None, _) => true,
                (Some(pass), Some(at)) => Ts::parse_loose(at).is_ok_and(|t| t >= pass),
                // A tracker that says nothing of when: trail cannot tell, and says so.
                (Some(_), None) => false,
            };
            BeadState::InProgress {
                bead: b.clone(),
                updated,
            }
        }
    };
    let verdict = match (&plan, &bead) {
        (_, BeadState::Error { .. }) | (PlanState::Unreadable { .. }, _) => StepVerdict::Error,
        (PlanState::NoneInFlight { .. }, _) | (_, BeadState::InProgress { updated: false, .. }) => {
            StepVerdict::Fail
        }
        (PlanState::NoStateFile | PlanState::NoPlan, BeadState::NotInUse) => StepVerdict::Skipped,
        _ => StepVerdict::Pass,
    };
    Step {
        name: "plan_and_bead",
        verdict,
        finding: Finding::PlanAndBead { plan, bead },
    }
}

fn plan_state(root: &Path) -> PlanState {
    let loaded = match crate::state::Store::new(root).load() {
        Ok(l) => l,
        Err(e) => {
            return PlanState::Unreadable {
                message: e.to_string(),
            };
        }
    };
    if !loaded.exists {
        return PlanState::NoStateFile;
    }
    let plan = &loaded.state.plan;
    let total = plan.len();
    if total == 0 {
        return PlanState::NoPlan;
    }
    if let Some(k) = plan.iter().position(|p| p.status_is("in_progress")) {
        return PlanState::InFlight {
            step: k + 1,
            total,
            description: plan[k].description.clone(),
        };
    }
    if plan.iter().all(|p| p.status_is("completed")) {
        return PlanState::AllDone { total };
    }
    PlanState::NoneInFlight { total }
}

pub fn decayed(i: &Inputs<'_>) -> Step {
    let text = match notes::read(i.root, i.notes) {
        Ok(Some(t)) => t,
        Ok(None) => {
            return Step {
                name: "decayed_to_identifiers",
                verdict: StepVerdict::Skipped,
                finding: Finding::Decay {
                    found: DecayFinding {
                        no_notes: true,
                        ..Default::default()
                    },
                },
            };
        }
        Err(e) => {
            return Step {
                name: "decayed_to_identifiers",
                verdict: StepVerdict::Error,
                finding: Finding::Unreadable {
                    message: e.to_string(),
                },
            };
        }
    };
    match decay(i.root, &text) {
        Ok(found) => Step {
            name: "decayed_to_identifiers",
            verdict: if found.broken.is_empty() && found.raw.is_empty() {
                StepVerdict::Pass
            } else {
                StepVerdict::Fail
            },
            finding: Finding::Decay { found },
        },
        Err(e) => Step {
            name: "decayed_to_identifiers",
            verdict: StepVerdict::Error,
            finding: Finding::Unreadable {
                message: format!("cannot check the identifiers: {e}"),
            },
        },
    }
}

/// Identifiers that resolve; no pasted output in Active Context or the identifiers; no quote
/// in the Decision Log longer than [`MAX_QUOTE_LINES`].
pub fn decay(root: &Path, text: &str) -> Result<DecayFinding, crate::file_error::FileError> {
    let mut f = DecayFinding::default();
    let line_of = |part: &str, k: usize| {
        let offset = part.as_ptr() as usize - text.as_ptr() as usize;
        text[..offset].matches('\n').count() + k + 1
    };
    let mut checker = None;
    for name in [continuity::ACTIVE, continuity::IDENTIFIERS] {
        let Some(part) = continuity::part_text(text, name) else {
            continue;
        };
        raw_in(part, 0, &mut f.raw, |k| line_of(part, k));
        if name != continuity::IDENTIFIERS {
            continue;
        }
        for row in part.lines().filter(|l| l.trim_start().starts_with('|')) {
            let Some(id) = first_cell(row) else { continue };
            // The header, its rule, and a template's `${PROJECT_ROOT}/[path…]` placeholders.
            if !id.starts_with(crate::cite::PROJECT_ROOT) || id.contains('[') {
                continue;
            }
            f.identifiers += 1;
            let checker = match &mut checker {
                Some(c) => c,
                None => checker.insert(Checker::new(root)?),
            };
            let target = crate::cite::parse::parse_target(&id);
            let status = checker.check(&target, &Quote::none())?.status;
            if status != Status::Verified {
                f.broken.push((id, status));
            }
        }
    }
    if let Some(part) = continuity::part_text(text, continuity::LOG) {
        raw_in(part, MAX_QUOTE_LINES, &mut f.raw, |k| line_of(part, k));
    }
    Ok(f)
}

/// Fenced blocks of more than `max_block` lines (any block when 0) and, outside the log, long
/// lines.
fn raw_in(part: &str, max_block: usize, out: &mut Vec<Raw>, line_of: impl Fn(usize) -> usize) {
    let mut open: Option<(usize, (u8, usize))> = None;
    for (k, l) in part.lines().enumerate() {
        if let Some(f) = notes::markdown::fence_of(l) {
            match open {
                None => open = Some((k, f)),
                Some((start, (c, n))) if f.0 == c && f.1 >= n => {
                    let inner = k - start - 1;
                    if inner > max_block {
                        out.push(Raw {
                            line: line_of(start),
                            what: format!("a code block of {inner} lines"),
                        });
                    }
                    open = None;
                }
                _ => {}
            }
            continue;
        }
        if max_block == 0 && open.is_none() && l.chars().count() > MAX_LINE_CHARS {
            out.push(Raw {
                line: line_of(k),
                what: format!("a line of {} characters", l.chars().count()),
            });
        }
    }
}

fn first_cell(row: &str) -> Option<String> {
    let t = row.trim().strip_prefix('|')?;
    let end = t.find('|')?;
    Some(t[..end].trim().to_string())
}

pub fn test_scenarios(i: &Inputs<'_>, j: &Journal) -> Step {
    let (_, this) = j.this_session(i.session);
    // A decision recorded again under the same title (to add its scenarios) supersedes the
    // earlier record: the latest of each title is checked.
    let mut latest: Vec<(&Entry, &trajectory::Decision)> = Vec::new();
    for (e, d) in this.iter().rev() {
        let key = crate::cite::check::normalise(&d.title);
        if !latest
            .iter()
            .any(|(_, x)| crate::cite::check::normalise(&x.title) == key)
        {
            latest.push((e, d));
        }
    }
    latest.reverse();
    let this = latest;
    let short: Vec<ShortOfTests> = this
        .iter()
        .filter(|(_, d)| d.tests.len() < EDD_TESTS)
        .map(|(e, d)| ShortOfTests {
            decision: dref(e, d),
            tests: d.tests.len(),
        })
        .collect();
    Step {
        name: "test_scenarios",
        verdict: if short.is_empty() {
            StepVerdict::Pass
        } else {
            StepVerdict::Fail
        },
        finding: Finding::Tests {
            checked: this.len(),
            short,
        },
    }
}

fn trace_of(session: Option<&str>) -> (TraceId, Option<SpanId>) {
    match session {
        Some(s) => (TraceId::for_session(s), Some(SpanId::root_of_session(s))),
        None => (TraceId::random(), None),
    }
}

/// Step 5: the `session_handoff` entry.
pub fn handoff(j: &Journalling<'_>, report: &mut Report) {
    report.settle();
    let notes_refs = notes::read(j.root, j.notes)
        .ok()
        .flatten()
        .and_then(|t| continuity::find(&t))
        .map(|s| NotesRef {
            path: j.notes.rel.clone(),
            start: s.first_line,
            end: s.last_line,
        });
    let grounding = report.step("grounding").and_then(|s| match &s.finding {
        Finding::Grounding { report } => Some(report.clone()),
        _ => None,
    });
    let edd = report
        .step("test_scenarios")
        .is_some_and(|s| s.verdict == StepVerdict::Pass);
    let tests = match report.step("test_scenarios").map(|s| &s.finding) {
        Some(Finding::Tests { checked, .. }) => Some(u32::try_from(*checked).unwrap_or(u32::MAX)),
        _ => None,
    };
    let (trace_id, root) = trace_of(j.session);
    let root_span = root.unwrap_or_else(SpanId::random);
    let entry = Entry {
        ts: Ts::now(),
        body: Body::SessionHandoff(Handoff {
            root_span_id: root_span,
            bead_id: j.bead.as_ref().map(|b| b.id.clone()),
            notes_refs: notes_refs.iter().cloned().collect(),
            edd_verified: edd,
            grounding_ratio: grounding.as_ref().map_or(0.0, |g| g.ratio),
            grounding_exact: grounding.as_ref().map(|g| g.ratio_exact.clone()),
            test_scenarios: tests,
            next_session_ready: report.verdict == Verdict::Pass,
        }),
        session_id: j.session.map(str::to_string),
        trace_id,
        span_id: SpanId::random(),
        parent_span_id: root,
    };
    let written = append(j, &entry);
    let step = report
        .steps
        .iter_mut()
        .find(|s| s.name == "trajectory_handoff")
        .expect("step 5 is in every report");
    step.verdict = if written.is_ok() {
        StepVerdict::Pass
    } else {
        StepVerdict::Error
    };
    step.finding = Finding::Handoff {
        written: written.is_ok(),
        notes_refs: notes_refs.map(|r| r.to_string()),
        error: written.err().map(|e| e.to_string()),
    };
}

fn append(j: &Journalling<'_>, entry: &Entry) -> Result<(), crate::file_error::FileError> {
    journal::append(j.root, entry, &j.ledger.options().secrets)
}

/// The `checkpoint` entry, the pulse, and NOTES.md's Active Context. A journal that cannot be
/// written makes the verdict an error (a pass nobody can see is no pass); NOTES.md is a view.
pub fn journal_checkpoint(j: &Journalling<'_>, report: &mut Report, ts: Ts) {
    let (trace_id, root) = trace_of(j.session);
    let steps = report
        .steps
        .iter()
        .map(|s| trajectory::Step {
            name: s.name.to_string(),
            verdict: s.verdict.as_str().to_string(),
            remedy: j
                .remedies
                .iter()
                .find(|(n, _)| *n == s.name)
                .map(|(_, r)| r.clone()),
        })
        .collect();
    let entry = Entry {
        ts,
        body: Body::Checkpoint(trajectory::Checkpoint {
            verdict: report.verdict.as_str().to_string(),
            steps,
            reasoning: j.reasoning.clone().filter(|r| !r.trim().is_empty()),
        }),
        session_id: j.session.map(str::to_string),
        trace_id,
        span_id: SpanId::random(),
        parent_span_id: root,
    };
    if let Err(e) = append(j, &entry) {
        report.errors.push(format!("the checkpoint entry: {e}"));
    }
    let failed: Vec<&str> = report
        .steps
        .iter()
        .filter(|s| matches!(s.verdict, StepVerdict::Fail | StepVerdict::Error))
        .map(|s| s.name)
        .collect();
    let fact = format!(
        "synthesis checkpoint: {}{}",
        report.verdict.as_str(),
        if failed.is_empty() {
            String::new()
        } else {
            format!(" ({} not passing)", failed.join(", "))
        }
    );
    let mut r = crate::ledger::record::Record::new(crate::ledger::RecordType::Checkpoint, ts);
    r.focus = vec![crate::ledger::Focus {
        proj: j.project.name.clone(),
        topic: String::new(),
    }];
    r.tags = std::iter::once("synthesis-checkpoint".to_string())
        .chain(j.project.tags())
        .collect();
    r.body = crate::ledger::record::facts_body(&[fact]);
    if let Err(e) = j.ledger.append(r) {
        report.errors.push(format!("the checkpoint pulse: {e}"));
    }
    if !report.errors.is_empty() {
        report.verdict = Verdict::Error;
    }
    let active = notes::rebuild::active(
        j.root,
        j.bead.as_ref().map(super::super::beads::Bead::label),
    );
    if let Err(e) = notes::update(j.root, j.notes, |t| {
        continuity::set_active(t, &active.fields())
    }) {
        report.notes_error = Some(e.to_string());
    }
}
