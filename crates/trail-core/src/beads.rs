//! Beads (Lossless Ledger FR-11, IR-2): the task graph of `br` (beads_rust) or `bd`, when the
//! project uses one. Never required: without a tracker on PATH, or in a project without
//! `.beads/`, everything here answers "not in use" without spawning anything.
//!
//! trail only reads: the bead in progress (`<tool> list --status in_progress --json`) and one
//! bead shown as the tracker prints it for a person (`<tool> show ID`, level-2 recovery). Each
//! call runs the program directly (no shell) in the project root, with stdin closed, and is
//! killed past [`TIMEOUT`]: a tracker that hangs costs a checkpoint two seconds, never the
//! session. What it prints is the project's text: the caller redacts it like everything it
//! shows.

use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// How long one tracker call may take.
pub const TIMEOUT: Duration = Duration::from_secs(2);
/// The most of a tracker's answer read.
const MAX_OUTPUT: u64 = 1 << 20;

/// A tracker found on PATH.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tracker {
    /// `br` or `bd`.
    pub name: &'static str,
    pub program: PathBuf,
}

/// One bead, as a tracker's JSON gives it (fields trail does not use are ignored).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bead {
    pub id: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

impl Bead {
    /// `bd-x7y8 (task description)`, as Active Context names the current bead.
    pub fn label(&self) -> String {
        if self.title.trim().is_empty() {
            self.id.clone()
        } else {
            format!("{} ({})", self.id, crate::text::one_line(&self.title, 80))
        }
    }
}

/// The bead in progress for the project at `root`, labelled, when a tracker is in use and
/// answers (a failing tracker names no bead: this is for views, not for checks).
pub fn current_label(root: &Path, path: Option<&OsStr>) -> Option<String> {
    find(root, path)?
        .in_progress(root)
        .ok()
        .flatten()
        .map(|b| b.label())
}

/// A bead id as `br` and `bd` write them (`bd-x7y8`, `trail-12.3`): one word, never an option
/// or a path, so it can be handed to a tracker as an argument.
pub fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':' | '-'))
}

/// A bead shown: which tracker showed it, and what it printed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shown {
    pub id: String,
    pub program: String,
    pub text: String,
}

/// Why a tracker could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BeadsError {
    #[error("cannot run {program}: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("{program} took more than {secs} s and was stopped")]
    Timeout { program: String, secs: u64 },
    #[error("{program} failed ({status}): {stderr}")]
    Failed {
        program: String,
        status: String,
        stderr: String,
    },
    #[error("{program} answered something that is not its JSON: {source}")]
    BadJson { program: String, source: ListError },
    #[error("`{0}` is not a bead id")]
    BadId(String),
}

/// Why a tracker's list answer is not a list of beads.
#[derive(Debug, thiserror::Error)]
pub enum ListError {
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("no list of issues in the object")]
    NoList,
    #[error("neither a list nor an object")]
    NotAList,
}

/// The tracker to use for the project at `root`: `br`, else `bd`, found on `path` (the PATH
/// variable), and only when the project has a `.beads/` directory.
pub fn find(root: &Path, path: Option<&OsStr>) -> Option<Tracker> {
    if !root.join(".beads").is_dir() {
        return None;
    }
    let dirs: Vec<PathBuf> = std::env::split_paths(path?).collect();
    ["br", "bd"].into_iter().find_map(|name| {
        dirs.iter()
            .map(|d| d.join(name))
            .find(|p| is_executable(p))
            .map(|program| Tracker { name, program })
    })
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

impl Tracker {
    /// The bead in progress, the most recently updated when there are several.
    pub fn in_progress(&self, root: &Path) -> Result<Option<Bead>, BeadsError> {
        let out = self.run(root, &["list", "--status", "in_progress", "--json"])?;
        let mut beads: Vec<Bead> = parse_list(&out).map_err(|source| BeadsError::BadJson {
            program: self.name.into(),
            source,
        })?;
        beads.retain(|b| b.status.is_empty() || b.status == "in_progress");
        beads.sort_by(|a, b| a.updated_at.cmp(&b.updated_at));
        Ok(beads.pop())
    }

    /// `show ID`, as the tracker prints it for a person (and an agent) to read.
    pub fn show(&self, root: &Path, id: &str) -> Result<Shown, BeadsError> {
        if !is_id(id) {
            return Err(BeadsError::BadId(crate::text::one_line(id, 80)));
        }
        let text = self.run(root, &["show", id])?;
        Ok(Shown {
            id: id.to_string(),
            program: self.name.to_string(),
            text: text.trim().to_string(),
        })
    }

    /// Adds `text` as a comment on bead `id` (`comments add ID -- TEXT`: both trackers have it,
    /// and the text can never be read as an option).
    pub fn comment(&self, root: &Path, id: &str, text: &str) -> Result<(), BeadsError> {
        if !is_id(id) {
            return Err(BeadsError::BadId(crate::text::one_line(id, 80)));
        }
        self.run(root, &["comments", "add", id, "--", text])
            .map(drop)
    }

    fn run(&self, root: &Path, args: &[&str]) -> Result<String, BeadsError> {
        let program = self.name.to_string();
        let mut child = Command::new(&self.program)
            .args(args)
            .current_dir(root)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|source| BeadsError::Spawn {
                program: program.clone(),
                source,
            })?;
        let mut stdout = child.stdout.take().expect("piped");
        let mut stderr = child.stderr.take().expect("piped");
        // Read both pipes while waiting, so a chatty tracker cannot block on a full pipe.
        let out = std::thread::spawn(move || {
            let mut b = Vec::new();
            let _ = (&mut stdout).take(MAX_OUTPUT).read_to_end(&mut b);
            b
        });
        let err = std::thread::spawn(move || {
            let mut b = Vec::new();
            let _ = (&mut stderr).take(MAX_OUTPUT).read_to_end(&mut b);
            b
        });
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break s,
                Ok(None) if started.elapsed() < TIMEOUT => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Ok(None) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(BeadsError::Timeout {
                        program,
                        secs: TIMEOUT.as_secs(),
                    });
                }
                Err(source) => return Err(BeadsError::Spawn { program, source }),
            }
        };
        let out = out.join().unwrap_or_default();
        let err = err.join().unwrap_or_default();
        if !status.success() {
            return Err(BeadsError::Failed {
                program,
                status: status.to_string(),
                stderr: crate::text::one_line(&String::from_utf8_lossy(&err), 300),
            });
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }
}

