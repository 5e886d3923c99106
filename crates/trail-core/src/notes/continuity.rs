//! The `## Session Continuity` section of a NOTES.md (FR-10), edited in place.
//!
//! NOTES.md is the person's file too (Loa's agents and people write the rest of it), so every
//! edit here stays inside that one section: the bytes before its heading and from the next
//! heading of its level on are never touched. A file without the section gets it appended at
//! its end; a section without trail's three parts (Active Context, Lightweight Identifiers,
//! Decision Log) gets the missing ones added inside it, next to the parts it has. What a part
//! already holds is kept; trail adds decisions and identifiers, and rewrites only the Active
//! Context lines it owns, one line at a time.
//!
//! Real files differ: Loa's template has the section at line 90 with a Pending Questions part
//! and a comment block after it; a project's NOTES.md may hold the section as a table of
//! sessions and its Decision Log elsewhere. Both are extended, never reshaped (tests run on the
//! corpus files).

use super::markdown::{Line, eol, lines};

/// The section's heading text.
pub const SECTION: &str = "Session Continuity";
/// Its parts, in the order trail writes them.
pub const ACTIVE: &str = "Active Context";
pub const IDENTIFIERS: &str = "Lightweight Identifiers";
pub const LOG: &str = "Decision Log";
const PARTS: [&str; 3] = [ACTIVE, IDENTIFIERS, LOG];

/// Where the section is in a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    /// Byte offset of its heading line.
    pub start: usize,
    /// Byte offset of the next heading of its level or above (the end of the document if none).
    pub end: usize,
    /// Its first and last non-blank line, from 1 (what a `NOTES.md:START-END` reference names).
    pub first_line: u32,
    pub last_line: u32,
}

/// The first `Session Continuity` heading (levels 1 to 4, so that its parts and their entries
/// have levels below it) and its extent.
pub fn find(text: &str) -> Option<Section> {
    let l = lines(text);
    let (level, first, end) = section(&l)?;
    let last = last_filled(&l, first, end);
    Some(Section {
        start: l[first].start,
        end: l.get(end).map_or(text.len(), |x| x.start),
        first_line: u32::try_from(first + 1).unwrap_or(u32::MAX),
        last_line: u32::try_from(last).unwrap_or(u32::MAX),
    })
    .filter(|_| level <= 4)
}

/// The section's heading level and its lines `[first, end)`.
fn section(l: &[Line]) -> Option<(usize, usize, usize)> {
    let first = l.iter().position(|x| {
        x.heading
            .as_ref()
            .is_some_and(|(lv, t)| *lv <= 4 && starts_with_word(t, SECTION))
    })?;
    let level = l[first].heading.as_ref()?.0;
    let end = next_heading(l, first + 1, l.len(), level);
    Some((level, first, end))
}

/// A part of the section: its heading's line and the end of its lines.
fn part(l: &[Line], sec: (usize, usize, usize), name: &str) -> Option<(usize, usize)> {
    let (level, first, end) = sec;
    let at = (first + 1..end).find(|&i| {
        l[i].heading
            .as_ref()
            .is_some_and(|(lv, t)| *lv == level + 1 && starts_with_word(t, name))
    })?;
    Some((at, next_heading(l, at + 1, end, level + 1)))
}

/// The first line in `[from, to)` that is a heading of `level` or above, else `to`.
fn next_heading(l: &[Line], from: usize, to: usize, level: usize) -> usize {
    (from..to)
        .find(|&i| l[i].heading.as_ref().is_some_and(|(lv, _)| *lv <= level))
        .unwrap_or(to)
}

/// One past the last non-blank line of `[first, end)` (`first` + 1 at least: the heading).
fn last_filled(l: &[Line], first: usize, end: usize) -> usize {
    (first..end).rev().find(|&i| !l[i].blank).unwrap_or(first) + 1
}

/// Byte offset just past the last non-blank line of `[first, end)`.
fn filled_end(text: &str, l: &[Line], first: usize, end: usize) -> usize {
    let last = last_filled(l, first, end);
    l.get(last - 1).map_or(text.len(), |x| x.next)
}

pub(crate) fn starts_with_word(text: &str, word: &str) -> bool {
    text.get(..word.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(word))
        && text[word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric())
}

/// The text of one part of the section (its heading line included), when the file has it.
pub fn part_text<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    let l = lines(text);
    let sec = section(&l)?;
    let (a, b) = part(&l, sec, name)?;
    let end = l.get(b).map_or(text.len(), |x| x.start);
    Some(&text[l[a].start..end])
}

