//! The grounding ratio (Lossless Ledger FR-6): decisions with at least one verified citation,
//! over all decisions, compared with a threshold exactly ([`ratio`]).
//!
//! The decisions are read from the journals, never from what an agent says it did:
//! - trail's trajectory: its `decision` and `cite` entries ([`crate::trajectory`]);
//! - Loa's trajectory, when the project is a Loa project: its `cite` lines ([`loa`]);
//! - a NOTES.md Decision Log when one is given ([`notes`]); a decision that is also in the
//!   trajectory (same title) counts once.
//!
//! Claims of absence (ghost features) are checked by [`negative`], and never count here.
//!
//! Each citation is checked again now ([`crate::cite`]): a citation verified when it was
//! recorded may have drifted since. Loa read a grounding check that failed to run as a pass;
//! here anything that prevents counting (an unreadable journal or line, a bad config) is a
//! [`GroundError`], and the caller's answer to an error is never a pass.

pub mod loa;
pub mod negative;
pub mod notes;
pub mod standing;

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

pub use crate::ratio::{self, Enforcement, Ratio, Threshold, ThresholdError};

use crate::cite::{Checker, Malformed, Quote, Status, Target, check::normalise};
use crate::trajectory::journal::{self, Place};
use crate::trajectory::{Body, Evidence};

/// A decision to ground: what it says, where it was read, and its evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub title: String,
    /// Where it was read (`trajectory 2026-01-02.jsonl:4`, `NOTES.md:40`).
    pub source: String,
    pub evidence: Vec<Cited>,
    /// What the source said of it that the count does not use (Loa's own grounding kind).
    pub note: Option<String>,
}

/// One citation of a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cited {
    /// As written (`[${PROJECT_ROOT}/a.rs:3]`).
    pub citation: String,
    pub target: Result<Target, Malformed>,
    pub quote: Quote,
}

impl Cited {
    /// A trajectory entry's evidence.
    pub fn from_evidence(e: &Evidence) -> Cited {
        let inner = e
            .citation
            .trim()
            .strip_prefix('[')
            .and_then(|c| c.strip_suffix(']'))
            .unwrap_or(e.citation.trim());
        Cited {
            citation: e.citation.clone(),
            target: crate::cite::parse::parse_target(inner),
            quote: e.quote.as_deref().map(Quote::inline).unwrap_or_default(),
        }
    }
}

/// Why the ratio could not be counted. Never a pass.
#[derive(Debug, thiserror::Error)]
pub enum GroundError {
    #[error("cannot read {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error(transparent)]
    File(#[from] crate::file_error::FileError),
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    #[error("{} of the journal cannot be read, so the decisions cannot all be counted: {}", lines(.bad), places(.bad))]
    Unreadable { bad: Vec<Place> },
    #[error("{what} (from {from}): {message}")]
    Setting {
        what: &'static str,
        from: String,
        message: String,
    },
}

impl From<crate::loa::LoaError> for GroundError {
    fn from(e: crate::loa::LoaError) -> GroundError {
        match e {
            crate::loa::LoaError::Io { path, source } => GroundError::Io { path, source },
            crate::loa::LoaError::Config { path, message } => GroundError::Config { path, message },
        }
    }
}

impl GroundError {
    /// What a person can do about it, where trail knows more than the message says.
    pub fn hint(&self) -> Option<&'static str> {
        match self {
            // Every line any version of trail wrote is read (older shapes too), and a line a
            // crash tore is read past: what is left was written by something else. The journal
            // is append-only and out of the agent's reach, so the agent is never told to edit it.
            GroundError::Unreadable { .. } => Some(
                "no version of trail wrote those lines (`trail trajectory` lists what it reads); \
                 a decision in them cannot be counted, so the ratio is not given. The journal \
                 is append-only and the agent cannot change it: a person who knows what wrote \
                 them moves that day's file out of .trail/trajectory/, and any decision it held \
                 is recorded again with `trail decide`",
            ),
            GroundError::Config { .. } => Some("fix the YAML; trail reads its grounding keys only"),
            GroundError::Setting { from, .. } if from.as_str() == "--threshold" => None,
            GroundError::Setting { .. } => {
                Some("`trail config` shows trail's own settings and where each came from")
            }
            GroundError::Io { .. } | GroundError::File(_) => None,
        }
    }
}

