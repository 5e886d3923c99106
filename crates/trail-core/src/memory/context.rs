//! Core memory given back at session start: `.trail/MEMORY.md`'s bullets and the state file's
//! `memory:` lessons, most relevant to what the project is doing first, within a size cap.
//!
//! MEMORY.md is a file anyone in the project can edit, and the daily files it cites can change
//! after the dream that wrote it. So each bullet is checked again when it is read, against the
//! line it cites ([`super::verify`]), and only a bullet that line still supports — every number,
//! path and quoted string of it on that very line — is given back as it stands. A bullet whose
//! cited line is gone or says something else, or that cites nothing, is left out and counted:
//! never presented as fact. Only the cited daily files are read, so the cost follows the
//! bullets, not the history.
//!
//! Lessons (`memory: [{trigger, lesson}]` in `active_context.yaml`) have no source but the state
//! file itself; they are given back as the notes they are (the caller frames them).

use std::collections::HashSet;
use std::path::Path;

use super::core::{self, Core};
use super::verify::{self, Source, Verdict};
use crate::file_error::FileError;

/// A lesson from the state file's `memory:` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    pub trigger: Option<String>,
    pub lesson: String,
}

/// Read the state file's `memory:` value: a list of `{trigger, lesson}` mappings (or of plain
/// strings). Anything else is skipped.
pub fn lessons(memory: Option<&serde_json::Value>) -> Vec<Lesson> {
    let Some(serde_json::Value::Array(items)) = memory else {
        return Vec::new();
    };
    let text = |v: Option<&serde_json::Value>| {
        v.and_then(serde_json::Value::as_str)
            .map(|s| crate::text::one_line(s, core::MAX_BULLET_CHARS))
            .filter(|s| !s.is_empty())
    };
    items
        .iter()
        .filter_map(|item| match item {
            serde_json::Value::String(s) => Some(Lesson {
                trigger: None,
                lesson: text(Some(item)).unwrap_or_else(|| s.clone()),
            }),
            serde_json::Value::Object(m) => Some(Lesson {
                trigger: text(m.get("trigger")),
                lesson: text(m.get("lesson"))?,
            }),
            _ => None,
        })
        .filter(|l| !l.lesson.trim().is_empty())
        .collect()
}

/// What is given back, and what was not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recalled {
    /// MEMORY.md bullets their cited line still supports, as `- text (src: …)`, most relevant
    /// first.
    pub core: Vec<String>,
    /// Lessons, as `- lesson (when: trigger)`, most relevant first.
    pub lessons: Vec<String>,
    /// Bullets left out: their cited line is gone or no longer says it.
    pub stale: usize,
    /// Bullets left out: they cite no source.
    pub unsourced: usize,
    /// Bullets and lessons left out for want of room.
    pub cut: usize,
}

impl Recalled {
    /// Nothing to give back and nothing to say about it.
    pub fn is_empty(&self) -> bool {
        *self == Recalled::default()
    }

    /// What was left out of core memory, in one line (`None` when nothing was).
    pub fn left_out(&self) -> Option<String> {
        let mut why = Vec::new();
        if self.stale > 0 {
            why.push(format!(
                "{} whose cited daily-memory line is gone or no longer says it",
                self.stale
            ));
        }
        if self.unsourced > 0 {
            why.push(format!("{} that cite no source", self.unsourced));
        }
        if self.cut > 0 {
            why.push(format!("{} over the memory.inject_chars cap", self.cut));
        }
        (!why.is_empty()).then(|| {
            format!(
                "(left out: {}; `trail memory verify` checks them, `trail dream` rewrites them)",
                why.join(", ")
            )
        })
    }
}

/// One candidate line and how relevant it is.
struct Candidate {
    line: String,
    score: usize,
    lesson: bool,
}

