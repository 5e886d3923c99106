//! The pending junction, as trail recorded it: `.trail/state/pending.json`.
//!
//! The state file shows the pending junction too, but it is the agent's to edit: a junction
//! whose `command` and `reason` were rewritten there would have a person approve one thing
//! while the fingerprint beside it allowed another. So the junction a person decides on lives
//! here, in trail's own directory (which the gate refuses to let the agent write), signed with
//! the person's [`Key`]; and what `trail status`, `/edge` and SessionStart show is rendered from
//! the same [`Subject`] whose fields are hashed into the fingerprints at approval. A file here
//! without a valid MAC is ignored (and reported), never decided on.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::grants::Subject;
use super::schema::Junction;
use crate::file_error::{At, FileError};
use crate::secrets::key::Key;

/// A pending junction is a few hundred bytes; anything much larger was not written by trail.
const CAP: u64 = 1 << 20;

pub fn path(state_dir: &Path) -> PathBuf {
    state_dir.join(crate::layout::Layout::PENDING)
}

/// A junction waiting for a person.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pending {
    pub id: String,
    pub created_at: String,
    pub subject: Subject,
}

/// What is in `pending.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    None,
    Valid(Pending),
    /// A file trail did not write (no valid MAC, or not readable as a junction).
    Forged(String),
}

impl Pending {
    /// The junction as the state file shows it (§4 fields plus what the person needs to see).
    pub fn view(&self) -> Junction {
        let s = &self.subject;
        Junction {
            id: self.id.clone(),
            kind: s.kind.clone(),
            reason: s.reason.clone(),
            created_at: self.created_at.clone(),
            fingerprint: s.allowance_fingerprint(),
            dismiss_fingerprint: s.dismissal_fingerprint(),
            rule: Some(s.rule.clone()),
            tool: Some(s.tool.clone()),
            command: Some(s.action.clone()),
            extra: serde_json::Map::new(),
        }
    }

    fn signed_bytes(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Reads the pending junction; `key` is the person's (without one nothing can be valid).
pub fn read(state_dir: &Path, key: Option<&Key>) -> Result<Found, FileError> {
    let p = path(state_dir);
    read_io(state_dir, &p, key).at("read", &p)
}

fn read_io(state_dir: &Path, p: &Path, key: Option<&Key>) -> std::io::Result<Found> {
    let root = super::grants::project_root(state_dir);
    let text = match crate::fsutil::read_in(root, p, CAP) {
        Ok(t) => String::from_utf8_lossy(&t).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Found::None),
        Err(e) if crate::fsutil::refusal(&e).is_some() => return Ok(Found::Forged(e.to_string())),
        Err(e) => return Err(e.into()),
    };
    let forged = |why: &str| Found::Forged(format!("{}: {why}", p.display()));
    let Ok(mut v) = serde_json::from_str::<Value>(&text) else {
        return Ok(forged("not JSON"));
    };
    let mac = v
        .as_object_mut()
        .and_then(|m| m.remove("mac"))
        .and_then(|m| m.as_str().map(String::from));
    let Ok(pending) = serde_json::from_value::<Pending>(v) else {
        return Ok(forged("not a junction trail wrote"));
    };
    match (key, mac) {
        (Some(k), Some(m)) if k.verify(pending.signed_bytes().as_bytes(), &m) => {
            Ok(Found::Valid(pending))
        }
        _ => Ok(forged(
            "its signature is not trail's: it was not written by trail",
        )),
    }
}

/// Records `pending` as the junction waiting for a person (atomically, signed).
pub fn write(state_dir: &Path, pending: &Pending, key: &Key) -> Result<(), FileError> {
    let p = path(state_dir);
    write_io(state_dir, &p, pending, key).at("write", &p)
}

fn write_io(state_dir: &Path, p: &Path, pending: &Pending, key: &Key) -> std::io::Result<()> {
    let mut v = serde_json::to_value(pending).map_err(std::io::Error::other)?;
    if let Value::Object(m) = &mut v {
        m.insert(
            "mac".into(),
            Value::from(key.mac(pending.signed_bytes().as_bytes())),
        );
    }
    let mut text = serde_json::to_string_pretty(&v).map_err(std::io::Error::other)?;
    text.push('\n');
    let root = super::grants::project_root(state_dir);
    Ok(crate::fsutil::atomic_write_in(root, p, text.as_bytes())?)
}

/// No junction is pending any more.
pub fn clear(state_dir: &Path) -> Result<(), FileError> {
    let p = path(state_dir);
    match std::fs::remove_file(&p) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(FileError::new("remove", &p, e)),
        _ => Ok(()),
    }
}
