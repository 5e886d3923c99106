//! Recording a decision (`trail decide`, Lossless Ledger FR-2 and FR-10): title, decision,
//! rationale, evidence citations, test scenarios (EDD: happy path, edge case, error) and an
//! optional bead.
//!
//! [`record`] does, in this order:
//! 1. checks the request: every field that must say something does, every piece of evidence
//!    holds a citation, a bead id is an id;
//! 2. checks each citation against the project's files now ([`crate::cite`]): the answer says
//!    which are not verified, and the journal keeps what the check said;
//! 3. redacts every field (the originals of secrets go to the secret store first);
//! 4. appends the decision to the trajectory (a `decision` entry, the unit the grounding ratio
//!    counts) and to the pulse stream ([`pulse`]): the journals, which are the truth;
//! 5. appends it to NOTES.md's Decision Log, its verified citations to the Lightweight
//!    Identifiers, and refreshes Active Context ([`crate::notes`]). NOTES.md is a view: if
//!    writing it fails the decision is still recorded, the answer says so, and the file can be
//!    rebuilt from the journals;
//! 6. compares it with the latest earlier decision on its topic ([`crate::fork`]): one it
//!    contradicts without naming is a `fork_detected` entry, and the answer says so.
//!
//! [`recent`] reads them back, newest first: the one reader of recent decisions.

pub use crate::decided::{pulse, recent};

use std::path::Path;

use serde::Serialize;

use crate::cite::{self, Checker, Status};
use crate::ledger::{Ledger, LedgerError};
use crate::notes::{self, Location, NotesError, continuity, entry};
use crate::project::Project;
use crate::time::Ts;
use crate::trajectory::{Body, Decision, Entry, Evidence, SpanId, TraceId, journal};

/// What a decision says, as given.
#[derive(Clone, Debug, Default)]
pub struct Request {
    pub title: String,
    pub decision: String,
    pub rationale: String,
    /// Each a citation with its quote (`` `code` [${PROJECT_ROOT}/path:LINE] ``), or a bare
    /// `${PROJECT_ROOT}/path:LINE`.
    pub evidence: Vec<String>,
    /// Test scenarios: happy path, edge case, error (`happy: …`, `edge: …`, `error: …`).
    pub tests: Vec<String>,
    pub bead: Option<String>,
}

/// Where and as whom a decision is recorded.
pub struct Context<'a> {
    pub root: &'a Path,
    pub ledger: &'a Ledger,
    pub project: &'a Project,
    /// The host session it was made in, when known.
    pub session: Option<&'a str>,
    /// The NOTES.md to append it to.
    pub notes: &'a Location,
    /// The bead in progress (Active Context names it).
    pub bead_in_progress: Option<String>,
}

/// One citation of the decision, as checked when it was recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckedCitation {
    /// Which `evidence` it came from, from 1.
    pub evidence: usize,
    /// As written, brackets included.
    pub citation: String,
    pub status: Status,
    /// Drifted: where the quote is now.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub found_at: Vec<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// What was recorded.
#[derive(Debug, Serialize)]
pub struct Recorded {
    pub id: String,
    pub ts: Ts,
    pub title: String,
    pub citations: Vec<CheckedCitation>,
    /// Citations that are not `verified`, as written.
    pub unverified: Vec<String>,
    /// Test scenarios recorded (EDD asks for three: happy path, edge case, error).
    pub tests: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bead: Option<String>,
    /// The pulse that carries it in the stream.
    pub pulse_ts: Ts,
    /// The NOTES.md it was appended to (relative to the root).
    pub notes: String,
    pub notes_created: bool,
    /// Why NOTES.md was not updated (the journals hold the decision all the same).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes_error: Option<String>,
    /// Secrets replaced by `${secret:…}` references.
    pub redacted: Vec<String>,
    /// The earlier decision it contradicts without saying it supersedes it (journalled as
    /// `fork_detected`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forks: Vec<crate::fork::Fork>,
    /// Why it could not be compared with earlier decisions (it is recorded all the same).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forks_unchecked: Option<String>,
}

