//! A [`Policy`] as a bubblewrap command line, and whether bubblewrap works here.
//!
//! Two traps measured on this kind of machine (`../shared/notes/confinement.md`) are closed
//! by the flags, not by the policy: as root, bubblewrap keeps its capabilities (the command
//! could `umount` a protection), so capabilities are dropped and a user namespace is always
//! made; and a process that sees the rest of the system's PIDs could reach outside through
//! `/proc/PID/root` or ptrace, so the command gets its own PID namespace and `/proc`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{CONFINED_VAR, Mount, Policy};

/// Where bubblewrap is looked for. Fixed places only: a `bwrap` earlier on `PATH`, in a
/// directory the agent could write, would otherwise decide what confinement means.
const PLACES: &[&str] = &["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];

/// The bubblewrap binary, if installed in a system directory.
pub fn find() -> Option<PathBuf> {
    PLACES.iter().map(PathBuf::from).find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The flags every confined command gets, whatever the policy.
const NAMESPACES: &[&str] = &[
    "--unshare-user",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    // No user namespace inside: nothing can be remounted, even within the sandbox.
    "--disable-userns",
    "--cap-drop",
    "ALL",
    // Leaves the controlling terminal: no TIOCSTI keystrokes into the person's shell.
    "--new-session",
    "--die-with-parent",
];

/// bubblewrap's arguments for running `program args…` in `cwd` under `policy`.
pub fn args(policy: &Policy, cwd: &Path, program: &[OsString]) -> Vec<OsString> {
    let mut a: Vec<OsString> = NAMESPACES.iter().map(OsString::from).collect();
    fn push(a: &mut Vec<OsString>, flag: &str, paths: &[&Path]) {
        a.push(flag.into());
        for p in paths {
            a.push(p.as_os_str().to_owned());
        }
    }
    push(&mut a, "--ro-bind", &[Path::new("/"), Path::new("/")]);
    push(&mut a, "--dev", &[Path::new("/dev")]);
    push(&mut a, "--proc", &[Path::new("/proc")]);
    for m in &policy.mounts {
        match m {
            Mount::Writable(p) => push(&mut a, "--bind", &[p, p]),
            Mount::ReadOnly(p) => push(&mut a, "--ro-bind", &[p, p]),
            Mount::Hidden(p) => push(&mut a, "--tmpfs", &[p]),
            Mount::Masked(p) => push(&mut a, "--ro-bind", &[Path::new("/dev/null"), p]),
        }
    }
    // `--dev` gives a fresh /dev; shared memory (Python's multiprocessing, browsers) needs its
    // own writable /dev/shm.
    push(&mut a, "--tmpfs", &[Path::new("/dev/shm")]);
    a.push("--setenv".into());
    a.push(CONFINED_VAR.into());
    a.push("1".into());
    // The working directory is kept when it is still there inside; else the project root.
    let dir = if cwd.is_dir() { cwd } else { &policy.project };
    push(&mut a, "--chdir", &[dir]);
    a.push("--".into());
    a.extend(program.iter().cloned());
    a
}

/// Whether this process already runs in a user namespace someone else made (a host's own
/// sandbox: Codex's workspace-write, Claude Code's sandbox), where bubblewrap cannot make
/// another: the initial namespace maps every uid.
pub fn in_foreign_namespace() -> bool {
    std::fs::read_to_string("/proc/self/uid_map")
        .is_ok_and(|m| !m.split_whitespace().any(|w| w == "4294967295"))
}

/// Whether bubblewrap confines here: `Ok(())`, or why not in bubblewrap's own words (no user
/// namespaces, a seccomp filter of a host's sandbox, a missing binary).
pub fn probe(bwrap: &Path) -> Result<(), ProbeError> {
    let out = Command::new(bwrap)
        .args(NAMESPACES)
        .args([
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--",
            "/bin/true",
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|source| ProbeError::Spawn {
            path: bwrap.into(),
            source,
        })?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(ProbeError::Refused(err.trim().to_string()))
    }
}

/// Why bubblewrap does not confine here.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    #[error("cannot run {}: {source}", path.display())]
    Spawn {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// It ran and refused; its stderr, which names the cause (no user namespaces, a seccomp
    /// filter, a uid map).
    #[error("{0}")]
    Refused(String),
}
