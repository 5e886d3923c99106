//! Active Context: what NOTES.md says the session is doing. One type for what is read (resume,
//! the re-anchor packet, fork detection) and what trail writes back ([`Active::fields`], through
//! [`super::continuity::set_active`]), one grammar for its lines ([`field`]).
//!
//! Two shapes are read, whatever their order in the file:
//! - the Lossless Ledger's (FR-10): `### Active Context` (under `## Session Continuity`, or on
//!   its own), with `- **Current Task**:`, `- **Current Bead**:`, `- **Last Checkpoint**:`,
//!   `- **Reasoning State**:`, `- **Next Action**:`;
//! - Loa's template: `## Current Focus` with `- **Active Task**:`, `- **Status**:`,
//!   `- **Blocked By**:`, `- **Next Action**:`, and `## Blockers` with `- [ ] …` items.
//!
//! Loa's level-1 recovery looked for its heading in the first 50 lines of a template that has
//! it at line 90; here the whole file is read. Placeholders (`[Task ID] - [Description]`,
//! `(none yet)`, `None`, `YYYY-…`) are not values. Lines inside a fenced block are text.

use serde::Serialize;

use super::markdown;

/// Active Context, as far as the file says it (reading), or as trail derives it from the
/// journals and the state file (writing).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Active {
    /// The task in flight, as a Current Task (or Loa's Active Task) line says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The bead in progress, as named: `bd-x7y8 (token refresh)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bead: Option<String>,
    /// The last checkpoint that passed (`2026-01-15T14:30:00Z`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_checkpoint: Option<String>,
    /// Where the reasoning stands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<String>,
    /// When the file was last written, when known.
    #[serde(skip)]
    pub written: Option<crate::time::Ts>,
}

impl Active {
    /// Whether the file says nothing (when it was written is not something it says).
    pub fn is_empty(&self) -> bool {
        Active {
            written: None,
            ..self.clone()
        } == Active::default()
    }

    /// The bead's id, when the Current Bead line starts with one (`bd-x7y8 (task)` → `bd-x7y8`).
    pub fn bead_id(&self) -> Option<String> {
        let first = self.bead.as_deref()?.split_whitespace().next()?;
        let id = first.trim_matches(['`', ',', ':']);
        (id.contains('-') && crate::beads::is_id(id)).then(|| id.to_string())
    }

    /// The `(field, value)` lines trail writes: the ones it owns and knows something of; a
    /// field it knows nothing of is left as the file has it. Last Checkpoint is always said.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let mut f = Vec::new();
        if let Some(t) = &self.task {
            f.push(("Current Task", t.clone()));
        }
        if let Some(b) = &self.bead {
            f.push(("Current Bead", b.clone()));
        }
        f.push((
            "Last Checkpoint",
            self.last_checkpoint
                .clone()
                .unwrap_or_else(|| "none yet".into()),
        ));
        if let Some(r) = &self.reasoning {
            f.push(("Reasoning State", r.clone()));
        }
        f
    }
}

/// Which part of the file a heading opens, for this reader.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    /// Active Context, or Loa's Current Focus: `- **Key**: value` lines.
    Context,
    /// Loa's Blockers (`## Blockers`, `## Blockers & Dependencies`): `- [ ] …` items.
    Blockers,
    Other,
}

impl Part {
    fn of(heading: &str) -> Part {
        let starts = |w: &str| super::continuity::starts_with_word(heading, w);
        if starts(super::continuity::ACTIVE) || starts("Current Focus") {
            Part::Context
        } else if starts("Blockers") {
            Part::Blockers
        } else {
            Part::Other
        }
    }
}

/// Read the Active Context of a NOTES.md.
pub fn read(text: &str) -> Active {
    let mut a = Active::default();
    let mut part = Part::Other;
    for l in markdown::lines(text) {
        if let Some((_, h)) = &l.heading {
            part = Part::of(h);
            continue;
        }
        if l.fenced || l.blank {
            continue;
        }
        let line = text[l.start..l.next].trim();
        // Loa's free-text focus, anywhere in the file: `Current focus: migrating billing`
        // (issue 21: only the bullet fields under a heading were read).
        if let Some(focus) = free_focus(line)
            && a.task.is_none()
        {
            a.task = Some(focus);
            continue;
        }
        match part {
            Part::Context => {
                if let Some((key, value)) = field(line)
                    && let Some(value) = real(value)
                {
                    a.set(key, value);
                }
            }
            Part::Blockers => {
                if let Some(item) = line
                    .strip_prefix("- [ ]")
                    .or_else(|| line.strip_prefix("* [ ]"))
                    && let Some(v) = real(item)
                {
                    a.blockers.push(v);
                }
            }
            Part::Other => {}
        }
    }
    a
}

impl Active {
    fn set(&mut self, key: &str, value: String) {
        match key.to_ascii_lowercase().as_str() {
            "current task" | "active task" | "task" => self.task = Some(value),
            "current bead" => self.bead = Some(value),
            "reasoning state" => self.reasoning = Some(value),
            "next action" | "next step" | "next" => self.next = Some(value),
            "blocked by" | "blockers" | "blocker" => self.blockers.push(value),
            "last checkpoint" => self.last_checkpoint = Some(value),
            _ => {}
        }
    }
}

