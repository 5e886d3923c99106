//! Two clones' NOTES.md merged without conflicts: what git runs for the file (`trail
//! merge-notes`, the merge driver `trail init` sets up; `.gitattributes` names it).
//!
//! Everything a person wrote in NOTES.md is merged as git always does (three ways; a real
//! conflict there stays a conflict). trail's own parts of the Session Continuity section are
//! views of append-only journals, and are merged as such:
//! - **Decision Log:** the union of both sides' decisions, each once (by its id marker), the
//!   new ones after those both sides had, in time order. Two people deciding on two clones is
//!   the normal case, not a conflict; a line-based merge would either conflict or, with git's
//!   union driver, fold their identical lines (`**Evidence**: none given`) into one entry.
//! - **Active Context:** the side whose newest decision is newer.
//! - **Lightweight Identifiers:** both sides' rows, each once.
//!
//! The trajectory (`.trail/trajectory/*.jsonl`, one JSON object per line, each unique) merges
//! with git's built-in union driver (`.trail/.gitattributes`).

use std::collections::HashSet;

use super::continuity::{self, ACTIVE, IDENTIFIERS, LOG};
use crate::file_error::{At, FileError};

/// A merged NOTES.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    pub text: String,
    /// Whether the person's own text conflicted (conflict markers are in `text`).
    pub conflicts: bool,
}

/// A three-way merge of texts (base, ours, theirs): the result, and whether it conflicted.
pub type Merge3<'a> = &'a dyn Fn(&str, &str, &str) -> Result<(String, bool), FileError>;

/// One Decision Log entry: its key (the decision's id, else its text) and its text.
#[derive(Clone, Debug)]
struct Entry {
    key: String,
    /// The `#### <stamp> - …` heading's stamp, for ordering.
    stamp: String,
    text: String,
}

/// The Decision Log part split: its heading and what precedes the first entry, then each entry
/// as written (blank lines after it included).
fn split_log(part: &str) -> (String, Vec<String>) {
    let mut head = String::new();
    let mut blocks: Vec<String> = Vec::new();
    for (i, line) in part.split_inclusive('\n').enumerate() {
        if i > 0 && line.starts_with("#### ") {
            blocks.push(line.to_string());
        } else if let Some(b) = blocks.last_mut() {
            b.push_str(line);
        } else {
            head.push_str(line);
        }
    }
    (head, blocks)
}

fn entry(block: &str) -> Entry {
    let text = format!("{}\n", block.trim_end());
    let key = text
        .split("<!-- trail:decision ")
        .nth(1)
        .and_then(|r| r.split(" -->").next())
        .map_or_else(|| text.clone(), str::to_string);
    let stamp = text
        .lines()
        .next()
        .and_then(|h| h.strip_prefix("#### "))
        .and_then(|h| h.split(" - ").next())
        .unwrap_or("")
        .to_string();
    Entry { key, stamp, text }
}

fn entries(text: &str) -> Vec<Entry> {
    continuity::part_text(text, LOG)
        .map(|p| split_log(p).1.iter().map(|b| entry(b)).collect())
        .unwrap_or_default()
}

/// `text` with its part `name` replaced by `part` (left as it is when either is missing).
fn with_part(text: &str, name: &str, part: Option<&str>) -> String {
    let (Some(old), Some(new)) = (continuity::part_text(text, name), part) else {
        return text.to_string();
    };
    let at = old.as_ptr() as usize - text.as_ptr() as usize;
    format!("{}{new}{}", &text[..at], &text[at + old.len()..])
}

/// `text` whose Decision Log keeps only the entries whose keys are in `keep`.
fn keeping(text: &str, keep: &HashSet<&str>) -> String {
    let Some(part) = continuity::part_text(text, LOG) else {
        return text.to_string();
    };
    let (mut out, blocks) = split_log(part);
    for b in blocks {
        if keep.contains(entry(&b).key.as_str()) {
            out.push_str(&b);
        }
    }
    with_part(text, LOG, Some(&out))
}

/// Merge three NOTES.md (see the module docs); `merge3` merges the person's text.
pub fn merge(
    base: &str,
    ours: &str,
    theirs: &str,
    merge3: Merge3<'_>,
) -> Result<Merged, FileError> {
    let (be, oe, te) = (entries(base), entries(ours), entries(theirs));
    let had: HashSet<&str> = be.iter().map(|e| e.key.as_str()).collect();
    // trail's parts brought to one version on every side, so that only the person's text can
    // conflict: the base's, else ours (a file both sides made has no base).
    let reference = |name: &str| {
        continuity::part_text(base, name)
            .or_else(|| continuity::part_text(ours, name))
            .map(str::to_string)
    };
    let (active, identifiers) = (reference(ACTIVE), reference(IDENTIFIERS));
    let common = |side: &str| {
        let s = keeping(side, &had);
        let s = with_part(&s, ACTIVE, active.as_deref());
        with_part(&s, IDENTIFIERS, identifiers.as_deref())
    };
    let (mut text, conflicts) = merge3(&common(base), &common(ours), &common(theirs))?;
    // Active Context: the side that decided last.
    let newest = |es: &[Entry]| es.iter().map(|e| e.stamp.clone()).max().unwrap_or_default();
    let newer = if newest(&te) > newest(&oe) {
        theirs
    } else {
        ours
    };
    text = with_part(&text, ACTIVE, continuity::part_text(newer, ACTIVE));
    // Identifiers: every row of both sides, once.
    if let Some(mine) = continuity::part_text(ours, IDENTIFIERS) {
        let mut part = mine.trim_end().to_string();
        part.push('\n');
        let seen: HashSet<&str> = mine.lines().collect();
        for row in continuity::part_text(theirs, IDENTIFIERS)
            .unwrap_or("")
            .lines()
            .filter(|l| l.starts_with('|') && !seen.contains(l))
        {
            part.push_str(row);
            part.push('\n');
        }
        let tail = &mine[mine.trim_end().len()..];
        part.push_str(tail.strip_prefix('\n').unwrap_or(tail));
        text = with_part(&text, IDENTIFIERS, Some(&part));
    }
    // The decisions only one side had, each once, in time order after the shared ones.
    let mut new: Vec<Entry> = Vec::new();
    for e in oe.into_iter().chain(te) {
        if !had.contains(e.key.as_str()) && !new.iter().any(|n| n.key == e.key) {
            new.push(e);
        }
    }
    new.sort_by(|a, b| a.stamp.cmp(&b.stamp));
    let texts: Vec<String> = new.into_iter().map(|e| e.text).collect();
    Ok(Merged {
        text: continuity::append_entries(&text, &texts),
        conflicts,
    })
}

