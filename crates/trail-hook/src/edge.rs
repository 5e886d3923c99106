//! The protocol's commands, shared by the two human paths: `trail approve|dismiss|skip|mode|
//! status` in a terminal, and `/edge …` typed as a prompt (the UserPromptSubmit hook). Both end
//! in the same [`protocol`] call and the same words.
//!
//! `/edge checkpoint`, `/edge decide …` and `/edge show ID` are the person's shortcuts to ask
//! the agent for that work ([`Ask`]): trail carries out nothing for them, it tells the agent
//! what to run. The checkpoint journals the agent's reasoning state and a decision needs its
//! words and evidence, which only the agent has.

use std::fmt;

use serde::Serialize;
use trail_core::state::grants::By;
use trail_core::state::protocol::{self, Decided, Transition};
use trail_core::state::schema::{Junction, Problem};
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

/// What the person asks the agent to do through `/edge`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    Checkpoint,
    Decide,
    Show,
}

impl Ask {
    /// What the agent is told to run (the identifier or the decision is in the prompt itself,
    /// which the agent reads: it is not repeated here).
    pub fn instructions(&self) -> &'static str {
        match self {
            Ask::Checkpoint => {
                "trail: `/edge checkpoint` asks for the checkpoint before /clear. Run `trail \
                 checkpoint --reasoning \"where your reasoning stands\"` and tell the user its \
                 verdict and each step that did not pass, with its remedy; when it says \
                 blocked, do the remedies and run it again before /clear."
            }
            Ask::Decide => {
                "trail: `/edge decide` asks you to record the decision this prompt describes \
                 (or the one just made). Run ``trail decide --title T --decision D --rationale \
                 R --evidence '`quote` [${PROJECT_ROOT}/path:LINE]' --test \"happy: …\" --test \
                 \"edge: …\" --test \"error: …\"``, each quote copied from the lines it cites, \
                 and tell the user which citations verify."
            }
            Ask::Show => {
                "trail: `/edge show` asks for the lines of the identifier in this prompt. Run \
                 `trail show '${PROJECT_ROOT}/path:START-END'` with it (`--full-section` for \
                 the whole function) and show the user what it prints."
            }
        }
    }
}

/// An `/edge` prompt: a command of the protocol, or a request to the agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EdgePrompt {
    Cmd(EdgeCmd),
    Ask(Ask),
}

pub const USAGE: &str = "/edge [plan | active [\"objective\"] | review | done | approve [ID] | dismiss [MINUTES] | skip | checkpoint | decide [WHAT] | show ID]";

/// Reads a prompt as an `/edge` command: `None` when the prompt is not one (it must begin with
/// `/edge`, as typed), `Some(Err(usage))` when it is one with bad arguments.
pub fn parse_prompt(prompt: &str) -> Option<Result<EdgePrompt, String>> {
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
    let ask = match verb {
        "checkpoint" => Some(Ask::Checkpoint),
        "decide" => Some(Ask::Decide),
        "show" if arg.is_none() => {
            return bad("`show` needs an identifier, such as '${PROJECT_ROOT}/src/a.rs:45-67'");
        }
        "show" => Some(Ask::Show),
        _ => None,
    };
    if let Some(a) = ask {
        return Some(Ok(EdgePrompt::Ask(a)));
    }
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
    Some(Ok(EdgePrompt::Cmd(cmd)))
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
        EdgeCmd::Status => Outcome::Status(Box::new(trail_core::state::status::gather(store)?)),
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
        Outcome::Status(s) => render(s),
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
                    t.junction.as_ref().map_or("?", |j| j.id.as_str())
                )
            };
            for w in &t.warnings {
                s.push_str(&format!("\nwarning: {w}"));
            }
            if !t.proof_missing.is_empty() {
                s.push_str(&format!(
                    "\nReview asks for proof. Still missing before done: {}.",
                    t.proof_missing.join("; ")
                ));
            }
            s
        }
    }
}

pub use trail_core::state::status::Status;

/// A status as `trail status` and `/edge status` show it.
pub struct Shown<'a>(pub &'a Status);

/// The status as `trail status` and `/edge status` show it.
pub fn render(s: &Status) -> String {
    Shown(s).to_string()
}

