//! `trail demo`'s gate chapter: an agent session in a throwaway project, its tool calls passing
//! through the same gate and protocol the hooks use — a catastrophic command blocked, a push
//! stopped for a person, their approval used exactly once, observations captured at Stop.

use std::path::Path;

use trail_core::host::{Tool, ToolInput};
use trail_core::proof::{self, Entry};
use trail_core::secrets::Secrets;
use trail_core::state::grants::By;
use trail_core::state::protocol;
use trail_core::state::{Mode, Store};
use trail_core::time::Ts;
use trail_core::zones::Places;
use trail_guard::{Guard, Outcome};

use super::indent;
use crate::edge::{self, EdgeCmd};
use crate::error::CliResult;

/// What the PreToolUse hook would answer for a Bash call of `command`: the same question to
/// the same guard, in the hook's words.
fn ask(store: &Store, places: &Places, secrets: &Secrets, command: &str) -> String {
    let redact = |t: &str| secrets.redact_anyway(t, &mut |_| {}).into_owned();
    let mut guard = Guard::new(store, places.clone(), Vec::new(), &redact);
    // The demo project is not a git repository: nothing in it counts as ignored output.
    guard.ctx.ignored = |_, _| false;
    let input = ToolInput::Bash {
        command: Some(command.into()),
    };
    match guard.judge(&Tool::Bash, &input) {
        Outcome::Allow | Outcome::Warn(_) => "allowed: it runs".into(),
        Outcome::Granted { how, .. } => format!("allowed once, under {how} (now used up)"),
        Outcome::Block { rule, reason } => {
            format!("denied [{rule}]: {reason}. It will not run, whoever approves.")
        }
        Outcome::Pending(j) => crate::hook::pending_reason(&j),
        Outcome::Refuse(r) => format!("denied: {r}"),
        Outcome::Unrecorded { error, .. } => format!("denied: {error}"),
    }
}

fn ran(
    store: &Store,
    session: &str,
    tool: &Tool,
    input: &str,
    file: Option<&str>,
    ok: bool,
) -> CliResult {
    proof::append(
        store.project_root(),
        &Entry {
            timestamp: Ts::now().to_string(),
            tool: tool.name().into_owned(),
            input_preview: input.into(),
            output_preview: String::new(),
            success: ok,
            file_touched: file.map(String::from),
            diff_hash: None,
            error: None,
            duration_ms: None,
            session_id: Some(session.into()),
            tool_use_id: None,
        },
    )?;
    Ok(())
}

/// Runs the chapter in `project` (created), numbering steps from `first`; returns the next number.
pub fn gate_chapter(
    project: &Path,
    home: &Path,
    secrets: &Secrets,
    first: usize,
    say: &mut dyn FnMut(&str) -> CliResult,
) -> CliResult<usize> {
    std::fs::create_dir_all(project)?;
    let store = Store::new(project).with_secrets_dir(home.join(".secrets"));
    let places = Places {
        project_root: project.to_path_buf(),
        home: home.to_path_buf(),
        cwd: project.to_path_buf(),
        tmpdir: None,
        trail_home: None,
        secrets_dir: None,
    };
    let mut n = first;
    let session = "demo-session";
    let now = Ts::now();
    protocol::set_mode(
        &store,
        Mode::Active,
        Some("Fix the rounding bug in checkout totals"),
        now,
    )?;
    protocol::on_session_start(&store, Some(session), 0, now)?;
    say(&format!(
        "{n}. The gate: an agent session in {} (active mode, objective set). Every Bash call \
         passes the PreToolUse hook first.\n\n",
        project.display()
    ))?;
    n += 1;

    let cmd = "cd /tmp && sudo rm -rf ~";
    say(&format!(
        "{n}. The agent asks for `{cmd}`:\n{}\n",
        indent(&ask(&store, &places, secrets, cmd))
    ))?;
    n += 1;
    let cmd = "echo \"rm -rf /\" >> notes.txt";
    say(&format!(
        "{n}. Quoted text is data: `{cmd}`:\n{}\n",
        indent(&ask(&store, &places, secrets, cmd))
    ))?;
    n += 1;
    ran(
        &store,
        session,
        &Tool::Edit,
        "{\"file_path\":\"src/checkout/total.rs\"}",
        Some("src/checkout/total.rs"),
        true,
    )?;
    ran(
        &store,
        session,
        &Tool::Bash,
        "cargo test -p shop checkout",
        None,
        true,
    )?;

    let push = "git push origin main";
    say(&format!(
        "{n}. The agent asks for `{push}`: irreversible, so a person decides:\n{}\n",
        indent(&ask(&store, &places, secrets, push))
    ))?;
    n += 1;
    let said = edge::describe(&edge::run(&store, &EdgeCmd::Approve(None), By::Prompt)?);
    say(&format!(
        "{n}. The person types `/edge approve` (the prompt hook carries it out; the agent's own \
         `trail approve` is blocked by the gate):\n{}\n",
        indent(&said)
    ))?;
    n += 1;
    say(&format!(
        "{n}. The agent retries:\n{}   …and once more:\n{}\n",
        indent(&ask(&store, &places, secrets, push)),
        indent(&ask(&store, &places, secrets, push))
    ))?;
    n += 1;
    ran(&store, session, &Tool::Bash, push, None, true)?;
    protocol::skip(&store, None)?;

    let c = protocol::on_stop(&store, Ts::now())?;
    let status = trail_core::state::status::gather(&store)?;
    say(&format!(
        "{n}. The agent stops. Stop never blocks; in {} mode it captures what the hooks observed \
         (the proof log), which the quality gate later holds the plan's claims against. \
         `trail status`:\n{}\n",
        c.mode,
        indent(&edge::render(&status))
    ))?;
    Ok(n + 1)
}
