//! Fingerprints and the grants journal.
//!
//! A fingerprint names what a decision covers (§4): `sha256` of the canonical JSON of
//! `{type, reason, key_params}` for an allowance (this exact action) and of `{type,
//! key_params}` for a dismissal. The spec leaves `key_params` open; trail uses the tool and the
//! exact command for an allowance, and the tool and the gate rule for a dismissal, so
//! `dismiss` means "stop asking about `git push` for an hour" — the spec's own use case.
//!
//! The state file mirrors allowances and dismissals, but it is a file the agent can edit. What
//! counts is `.trail/state/grants.jsonl`: an append-only journal written only by the human
//! paths (`trail approve|dismiss` in a terminal, `/edge approve|dismiss` typed as a prompt) and
//! by consumption. An allowance found in the state file but not in the journal is forged and
//! ignored.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::time::Ts;

/// What a junction is about, before it is hashed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subject {
    /// `irreversible`, `external`, `ambiguous` or `quality_gate`.
    pub kind: &'static str,
    pub reason: String,
    /// The gate rule (or `quality_gate`).
    pub rule: String,
    pub tool: String,
    /// The exact action: the command line, or what a quality gate found.
    pub action: String,
}

fn canonical_hash(v: &BTreeMap<&str, Value>) -> String {
    // BTreeMap serialises its keys sorted: the canonical form.
    let json = serde_json::to_string(v).unwrap_or_default();
    crate::ledger::frame::hex(&Sha256::digest(json.as_bytes()).into())
}

fn params(pairs: &[(&'static str, &str)]) -> Value {
    let m: BTreeMap<&str, &str> = pairs.iter().copied().collect();
    serde_json::to_value(m).unwrap_or_default()
}

impl Subject {
    pub fn allowance_fingerprint(&self) -> String {
        let mut m = BTreeMap::new();
        m.insert("type", Value::from(self.kind));
        m.insert("reason", Value::from(self.reason.as_str()));
        m.insert(
            "key_params",
            params(&[("tool", &self.tool), ("action", self.action.trim())]),
        );
        canonical_hash(&m)
    }

    pub fn dismissal_fingerprint(&self) -> String {
        let mut m = BTreeMap::new();
        m.insert("type", Value::from(self.kind));
        m.insert(
            "key_params",
            params(&[("tool", &self.tool), ("rule", &self.rule)]),
        );
        canonical_hash(&m)
    }
}

/// The junction type of a gate rule.
pub fn kind_of_rule(rule: &str) -> &'static str {
    match rule {
        "publish" | "infrastructure" | "http-write" => "external",
        "unparseable" | "unverifiable" | "obfuscation" | "pipe-to-shell" => "ambiguous",
        "quality_gate" => "quality_gate",
        _ => "irreversible",
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
    state_dir.join("grants.jsonl")
}

/// The journal's verdicts.
#[derive(Clone, Debug, Default)]
pub struct Journal {
    grants: Vec<Grant>,
}

impl Journal {
    /// Reads the journal; a torn or foreign line is skipped (it grants nothing).
    pub fn read(state_dir: &Path) -> std::io::Result<Journal> {
        let text = match std::fs::read_to_string(journal_path(state_dir)) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e),
        };
        Ok(Journal {
            grants: text
                .lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect(),
        })
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
            .filter(|e| Ts::parse_loose(e).is_ok_and(|t| t > now))
            .max()
    }

    pub fn dismissed(&self, fingerprint: &str, expires_at: &str) -> bool {
        self.grants.iter().any(|g| {
            matches!(g, Grant::Dismiss { fingerprint: f, expires_at: e, .. } if f == fingerprint && e == expires_at)
        })
    }
}

/// Appends one grant as one synced line.
pub fn append(state_dir: &Path, g: &Grant) -> std::io::Result<()> {
    crate::fsutil::ensure_dir(state_dir)?;
    let mut line = serde_json::to_string(g).map_err(std::io::Error::other)?;
    line.push('\n');
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(journal_path(state_dir))?;
    f.write_all(line.as_bytes())?;
    f.sync_data()
}

/// A short random-enough id (time and pid; ids only need to be unique within one project).
pub fn new_id(prefix: &str) -> String {
    let mut h = Sha256::new();
    h.update(Ts::now().to_string().as_bytes());
    h.update(std::process::id().to_le_bytes());
    let d = h.finalize();
    format!("{prefix}-{}", &crate::ledger::frame::hex(&d.into())[..10])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn push() -> Subject {
        Subject {
            kind: "irreversible",
            reason: "pushing changes others' copy".into(),
            rule: "git-push".into(),
            tool: "Bash".into(),
            action: "git push origin main".into(),
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
        )
        .unwrap();
        let j = Journal::read(dir.path()).unwrap();
        assert_eq!(j.open_allowance(&fp), Some("a-1"));
        append(
            dir.path(),
            &Grant::Consume {
                at: now.to_string(),
                id: "a-1".into(),
                fingerprint: fp.clone(),
            },
        )
        .unwrap();
        // A torn last line grants nothing and breaks nothing.
        std::fs::OpenOptions::new()
            .append(true)
            .open(journal_path(dir.path()))
            .unwrap()
            .write_all(b"{\"event\":\"allow\",\"at\":")
            .unwrap();
        let j = Journal::read(dir.path()).unwrap();
        assert_eq!(j.open_allowance(&fp), None);
        let dfp = push().dismissal_fingerprint();
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
            )
            .unwrap();
        }
        let j = Journal::read(dir.path()).unwrap();
        assert_eq!(
            j.active_dismissal(&dfp, now),
            Some(later.to_string().as_str())
        );
        assert_eq!(j.active_dismissal(&dfp, later), None);
    }
}