fn lines(bad: &[Place]) -> String {
    match bad.len() {
        1 => "1 line".into(),
        n => format!("{n} lines"),
    }
}

fn places(bad: &[Place]) -> String {
    const SHOWN: usize = 5;
    let mut s: Vec<String> = bad.iter().take(SHOWN).map(Place::to_string).collect();
    if bad.len() > SHOWN {
        s.push(format!("… and {} more", bad.len() - SHOWN));
    }
    s.join(", ")
}

impl GroundError {
    pub(crate) fn io(path: &Path, source: impl trail_base::file_error::Cause) -> GroundError {
        GroundError::Io {
            path: path.to_path_buf(),
            source: source.cause(),
        }
    }
}

/// The threshold and enforcement in force, and where each came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    pub threshold: Threshold,
    pub threshold_from: String,
    pub enforcement: Enforcement,
    pub enforcement_from: String,
}

/// Where a setting can come from, strongest first.
#[derive(Clone, Debug, Default)]
pub struct PolicySources<'a> {
    /// `--threshold`.
    pub cli_threshold: Option<&'a str>,
    /// trail's own `grounding.threshold`, when something (a file, the environment) set it.
    pub trail_threshold: Option<(Threshold, String)>,
    /// trail's own `grounding.enforcement`, when set.
    pub trail_enforcement: Option<(Enforcement, String)>,
    pub loa: Option<&'a loa::LoaConfig>,
}

impl<'a> PolicySources<'a> {
    /// The sources every reader of the policy has (`trail ground`, `trail checkpoint`, the MCP
    /// server): trail's own settings when something set them, the project's Loa config, and a
    /// threshold given for this run.
    pub fn of(
        config: &crate::config::Config,
        loa: Option<&'a loa::LoaConfig>,
        cli_threshold: Option<&'a str>,
    ) -> PolicySources<'a> {
        PolicySources {
            cli_threshold,
            trail_threshold: config.grounding_threshold.chosen(),
            trail_enforcement: config.grounding_enforcement.chosen(),
            loa,
        }
    }

    /// Each setting from the strongest source that gives it: the command line, trail's
    /// configuration, `.loa.config.yaml`, the default (0.95, warn).
    pub fn resolve(&self) -> Result<Policy, GroundError> {
        const LOA: &str = ".loa.config.yaml";
        let bad_threshold = |from: &str, e: ThresholdError| GroundError::Setting {
            what: "the grounding threshold",
            from: from.to_string(),
            message: e.to_string(),
        };
        let (threshold, threshold_from) = if let Some(t) = self.cli_threshold {
            let parsed = Threshold::parse(t).map_err(|e| bad_threshold("--threshold", e))?;
            (parsed, "--threshold".to_string())
        } else if let Some((t, from)) = &self.trail_threshold {
            (*t, from.clone())
        } else if let Some(t) = self.loa.and_then(loa::LoaConfig::threshold) {
            (
                Threshold::parse(&t).map_err(|e| bad_threshold(LOA, e))?,
                LOA.to_string(),
            )
        } else {
            (Threshold::DEFAULT, "default".to_string())
        };
        let (enforcement, enforcement_from) = if let Some((e, from)) = &self.trail_enforcement {
            (*e, from.clone())
        } else if let Some(e) = self.loa.and_then(loa::LoaConfig::enforcement) {
            let parsed = Enforcement::parse(e).ok_or_else(|| GroundError::Setting {
                what: "grounding_enforcement",
                from: LOA.to_string(),
                message: format!("`{e}` is not {}", Enforcement::NAMES),
            })?;
            (parsed, LOA.to_string())
        } else {
            (Enforcement::default(), "default".to_string())
        };
        Ok(Policy {
            threshold,
            threshold_from,
            enforcement,
            enforcement_from,
        })
    }
}

