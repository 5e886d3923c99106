//! [`Secrets`]: redaction as one service.
//!
//! Everything trail writes to a journal, a view or a state file, prints, or injects into an
//! agent's context passes through a [`Secrets`], and whatever it replaces is kept in the secret
//! store before the redacted text is handed back. So a reference trail has let out can always be
//! looked up again (`${secret:github-pat-1a2b3c4d}` → the token), and no writer has to carry the
//! secrets it found to the store itself: when each did, the dream and SessionStart's core memory
//! forgot to, and PostToolUse kept the same key twice (see [`Pass::redact_json`]).
//!
//! One service per process, built from the configuration (`Config::secrets`): the built-in
//! rules, the person's `[[secrets.rules]]`, and where the store is. Building it costs a few
//! small allocations; the user's rules are compiled on the first redaction, the built-in ones
//! only when a text holds one of their keywords ([`Redactor`]), and the store is opened only
//! when something was found. An allowed tool call, whose hook never redacts, pays nothing.
//!
//! Each original is written once: the store skips names it already holds, and the service
//! remembers what it stored, so that the next writer of the same process does not read the
//! store again.

use std::borrow::Cow;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use serde_json::Value;

use super::{Found, Redactor, RuleSpec, SecretStore, SecretsError};

/// Redaction, with the originals kept: see the module docs.
pub struct Secrets {
    store: SecretStore,
    rules: Vec<RuleSpec>,
    /// The built-in rules and the user's, once the user's compiled (a broken rule is reported
    /// on every use, not cached). Unused without user rules: the built-in redactor is shared.
    with_rules: OnceLock<Redactor>,
    /// Names this service has stored: written once per process, whoever asks again.
    kept: Mutex<HashSet<String>>,
    /// Whether a broken user rule was already reported by [`Secrets::redact_anyway`].
    told: AtomicBool,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secrets")
            .field("store", &self.store.path())
            .field("rules", &self.rules.len())
            .finish_non_exhaustive()
    }
}

impl Secrets {
    /// A service keeping originals in `secrets_dir` (`$HOME/.secrets`), with `rules` added to the
    /// built-in ones. Nothing is compiled, read or created until a text needs it.
    pub fn new(secrets_dir: impl Into<PathBuf>, rules: Vec<RuleSpec>) -> Secrets {
        Secrets {
            store: SecretStore::new(secrets_dir.into()),
            rules,
            with_rules: OnceLock::new(),
            kept: Mutex::new(HashSet::new()),
            told: AtomicBool::new(false),
        }
    }

    /// The file the originals are kept in (`<secrets_dir>/trail.env`).
    pub fn store_path(&self) -> &Path {
        self.store.path()
    }

    /// The original behind a reference (`${secret:github-pat-1a2b3c4d}` or its name), if kept.
    pub fn lookup(&self, name: &str) -> Result<Option<String>, SecretsError> {
        self.store.lookup(name)
    }

    /// The detection engine alone, which keeps nothing: for text shown from where it is already
    /// kept as written (a search hit quotes a file, whose secrets are still in it), and to check
    /// the user's rules. Whatever trail writes goes through [`Secrets::redact`] instead.
    pub fn redactor(&self) -> Result<&Redactor, SecretsError> {
        if self.rules.is_empty() {
            return Ok(Redactor::builtin());
        }
        if let Some(r) = self.with_rules.get() {
            return Ok(r);
        }
        let r = Redactor::with_extra(&self.rules)?;
        Ok(self.with_rules.get_or_init(|| r))
    }

    /// `text` with every secret replaced by its reference, the originals kept first. A text
    /// without secrets comes back borrowed. Fails, and hands back nothing to write, when a user
    /// rule is broken or an original cannot be kept.
    pub fn redact<'a>(&self, text: &'a str) -> Result<Cow<'a, str>, SecretsError> {
        self.pass(|p| p.redact(text))
    }

    /// Runs `f` with a [`Pass`] that redacts any number of texts, then keeps every original it
    /// found with one write of the store, and returns what `f` returned. For a writer that
    /// redacts many pieces of one thing (the fields of a record, the lines of a block): what it
    /// writes is whole or not at all, and the store is synced once. `f` must not write what it
    /// redacts: the originals are not kept until `pass` returns `Ok`.
    pub fn pass<T>(&self, f: impl FnOnce(&mut Pass<'_>) -> T) -> Result<T, SecretsError> {
        let mut pass = Pass {
            redactor: self.redactor()?,
            found: Vec::new(),
        };
        let out = f(&mut pass);
        self.keep(&pass.found)?;
        Ok(out)
    }

    /// [`Secrets::pass`] for a dry run: the same redaction, and nothing kept (a dry run writes
    /// nothing, so nothing it redacted needs an original on file).
    pub fn dry_pass<T>(&self, f: impl FnOnce(&mut Pass<'_>) -> T) -> Result<T, SecretsError> {
        let mut pass = Pass {
            redactor: self.redactor()?,
            found: Vec::new(),
        };
        Ok(f(&mut pass))
    }

    /// A pass that keeps the originals, or, when `dry`, a [`Secrets::dry_pass`].
    pub fn pass_or_dry<T>(
        &self,
        dry: bool,
        f: impl FnOnce(&mut Pass<'_>) -> T,
    ) -> Result<T, SecretsError> {
        if dry { self.dry_pass(f) } else { self.pass(f) }
    }

    /// [`Secrets::redact`] for text that must go out whatever happens: a hook's report on
    /// stderr, the junction that stops a tool call. A broken user rule leaves the built-in rules
    /// working; an original that cannot be kept is lost, never the redaction. Each problem is
    /// handed to `trouble` (a broken rule once per service), and `text` still comes back
    /// redacted by every rule that works.
    pub fn redact_anyway<'a>(
        &self,
        text: &'a str,
        trouble: &mut dyn FnMut(SecretsError),
    ) -> Cow<'a, str> {
        let redactor = match self.redactor() {
            Ok(r) => r,
            Err(e) => {
                if !self.told.swap(true, Ordering::Relaxed) {
                    trouble(e);
                }
                Redactor::builtin()
            }
        };
        let mut found = Vec::new();
        let out = redactor.redact(text, &mut found);
        if let Err(e) = self.keep(&found) {
            trouble(e);
        }
        out
    }

    /// Stores the originals this service has not stored yet, in one write.
    fn keep(&self, found: &[Found]) -> Result<(), SecretsError> {
        if found.is_empty() {
            return Ok(());
        }
        let mut kept = self
            .kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut new: Vec<&Found> = found.iter().filter(|f| !kept.contains(&f.name)).collect();
        new.sort_by(|a, b| a.name.cmp(&b.name));
        new.dedup_by(|a, b| a.name == b.name);
        if new.is_empty() {
            return Ok(());
        }
        self.store.store(new.iter().copied())?;
        kept.extend(new.into_iter().map(|f| f.name.clone()));
        Ok(())
    }
}