/// Core memory for a session in `root`: bullets checked against their cited lines, then
/// bullets and lessons ordered by how many of their words `relevant` (what the project is doing:
/// its name, branch, objective, intent, next steps, files) shares, and kept while they fit in
/// `cap` characters.
pub fn gather(
    root: &Path,
    lessons: &[Lesson],
    relevant: &str,
    cap: usize,
) -> Result<Recalled, FileError> {
    let layout = crate::layout::Layout::new(root);
    let text = match crate::fsutil::read_string_in(
        root,
        &layout.core_memory(),
        crate::fsutil::MAX_PROJECT_FILE,
    ) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    let mut out = Recalled::default();
    let supported = supported_bullets(root, &core::parse(&text), &mut out)?;
    let wanted: HashSet<String> = verify::content_words(relevant).into_iter().collect();
    let score = |s: &str| {
        verify::content_words(s)
            .into_iter()
            .collect::<HashSet<_>>()
            .intersection(&wanted)
            .count()
    };
    let mut candidates: Vec<Candidate> = supported
        .into_iter()
        .map(|line| Candidate {
            score: score(&line),
            line,
            lesson: false,
        })
        .chain(lessons.iter().map(|l| {
            let line = match &l.trigger {
                Some(t) => format!("- {} (when: {t})", l.lesson),
                None => format!("- {}", l.lesson),
            };
            Candidate {
                score: score(&line),
                line,
                lesson: true,
            }
        }))
        .collect();
    // Stable: equally relevant lines keep the order they were written in.
    candidates.sort_by_key(|c| std::cmp::Reverse(c.score));
    let mut used = 0;
    for c in candidates {
        let cost = c.line.chars().count() + 1;
        if used + cost > cap {
            out.cut += 1;
            continue;
        }
        used += cost;
        if c.lesson {
            out.lessons.push(c.line);
        } else {
            out.core.push(c.line);
        }
    }
    Ok(out)
}

/// The bullets of `core` that the line they cite still supports, as lines to show; the rest
/// counted in `out`.
fn supported_bullets(
    root: &Path,
    core: &Core,
    out: &mut Recalled,
) -> Result<Vec<String>, FileError> {
    let sources = cited_sources(root, core)?;
    let sources: Vec<Source<'_>> = sources
        .iter()
        .map(|(name, text)| Source { name, text })
        .collect();
    let (text, map) = core::render_mapped(core);
    let mut kept = Vec::new();
    for check in verify::verify(&text, &sources) {
        let Some(Some((si, ei))) = map.get(check.line - 1).copied() else {
            continue;
        };
        let entry = &core.sections[si].entries[ei];
        let Some(src) = &entry.src else {
            out.unsourced += 1;
            continue;
        };
        if check.verdict == Verdict::Verified && holds_every_item(&entry.text, src, &sources) {
            kept.push(format!("- {} (src: {src})", entry.text));
        } else {
            out.stale += 1;
        }
    }
    Ok(kept)
}