/// The grounding enforcement in force for the project at `root`, resolved as the checkpoint
/// resolves it (trail's setting, else `.loa.config.yaml`, else warn), with where it came from.
/// The hooks, `trail budget` and `trail init` ask it; `Err` says why it cannot be read.
pub fn enforcement_at(
    config: &crate::config::Config,
    root: &Path,
) -> Result<(Enforcement, String), GroundError> {
    let loa = loa::read_config(root)?;
    let p = PolicySources::of(config, loa.as_ref(), None).resolve()?;
    Ok((p.enforcement, p.enforcement_from))
}

/// Whether strict enforcement is in force for the project at `root` (an unreadable policy is
/// not strict: holding edits on a policy nobody can read would trap the session).
pub fn strict_at(config: &crate::config::Config, root: &Path) -> bool {
    enforcement_at(config, root).is_ok_and(|(e, _)| e == Enforcement::Strict)
}

/// A NOTES.md to count the decisions of: its name in sources and its text.
pub struct Notes<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// Every claim of the journals under `root` (and of `notes`), with where they came from.
pub fn gather(
    root: &Path,
    loa: Option<&loa::LoaConfig>,
    notes: Option<Notes<'_>>,
) -> Result<Gathered, GroundError> {
    let mut g = Gathered::default();
    let mut bad = Vec::new();
    let trail = journal::read(root, None)?;
    bad.extend(trail.bad.into_iter().map(|p| prefixed("trajectory", p)));
    let before = g.claims.len();
    for (place, e) in trail.items {
        if let Some(c) = trail_claim(&place, &e.body) {
            g.claims.push(c);
        }
    }
    g.count("trajectory", before);
    if let Some(dir) = loa::trajectory_dir(root, loa) {
        let (claims, loa_bad) = loa::claims(root, &dir)?;
        bad.extend(loa_bad.into_iter().map(|p| prefixed("loa trajectory", p)));
        let before = g.claims.len();
        g.claims.extend(claims);
        g.count("loa trajectory", before);
    }
    if !bad.is_empty() {
        return Err(GroundError::Unreadable { bad });
    }
    if let Some(n) = notes {
        let known: HashSet<String> = g.claims.iter().map(|c| normalise(&c.title)).collect();
        let before = g.claims.len();
        g.claims.extend(
            notes::claims(n.text, n.name)
                .into_iter()
                .filter(|c| !known.contains(&normalise(&c.title))),
        );
        g.count(n.name, before);
    }
    Ok(g)
}

fn prefixed(what: &str, p: Place) -> Place {
    Place {
        file: format!("{what} {}", p.file),
        line: p.line,
    }
}

/// A trajectory entry as a claim: decisions and cites count, other phases do not.
fn trail_claim(place: &Place, body: &Body) -> Option<Claim> {
    let source = format!("trajectory {place}");
    match body {
        Body::Decision(d) => Some(Claim {
            title: d.title.clone(),
            source,
            evidence: d.evidence.iter().map(Cited::from_evidence).collect(),
            note: None,
        }),
        Body::Cite(c) => Some(Claim {
            title: c.claim.clone(),
            source,
            evidence: c.evidence.iter().map(Cited::from_evidence).collect(),
            note: None,
        }),
        _ => None,
    }
}

/// The claims read, and how many each source gave.
#[derive(Debug, Default)]
pub struct Gathered {
    pub claims: Vec<Claim>,
    pub sources: Vec<Source>,
}

impl Gathered {
    fn count(&mut self, name: &str, before: usize) {
        self.sources.push(Source {
            name: name.to_string(),
            decisions: self.claims.len() - before,
        });
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Source {
    pub name: String,
    pub decisions: usize,
}

/// Pass or fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Pass,
    Fail,
}

/// A decision without a verified citation, and what its citations are instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ungrounded {
    pub decision: String,
    pub source: String,
    pub citations: Vec<CitationStatus>,
    /// Why, in words (no citation, or what the citations are).
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CitationStatus {
    pub citation: String,
    pub status: Status,
}

/// The measure: the shape `trail ground --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub total: u64,
    pub grounded: u64,
    /// Rounded down (three places, or the threshold's when it has more).
    pub ratio: f64,
    pub ratio_exact: String,
    pub threshold: String,
    pub status: Verdict,
    pub ungrounded: Vec<Ungrounded>,
    pub enforcement: Enforcement,
    pub threshold_from: String,
    pub enforcement_from: String,
    pub sources: Vec<Source>,
}

