//! git, run so that nothing in the repository can make it run code.
//!
//! A project is hostile ground (DESIGN, principle 10): a cloned repository's `.git/config` can
//! name a program for git to run — `core.fsmonitor` on any command that refreshes the index, a
//! `filter.<driver>.smudge` on checkout, `log.showSignature` (gpg) on `git show`, a pager, hooks.
//! trail only ever reads from git here, and reads in a way none of those apply to:
//!
//! - **plumbing only**: `cat-file blob` (raw object bytes: no filter, no textconv, no pager, no
//!   signature), `ls-tree`, `ls-files --cached` (no index refresh, so no fsmonitor);
//! - **programs switched off on the command line**, which beats every config file:
//!   `core.fsmonitor`, `core.hooksPath`, `core.pager`, `diff.external`, `core.sshCommand`,
//!   `credential.helper`, `core.askPass`, `protocol.allow=never` (no transport at all),
//!   `gc.auto=0` and `maintenance.auto=false` (no background work), and no optional locks;
//! - **or no git at all** where the files answer: which files git keeps is read from the index
//!   and HEAD's objects (`kept.rs`, `index.rs`, `objects.rs`), git asked only where they cannot
//!   be read (a worktree, a split index, a SHA-256 repository, …);
//! - **a cleared environment**: only `PATH` and `HOME` are passed on, so none of git's
//!   redirections (`GIT_DIR`, `GIT_WORK_TREE`, `GIT_INDEX_FILE`, `GIT_CONFIG_*`,
//!   `GIT_EXTERNAL_DIFF`, `GIT_PAGER`, `GIT_SSH*`, …) an agent's shell or the host may have set
//!   reaches it, and the system config is not read (`GIT_CONFIG_NOSYSTEM`).
//!
//! [`command`] is the one way trail (the library and the binary) runs git; the gate's own
//! question (`git check-ignore`, asked while judging `rm -rf build`) goes through it too.
//!
//! What cannot be switched off generically: `filter.<driver>.clean`/`smudge` and `textconv`
//! drivers are named per driver, so no `-c` clears them all. trail therefore never runs a
//! command that applies them: no `checkout`, `diff`/`show` without `--no-textconv`, `add`,
//! `status` (clean filters on a racy index), `stash`. trail writes what it reads with its own
//! safe writer (`fsutil::atomic_write_in`), never by letting git write into the tree.

use std::path::Path;
use std::process::{Command, Stdio};

mod index;
mod kept;
mod objects;

/// Config that would make git run a program, switched off.
const HARDENED: &[&str] = &[
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.untrackedCache=false",
    "core.sshCommand=",
    "core.askPass=",
    "credential.helper=",
    "diff.external=",
    "log.showSignature=false",
    "protocol.allow=never",
    "gc.auto=0",
    "maintenance.auto=false",
];

/// The only variables git is given: where programs are, and whose (global) config it reads.
const KEPT: &[&str] = &["PATH", "HOME"];

