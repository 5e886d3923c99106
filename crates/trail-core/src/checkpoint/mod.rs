//! The synthesis checkpoint (Lossless Ledger FR-2, "before `/clear`"): seven steps, each with a
//! verdict, then the result journalled.
//!
//! [`run`] measures, writing nothing:
//! 1. grounding: the ratio of decisions with a verified citation, against the threshold;
//! 2. negative grounding: the ghost features NOTES.md lists, each checked by two searches
//!    ([`crate::grounding::negative::project`], run by the caller: [`Inputs::ghosts`]). An
//!    `[UNVERIFIED GHOST]` fails (it never counts as grounded), a `[HIGH AMBIGUITY]` one warns
//!    (a person decides), confirmed ghosts and features the code has pass; a NOTES.md that
//!    cannot be read is an error. Each ghost becomes a `negative_grounding` entry;
//! 3. decision log: a decision recorded this session, and each of them in NOTES.md;
//! 4. plan and bead: the plan names the step in flight; the bead in progress was updated;
//! 5. trajectory handoff: written by [`record`] (its verdict is whether it was written);
//! 6. raw output decayed to identifiers: NOTES.md's Active Context and identifiers hold
//!    identifiers that resolve, not pasted output;
//! 7. test scenarios: every decision of this session has three (EDD).
//!
//! Beside the steps, forks ([`crate::fork`]): NOTES.md's Active Context against the state
//! file's objective and step, and every decision's citations that were verified when recorded
//! and are not now.
//!
//! A step that fails blocks only under strict enforcement (the grounding policy's); under warn
//! it is reported and the checkpoint passes; a step that warns (for a person) never blocks; an
//! error (a journal that cannot be read) is never a pass. [`record`] then writes the
//! `negative_grounding`, `session_handoff` and `checkpoint` trajectory entries, a checkpoint
//! pulse, and NOTES.md's Active Context (its Last Checkpoint when the checkpoint passed).
//!
//! Findings are data; what each means in words (a detail, a remedy) is [`words`], which
//! `trail checkpoint` and the MCP server's `checkpoint` tool share, since the remedies are
//! journalled too. [`Setup::load`] gathers what both read, and [`checkpoint`] is the whole run.

pub mod gap;
pub mod steps;
pub mod words;

use std::ffi::OsStr;
use std::path::Path;

use serde::Serialize;

use crate::beads::{Bead, BeadsError};
use crate::config::Config;
use crate::grounding::loa::{self, LoaConfig};
use crate::grounding::negative::{self, project::Found};
use crate::grounding::{Enforcement, GroundError, Policy, PolicySources};
use crate::ledger::Ledger;
use crate::notes::{Location, NotesError};
use crate::project::Project;
use crate::time::Ts;

pub use gap::{Gap, passed_after, since_last_decision};
pub use steps::Unreadable;
pub use steps::{BeadState, DecayFinding, DecisionRef, PlanState, Raw, ShortOfTests};

/// A step's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepVerdict {
    Pass,
    Fail,
    /// Passes, with something a person must look at (a `[HIGH AMBIGUITY]` ghost): never blocks,
    /// always said.
    Warn,
    /// Not applicable here (no beads, no ghost listed), said as such.
    Skipped,
    /// Could not be checked: never a pass.
    Error,
}

impl StepVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            StepVerdict::Pass => "pass",
            StepVerdict::Fail => "fail",
            StepVerdict::Warn => "warn",
            StepVerdict::Skipped => "skipped",
            StepVerdict::Error => "error",
        }
    }
}

/// The checkpoint's verdict: exit 0, 1 or 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Pass,
    Blocked,
    Error,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Blocked => "blocked",
            Verdict::Error => "error",
        }
    }
}

/// What a step found.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Finding {
    Grounding {
        report: Box<crate::grounding::Report>,
    },
    GroundingError {
        message: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        hint: Option<&'static str>,
    },
    /// The ghost features listed, each checked.
    Ghosts {
        report: Found,
    },
    /// NOTES.md could not be read: its ghosts were never checked.
    GhostsError {
        message: String,
    },
    DecisionLog {
        /// How "this session" was told: `session <id>`, `since <ts>` or `all`.
        scope: String,
        this_session: Vec<DecisionRef>,
        /// Decisions of the journals that NOTES.md does not hold.
        missing_from_notes: Vec<DecisionRef>,
        notes: String,
    },
    Unreadable {
        message: String,
    },
    PlanAndBead {
        plan: PlanState,
        bead: BeadState,
    },
    Handoff {
        written: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        notes_refs: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    Decay {
        found: DecayFinding,
    },
    Tests {
        checked: usize,
        short: Vec<ShortOfTests>,
    },
}

