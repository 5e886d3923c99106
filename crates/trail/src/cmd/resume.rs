//! `trail resume --level 1|2|3 [--query Q]`: tiered recovery (Lossless Ledger FR-3). Level 1
//! (≤ 100 tokens) is the objective, current and next step, blockers and the last three
//! decisions, then the rehydrated threads as fit; level 2 (≤ 500) adds the decisions retrieved
//! for `--query` and the current bead (`br`/`bd show`, when beads is installed); level 3 is
//! everything. `tokens` in `--json` is trail's estimate (`trail_core::tokens`), which the tests
//! hold at or above the o200k tokenizer's count.

use serde::Serialize;
use trail_core::beads::{self, Shown};
use trail_core::decision::pulse::Carried as Decision;
use trail_core::decision::recent;
use trail_core::ledger::rehydrate::{self, Level, RehydrateOptions, State};
use trail_core::notes::Active;
use trail_core::project::Project;
use trail_core::recovery::{self, Brief, Parts};

use crate::cli::ResumeArgs;
use crate::context::Context;
use crate::error::CliResult;
use crate::output;

#[derive(Serialize)]
struct ResumeJson<'a> {
    level: u8,
    /// The rendered text, within the level's token budget.
    text: String,
    /// The text's tokens, as trail estimates them (never below o200k's count on what is tested).
    tokens: usize,
    brief: &'a Brief,
    #[serde(skip_serializing_if = "Option::is_none")]
    query: Option<&'a str>,
    /// Decisions beyond the brief's: retrieved for the query, or the next most recent.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    decisions: Vec<&'a Decision>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bead: Option<&'a Shown>,
    #[serde(flatten)]
    state: &'a State,
}

/// How many decision records each level reads back.
fn decisions_read(level: Level) -> usize {
    match level {
        Level::Brief => recovery::LAST_DECISIONS,
        Level::Standard => 200,
        Level::Full => 10_000,
    }
}

/// With `--proj`, that project's threads. Without it, the current project's threads first and
/// other projects one line each (`resume.other_projects`; all of them in full at `--level 3`),
/// or, outside any project the stream knows, every thread as it comes. The brief (state file,
/// NOTES.md, decisions) is the current project's, and comes first.
pub fn run(ctx: &Context, args: &ResumeArgs) -> CliResult {
    let opts = RehydrateOptions {
        proj: args.proj.clone(),
        tangents: args.tangents,
        ..RehydrateOptions::default()
    };
    let level = Level::from_number(args.level).unwrap_or(Level::Standard);
    let config = &ctx.config;
    let root = &config.project_root.value;
    let project = Project::discover(root);
    let (state, threads) = if args.proj.is_some() {
        let state = ctx.ledger.rehydrate(&opts)?;
        let text = rehydrate::render(&state, level);
        (state, text)
    } else {
        let scoped = ctx.ledger.rehydrate_scoped(&project, &opts)?;
        let text = if scoped.has_own() {
            scoped.render(level, config.resume_other_projects.value as usize)
        } else {
            rehydrate::render(&scoped.all, level)
        };
        (scoped.all, text)
    };
    // The brief is this project's: with --proj naming another, it has none.
    let own = args.proj.as_ref().is_none_or(|p| *p == project.name);
    let decisions = if own {
        recent::recent(
            &ctx.ledger,
            Some(&project),
            decisions_read(level),
            config.max_records.value as usize,
        )?
    } else {
        Vec::new()
    };
    let (plan, active) = if own {
        (plan_state(root), trail_core::notes::active_of(config, root))
    } else {
        (None, Active::default())
    };
    // The state file, NOTES.md and beads' output are the project's text: redacted before they
    // are rendered (the stream's records were redacted when written), so the budget holds.
    // Shown, not written: the files still hold what they hold, so no original is kept.
    let redactor = ctx.secrets.redactor()?;
    let red = |s: &str| redactor.redact(s, &mut Vec::new()).into_owned();
    // Level 1's budget cuts the threads short: its brief says the newest pulse's now and
    // next itself. Above it, the threads follow whole and say them.
    let latest = (own && level == Level::Brief)
        .then(|| recovery::latest(&state.threads, &project.name))
        .flatten();
    let brief = redacted(
        recovery::brief(plan.as_ref(), &active, latest.as_ref(), &decisions),
        &red,
    );
    let more: Vec<&Decision> = match (level, &args.query) {
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
    let text = recovery::render(
        level,
        &Parts {
            brief: &brief,
            more: &more,
            query: args.query.as_deref(),
            bead: bead.as_ref(),
            threads: &threads,
        },
    );
    let text = red(&text);
    if args.json {
        let v = serde_json::to_value(ResumeJson {
            level: args.level,
            tokens: trail_core::tokens::estimate(&text),
            text,
            brief: &brief,
            query: args.query.as_deref(),
            decisions: more,
            bead: bead.as_ref(),
            state: &state,
        })
        .map_err(std::io::Error::other)?;
        return output::json(&output::redacted(v, redactor));
    }
    output::text(&text)
}

/// The brief with the project's text in it redacted.
fn redacted(mut brief: recovery::Brief, red: &impl Fn(&str) -> String) -> recovery::Brief {
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
fn plan_state(root: &std::path::Path) -> Option<trail_core::state::State> {
    let l = trail_core::state::Store::new(root).load().ok()?;
    l.exists.then_some(l.state)
}

/// The bead in progress: NOTES.md's Current Bead, else the newest decision's.
fn current_bead(active: &Active, decisions: &[Decision]) -> Option<String> {
    active
        .bead_id()
        .or_else(|| decisions.iter().find_map(|d| d.decision.bead.clone()))
}
