//! The protocol's commands, shared by the two human paths: `trail approve|dismiss|skip|mode|
//! status` in a terminal, and `/edge …` typed as a prompt (the UserPromptSubmit hook). Both end
//! in the same [`protocol`] call and the same words.

use serde::Serialize;
use trail_core::state::grants::By;
use trail_core::state::observe;
use trail_core::state::pending;
use trail_core::state::protocol::{self, Decided, Transition};
use trail_core::state::schema::{Junction, Observations};
use trail_core::state::{Mode, StateError, Store};
use trail_core::time::Ts;

/// One command of the protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EdgeCmd {
    Status,
    Mode(Mode, Option<String>),
    Approve(Option<String>),
    Dismiss(u64, Option<String>),
    Skip(Option<String>),
}

pub const USAGE: &str = "/edge [plan | active [\"objective\"] | review | done | approve [ID] | dismiss [MINUTES] | skip]";

/// Reads a prompt as an `/edge` command: `None` when the prompt is not one (it must begin with
/// `/edge`, as typed), `Some(Err(usage))` when it is one with bad arguments.
pub fn parse_prompt(prompt: &str) -> Option<Result<EdgeCmd, String>> {
    let t = prompt.trim();
    let rest = t.strip_prefix("/edge")?;
    if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
        return None;
    }
    let rest = rest.trim();
    let (verb, arg) = match rest.split_once(char::is_whitespace) {
        Some((v, a)) => (v, Some(a.trim()).filter(|a| !a.is_empty())),
        None => (rest, None),
    };
    let bad = |why: &str| Some(Err(format!("trail: {why}. Usage: {USAGE}")));
    let cmd = match verb {
        "" | "status" => EdgeCmd::Status,
        "approve" => EdgeCmd::Approve(arg.map(String::from)),
        "skip" => EdgeCmd::Skip(arg.map(String::from)),
        "dismiss" => match arg {
            None => EdgeCmd::Dismiss(protocol::DEFAULT_DISMISS_MINUTES, None),
            Some(a) => match a.parse::<u64>() {
                Ok(m) => EdgeCmd::Dismiss(m, None),
                Err(_) => return bad(&format!("`{a}` is not a number of minutes")),
            },
        },
        m => match Mode::parse(m) {
            Some(mode) => EdgeCmd::Mode(
                mode,
                arg.map(|a| a.trim_matches(|c| c == '"' || c == '\'').to_string()),
            ),
            None => return bad(&format!("`{m}` is not an /edge command")),
        },
    };
    Some(Ok(cmd))
}

/// What the person can do about a refusal, in the words of both human paths.
pub fn what_to_do(r: &trail_core::state::Refusal) -> Option<String> {
    use trail_core::state::Refusal as R;
    Some(match r {
        R::NothingPending => "`trail status` shows the state".into(),
        R::NotThePending { .. } => "look at it with `trail status` before deciding".into(),
        R::NotDismissable { .. } => {
            "approve it once (`/edge approve`, `trail approve`) or skip it (`/edge skip`)".into()
        }
        R::NeedsObjective => {
            "give one: `trail mode active \"what you are working toward\"` or `/edge active \"…\"`"
                .into()
        }
        R::PlanToDone => "go to active first (`trail mode active \"objective\"`)".into(),
        R::ForgedPending { .. } | R::DismissalLength { .. } => return None,
    })
}

/// What a command did.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Outcome {
    Status(Box<Status>),
    Decided(Decided),
    Transition(Transition),
}

pub fn run(store: &Store, cmd: &EdgeCmd, by: By) -> Result<Outcome, StateError> {
    let now = Ts::now();
    Ok(match cmd {
        EdgeCmd::Status => Outcome::Status(Box::new(Status::gather(store)?)),
        EdgeCmd::Approve(id) => Outcome::Decided(protocol::approve(store, by, id.as_deref(), now)?),
        EdgeCmd::Dismiss(min, id) => {
            Outcome::Decided(protocol::dismiss(store, by, *min, id.as_deref(), now)?)
        }
        EdgeCmd::Skip(id) => Outcome::Decided(protocol::skip(store, id.as_deref())?),
        EdgeCmd::Mode(m, objective) => {
            Outcome::Transition(protocol::set_mode(store, *m, objective.as_deref(), now)?)
        }
    })
}

