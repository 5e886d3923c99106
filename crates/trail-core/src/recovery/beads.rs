//! The current bead, as beads itself shows it (`br show ID`, beads_rust; else `bd show ID`), when
//! beads is installed. Never required: without it, or when it fails or hangs, there is no bead.
//!
//! The program is found on PATH and run directly (no shell), in the project, with nothing on
//! its stdin, for at most [`TIMEOUT`]; what it prints is capped at [`MAX_OUTPUT`] bytes. The
//! caller redacts it like everything it shows.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long `show` may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);
/// The most of its output kept.
pub const MAX_OUTPUT: usize = 16 << 10;

/// `br`, else `bd`, on PATH.
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["br", "bd"].iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|d| d.join(name))
            .find(|p| is_executable(p))
    })
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A bead shown: which program showed it, and what it printed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Shown {
    pub id: String,
    pub program: String,
    pub text: String,
}

/// `<beads> show <id>` in `root`, or `None` (no beads, a bad id, a failure, a hang).
pub fn show(beads: &Path, root: &Path, id: &str) -> Option<Shown> {
    // An id is a word (`bd-x7y8`), never an option or a path.
    if id.is_empty()
        || id.starts_with('-')
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return None;
    }
    let mut child = Command::new(beads)
        .args(["show", id])
        .current_dir(root)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut out = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = (&mut out).take(MAX_OUTPUT as u64).read_to_end(&mut buf);
        buf
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() < TIMEOUT => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    };
    let bytes = reader.join().ok()?;
    if !status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&bytes).trim().to_string();
    (!text.is_empty()).then(|| Shown {
        id: id.to_string(),
        program: beads
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let p = dir.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    // A stand-in for beads: what is tested is how trail runs a program and what it keeps, not
    // beads (not installed here).
    #[test]
    fn a_shown_bead_is_kept_and_a_failing_or_hanging_program_gives_none() {
        let dir = tempfile::tempdir().unwrap();
        let ok = script(dir.path(), "br", "echo \"$1 $2 in $(pwd)\"");
        let shown = show(&ok, dir.path(), "bd-x7y8").unwrap();
        assert_eq!(shown.program, "br");
        assert!(shown.text.starts_with("show bd-x7y8 in "), "{}", shown.text);
        assert_eq!(show(&ok, dir.path(), "--all"), None);
        assert_eq!(show(&ok, dir.path(), "../x"), None);
        let fails = script(dir.path(), "bd", "echo no; exit 3");
        assert_eq!(show(&fails, dir.path(), "bd-1"), None);
        let hangs = script(dir.path(), "slow", "sleep 30");
        let t = Instant::now();
        assert_eq!(show(&hangs, dir.path(), "bd-1"), None);
        assert!(t.elapsed() < TIMEOUT + Duration::from_secs(2));
    }
}