/// One writer's redactions, kept together when [`Secrets::pass`] returns.
pub struct Pass<'s> {
    redactor: &'s Redactor,
    found: Vec<Found>,
}

impl Pass<'_> {
    /// `text` with every secret replaced by its reference (kept when the pass ends).
    pub fn redact<'a>(&mut self, text: &'a str) -> Cow<'a, str> {
        self.redactor.redact(text, &mut self.found)
    }

    /// [`Pass::redact`] into `text` itself.
    pub fn redact_in_place(&mut self, text: &mut String) {
        if let Cow::Owned(s) = self.redact(text) {
            *text = s;
        }
    }

    /// Every string in `v` redacted as the text it is. A JSON document must not be redacted
    /// as its serialisation: a secret with a newline or a quote in it would be found in its
    /// escaped form, kept escaped (useless to look up) and under another name than the same
    /// secret found as written, so kept twice. Object keys are names chosen by a program and
    /// left as they are.
    pub fn redact_json(&mut self, v: &mut Value) {
        match v {
            Value::String(s) => self.redact_in_place(s),
            Value::Array(items) => items.iter_mut().for_each(|x| self.redact_json(x)),
            Value::Object(map) => map.values_mut().for_each(|x| self.redact_json(x)),
            _ => {}
        }
    }

    /// The names of the secrets replaced so far in this pass, each once, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.found.iter().map(|f| f.name.clone()).collect();
        names.sort();
        names.dedup();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ";

    fn broken_rule() -> RuleSpec {
        RuleSpec {
            name: "acme".into(),
            regex: "acme_(".into(),
            example: "acme_x".into(),
            keywords: Vec::new(),
            file: None,
        }
    }

    #[test]
    fn clean_text_comes_back_borrowed_and_touches_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
        let text = "cargo test -p trail -- --nocapture";
        assert!(matches!(secrets.redact(text).unwrap(), Cow::Borrowed(t) if t == text));
        assert!(!dir.path().join(".secrets").exists());
    }

    #[test]
    fn each_original_is_kept_once_whoever_redacts_it() {
        let dir = tempfile::tempdir().unwrap();
        let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
        let line = format!("export GITHUB_TOKEN={TOKEN}");
        let first = secrets.redact(&line).unwrap().into_owned();
        let names = secrets
            .pass(|p| {
                let again = p.redact(&line).into_owned();
                assert_eq!(again, first, "redaction is deterministic");
                p.redact(&format!("push with {TOKEN}"));
                p.names()
            })
            .unwrap();
        assert_eq!(names.len(), 1, "{names:?}");
        // Another process (another service) finds it stored and adds nothing.
        Secrets::new(dir.path().join(".secrets"), Vec::new())
            .redact(&line)
            .unwrap();
        let kept = std::fs::read_to_string(secrets.store_path()).unwrap();
        assert_eq!(kept.matches(TOKEN).count(), 1, "{kept}");
        let reference = first.trim_start_matches("export GITHUB_TOKEN=");
        assert_eq!(secrets.lookup(reference).unwrap().as_deref(), Some(TOKEN));
    }

    #[test]
    fn a_broken_rule_fails_redact_and_leaves_redact_anyway_the_built_in_rules() {
        let dir = tempfile::tempdir().unwrap();
        let secrets = Secrets::new(dir.path().join(".secrets"), vec![broken_rule()]);
        assert!(matches!(
            secrets.redact("anything"),
            Err(SecretsError::BadRegex { .. })
        ));
        let mut told = Vec::new();
        for _ in 0..2 {
            let out = secrets.redact_anyway(TOKEN, &mut |e| told.push(e.to_string()));
            assert!(out.starts_with("${secret:github-pat-"), "{out}");
        }
        assert_eq!(told.len(), 1, "reported once: {told:?}");
        let kept = std::fs::read_to_string(secrets.store_path()).unwrap();
        assert!(kept.contains(TOKEN), "still kept: {kept}");
    }

    #[test]
    fn an_unwritable_store_fails_redact_but_not_the_redaction_of_redact_anyway() {
        let dir = tempfile::tempdir().unwrap();
        let not_a_dir = dir.path().join(".secrets");
        std::fs::write(&not_a_dir, "a file").unwrap();
        let secrets = Secrets::new(&not_a_dir, Vec::new());
        assert!(matches!(
            secrets.redact(TOKEN),
            Err(SecretsError::Store { .. })
        ));
        let mut told = 0;
        let out = secrets.redact_anyway(TOKEN, &mut |_| told += 1);
        assert!(!out.contains(TOKEN) && told == 1, "{out}");
    }
}