fn what(j: &Junction) -> String {
    j.command.clone().unwrap_or_else(|| j.reason.clone())
}

/// The outcome in words, for a person and for the agent.
pub fn describe(o: &Outcome) -> String {
    match o {
        Outcome::Status(s) => s.render(),
        Outcome::Decided(d) => match d.decision {
            "approve" => format!(
                "Approved junction {} [{}]: `{}` may run once. The allowance is used up when it runs; a retry after that asks again.",
                d.junction.id,
                d.junction.rule.as_deref().unwrap_or("gate"),
                what(&d.junction)
            ),
            "dismiss" => format!(
                "Dismissed junction {}: [{}] actions run without asking until {}.",
                d.junction.id,
                d.junction.rule.as_deref().unwrap_or("gate"),
                d.until.as_deref().unwrap_or("?")
            ),
            _ => format!(
                "Skipped junction {}: `{}` was not approved; find another way.",
                d.junction.id,
                what(&d.junction)
            ),
        },
        Outcome::Transition(t) => {
            let mut s = if t.changed {
                format!("Mode: {} → {}.", t.from, t.to)
            } else {
                format!(
                    "Mode stays {}: the quality gate failed: {}. Junction {} is pending: fix what it says, or approve it to finish anyway.",
                    t.from,
                    t.issues.join("; "),
                    t.junction.as_ref().map(|j| j.id.as_str()).unwrap_or("?")
                )
            };
            for w in &t.warnings {
                s.push_str(&format!("\nwarning: {w}"));
            }
            s
        }
    }
}

/// Everything `trail status` shows.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// The project the state file belongs to (worktrees of one repository are one).
    pub project: trail_core::project::Named,
    pub path: String,
    pub exists: bool,
    pub mode: Option<String>,
    pub objective: Option<String>,
    pub plan: Vec<PlanLine>,
    pub current_step: Option<serde_json::Value>,
    pub junction: Option<Junction>,
    pub allowances: Vec<trail_core::state::schema::Allowance>,
    pub dismissals: Vec<trail_core::state::schema::Dismissal>,
    pub observations: Option<Observations>,
    pub quality_gate: Vec<String>,
    pub edited_elsewhere: bool,
    pub problems: Vec<String>,
    /// A pending-junction record trail did not write (ignored; never decided on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forged_junction: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PlanLine {
    pub description: String,
    pub status: String,
}

impl Status {
    /// What trail knows: the pending junction from trail's own signed record (never the state
    /// file's copy, which the agent can edit), the rest from the state file.
    pub fn gather(store: &Store) -> Result<Status, StateError> {
        let l = store.load()?;
        let s = &l.state;
        let (junction, forged_junction) = match protocol::pending_found(store)? {
            pending::Found::Valid(p) => (Some(p.view()), None),
            pending::Found::Forged(why) => (None, Some(why)),
            pending::Found::None => (None, None),
        };
        Ok(Status {
            project: trail_core::project::Project::discover(store.project_root()).named(),
            forged_junction,
            path: store.path().display().to_string(),
            exists: l.exists,
            mode: s.mode.clone().or(Some("plan".into())),
            objective: s.objective.clone(),
            plan: s
                .plan
                .iter()
                .map(|p| PlanLine {
                    description: p.description.clone(),
                    status: p.status.clone().unwrap_or_else(|| "pending".into()),
                })
                .collect(),
            current_step: s.current_step.clone(),
            junction,
            allowances: s.allowances.clone(),
            dismissals: s.dismissals.clone(),
            observations: s.observations.clone(),
            quality_gate: observe::quality_gate(s),
            edited_elsewhere: l.exists && l.edited_elsewhere,
            problems: l.problems.clone(),
        })
    }

