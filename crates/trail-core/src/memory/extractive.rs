//! The `extractive` provider: no model. Every entry of the current MEMORY.md is kept, and what
//! the daily files hold as knowledge is merged in: the notes recorded with `trail remember`
//! (facts, decisions, conventions), deduplicated, each copied verbatim with its source line.
//! What a session asked, the files it changed and the commands it ran are a log of the day,
//! not knowledge: they stay in daily memory (`trail recall` finds them) and out of core memory,
//! which is given to every session at its start (issue 21: an offline dream promoted "Asked"
//! prompts and "`pytest` — ok" there).
//! Its answer has the same `[MEMORY]` / `[DREAM]` shape as a model's and goes through the same
//! verifier: offline dreams are checked like any other.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::core::{self, Entry};
use crate::llm::{LlmError, Provider, Request};

/// New entries a dream adds per heading, newest kept: core memory is a digest, not a copy of
/// every command ever run. What is left out stays in daily memory (and `trail recall`).
pub const MAX_NEW_PER_HEADING: usize = 20;

/// Headings in the order they are added, and the daily subsections they collect: only notes.
const KINDS: &[(&str, &str)] = &[("Remembered", "Notes")];

pub struct Extractive;

/// The key for deduplication.
fn key(text: &str) -> String {
    core::normalize(text)
}

/// Merge `days` into `memory` (both as [`Request`] gives them).
pub fn consolidate(memory: &str, days: &[(String, String)]) -> (String, String) {
    let mut merged = core::parse(memory);
    let mut seen = keys(&merged);
    let mut tally = Tally::default();
    let new = new_entries(days, &mut seen, &mut tally);
    add_newest(&mut merged, new, &mut tally);
    let dream = account(days, merged.len() - tally.added, &tally);
    (core::render(&merged), dream)
}

/// What a consolidation did, for its account.
#[derive(Default, Clone, Copy)]
struct Tally {
    added: usize,
    /// Bullets skipped because core memory or an earlier day already had them.
    repeats: usize,
    /// New entries past [`MAX_NEW_PER_HEADING`], left in daily memory.
    held_back: usize,
}

/// The deduplication keys of what core memory already holds.
fn keys(merged: &core::Core) -> HashSet<String> {
    merged
        .sections
        .iter()
        .flat_map(|s| s.entries.iter().map(|e| key(&e.text)))
        .collect()
}

/// Per heading of [`KINDS`], the daily bullets not `seen` yet, oldest first, each with its
/// source line.
fn new_entries(
    days: &[(String, String)],
    seen: &mut HashSet<String>,
    tally: &mut Tally,
) -> Vec<Vec<Entry>> {
    let mut new: Vec<Vec<Entry>> = vec![Vec::new(); KINDS.len()];
    for (name, text) in days {
        let mut kind: Option<usize> = None;
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if let Some(h) = t.strip_prefix("### ") {
                kind = KINDS.iter().position(|(k, _)| *k == h.trim());
                continue;
            }
            if let Some(h) = t.strip_prefix("## ") {
                // `## Remembered (HH:MM)` holds notes directly; session blocks hold subsections.
                kind = h.starts_with("Remembered").then_some(0);
                continue;
            }
            let (Some(k), Some(b)) = (kind, t.strip_prefix("- ")) else {
                continue;
            };
            let (text, _) = core::split_src(b);
            if !is_fact(&text) {
                continue;
            }
            if !seen.insert(key(&text)) {
                tally.repeats += 1;
                continue;
            }
            new[k].push(Entry {
                text,
                src: Some(format!("{name}#L{}", i + 1)),
            });
        }
    }
    new
}

/// The host's own markers are not facts, nor is a bullet without a content word (`- ok`): the
/// verifier could not check it. Nor is one too long for core memory.
fn is_fact(text: &str) -> bool {
    !(text.starts_with("[Request interrupted")
        || super::verify::content_words(text).is_empty()
        || text.chars().count() > core::MAX_BULLET_CHARS)
}

