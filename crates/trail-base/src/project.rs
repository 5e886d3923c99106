//! Which project a directory belongs to, and how the pulse stream names it.
//!
//! A project is a repository, not a checkout: every `git worktree` of one repository is the same
//! project, found through the git *common* directory they share. Its name is what a person calls
//! it — the remote's (`origin`'s URL, last path component, `.git` dropped), else the main
//! checkout's directory name — and its [`Project::id`] tells apart two repositories that happen
//! to share a name (two checkouts called `app`). A directory outside any repository is a project
//! of its own.
//!
//! Resolved by reading `.git`, `HEAD`, `commondir` and `config` directly, never by running
//! `git`: this runs in hooks, where a process spawn costs more than everything else they do.
//! Every read goes through [`crate::fsutil::read_capped`] (no FIFO can hang a hook, no file can
//! be made huge), and anything unreadable falls back to the directory itself.
//!
//! Records trail writes for a project carry its id and branch as tags ([`Project::tags`]), so
//! rehydration can keep two same-named repositories' threads apart without a new record field.

use std::path::{Path, PathBuf};

/// The tag prefix naming the project (by id) a record's `proj` is.
pub const ID_TAG: &str = "project:";
/// The tag prefix naming the branch a record was written on.
pub const BRANCH_TAG: &str = "branch:";

/// The small files read here are a few hundred bytes; anything past this is not git's.
const MAX_GIT_FILE: u64 = 1 << 20;

/// A project as trail names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Project {
    /// What the pulse stream calls it (a record's `focus.proj`).
    pub name: String,
    /// Stable across the worktrees of one repository, different between repositories: the first
    /// 12 hex digits of the SHA-256 of the canonical common directory's path (of the directory
    /// itself outside git).
    pub id: String,
    /// The top of the working tree the directory lies in (the directory itself outside git).
    pub root: PathBuf,
    /// The checked-out branch, `None` outside git or on a detached HEAD.
    pub branch: Option<String>,
}

/// What `trail status --json` says of the project.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Named {
    pub name: String,
    pub id: String,
}

impl Project {
    /// The project `dir` lies in: the nearest enclosing git working tree, else `dir` itself.
    pub fn discover(dir: &Path) -> Project {
        match find_repo(dir) {
            Some(repo) => repo.project(),
            None => Project {
                name: dir_name(dir),
                id: id_of(dir),
                root: dir.to_path_buf(),
                branch: None,
            },
        }
    }

    /// Name and id, as `trail status --json` shows them.
    pub fn named(&self) -> Named {
        Named {
            name: self.name.clone(),
            id: self.id.clone(),
        }
    }

    /// The tags that place a record in this project: its id, and the branch when there is one.
    pub fn tags(&self) -> Vec<String> {
        let mut t = vec![format!("{ID_TAG}{}", self.id)];
        if let Some(b) = &self.branch {
            t.push(format!("{BRANCH_TAG}{b}"));
        }
        t
    }
}

/// The project id a record's tags name, if any.
pub fn tagged_id(tags: &[String]) -> Option<&str> {
    tags.iter().find_map(|t| t.strip_prefix(ID_TAG))
}

/// A working tree and the git directories behind it.
struct Repo {
    /// The top of the working tree (where `.git` is).
    work_tree: PathBuf,
    /// This checkout's own git directory (`HEAD` lives here).
    git_dir: PathBuf,
    /// The directory every worktree of the repository shares (`config` lives here).
    common_dir: PathBuf,
}

impl Repo {
    fn project(&self) -> Project {
        let common = canonical(&self.common_dir);
        Project {
            name: remote_name(&common)
                .unwrap_or_else(|| main_checkout_name(&common, &self.work_tree)),
            id: id_of(&common),
            root: self.work_tree.clone(),
            branch: branch(&self.git_dir),
        }
    }
}