/// Why a decision was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum DecideError {
    #[error("the {0} is empty: say it in words")]
    Empty(&'static str),
    #[error(
        "evidence {index} (`{text}`) holds no citation: write `quote` [${{PROJECT_ROOT}}/path:LINE] (or :START-END)"
    )]
    NoCitation { index: usize, text: String },
    #[error(
        "`{0}` is not a bead id: one word of letters, digits, `.`, `_`, `:` or `-`, at most 64 characters"
    )]
    BadBead(String),
    #[error("cannot check the citations: {0}")]
    Check(crate::file_error::FileError),
    #[error("cannot redact, so nothing was written: {0}")]
    Secrets(crate::secrets::SecretsError),
    #[error("cannot write the trajectory, so nothing was recorded: {0}")]
    Trajectory(crate::file_error::FileError),
    #[error(
        "the decision is in the trajectory (.trail/trajectory/) but not in the pulse stream: {0}"
    )]
    Pulse(LedgerError),
    #[error("nothing was recorded: {0}")]
    Notes(crate::workspace::NotesWhere),
}

/// `trail decide` and the MCP `decide` tool: record `req` in the workspace's project, with
/// this session (the host's environment names it) and the bead in progress (`br`/`bd` on
/// PATH).
pub fn decide(ws: &crate::workspace::Workspace, req: Request) -> Result<Recorded, DecideError> {
    let root = ws.citation_root();
    let notes = ws.notes().map_err(DecideError::Notes)?;
    let project = ws.project();
    let session = crate::host::session_from_env();
    let cx = Context {
        root: &root,
        ledger: &ws.ledger,
        project: &project,
        session: session.as_deref(),
        notes: &notes,
        bead_in_progress: crate::beads::current_label(&root, std::env::var_os("PATH").as_deref()),
    };
    record(&cx, req)
}

/// Record `req` (see the module docs for the steps).
pub fn record(cx: &Context<'_>, req: Request) -> Result<Recorded, DecideError> {
    let cited = validate(&req)?;
    let checked = check(cx.root, &cited)?;
    let id = format!("d-{}", &SpanId::random().to_string()[..8]);
    // One pass: every original is kept before anything is written, with one store write.
    let (decision, checked, mut redacted) = cx
        .ledger
        .options()
        .secrets
        .pass(|p| {
            let mut red = |s: &str| p.redact(s).into_owned();
            let decision = Decision {
                id: id.clone(),
                title: red(req.title.trim()),
                decision: red(req.decision.trim()),
                rationale: red(req.rationale.trim()),
                evidence: cited
                    .iter()
                    .zip(&checked)
                    .map(|(c, k)| Evidence {
                        citation: red(&c.citation),
                        quote: c.quote.as_deref().map(&mut red),
                        status: Some(k.status),
                    })
                    .collect(),
                tests: req
                    .tests
                    .iter()
                    .map(|t| t.trim())
                    .filter(|t| !t.is_empty())
                    .map(&mut red)
                    .collect(),
                bead: req.bead.as_deref().map(|b| red(b.trim())),
            };
            let checked: Vec<CheckedCitation> = checked
                .into_iter()
                .map(|mut k| {
                    k.citation = red(&k.citation);
                    k
                })
                .collect();
            (decision, checked, p.names())
        })
        .map_err(DecideError::Secrets)?;
    let ts = Ts::now();
    let trajectory = Entry {
        ts,
        body: Body::Decision(decision.clone()),
        session_id: cx.session.map(str::to_string),
        trace_id: cx
            .session
            .map_or_else(TraceId::random, TraceId::for_session),
        span_id: SpanId::random(),
        parent_span_id: cx.session.map(SpanId::root_of_session),
    };
    journal::append(cx.root, &trajectory, &cx.ledger.options().secrets)
        .map_err(DecideError::Trajectory)?;
    let appended = cx
        .ledger
        .append(pulse::record(cx.project, ts, &decision))
        .map_err(DecideError::Pulse)?;
    redacted.extend(appended.redacted);
    redacted.sort();
    redacted.dedup();
    let notes = append_to_notes(cx, ts, &decision);
    let (forks, forks_unchecked) = forks(cx, &decision);
    Ok(Recorded {
        id,
        ts,
        title: decision.title.clone(),
        unverified: checked
            .iter()
            .filter(|c| c.status != Status::Verified)
            .map(|c| c.citation.clone())
            .collect(),
        citations: checked,
        tests: decision.tests.len(),
        bead: decision.bead.clone(),
        pulse_ts: appended.ts,
        notes: cx.notes.rel.clone(),
        notes_created: notes.as_ref().is_ok_and(|u| u.created),
        notes_error: notes.err().map(|e| e.to_string()),
        redacted,
        forks,
        forks_unchecked,
    })
}

