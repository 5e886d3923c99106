//! Tiered recovery (Lossless Ledger FR-3): what the agent gets back after `/clear`, in three
//! sizes.
//!
//! ```text
//! level 1   ≤ 100 tokens   objective, current step, next step, blockers, the last three
//!                          decisions as identifiers; then the rehydrated threads as fit
//! level 2   ≤ 500 tokens   level 1, the decisions retrieved for a query (else the next most
//!                          recent), the current bead as `br`/`bd show` prints it, the threads
//! level 3   everything     every decision read with its facts, the whole bead, every thread
//! ```
//!
//! Sources, each read only and each read by its own module: `active_context.yaml` (objective,
//! the plan's steps), NOTES.md's Active Context ([`crate::notes::active`]: Loa's template too),
//! decision records ([`crate::decision::recent`]), the rehydrated threads
//! (`ledger::rehydrate`), and beads ([`crate::beads`]) when the project uses it. Token counts
//! are [`crate::tokens`]'s estimate, which the tests hold above the real o200k count.

use serde::Serialize;

use crate::beads::Shown;
use crate::decided::pulse::Carried as Decision;
use crate::ledger::rehydrate::{Level, Thread};
use crate::notes::Active;
use crate::state::State;
use crate::time::Ts;
use crate::tokens::estimate;

/// What level 1 says before the threads.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Brief {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_step: Option<String>,
    /// Whether the current step is the plan's (the state file's step in flight), not NOTES.md's
    /// reasoning or a pulse's intent.
    #[serde(skip)]
    pub step_is_planned: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_step: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<String>,
    /// The last three decisions, newest first, as identifiers (`[id] title`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<String>,
}

impl Brief {
    pub fn is_empty(&self) -> bool {
        *self == Brief::default()
    }
}

/// Level 1's decisions.
pub const LAST_DECISIONS: usize = 3;

/// The newest pulse of the project that says where the work stands: its thread's intent and
/// first next step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Latest {
    pub ts: Ts,
    pub topic: String,
    pub now: Option<String>,
    pub next: Option<String>,
}

/// The newest of `project`'s threads that names a next step or an intent.
pub fn latest(threads: &[Thread], project: &str) -> Option<Latest> {
    threads
        .iter()
        .filter(|t| t.proj == project)
        .filter_map(|t| {
            let ts = Ts::parse_loose(&t.last_ts).ok()?;
            let now = t
                .intent
                .as_ref()
                .map(|i| one(&i.summary))
                .filter(|s| !s.is_empty());
            let next = t.next.first().map(|n| one(n));
            (now.is_some() || next.is_some()).then(|| Latest {
                ts,
                topic: t.topic.clone(),
                now,
                next,
            })
        })
        .max_by_key(|l| l.ts)
}

/// The brief from the state file, NOTES.md, the newest pulse and the decisions (newest first).
/// The state file wins where both speak: it is trail's record of the plan; NOTES.md is the
/// agent's. Between NOTES.md and the newest pulse, the one written later says what is now and
/// next (found by issue 21: with a busy NOTES.md, level 1 carried a decision as "now" and no
/// next step at all, though twenty pulses each named one).
pub fn brief(
    state: Option<&State>,
    notes: &Active,
    latest: Option<&Latest>,
    decisions: &[Decision],
) -> Brief {
    let mut b = Brief::default();
    if let Some(s) = state {
        if s.has_objective() {
            b.objective = s.objective.as_deref().map(one);
        }
        let total = s.plan.len();
        let current = s.step_in_flight();
        if let Some(i) = current {
            b.current_step = Some(format!("{}/{total} {}", i + 1, one(&s.plan[i].description)));
            b.step_is_planned = true;
        }
        let after = current.map_or(0, |i| i + 1);
        if let Some((i, p)) = s
            .plan
            .iter()
            .enumerate()
            .skip(after)
            .find(|(_, p)| p.status.is_none() || p.status_is("pending"))
        {
            b.next_step = Some(format!("{}/{total} {}", i + 1, one(&p.description)));
        }
        b.blockers.extend(
            s.plan
                .iter()
                .filter(|p| p.status_is("blocked"))
                .map(|p| one(&p.description)),
        );
    }
    if b.objective.is_none() {
        b.objective = notes.task.clone().or_else(|| notes.bead.clone());
    }
    let pulse_newer = latest.is_some_and(|l| notes.written.is_none_or(|w| l.ts >= w));
    // The thread's topic is said once, on the first of the two lines.
    let topic = |l: &Latest, s: &str| match l.topic.as_str() {
        "" => s.to_string(),
        t => format!("{s} ({t})"),
    };
    let now = latest.and_then(|l| l.now.as_ref().map(|s| topic(l, s)));
    let next = latest.and_then(|l| {
        l.next.as_ref().map(|s| match &l.now {
            Some(_) => s.clone(),
            None => topic(l, s),
        })
    });
    if b.current_step.is_none() {
        b.current_step = if pulse_newer {
            now.clone().or_else(|| notes.reasoning.clone())
        } else {
            notes.reasoning.clone().or_else(|| now.clone())
        };
    }
    if b.next_step.is_none() {
        b.next_step = if pulse_newer {
            next.clone().or_else(|| notes.next.clone())
        } else {
            notes.next.clone().or_else(|| next.clone())
        };
    }
    for x in &notes.blockers {
        if !b.blockers.contains(x) {
            b.blockers.push(x.clone());
        }
    }
    b.decisions = decisions
        .iter()
        .take(LAST_DECISIONS)
        .map(|d| d.identifier(60))
        .collect();
    b
}

