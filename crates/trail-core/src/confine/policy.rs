//! What a confined command may see and write: a list of mounts, computed from where trail,
//! the project and the person keep things. No mount here is a guess from a command's text.
//!
//! The order matters and is bubblewrap's: later mounts cover earlier ones. Everything starts
//! read-only; the writable places are bound over it; then what must stay read-only inside
//! them is bound again, read-only, each path becoming a mount point of its own (a mount point
//! cannot be renamed, replaced or removed: EBUSY); then the outbox is opened again inside
//! `.trail/`; then the secret store is hidden and the sockets masked.

use std::io;
use std::path::{Path, PathBuf};

use crate::layout::Layout;
use crate::zones::zones;

/// Where things are, for one command.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// The project's root (the hook's, never the command's guess).
    pub project: PathBuf,
    pub home: PathBuf,
    /// `$TRAIL_HOME`: the stream, its anchor, the search cache.
    pub trail_home: PathBuf,
    /// The secret store and the key.
    pub secrets_dir: PathBuf,
    /// trail's configuration and trust records (`~/.config/trail`).
    pub config_dir: Option<PathBuf>,
    /// `confine.writable`, `~` expanded: the tool caches a command may fill.
    pub writable: Vec<PathBuf>,
    /// The temporary directories (`/tmp`, `/var/tmp`, `$TMPDIR`).
    pub tmp: Vec<PathBuf>,
    /// Where Unix sockets are looked for, and how many directories down: a temporary
    /// directory is shared scratch, where a server keeps its socket in a directory of its own
    /// right under it (`/tmp/tmux-0/default`, `/tmp/ssh-…/agent.1`), so one level; a runtime
    /// directory (`/run`, `$XDG_RUNTIME_DIR`) is a small tree, so three.
    pub socket_roots: Vec<(PathBuf, u8)>,
}

/// One mount, in bubblewrap's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mount {
    /// Bound read-write over the read-only root.
    Writable(PathBuf),
    /// Bound read-only again, inside a writable place (or anywhere, for trail's own records).
    ReadOnly(PathBuf),
    /// An empty tmpfs over a directory: nothing of it is readable or writable.
    Hidden(PathBuf),
    /// `/dev/null` over a socket: nothing can connect to it.
    Masked(PathBuf),
}

/// The mounts for one command, and what a person may want to know about them.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    pub mounts: Vec<Mount>,
    /// The project root, canonical: the command's default working directory.
    pub project: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("the project root {0} cannot be read: {1}")]
    Project(PathBuf, io::Error),
    #[error(
        "{0} is a symbolic link: trail confines a project only where its own records and the hosts' settings are real directories and files"
    )]
    Symlink(PathBuf),
    #[error("cannot create {0}, which confinement protects: {1}")]
    Create(PathBuf, io::Error),
    #[error(
        "more than {1} entries under {0}: trail cannot look at every one for a socket to mask (a server behind one would run what the agent asks outside the confinement), so nothing runs confined; remove what is not needed there, or give the session another TMPDIR"
    )]
    Crowded(PathBuf, usize),
}

/// Project entries that stay read-only inside the writable project: trail's records and the
/// hosts' settings. Created when missing (empty directories, which git does not see), because
/// only a path that exists can be protected and a missing one could be planted.
const PROJECT_DIRS: &[&str] = &[".trail", ".proof", ".claude", ".codex"];
/// Project files protected when present (MCP servers a host starts unconfined).
const PROJECT_FILES: &[&str] = &[".mcp.json"];
/// Entries of the home directory protected when a writable place covers them: the gate's
/// start-up files, keys and credentials ([`zones::START_UP`]), and beside them the hosts'
/// settings and the places that put programs on PATH or configure package managers. Home is
/// read-only unless `confine.writable` names it or a parent; this is the second wall.
const HOME_EXTRA: &[&str] = &[
    ".claude",
    ".claude.json",
    ".codex",
    ".config",
    ".local/bin",
    ".cargo/bin",
    ".cargo/config.toml",
    ".npmrc",
];

