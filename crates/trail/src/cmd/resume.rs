//! `trail resume`: the working state, rebuilt from the newest records.

use serde::Serialize;
use trail_core::ledger::rehydrate::{self, Level, RehydrateOptions, State};
use trail_core::project::Project;

use crate::cli::ResumeArgs;
use crate::context::Context;
use crate::error::CliResult;
use crate::output;

#[derive(Serialize)]
struct ResumeJson<'a> {
    level: u8,
    /// The rendered text, within the level's token budget.
    text: String,
    tokens: usize,
    #[serde(flatten)]
    state: &'a State,
}

/// With `--proj`, that project's threads. Without it, the current project's threads first and
/// other projects one line each (`resume.other_projects`; all of them in full at `--level 3`),
/// or, outside any project the stream knows, every thread as it comes.
pub fn run(ctx: &Context, args: &ResumeArgs) -> CliResult {
    let opts = RehydrateOptions {
        proj: args.proj.clone(),
        tangents: args.tangents,
        ..RehydrateOptions::default()
    };
    let level = Level::from_number(args.level).unwrap_or(Level::Standard);
    let (state, text) = if args.proj.is_some() {
        let state = ctx.ledger.rehydrate(&opts)?;
        let text = rehydrate::render(&state, level);
        (state, text)
    } else {
        let config = &ctx.config;
        let project = Project::discover(&config.project_root.value);
        let scoped = ctx.ledger.rehydrate_scoped(&project, &opts)?;
        let text = if scoped.has_own() {
            scoped.render(level, config.resume_other_projects.value as usize)
        } else {
            rehydrate::render(&scoped.all, level)
        };
        (scoped.all, text)
    };
    if args.json {
        return output::json(&ResumeJson {
            level: args.level,
            tokens: rehydrate::estimate_tokens(&text),
            text,
            state: &state,
        });
    }
    output::text(&text)
}
