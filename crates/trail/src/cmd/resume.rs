//! `trail resume --level 1|2|3 [--query Q]`: tiered recovery (Lossless Ledger FR-3). Level 1
//! (≤ 100 tokens) is the objective, current and next step, blockers and the last three
//! decisions, then the rehydrated threads as fit; level 2 (≤ 500) adds the decisions retrieved
//! for `--query` and the current bead (`br`/`bd show`, when beads is installed); level 3 is
//! everything. `tokens` in `--json` is trail's estimate (`trail_core::tokens`), which the tests
//! hold at or above the o200k tokenizer's count.

use serde::Serialize;
use trail_core::beads::Shown;
use trail_core::decision::pulse::Carried as Decision;
use trail_core::ledger::rehydrate::{Level, State};
use trail_core::recovery::Brief;
use trail_core::resume::{self, Request};

use crate::cli::ResumeArgs;
use crate::context::Context;
use crate::error::CliResult;
use crate::output;

#[derive(Serialize)]
struct ResumeJson<'a> {
    level: u8,
    text: &'a str,
    tokens: usize,
    brief: &'a Brief,
    #[serde(skip_serializing_if = "Option::is_none")]
    query: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    decisions: &'a [Decision],
    #[serde(skip_serializing_if = "Option::is_none")]
    bead: Option<&'a Shown>,
    #[serde(flatten)]
    state: &'a State,
}

/// `trail resume`: the use case ([`trail_core::resume`]), printed or as JSON.
pub fn run(ctx: &Context, args: &ResumeArgs) -> CliResult {
    let done = resume::resume(
        ctx,
        &Request {
            level: Level::from_number(args.level).unwrap_or(Level::Standard),
            proj: args.proj.clone(),
            query: args.query.clone(),
            tangents: args.tangents,
        },
    )?;
    if args.json {
        let v = serde_json::to_value(ResumeJson {
            level: args.level,
            text: &done.text,
            tokens: done.tokens,
            brief: &done.brief,
            query: args.query.as_deref(),
            decisions: &done.decisions,
            bead: done.bead.as_ref(),
            state: &done.state,
        })
        .map_err(std::io::Error::other)?;
        return output::json(&output::redacted(v, ctx.secrets.redactor()?));
    }
    output::text(&done.text)
}