/// An Active Context line, `- **Key**: value` (or `- **Key:** value`, or `- Key: value`): its key
/// and value, trimmed. What [`read`] reads and what `set_active` finds to rewrite.
pub fn field(line: &str) -> Option<(&str, &str)> {
    let rest = line
        .trim_start()
        .strip_prefix("- ")
        .or_else(|| line.trim_start().strip_prefix("* "))?;
    if let Some(bold) = rest.strip_prefix("**") {
        let (key, after) = bold.split_once("**")?;
        let key = key.trim_end_matches(':');
        let value = after.trim_start().strip_prefix(':').unwrap_or(after);
        return Some((key.trim(), value.trim()));
    }
    let (key, value) = rest.split_once(':')?;
    Some((key.trim(), value.trim()))
}

/// `Current focus: …` (or `**Current focus:** …`, `Focus: …`) as a line of its own.
fn free_focus(line: &str) -> Option<String> {
    let bare = line.trim_start_matches(['-', '*', ' ']).replace("**", "");
    let (key, value) = bare.split_once(':')?;
    let key = key.trim().to_ascii_lowercase();
    (key == "current focus" || key == "focus")
        .then(|| real(value))
        .flatten()
}

/// A value, unless it is a placeholder.
fn real(v: &str) -> Option<String> {
    let v = v.trim();
    let lower = v.to_ascii_lowercase();
    let placeholder = v.is_empty()
        || (v.starts_with('[') && !v.starts_with("[$"))
        || v.starts_with('(') && v.ends_with(')')
        || matches!(
            lower.as_str(),
            "none" | "none yet" | "n/a" | "-" | "tbd" | "not started"
        )
        || lower.starts_with("yyyy-")
        || lower.starts_with("[placeholder");
    (!placeholder).then(|| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by issue 21: Loa's NOTES.md often states its focus as one free-text line.
    #[test]
    fn a_free_text_current_focus_line_is_the_task() {
        let a = read("# Notes\n\nCurrent focus: migrating billing to the new API\n\n## Log\n");
        assert_eq!(a.task.as_deref(), Some("migrating billing to the new API"));
        let a = read("**Current Focus:** [Task ID]\n");
        assert_eq!(a.task, None, "a placeholder is not a focus");
    }

    #[test]
    fn the_prd_shape_and_loas_template_both_read_and_placeholders_do_not() {
        let prd = "## Session Continuity\n### Active Context\n- **Current Bead**: bd-x7y8 (token refresh)\n- **Last Checkpoint**: 2024-01-15T14:30:00Z\n- **Reasoning State**: rotation works; grace period next\n";
        let a = read(prd);
        assert_eq!(a.bead_id().as_deref(), Some("bd-x7y8"));
        assert_eq!(a.bead.as_deref(), Some("bd-x7y8 (token refresh)"));
        assert_eq!(a.task, None, "a bead is not a task line");
        assert_eq!(
            a.reasoning.as_deref(),
            Some("rotation works; grace period next")
        );
        assert_eq!(a.last_checkpoint.as_deref(), Some("2024-01-15T14:30:00Z"));
        // Loa's template: its Active Context is at line 90, and every value a placeholder.
        let template = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/loa/loa_.claude_templates_NOTES.md.template"),
        )
        .unwrap();
        assert!(read(&template).is_empty(), "{:?}", read(&template));
        let filled = template
            .replace(
                "[Task ID] - [Description]",
                "Sprint-2 Task 2.1 - wire the RPC",
            )
            .replace(
                "- **Blocked By**: None",
                "- **Blocked By**: WalletConnect id",
            )
            .replace("[Specific next step to take]", "read wagmiConfig")
            .replace("[Where we left off, what's next]", "transport half done");
        let a = read(&filled);
        assert_eq!(a.task.as_deref(), Some("Sprint-2 Task 2.1 - wire the RPC"));
        assert_eq!(a.blockers, ["WalletConnect id"]);
        assert_eq!(a.next.as_deref(), Some("read wagmiConfig"));
        assert_eq!(a.reasoning.as_deref(), Some("transport half done"));
    }

    #[test]
    fn what_trail_writes_reads_back_and_fenced_lines_are_text() {
        let written = Active {
            task: Some("ship — step 2/3: wire the hook".into()),
            bead: Some("bd-1 (hook)".into()),
            last_checkpoint: Some("2026-01-15T14:30:00Z".into()),
            reasoning: Some("half done".into()),
            ..Active::default()
        };
        let text = super::super::continuity::set_active(
            "# NOTES\n```\n### Active Context\n- **Current Task**: in a fence\n```\n",
            &written.fields(),
        );
        assert_eq!(read(&text), written, "{text}");
        // A fresh section says nothing yet.
        assert!(read(&super::super::template()).is_empty());
        assert_eq!(
            Active::default().fields(),
            [("Last Checkpoint", "none yet".to_string())]
        );
        for (line, want) in [
            ("- **Reasoning State**: x", Some(("Reasoning State", "x"))),
            ("* **Next:** y", Some(("Next", "y"))),
            ("- Task: z", Some(("Task", "z"))),
            ("plain text", None),
        ] {
            assert_eq!(field(line), want, "{line}");
        }
    }
}