/// The daily files the bullets cite, by the name they cite them under (`memory/DATE.md`). A
/// file that is gone is simply absent: its bullets then find no support.
fn cited_sources(root: &Path, core: &Core) -> Result<Vec<(String, String)>, FileError> {
    let mut names: Vec<&str> = core
        .entries()
        .filter_map(|e| e.src.as_deref())
        .filter_map(|s| s.split_once("#L").map(|(file, _)| file))
        .collect();
    names.sort_unstable();
    names.dedup();
    let dir = super::daily::memory_dir(root);
    let mut out = Vec::new();
    for name in names {
        // `well_formed_src` let only `memory/YYYY-MM-DD.md` through: no path can climb out.
        let Some(file) = name.strip_prefix("memory/") else {
            continue;
        };
        match crate::fsutil::read_in(root, &dir.join(file), crate::fsutil::MAX_PROJECT_FILE) {
            Ok(bytes) => out.push((
                name.to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            )),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(out)
}

/// Whether every number, path, identifier and quoted string of `text` is on the cited line
/// itself (the verifier accepts them anywhere in the file; a fact given back as it stands must
/// be the line's).
fn holds_every_item(text: &str, src: &str, sources: &[Source<'_>]) -> bool {
    let Some((file, line)) = src.rsplit_once("#L") else {
        return false;
    };
    let Some(line) = line
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|n| sources.iter().find(|s| s.name == file)?.text.lines().nth(n))
    else {
        return false;
    };
    verify::exact_items(text)
        .iter()
        .all(|item| line.contains(item.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: &str = "# Daily Memory: 2026-11-25\n\n## Session a (10:00)\n- The staging database listens on port 5433\n- Tests run with `cargo nextest run` in src/checkout/total.rs\n- Rounding happens per line instead of per order\n- the old port was 5432\n";

    fn project(memory: &str, day: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let mem = dir.path().join(".trail/memory");
        std::fs::create_dir_all(&mem).unwrap();
        std::fs::write(mem.join("2026-11-25.md"), day).unwrap();
        std::fs::write(dir.path().join(".trail/MEMORY.md"), memory).unwrap();
        dir
    }

    const MEMORY: &str = "# Core Memory\n\n## Infra\n- The staging database listens on port 5433 (src: memory/2026-11-25.md#L4)\n- Tests run with `cargo nextest run` (src: memory/2026-11-25.md#L5)\n\n## Decisions\n- Rounding happens per line instead of per order (src: memory/2026-11-25.md#L6)\n- Deploys go through the blue cluster\n";

    #[test]
    fn supported_bullets_come_back_word_for_word_and_the_rest_are_counted() {
        let dir = project(MEMORY, DAY);
        let r = gather(dir.path(), &[], "", 10_000).unwrap();
        assert_eq!(
            r.core,
            [
                "- The staging database listens on port 5433 (src: memory/2026-11-25.md#L4)",
                "- Tests run with `cargo nextest run` (src: memory/2026-11-25.md#L5)",
                "- Rounding happens per line instead of per order (src: memory/2026-11-25.md#L6)",
            ]
        );
        assert_eq!((r.stale, r.unsourced, r.cut), (0, 1, 0));
        assert!(r.left_out().unwrap().contains("1 that cite no source"));
    }

    #[test]
    fn a_bullet_whose_cited_line_changed_is_left_out() {
        for changed in [
            // Another number.
            DAY.replace("port 5433", "port 6543"),
            // The line gone (everything below moves up one).
            DAY.replace("- The staging database listens on port 5433\n", ""),
            // The number still in the file, but no longer on the cited line.
            DAY.replace("on port 5433", "on the usual port") + "- 5433 is reserved\n",
        ] {
            let dir = project(MEMORY, &changed);
            let r = gather(dir.path(), &[], "", 10_000).unwrap();
            assert!(
                !r.core.iter().any(|l| l.contains("staging database")),
                "{changed}\n{r:?}"
            );
            assert!(r.stale >= 1, "{r:?}");
        }
        // The daily file gone: nothing it supported comes back.
        let dir = project(MEMORY, DAY);
        std::fs::remove_file(dir.path().join(".trail/memory/2026-11-25.md")).unwrap();
        let r = gather(dir.path(), &[], "", 10_000).unwrap();
        assert!(r.core.is_empty());
        assert_eq!(r.stale, 3);
    }

    #[test]
    fn the_most_relevant_come_first_and_the_cap_holds() {
        let dir = project(MEMORY, DAY);
        let lessons = lessons(Some(&serde_json::json!([
            {"trigger": "touching checkout totals", "lesson": "round once per order"},
            "plain lesson",
            {"trigger": "no lesson"},
            42,
        ])));
        assert_eq!(lessons.len(), 2);
        let r = gather(
            dir.path(),
            &lessons,
            "fix rounding in checkout totals",
            10_000,
        )
        .unwrap();
        assert_eq!(
            r.lessons,
            [
                "- round once per order (when: touching checkout totals)",
                "- plain lesson"
            ]
        );
        assert!(r.core[0].starts_with("- Rounding happens"), "{:?}", r.core);
        let small = gather(dir.path(), &lessons, "fix rounding in checkout totals", 140).unwrap();
        assert_eq!(small.core.len() + small.lessons.len(), 2, "{small:?}");
        assert_eq!(small.cut, 3);
        let none = gather(dir.path(), &lessons, "", 0).unwrap();
        assert!(none.core.is_empty() && none.lessons.is_empty());
        assert_eq!(none.cut, 5);
    }

    #[test]
    fn no_memory_is_nothing_to_say() {
        let dir = tempfile::tempdir().unwrap();
        assert!(gather(dir.path(), &[], "x", 100).unwrap().is_empty());
    }
}