/// A new section with its three parts, empty.
pub fn empty_section() -> String {
    format!(
        "## {SECTION}\n<!-- Load FIRST after /clear. Kept by trail: every decision here is also in the \
         pulse stream and the trajectory, from which this section can be rebuilt. -->\n\n{}\n{}\n{}",
        empty_part(ACTIVE, 3),
        empty_part(IDENTIFIERS, 3),
        empty_part(LOG, 3)
    )
}

fn empty_part(name: &str, level: usize) -> String {
    let h = "#".repeat(level);
    match name {
        ACTIVE => format!(
            "{h} {ACTIVE}\n- **Current Task**: (none recorded)\n- **Last Checkpoint**: none yet\n\
             - **Reasoning State**: (none recorded)\n"
        ),
        IDENTIFIERS => format!(
            "{h} {IDENTIFIERS}\n| Identifier | Purpose | Last Verified |\n|------------|---------|---------------|\n"
        ),
        // The citation shape the checkpoint verifies, shown once where decisions go (issue 21:
        // the template gave no example of it).
        _ => format!(
            "{h} {LOG}\n<!-- `trail decide` adds each decision here, citing the code it rests on \
             word for word: `pub fn rotate()` [${{PROJECT_ROOT}}/src/auth.rs:42] -->\n"
        ),
    }
}

/// `text` with `block` (ending with `\n`) inserted at `pos`, a blank line on each side.
fn insert_block(text: &str, pos: usize, block: &str) -> String {
    let nl = eol(text);
    let before = &text[..pos];
    let after = &text[pos..];
    let mut out = String::with_capacity(text.len() + block.len() + 4);
    out.push_str(before);
    if !before.is_empty() {
        if !before.ends_with('\n') {
            out.push_str(nl);
        }
        if !ends_with_blank_line(&out) {
            out.push_str(nl);
        }
    }
    out.push_str(&with_eol(block, nl));
    if !after.is_empty() && !after.starts_with(['\n', '\r']) {
        out.push_str(nl);
    }
    out.push_str(after);
    out
}

fn ends_with_blank_line(s: &str) -> bool {
    s.ends_with("\n\n") || s.ends_with("\n\r\n")
}

/// `text` with `line` (no line break) inserted as a line of its own at `pos` (a line's start).
fn insert_line(text: &str, pos: usize, line: &str) -> String {
    let nl = eol(text);
    let (before, after) = text.split_at(pos);
    let lead = if before.is_empty() || before.ends_with('\n') {
        ""
    } else {
        nl
    };
    format!("{before}{lead}{line}{nl}{after}")
}

/// `text` with line `l` replaced by `line`, its line break kept.
fn replace_line(text: &str, l: &Line, line: &str) -> String {
    let old = &text[l.start..l.next];
    let brk = &old[old.trim_end_matches(['\n', '\r']).len()..];
    format!("{}{line}{brk}{}", &text[..l.start], &text[l.next..])
}

fn with_eol(s: &str, nl: &str) -> String {
    if nl == "\n" {
        s.to_string()
    } else {
        s.replace('\n', nl)
    }
}

/// `text` with the section and its three parts present (a copy when nothing was missing).
pub fn ensure(text: &str) -> String {
    let mut text = text.to_string();
    let l = lines(&text);
    let Some(sec) = section(&l).filter(|s| s.0 <= 4) else {
        let end = text.len();
        return insert_block(&text, end, &empty_section());
    };
    for (k, name) in PARTS.iter().enumerate() {
        let l = lines(&text);
        let Some(sec) = section(&l) else { break };
        if part(&l, sec, name).is_some() {
            continue;
        }
        let block = empty_part(name, sec.0 + 1);
        let before = PARTS[..k]
            .iter()
            .rev()
            .find_map(|p| part(&l, sec, p))
            .map(|(a, b)| filled_end(&text, &l, a, b));
        let after = PARTS[k + 1..]
            .iter()
            .find_map(|p| part(&l, sec, p))
            .map(|(a, _)| l[a].start);
        let pos = before
            .or(after)
            .unwrap_or_else(|| filled_end(&text, &l, sec.1, sec.2));
        text = insert_block(&text, pos, &block);
    }
    let _ = sec;
    text
}

/// `text` with `entry` (a Decision Log entry, Markdown ending with `\n`) appended to the
/// Decision Log part, the section and parts made first when missing.
pub fn append_entry(text: &str, entry: &str) -> String {
    append_entries(text, &[entry.to_string()])
}

/// [`append_entry`] for several entries at once, in order, a blank line between each.
pub fn append_entries(text: &str, entries: &[String]) -> String {
    let text = ensure(text);
    if entries.is_empty() {
        return text;
    }
    let l = lines(&text);
    let Some(sec) = section(&l) else {
        return text;
    };
    let Some((a, b)) = part(&l, sec, LOG) else {
        return text;
    };
    let pos = filled_end(&text, &l, a, b);
    insert_block(&text, pos, &entries.join("\n"))
}