/// One step: its name, verdict and finding.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// `grounding`, `negative_grounding`, `decision_log`, `plan_and_bead`,
    /// `trajectory_handoff`, `decayed_to_identifiers`, `test_scenarios`.
    pub name: &'static str,
    pub verdict: StepVerdict,
    pub finding: Finding,
}

/// The step names, in order.
pub const STEPS: [&str; 7] = [
    "grounding",
    "negative_grounding",
    "decision_log",
    "plan_and_bead",
    "trajectory_handoff",
    "decayed_to_identifiers",
    "test_scenarios",
];

/// What the checkpoint is run with.
pub struct Inputs<'a> {
    pub root: &'a Path,
    pub project: &'a Project,
    /// The host session, when known (decisions of "this session" are its).
    pub session: Option<&'a str>,
    pub notes: &'a Location,
    pub policy: &'a Policy,
    pub loa: Option<&'a crate::grounding::loa::LoaConfig>,
    /// `Some` when a tracker is in use: the bead in progress, or why it could not be read.
    pub bead: Option<Result<Option<Bead>, std::sync::Arc<BeadsError>>>,
    /// The project's ghost features, checked ([`crate::grounding::negative::project::check`]
    /// on [`Inputs::notes`]). Not optional: a checkpoint cannot pass over ghosts nobody
    /// searched for.
    pub ghosts: &'a Result<Found, NotesError>,
}

/// The checkpoint: each step, and the verdict.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub verdict: Verdict,
    pub enforcement: Enforcement,
    pub steps: Vec<Step>,
    /// Steps that failed without blocking (enforcement warn or disabled), and steps that warn.
    pub warnings: usize,
    /// Journals the result could not be written to (the verdict is then an error).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
    /// Why NOTES.md's Active Context was not updated (a view: not an error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes_error: Option<String>,
    /// Where what the agent asserted disagrees with the journals ([`crate::fork`]): NOTES.md's
    /// Active Context against the state file, citations that drifted since they were recorded.
    /// Reported and journalled; the journals win, and none blocks by itself.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forks: Vec<crate::fork::Fork>,
}

impl Report {
    pub fn step(&self, name: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.name == name)
    }

    /// The verdict the steps give under `enforcement`.
    fn settle(&mut self) {
        let error =
            !self.errors.is_empty() || self.steps.iter().any(|s| s.verdict == StepVerdict::Error);
        let failed = self
            .steps
            .iter()
            .filter(|s| s.verdict == StepVerdict::Fail)
            .count();
        let warned = self
            .steps
            .iter()
            .filter(|s| s.verdict == StepVerdict::Warn)
            .count();
        let strict = self.enforcement == Enforcement::Strict;
        self.verdict = if error {
            Verdict::Error
        } else if failed > 0 && strict {
            Verdict::Blocked
        } else {
            Verdict::Pass
        };
        self.warnings = warned + if strict { 0 } else { failed };
    }
}

/// Steps 1–4, 6 and 7, measured; step 5 pending until [`record`] writes the handoff.
pub fn run(i: &Inputs<'_>) -> Report {
    let journal = steps::Journal::read(i.root);
    let mut steps = vec![
        steps::grounding(i),
        steps::negative_grounding(i),
        steps::decision_log(i, &journal),
        steps::plan_and_bead(i, &journal),
        Step {
            name: "trajectory_handoff",
            verdict: StepVerdict::Pass,
            finding: Finding::Handoff {
                written: false,
                notes_refs: None,
                error: None,
            },
        },
        steps::decayed(i),
        steps::test_scenarios(i, &journal),
    ];
    for s in &mut steps {
        if let Err(e) = &journal.error
            && matches!(s.name, "decision_log" | "test_scenarios")
        {
            s.verdict = StepVerdict::Error;
            s.finding = Finding::Unreadable {
                message: e.to_string(),
            };
        }
    }
    let mut r = Report {
        verdict: Verdict::Pass,
        enforcement: i.policy.enforcement,
        steps,
        warnings: 0,
        errors: Vec::new(),
        notes_error: None,
        forks: Vec::new(),
    };
    match steps::forks(i, &journal) {
        Ok(f) => r.forks = f,
        Err(e) => r.errors.push(format!("cannot check for forks: {e}")),
    }
    r.settle();
    r
}

/// Where and as whom the checkpoint is journalled.
pub struct Journalling<'a> {
    pub root: &'a Path,
    pub ledger: &'a Ledger,
    pub project: &'a Project,
    pub session: Option<&'a str>,
    pub notes: &'a Location,
    /// NOTES.md's Reasoning State, in the agent's words.
    pub reasoning: Option<String>,
    /// The bead in progress, named in the handoff and Active Context.
    pub bead: Option<Bead>,
    /// Each step's remedy in words (by step name), kept in the trajectory entry.
    pub remedies: Vec<(&'static str, String)>,
}

