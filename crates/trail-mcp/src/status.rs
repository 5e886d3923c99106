//! The `status` tool: what `trail status` shows (`trail_core::state::status`, gathered once
//! for both front ends), compact. The pending junction comes from trail's own signed record
//! (never the state file's copy, which the agent can edit), with the one thing the agent may
//! do about it: ask the person.

use serde_json::{Value, json};
use trail_core::state::status;

use crate::context::Ctx;
use crate::error::ToolError;

/// What the agent is told about a pending junction, in place of any way to decide it.
const ASK_THE_PERSON: &str = "Only the person decides a junction (/edge approve, dismiss or skip at their prompt): tell them what you want to run and why, and wait.";

pub fn gather(ctx: &Ctx) -> Result<Value, ToolError> {
    let st = status::gather(&ctx.store())?;
    let junction = match (&st.junction, &st.forged_junction) {
        (Some(j), _) => json!({
            "id": j.id,
            "kind": j.kind,
            "reason": j.reason,
            "command": j.command,
            "decide": ASK_THE_PERSON,
        }),
        (None, Some(why)) => {
            json!({ "ignored": format!("a pending junction trail did not record ({why})") })
        }
        (None, None) => Value::Null,
    };
    let plan: Vec<Value> = st
        .plan
        .iter()
        .map(|p| json!({ "step": p.description, "status": p.status }))
        .collect();
    let unused: Vec<&str> = st
        .unused_allowances()
        .map(|a| a.command.as_deref().unwrap_or("?"))
        .collect();
    let dismissed: Vec<Value> = st
        .dismissals
        .iter()
        .map(|d| json!({ "rule": d.rule, "until": d.expires_at }))
        .collect();
    let observed = st.observations.as_ref().map(|o| {
        json!({
            "tool_calls": o.total_tools(),
            "files_modified": o.files_modified,
            "tests_run": o.tests_run,
            "last_activity": o.last_activity,
        })
    });
    let mut out = json!({
        "project": ctx.project().name,
        "mode": st.mode.as_deref().unwrap_or("plan"),
        "objective": st.objective,
        "plan": plan,
        "junction": junction,
        "allowed_once": unused,
        "dismissed": dismissed,
        "observed": observed,
        "done_blockers": st.quality_gate,
    });
    if !st.problems.is_empty() {
        out["problems"] = st
            .problems
            .iter()
            .map(|p| Value::String(p.to_string()))
            .collect();
    }
    Ok(out)
}
