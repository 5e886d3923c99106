//! Real git for a test's setup, isolated from the machine it runs on.
//!
//! A helper that runs plain `git` reads the developer's `~/.gitconfig` and `/etc/gitconfig`: a
//! `core.hooksPath`, `commit.gpgsign`, `init.defaultBranch` or an identity there changes what a
//! test sees, or fails it on one machine and not another. [`Git`] reads neither
//! (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL=/dev/null`), commits as a fixed identity, signs
//! nothing and names the first branch `main`. `HOME` is the repository's directory unless the
//! test sets another, so a hook git runs (trail's own, once installed) writes nothing under the
//! home of the person running the tests.

use std::ffi::OsString;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The identity a test's commits carry unless it asks for another ([`Git::identity`]).
pub const NAME: &str = "Test Person";
/// The address of [`NAME`] (`.invalid`: RFC 2606, never delivered).
pub const EMAIL: &str = "test@example.invalid";

/// One git invocation being set up: where it runs, as whom, with which extra variables.
#[derive(Clone, Debug)]
pub struct Git {
    place: Place,
    env: Vec<(OsString, Option<OsString>)>,
    name: String,
    email: String,
}

#[derive(Clone, Debug)]
enum Place {
    /// `git -C DIR`: a working tree (or a directory to `init`).
    WorkTree(PathBuf),
    /// `git --git-dir DIR`: a bare repository, or the object store of one.
    GitDir(PathBuf),
}

impl Git {
    /// git run in the working tree `dir` (`git -C dir`).
    pub fn at(dir: impl AsRef<Path>) -> Git {
        Git::new(Place::WorkTree(dir.as_ref().to_path_buf()))
    }

    /// git run on the repository `dir` itself (`git --git-dir dir`), for bare repositories.
    pub fn git_dir(dir: impl AsRef<Path>) -> Git {
        Git::new(Place::GitDir(dir.as_ref().to_path_buf()))
    }

    fn new(place: Place) -> Git {
        Git {
            place,
            env: Vec::new(),
            name: NAME.to_string(),
            email: EMAIL.to_string(),
        }
    }

    /// Commit as someone else (a test that tells two people apart).
    #[must_use]
    pub fn identity(mut self, name: &str, email: &str) -> Git {
        self.name = name.to_string();
        self.email = email.to_string();
        self
    }

    /// Set a variable for this git (`HOME` for a hook that reads it, `GIT_INDEX_FILE`, …).
    #[must_use]
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Git {
        self.env.push((key.into(), Some(value.into())));
        self
    }

    /// Remove a variable the test process has (`TRAIL_SESSION` for a person's own commit).
    #[must_use]
    pub fn env_remove(mut self, key: impl Into<OsString>) -> Git {
        self.env.push((key.into(), None));
        self
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new("git");
        match &self.place {
            Place::WorkTree(dir) => c.arg("-C").arg(dir),
            Place::GitDir(dir) => c.arg("--git-dir").arg(dir),
        };
        let home = match &self.place {
            Place::WorkTree(dir) | Place::GitDir(dir) => dir,
        };
        c.args(["-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"])
            .args(["-c", "init.defaultBranch=main"])
            .args(args)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("HOME", home)
            .env("GIT_AUTHOR_NAME", &self.name)
            .env("GIT_AUTHOR_EMAIL", &self.email)
            .env("GIT_COMMITTER_NAME", &self.name)
            .env("GIT_COMMITTER_EMAIL", &self.email)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE");
        for (k, v) in &self.env {
            match v {
                Some(v) => c.env(k, v),
                None => c.env_remove(k),
            };
        }
        c
    }

    /// Run `git ARGS` and return what it did, success or not (a test that expects a refusal).
    pub fn run(&self, args: &[&str]) -> Output {
        self.run_with_input(args, None)
    }

    /// Run `git ARGS`, which must succeed; its stdout, trimmed.
    ///
    /// # Panics
    /// When git cannot start or exits non-zero: the message has the arguments, stdout and stderr.
    pub fn ok(&self, args: &[&str]) -> String {
        checked(args, &self.run(args))
    }