impl Shown<'_> {
    fn write_mode(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.0.exists {
            writeln!(f, "no state file yet ({}): mode plan", self.0.path)?;
        }
        writeln!(f, "mode:      {}", self.0.mode.as_deref().unwrap_or("plan"))?;
        writeln!(
            f,
            "objective: {}",
            self.0.objective.as_deref().unwrap_or("(none)")
        )
    }

    fn write_plan(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.plan.is_empty() {
            return Ok(());
        }
        let done = self
            .0
            .plan
            .iter()
            .filter(|p| p.status == "completed")
            .count();
        writeln!(f, "plan:      {done}/{} completed", self.0.plan.len())?;
        for (i, p) in self.0.plan.iter().enumerate() {
            let mark = match p.status.as_str() {
                "completed" => "x",
                "in_progress" => ">",
                "blocked" => "!",
                _ => " ",
            };
            writeln!(f, "  [{mark}] {}. {}", i + 1, p.description)?;
        }
        Ok(())
    }

    fn write_junction(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.junction {
            Some(j) => writeln!(
                f,
                "junction:  {} [{}] {} — {}\n           decide: /edge approve | /edge dismiss [MIN] | /edge skip (or trail approve|dismiss|skip)",
                j.id,
                j.kind,
                j.command.as_deref().unwrap_or(""),
                j.reason
            )?,
            None => writeln!(f, "junction:  none pending")?,
        }
        if let Some(why) = &self.0.forged_junction {
            writeln!(
                f,
                "warning:   a pending junction trail did not record was ignored ({why})"
            )?;
        }
        Ok(())
    }

    /// The unused one-time allowances, then the dismissals in force.
    fn write_allowed(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let open: Vec<_> = self.0.unused_allowances().collect();
        write!(f, "allowed:   {} unused one-time allowance(s)", open.len())?;
        for c in open.iter().filter_map(|a| a.command.as_deref()) {
            write!(f, "\n           `{c}`")?;
        }
        writeln!(f)?;
        for d in &self.0.dismissals {
            writeln!(
                f,
                "dismissed: [{}] until {}",
                d.rule.as_deref().unwrap_or("?"),
                d.expires_at.as_deref().unwrap_or("?")
            )?;
        }
        Ok(())
    }

    fn write_observed(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(o) = &self.0.observations else {
            return Ok(());
        };
        write!(
            f,
            "observed:  {} tool calls, {} file(s) modified, tests run: {}",
            o.total_tools(),
            o.files_modified.len(),
            if o.tests_run { "yes" } else { "no" },
        )?;
        if let Some(t) = &o.last_activity {
            write!(f, ", last at {t}")?;
        }
        writeln!(f)
    }

    /// What this session received from trail: tokens in total and in the current window, per
    /// event, and what the cap held back.
    fn write_context(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(c) = &self.0.context else {
            return writeln!(f, "context:   nothing injected yet");
        };
        let t = &c.tally;
        write!(
            f,
            "context:   ~{} tokens given to session {} in {} injection(s)",
            t.tokens, t.session, t.injections
        )?;
        if t.window_tokens != t.tokens {
            write!(f, ", ~{} since the last compaction", t.window_tokens)?;
        }
        if let Some(cap) = c.cap {
            write!(f, " (cap {cap} per window)")?;
        }
        writeln!(f)?;
        let parts: Vec<String> = t
            .by_event
            .iter()
            .map(|(e, n)| format!("{e} ~{} ({})", n.tokens, n.injections))
            .collect();
        if !parts.is_empty() {
            writeln!(f, "           {}", parts.join(", "))?;
        }
        if t.withheld_injections > 0 {
            writeln!(
                f,
                "           held back by the cap: {} injection(s), ~{} tokens",
                t.withheld_injections, t.withheld_tokens
            )?;
        }
        Ok(())
    }

    /// Whether `done` would pass the quality gate: asked only where `done` is the next step.
    fn write_done(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self
            .0
            .mode
            .as_deref()
            .is_some_and(|m| m == "active" || m == "review")
        {
            return Ok(());
        }
        if self.0.quality_gate.is_empty() {
            writeln!(f, "done?:     the quality gate would pass")
        } else {
            writeln!(f, "done?:     not yet: {}", self.0.quality_gate.join("; "))
        }
    }

    fn write_problems(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.edited_elsewhere {
            writeln!(
                f,
                "note:      the file was edited outside trail since trail last wrote it (accepted: it is valid)"
            )?;
        }
        for p in &self.0.problems {
            writeln!(f, "problem:   {}", state_problem(p))?;
        }
        Ok(())
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_mode(f)?;
        self.write_plan(f)?;
        self.write_junction(f)?;
        self.write_allowed(f)?;
        self.write_observed(f)?;
        self.write_context(f)?;
        self.write_done(f)?;
        self.write_problems(f)
    }
}

