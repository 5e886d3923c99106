//! Rehydration scoped to one project: its own threads first, at the level asked, and every other
//! project in one line (or not at all). The stream holds all projects; a session in project A
//! must not be handed B's next steps as if they were its own.
//!
//! A thread is the current project's when its `proj` is the project's name and no tag places it
//! in another repository of that name ([`crate::project`]). Other projects keep their most
//! recently active thread, as one line.

use super::rehydrate::{self, Level, RehydrateOptions, State, StopReason, Thread};
use super::{Ledger, Result};
use crate::project::Project;

/// The longest line another project gets.
const OTHER_LINE_CHARS: usize = 160;

/// The rebuilt state, split by project.
#[derive(Clone, Debug)]
pub struct Scoped {
    /// The project's own threads (and its parked tangents).
    pub own: State,
    /// Every thread, unscoped (what `--json` shows).
    pub all: State,
    name: String,
}

impl Ledger {
    /// Rehydrate, then the project's own threads again with records of same-named repositories
    /// left out. The second pass runs only when the first found a thread by the project's name,
    /// so a resume outside any known project costs what it did.
    pub fn rehydrate_scoped(&self, project: &Project, opts: &RehydrateOptions) -> Result<Scoped> {
        let all = self.rehydrate(opts)?;
        let named = |p: &str| p == project.name;
        let own = if all.threads.iter().any(|t| named(&t.proj))
            || all
                .parked
                .iter()
                .any(|p| p.focus.iter().any(|f| named(&f.proj)))
        {
            self.rehydrate(&RehydrateOptions {
                proj: Some(project.name.clone()),
                project_id: Some(project.id.clone()),
                ..opts.clone()
            })?
        } else {
            empty(&all)
        };
        Ok(Scoped {
            own,
            all,
            name: project.name.clone(),
        })
    }
}

fn empty(like: &State) -> State {
    State {
        threads: Vec::new(),
        parked: Vec::new(),
        records_read: like.records_read,
        skipped_damaged: like.skipped_damaged,
        stopped: StopReason::Start,
        latest_ts: like.latest_ts.clone(),
    }
}

impl Scoped {
    /// Whether the project has threads (or parked tangents) of its own.
    pub fn has_own(&self) -> bool {
        !self.own.threads.is_empty() || !self.own.parked.is_empty()
    }

    /// Other projects' threads, most recently active first.
    fn other_threads(&self) -> impl Iterator<Item = &Thread> {
        self.all.threads.iter().filter(|t| t.proj != self.name)
    }

    /// The most recently active thread of each other project.
    pub fn others(&self) -> Vec<&Thread> {
        let mut out: Vec<&Thread> = Vec::new();
        for t in self.other_threads() {
            if !out.iter().any(|o| o.proj == t.proj) {
                out.push(t);
            }
        }
        out
    }

    /// The project's threads at `level`, then up to `others` other projects one line each; at
    /// [`Level::Full`] (everything) the other threads in full instead. Empty when there is
    /// nothing to say.
    pub fn render(&self, level: Level, others: usize) -> String {
        let mut out = String::new();
        if self.has_own() {
            out.push_str(&rehydrate::render(&self.own, level));
        }
        if level == Level::Full {
            let rest = State {
                threads: self.other_threads().cloned().collect(),
                parked: self
                    .all
                    .parked
                    .iter()
                    .filter(|p| !self.own.parked.contains(p))
                    .cloned()
                    .collect(),
                ..empty(&self.all)
            };
            if !rest.threads.is_empty() || !rest.parked.is_empty() {
                out.push_str(&rehydrate::render(&rest, level));
            }
            return out;
        }
        let all = self.others();
        if others == 0 || all.is_empty() {
            return out;
        }
        if !self.has_own() {
            out.push_str(&format!(
                "## {}: no pulses of this project yet\n",
                self.name
            ));
        }
        out.push_str("## other projects (one line each; `trail resume --proj NAME` for more)\n");
        for t in all.iter().take(others) {
            out.push_str("- ");
            out.push_str(&one_line(t));
            out.push('\n');
        }
        if all.len() > others {
            out.push_str(&format!("- … and {} more\n", all.len() - others));
        }
        out
    }
}

/// A thread in one line: where, whether blocked, its intent and its first next step.
pub fn one_line(t: &Thread) -> String {
    let mut s = if t.topic.is_empty() {
        t.proj.clone()
    } else {
        format!("{} / {}", t.proj, t.topic)
    };
    if t.proj.is_empty() {
        s = "(no focus)".into();
    }
    s.push(':');
    if t.status.as_ref().is_some_and(|st| st.blocked) {
        s.push_str(" [BLOCKED]");
    }
    if let Some(i) = &t.intent {
        s.push(' ');
        s.push_str(&i.primary);
        if !i.summary.is_empty() {
            s.push_str(" — ");
            s.push_str(&i.summary);
        }
        s.push(';');
    }
    if let Some(n) = t.next.first() {
        s.push_str(" next: ");
        s.push_str(n);
    }
    crate::text::one_line(s.trim_end_matches(';'), OTHER_LINE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Intent, Status};

    fn thread(proj: &str, next: &str) -> Thread {
        Thread {
            proj: proj.into(),
            topic: String::new(),
            last_ts: String::new(),
            intent: Some(Intent {
                primary: "continue".into(),
                summary: "fix\nrounding".into(),
            }),
            status: Some(Status {
                confidence: None,
                blocked: true,
            }),
            next: vec![next.into(), "later".into()],
            deferred: vec!["d".into()],
            model_shifts: Vec::new(),
            facts: vec!["f".into()],
            files: vec!["a.rs".into()],
        }
    }

    #[test]
    fn another_project_takes_one_line() {
        let t = thread("shop", "add the test");
        assert_eq!(
            one_line(&t),
            "shop: [BLOCKED] continue — fix rounding; next: add the test"
        );
        let long = thread("shop", &"x".repeat(400));
        let l = one_line(&long);
        assert!(!l.contains('\n') && l.chars().count() <= OTHER_LINE_CHARS + 1);
    }

    #[test]
    fn the_project_comes_first_and_the_rest_in_a_line_each() {
        let all = State {
            threads: vec![
                thread("b", "b's step"),
                thread("a", "a's step"),
                thread("b", "b's older"),
                thread("c", "c's step"),
            ],
            parked: Vec::new(),
            records_read: 4,
            skipped_damaged: 0,
            stopped: StopReason::Start,
            latest_ts: None,
        };
        let own = State {
            threads: vec![thread("a", "a's step")],
            ..all.clone()
        };
        let s = Scoped {
            own,
            all,
            name: "a".into(),
        };
        let text = s.render(Level::Brief, 10);
        assert!(text.starts_with("## a [BLOCKED]\n"), "{text}");
        assert!(text.contains("next: a's step"), "{text}");
        let b: Vec<&str> = text.lines().filter(|l| l.contains("b's")).collect();
        assert_eq!(
            b,
            ["- b: [BLOCKED] continue — fix rounding; next: b's step"]
        );
        assert!(text.contains("- c:"), "{text}");
        let one = s.render(Level::Brief, 1);
        assert!(
            one.contains("- … and 1 more") && !one.contains("- c:"),
            "{one}"
        );
        let none = s.render(Level::Standard, 0);
        assert!(
            !none.contains("b's") && !none.contains("other projects"),
            "{none}"
        );
        let full = s.render(Level::Full, 0);
        assert!(full.contains("b's older") && full.find("## a") < full.find("## b"));
    }
}