/// [`Merge3`] by `git merge-file` (the three texts in a scratch directory; hardened git, no
/// repository needed).
pub fn with_git(base: &str, ours: &str, theirs: &str) -> Result<(String, bool), FileError> {
    let dir = tempfile::tempdir().at("create a scratch directory in", &std::env::temp_dir())?;
    let (b, o, t) = (
        dir.path().join("base"),
        dir.path().join("ours"),
        dir.path().join("theirs"),
    );
    std::fs::write(&b, base).at("write", &b)?;
    std::fs::write(&o, ours).at("write", &o)?;
    std::fs::write(&t, theirs).at("write", &t)?;
    let out = crate::git::command(dir.path())
        .args([
            "merge-file",
            "-p",
            "-L",
            "ours",
            "-L",
            "base",
            "-L",
            "theirs",
        ])
        .arg(&o)
        .arg(&b)
        .arg(&t)
        .output()
        .at("run git merge-file in", dir.path())?;
    // merge-file exits with the number of conflicts, or a negative number on an error.
    match out.status.code() {
        Some(n) if (0..128).contains(&n) => {
            Ok((String::from_utf8_lossy(&out.stdout).into_owned(), n > 0))
        }
        _ => Err(FileError::new(
            "merge with git merge-file in",
            dir.path(),
            std::io::Error::other(String::from_utf8_lossy(&out.stderr).trim().to_string()),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decided(text: &str, id: &str, stamp: &str, title: &str) -> String {
        let entry = format!(
            "#### {stamp} - {title}\n<!-- trail:decision {id} -->\n**Decision**: {title}\n**Evidence**: none given\n**Test Scenarios**: none recorded\n"
        );
        let text = continuity::append_entry(text, &entry);
        continuity::set_active(
            &text,
            &[("Reasoning State", format!("last decision {stamp}: {title}"))],
        )
    }

    #[test]
    fn both_sides_decisions_are_kept_whole_and_in_time_order() {
        let base = continuity::ensure("# NOTES.md\n\nMy own notes.\n");
        let base = decided(&base, "d-0", "2026-11-01T00:00:00Z", "Shared");
        let ours = decided(&base, "d-a", "2026-11-02T00:00:00Z", "Postgres");
        let ours = ours.replace("My own notes.", "My own notes, edited here.");
        let theirs = decided(&base, "d-b", "2026-11-03T00:00:00Z", "Redis");
        let m = merge(&base, &ours, &theirs, &with_git).unwrap();
        assert!(!m.conflicts, "{}", m.text);
        let t = &m.text;
        for id in ["d-0", "d-a", "d-b"] {
            assert_eq!(
                t.matches(&format!("trail:decision {id} ")).count(),
                1,
                "{t}"
            );
        }
        assert_eq!(
            t.matches("**Evidence**: none given").count(),
            3,
            "every entry whole: {t}"
        );
        assert!(
            t.find("Postgres").unwrap() < t.find("d-b").unwrap(),
            "time order: {t}"
        );
        assert!(t.contains("My own notes, edited here."), "{t}");
        assert!(
            t.contains("last decision 2026-11-03T00:00:00Z: Redis"),
            "the newer side's: {t}"
        );
        assert_eq!(t.matches("Reasoning State").count(), 1, "{t}");
        // Merging the other way round gives the same decisions.
        let back = merge(&base, &theirs, &ours, &with_git).unwrap();
        assert_eq!(entries(&back.text).len(), 3);
    }

    #[test]
    fn a_file_both_sides_made_merges_and_the_persons_conflict_stays_one() {
        let empty = "";
        let ours = decided(
            &continuity::ensure("# NOTES.md\n"),
            "d-a",
            "2026-11-02T00:00:00Z",
            "A",
        );
        let theirs = decided(
            &continuity::ensure("# NOTES.md\n"),
            "d-b",
            "2026-11-01T00:00:00Z",
            "B",
        );
        let m = merge(empty, &ours, &theirs, &with_git).unwrap();
        assert!(!m.conflicts, "{}", m.text);
        assert_eq!(entries(&m.text).len(), 2, "{}", m.text);
        // The person's own line changed two ways is a conflict trail does not decide.
        let base = continuity::ensure("# NOTES.md\n\nport 5432\n");
        let m = merge(
            &base,
            &base.replace("5432", "5433"),
            &base.replace("5432", "6543"),
            &with_git,
        )
        .unwrap();
        assert!(m.conflicts && m.text.contains("<<<<<<< ours"), "{}", m.text);
    }
}