/// Step 5 and the record: the forks found (`fork_detected`), each ghost checked
/// (`negative_grounding`), the `session_handoff` entry (its verdict is the step's), the
/// `checkpoint` entry, a checkpoint pulse, and NOTES.md's Active Context. The report's verdict
/// is settled again with step 5 in it.
pub fn record(j: &Journalling<'_>, report: &mut Report) {
    let secrets = &j.ledger.options().secrets;
    if let Err(e) = crate::fork::log(j.root, &report.forks, j.session, secrets) {
        report.errors.push(format!("cannot journal the forks: {e}"));
    }
    if let Some(Step {
        finding: Finding::Ghosts { report: found },
        ..
    }) = report.step("negative_grounding")
        && let Err(e) = negative::log(j.root, &found.ghosts, j.session, secrets)
    {
        report
            .errors
            .push(format!("cannot journal the ghosts checked: {e}"));
    }
    steps::handoff(j, report);
    report.settle();
    steps::journal_checkpoint(j, report, Ts::now());
}

/// What a checkpoint reads besides the journals, from the configuration and the project.
pub struct Setup {
    pub loa: Option<LoaConfig>,
    pub policy: Policy,
    pub notes: Location,
    /// `Some` when a tracker is in use: the bead in progress, or why it could not be read.
    pub bead: Option<Result<Option<Bead>, std::sync::Arc<BeadsError>>>,
}

/// Why a checkpoint could not start: nothing was checked or written.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("cannot read the project's Loa config: {0}")]
    Loa(GroundError),
    #[error("cannot read the grounding policy: {0}")]
    Policy(GroundError),
    #[error(transparent)]
    Notes(NotesError),
    #[error(transparent)]
    Secrets(crate::secrets::SecretsError),
}

/// `trail checkpoint` and the MCP `checkpoint` tool: the whole checkpoint of the workspace's
/// project, with this session (the host's environment names it), the bead in progress
/// (`br`/`bd` on PATH) and the ghost search (which quotes files that still hold what they
/// quote: the bare redactor). The policy comes back for the words a front end renders.
pub fn in_workspace(
    ws: &crate::workspace::Workspace,
    reasoning: Option<String>,
) -> Result<(Report, Policy), SetupError> {
    let root = ws.citation_root();
    let setup = Setup::load(&ws.config, &root, std::env::var_os("PATH").as_deref())?;
    let project = ws.project();
    let session = crate::host::session_from_env();
    let redactor = ws.secrets.redactor().map_err(SetupError::Secrets)?;
    let ghosts = negative::project::check(
        &root,
        &setup.notes,
        &[],
        &negative::Options::of(&ws.config),
        redactor,
    );
    let inputs = Inputs {
        root: &root,
        project: &project,
        session: session.as_deref(),
        notes: &setup.notes,
        policy: &setup.policy,
        loa: setup.loa.as_ref(),
        bead: setup.bead.clone(),
        ghosts: &ghosts,
    };
    let report = checkpoint(&inputs, &ws.ledger, reasoning);
    Ok((report, setup.policy))
}

impl Setup {
    /// The project at `root` under `config`; `path` is the `PATH` the bead tracker is looked
    /// up on.
    pub fn load(config: &Config, root: &Path, path: Option<&OsStr>) -> Result<Setup, SetupError> {
        let loa = loa::read_config(root).map_err(|e| SetupError::Loa(e.into()))?;
        let policy = PolicySources::of(config, loa.as_ref(), None)
            .resolve()
            .map_err(SetupError::Policy)?;
        let notes =
            crate::notes::locate_in(config, root, loa.as_ref()).map_err(SetupError::Notes)?;
        let bead = crate::beads::find(root, path).map(|t| t.in_progress(root).map_err(Into::into));
        Ok(Setup {
            loa,
            policy,
            notes,
            bead,
        })
    }
}

/// The whole checkpoint, as `trail checkpoint` and the MCP `checkpoint` tool run it: the steps
/// measured ([`run`]), each failure's remedy in words ([`words`]), then the result journalled
/// ([`record`]) with `reasoning` as NOTES.md's Reasoning State.
pub fn checkpoint(i: &Inputs<'_>, ledger: &Ledger, reasoning: Option<String>) -> Report {
    let mut report = run(i);
    let remedies = report
        .steps
        .iter()
        .filter_map(|s| words::words(s, i.policy).1.map(|r| (s.name, r)))
        .collect();
    let in_progress = match &i.bead {
        Some(Ok(Some(b))) => Some(b.clone()),
        _ => None,
    };
    record(
        &Journalling {
            root: i.root,
            ledger,
            project: i.project,
            session: i.session,
            notes: i.notes,
            reasoning,
            bead: in_progress,
            remedies,
        },
        &mut report,
    );
    report
}
