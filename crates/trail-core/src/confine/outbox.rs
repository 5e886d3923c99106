//! `.trail/outbox/`: what the agent records through trail's own commands while confined.
//!
//! Inside the confinement, `trail pulse`, `decide`, `remember`, `checkpoint` and the other
//! commands that record cannot write the journals (nothing the agent runs can). They leave one
//! file here instead: the command's arguments and standard input, already redacted. A hook,
//! outside the confinement, takes each file ([`take`]), runs the command again as trail, and
//! marks what it wrote as the agent's. The file is the agent's words and nothing more: a
//! person's act (approve, dismiss, mode, trust, init…) is never taken from it ([`verb_of`]).

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::file_error::{At as _, FileError};
use crate::layout::Layout;

/// What a command of trail does when the agent runs it inside the confinement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    /// Records something: queued in the outbox for a hook to run.
    Records,
    /// A person's act: refused, whoever asks.
    PersonOnly,
    /// Reads only: runs where it is.
    Reads,
}

/// Commands that record (their writes reach the journals, NOTES.md or the stream).
const RECORDS: &[&str] = &[
    "pulse",
    "remember",
    "decide",
    "checkpoint",
    "heal",
    "memory",
    "dream",
    "import",
    "rotate",
];
/// Commands only a person runs: what decides, grants, trusts, installs or switches trail off.
const PERSON_ONLY: &[&str] = &[
    "approve",
    "dismiss",
    "skip",
    "mode",
    "trust",
    "init",
    "uninstall",
    "hook",
];

/// What `command` (trail's first argument) does inside the confinement.
pub fn verb_of(command: &str) -> Verb {
    if PERSON_ONLY.contains(&command) {
        Verb::PersonOnly
    } else if RECORDS.contains(&command) {
        Verb::Records
    } else {
        Verb::Reads
    }
}

/// One queued command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// trail's arguments, without the program name (`["pulse", "--summary", "…"]`), redacted.
    pub args: Vec<String>,
    /// Where it was run.
    pub cwd: PathBuf,
    /// Its standard input, when it read one (redacted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin: Option<String>,
}

/// The most a hook takes in one go, and the largest file it reads: the agent cannot make a hook
/// miss its deadline by filling the outbox.
pub const MAX_TAKE: usize = 32;
pub const MAX_BYTES: u64 = 1 << 20;

/// Leave `entry` in the project's outbox, whole or not at all (written aside, then renamed).
pub fn put(project: &Path, entry: &Entry) -> Result<PathBuf, FileError> {
    let dir = super::policy::outbox_dir(&Layout::new(project));
    let name = format!(
        "{}-{}.json",
        jiff::Timestamp::now().as_nanosecond(),
        std::process::id()
    );
    let path = dir.join(name);
    let mut tmp = tempfile::Builder::new()
        .prefix(".put-")
        .tempfile_in(&dir)
        .at("create a file in", &dir)?;
    serde_json::to_writer(&mut tmp, entry)
        .map_err(io::Error::from)
        .and_then(|()| tmp.as_file().sync_all())
        .at("write", &path)?;
    tmp.persist(&path).map_err(|e| e.error).at("write", &path)?;
    Ok(path)
}

/// A queued file, read: its entry, or why it could not be used.
pub struct Taken {
    pub path: PathBuf,
    pub entry: Result<Entry, Dropped>,
}

/// Why a queued file was dropped without running.
#[derive(Debug, thiserror::Error)]
pub enum Dropped {
    /// A symlink, a FIFO, too big, not UTF-8, or gone.
    #[error(transparent)]
    Unreadable(std::io::Error),
    #[error("not an outbox entry: {0}")]
    NotAnEntry(serde_json::Error),
    #[error("`{0}` is a person's act and is never taken from the agent")]
    PersonOnly(String),
    #[error("not a command that records")]
    NotRecording,
}

/// The oldest queued files (at most [`MAX_TAKE`]), each removed as it is read: a file is run
/// once at most, and one that cannot be read is dropped with the reason.
pub fn take(project: &Path) -> Vec<Taken> {
    let dir = super::policy::outbox_dir(&Layout::new(project));
    let Ok(read) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut names: Vec<PathBuf> = read
        .flatten()
        .filter(|e| is_entry(&e.file_name()))
        .map(|e| e.path())
        .collect();
    names.sort();
    names.truncate(MAX_TAKE);
    names
        .into_iter()
        .map(|path| {
            let entry = read_entry(project, &path);
            let _ = std::fs::remove_file(&path);
            Taken { path, entry }
        })
        .collect()
}

/// Whether anything is queued in the project's outbox: one `readdir`, for the hooks.
pub fn waiting(project: &Path) -> bool {
    let dir = super::policy::outbox_dir(&Layout::new(project));
    std::fs::read_dir(dir).is_ok_and(|mut d| d.any(|e| e.is_ok_and(|e| is_entry(&e.file_name()))))
}

/// A queued entry's file name (`put` writes `.put-…` aside first).
fn is_entry(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.ends_with(".json") && !name.starts_with('.')
}

fn read_entry(project: &Path, path: &Path) -> Result<Entry, Dropped> {
    // The agent wrote this file: no symlinks, no FIFOs, no more than MAX_BYTES.
    let text = crate::fsutil::read_string_in(project, path, MAX_BYTES)
        .map_err(|e| Dropped::Unreadable(e.into()))?;
    let mut entry: Entry = serde_json::from_str(&text).map_err(Dropped::NotAnEntry)?;
    match entry.args.first().map(|c| verb_of(c)) {
        Some(Verb::Records) => Ok(entry),
        Some(Verb::PersonOnly) => Err(Dropped::PersonOnly(entry.args.swap_remove(0))),
        _ => Err(Dropped::NotRecording),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".trail/outbox")).unwrap();
        t
    }

    #[test]
    fn an_entry_put_is_taken_once() {
        let t = project();
        let e = Entry {
            args: vec!["pulse".into(), "--summary".into(), "x".into()],
            cwd: t.path().into(),
            stdin: None,
        };
        put(t.path(), &e).unwrap();
        let got = take(t.path());
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].entry.as_ref().unwrap(), &e);
        assert!(take(t.path()).is_empty());
    }

    #[test]
    fn a_persons_act_or_garbage_is_dropped_with_its_reason() {
        let t = project();
        let dir = t.path().join(".trail/outbox");
        std::fs::write(dir.join("1.json"), r#"{"args":["approve"],"cwd":"/"}"#).unwrap();
        std::fs::write(dir.join("2.json"), "not json").unwrap();
        std::fs::write(dir.join("3.json"), r#"{"args":["search","x"],"cwd":"/"}"#).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.join("4.json")).unwrap();
        let got = take(t.path());
        assert_eq!(got.len(), 4);
        assert!(matches!(&got[0].entry, Err(Dropped::PersonOnly(verb)) if verb == "approve"));
        assert!(matches!(&got[1].entry, Err(Dropped::NotAnEntry(_))));
        assert!(matches!(&got[2].entry, Err(Dropped::NotRecording)));
        assert!(matches!(&got[3].entry, Err(Dropped::Unreadable(_))));
        assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    }
}
