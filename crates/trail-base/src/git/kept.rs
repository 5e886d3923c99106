//! The files git keeps under some paths, read from the repository's files without running git.
//!
//! The answer is `git ls-files --cached --with-tree=HEAD -- :(literal)PATH…`: the index's paths,
//! and HEAD's that were removed from the index since (a `git rm` not yet committed). Running git
//! for it costs its start-up (about 3.7 MB resident on this kind of machine, over a hook's 4 MB
//! budget once counted with the hook); reading the index and HEAD's tree costs a few small reads.
//!
//! Only a plain repository is read (a `.git` directory at or above the project, SHA-1 ids, no
//! replacement objects); anything else, or anything this does not understand, is `None`, and
//! the caller asks git. The tests compare both answers on real repositories.

use std::collections::BTreeSet;
use std::path::Path;

use super::index;
use super::objects::{self, Kind, Oid, Store};

/// The largest index read (a repository of a few hundred thousand files); larger, git is asked.
const MAX_INDEX: u64 = 32 << 20;
/// The most of a ref, HEAD or config file read.
const MAX_SMALL: u64 = 1 << 20;
/// The deepest tree walked under one path.
const MAX_DEPTH: usize = 256;

/// The files git keeps at or under `rels` (relative to `root`), relative to `root` and sorted;
/// `None` when this cannot read the repository and git must be asked.
pub(crate) fn files(root: &Path, rels: &[&&str]) -> Option<Vec<String>> {
    let (work, git_dir) = root.ancestors().find_map(|d| {
        let g = d.join(".git");
        std::fs::symlink_metadata(&g).is_ok().then_some((d, g))
    })?;
    if !is_plain(work, &git_dir) {
        return None;
    }
    let prefix = relative_prefix(root, work)?;
    let wanted: Vec<Vec<u8>> = rels
        .iter()
        .map(|r| literal(&prefix, r))
        .collect::<Option<_>>()?;
    let read_small = |p: &Path| read_bounded(work, p, MAX_SMALL).ok();
    let config = read_small(&git_dir.join("config"))?;
    // A SHA-256 repository's ids are not read here; a reftable's refs are not files.
    let lowered = String::from_utf8_lossy(&config).to_ascii_lowercase();
    if lowered.contains("objectformat") || lowered.contains("refstorage") {
        return None;
    }
    let mut kept = BTreeSet::new();
    match read_bounded(work, &git_dir.join("index"), MAX_INDEX) {
        Ok(bytes) => {
            let paths = index::paths(&bytes)?;
            kept.extend(paths.into_iter().filter(|p| under_any(p, &wanted)));
        }
        // No index yet: nothing was ever added.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(_) => return None,
    }
    if let Some(commit) = head_commit(work, &git_dir)? {
        let mut store = Store::new(work, &git_dir.join("objects"));
        let (kind, body) = store.read(&commit)?;
        let tree = match kind {
            Kind::Commit => objects::commit_tree(&body)?,
            _ => return None,
        };
        for want in &wanted {
            walk_to(&mut store, tree, want, &mut kept)?;
        }
    }
    Some(
        kept.into_iter()
            .filter_map(|p| String::from_utf8(p[prefix.len()..].to_vec()).ok())
            .collect(),
    )
}

/// A `.git` directory (not a worktree's or submodule's `.git` file) with no replacement refs,
/// which git would follow and this does not.
fn is_plain(work: &Path, git_dir: &Path) -> bool {
    let is_dir = std::fs::symlink_metadata(git_dir).is_ok_and(|m| m.is_dir());
    let replaced = std::fs::read_dir(git_dir.join("refs/replace"))
        .is_ok_and(|mut d| d.next().is_some())
        || read_bounded(work, &git_dir.join("packed-refs"), MAX_INDEX)
            .is_ok_and(|p| memchr::memmem::find(&p, b"refs/replace/").is_some());
    is_dir && !replaced
}

/// `root` below the work tree's top, as the index spells it (`sub/dir/`, or empty).
fn relative_prefix(root: &Path, work: &Path) -> Option<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    let rel = root.strip_prefix(work).ok()?;
    let mut prefix = Vec::new();
    for c in rel.components() {
        match c {
            std::path::Component::Normal(n) => {
                prefix.extend_from_slice(n.as_bytes());
                prefix.push(b'/');
            }
            std::path::Component::CurDir => {}
            _ => return None,
        }
    }
    Some(prefix)
}

