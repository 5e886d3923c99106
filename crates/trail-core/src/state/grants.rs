//! Fingerprints and the grants journal.
//!
//! A fingerprint names what a decision covers (§4): `sha256` of the canonical JSON of
//! `{type, reason, key_params}` for an allowance (this exact action) and of `{type,
//! key_params}` for a dismissal. The spec leaves `key_params` open; trail uses the tool and the
//! exact command for an allowance, and the tool and the gate rule for a dismissal, so
//! `dismiss` means "stop asking about `git push` for an hour" — the spec's own use case.
//!
//! A dismissal's `key_params` also carry the target class the person saw (this directory, this
//! host, this branch: [`Subject::scope`]), so dismissing a write to `~/notes/todo.txt` never
//! covers `~/.bashrc`; a junction on a sensitive target cannot be dismissed at all.
//!
//! The state file mirrors allowances and dismissals, but it is a file the agent can edit. What
//! counts is `.trail/state/grants.jsonl`: an append-only journal written only by the human
//! paths (`trail approve|dismiss` in a terminal, `/edge approve|dismiss` typed as a prompt) and
//! by consumption. Every line carries an HMAC under the person's [`Key`]: a line without a valid
//! one grants nothing, whoever managed to write it. A dismissal longer than
//! [`MAX_DISMISS_MINUTES`] is ignored when read, not only refused when made.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::file_error::{At as _, FileError};
use crate::secrets::key::Key;
use crate::time::Ts;

/// The longest dismissal a person can give (§4 leaves it open; a week).
pub const MAX_DISMISS_MINUTES: u64 = 7 * 24 * 60;

/// What a junction is about, before it is hashed. Every text in it is already redacted: it is
/// stored, shown to the person and sent to the model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subject {
    /// `irreversible`, `external`, `ambiguous` or `quality_gate`.
    pub kind: String,
    pub reason: String,
    /// The gate rule (or `quality_gate`).
    pub rule: String,
    pub tool: String,
    /// The exact action: the command line, or what a quality gate found.
    pub action: String,
    /// The target class a dismissal covers: the directory, host or branch the action reaches
    /// (empty when the rule has no target).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub scope: String,
    /// Why this cannot be dismissed (a sensitive target: shell start-up files, keys,
    /// credentials, agent settings, system paths), when it cannot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sensitive: Option<String>,
}

fn canonical_hash(v: &BTreeMap<&str, Value>) -> String {
    // BTreeMap serialises its keys sorted: the canonical form.
    let json = serde_json::to_string(v).unwrap_or_default();
    crate::text::sha256_hex(json.as_bytes())
}