/// A problem of the state file as a person reads it: a bad mode says how to set one.
pub fn state_problem(p: &Problem) -> String {
    match p {
        Problem::Mode(_) => format!("{p} (set one with `trail mode MODE`)"),
        _ => p.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use trail_core::state::schema::{Allowance, Dismissal, Observations};
    use trail_core::state::status::{ContextUse, PlanLine};

    fn bare() -> Status {
        Status {
            project: trail_core::project::Named {
                name: "p".into(),
                id: "000000000000".into(),
            },
            path: "/p/active_context.yaml".into(),
            exists: false,
            mode: None,
            objective: None,
            plan: Vec::new(),
            current_step: None,
            junction: None,
            allowances: Vec::new(),
            dismissals: Vec::new(),
            observations: None,
            quality_gate: Vec::new(),
            edited_elsewhere: false,
            problems: Vec::new(),
            forged_junction: None,
            context: None,
        }
    }

    #[test]
    fn a_status_without_a_state_file_says_so_and_shows_plan_mode() {
        assert_eq!(
            render(&bare()),
            "no state file yet (/p/active_context.yaml): mode plan\n\
             mode:      plan\n\
             objective: (none)\n\
             junction:  none pending\n\
             allowed:   0 unused one-time allowance(s)\n\
             context:   nothing injected yet\n"
        );
    }

    #[test]
    #[expect(
        clippy::too_many_lines,
        reason = "one status with every part, read top to bottom"
    )]
    fn a_full_status_shows_every_part_in_order() {
        let line = |d: &str, st: &str| PlanLine {
            description: d.into(),
            status: st.into(),
        };
        let status = Status {
            exists: true,
            mode: Some("active".into()),
            objective: Some("ship it".into()),
            plan: vec![
                line("write", "completed"),
                line("test", "in_progress"),
                line("wait", "blocked"),
                line("ship", "pending"),
            ],
            junction: Some(Junction {
                id: "j-1".into(),
                kind: "irreversible".into(),
                reason: "pushes".into(),
                command: Some("git push".into()),
                ..Junction::default()
            }),
            forged_junction: Some("bad signature".into()),
            allowances: vec![
                Allowance {
                    consumed: Some(false),
                    command: Some("rm -rf build".into()),
                    ..Allowance::default()
                },
                Allowance {
                    consumed: Some(true),
                    command: Some("used".into()),
                    ..Allowance::default()
                },
                Allowance {
                    consumed: Some(false),
                    ..Allowance::default()
                },
            ],
            dismissals: vec![Dismissal {
                rule: Some("git-push".into()),
                expires_at: Some("2026-11-25T11:00:00Z".into()),
                ..Dismissal::default()
            }],
            observations: Some(Observations {
                files_modified: vec!["a.rs".into()],
                tools_used: serde_json::json!({"Bash": 2, "Edit": 1})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
                tests_run: true,
                last_activity: Some("2026-11-25T10:00:00Z".into()),
                ..Observations::default()
            }),
            quality_gate: vec!["tests not run".into(), "plan open".into()],
            edited_elsewhere: true,
            problems: vec![Problem::Mode("complete".into())],
            context: Some(ContextUse {
                tally: trail_core::injected::Tally {
                    session: "s-1".into(),
                    tokens: 2600,
                    window_tokens: 600,
                    injections: 3,
                    withheld_injections: 1,
                    withheld_tokens: 900,
                    by_event: [
                        ("SessionStart".to_string(), (2, 2550)),
                        ("UserPromptSubmit".to_string(), (1, 50)),
                    ]
                    .into_iter()
                    .map(|(e, (n, t))| {
                        (
                            e,
                            trail_core::injected::EventTally {
                                injections: n,
                                tokens: t,
                                withheld: 0,
                            },
                        )
                    })
                    .collect(),
                    last_at: None,
                },
                cap: Some(20000),
            }),
            ..bare()
        };
        assert_eq!(
            render(&status),
            "mode:      active\n\
             objective: ship it\n\
             plan:      1/4 completed\n  \
               [x] 1. write\n  \
               [>] 2. test\n  \
               [!] 3. wait\n  \
               [ ] 4. ship\n\
             junction:  j-1 [irreversible] git push — pushes\n           \
             decide: /edge approve | /edge dismiss [MIN] | /edge skip (or trail approve|dismiss|skip)\n\
             warning:   a pending junction trail did not record was ignored (bad signature)\n\
             allowed:   2 unused one-time allowance(s)\n           `rm -rf build`\n\
             dismissed: [git-push] until 2026-11-25T11:00:00Z\n\
             observed:  3 tool calls, 1 file(s) modified, tests run: yes, last at 2026-11-25T10:00:00Z\n\
             context:   ~2600 tokens given to session s-1 in 3 injection(s), ~600 since the last compaction (cap 20000 per window)\n           \
             SessionStart ~2550 (2), UserPromptSubmit ~50 (1)\n           \
             held back by the cap: 1 injection(s), ~900 tokens\n\
             done?:     not yet: tests not run; plan open\n\
             note:      the file was edited outside trail since trail last wrote it (accepted: it is valid)\n\
             problem:   mode `complete` is not one of plan, active, review, done (set one with \
             `trail mode MODE`)\n"
        );
    }

    #[test]
    fn prompts_are_read_as_commands_only_when_they_begin_with_edge() {
        assert_eq!(
            parse_prompt("/edge"),
            Some(Ok(EdgePrompt::Cmd(EdgeCmd::Status)))
        );
        assert_eq!(
            parse_prompt("  /edge approve "),
            Some(Ok(EdgePrompt::Cmd(EdgeCmd::Approve(None))))
        );
        assert_eq!(
            parse_prompt("/edge approve j-12"),
            Some(Ok(EdgePrompt::Cmd(EdgeCmd::Approve(Some("j-12".into())))))
        );
        assert_eq!(
            parse_prompt("/edge dismiss 120"),
            Some(Ok(EdgePrompt::Cmd(EdgeCmd::Dismiss(120, None))))
        );
        assert_eq!(
            parse_prompt("/edge dismiss"),
            Some(Ok(EdgePrompt::Cmd(EdgeCmd::Dismiss(60, None))))
        );
        assert_eq!(
            parse_prompt("/edge active \"ship the gate\""),
            Some(Ok(EdgePrompt::Cmd(EdgeCmd::Mode(
                Mode::Active,
                Some("ship the gate".into())
            ))))
        );
        assert!(matches!(parse_prompt("/edge dismiss soon"), Some(Err(_))));
        assert!(matches!(parse_prompt("/edge frobnicate"), Some(Err(_))));
        assert_eq!(parse_prompt("please /edge approve"), None);
        assert_eq!(parse_prompt("/edgeapprove"), None);
        assert_eq!(parse_prompt("approve it"), None);
    }

    #[test]
    fn checkpoint_decide_and_show_are_requests_to_the_agent_not_decisions() {
        let ask = |p: &str| match parse_prompt(p) {
            Some(Ok(EdgePrompt::Ask(a))) => a,
            other => panic!("{p}: {other:?}"),
        };
        assert_eq!(ask("/edge checkpoint"), Ask::Checkpoint);
        assert_eq!(ask("/edge decide use rustls, not openssl"), Ask::Decide);
        assert_eq!(ask("/edge decide"), Ask::Decide);
        assert_eq!(ask("/edge show '${PROJECT_ROOT}/src/a.rs:4-9'"), Ask::Show);
        let Some(Err(usage)) = parse_prompt("/edge show") else {
            panic!("show without an identifier")
        };
        assert!(usage.contains("needs an identifier"), "{usage}");
        for a in [Ask::Checkpoint, Ask::Decide, Ask::Show] {
            let words = a.instructions();
            assert!(
                words.contains("trail ") && !words.contains("approve"),
                "{words}"
            );
        }
    }
}