/// Adds the newest [`MAX_NEW_PER_HEADING`] new entries of each heading under it.
fn add_newest(merged: &mut core::Core, new: Vec<Vec<Entry>>, tally: &mut Tally) {
    for (k, mut entries) in new.into_iter().enumerate() {
        if entries.len() > MAX_NEW_PER_HEADING {
            tally.held_back += entries.len() - MAX_NEW_PER_HEADING;
            entries.drain(..entries.len() - MAX_NEW_PER_HEADING);
        }
        tally.added += entries.len();
        if !entries.is_empty() {
            merged.section_mut(Some(KINDS[k].1)).entries.extend(entries);
        }
    }
}

/// The dream's account: the days read and what became of their bullets.
fn account(days: &[(String, String)], kept: usize, tally: &Tally) -> String {
    let Tally {
        added,
        repeats,
        held_back,
    } = *tally;
    let mut dream = format!(
        "Extractive consolidation (no model): {} daily file{} read ({}); {kept} entr{} kept, {added} added, {repeats} repeat{} skipped",
        days.len(),
        if days.len() == 1 { "" } else { "s" },
        days.iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        if kept == 1 { "y" } else { "ies" },
        if repeats == 1 { "" } else { "s" },
    );
    if held_back > 0 {
        let _ = write!(
            dream,
            "; {held_back} older entr{} left in daily memory (at most {MAX_NEW_PER_HEADING} new per heading)",
            if held_back == 1 { "y" } else { "ies" }
        );
    }
    dream.push('.');
    dream
}

impl Provider for Extractive {
    fn describe(&self) -> String {
        "extractive (offline, no model)".into()
    }

    fn complete(
        &self,
        req: &Request<'_>,
        _progress: &mut dyn FnMut(&str),
    ) -> Result<String, LlmError> {
        let (memory, dream) = consolidate(req.memory, req.days);
        Ok(format!("[MEMORY]\n{memory}\n[DREAM]\n{dream}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn daily_bullets_are_merged_deduplicated_and_sourced() {
        let day1 = "# Daily Memory: 2026-11-24\n\n## Session a (10:00)\n<!-- trail:flush sha256=1 -->\n### Asked\n- Fix the rounding bug\n### Files changed\n- src/checkout/total.rs (2 edits)\n### Commands\n- `cargo test` — failed\n### Compaction\n- auto at 1000 tokens\n".to_string();
        let day2 = "# Daily Memory: 2026-11-25\n\n## Remembered (09:00)\n- The staging DB lives on port 5433\n\n## Session b (11:00)\n### Files changed\n- src/checkout/total.rs (1 edit)\n- tests/checkout.rs (1 edit)\n### Asked\n- Fix the rounding bug\n".to_string();
        let memory = "## Infra\n- CI runs on main (src: memory/2026-11-20.md#L5)\n";
        let (out, dream) = consolidate(
            memory,
            &[
                ("memory/2026-11-24.md".into(), day1),
                ("memory/2026-11-25.md".into(), day2),
            ],
        );
        assert_eq!(
            out,
            "# Core Memory\n\n## Infra\n- CI runs on main (src: memory/2026-11-20.md#L5)\n\n## Notes\n- The staging DB lives on port 5433 (src: memory/2026-11-25.md#L4)\n"
        );
        // Asks, files and commands are the day's log: they stay in daily memory.
        assert!(
            dream.contains("1 entry kept, 1 added, 0 repeats skipped"),
            "{dream}"
        );
        // A second pass over the same days adds nothing.
        let (again, _) = consolidate(&out, &[]);
        assert_eq!(again, out);
    }

    #[test]
    fn at_most_twenty_new_entries_per_heading_the_newest() {
        let mut day = "# Daily Memory: 2026-11-25\n\n## Remembered (10:00)\n".to_string();
        for i in 0..25 {
            day.push_str(&format!("- the build needs `make step{i}` first\n"));
        }
        let (out, dream) = consolidate("", &[("memory/2026-11-25.md".into(), day)]);
        let c = core::parse(&out);
        assert_eq!(c.len(), MAX_NEW_PER_HEADING);
        assert!(out.contains("step24") && !out.contains("step4`"), "{out}");
        assert!(
            dream.contains("5 older entries left in daily memory"),
            "{dream}"
        );
    }
}