impl Report {
    /// `0.947 (18/19)`.
    pub fn shown(&self) -> String {
        self.ratio_of()
            .shown(Threshold::parse(&self.threshold).unwrap_or(Threshold::DEFAULT))
    }

    pub fn ratio_of(&self) -> Ratio {
        Ratio::new(self.grounded, self.total)
    }
}

/// Check every claim's citations under `root` and hold the ratio to `policy`.
pub fn measure(root: &Path, gathered: Gathered, policy: &Policy) -> Result<Report, GroundError> {
    let mut checker = Checker::new(root).map_err(|e| GroundError::io(root, e))?;
    let total = gathered.claims.len() as u64;
    let mut ungrounded = Vec::new();
    for claim in gathered.claims {
        if let Some(u) =
            unless_grounded(&mut checker, claim).map_err(|e| GroundError::io(root, e))?
        {
            ungrounded.push(u);
        }
    }
    let ratio = Ratio::new(total - ungrounded.len() as u64, total);
    let decimal = ratio.decimal(Ratio::places_for(policy.threshold));
    Ok(Report {
        total,
        grounded: ratio.grounded,
        ratio: decimal.parse().unwrap_or(0.0),
        ratio_exact: ratio.exact(),
        threshold: policy.threshold.to_string(),
        status: if ratio.meets(policy.threshold) {
            Verdict::Pass
        } else {
            Verdict::Fail
        },
        ungrounded,
        enforcement: policy.enforcement,
        threshold_from: policy.threshold_from.clone(),
        enforcement_from: policy.enforcement_from.clone(),
        sources: gathered.sources,
    })
}

