//! `trail resume`: the working state, rebuilt from the newest records.

use serde::Serialize;
use trail_core::ledger::rehydrate::{self, Level, RehydrateOptions, State};

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

pub fn run(ctx: &Context, args: &ResumeArgs) -> CliResult {
    let state = ctx.ledger.rehydrate(&RehydrateOptions {
        proj: args.proj.clone(),
        tangents: args.tangents,
        ..RehydrateOptions::default()
    })?;
    let level = Level::from_number(args.level).unwrap_or(Level::Standard);
    let text = rehydrate::render(&state, level);
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
