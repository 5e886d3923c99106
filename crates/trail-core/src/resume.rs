//! `trail resume` and the MCP `resume` tool, written once (issue 23): the threads the stream
//! rebuilds, and in front of them the brief (objective, step, blockers, what comes next, the
//! last decisions and the bead in progress) the person and the agent read first.
//!
//! Found by reading the two front ends side by side: the MCP tool returned the threads alone,
//! without the brief `trail resume` printed, and named the project from the canonical root
//! where the CLI named it from the root as configured. Both now ask this function, with the
//! workspace's root.

use crate::beads::{self, Shown};
use crate::decided::pulse::Carried as Decision;
use crate::decided::recent;
use crate::ledger::LedgerError;
use crate::ledger::rehydrate::{self, Level, RehydrateOptions, State};
use crate::notes::Active;
use crate::recovery::{self, Brief, Parts};
use crate::secrets::SecretsError;
use crate::workspace::Workspace;

/// What is asked for.
#[derive(Clone, Debug)]
pub struct Request {
    pub level: Level,
    /// Another project's threads instead of this project's.
    pub proj: Option<String>,
    /// Decisions that match these words, instead of the latest ones.
    pub query: Option<String>,
    /// Keep parked tangents in the threads.
    pub tangents: bool,
}

/// What comes back, every text in it redacted.
#[derive(Clone, Debug)]
pub struct Resumed {
    pub level: Level,
    /// The whole text: the brief, the decisions, the bead, the threads.
    pub text: String,
    /// Its size as the model counts it, estimated.
    pub tokens: usize,
    pub brief: Brief,
    /// The decisions shown past the brief's own.
    pub decisions: Vec<Decision>,
    pub bead: Option<Shown>,
    /// The rebuilt state the threads come from.
    pub state: State,
}

/// Why nothing could be resumed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    #[error(transparent)]
    Secrets(#[from] SecretsError),
}

/// How many decisions are read back for each level.
fn decisions_read(level: Level) -> usize {
    match level {
        Level::Brief => recovery::LAST_DECISIONS,
        Level::Standard => 200,
        Level::Full => 10_000,
    }
}

/// Resume the workspace's project (or `request.proj`): see the module's documentation. With
/// `proj`, that project's threads; without it, this project's threads first and other projects
/// one line each (`resume.other_projects`; all of them in full at level 3), or, outside any
/// project the stream knows, every thread as it comes.
pub fn resume(ws: &Workspace, request: &Request) -> Result<Resumed, ResumeError> {
    let opts = RehydrateOptions {
        proj: request.proj.clone(),
        tangents: request.tangents,
        ..RehydrateOptions::default()
    };
    let level = request.level;
    let config = &ws.config;
    let root = &ws.root;
    let project = ws.project();
    let (state, threads) = if request.proj.is_some() {
        let state = ws.ledger.rehydrate(&opts)?;
        let text = rehydrate::render(&state, level);
        (state, text)
    } else {
        let scoped = ws.ledger.rehydrate_scoped(&project, &opts)?;
        let text = if scoped.has_own() {
            scoped.render(level, config.resume_other_projects.value as usize)
        } else {
            rehydrate::render(&scoped.all, level)
        };
        (scoped.all, text)
    };
    // The brief is this project's: with `proj` naming another, it has none.
    let own = request.proj.as_ref().is_none_or(|p| *p == project.name);
    let decisions = if own {
        recent::recent(
            &ws.ledger,
            Some(&project),
            decisions_read(level),
            config.max_records.value as usize,
        )?
    } else {
        Vec::new()
    };
    let (plan, active) = if own {
        (plan_state(root), crate::notes::active_of(config, root))
    } else {
        (None, Active::default())
    };
    // The state file, NOTES.md and beads' output are the project's text: redacted before they
    // are rendered (the stream's records were redacted when written), so the budget holds.
    // Shown, not written: the files still hold what they hold, so no original is kept.
    let redactor = ws.secrets.redactor()?;
    let red = |s: &str| redactor.redact(s, &mut Vec::new()).into_owned();
    // Level 1's budget cuts the threads short: its brief says the newest pulse's now and next
    // itself. Above it, the threads follow whole and say them.
    let latest = (own && level == Level::Brief)
        .then(|| recovery::latest(&state.threads, &project.name))
        .flatten();
    let brief = redacted(
        recovery::brief(plan.as_ref(), &active, latest.as_ref(), &decisions),
        &red,
    );
    let more: Vec<&Decision> = match (level, &request.query) {
        (Level::Brief, _) => Vec::new(),
        (_, Some(q)) => recovery::retrieve(&decisions, q, 5),
        (Level::Standard, None) => decisions
            .iter()
            .skip(recovery::LAST_DECISIONS)
            .take(5)
            .collect(),
        (Level::Full, None) => decisions.iter().collect(),
    };
    let bead = match level {
        Level::Brief => None,
        _ => current_bead(&active, &decisions)
            .and_then(|id| {
                beads::find(root, std::env::var_os("PATH").as_deref())?
                    .show(root, &id)
                    .ok()
            })
            .map(|mut b| {
                b.text = red(&b.text);
                b
            }),
    };
    let text = red(&recovery::render(
        level,
        &Parts {
            brief: &brief,
            more: &more,
            query: request.query.as_deref(),
            bead: bead.as_ref(),
            threads: &threads,
        },
    ));
    Ok(Resumed {
        level,
        tokens: crate::tokens::estimate(&text),
        text,
        brief,
        decisions: more.into_iter().cloned().collect(),
        bead,
        state,
    })
}

/// The brief with the project's text in it redacted.
fn redacted(mut brief: Brief, red: &impl Fn(&str) -> String) -> Brief {
    for f in [
        &mut brief.objective,
        &mut brief.current_step,
        &mut brief.next_step,
    ] {
        *f = f.as_deref().map(red);
    }
    brief.blockers = brief.blockers.iter().map(|b| red(b)).collect();
    brief
}

/// The state file, when there is one trail can read (resume never fails on it).
fn plan_state(root: &std::path::Path) -> Option<crate::state::State> {
    let l = crate::state::Store::new(root).load().ok()?;
    l.exists.then_some(l.state)
}

/// The bead in progress: NOTES.md's Current Bead, else the newest decision's.
fn current_bead(active: &Active, decisions: &[Decision]) -> Option<String> {
    active
        .bead_id()
        .or_else(|| decisions.iter().find_map(|d| d.decision.bead.clone()))
}
