//! The git note on an agent's commit (`refs/notes/trail`): which session made it, the prompt it
//! answered, the tool call that committed, the lines each of the agent's edits wrote, the
//! person's approvals in that stretch, and the pulse that records the commit in the
//! hash-chained stream. Signed with the machine's key (ed25519, as `trail sync` signs what it
//! publishes): the agent can write a note, but not one that verifies, and another machine
//! believes it with the public half the person trusted there (`trail sync --trust-machine`).
//!
//! Notes are written from the commit journal ([`super::link`]) by [`flush`], outside the hooks:
//! at the end of the agent's turn (Stop) and by `trail blame` itself. `trail init` sets
//! `notes.rewriteRef` so that git carries a note to the new commit when the person amends or
//! rebases; the note keeps the commit it was written for, so blame can say it was carried.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;
use std::process::Stdio;

use serde::{Deserialize, Serialize};

use super::link::{self, Link, RecordRef};
use crate::secrets::key::Key;
use crate::secrets::machine::MachineKey;
use crate::state::grants::{By, Grant, Journal};
use crate::time::Ts;
use crate::timeline::Seen;

/// Where the notes live.
pub const NOTES_REF: &str = "refs/notes/trail";

/// The note format's version: 2 is signed with the machine's key (1 was the person's HMAC,
/// which no other machine can check).
pub const VERSION: u32 = 2;

/// A prompt, and when it was typed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Said {
    pub at: String,
    pub text: String,
}

/// One edit of the agent's: the file (relative to the repository), the tool, when, and the
/// keys of the lines it wrote (`proof::line_key`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    pub file: String,
    pub tool: String,
    pub at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    pub lines: Vec<String>,
}

/// A person's approval in the stretch the commit closes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approval {
    pub id: String,
    pub at: String,
    pub by: By,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
}

/// The note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Note {
    /// The format's version.
    pub trail: u32,
    /// The commit it was written for (a rewritten commit's note names its original).
    pub commit: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// When the agent committed.
    pub at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    pub command: String,
    pub record: RecordRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<Said>,
    #[serde(default)]
    pub edits: Vec<Edit>,
    #[serde(default)]
    pub approvals: Vec<Approval>,
    /// The machine that wrote the note, and whose stream holds its pulse.
    #[serde(default)]
    pub machine: String,
    /// The machine key's signature (ed25519, hex) of the note without this field.
    #[serde(default)]
    pub sig: String,
}

impl Note {
    /// The bytes the signature covers: the note as serialised with an empty `sig`, after a
    /// domain line so that no other signed message of the machine's can pass for a note.
    fn signed_bytes(&self) -> Vec<u8> {
        let mut n = self.clone();
        n.sig.clear();
        let mut out = b"trail-blame-note v2\n".to_vec();
        out.extend(serde_json::to_vec(&n).unwrap_or_default());
        out
    }

    pub fn sign(&mut self, key: &MachineKey) {
        self.sig = key.sign(&self.signed_bytes());
    }

    /// Whether the note is signed by the machine whose public key (hex) is `public`.
    pub fn verifies(&self, public: &str) -> bool {
        crate::secrets::machine::verify(public, &self.signed_bytes(), &self.sig)
    }

    /// Whether the agent wrote `key` in `file` (a path relative to the repository).
    pub fn wrote(&self, file: &str, key: &str) -> Option<&Edit> {
        self.edits
            .iter()
            .rev()
            .find(|e| e.file == file && e.lines.iter().any(|l| l == key))
    }
}

/// What [`flush`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Flushed {
    pub written: usize,
    /// Commits the journal names that git no longer has (rewritten before their note).
    pub gone: Vec<String>,
}

