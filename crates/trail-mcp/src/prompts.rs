//! The prompts: messages a person picks from their client's menu (Claude Code shows them as
//! `/mcp__trail__resume`). Each carries trail's current state, read fresh and redacted by the
//! server, and says what to do with it; neither can decide a junction, only tell the agent to
//! leave that to the person.

use crate::context::Ctx;
use crate::error::ToolError;

pub struct Prompt {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    pub text: fn(&Ctx) -> Result<String, ToolError>,
}

pub const PROMPTS: &[Prompt] = &[
    Prompt {
        name: "resume",
        title: "Resume from trail",
        description: "Pick the work up where the ledger says it stands",
        text: resume,
    },
    Prompt {
        name: "handoff",
        title: "Hand off to the next session",
        description: "Write what the next session needs into trail before this one ends",
        text: handoff,
    },
];

pub fn find(name: &str) -> Option<&'static Prompt> {
    PROMPTS.iter().find(|p| p.name == name)
}

fn resume(ctx: &Ctx) -> Result<String, ToolError> {
    let state = crate::tools::resume_text(ctx, 2, None)?;
    Ok(format!(
        "Resume the work from trail's ledger. This is where it stands (rebuilt from the pulse \
         stream, not from memory):\n\n{state}\n\nContinue with the first next step of this \
         project's thread. For detail, use trail's tools: search (one line per hit), then \
         timeline or get on an id. If a command was waiting for a junction, do not retry it: \
         ask the person."
    ))
}

fn handoff(ctx: &Ctx) -> Result<String, ToolError> {
    let state = crate::tools::resume_text(ctx, 2, None)?;
    let project = ctx.project().name;
    Ok(format!(
        "Hand this session off through trail, so the next one starts where this one stops. \
         The ledger's view of the work now:\n\n{state}\n\nThen:\n\
         1. Write one handoff pulse with what was done, what is next and what you learned: \
         `trail pulse --type handoff --proj {project} --summary \"…\" --next \"…\" --fact \"…\"` \
         (repeat --next and --fact; --defer for what was put aside).\n\
         2. Keep durable facts (ports, decisions and their reasons, gotchas) with the remember \
         tool, one note each.\n\
         3. Leave any pending junction to the person; say what it was waiting for.\n\
         Write only what this session established; mark guesses as such."
    ))
}
