//! `trail status`, `trail mode`, `trail approve|dismiss|skip`: the protocol from a terminal.
//! The words and the effects are the `/edge` commands' ([`trail_hook::edge`]).

use trail_core::config::Config;
use trail_core::state::grants::By;
use trail_core::state::{Mode, Store, pending, protocol};

use crate::error::{CliError, CliResult};
use crate::output;
use trail_hook::edge::{self, EdgeCmd, Outcome};

fn store(config: &Config) -> Store {
    Store::new(config.project_root.value.clone()).with_secrets_dir(config.secrets_dir.value.clone())
}

/// Decisions and mode changes made in a terminal go to the pulse stream, as those made by
/// prompt do (LedgerPulse §8: a pulse on every decision).
fn record(config: &Config, o: &Outcome) {
    let (text, tag) = match o {
        Outcome::Decided(_) => (
            format!("decision by the user: {}", edge::describe(o)),
            "decision",
        ),
        Outcome::Transition(t) if t.changed => (edge::describe(o), "mode"),
        _ => return,
    };
    let ledger = config.ledger();
    let project = trail_core::project::Project::discover(&config.project_root.value);
    let r = trail_core::ledger::record::observed_record(
        &project,
        trail_core::ledger::record::RecordType::Checkpoint,
        &[text],
        &[],
        &[tag],
    );
    if let Err(e) = ledger.append(r) {
        eprintln!("trail: could not record this in the pulse stream: {e}");
    }
}

fn show(config: &Config, o: &Outcome, json: bool) -> CliResult {
    record(config, o);
    if json {
        return output::json(o);
    }
    output::text(&format!("{}\n", edge::describe(o)))
}

pub fn status(json: bool) -> CliResult {
    let config = Config::load()?;
    let mut s = trail_core::state::status::gather(&store(&config))?;
    if let Some(c) = &mut s.context {
        c.cap = Some(u64::from(config.context_cap_tokens.value)).filter(|&n| n > 0);
    }
    let sync = sync_status(&config);
    if json {
        let mut v = serde_json::to_value(&s).unwrap_or_default();
        if let serde_json::Value::Object(m) = &mut v {
            // Worded as the text shows them, with how to fix them.
            let problems: Vec<String> = s.problems.iter().map(edge::state_problem).collect();
            m.insert("problems".into(), problems.into());
            m.insert(
                "sync".into(),
                serde_json::to_value(&sync).unwrap_or_default(),
            );
        }
        return output::json(&v);
    }
    output::text(&format!("{}{}", edge::render(&s), sync.render()))
}

/// This machine's id and key, and how its last sync went (`trail sync`).
#[derive(serde::Serialize)]
struct SyncStatus {
    machine: Option<String>,
    fingerprint: Option<String>,
    remote: Option<String>,
    last: Option<trail_sync::Report>,
    /// This project opted out (`.trail/no-sync`): its records stay on this machine.
    project_kept_here: bool,
}

fn sync_status(config: &Config) -> SyncStatus {
    let ledger = config.ledger();
    let places = trail_sync::Places::of(&ledger);
    let fingerprint = trail_sync::key::MachineKey::load(&places.secrets_dir)
        .ok()
        .flatten()
        .map(|k| trail_sync::key::fingerprint(&k.public()));
    SyncStatus {
        machine: ledger.known_machine_id(),
        fingerprint,
        remote: trail_sync::remote(&places),
        last: trail_sync::last(&places),
        project_kept_here: ledger.options().local_only,
    }
}

impl SyncStatus {
    fn render(&self) -> String {
        let kept = if self.project_kept_here {
            "project:   kept on this machine (.trail/no-sync): sync never sends its records\n"
        } else {
            ""
        };
        let Some(remote) = &self.remote else {
            return match &self.machine {
                Some(id) => {
                    format!("machine:   {id} (not syncing: trail sync --remote URL)\n{kept}")
                }
                None => kept.to_string(),
            };
        };
        let mut s = format!(
            "machine:   {} {}\nsync:      {remote}",
            self.machine.as_deref().unwrap_or("(none yet)"),
            self.fingerprint.as_deref().unwrap_or(""),
        );
        match &self.last {
            None => s.push_str(", never synced yet\n"),
            Some(r) if r.ok() => s.push_str(&format!(
                ", last synced {} (seq {})\n",
                r.at,
                r.seq.unwrap_or(0)
            )),
            Some(r) => {
                s.push_str(&format!(", last sync {} FAILED\n", r.at));
                if let Some(e) = &r.offline {
                    s.push_str(&format!(
                        "  offline: {e} (it is tried again after the next session)\n"
                    ));
                }
                for f in &r.findings {
                    s.push_str(&format!("  machine {}: {}\n", f.machine, f.detail));
                }
            }
        }
        s.push_str(kept);
        s
    }
}

pub fn mode(mode: &str, objective: Option<String>, json: bool) -> CliResult {
    let Some(m) = Mode::parse(mode) else {
        return Err(CliError::usage(format!(
            "`{mode}` is not a mode: use plan, active, review or done"
        )));
    };
    let config = Config::load()?;
    let o = edge::run(&store(&config), &EdgeCmd::Mode(m, objective), By::Terminal)?;
    show(&config, &o, json)?;
    match &o {
        // The quality gate said no: the junction is pending, and that is a failed check.
        Outcome::Transition(t) if !t.changed => Err(CliError::CheckFailed),
        _ => Ok(()),
    }
}

pub fn decide(cmd: EdgeCmd, json: bool) -> CliResult {
    let config = Config::load()?;
    let store = store(&config);
    if matches!(cmd, EdgeCmd::Approve(_) | EdgeCmd::Dismiss(..)) {
        confirmed_by_a_person(&store, &cmd)?;
    }
    let o = edge::run(&store, &cmd, By::Terminal)?;
    show(&config, &o, json)
}

/// A grant from a terminal needs a person at it, who sees the junction as trail recorded it and
/// types back the end of its id.
fn confirmed_by_a_person(store: &Store, cmd: &EdgeCmd) -> CliResult {
    crate::person::require_terminal(crate::person::AT_YOUR_TERMINAL_OR_EDGE)
        .map_err(CliError::usage)?;
    let pending::Found::Valid(p) = protocol::pending_found(store)? else {
        // Nothing (valid) to decide: the protocol says so in its own words.
        return Ok(());
    };
    let j = p.view();
    let verb = match cmd {
        EdgeCmd::Approve(_) => "Approve",
        _ => "Dismiss",
    };
    let what = format!(
        "{verb} junction {} [{}]?\n  action: {}\n  why:    {}{}",
        j.id,
        j.rule.as_deref().unwrap_or("gate"),
        p.subject.action,
        p.subject.reason,
        if p.subject.scope.is_empty() {
            String::new()
        } else {
            format!("\n  target: {}", p.subject.scope)
        }
    );
    let code = &j.id[j.id.len().saturating_sub(4)..];
    crate::person::confirm_id(&what, &j.id, code).map_err(CliError::usage)
}