/// Whether `root` is inside a git work tree (or a repository).
pub fn is_repository(root: &Path) -> bool {
    command(root)
        .args(["rev-parse", "--git-dir"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A git command in `root`, hardened as the module says.
pub fn command(root: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("--no-pager")
        .arg("--no-optional-locks")
        .arg("-C")
        .arg(root);
    for kv in HARDENED {
        c.arg("-c").arg(kv);
    }
    c.env_clear();
    for var in KEPT {
        if let Some(v) = std::env::var_os(var) {
            c.env(var, v);
        }
    }
    c.env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .stdin(Stdio::null());
    c
}

/// Where a file's bytes are read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rev {
    /// The last commit (`git show HEAD:path`).
    Head,
    /// The index: what `git checkout -- path` would restore.
    Index,
}

impl Rev {
    fn prefix(self) -> &'static str {
        match self {
            Rev::Head => "HEAD:./",
            Rev::Index => ":./",
        }
    }
}

/// The bytes of `rel` (relative to `root`, `/`-separated; `root` may lie below the repository's
/// top) at `rev`, or `None` when there is no git, no repository, no such commit or no such file.
pub fn blob(root: &Path, rev: Rev, rel: &str) -> Option<Vec<u8>> {
    // A path that git would read as an option or a revision expression is not asked about.
    if rel.is_empty() || rel.starts_with('-') || rel.contains(':') {
        return None;
    }
    let out = command(root)
        .args(["cat-file", "blob"])
        .arg(format!("{}{rel}", rev.prefix()))
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

/// The files git keeps under any of `rels` (files or directories, relative to `root`): in its
/// index, or in the last commit though removed from the index since (`git rm` not yet
/// committed). Relative to `root`; empty when there is no git, no repository or nothing there.
pub fn files(root: &Path, rels: &[&str]) -> Vec<String> {
    asked(root, rels).unwrap_or_default()
}

/// [`files`], `None` when git could not answer (no git, no repository): an answer to remember.
pub fn asked(root: &Path, rels: &[&str]) -> Option<Vec<String>> {
    let rels: Vec<&&str> = rels
        .iter()
        .filter(|r| !r.is_empty() && !r.starts_with('-'))
        .collect();
    if rels.is_empty() {
        return Some(Vec::new());
    }
    // Read from the repository's files when it is a plain one; git only when that cannot be.
    kept::files(root, &rels).or_else(|| ls_files(root, &rels))
}

/// [`asked`]'s answer from `git ls-files` itself.
fn ls_files(root: &Path, rels: &[&&str]) -> Option<Vec<String>> {
    // A repository without a commit has no HEAD to add: asked again without it.
    let list = |with_head: bool| -> Option<Vec<u8>> {
        let mut c = command(root);
        c.args(["ls-files", "-z", "--cached"]);
        if with_head {
            c.arg("--with-tree=HEAD");
        }
        c.arg("--");
        // `:(literal)`: no wildcard in a name counts.
        for r in rels {
            c.arg(format!(":(literal){r}"));
        }
        let out = c.stderr(Stdio::null()).output().ok()?;
        out.status.success().then_some(out.stdout)
    };
    let stdout = list(true).or_else(|| list(false))?;
    let mut v: Vec<String> = stdout
        .split(|&b| b == 0)
        .filter(|n| !n.is_empty())
        .filter_map(|n| String::from_utf8(n.to_vec()).ok())
        .collect();
    v.dedup();
    Some(v)
}

/// A ref HEAD names, as a path under the git directory: `refs/…`, no `..`, no `.`, no empty
/// part, not absolute. What a repository's `HEAD` says is read as a file only then.
pub fn safe_ref(r: &str) -> bool {
    let r = r.trim();
    r.starts_with("refs/") && !r.split('/').any(|c| c.is_empty() || c == "." || c == "..")
}

/// Reads `bytes` as each file of git's this module parses itself (an index, a tree, a commit, a
/// delta against the bytes' first part), and checks what each accepts: paths that are not
/// empty, a delta's result of the size it states. The fuzz target (`fuzz/fuzz_targets/
/// git_files.rs`) and the property tests share it.
#[doc(hidden)]
pub fn read_as_every_git_file(bytes: &[u8]) {
    if let Some(paths) = index::paths(bytes) {
        assert!(paths.iter().all(|p| !p.is_empty()));
    }
    let _ = objects::tree_entries(bytes);
    let _ = objects::commit_tree(bytes);
    let _ = objects::offset_varint(bytes);
    let split = usize::from(bytes.first().copied().unwrap_or(0)).min(bytes.len());
    let (base, delta) = bytes.split_at(split);
    if let Some(out) = objects::apply_delta(base, delta) {
        assert!(out.len() <= 16 << 20);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use trail_testkit::git::git_ok as git;

    #[test]
    fn blobs_come_from_head_or_the_index_and_a_repository_cannot_run_code() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q"]);
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::write(root.join("a/one.md"), "committed\n").unwrap();
        std::fs::write(root.join("a/gone.md"), "committed, then git rm --cached\n").unwrap();
        git(root, &["add", "a"]);
        git(root, &["commit", "-qm", "one"]);
        std::fs::write(root.join("a/one.md"), "staged\n").unwrap();
        std::fs::write(root.join("a/two.md"), "only staged\n").unwrap();
        git(root, &["add", "a"]);
        git(root, &["rm", "-q", "--cached", "a/gone.md"]);
        // Everything that could run: a pager, an fsmonitor, a signature check, a smudge filter.
        let ran = root.join("ran");
        let evil = format!("sh -c 'touch {}'", ran.display());
        for (k, v) in [
            ("core.fsmonitor", evil.as_str()),
            ("core.pager", evil.as_str()),
            ("log.showSignature", "true"),
            ("gpg.program", evil.as_str()),
            ("filter.x.smudge", evil.as_str()),
            ("filter.x.textconv", evil.as_str()),
        ] {
            git(root, &["config", k, v]);
        }
        std::fs::write(root.join(".gitattributes"), "*.md filter=x diff=x\n").unwrap();
        assert_eq!(blob(root, Rev::Head, "a/one.md").unwrap(), b"committed\n");
        assert_eq!(blob(root, Rev::Index, "a/one.md").unwrap(), b"staged\n");
        assert_eq!(blob(root, Rev::Head, "a/two.md"), None);
        assert_eq!(
            blob(root, Rev::Index, "a/two.md").unwrap(),
            b"only staged\n"
        );
        // Removed from the index, still in the last commit: still kept.
        assert_eq!(files(root, &["a"]), ["a/gone.md", "a/one.md", "a/two.md"]);
        assert_eq!(files(root, &["*"]), Vec::<String>::new());
        assert_eq!(files(root, &["a/one.md", "b"]), ["a/one.md"]);
        // From a directory below the top, paths are relative to it.
        assert_eq!(
            blob(&root.join("a"), Rev::Head, "one.md").unwrap(),
            b"committed\n"
        );
        assert_eq!(
            files(&root.join("a"), &["."]),
            ["gone.md", "one.md", "two.md"]
        );
        assert!(!ran.exists(), "a repository's config ran a program");
        // Not a repository, or a path git would read as something else: nothing.
        let plain = tempfile::tempdir().unwrap();
        assert_eq!(blob(plain.path(), Rev::Head, "a"), None);
        assert!(files(plain.path(), &["a"]).is_empty());
        assert_eq!(blob(root, Rev::Head, "--output=x"), None);
        assert_eq!(blob(root, Rev::Head, "HEAD~1:a/one.md"), None);
    }
}