/// A literal pathspec as a path from the top: `None` for one this does not read as git would
/// (`.`/`..` parts, an absolute path, empty parts).
fn literal(prefix: &[u8], rel: &str) -> Option<Vec<u8>> {
    let rel = rel.strip_suffix('/').unwrap_or(rel);
    if rel.is_empty()
        || rel
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == "..")
    {
        return None;
    }
    let mut full = prefix.to_vec();
    full.extend_from_slice(rel.as_bytes());
    Some(full)
}

fn under_any(path: &[u8], wanted: &[Vec<u8>]) -> bool {
    wanted.iter().any(|w| {
        path.strip_prefix(w.as_slice())
            .is_some_and(|rest| rest.is_empty() || rest[0] == b'/')
    })
}

/// The commit HEAD names: `Some(None)` on a branch with no commit yet.
fn head_commit(work: &Path, git_dir: &Path) -> Option<Option<Oid>> {
    let read_small = |p: &Path| read_bounded(work, p, MAX_SMALL).ok();
    let head = read_small(&git_dir.join("HEAD"))?;
    let head = std::str::from_utf8(&head).ok()?.trim();
    let Some(name) = head.strip_prefix("ref: ") else {
        return objects::parse_hex(head.as_bytes()).map(Some);
    };
    let name = name.trim();
    if !super::safe_ref(name) {
        return None;
    }
    if let Some(loose) = read_small(&git_dir.join(name)) {
        let text = std::str::from_utf8(&loose).ok()?.trim();
        // A symbolic ref that names another: left to git.
        return objects::parse_hex(text.as_bytes()).map(Some);
    }
    let packed = match read_bounded(work, &git_dir.join("packed-refs"), MAX_INDEX) {
        Ok(p) => p,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Some(None),
        Err(_) => return None,
    };
    let packed = std::str::from_utf8(&packed).ok()?;
    let found = packed
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with('^'))
        .find_map(|l| l.split_once(' ').filter(|(_, r)| *r == name));
    match found {
        Some((hex, _)) => objects::parse_hex(hex.as_bytes()).map(Some),
        None => Some(None),
    }
}

/// The paths of HEAD's tree at `want` or under it, added to `kept`.
fn walk_to(store: &mut Store, root: Oid, want: &[u8], kept: &mut BTreeSet<Vec<u8>>) -> Option<()> {
    let parts: Vec<&[u8]> = want.split(|&b| b == b'/').collect();
    let mut tree = root;
    for (i, part) in parts.iter().enumerate() {
        let body = read_tree(store, &tree)?;
        let entries = objects::tree_entries(&body)?;
        let Some(e) = entries.iter().find(|e| e.name == *part) else {
            return Some(());
        };
        let last = i + 1 == parts.len();
        match (e.is_tree, last) {
            (false, true) => {
                kept.insert(want.to_vec());
                return Some(());
            }
            // A file where a directory was asked: nothing under it.
            (false, false) => return Some(()),
            (true, true) => return list_all(store, e.oid, want.to_vec(), kept, 0),
            (true, false) => tree = e.oid,
        }
    }
    Some(())
}

fn list_all(
    store: &mut Store,
    tree: Oid,
    at: Vec<u8>,
    kept: &mut BTreeSet<Vec<u8>>,
    depth: usize,
) -> Option<()> {
    if depth > MAX_DEPTH {
        return None;
    }
    let body = read_tree(store, &tree)?;
    for e in objects::tree_entries(&body)? {
        let mut path = at.clone();
        path.push(b'/');
        path.extend_from_slice(e.name);
        if e.is_tree {
            list_all(store, e.oid, path, kept, depth + 1)?;
        } else {
            kept.insert(path);
        }
    }
    Some(())
}

fn read_tree(store: &mut Store, oid: &Oid) -> Option<Vec<u8>> {
    match store.read(oid)? {
        (Kind::Tree, body) => Some(body),
        _ => None,
    }
}