    /// Run `git ARGS` with `input` on stdin (`hash-object --stdin`, `mktree`, `fast-import`),
    /// which must succeed; its stdout, trimmed.
    pub fn ok_with_input(&self, args: &[&str], input: &[u8]) -> String {
        checked(args, &self.run_with_input(args, Some(input)))
    }

    fn run_with_input(&self, args: &[&str], input: Option<&[u8]>) -> Output {
        let mut c = self.command(args);
        c.stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
        let mut child = c
            .spawn()
            .unwrap_or_else(|e| panic!("git {args:?} could not start: {e} (is git installed?)"));
        if let (Some(bytes), Some(mut stdin)) = (input, child.stdin.take()) {
            stdin
                .write_all(bytes)
                .unwrap_or_else(|e| panic!("git {args:?}: writing its stdin: {e}"));
        }
        child
            .wait_with_output()
            .unwrap_or_else(|e| panic!("git {args:?}: {e}"))
    }
}

fn checked(args: &[&str], out: &Output) -> String {
    assert!(
        out.status.success(),
        "git {args:?} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `git ARGS` in the working tree `dir`, whatever its outcome.
pub fn git(dir: &Path, args: &[&str]) -> Output {
    Git::at(dir).run(args)
}

/// `git ARGS` in the working tree `dir`, which must succeed; its stdout, trimmed.
pub fn git_ok(dir: &Path, args: &[&str]) -> String {
    Git::at(dir).ok(args)
}

/// A repository at `dir` (created if missing) on `main`, with nothing committed.
pub fn init(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    git_ok(dir, &["init", "-q"]);
    dir.to_path_buf()
}

/// A repository at `dir` on `main` with one commit (`README.md`), for a test that needs a `HEAD`.
pub fn repo_with_commit(dir: &Path) -> PathBuf {
    init(dir);
    std::fs::write(dir.join("README.md"), "hello\n")
        .unwrap_or_else(|e| panic!("writing {}/README.md: {e}", dir.display()));
    git_ok(dir, &["add", "README.md"]);
    git_ok(dir, &["commit", "-qm", "first"]);
    dir.to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "trail-testkit-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The person's own git configuration must not reach a test: a global `core.hooksPath` whose
    /// hook refuses every commit would fail `repo_with_commit` if it were read.
    #[test]
    fn the_persons_git_configuration_is_not_read() {
        let dir = scratch();
        let home = dir.join("home");
        let hooks = home.join("hooks");
        std::fs::create_dir_all(&hooks).unwrap();
        let hook = hooks.join("pre-commit");
        std::fs::write(&hook, "#!/bin/sh\nexit 1\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        std::fs::write(
            home.join(".gitconfig"),
            format!(
                "[core]\n\thooksPath = {}\n[init]\n\tdefaultBranch = trunk\n",
                hooks.display()
            ),
        )
        .unwrap();
        let repo = dir.join("repo");
        init(&repo);
        std::fs::write(repo.join("a"), "a\n").unwrap();
        let commit = Git::at(&repo).env("HOME", &home);
        commit.ok(&["add", "a"]);
        commit.ok(&["commit", "-qm", "a"]);
        assert_eq!(git_ok(&repo, &["branch", "--show-current"]), "main");
        assert_eq!(
            git_ok(&repo, &["log", "-1", "--format=%an <%ae>"]),
            format!("{NAME} <{EMAIL}>")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_failure_shows_what_git_said() {
        let dir = scratch();
        let err = std::panic::catch_unwind(|| git_ok(&dir, &["rev-parse", "HEAD"]))
            .expect_err("rev-parse outside a repository fails");
        let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.contains("rev-parse"), "{msg}");
        assert!(msg.contains("not a git repository"), "{msg}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn input_reaches_a_bare_repository() {
        let dir = scratch();
        let bare = dir.join("r.git");
        Git::at(&dir).ok(&["init", "-q", "--bare", "r.git"]);
        let id = Git::git_dir(&bare).ok_with_input(&["hash-object", "-w", "--stdin"], b"x\n");
        assert_eq!(Git::git_dir(&bare).ok(&["cat-file", "-p", &id]), "x");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