/// The nearest `.git` at or above `dir`: a directory (a main checkout), or a file saying
/// `gitdir: …` (a linked worktree or a submodule), whose git directory names the common one in
/// `commondir`.
fn find_repo(dir: &Path) -> Option<Repo> {
    let mut at = Some(dir);
    while let Some(d) = at {
        let dot_git = d.join(".git");
        if let Ok(meta) = std::fs::metadata(&dot_git) {
            let git_dir = if meta.is_dir() {
                dot_git
            } else {
                let text = read_small(&dot_git)?;
                let target = text.lines().next()?.strip_prefix("gitdir:")?.trim();
                d.join(target)
            };
            let common_dir = match read_small(&git_dir.join("commondir")) {
                Some(c) if !c.trim().is_empty() => git_dir.join(c.trim()),
                _ => git_dir.clone(),
            };
            return Some(Repo {
                work_tree: d.to_path_buf(),
                git_dir,
                common_dir,
            });
        }
        at = d.parent();
    }
    None
}

fn read_small(path: &Path) -> Option<String> {
    let bytes = crate::fsutil::read_capped(path, MAX_GIT_FILE).ok()?;
    String::from_utf8(bytes).ok()
}

/// The path with `..` and symlinks resolved, so that every worktree hashes the same string.
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn id_of(path: &Path) -> String {
    let path = canonical(path);
    crate::text::sha256_hex(path.as_os_str().as_encoded_bytes())[..12].to_string()
}

fn dir_name(dir: &Path) -> String {
    canonical(dir)
        .file_name()
        .or_else(|| dir.file_name())
        .map_or_else(|| "project".into(), |n| n.to_string_lossy().into_owned())
}

/// The name the repository's remote gives it: `origin`'s, else the first remote's with a URL.
fn remote_name(common_dir: &Path) -> Option<String> {
    let config = read_small(&common_dir.join("config"))?;
    let mut remote: Option<&str> = None;
    let mut found: Vec<(&str, &str)> = Vec::new();
    for line in config.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            remote = line
                .strip_prefix("[remote \"")
                .and_then(|r| r.strip_suffix("\"]"));
            continue;
        }
        if let Some(r) = remote
            && let Some((key, value)) = line.split_once('=')
            && key.trim().eq_ignore_ascii_case("url")
        {
            found.push((r, value.trim().trim_matches('"')));
        }
    }
    let url = found
        .iter()
        .find(|(r, _)| *r == "origin")
        .or(found.first())?
        .1;
    name_from_url(url)
}

/// `git@host:o/app.git`, `https://host/o/app/`, `/srv/app.git` → `app`.
fn name_from_url(url: &str) -> Option<String> {
    let url = url.trim().trim_end_matches(['/', '\\']);
    let last = url.rsplit(['/', '\\', ':']).next()?;
    let name = last.strip_suffix(".git").unwrap_or(last);
    (!name.is_empty()).then(|| name.to_string())
}

/// The main checkout's directory name: the parent of a `.git` common directory, or a bare
/// repository's own name without `.git`.
fn main_checkout_name(common_dir: &Path, work_tree: &Path) -> String {
    match common_dir.file_name().and_then(|n| n.to_str()) {
        Some(".git") => common_dir
            .parent()
            .map_or_else(|| dir_name(work_tree), dir_name),
        Some(n) if !n.is_empty() => n.strip_suffix(".git").unwrap_or(n).to_string(),
        _ => dir_name(work_tree),
    }
}

/// The commit `HEAD` names in the repository holding `dir`, read from git's files (`HEAD`, the
/// loose ref, `packed-refs`) without running git: PostToolUse of a `git commit` asks, and a
/// hook's budget has no room for a process. `None` outside git, before the first commit, or
/// when a file is unreadable.
pub fn head_commit(dir: &Path) -> Option<String> {
    let repo = find_repo(dir)?;
    let head = read_small(&repo.git_dir.join("HEAD"))?;
    let head = head.trim();
    let Some(name) = head.strip_prefix("ref:").map(str::trim) else {
        return is_object_id(head).then(|| head.to_string());
    };
    if !name.starts_with("refs/") || name.split('/').any(|p| p == ".." || p.is_empty()) {
        return None;
    }
    for dir in [&repo.git_dir, &repo.common_dir] {
        if let Some(id) = read_small(&dir.join(name)) {
            let id = id.trim();
            return is_object_id(id).then(|| id.to_string());
        }
    }
    let packed = read_small(&repo.common_dir.join("packed-refs"))?;
    packed.lines().find_map(|l| {
        let (id, r) = l.split_once(' ')?;
        (r == name && is_object_id(id)).then(|| id.to_string())
    })
}