fn params(pairs: &[(&'static str, &str)]) -> Value {
    let m: BTreeMap<&str, &str> = pairs.iter().copied().collect();
    serde_json::to_value(m).unwrap_or_default()
}

impl Subject {
    pub fn allowance_fingerprint(&self) -> String {
        let mut m = BTreeMap::new();
        m.insert("type", Value::from(self.kind.as_str()));
        m.insert("reason", Value::from(self.reason.as_str()));
        m.insert(
            "key_params",
            params(&[("tool", &self.tool), ("action", self.action.trim())]),
        );
        canonical_hash(&m)
    }

    /// `None` when the junction cannot be dismissed (a sensitive target, or a quality gate,
    /// which is about this one set of issues).
    pub fn dismissal_fingerprint(&self) -> Option<String> {
        if self.sensitive.is_some() || self.kind == "quality_gate" {
            return None;
        }
        let mut m = BTreeMap::new();
        m.insert("type", Value::from(self.kind.as_str()));
        m.insert(
            "key_params",
            params(&[
                ("tool", &self.tool),
                ("rule", &self.rule),
                ("scope", &self.scope),
            ]),
        );
        Some(canonical_hash(&m))
    }
}

/// Who made a grant: only people do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum By {
    /// `trail approve` run in a terminal.
    Terminal,
    /// `/edge approve` typed as a prompt (UserPromptSubmit).
    Prompt,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase")]
pub enum Grant {
    Allow {
        at: String,
        id: String,
        fingerprint: String,
        by: By,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        action: Option<String>,
    },
    Dismiss {
        at: String,
        fingerprint: String,
        expires_at: String,
        by: By,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rule: Option<String>,
    },
    /// An allowance used up (one action ran under it).
    Consume {
        at: String,
        id: String,
        fingerprint: String,
    },
}

pub fn journal_path(state_dir: &Path) -> PathBuf {
    state_dir.join(crate::layout::Layout::GRANTS)
}

/// The journal's verdicts.
#[derive(Clone, Debug, Default)]
pub struct Journal {
    grants: Vec<Grant>,
    /// Lines that carried no valid MAC (forged, or written with another key).
    pub forged: usize,
}

/// The bytes a line's MAC covers: the grant as trail serialises it (field order is the
/// type's, so the same grant always gives the same bytes).
fn signed_bytes(g: &Grant) -> String {
    serde_json::to_string(g).unwrap_or_default()
}

/// One journal line: the grant's fields and its `mac`.
fn line(g: &Grant, key: &Key) -> std::io::Result<String> {
    let mut v = serde_json::to_value(g).map_err(std::io::Error::other)?;
    if let Value::Object(m) = &mut v {
        m.insert(
            "mac".into(),
            Value::from(key.mac(signed_bytes(g).as_bytes())),
        );
    }
    Ok(format!("{v}\n"))
}

/// A line's grant, when its MAC is this key's.
fn verified(l: &str, key: &Key) -> Option<Grant> {
    let mut v: Value = serde_json::from_str(l).ok()?;
    let mac = v.as_object_mut()?.remove("mac")?;
    let g: Grant = serde_json::from_value(v).ok()?;
    key.verify(signed_bytes(&g).as_bytes(), mac.as_str()?)
        .then_some(g)
}

impl Journal {
    /// Reads the journal. A torn line is skipped; a line without a valid MAC under `key` is
    /// counted as forged and grants nothing (with no key, nothing can be valid yet).
    pub fn read(state_dir: &Path, key: Option<&Key>) -> Result<Journal, FileError> {
        let path = journal_path(state_dir);
        let text = match crate::fsutil::read_in(project_root(state_dir), &path, JOURNAL_CAP) {
            Ok(t) => String::from_utf8_lossy(&t).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e),
        };
        let mut j = Journal::default();
        for l in text.lines().filter(|l| !l.trim().is_empty()) {
            match key.and_then(|k| verified(l, k)) {
                Some(g) if g.within_cap() => j.grants.push(g),
                _ => j.forged += 1,
            }
        }
        Ok(j)
    }

    /// Every grant whose MAC holds, in the journal's order.
    pub fn grants(&self) -> &[Grant] {
        &self.grants
    }

    /// The id of an unconsumed allowance for `fingerprint`, oldest first.
    pub fn open_allowance(&self, fingerprint: &str) -> Option<&str> {
        self.grants.iter().find_map(|g| match g {
            Grant::Allow {
                id, fingerprint: f, ..
            } if f == fingerprint && !self.consumed(id) => Some(id.as_str()),
            _ => None,
        })
    }

    pub fn consumed(&self, id: &str) -> bool {
        self.grants
            .iter()
            .any(|g| matches!(g, Grant::Consume { id: c, .. } if c == id))
    }

    /// Whether a person ever granted an allowance with this fingerprint.
    pub fn granted(&self, fingerprint: &str) -> bool {
        self.grants
            .iter()
            .any(|g| matches!(g, Grant::Allow { fingerprint: f, .. } if f == fingerprint))
    }

    /// The latest expiry of a dismissal for `fingerprint` still in force at `now`.
    pub fn active_dismissal(&self, fingerprint: &str, now: Ts) -> Option<&str> {
        self.grants
            .iter()
            .filter_map(|g| match g {
                Grant::Dismiss {
                    fingerprint: f,
                    expires_at,
                    ..
                } if f == fingerprint => Some(expires_at.as_str()),
                _ => None,
            })
            .filter(|e| {
                Ts::parse_loose(e).is_ok_and(|t| {
                    t > now && t.as_micros() - now.as_micros() <= max_dismiss_micros()
                })
            })
            .max()
    }

    pub fn dismissed(&self, fingerprint: &str, expires_at: &str) -> bool {
        self.grants.iter().any(|g| {
            matches!(g, Grant::Dismiss { fingerprint: f, expires_at: e, .. } if f == fingerprint && e == expires_at)
        })
    }
}

/// A journal this large is not one people made by hand: refuse to read it whole.
const JOURNAL_CAP: u64 = 16 << 20;

fn max_dismiss_micros() -> i64 {
    i64::try_from(MAX_DISMISS_MINUTES).unwrap_or(i64::MAX) * 60_000_000
}

impl Grant {
    /// A dismissal longer than the cap is not honoured, whatever it says (a forged or hand-made
    /// line could say year 9999).
    fn within_cap(&self) -> bool {
        match self {
            Grant::Dismiss { at, expires_at, .. } => {
                match (Ts::parse_loose(at), Ts::parse_loose(expires_at)) {
                    (Ok(a), Ok(e)) => e.as_micros() - a.as_micros() <= max_dismiss_micros(),
                    _ => false,
                }
            }
            _ => true,
        }
    }
}

/// The project a `.trail/state` directory belongs to (where safe opens start).
pub(crate) fn project_root(state_dir: &Path) -> &Path {
    state_dir
        .parent()
        .and_then(Path::parent)
        .unwrap_or(state_dir)
}

/// Appends one grant, signed with `key`, as one synced line.
pub fn append(state_dir: &Path, g: &Grant, key: &Key) -> Result<(), FileError> {
    let path = journal_path(state_dir);
    let line = line(g, key).at("sign a grant for", &path)?;
    crate::fsutil::append_in(project_root(state_dir), &path, line.as_bytes()).at("append to", &path)
}

/// A short random-enough id (time and pid; ids only need to be unique within one project).
pub fn new_id(prefix: &str) -> String {
    let mut h = Sha256::new();
    h.update(Ts::now().to_string().as_bytes());
    h.update(std::process::id().to_le_bytes());
    let d = h.finalize();
    format!("{prefix}-{}", &crate::text::hex(&d)[..10])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn push() -> Subject {
        Subject {
            kind: "irreversible".into(),
            reason: "pushing changes others' copy".into(),
            rule: "git-push".into(),
            tool: "Bash".into(),
            action: "git push origin main".into(),
            scope: "origin".into(),
            sensitive: None,
        }
    }

    #[test]
    fn fingerprints_follow_the_spec_fields() {
        let a = push();
        let mut b = push();
        b.action = "git push origin dev".into();
        // An allowance is for this exact action; a dismissal for the class.
        assert_ne!(a.allowance_fingerprint(), b.allowance_fingerprint());
        assert_eq!(a.dismissal_fingerprint(), b.dismissal_fingerprint());
        let mut c = push();
        c.reason = "other words".into();
        assert_ne!(a.allowance_fingerprint(), c.allowance_fingerprint());
        assert_eq!(a.dismissal_fingerprint(), c.dismissal_fingerprint());
        assert_eq!(a.allowance_fingerprint().len(), 64);
    }

    #[test]
    fn an_allowance_is_consumed_once_and_a_dismissal_expires() {
        let dir = tempfile::tempdir().unwrap();
        let key = Key::load_or_create(&dir.path().join(".secrets")).unwrap();
        let fp = push().allowance_fingerprint();
        let now = Ts::now();
        append(
            dir.path(),
            &Grant::Allow {
                at: now.to_string(),
                id: "a-1".into(),
                fingerprint: fp.clone(),
                by: By::Terminal,
                action: None,
            },
            &key,
        )
        .unwrap();
        let j = Journal::read(dir.path(), Some(&key)).unwrap();
        assert_eq!(j.open_allowance(&fp), Some("a-1"));
        append(
            dir.path(),
            &Grant::Consume {
                at: now.to_string(),
                id: "a-1".into(),
                fingerprint: fp.clone(),
            },
            &key,
        )
        .unwrap();
        // A torn last line grants nothing and breaks nothing.
        std::fs::OpenOptions::new()
            .append(true)
            .open(journal_path(dir.path()))
            .unwrap()
            .write_all(b"{\"event\":\"allow\",\"at\":")
            .unwrap();
        let j = Journal::read(dir.path(), Some(&key)).unwrap();
        assert_eq!(j.open_allowance(&fp), None);
        let dfp = push().dismissal_fingerprint().unwrap();
        let past = Ts::from_micros(now.as_micros() - 1_000_000);
        let later = Ts::from_micros(now.as_micros() + 3_600_000_000);
        for e in [past, later] {
            append(
                dir.path(),
                &Grant::Dismiss {
                    at: now.to_string(),
                    fingerprint: dfp.clone(),
                    expires_at: e.to_string(),
                    by: By::Prompt,
                    rule: None,
                },
                &key,
            )
            .unwrap();
        }
        let j = Journal::read(dir.path(), Some(&key)).unwrap();
        assert_eq!(
            j.active_dismissal(&dfp, now),
            Some(later.to_string().as_str())
        );
        assert_eq!(j.active_dismissal(&dfp, later), None);
    }

    #[test]
    fn only_signed_grants_within_the_cap_count() {
        let dir = tempfile::tempdir().unwrap();
        let key = Key::load_or_create(&dir.path().join(".secrets")).unwrap();
        let other = Key::load_or_create(&dir.path().join("elsewhere")).unwrap();
        let dfp = push().dismissal_fingerprint().unwrap();
        let now = Ts::now();
        let forever = Grant::Dismiss {
            at: now.to_string(),
            fingerprint: dfp.clone(),
            expires_at: "9999-01-01T00:00:00Z".into(),
            by: By::Prompt,
            rule: None,
        };
        // Signed with the person's key, a year-9999 dismissal is still not honoured.
        append(dir.path(), &forever, &key).unwrap();
        let j = Journal::read(dir.path(), Some(&key)).unwrap();
        assert_eq!(j.active_dismissal(&dfp, now), None);
        assert_eq!(j.forged, 1);
        // Signed with another key, or unsigned, an allowance grants nothing.
        let fp = push().allowance_fingerprint();
        let allow = Grant::Allow {
            at: now.to_string(),
            id: "a-x".into(),
            fingerprint: fp.clone(),
            by: By::Terminal,
            action: None,
        };
        append(dir.path(), &allow, &other).unwrap();
        let mut unsigned = serde_json::to_string(&allow).unwrap();
        unsigned.push('\n');
        std::fs::OpenOptions::new()
            .append(true)
            .open(journal_path(dir.path()))
            .unwrap()
            .write_all(unsigned.as_bytes())
            .unwrap();
        let j = Journal::read(dir.path(), Some(&key)).unwrap();
        assert_eq!(j.open_allowance(&fp), None);
        assert_eq!(j.forged, 3);
        // No key at all: nothing is valid.
        append(dir.path(), &allow, &key).unwrap();
        assert_eq!(
            Journal::read(dir.path(), None).unwrap().open_allowance(&fp),
            None
        );
        let j = Journal::read(dir.path(), Some(&key)).unwrap();
        assert_eq!(j.open_allowance(&fp), Some("a-x"));
    }
}
