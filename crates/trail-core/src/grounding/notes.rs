//! The decisions of a NOTES.md Decision Log, as claims to ground. Read only: nothing here
//! writes NOTES.md.
//!
//! Real Decision Logs come in several shapes, all read (the corpus has each):
//! - the PRD's (FR-10): `#### 2024-01-15T14:30:00Z - Title` then `**Decision**:`,
//!   `**Rationale**:`, `**Evidence**: `quote` [${PROJECT_ROOT}/file:line]`;
//! - a dated heading with free text below (`### 2026-05-07 — Title`);
//! - a bold paragraph per decision (`**Decision: Title**` and bullets);
//! - a table with a `Decision` column, one row a decision (Loa's template; its placeholder row
//!   `[Placeholder decision]` is not a decision).
//!
//! The log is the section under a heading that starts `Decision Log`, down to the next heading
//! of its level or above; a heading inside a fenced block is text.

use super::{Cited, Claim};
use crate::cite::parse;
use crate::notes::markdown::{fence_of, heading};

/// The decisions of every Decision Log in `text` (a NOTES.md named `name` in sources).
pub fn claims(text: &str, name: &str) -> Vec<Claim> {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut log = Log::default();
    let mut fence: Option<(u8, usize)> = None;
    for (i, line) in lines.iter().enumerate() {
        if let Some(f) = fence_of(line) {
            fence = match fence {
                None => Some(f),
                Some((c, n)) if f.0 == c && f.1 >= n => None,
                open => open,
            };
            continue;
        }
        if fence.is_some() {
            continue;
        }
        log.line(i, line);
    }
    log.close(lines.len());
    log.entries
        .into_iter()
        .map(|e| claim(&lines, e, name))
        .collect()
}

/// Where a decision is in the file: its title and its lines.
struct Entry {
    title: String,
    first: usize,
    end: usize,
}

/// The reader's state, a line at a time.
#[derive(Default)]
struct Log {
    /// The level of the Decision Log heading being read, if in one.
    level: Option<usize>,
    /// The decision being read: its title and first line.
    open: Option<(String, usize)>,
    /// The `Decision` column of the table being read.
    column: Option<usize>,
    entries: Vec<Entry>,
}

impl Log {
    fn line(&mut self, i: usize, line: &str) {
        if let Some((level, text)) = heading(line) {
            self.column = None;
            match self.level {
                Some(l) if level <= l => {
                    self.close(i);
                    self.level = None;
                }
                Some(_) => {
                    self.close(i);
                    self.open = Some((undated(text), i));
                    return;
                }
                None => {}
            }
            if text.to_ascii_lowercase().starts_with("decision log") {
                self.level = Some(level);
            }
            return;
        }
        if self.level.is_none() {
            return;
        }
        let t = line.trim();
        if t.starts_with('|') {
            self.table_row(i, t);
            return;
        }
        self.column = None;
        let t = t.trim_start_matches(['-', '*', ' ']).trim_start();
        let bold_title = line
            .trim()
            .strip_prefix("**Decision:")
            .and_then(|r| r.trim_end().strip_suffix("**"));
        if let Some(title) = bold_title {
            self.close(i);
            self.open = Some((title.trim().to_string(), i));
        } else if self.open.is_none()
            && let Some(rest) = t.strip_prefix("Decision**:")
        {
            self.open = Some((rest.trim().to_string(), i));
        }
    }

    /// A table row: the header names the `Decision` column, then each row is a decision.
    fn table_row(&mut self, i: usize, row: &str) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        if cells
            .iter()
            .all(|c| c.chars().all(|x| matches!(x, '-' | ':' | ' ')) && !c.is_empty())
        {
            return;
        }
        let Some(col) = self.column else {
            self.column = cells
                .iter()
                .position(|c| c.eq_ignore_ascii_case("decision"));
            return;
        };
        let Some(title) = cells.get(col) else { return };
        let placeholder = title.is_empty() || (title.starts_with('[') && title.ends_with(']'));
        if placeholder {
            return;
        }
        self.close(i);
        self.entries.push(Entry {
            title: title.to_string(),
            first: i,
            end: i + 1,
        });
    }

    fn close(&mut self, end: usize) {
        if let Some((title, first)) = self.open.take() {
            self.entries.push(Entry { title, first, end });
        }
    }
}