/// `text` with each `(field, value)` of Active Context written as `- **field**: value`: the
/// line that names the field is rewritten, or a line is added after the part's last one.
pub fn set_active(text: &str, fields: &[(&str, String)]) -> String {
    let mut text = ensure(text);
    for (field, value) in fields {
        let l = lines(&text);
        let Some(sec) = section(&l) else { break };
        let Some((a, b)) = part(&l, sec, ACTIVE) else {
            break;
        };
        let line = format!("- **{field}**: {}", one_line(value));
        let existing = (a + 1..b).find(|&i| {
            !l[i].fenced
                && super::active::field(&text[l[i].start..l[i].next])
                    .is_some_and(|(k, _)| k.eq_ignore_ascii_case(field))
        });
        text = match existing {
            Some(i) => replace_line(&text, &l[i], &line),
            None => insert_line(&text, filled_end(&text, &l, a, b), &line),
        };
    }
    text
}

/// One row of the Lightweight Identifiers table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identifier {
    /// `${PROJECT_ROOT}/path:45-67`.
    pub id: String,
    pub purpose: String,
    /// `HH:MM:SSZ`.
    pub verified: String,
}

/// `text` with each identifier's row in the Lightweight Identifiers table: a row with the same
/// identifier is rewritten, a new one goes after the table's last row.
pub fn upsert_identifiers(text: &str, rows: &[Identifier]) -> String {
    let mut text = ensure(text);
    for r in rows {
        let l = lines(&text);
        let Some(sec) = section(&l) else { break };
        let Some((a, b)) = part(&l, sec, IDENTIFIERS) else {
            break;
        };
        let row = format!(
            "| {} | {} | {} |",
            cell(&r.id),
            cell(&r.purpose),
            cell(&r.verified)
        );
        let table: Vec<usize> = (a + 1..b)
            .filter(|&i| text[l[i].start..l[i].next].trim_start().starts_with('|'))
            .collect();
        let same = table
            .iter()
            .copied()
            .find(|&i| first_cell(&text[l[i].start..l[i].next]).is_some_and(|c| c == cell(&r.id)));
        text = match (same, table.last()) {
            (Some(i), _) => replace_line(&text, &l[i], &row),
            (None, Some(&last)) => insert_line(&text, l[last].next, &row),
            (None, None) => {
                let pos = filled_end(&text, &l, a, b);
                insert_block(
                    &text,
                    pos,
                    &format!(
                        "| Identifier | Purpose | Last Verified |\n|------------|---------|---------------|\n{row}\n"
                    ),
                )
            }
        };
    }
    text
}

fn first_cell(row: &str) -> Option<String> {
    let t = row.trim().strip_prefix('|')?;
    let mut cell = String::new();
    let mut chars = t.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cell.push(c);
                cell.extend(chars.next());
            }
            '|' => return Some(cell.trim().to_string()),
            c => cell.push(c),
        }
    }
    None
}

/// Text for a table cell: one line, `|` escaped.
fn cell(s: &str) -> String {
    one_line(s).replace('|', "\\|")
}