impl Policy {
    /// The mounts for a command in `inputs.project`. Creates what must exist to be protected.
    pub fn build(inputs: &Inputs) -> Result<Policy, PolicyError> {
        let project = inputs
            .project
            .canonicalize()
            .map_err(|e| PolicyError::Project(inputs.project.clone(), e))?;
        let home = inputs
            .home
            .canonicalize()
            .unwrap_or_else(|_| inputs.home.clone());
        let layout = Layout::new(&project);
        for d in PROJECT_DIRS {
            real_dir(&project.join(d))?;
        }
        let outbox = outbox_dir(&layout);
        real_dir(&outbox)?;

        // Writable: the project, its git directories, the temporary directories, the caches.
        let git = GitDirs::of(&project);
        let mut writable = vec![project.clone()];
        writable.extend(git.writable());
        writable.extend(inputs.tmp.iter().filter_map(|p| p.canonicalize().ok()));
        for w in &inputs.writable {
            // A cache a tool would create on first use, under home: created, so that it can be
            // bound (bubblewrap binds only what exists). Anything else must exist already.
            if !w.exists() && (w.starts_with(&inputs.home) || w.starts_with(&home)) {
                let _ = std::fs::create_dir_all(w);
            }
            if let Ok(c) = w.canonicalize() {
                writable.push(c);
            }
        }
        sort_outer_first(&mut writable);

        // Read-only again: trail's records and settings wherever they are, the project's
        // protected entries, git's config and hooks, and home's entries under a writable place.
        let mut read_only: Vec<PathBuf> = Vec::new();
        for d in PROJECT_DIRS {
            read_only.push(project.join(d));
        }
        for f in PROJECT_FILES {
            let p = project.join(f);
            if is_symlink(&p) {
                return Err(PolicyError::Symlink(p));
            }
            if p.is_file() {
                read_only.push(p);
            }
        }
        read_only.extend(git.protected());
        let covered = |p: &Path| writable.iter().any(|w| p.starts_with(w));
        for p in [Some(&inputs.trail_home), inputs.config_dir.as_ref()]
            .into_iter()
            .flatten()
        {
            // Missing under a writable place, it could be planted: made now, then protected.
            if !p.exists() && covered(&absolute(p)) {
                std::fs::create_dir_all(p).map_err(|e| PolicyError::Create(p.clone(), e))?;
            }
            if let Ok(c) = p.canonicalize()
                && covered(&c)
            {
                read_only.push(c);
            }
        }
        for e in zones::START_UP.iter().chain(HOME_EXTRA) {
            let p = home.join(e);
            if covered(&p)
                && let Ok(c) = p.canonicalize()
            {
                read_only.push(c);
            }
        }
        read_only.retain(|p| p.exists());
        sort_outer_first(&mut read_only);
        read_only.dedup();

        // Home under a wider writable place (a HOME in /tmp): home goes back to read-only, and
        // only the writable places inside it are opened again, so that a start-up file that
        // does not exist yet cannot be created either.
        let (inside_home, outside_home): (Vec<PathBuf>, Vec<PathBuf>) =
            writable.into_iter().partition(|w| w.starts_with(&home));
        let mut mounts: Vec<Mount> = outside_home.iter().cloned().map(Mount::Writable).collect();
        if outside_home.iter().any(|w| home.starts_with(w)) {
            mounts.push(Mount::ReadOnly(home.clone()));
        }
        mounts.extend(inside_home.into_iter().map(Mount::Writable));
        mounts.extend(read_only.into_iter().map(Mount::ReadOnly));
        mounts.push(Mount::Writable(outbox));

        // Hidden: the secret store (the key is in it). Created when missing, 0700, so that a
        // writable place above it cannot be used to plant one.
        let secrets = &inputs.secrets_dir;
        if !secrets.exists() {
            create_private_dir(secrets)?;
        }
        if let Ok(c) = secrets.canonicalize() {
            mounts.push(Mount::Hidden(c));
        }
        for s in sockets(&inputs.socket_roots)? {
            mounts.push(Mount::Masked(s));
        }
        Ok(Policy { mounts, project })
    }