/// A heading's title without its leading date: `2024-01-15T14:30:00Z - Title` → `Title`.
fn undated(text: &str) -> String {
    let dated = text.len() > 10
        && text.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && text.as_bytes()[4] == b'-';
    if dated {
        for sep in [" - ", " — ", " – "] {
            if let Some((_, title)) = text.split_once(sep) {
                return title.trim().to_string();
            }
        }
    }
    text.to_string()
}

fn claim(lines: &[&str], e: Entry, name: &str) -> Claim {
    let body = lines[e.first..e.end].join("\n");
    let evidence = parse::find(&body)
        .into_iter()
        .map(|f| Cited {
            citation: f.text,
            target: f.target,
            quote: f.quote,
        })
        .collect();
    Claim {
        title: e.title,
        source: format!("{name}:{}", e.first + 1),
        evidence,
        note: None,
    }
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

    fn titles(text: &str) -> Vec<String> {
        claims(text, "NOTES.md")
            .into_iter()
            .map(|c| c.title)
            .collect()
    }

    #[test]
    fn the_prd_shape_with_its_evidence() {
        let text = "# Notes\n## Session Continuity\n### Decision Log\n#### 2024-01-15T14:30:00Z - Use JWT\n**Decision**: JWT\n**Rationale**: Why\n**Evidence**: `export function validateToken()` [${PROJECT_ROOT}/src/auth/jwt.ts:45]\n**Test Scenarios**: 1) happy 2) edge 3) error\n\n#### 2024-01-16T09:00:00Z - Second\n**Decision**: x\n## Other\n#### Not a decision\n";
        let c = claims(text, "NOTES.md");
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].title, "Use JWT");
        assert_eq!(c[0].source, "NOTES.md:4");
        assert_eq!(c[0].evidence.len(), 1);
        assert_eq!(
            c[0].evidence[0].quote.lines,
            ["export function validateToken()"]
        );
        assert_eq!(c[1].title, "Second");
        assert!(c[1].evidence.is_empty());
    }

    #[test]
    fn the_corpus_notes_files() {
        let loa = corpus("loa_loa-grimoire_NOTES.md");
        let t = titles(&loa);
        assert_eq!(t.len(), 8, "{t:?}");
        assert_eq!(t[0], "Follow beads integration pattern for ck");
        assert_eq!(t[7], "Single repository only for v1.0");
        // Its sources are `file:line` without ${PROJECT_ROOT}, in no brackets: not citations.
        assert!(
            claims(&loa, "NOTES.md")
                .iter()
                .all(|c| c.evidence.is_empty())
        );

        let henlo = corpus("henlo_faucet_grimoires_loa_NOTES.md");
        assert_eq!(
            titles(&henlo),
            [
                "Design system from poku-zone",
                "Architecture: pure frontend, no backend",
                "Contract analysis"
            ]
        );

        // The template's only row is a placeholder.
        assert!(titles(&corpus("loa_.claude_templates_NOTES.md.template")).is_empty());
    }

    #[test]
    fn table_rows_and_fenced_headings() {
        let text = "## Decision Log\n| Date | Decision | Rationale |\n|---|---|---|\n| 2026-01-01 | Use serde | `serde_json::to_string` [${PROJECT_ROOT}/src/a.rs:3] |\n| YYYY-MM-DD | [Placeholder decision] | [why] |\n\n```\n## Decision Log\n### inside a fence\n```\n### After the fence\ntext\n# Top\n";
        let c = claims(text, "N.md");
        let t: Vec<&str> = c.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(t, ["Use serde", "After the fence"]);
        assert_eq!(c[0].evidence.len(), 1);
        assert_eq!(c[0].source, "N.md:4");
    }
}