fn one(s: &str) -> String {
    crate::text::one_line(s, 400)
}

/// The brief's lines, most important first.
fn brief_lines(b: &Brief) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(o) = &b.objective {
        out.push(format!("objective: {o}"));
    }
    if let Some(c) = &b.current_step {
        out.push(format!("now: {c}"));
    }
    if let Some(n) = &b.next_step {
        out.push(format!("next: {n}"));
    }
    if !b.blockers.is_empty() {
        out.push(format!("blocked: {}", b.blockers.join("; ")));
    }
    if !b.decisions.is_empty() {
        out.push(format!("decisions: {}", b.decisions.join("; ")));
    }
    out
}

/// The decisions that answer `query`, best first: those matching more of its terms (a word
/// at a word start, any case), then the newer. Without a query, none.
pub fn retrieve<'a>(decisions: &'a [Decision], query: &str, limit: usize) -> Vec<&'a Decision> {
    let Ok(q) = crate::search::Query::lexical(query) else {
        return Vec::new();
    };
    let mut scored: Vec<(usize, usize, &Decision)> = decisions
        .iter()
        .enumerate()
        .filter_map(|(age, d)| {
            let text = d.text();
            let hits = q
                .matchers()
                .iter()
                .filter(|m| m.is_match(text.as_bytes()))
                .count();
            (hits > 0).then_some((hits, age, d))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().take(limit).map(|(_, _, d)| d).collect()
}

/// Everything a level is rendered from.
pub struct Parts<'a> {
    pub brief: &'a Brief,
    /// Decisions beyond the brief's (retrieved for a query, or the next most recent).
    pub more: &'a [&'a Decision],
    /// The query they answer, if any.
    pub query: Option<&'a str>,
    pub bead: Option<&'a Shown>,
    /// The rehydrated threads, rendered at the level.
    pub threads: &'a str,
}

/// The text of `level`, within its budget (level 3 has none).
pub fn render(level: Level, p: &Parts<'_>) -> String {
    let mut head = brief_lines(p.brief);
    if level != Level::Brief {
        if !p.more.is_empty() {
            head.push(match p.query {
                Some(q) => format!("decisions for \"{}\":", crate::text::one_line(q, 60)),
                None => "earlier decisions:".into(),
            });
            for d in p.more {
                let mut line = format!("- {}", d.identifier(120));
                let facts = d.facts();
                if level == Level::Full {
                    for f in &facts {
                        line.push_str(&format!("\n  {f}"));
                    }
                } else if let Some(f) = facts.first() {
                    line.push_str(&format!(": {}", crate::text::one_line(f, 160)));
                }
                head.push(line);
            }
        }
        if let Some(b) = p.bead {
            let text = if level == Level::Full {
                b.text.clone()
            } else {
                crate::text::clip(&b.text, 600)
            };
            head.push(format!("bead {} (`{} show`):\n{text}", b.id, b.program));
        }
    }
    match level.budget() {
        None => {
            let mut s = lines(&head);
            s.push_str(p.threads);
            s
        }
        Some(budget) => fit(head, p.threads, budget),
    }
}

/// Each line of `lines`, each ended by a newline.
fn lines(lines: &[String]) -> String {
    let mut s = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s
}

/// The room kept for the line that says what was left out.
const NOTE: &str = "… more: trail resume --level 3";

/// `head` (shortened where it must be) and then as many of `tail`'s lines as fit `budget`.
fn fit(mut head: Vec<String>, tail: &str, budget: usize) -> String {
    let room = budget.saturating_sub(estimate(NOTE) + 1);
    let join = lines;
    // The head must fit: shorten its longest line until it does (never below a few words).
    while estimate(&join(&head)) > room {
        let Some((i, _)) = head
            .iter()
            .enumerate()
            .filter(|(_, l)| l.chars().count() > 24)
            .max_by_key(|(_, l)| estimate(l))
        else {
            head.pop();
            continue;
        };
        let chars = head[i].chars().count();
        head[i] = crate::text::clip(&head[i], chars * 4 / 5);
    }
    let mut lines = head;
    let mut left_out = false;
    for l in tail.lines() {
        lines.push(l.to_string());
        if estimate(&join(&lines)) > room {
            lines.pop();
            left_out = true;
            break;
        }
    }
    // A thread's heading without a line of it says nothing.
    if left_out && lines.last().is_some_and(|l| l.starts_with("## ")) {
        lines.pop();
    }
    let mut s = join(&lines);
    if left_out {
        s.push_str(NOTE);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests;