    /// Whether `path` is writable under this policy (for messages and tests): the last mount
    /// covering it decides, as in the kernel.
    pub fn writable(&self, path: &Path) -> bool {
        let mut verdict = false;
        for m in &self.mounts {
            match m {
                Mount::Writable(p) if path.starts_with(p) => verdict = true,
                Mount::ReadOnly(p) | Mount::Hidden(p) | Mount::Masked(p) if path.starts_with(p) => {
                    verdict = false;
                }
                _ => {}
            }
        }
        verdict
    }
}

/// `.trail/outbox/`: where trail's own commands, run by the agent inside the confinement, leave
/// what they record for a hook to ingest.
pub fn outbox_dir(layout: &Layout) -> PathBuf {
    layout.trail_dir().join("outbox")
}

/// A directory that must exist and be a real directory (not a link to one elsewhere).
fn real_dir(p: &Path) -> Result<(), PolicyError> {
    if is_symlink(p) {
        return Err(PolicyError::Symlink(p.to_path_buf()));
    }
    if !p.is_dir() {
        std::fs::create_dir_all(p).map_err(|e| PolicyError::Create(p.to_path_buf(), e))?;
    }
    Ok(())
}

fn create_private_dir(p: &Path) -> Result<(), PolicyError> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(p)
        .map_err(|e| PolicyError::Create(p.to_path_buf(), e))
}

/// `p` with its longest existing ancestor made canonical (what it will be once created).
fn absolute(p: &Path) -> PathBuf {
    let mut rest = Vec::new();
    let mut cur = p;
    loop {
        if let Ok(c) = cur.canonicalize() {
            return rest.iter().rev().fold(c, |acc, part| acc.join(part));
        }
        match (cur.parent(), cur.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                cur = parent;
            }
            _ => return p.to_path_buf(),
        }
    }
}

fn is_symlink(p: &Path) -> bool {
    p.symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
}

/// Parents before children, so that a child's mount lands on top of its parent's.
fn sort_outer_first(paths: &mut Vec<PathBuf>) {
    paths.sort_by(|a, b| {
        a.components()
            .count()
            .cmp(&b.components().count())
            .then_with(|| a.cmp(b))
    });
    paths.dedup();
}

/// A repository's git directories: where commits write, and what runs code.
struct GitDirs {
    /// `.git`, or a worktree's own directory under the main repository's.
    git_dir: Option<PathBuf>,
    /// The directory holding objects, refs, `config` and `hooks` (the same as `git_dir` but in
    /// a linked worktree).
    common: Option<PathBuf>,
}

impl GitDirs {
    fn of(project: &Path) -> GitDirs {
        let dot = project.join(".git");
        let git_dir = if dot.is_dir() {
            Some(dot)
        } else {
            std::fs::read_to_string(&dot).ok().and_then(|s| {
                let p = PathBuf::from(s.strip_prefix("gitdir:")?.trim());
                let p = if p.is_absolute() { p } else { project.join(p) };
                p.canonicalize().ok()
            })
        };
        let common = git_dir.as_ref().map(|g| {
            std::fs::read_to_string(g.join("commondir"))
                .ok()
                .map(|c| g.join(c.trim()))
                .and_then(|c| c.canonicalize().ok())
                .unwrap_or_else(|| g.clone())
        });
        GitDirs { git_dir, common }
    }

    /// Outside the project in a linked worktree: a commit must still reach them.
    fn writable(&self) -> Vec<PathBuf> {
        [&self.git_dir, &self.common]
            .into_iter()
            .flatten()
            .cloned()
            .collect()
    }

    /// What makes git run a program: its config (fsmonitor, filters, aliases, sshCommand) and
    /// its hooks.
    fn protected(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        if let Some(c) = &self.common {
            out.push(c.join("config"));
            out.push(c.join("hooks"));
        }
        if let Some(g) = &self.git_dir {
            out.push(g.join("config.worktree"));
        }
        out
    }
}

/// How many entries the socket scan reads at most: a `/tmp` of a fuzzer's corpus and a few
/// build trees is tens of thousands; reading this many takes a few tens of milliseconds.
const SCAN_BUDGET: usize = 250_000;

