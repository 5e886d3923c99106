//! What git keeps of the covered paths, remembered while git's answer cannot have changed.
//!
//! Healing runs at every SessionStart and asks git which covered files it keeps (so that a
//! journal deleted from `.trail/trajectory/` comes back). Asking reads the index and HEAD's
//! trees (`trail_base::git`), or runs `git ls-files` where they cannot be read (2–4 ms of a
//! session start whose budget is 10 ms, issue 12, Performance, and git's own 3.7 MB resident). The answer depends
//! on the index and on HEAD's commit only, so it is kept in `.trail/state/git-tracked` with a key
//! made of what identifies both, read from the repository's files without running git: the
//! index file's size, modification time and inode; HEAD; the commit HEAD's branch names (its
//! loose ref, else the packed refs' size and time); and the paths asked about. `git add`, `git
//! rm`, a commit, a checkout or a reset each changes one of them, and git is asked again.
//!
//! Only a plain repository is read so (a `.git` directory at or above the project): a worktree
//! or a submodule (`.git` a file), or anything unreadable, is asked every time, as before. The
//! remembered file is a cache: a torn or foreign one is asked past, never trusted.

use std::path::{Path, PathBuf};

use crate::fsutil;
use crate::layout::Layout;

/// The most of a ref or HEAD file read (a ref is 41 bytes; HEAD names one).
const SMALL: u64 = 4096;
/// The most of the remembered answer read.
const MAX_REMEMBERED: u64 = 1 << 20;

/// The files git keeps under `rels`, from the remembered answer when its key still holds; else
/// git is asked (and, with `remember`, the answer kept). Empty when git cannot answer.
pub fn files(root: &Path, rels: &[String], remember: bool) -> Vec<String> {
    let key = key(root, rels);
    if let Some(k) = &key
        && let Some(kept) = remembered(root, k)
    {
        return kept;
    }
    let asked: Vec<&str> = rels.iter().map(String::as_str).collect();
    let Some(kept) = crate::git::asked(root, &asked) else {
        return Vec::new();
    };
    if let Some(k) = key.filter(|_| remember) {
        // A cache: failing to keep it costs the next start a git run, nothing more.
        let _ = keep(root, &k, &kept);
    }
    kept
}

/// What identifies git's answer for `rels` now, or `None` when the repository is not a plain one
/// this reads.
fn key(root: &Path, rels: &[String]) -> Option<String> {
    let (work, git_dir) = root
        .ancestors()
        .find_map(|d| {
            let g = d.join(".git");
            std::fs::symlink_metadata(&g).ok().map(|m| (d, g, m))
        })
        .and_then(|(d, g, m)| m.is_dir().then_some((d, g)))?;
    let read = |p: &Path| fsutil::read_string_in(work, p, SMALL).ok();
    let stat = |p: &Path| -> String {
        use std::os::unix::fs::MetadataExt;
        std::fs::symlink_metadata(p).map_or_else(
            |_| "-".into(),
            |m| format!("{}.{}.{}.{}", m.len(), m.mtime(), m.mtime_nsec(), m.ino()),
        )
    };
    let head = read(&git_dir.join("HEAD"))?;
    let commit = match head.trim().strip_prefix("ref: ") {
        Some(r) if crate::git::safe_ref(r) => read(&git_dir.join(r))
            .unwrap_or_else(|| format!("packed {}", stat(&git_dir.join("packed-refs")))),
        Some(_) => return None,
        None => head.trim().to_string(),
    };
    let mut k = format!(
        "index {}\0head {}\0commit {}",
        stat(&git_dir.join("index")),
        head.trim(),
        commit.trim()
    );
    for r in rels {
        k.push('\0');
        k.push_str(r);
    }
    Some(crate::text::sha256_hex(k.as_bytes()))
}

fn path(root: &Path) -> PathBuf {
    Layout::new(root).git_tracked()
}

/// The remembered answer, when it was made under `key`.
fn remembered(root: &Path, key: &str) -> Option<Vec<String>> {
    let text = fsutil::read_string_in(root, &path(root), MAX_REMEMBERED).ok()?;
    let (k, kept) = text.split_once('\n')?;
    (k == key).then(|| {
        kept.split('\0')
            .filter(|f| !f.is_empty())
            .map(str::to_string)
            .collect()
    })
}

fn keep(root: &Path, key: &str, kept: &[String]) -> std::io::Result<()> {
    let text = format!("{key}\n{}", kept.join("\0"));
    Ok(fsutil::atomic_write_in(root, &path(root), text.as_bytes())?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::git;

    fn covered() -> Vec<String> {
        [".trail/trajectory", ".beads", "NOTES.md"]
            .iter()
            .map(|s| (*s).to_string())
            .collect()
    }

    #[test]
    fn the_answer_is_remembered_until_the_index_or_head_changes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q"]);
        std::fs::write(root.join("NOTES.md"), "# notes\n").unwrap();
        git(root, &["add", "NOTES.md"]);
        git(root, &["commit", "-qm", "one"]);
        assert_eq!(files(root, &covered(), true), ["NOTES.md"]);
        let k = key(root, &covered()).unwrap();
        assert_eq!(remembered(root, &k).unwrap(), ["NOTES.md"]);
        // The same question under the same index and HEAD: the same key.
        assert_eq!(key(root, &covered()), Some(k.clone()));
        // Another question is another key.
        assert_ne!(key(root, &covered()[..1]), Some(k.clone()));
        // `git add`: the index changed, git is asked again.
        std::fs::create_dir_all(root.join(".trail/trajectory")).unwrap();
        std::fs::write(root.join(".trail/trajectory/2026-01-01.jsonl"), "{}\n").unwrap();
        git(root, &["add", ".trail/trajectory"]);
        let k2 = key(root, &covered()).unwrap();
        assert_ne!(k2, k);
        assert_eq!(
            files(root, &covered(), true),
            [".trail/trajectory/2026-01-01.jsonl", "NOTES.md"]
        );
        // A commit moves HEAD's branch.
        git(root, &["commit", "-qm", "two"]);
        assert_ne!(key(root, &covered()).unwrap(), k2);
        // A remembered answer under another key is not used.
        keep(root, "stale", &["x".into()]).unwrap();
        assert_eq!(files(root, &covered(), true).len(), 2);
    }

    #[test]
    fn a_check_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q"]);
        assert!(files(root, &covered(), false).is_empty());
        assert!(!path(root).exists());
    }

    #[test]
    fn a_worktree_or_no_repository_is_asked_every_time() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert_eq!(key(root, &covered()), None);
        assert!(files(root, &covered(), true).is_empty());
        std::fs::write(root.join(".git"), "gitdir: /elsewhere\n").unwrap();
        assert_eq!(key(root, &covered()), None);
        assert!(!crate::git::safe_ref("refs/../../etc/passwd"));
        assert!(!crate::git::safe_ref("/etc/passwd"));
        assert!(crate::git::safe_ref("refs/heads/main"));
    }
}
