//! What NOTES.md says the session was doing: read only, from either shape in use.
//!
//! - the Lossless Ledger's (FR-10): `### Active Context` under `## Session Continuity`, with
//!   `- **Current Bead**:` / `- **Current Task**:`, `- **Last Checkpoint**:`,
//!   `- **Reasoning State**:`;
//! - Loa's template: `## Current Focus` with `- **Active Task**:`, `- **Status**:`,
//!   `- **Blocked By**:`, `- **Next Action**:`, and `## Blockers` with `- [ ] …` items.
//!
//! Loa's level-1 recovery looked for its heading in the first 50 lines of a template that has it
//! at line 90; here the whole file is read, whatever the order. Placeholders (`[Task ID] -
//! [Description]`, `(none yet)`, `None`, `YYYY-…`) are not values.

use serde::Serialize;

/// The Active Context, as far as the file says it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Active {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bead: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blockers: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_checkpoint: Option<String>,
}

impl Active {
    pub fn is_empty(&self) -> bool {
        *self == Active::default()
    }
}

/// Read the Active Context of a NOTES.md.
pub fn active(text: &str) -> Active {
    let mut a = Active::default();
    let mut section = String::new();
    let mut fence = false;
    for raw in text.lines() {
        let line = raw.trim();
        if line.starts_with("```") || line.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        if let Some(h) = heading(line) {
            section = h.to_ascii_lowercase();
            continue;
        }
        let in_context =
            section.starts_with("active context") || section.starts_with("current focus");
        if in_context && let Some((key, value)) = field(line) {
            let Some(value) = real(value) else { continue };
            match key.to_ascii_lowercase().as_str() {
                "current task" | "active task" | "task" => a.task = Some(value),
                "current bead" => {
                    a.bead = bead_id(&value);
                    a.task.get_or_insert(value);
                }
                "reasoning state" => a.reasoning = Some(value),
                "next action" | "next step" | "next" => a.next = Some(value),
                "blocked by" | "blockers" | "blocker" => a.blockers.push(value),
                "last checkpoint" => a.last_checkpoint = Some(value),
                _ => {}
            }
            continue;
        }
        if section.starts_with("blockers")
            && let Some(item) = line
                .strip_prefix("- [ ]")
                .or_else(|| line.strip_prefix("* [ ]"))
            && let Some(v) = real(item)
        {
            a.blockers.push(v);
        }
    }
    a
}

fn heading(line: &str) -> Option<&str> {
    let n = line.bytes().take_while(|&b| b == b'#').count();
    (n > 0 && line[n..].starts_with(' ')).then(|| line[n..].trim())
}

/// `- **Key**: value` (or `- Key: value`).
fn field(line: &str) -> Option<(&str, &str)> {
    let rest = line
        .strip_prefix("- ")
        .or_else(|| line.strip_prefix("* "))?;
    if let Some(bold) = rest.strip_prefix("**") {
        let (key, after) = bold.split_once("**")?;
        let key = key.trim_end_matches(':');
        let value = after.trim_start().strip_prefix(':').unwrap_or(after);
        return Some((key.trim(), value.trim()));
    }
    let (key, value) = rest.split_once(':')?;
    Some((key.trim(), value.trim()))
}

/// A value, unless it is a placeholder.
fn real(v: &str) -> Option<String> {
    let v = v.trim();
    let lower = v.to_ascii_lowercase();
    let placeholder = v.is_empty()
        || (v.starts_with('[') && !v.starts_with("[$"))
        || v.starts_with('(') && v.ends_with(')')
        || matches!(lower.as_str(), "none" | "n/a" | "-" | "tbd" | "not started")
        || lower.starts_with("yyyy-")
        || lower.starts_with("[placeholder");
    (!placeholder).then(|| v.to_string())
}

/// The bead id at the start of a Current Bead value (`bd-x7y8 (task)` → `bd-x7y8`).
fn bead_id(v: &str) -> Option<String> {
    let id = v.split_whitespace().next()?.trim_matches(['`', ',', ':']);
    let ok = id.contains('-')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.');
    ok.then(|| id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prd_shape_and_loas_template_both_read_and_placeholders_do_not() {
        let prd = "## Session Continuity\n### Active Context\n- **Current Bead**: bd-x7y8 (token refresh)\n- **Last Checkpoint**: 2024-01-15T14:30:00Z\n- **Reasoning State**: rotation works; grace period next\n";
        let a = active(prd);
        assert_eq!(a.bead.as_deref(), Some("bd-x7y8"));
        assert_eq!(a.task.as_deref(), Some("bd-x7y8 (token refresh)"));
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
        assert!(active(&template).is_empty(), "{:?}", active(&template));
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
        let a = active(&filled);
        assert_eq!(a.task.as_deref(), Some("Sprint-2 Task 2.1 - wire the RPC"));
        assert_eq!(a.blockers, ["WalletConnect id"]);
        assert_eq!(a.next.as_deref(), Some("read wagmiConfig"));
        assert_eq!(a.reasoning.as_deref(), Some("transport half done"));
    }
}