/// Text on one line: Markdown structure (a heading, a fence) cannot start inside a value.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn corpus(name: &str) -> String {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/loa")
            .join(name);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    const CORPUS: [&str; 3] = [
        "henlo_faucet_grimoires_loa_NOTES.md",
        "loa_loa-grimoire_NOTES.md",
        "loa_.claude_templates_NOTES.md.template",
    ];

    /// Every byte outside the section is where it was: the same prefix up to the section's
    /// heading, the same suffix from the heading after it.
    fn outside_unchanged(old: &str, new: &str) {
        match find(old) {
            Some(s) => {
                assert_eq!(&new[..s.start], &old[..s.start], "before the section");
                let tail = &old[s.end..];
                assert!(new.ends_with(tail), "after the section");
                let ns = find(new).unwrap();
                assert_eq!(ns.start, s.start);
                assert_eq!(&new[ns.end..], tail);
            }
            None => assert!(new.starts_with(old), "a new section goes at the end"),
        }
    }

    fn entry(n: usize) -> String {
        format!(
            "#### 2026-01-0{n}T10:00:00Z - Decision {n}\n**Decision**: d{n}\n**Rationale**: r{n}\n"
        )
    }

    #[test]
    fn the_corpus_files_are_extended_and_nothing_outside_the_section_moves() {
        for name in CORPUS {
            let old = corpus(name);
            let mut new = append_entry(&old, &entry(1));
            new = append_entry(&new, &entry(2));
            new = set_active(
                &new,
                &[
                    ("Last Checkpoint", "2026-01-02T10:00:00Z".into()),
                    ("Current Task", "ship | it\n## not a heading".into()),
                ],
            );
            new = upsert_identifiers(
                &new,
                &[Identifier {
                    id: "${PROJECT_ROOT}/src/a.rs:1-3".into(),
                    purpose: "why".into(),
                    verified: "10:00:00Z".into(),
                }],
            );
            outside_unchanged(&old, &new);
            // Idempotent where it should be: the same identifier again changes nothing.
            let again = upsert_identifiers(
                &new,
                &[Identifier {
                    id: "${PROJECT_ROOT}/src/a.rs:1-3".into(),
                    purpose: "why".into(),
                    verified: "10:00:00Z".into(),
                }],
            );
            assert_eq!(again, new, "{name}");
            assert_eq!(ensure(&new), new, "{name}");
            // The grounding reader finds both decisions (and the file's own).
            let titles: Vec<String> = crate::grounding::notes::claims(&new, "NOTES.md")
                .into_iter()
                .map(|c| c.title)
                .collect();
            assert!(
                titles.contains(&"Decision 1".to_string())
                    && titles.contains(&"Decision 2".to_string()),
                "{name}: {titles:?}"
            );
            let old_titles = crate::grounding::notes::claims(&old, "NOTES.md").len();
            assert_eq!(titles.len(), old_titles + 2, "{name}: {titles:?}");
            let s = find(&new).unwrap();
            let section = &new[s.start..s.end];
            assert!(
                section.contains("- **Current Task**: ship \\| it ## not a heading")
                    || section.contains("- **Current Task**: ship | it ## not a heading"),
                "{name}: {section}"
            );
            assert_eq!(section.matches("**Last Checkpoint**").count(), 1, "{name}");
            assert!(
                section.find("Decision 1").unwrap() < section.find("Decision 2").unwrap(),
                "{name}"
            );
        }
    }

    #[test]
    fn the_template_gets_its_decision_log_between_its_identifiers_and_pending_questions() {
        let old = corpus("loa_.claude_templates_NOTES.md.template");
        let new = append_entry(&old, &entry(1));
        let ids = new.find("### Lightweight Identifiers").unwrap();
        let log = new.find("### Decision Log").unwrap();
        let pending = new.find("### Pending Questions").unwrap();
        assert!(ids < log && log < pending, "{new}");
        assert!(new[log..pending].contains("Decision 1"));
        // The template's own Current Bead line stays; trail adds its Last Checkpoint value.
        let new = set_active(&new, &[("Last Checkpoint", "2026-01-01T00:00:00Z".into())]);
        assert!(new.contains("- **Last Checkpoint**: 2026-01-01T00:00:00Z\n"));
        assert!(!new.contains("YYYY-MM-DDTHH:MM:SSZ\n- **Reasoning"));
        assert!(new.contains("- **Current Bead**: [bead-id]"));
    }

    #[test]
    fn a_file_without_the_section_gets_it_at_its_end() {
        for old in ["", "# Notes\nmine", "# Notes\r\nmine\r\n"] {
            let new = append_entry(old, &entry(1));
            assert!(new.starts_with(old), "{new:?}");
            let s = find(&new).unwrap();
            assert_eq!(&new[s.end..], "");
            if old.contains('\r') {
                assert!(!new.replace("\r\n", "").contains('\n'), "{new:?}");
            }
            assert_eq!(crate::grounding::notes::claims(&new, "N").len(), 1);
        }
        let s = find(&empty_section()).unwrap();
        assert_eq!((s.first_line, s.last_line), (1, 14));
    }

    #[test]
    fn a_section_holding_only_a_table_gets_the_three_parts_inside_it() {
        let old = "# N\n\n## Session Continuity\n| a | b |\n|---|---|\n\n## Decision Log\n### 2026 — theirs\n";
        let new = ensure(old);
        outside_unchanged(old, &new);
        let s = find(&new).unwrap();
        let section = &new[s.start..s.end];
        for p in PARTS {
            assert!(section.contains(&format!("### {p}\n")), "{section}");
        }
        assert!(
            new.ends_with("\n\n## Decision Log\n### 2026 — theirs\n"),
            "{new}"
        );
    }

    #[test]
    fn a_heading_in_a_fence_or_a_longer_word_is_not_the_section() {
        assert!(find("```\n## Session Continuity\n```\n").is_none());
        assert!(find("## Session Continuityx\n").is_none());
        assert!(find("##### Session Continuity\n").is_none());
        assert!(find("## session continuity (restore first)\n").is_some());
    }
}