/// A list answer: a JSON array of beads, or an object holding one (`{"issues": […]}`), as the
/// trackers' versions print it.
fn parse_list(text: &str) -> Result<Vec<Bead>, ListError> {
    let v: serde_json::Value = serde_json::from_str(text.trim())?;
    let items = match v {
        serde_json::Value::Array(a) => a,
        serde_json::Value::Object(mut o) => match ["issues", "items", "results", "data"]
            .iter()
            .find_map(|k| o.remove(*k))
        {
            Some(serde_json::Value::Array(a)) => a,
            _ => return Err(ListError::NoList),
        },
        serde_json::Value::Null => Vec::new(),
        _ => return Err(ListError::NotAList),
    };
    items
        .into_iter()
        .map(|i| Ok(serde_json::from_value(i)?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_answers_in_either_shape() {
        let a = r#"[{"id":"bd-1","title":"A","status":"in_progress","updated_at":"2026-01-02T00:00:00Z","priority":1}]"#;
        assert_eq!(parse_list(a).unwrap()[0].id, "bd-1");
        let o = r#"{"issues":[{"id":"bd-2","title":"B","status":"in_progress"}],"total":1}"#;
        assert_eq!(parse_list(o).unwrap()[0].title, "B");
        assert!(parse_list("[]").unwrap().is_empty());
        assert!(parse_list("not json").is_err());
    }

    #[test]
    fn no_beads_directory_no_tracker_and_no_spawn() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let br = bin.join("br");
        std::fs::write(&br, "#!/bin/sh\nexit 0\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&br, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = std::env::join_paths([&bin]).unwrap();
        assert!(find(dir.path(), Some(&path)).is_none(), "no .beads/");
        std::fs::create_dir(dir.path().join(".beads")).unwrap();
        let t = find(dir.path(), Some(&path)).unwrap();
        assert_eq!(t.name, "br");
        assert!(find(dir.path(), None).is_none());
    }

    fn script(dir: &Path, name: &str, body: &str) -> Tracker {
        use std::os::unix::fs::PermissionsExt;
        let p = dir.join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        Tracker {
            name: "br",
            program: p,
        }
    }

    // A stand-in for beads: what is tested is how trail runs a tracker and what it keeps.
    #[test]
    fn a_bead_is_shown_as_printed_and_a_bad_id_or_a_failure_shows_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let ok = script(dir.path(), "br", "echo \"$1 $2 $# in $(pwd)\"");
        let shown = ok.show(dir.path(), "bd-x7y8").unwrap();
        assert_eq!(shown.program, "br");
        assert!(
            shown.text.starts_with("show bd-x7y8 2 in "),
            "{}",
            shown.text
        );
        for bad in ["--all", "../x", "", "a b", "-x", "x;rm", &"x".repeat(65)] {
            assert!(!is_id(bad), "{bad}");
            assert!(matches!(
                ok.show(dir.path(), bad),
                Err(BeadsError::BadId(_))
            ));
        }
        for good in ["bd-x7y8", "trail-12.3", "br:1"] {
            assert!(is_id(good), "{good}");
        }
        let fails = script(dir.path(), "bd", "echo no; exit 3");
        assert!(matches!(
            fails.show(dir.path(), "bd-1"),
            Err(BeadsError::Failed { .. })
        ));
    }

    #[test]
    fn a_hanging_tracker_is_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let br = dir.path().join("br");
        std::fs::write(&br, "#!/bin/sh\nsleep 30\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&br, std::fs::Permissions::from_mode(0o755)).unwrap();
        let t = Tracker {
            name: "br",
            program: br,
        };
        let started = Instant::now();
        let e = t.in_progress(dir.path()).unwrap_err();
        assert!(matches!(e, BeadsError::Timeout { .. }), "{e}");
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