/// Why notes could not be written.
#[derive(Debug, thiserror::Error)]
pub enum NoteError {
    #[error(transparent)]
    File(#[from] crate::file_error::FileError),
    #[error("cannot run git to write the note on {commit}: {source}")]
    Git {
        commit: String,
        source: std::io::Error,
    },
    #[error("git refused the note on {commit}: {stderr}")]
    Refused { commit: String, stderr: String },
    #[error("the machine's key cannot be used: {0}")]
    Key(#[from] crate::secrets::machine::MachineError),
    #[error(transparent)]
    Ledger(#[from] crate::ledger::LedgerError),
}

/// Write a note for every commit of the journal not noted yet, in order, signed by this
/// machine (`machine` gives its id, asked only when a note is due). Each note covers the
/// agent's edits in its session since the session's previous commit.
pub fn flush(
    root: &Path,
    secrets_dir: &Path,
    machine: impl FnOnce() -> Result<String, crate::ledger::LedgerError>,
) -> Result<Flushed, NoteError> {
    let mut out = Flushed::default();
    // Stop asks after every turn: when the journal ends where the notes do, nothing is read.
    let from = link::noted(root);
    let journal = crate::layout::Layout::new(root).commits();
    if std::fs::symlink_metadata(&journal).map_or(0, |m| m.len()) <= from {
        return Ok(out);
    }
    let links = link::read(root)?;
    if links.iter().all(|(_, end)| *end <= from) {
        return Ok(out);
    }
    let key = MachineKey::load_or_create(secrets_dir)?;
    let machine = machine()?;
    let journals = Journals::read(root, secrets_dir);
    for (i, (l, end)) in links.iter().enumerate() {
        if *end <= from {
            continue;
        }
        let before = links[..i]
            .iter()
            .rev()
            .find(|(p, _)| p.session == l.session)
            .map(|(p, _)| p.at);
        if exists(root, &l.commit) {
            let mut note = build(root, l, before, &journals, &machine);
            note.sign(&key);
            write(root, &note)?;
            out.written += 1;
        } else {
            out.gone.push(l.commit.clone());
        }
        link::mark_noted(root, *end)?;
    }
    Ok(out)
}

/// The journals a note is built from, read once per flush.
struct Journals {
    proof: Vec<crate::proof::Entry>,
    timeline: Vec<crate::timeline::Line>,
    grants: Vec<Grant>,
}

impl Journals {
    fn read(root: &Path, secrets_dir: &Path) -> Journals {
        let proof = crate::state::observe::entries(root, 0, None).unwrap_or_default();
        let timeline = crate::timeline::read(root, None)
            .map(|l| l.items.into_iter().map(|(_, x)| x).collect())
            .unwrap_or_default();
        let key = Key::load(secrets_dir).ok().flatten();
        let state = crate::layout::Layout::new(root).state_dir();
        let grants = Journal::read(&state, key.as_ref())
            .map(|j| j.grants().to_vec())
            .unwrap_or_default();
        Journals {
            proof,
            timeline,
            grants,
        }
    }
}

/// The note for `l`: the session's edits, prompt and approvals after `before` (its previous
/// commit), up to the commit.
fn build(root: &Path, l: &Link, before: Option<Ts>, j: &Journals, machine: &str) -> Note {
    let after = |at: Ts| before.is_none_or(|b| at > b) && at <= l.at;
    let mine = |s: Option<&str>| s == l.session.as_deref();
    let mut edits = Vec::new();
    for e in &j.proof {
        let Ok(at) = Ts::parse_loose(&e.timestamp) else {
            continue;
        };
        if !after(at) || !mine(e.session_id.as_deref()) {
            continue;
        }
        for (file, lines) in &e.wrote {
            edits.push(Edit {
                file: relative(root, file),
                tool: e.tool.clone(),
                at: e.timestamp.clone(),
                tool_use_id: e.tool_use_id.clone(),
                lines: lines.clone(),
            });
        }
    }
    let prompt = j
        .timeline
        .iter()
        .filter(|x| x.at <= l.at && mine(Some(&x.session)))
        .filter_map(|x| match &x.seen {
            Seen::Prompt { text } => Some(Said {
                at: x.at.to_string(),
                text: text.clone(),
            }),
            _ => None,
        })
        .next_back();
    // The session's first line bounds its approvals when it has no commit before this one.
    let started = j
        .timeline
        .iter()
        .find(|x| mine(Some(&x.session)))
        .map(|x| x.at);
    let approvals = j
        .grants
        .iter()
        .filter_map(|g| match g {
            Grant::Allow {
                at, id, by, action, ..
            } => {
                let t = Ts::parse_loose(at).ok()?;
                let from = before.or(started);
                (from.is_none_or(|f| t >= f) && t <= l.at).then(|| Approval {
                    id: id.clone(),
                    at: at.clone(),
                    by: *by,
                    action: action.clone(),
                })
            }
            _ => None,
        })
        .collect();
    Note {
        trail: VERSION,
        commit: l.commit.clone(),
        session: l.session.clone(),
        at: l.at.to_string(),
        tool_use_id: l.tool_use_id.clone(),
        command: l.command.clone(),
        record: l.record.clone(),
        prompt,
        edits,
        approvals,
        machine: machine.to_string(),
        sig: String::new(),
    }
}

/// `file` as a path relative to the repository's top (a tool names files absolutely).
pub fn relative(root: &Path, file: &str) -> String {
    let top = crate::project::Project::discover(root).root;
    let p = Path::new(file);
    let rel = p
        .strip_prefix(&top)
        .or_else(|_| p.strip_prefix(root))
        .unwrap_or(p);
    rel.to_string_lossy().trim_start_matches("./").to_string()
}

/// Whether git has the commit.
fn exists(root: &Path, commit: &str) -> bool {
    crate::git::command(root)
        .args(["cat-file", "-e", &format!("{commit}^{{commit}}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `git notes --ref refs/notes/trail add -f -F - <commit>`, the note on stdin.
fn write(root: &Path, note: &Note) -> Result<(), NoteError> {
    let git = |source| NoteError::Git {
        commit: note.commit.clone(),
        source,
    };
    let text = serde_json::to_string(note).unwrap_or_default();
    let mut child = crate::git::command(root)
        .args([
            "notes",
            "--ref",
            NOTES_REF,
            "add",
            "-f",
            "-F",
            "-",
            &note.commit,
        ])
        // The person's identity is git's to find; without one, a fixed name (a note needs one).
        .env("GIT_AUTHOR_NAME", "trail")
        .env("GIT_AUTHOR_EMAIL", "trail@localhost")
        .env("GIT_COMMITTER_NAME", "trail")
        .env("GIT_COMMITTER_EMAIL", "trail@localhost")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(git)?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(text.as_bytes()).map_err(git)?;
    }
    let out = child.wait_with_output().map_err(git)?;
    if out.status.success() {
        Ok(())
    } else {
        Err(NoteError::Refused {
            commit: note.commit.clone(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        })
    }
}

/// What [`read`] found: each commit's note (its raw text) and `Trail-Session:` trailer.
#[derive(Debug, Default)]
pub struct Found {
    pub notes: BTreeMap<String, String>,
    pub trailers: BTreeMap<String, String>,
}

/// The notes of `commits` that exist, as their raw text, and the trailers of their messages:
/// one `notes list` and one `cat-file --batch`, however many commits.
pub fn read(root: &Path, commits: &[String]) -> Found {
    let mut out = Found::default();
    if commits.is_empty() {
        return out;
    }
    let wanted: std::collections::HashSet<&str> = commits.iter().map(String::as_str).collect();
    let pairs: Vec<(String, String)> = crate::git::command(root)
        .args(["notes", "--ref", NOTES_REF, "list"])
        .output()
        .map(|list| {
            String::from_utf8_lossy(&list.stdout)
                .lines()
                .filter_map(|l| {
                    let (blob, commit) = l.split_once(' ')?;
                    wanted
                        .contains(commit)
                        .then(|| (blob.to_string(), commit.to_string()))
                })
                .collect()
        })
        .unwrap_or_default();
    let Ok(mut child) = crate::git::command(root)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return out;
    };
    // The notes' blobs, then the commits themselves (for their messages' trailers).
    let asked: Vec<(&str, &str, bool)> = pairs
        .iter()
        .map(|(b, c)| (b.as_str(), c.as_str(), true))
        .chain(commits.iter().map(|c| (c.as_str(), c.as_str(), false)))
        .collect();
    let input: String = asked.iter().flat_map(|(o, _, _)| [*o, "\n"]).collect();
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    let Ok(done) = child.wait_with_output() else {
        return out;
    };
    let mut rest: &[u8] = &done.stdout;
    for (_, commit, is_note) in asked {
        // `<oid> <type> <size>\n<bytes>\n`, or `<name> missing\n`
        let Some(nl) = rest.iter().position(|&b| b == b'\n') else {
            break;
        };
        let header = String::from_utf8_lossy(&rest[..nl]).to_string();
        rest = &rest[nl + 1..];
        let Some(size) = header
            .split(' ')
            .nth(2)
            .and_then(|s| s.parse::<usize>().ok())
        else {
            continue;
        };
        if rest.len() < size {
            break;
        }
        let text = String::from_utf8_lossy(&rest[..size]).into_owned();
        rest = rest.get(size + 1..).unwrap_or_default();
        if is_note {
            out.notes.insert(commit.to_string(), text);
        } else if let Some((_, message)) = text.split_once("\n\n")
            && let Some(session) = super::trailer::parse(message)
        {
            out.trailers.insert(commit.to_string(), session);
        }
    }
    out
}
