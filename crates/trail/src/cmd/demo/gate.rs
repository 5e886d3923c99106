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
use trail_core::timeline::{self, Line, Seen};
use trail_core::zones::Places;
use trail_guard::{Guard, Outcome};

use super::indent;
use crate::error::CliResult;
use trail_hook::edge::{self, EdgeCmd};

/// Where the chapter records what the hooks would: the pulse stream (a stopped call, a run
/// under a person's approval, tagged with the session) and the project's timeline (the
/// session's start, its prompts, its context fill), so that the report chapter reads what a
/// real session leaves.
pub struct Recorder<'a> {
    pub ledger: &'a trail_core::ledger::Ledger,
    pub session: &'a str,
}

impl Recorder<'_> {
    fn pulse(&self, store: &Store, fact: String, tags: &[String]) -> CliResult {
        let project = trail_core::project::Project::discover(store.project_root());
        let mut tags: Vec<&str> = tags.iter().map(String::as_str).collect();
        let session = format!("{}{}", trail_core::timeline::SESSION_TAG, self.session);
        tags.push(&session);
        let r = trail_core::ledger::record::observed_record(
            &project,
            trail_core::ledger::record::RecordType::Checkpoint,
            &[fact],
            &[],
            &tags,
        );
        self.ledger.append(r)?;
        Ok(())
    }

    fn seen(&self, store: &Store, secrets: &Secrets, seen: Vec<Seen>) -> CliResult {
        let lines: Vec<Line> = seen
            .into_iter()
            .map(|seen| Line {
                at: Ts::now(),
                session: self.session.to_string(),
                seen,
            })
            .collect();
        timeline::append(store.project_root(), &lines, secrets)
            .map_err(|e| crate::error::CliError::failed(e.to_string()))
    }
}

/// The context window's size after an answer, as the prompt hook measures it.
fn fill(context: u64) -> Seen {
    Seen::Fill {
        context,
        window: Some(200_000),
    }
}

/// What the PreToolUse hook would answer for a Bash call of `command`: the same question to
/// the same guard, in the hook's words, and the same record of a stopped call.
fn ask(
    store: &Store,
    places: &Places,
    secrets: &Secrets,
    rec: &Recorder<'_>,
    command: &str,
) -> CliResult<String> {
    let redact = |t: &str| secrets.redact_anyway(t, &mut |_| {}).into_owned();
    let mut guard = Guard::new(store, places.clone(), Vec::new(), &redact);
    // The demo project is not a git repository: nothing in it counts as ignored output.
    guard.ctx.ignored = |_, _| false;
    let input = ToolInput::Bash {
        command: Some(command.into()),
    };
    let outcome = guard.judge(&Tool::Bash, &input);
    if let Some(stopped) = outcome.stopped(&Tool::Bash, &input, &redact) {
        rec.pulse(store, stopped.fact, &stopped.tags)?;
    }
    Ok(match outcome {
        Outcome::Allow | Outcome::Warn(_) => "allowed: it runs".into(),
        Outcome::Granted { how, action, .. } => {
            rec.pulse(
                store,
                format!("ran under {how}: {action}"),
                &["decision".into(), "irreversible".into()],
            )?;
            format!("allowed once, under {how} (now used up)")
        }
        Outcome::Block { rule, reason } => {
            format!("denied [{rule}]: {reason}. It will not run, whoever approves.")
        }
        Outcome::Pending(j) => trail_hook::pending_reason(&j),
        Outcome::Refuse(r) => format!("denied: {r}"),
        Outcome::Unrecorded { error, .. } => format!("denied: {error}"),
    })
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
            wrote: std::collections::BTreeMap::new(),
        },
    )?;
    Ok(())
}

/// The session starts in active mode, its objective set, as SessionStart and the first prompt
/// leave it.
fn start_session(store: &Store, secrets: &Secrets, rec: &Recorder<'_>) -> CliResult {
    let now = Ts::now();
    protocol::set_mode(
        store,
        Mode::Active,
        Some("Fix the rounding bug in checkout totals"),
        now,
    )?;
    protocol::on_session_start(store, Some(rec.session), 0, now)?;
    rec.seen(
        store,
        secrets,
        vec![
            Seen::Start {
                source: "startup".into(),
            },
            Seen::prompt("Fix the rounding bug in checkout totals, then push it"),
            fill(18_400),
        ],
    )
}

/// Runs the chapter in `project` (created), numbering steps from `first`; returns the next number.
pub fn gate_chapter(
    project: &Path,
    home: &Path,
    secrets: &Secrets,
    ledger: &trail_core::ledger::Ledger,
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
    let rec = Recorder { ledger, session };
    start_session(&store, secrets, &rec)?;
    say(&format!(
        "{n}. The gate: an agent session in {} (active mode, objective set). Every Bash call \
         passes the PreToolUse hook first.\n\n",
        project.display()
    ))?;
    n += 1;

    let cmd = "cd /tmp && sudo rm -rf ~";
    say(&format!(
        "{n}. The agent asks for `{cmd}`:\n{}\n",
        indent(&ask(&store, &places, secrets, &rec, cmd)?)
    ))?;
    n += 1;
    let cmd = "echo \"rm -rf /\" >> notes.txt";
    say(&format!(
        "{n}. Quoted text is data: `{cmd}`:\n{}\n",
        indent(&ask(&store, &places, secrets, &rec, cmd)?)
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
    // The first run fails on the rounding case; the fix makes the second pass.
    for ok in [false, true] {
        ran(
            &store,
            session,
            &Tool::Bash,
            "cargo test -p shop checkout",
            None,
            ok,
        )?;
    }

    let push = "git push origin main";
    say(&format!(
        "{n}. The agent asks for `{push}`: irreversible, so a person decides:\n{}\n",
        indent(&ask(&store, &places, secrets, &rec, push)?)
    ))?;
    n += 1;
    rec.seen(
        &store,
        secrets,
        vec![fill(31_200), Seen::prompt("/edge approve"), fill(33_900)],
    )?;
    let said = edge::describe(&edge::run(&store, &EdgeCmd::Approve(None), By::Prompt)?);
    say(&format!(
        "{n}. The person types `/edge approve` (the prompt hook carries it out; the agent's own \
         `trail approve` is blocked by the gate):\n{}\n",
        indent(&said)
    ))?;
    n += 1;
    say(&format!(
        "{n}. The agent retries:\n{}   …and once more:\n{}\n",
        indent(&ask(&store, &places, secrets, &rec, push)?),
        indent(&ask(&store, &places, secrets, &rec, push)?)
    ))?;
    n += 1;
    ran(&store, session, &Tool::Bash, push, None, true)?;
    rec.seen(&store, secrets, vec![fill(36_100)])?;
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
