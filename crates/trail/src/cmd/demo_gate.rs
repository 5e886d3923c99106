//! `trail demo`'s gate chapter: an agent session in a throwaway project, its tool calls passing
//! through the same gate and protocol the hooks use — a catastrophic command blocked, a push
//! stopped for a person, their approval used exactly once, observations captured at Stop.

use std::path::Path;

use trail_core::gate::{self, Places, Verdict};
use trail_core::proof::{self, Entry};
use trail_core::state::grants::{By, Subject, kind_of_rule};
use trail_core::state::protocol::{self, Met};
use trail_core::state::{Mode, Store};
use trail_core::time::Ts;

use crate::edge::{self, EdgeCmd};
use crate::error::CliResult;

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

/// What the PreToolUse hook would answer for `command`.
fn ask(store: &Store, places: &Places, command: &str) -> String {
    let ctx = gate::Context {
        places: places.clone(),
        // The demo project is not a git repository: nothing in it counts as ignored output.
        ignored: |_, _| false,
        extra: Vec::new(),
    };
    let d = gate::evaluate(command, &ctx);
    let rule = d.rule.clone().unwrap_or_default();
    match d.verdict {
        Verdict::Allow => "allowed: it runs".into(),
        Verdict::Block => format!(
            "denied [{rule}]: {}. It will not run, whoever approves.",
            d.reason
        ),
        Verdict::Junction => {
            let subject = Subject {
                kind: kind_of_rule(&rule),
                reason: d.reason.clone(),
                rule,
                tool: "Bash".into(),
                action: command.into(),
            };
            match protocol::meet(store, &subject, Ts::now()) {
                Ok(Met::Allowed { allowance }) => {
                    format!("allowed once, under the person's approval {allowance} (now used up)")
                }
                Ok(Met::Dismissed { until }) => format!("allowed: dismissed until {until}"),
                Ok(Met::Pending { junction }) => crate::hook::pending_reason(&junction),
                Err(e) => format!("denied: {e}"),
            }
        }
    }
}

fn ran(
    store: &Store,
    session: &str,
    tool: &str,
    input: &str,
    file: Option<&str>,
    ok: bool,
) -> CliResult {
    proof::append(
        store.project_root(),
        &Entry {
            timestamp: Ts::now().to_string(),
            tool: tool.into(),
            input_preview: input.into(),
            output_preview: String::new(),
            success: ok,
            file_touched: file.map(String::from),
            diff_hash: None,
            error: None,
            duration_ms: None,
            session_id: Some(session.into()),
        },
    )?;
    Ok(())
}

/// Runs the chapter in `project` (created), numbering steps from `first`; returns the next number.
pub fn gate_chapter(
    project: &Path,
    home: &Path,
    first: usize,
    say: &mut dyn FnMut(&str) -> CliResult,
) -> CliResult<usize> {
    std::fs::create_dir_all(project)?;
    let store = Store::new(project);
    let places = Places {
        project_root: project.to_path_buf(),
        home: home.to_path_buf(),
        cwd: project.to_path_buf(),
        tmpdir: None,
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
        indent(&ask(&store, &places, cmd))
    ))?;
    n += 1;
    let cmd = "echo \"rm -rf /\" >> notes.txt";
    say(&format!(
        "{n}. Quoted text is data: `{cmd}`:\n{}\n",
        indent(&ask(&store, &places, cmd))
    ))?;
    n += 1;
    ran(
        &store,
        session,
        "Edit",
        "{\"file_path\":\"src/checkout/total.rs\"}",
        Some("src/checkout/total.rs"),
        true,
    )?;
    ran(
        &store,
        session,
        "Bash",
        "cargo test -p shop checkout",
        None,
        true,
    )?;

    let push = "git push origin main";
    say(&format!(
        "{n}. The agent asks for `{push}`: irreversible, so a person decides:\n{}\n",
        indent(&ask(&store, &places, push))
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
        indent(&ask(&store, &places, push)),
        indent(&ask(&store, &places, push))
    ))?;
    n += 1;
    ran(&store, session, "Bash", push, None, true)?;
    protocol::skip(&store, None)?;

    let c = protocol::on_stop(&store, Ts::now())?;
    let status = edge::Status::gather(&store)?;
    say(&format!(
        "{n}. The agent stops. Stop never blocks; in {} mode it captures what the hooks observed \
         (the proof log), which the quality gate later holds the plan's claims against. \
         `trail status`:\n{}\n",
        c.mode,
        indent(&status.render())
    ))?;
    Ok(n + 1)
}