/// A file of the repository, read as a project's files are (`fsutil::read_in`): no symlink
/// or FIFO below the work tree followed or waited on, at most `max` bytes.
fn read_bounded(work: &Path, path: &Path, max: u64) -> std::io::Result<Vec<u8>> {
    crate::fsutil::read_in(work, path, max).map_err(std::io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use trail_testkit::git::{git, git_ok};

    const RELS: &[&str] = &[".trail/trajectory", "NOTES.md", "docs/", "sub"];

    /// This module's answer, which must be one, and git's own, which must agree with it.
    fn both(root: &Path, rels: &[&str]) -> (Vec<String>, Vec<String>) {
        let rels: Vec<&&str> = rels.iter().collect();
        let read = files(root, &rels).expect("a plain repository is read without git");
        let asked = super::super::ls_files(root, &rels).expect("git answers");
        (read, asked)
    }

    fn agree(root: &Path, what: &str) {
        let (read, asked) = both(root, RELS);
        assert_eq!(read, asked, "{what}");
    }

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// The repository's one pack's file ending in `ext`.
    fn pack_file(root: &Path, ext: &str) -> std::path::PathBuf {
        std::fs::read_dir(root.join(".git/objects/pack"))
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|x| x == ext))
            .unwrap()
    }

    /// A repository with history enough for a pack to store trees as deltas.
    fn history(root: &Path) {
        git_ok(root, &["init", "-q"]);
        for i in 0..12 {
            write(root, &format!("docs/page{i}.md"), "a page\n");
        }
        for round in 0..25 {
            write(
                root,
                &format!(".trail/trajectory/2026-01-{:02}.jsonl", round % 9 + 1),
                &format!("{{\"n\":{round}}}\n"),
            );
            write(
                root,
                &format!("docs/page{}.md", round % 12),
                &format!("edit {round}\n"),
            );
            write(root, "sub/deep/er/still/file.txt", &format!("{round}\n"));
            git_ok(root, &["add", "-A"]);
            git_ok(root, &["commit", "-qm", &format!("round {round}")]);
        }
        write(root, "NOTES.md", "# notes\n");
        write(root, "docs/ünï code.md", "x\n");
        git_ok(root, &["add", "-A"]);
        git_ok(root, &["commit", "-qm", "notes"]);
    }

    #[test]
    fn loose_objects_and_every_kind_of_index_entry_agree_with_git() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git_ok(root, &["init", "-q"]);
        // No commit and no index yet.
        agree(root, "empty repository");
        write(root, "NOTES.md", "# notes\n");
        git_ok(root, &["add", "NOTES.md"]);
        agree(root, "staged before the first commit");
        history(root);
        agree(root, "loose history");
        // Removed from the index only: HEAD still has it, and so does the answer.
        git_ok(
            root,
            &["rm", "-q", "--cached", ".trail/trajectory/2026-01-03.jsonl"],
        );
        git_ok(root, &["rm", "-q", "docs/page4.md"]);
        // Staged only, and intended only (an extended entry: the index becomes version 3).
        write(root, "docs/new.md", "new\n");
        git_ok(root, &["add", "docs/new.md"]);
        write(root, ".trail/trajectory/intent.jsonl", "{}\n");
        git_ok(root, &["add", "-N", ".trail/trajectory/intent.jsonl"]);
        agree(root, "removals, additions and an intent to add");
        git_ok(root, &["update-index", "--index-version", "4"]);
        agree(root, "index version 4");
        // From a directory below the top, paths are relative to it.
        let (read, asked) = both(&root.join("sub"), &["deep"]);
        assert_eq!(read, asked);
        assert_eq!(read, ["deep/er/still/file.txt"]);
    }

    #[test]
    fn packed_history_with_offset_and_id_deltas_agrees_with_git() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        history(root);
        git_ok(root, &["gc", "-q", "--aggressive"]);
        git_ok(root, &["pack-refs", "--all"]);
        assert!(
            !root.join(".git/refs/heads/main").exists(),
            "HEAD's branch is packed"
        );
        // Some tree is stored as a delta (a line with its depth and base), so deltas are read.
        let idx = pack_file(root, "idx");
        assert!(
            git_ok(root, &["verify-pack", "-v", idx.to_str().unwrap()])
                .lines()
                .any(|l| l.contains(" tree ") && l.split_whitespace().count() == 7)
        );
        git_ok(root, &["rm", "-q", "--cached", "NOTES.md"]);
        agree(root, "packed");
        // An old commit's trees are the deltas (git keeps the newest whole); a detached HEAD
        // names its commit itself.
        git_ok(root, &["add", "NOTES.md"]);
        git_ok(root, &["checkout", "-q", "--detach", "HEAD~20"]);
        agree(root, "detached, offset deltas");
        git_ok(
            root,
            &[
                "-c",
                "repack.useDeltaBaseOffset=false",
                "repack",
                "-q",
                "-a",
                "-d",
                "-f",
            ],
        );
        agree(root, "deltas naming their base by id");
    }

    #[test]
    fn a_conflict_agrees_with_git_and_what_this_cannot_read_is_left_to_git() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        history(root);
        git_ok(root, &["checkout", "-q", "-b", "other"]);
        write(root, "NOTES.md", "# other\n");
        git_ok(root, &["commit", "-qam", "other"]);
        git_ok(root, &["checkout", "-q", "main"]);
        write(root, "NOTES.md", "# main\n");
        git_ok(root, &["commit", "-qam", "main"]);
        assert!(!git(root, &["merge", "-q", "other"]).status.success());
        agree(root, "unmerged entries");
        git_ok(root, &["merge", "--abort"]);
        // A split index keeps its entries elsewhere: git is asked, and answers.
        git_ok(root, &["update-index", "--split-index"]);
        let rels: Vec<&&str> = RELS.iter().collect();
        assert_eq!(files(root, &rels), None);
        let asked = super::super::asked(root, RELS).unwrap();
        assert!(asked.contains(&"NOTES.md".to_string()));
        git_ok(root, &["update-index", "--no-split-index"]);
        // A replacement object git would follow: left to git.
        let head = git_ok(root, &["rev-parse", "HEAD"]);
        let parent = git_ok(root, &["rev-parse", "HEAD~1"]);
        git_ok(root, &["replace", head.trim(), parent.trim()]);
        assert_eq!(files(root, &rels), None);
        // A worktree's `.git` is a file: left to git.
        let wt = tempfile::tempdir().unwrap();
        let wt_root = wt.path().join("wt");
        git_ok(root, &["worktree", "add", "-q", wt_root.to_str().unwrap()]);
        assert_eq!(files(&wt_root, &rels), None);
        // A pathspec this does not read as git would.
        assert_eq!(files(root, &[&"../x"]), None);
        assert_eq!(files(root, &[&"a//b"]), None);
    }

    #[test]
    fn a_linked_or_fifo_index_is_not_followed_or_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        history(root);
        let rels: Vec<&&str> = RELS.iter().collect();
        let index = root.join(".git/index");
        let elsewhere = dir.path().join("elsewhere-index");
        std::fs::rename(&index, &elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &index).unwrap();
        assert_eq!(files(root, &rels), None, "a link is not followed");
        std::fs::remove_file(&index).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &index,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        // A FIFO with no writer would block a plain open for ever.
        assert_eq!(files(root, &rels), None, "a FIFO is refused, not waited on");
    }

    #[test]
    fn a_corrupt_object_is_left_to_git_not_misread() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        history(root);
        git_ok(root, &["gc", "-q"]);
        let pack = pack_file(root, "pack");
        let good = std::fs::read(&pack).unwrap();
        let rels: Vec<&&str> = RELS.iter().collect();
        let want = files(root, &rels).unwrap();
        // Every byte of the pack's body flipped in turn, in steps: never a panic, and never an
        // answer that differs from the true one without saying it could not read.
        let mut perms = std::fs::metadata(&pack).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        perms.set_readonly(false);
        std::fs::set_permissions(&pack, perms).unwrap();
        for at in (12..good.len() - 20).step_by(7) {
            let mut bad = good.clone();
            bad[at] ^= 0x5a;
            std::fs::write(&pack, &bad).unwrap();
            if let Some(got) = files(root, &rels) {
                assert_eq!(got, want, "byte {at} flipped");
            }
        }
        std::fs::write(&pack, &good).unwrap();
    }
}