/// Step 6: the fork the decision makes with the latest earlier one on its topic (all of the
/// project's decisions, from its trajectory), journalled.
fn forks(cx: &Context<'_>, d: &Decision) -> (Vec<crate::fork::Fork>, Option<String>) {
    let earlier = match recent::in_trajectory(cx.root) {
        Ok(e) => e,
        Err(e) => {
            return (
                Vec::new(),
                Some(format!("cannot read earlier decisions: {e}")),
            );
        }
    };
    let forks: Vec<_> = crate::fork::contradicted(d, &earlier).into_iter().collect();
    match crate::fork::log(cx.root, &forks, cx.session, &cx.ledger.options().secrets) {
        Ok(()) => (forks, None),
        Err(e) => (forks, Some(format!("the fork was not journalled: {e}"))),
    }
}

/// A citation of the request, before redaction.
#[derive(Debug)]
struct Cited {
    evidence: usize,
    citation: String,
    target: Result<cite::Target, cite::Malformed>,
    quote: Option<String>,
    quote_lines: cite::Quote,
}

fn validate(req: &Request) -> Result<Vec<Cited>, DecideError> {
    for (field, text) in [
        ("title", &req.title),
        ("decision", &req.decision),
        ("rationale", &req.rationale),
    ] {
        if text.trim().is_empty() {
            return Err(DecideError::Empty(field));
        }
    }
    if let Some(b) = &req.bead
        && !crate::beads::is_id(b.trim())
    {
        return Err(DecideError::BadBead(b.clone()));
    }
    let mut out = Vec::new();
    for (i, text) in req.evidence.iter().enumerate() {
        let found = cite::parse_evidence(text);
        if found.is_empty() {
            return Err(DecideError::NoCitation {
                index: i + 1,
                text: crate::text::one_line(text, 80),
            });
        }
        for f in found {
            let citation = if f.text.starts_with('[') {
                f.text.clone()
            } else {
                format!("[{}]", f.text)
            };
            let quote = (!f.quote.lines.is_empty()).then(|| f.quote.lines.join("\n"));
            out.push(Cited {
                evidence: i + 1,
                citation,
                target: f.target,
                quote,
                quote_lines: f.quote,
            });
        }
    }
    Ok(out)
}

fn check(root: &Path, cited: &[Cited]) -> Result<Vec<CheckedCitation>, DecideError> {
    if cited.is_empty() {
        return Ok(Vec::new());
    }
    let mut checker = Checker::new(root).map_err(DecideError::Check)?;
    cited
        .iter()
        .map(|c| {
            let o = checker
                .check(&c.target, &c.quote_lines)
                .map_err(DecideError::Check)?;
            Ok(CheckedCitation {
                evidence: c.evidence,
                citation: c.citation.clone(),
                status: o.status,
                found_at: o.found_at,
                note: o.note,
            })
        })
        .collect()
}

/// Step 5: the entry, its verified citations as identifiers, and Active Context.
fn append_to_notes(cx: &Context<'_>, ts: Ts, d: &Decision) -> Result<notes::Updated, NotesError> {
    let active = notes::rebuild::active(cx.root, cx.bead_in_progress.clone());
    let text = entry::render(ts, d);
    let ids = entry::identifiers(ts, d);
    notes::update(cx.root, cx.notes, |old| {
        let t = continuity::append_entry(old, &text);
        let t = continuity::upsert_identifiers(&t, &ids);
        continuity::set_active(&t, &active.fields())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_must_say_something_and_cite_what_it_gives() {
        let ok = Request {
            title: "t".into(),
            decision: "d".into(),
            rationale: "r".into(),
            ..Default::default()
        };
        assert!(validate(&ok).unwrap().is_empty());
        let e = validate(&Request {
            rationale: " \n".into(),
            ..ok.clone()
        })
        .unwrap_err();
        assert_eq!(e.to_string(), "the rationale is empty: say it in words");
        let e = validate(&Request {
            evidence: vec!["see the code".into()],
            ..ok.clone()
        })
        .unwrap_err();
        assert!(matches!(e, DecideError::NoCitation { index: 1, .. }), "{e}");
        let v = validate(&Request {
            evidence: vec![
                "`fn a()` [${PROJECT_ROOT}/a.rs:1]".into(),
                "${PROJECT_ROOT}/b.rs:2-3".into(),
            ],
            ..ok.clone()
        })
        .unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].quote.as_deref(), Some("fn a()"));
        assert_eq!(v[1].citation, "[${PROJECT_ROOT}/b.rs:2-3]");
        assert!(v[1].quote.is_none());
        let e = validate(&Request {
            bead: Some("-x".into()),
            ..ok.clone()
        })
        .unwrap_err();
        assert!(matches!(e, DecideError::BadBead(_)), "{e}");
    }
}