/// Every Unix socket in `roots`, each entered as deep as it says: a server behind one (a terminal
/// multiplexer, an ssh, gpg or docker agent, a desktop bus) would run a request outside the
/// confinement, and connecting to a socket needs no write access to its file system. Read level
/// by level, the shallow places first. Past [`SCAN_BUDGET`] entries the scan fails closed: a
/// socket it did not reach would stay open (found by CI's own run: 20,000 entries of a fuzzer's
/// corpus under `/tmp` hid a test's socket beside them, and the agent connected to it).
fn sockets(roots: &[(PathBuf, u8)]) -> Result<Vec<PathBuf>, PolicyError> {
    sockets_within(roots, SCAN_BUDGET)
}

/// [`sockets`], reading at most `budget` entries.
fn sockets_within(roots: &[(PathBuf, u8)], budget: usize) -> Result<Vec<PathBuf>, PolicyError> {
    use std::os::unix::fs::FileTypeExt;
    let mut out = Vec::new();
    // (directory, how many more levels may be entered below it)
    let mut queue: std::collections::VecDeque<(PathBuf, u8)> = roots
        .iter()
        .filter_map(|(r, levels)| Some((r.canonicalize().ok()?, *levels)))
        .collect();
    let mut seen = 0usize;
    while let Some((dir, levels)) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            seen += 1;
            if seen > budget {
                return Err(PolicyError::Crowded(dir, budget));
            }
            let Ok(t) = e.file_type() else { continue };
            if t.is_socket() {
                out.push(e.path());
            } else if t.is_dir() && levels > 0 {
                queue.push_back((e.path(), levels - 1));
            }
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(root: &Path) -> Inputs {
        let home = root.join("home");
        let project = root.join("home/proj");
        std::fs::create_dir_all(project.join(".git/hooks")).unwrap();
        std::fs::write(project.join(".git/config"), "").unwrap();
        Inputs {
            project,
            home: home.clone(),
            trail_home: home.join(".ledger"),
            secrets_dir: home.join(".secrets"),
            config_dir: Some(home.join(".config/trail")),
            writable: vec![home.join(".cache")],
            tmp: vec![],
            socket_roots: vec![],
        }
    }

    #[test]
    fn the_project_is_writable_and_trails_records_are_not() {
        let t = tempfile::tempdir().unwrap();
        let i = inputs(t.path());
        let p = Policy::build(&i).unwrap();
        let proj = i.project.canonicalize().unwrap();
        let home = i.home.canonicalize().unwrap();
        assert!(p.writable(&proj.join("src/main.rs")));
        assert!(p.writable(&proj.join(".git/objects/ab")));
        assert!(p.writable(&home.join(".cache/pip/x")));
        assert!(p.writable(&proj.join(".trail/outbox/1.json")));
        for no in [
            proj.join(".trail/state/grants.jsonl"),
            proj.join(".trail/trajectory/2026-11-28.jsonl"),
            proj.join(".proof/session_log.jsonl"),
            proj.join(".claude/settings.json"),
            proj.join(".claude/settings.local.json"),
            proj.join(".codex/config.toml"),
            proj.join(".git/config"),
            proj.join(".git/hooks/pre-commit"),
            home.join(".bashrc"),
            home.join(".secrets/trail.key"),
            home.join(".ledger/stream/pulses.log.md"),
        ] {
            assert!(!p.writable(&no), "{} must not be writable", no.display());
        }
        // What must exist to be protected was made, as real directories.
        assert!(proj.join(".claude").is_dir());
        assert!(home.join(".secrets").is_dir());
    }

    #[test]
    fn a_writable_home_keeps_its_start_up_files_and_settings_read_only() {
        let t = tempfile::tempdir().unwrap();
        let mut i = inputs(t.path());
        i.writable = vec![i.home.clone()];
        for f in [
            ".bashrc",
            ".ssh/id_ed25519",
            ".claude/settings.json",
            ".ledger/x",
        ] {
            let p = i.home.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        let p = Policy::build(&i).unwrap();
        let home = i.home.canonicalize().unwrap();
        assert!(p.writable(&home.join("notes.txt")));
        for no in [
            ".bashrc",
            ".ssh/id_ed25519",
            ".claude/settings.json",
            ".ledger/x",
        ] {
            assert!(!p.writable(&home.join(no)), "{no}");
        }
    }

    #[test]
    fn a_home_inside_a_temporary_directory_stays_read_only() {
        let t = tempfile::tempdir().unwrap();
        let mut i = inputs(t.path());
        i.tmp = vec![t.path().to_path_buf()];
        let p = Policy::build(&i).unwrap();
        let home = i.home.canonicalize().unwrap();
        assert!(p.writable(&t.path().canonicalize().unwrap().join("scratch")));
        assert!(!p.writable(&home.join(".bashrc")), "{:?}", p.mounts);
        assert!(p.writable(&home.join("proj/src/lib.rs")));
        assert!(p.writable(&home.join(".cache/pip")));
    }

    #[test]
    fn a_symlinked_record_directory_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let i = inputs(t.path());
        std::fs::create_dir_all(t.path().join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(t.path().join("elsewhere"), i.project.join(".trail")).unwrap();
        let e = Policy::build(&i).unwrap_err();
        assert!(matches!(e, PolicyError::Symlink(_)), "{e}");
    }

    #[test]
    fn a_linked_worktree_can_commit_and_cannot_change_git_config() {
        let t = tempfile::tempdir().unwrap();
        let i = inputs(t.path());
        let main_git = i.project.join(".git");
        let wt_git = main_git.join("worktrees/wt");
        std::fs::create_dir_all(&wt_git).unwrap();
        std::fs::write(wt_git.join("commondir"), "../..").unwrap();
        let wt = t.path().join("wt");
        std::fs::create_dir_all(&wt).unwrap();
        std::fs::write(wt.join(".git"), format!("gitdir: {}\n", wt_git.display())).unwrap();
        let p = Policy::build(&Inputs {
            project: wt.clone(),
            ..i.clone()
        })
        .unwrap();
        let main_git = main_git.canonicalize().unwrap();
        assert!(p.writable(&main_git.join("objects/ab/cd")));
        assert!(p.writable(&main_git.join("refs/heads/wt")));
        assert!(!p.writable(&main_git.join("config")));
        assert!(!p.writable(&main_git.join("hooks/post-checkout")));
    }

    #[test]
    fn sockets_are_found_and_masked() {
        let t = tempfile::tempdir().unwrap();
        let mut i = inputs(t.path());
        let sock_dir = t.path().join("run/tmux-0");
        std::fs::create_dir_all(&sock_dir).unwrap();
        let _l = std::os::unix::net::UnixListener::bind(sock_dir.join("default")).unwrap();
        i.socket_roots = vec![(t.path().join("run"), 1)];
        let p = Policy::build(&i).unwrap();
        let masked: Vec<_> = p
            .mounts
            .iter()
            .filter(|m| matches!(m, Mount::Masked(_)))
            .collect();
        assert_eq!(masked.len(), 1, "{:?}", p.mounts);
    }

    /// Found by CI's own run: a fuzzer's corpus of 20,000 files beside a socket under `/tmp`
    /// used up the old scan's budget before the socket, which stayed open. Many files beside
    /// it are read past; more than the budget refuses to confine at all.
    #[test]
    fn a_crowded_root_neither_hides_a_socket_nor_passes_unscanned() {
        let t = tempfile::tempdir().unwrap();
        let crowd = t.path().join("run/corpus");
        std::fs::create_dir_all(&crowd).unwrap();
        for n in 0..3_000 {
            std::fs::write(crowd.join(n.to_string()), "").unwrap();
        }
        let sock_dir = t.path().join("run/zz-agent");
        std::fs::create_dir_all(&sock_dir).unwrap();
        let _l = std::os::unix::net::UnixListener::bind(sock_dir.join("agent.sock")).unwrap();
        let roots = vec![(t.path().join("run"), 1)];
        let found = sockets(&roots).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(matches!(
            sockets_within(&roots, 1_000),
            Err(PolicyError::Crowded(_, 1_000))
        ));
    }
}