    pub fn render(&self) -> String {
        let mut out = String::new();
        let push = |out: &mut String, s: String| {
            out.push_str(&s);
            out.push('\n');
        };
        if !self.exists {
            push(
                &mut out,
                format!("no state file yet ({}): mode plan", self.path),
            );
        }
        push(
            &mut out,
            format!("mode:      {}", self.mode.as_deref().unwrap_or("plan")),
        );
        push(
            &mut out,
            format!(
                "objective: {}",
                self.objective.as_deref().unwrap_or("(none)")
            ),
        );
        if !self.plan.is_empty() {
            let done = self.plan.iter().filter(|p| p.status == "completed").count();
            push(
                &mut out,
                format!("plan:      {done}/{} completed", self.plan.len()),
            );
            for (i, p) in self.plan.iter().enumerate() {
                let mark = match p.status.as_str() {
                    "completed" => "x",
                    "in_progress" => ">",
                    "blocked" => "!",
                    _ => " ",
                };
                push(&mut out, format!("  [{mark}] {}. {}", i + 1, p.description));
            }
        }
        match &self.junction {
            Some(j) => push(
                &mut out,
                format!(
                    "junction:  {} [{}] {} — {}\n           decide: /edge approve | /edge dismiss [MIN] | /edge skip (or trail approve|dismiss|skip)",
                    j.id,
                    j.kind,
                    j.command.as_deref().unwrap_or(""),
                    j.reason
                ),
            ),
            None => push(&mut out, "junction:  none pending".into()),
        }
        if let Some(why) = &self.forged_junction {
            push(
                &mut out,
                format!("warning:   a pending junction trail did not record was ignored ({why})"),
            );
        }
        let open: Vec<_> = self
            .allowances
            .iter()
            .filter(|a| a.consumed == Some(false))
            .collect();
        push(
            &mut out,
            format!(
                "allowed:   {} unused one-time allowance(s){}",
                open.len(),
                open.iter()
                    .filter_map(|a| a.command.as_deref())
                    .map(|c| format!("\n           `{c}`"))
                    .collect::<String>()
            ),
        );
        for d in &self.dismissals {
            push(
                &mut out,
                format!(
                    "dismissed: [{}] until {}",
                    d.rule.as_deref().unwrap_or("?"),
                    d.expires_at.as_deref().unwrap_or("?")
                ),
            );
        }
        if let Some(o) = &self.observations {
            push(
                &mut out,
                format!(
                    "observed:  {} tool calls, {} file(s) modified, tests run: {}{}",
                    o.total_tools(),
                    o.files_modified.len(),
                    if o.tests_run { "yes" } else { "no" },
                    o.last_activity
                        .as_deref()
                        .map(|t| format!(", last at {t}"))
                        .unwrap_or_default()
                ),
            );
        }
        if self
            .mode
            .as_deref()
            .is_some_and(|m| m == "active" || m == "review")
        {
            if self.quality_gate.is_empty() {
                push(&mut out, "done?:     the quality gate would pass".into());
            } else {
                push(
                    &mut out,
                    format!("done?:     not yet: {}", self.quality_gate.join("; ")),
                );
            }
        }
        if self.edited_elsewhere {
            push(&mut out, "note:      the file was edited outside trail since trail last wrote it (accepted: it is valid)".into());
        }
        for p in &self.problems {
            push(&mut out, format!("problem:   {p}"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_are_read_as_commands_only_when_they_begin_with_edge() {
        assert_eq!(parse_prompt("/edge"), Some(Ok(EdgeCmd::Status)));
        assert_eq!(
            parse_prompt("  /edge approve "),
            Some(Ok(EdgeCmd::Approve(None)))
        );
        assert_eq!(
            parse_prompt("/edge approve j-12"),
            Some(Ok(EdgeCmd::Approve(Some("j-12".into()))))
        );
        assert_eq!(
            parse_prompt("/edge dismiss 120"),
            Some(Ok(EdgeCmd::Dismiss(120, None)))
        );
        assert_eq!(
            parse_prompt("/edge dismiss"),
            Some(Ok(EdgeCmd::Dismiss(60, None)))
        );
        assert_eq!(
            parse_prompt("/edge active \"ship the gate\""),
            Some(Ok(EdgeCmd::Mode(
                Mode::Active,
                Some("ship the gate".into())
            )))
        );
        assert!(matches!(parse_prompt("/edge dismiss soon"), Some(Err(_))));
        assert!(matches!(parse_prompt("/edge frobnicate"), Some(Err(_))));
        assert_eq!(parse_prompt("please /edge approve"), None);
        assert_eq!(parse_prompt("/edgeapprove"), None);
        assert_eq!(parse_prompt("approve it"), None);
    }
}