/// `None` when a citation of the claim verifies; else what each citation is. Citations are
/// checked until one verifies.
fn unless_grounded(checker: &mut Checker, claim: Claim) -> io::Result<Option<Ungrounded>> {
    let mut citations = Vec::new();
    for c in &claim.evidence {
        let status = checker.check(&c.target, &c.quote)?.status;
        if status == Status::Verified {
            return Ok(None);
        }
        citations.push(CitationStatus {
            citation: c.citation.clone(),
            status,
        });
    }
    let mut reason = if citations.is_empty() {
        "no citation".to_string()
    } else {
        let s: Vec<String> = citations
            .iter()
            .map(|c| format!("{} {}", c.citation, c.status))
            .collect();
        format!("no citation verifies: {}", s.join(", "))
    };
    if let Some(n) = &claim.note {
        reason.push_str(&format!(" ({n})"));
    }
    Ok(Some(Ungrounded {
        decision: claim.title,
        source: claim.source,
        citations,
        reason,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::Secrets;
    use crate::time::Ts;
    use crate::trajectory::{Decision, Entry, SpanId, TraceId};

    fn decision(root: &Path, n: usize, evidence: Vec<Evidence>) {
        let e = Entry {
            ts: Ts::from_micros(1_767_225_600_000_000 + i64::try_from(n).unwrap()),
            body: Body::Decision(Decision {
                id: format!("d{n}"),
                title: format!("decision {n}"),
                decision: "x".into(),
                rationale: "y".into(),
                evidence,
                tests: Vec::new(),
                bead: None,
            }),
            session_id: None,
            trace_id: TraceId::random(),
            span_id: SpanId::random(),
            parent_span_id: None,
        };
        let secrets = Secrets::new(root.join(".secrets"), Vec::new());
        journal::append(root, &e, &secrets).unwrap();
    }

    fn cited(line: u32, quote: &str) -> Evidence {
        Evidence {
            citation: format!("[${{PROJECT_ROOT}}/src/a.rs:{line}]"),
            quote: Some(quote.into()),
            status: None,
        }
    }

    fn project(grounded: usize, total: usize) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.rs"), "fn a() {}\nfn b() {}\n").unwrap();
        for n in 0..total {
            let ev = if n < grounded {
                vec![cited(5, "nowhere"), cited(1, "fn a() {}")]
            } else {
                vec![cited(2, "fn a() {}")]
            };
            decision(dir.path(), n, ev);
        }
        dir
    }

    fn run(root: &Path, threshold: &str) -> Report {
        let policy = PolicySources {
            cli_threshold: Some(threshold),
            ..Default::default()
        }
        .resolve()
        .unwrap();
        measure(root, gather(root, None, None).unwrap(), &policy).unwrap()
    }

    #[test]
    #[expect(
        clippy::float_cmp,
        reason = "`ratio` is the rounded figure JSON shows; the test pins it exactly"
    )]
    fn eighteen_of_nineteen_fails_and_says_so_exactly() {
        let p = project(18, 19);
        let r = run(p.path(), "0.95");
        assert_eq!((r.grounded, r.total, r.status), (18, 19, Verdict::Fail));
        assert_eq!(r.shown(), "0.947 (18/19)");
        assert_eq!(r.ratio, 0.947);
        assert_eq!(r.ungrounded.len(), 1);
        assert_eq!(r.ungrounded[0].citations[0].status, Status::Drifted);
        let p = project(19, 20);
        let r = run(p.path(), "0.95");
        assert_eq!((r.ratio_exact.as_str(), r.status), ("19/20", Verdict::Pass));
    }

    #[test]
    fn an_unreadable_line_is_an_error_not_a_pass() {
        let p = project(1, 1);
        let f = crate::layout::Layout::new(p.path())
            .trajectory_dir()
            .join("2026-01-01.jsonl");
        crate::fsutil::append_in(p.path(), &f, b"{\"phase\":\"decision\",\"title\":\n").unwrap();
        let e = gather(p.path(), None, None).unwrap_err();
        assert!(
            matches!(&e, GroundError::Unreadable { bad } if bad.len() == 1),
            "{e}"
        );
        assert!(
            e.to_string().contains("trajectory 2026-01-01.jsonl:2"),
            "{e}"
        );
    }

    #[test]
    fn notes_decisions_count_once() {
        let p = project(1, 1);
        let notes =
            "## Decision Log\n### 2026-01-01 — decision 0\nsame\n### 2026-01-02 — another\nnone\n";
        let g = gather(
            p.path(),
            None,
            Some(Notes {
                name: "NOTES.md",
                text: notes,
            }),
        )
        .unwrap();
        let titles: Vec<&str> = g.claims.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(titles, ["decision 0", "another"]);
        assert_eq!(
            g.sources[1],
            Source {
                name: "NOTES.md".into(),
                decisions: 1
            }
        );
    }

    #[test]
    fn the_policy_comes_from_the_strongest_source() {
        let loa: loa::LoaConfig =
            serde_saphyr::from_str("grounding_enforcement: strict\ngrounding:\n  threshold: 0.9\n")
                .unwrap();
        let p = PolicySources {
            loa: Some(&loa),
            ..Default::default()
        }
        .resolve()
        .unwrap();
        assert_eq!(
            (p.threshold.to_string(), p.enforcement),
            ("0.9".into(), Enforcement::Strict)
        );
        assert_eq!(p.threshold_from, ".loa.config.yaml");
        let p = PolicySources {
            cli_threshold: Some("0.8"),
            trail_enforcement: Some((Enforcement::Disabled, "TRAIL_GROUNDING_ENFORCEMENT".into())),
            loa: Some(&loa),
            ..Default::default()
        }
        .resolve()
        .unwrap();
        assert_eq!(
            (p.threshold.to_string(), p.enforcement),
            ("0.8".into(), Enforcement::Disabled)
        );
        let p = PolicySources::default().resolve().unwrap();
        assert_eq!(
            (p.threshold, p.enforcement),
            (Threshold::DEFAULT, Enforcement::Warn)
        );
        let bad: loa::LoaConfig = serde_saphyr::from_str("grounding_enforcement: loud\n").unwrap();
        let e = PolicySources {
            loa: Some(&bad),
            ..Default::default()
        }
        .resolve()
        .unwrap_err();
        assert!(
            e.to_string().contains("loud") && e.to_string().contains("strict, warn or disabled"),
            "{e}"
        );
        assert!(
            PolicySources {
                cli_threshold: Some("95"),
                ..Default::default()
            }
            .resolve()
            .is_err()
        );
    }
}