/// A SHA-1 or SHA-256 object id in hex.
fn is_object_id(s: &str) -> bool {
    matches!(s.len(), 40 | 64) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The branch `HEAD` points at; `None` when it is detached or unreadable.
fn branch(git_dir: &Path) -> Option<String> {
    let head = read_small(&git_dir.join("HEAD"))?;
    let b = head.trim().strip_prefix("ref: refs/heads/")?;
    (!b.is_empty() && !b.contains(['\n', '\r'])).then(|| b.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remote_url_gives_the_name() {
        for (url, want) in [
            ("git@github.com:acme/app.git", Some("app")),
            ("https://github.com/acme/app", Some("app")),
            ("https://github.com/acme/app.git/", Some("app")),
            ("ssh://git@host:22/srv/app.git", Some("app")),
            ("/srv/git/app.git", Some("app")),
            ("C:\\repos\\app", Some("app")),
            ("host:app.git", Some("app")),
            ("", None),
            ("/", None),
        ] {
            assert_eq!(name_from_url(url).as_deref(), want, "{url}");
        }
    }

    #[test]
    fn origin_wins_over_other_remotes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("config"),
            "[core]\n\tbare = false\n[remote \"upstream\"]\n\turl = https://h/up/first.git\n[remote \"origin\"]\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n\turl = git@h:me/second.git\n[branch \"main\"]\n\tremote = origin\n",
        )
        .unwrap();
        assert_eq!(remote_name(dir.path()).as_deref(), Some("second"));
        std::fs::write(
            dir.path().join("config"),
            "[remote \"upstream\"]\n\turl = https://h/up/first.git\n",
        )
        .unwrap();
        assert_eq!(remote_name(dir.path()).as_deref(), Some("first"));
    }

    #[test]
    fn a_directory_outside_git_is_its_own_project() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("notes");
        std::fs::create_dir(&plain).unwrap();
        let p = Project::discover(&plain);
        assert_eq!(p.name, "notes");
        assert_eq!(p.id.len(), 12);
        assert_eq!(p.branch, None);
        assert_eq!(p.tags(), [format!("project:{}", p.id)]);
        assert_eq!(tagged_id(&p.tags()), Some(p.id.as_str()));
    }

    #[test]
    fn a_worktree_file_leads_to_the_common_directory_and_its_own_head() {
        // The layout `git worktree add` makes, written by hand (the CLI tests use real git).
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("app");
        let git = main.join(".git");
        let wt_git = git.join("worktrees").join("feature");
        std::fs::create_dir_all(&wt_git).unwrap();
        std::fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(git.join("config"), "[core]\n\tbare = false\n").unwrap();
        std::fs::write(wt_git.join("HEAD"), "ref: refs/heads/feature/x\n").unwrap();
        std::fs::write(wt_git.join("commondir"), "../..\n").unwrap();
        let wt = dir.path().join("elsewhere").join("app-feature");
        std::fs::create_dir_all(wt.join("src")).unwrap();
        std::fs::write(wt.join(".git"), format!("gitdir: {}\n", wt_git.display())).unwrap();
        let a = Project::discover(&main);
        let b = Project::discover(&wt.join("src"));
        assert_eq!((a.name.as_str(), b.name.as_str()), ("app", "app"));
        assert_eq!(a.id, b.id);
        assert_eq!(b.root, wt);
        assert_eq!(a.branch.as_deref(), Some("main"));
        assert_eq!(b.branch.as_deref(), Some("feature/x"));
        // Detached: no branch.
        std::fs::write(
            wt_git.join("HEAD"),
            "0123456789abcdef0123456789abcdef01234567\n",
        )
        .unwrap();
        assert_eq!(Project::discover(&wt).branch, None);
    }
}
