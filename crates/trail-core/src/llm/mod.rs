//! What every model behind `trail dream` shares: the [`Provider`] trait, the [`Settings`] read
//! from the configuration, the errors, and the `command` provider (any command that reads a
//! prompt on stdin). The HTTP providers (OpenAI-compatible, Anthropic) live in the `trail-llm`
//! crate, so that trail-core links no HTTP client or TLS; `extractive` needs no model at all.
//!
//! Everything here is reached only from `trail dream`, never from the hook path. A provider is
//! built (and its settings checked: key, model, command) before anything is sent, so a missing
//! setting is reported before any work is done. What a model answers is hostile input: the
//! callers parse and verify it, nothing here trusts it.

pub mod command;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::config::{Config, Env, LlmProvider};

/// The environment variable (and `~/.secrets/trail.env` entry) holding the API key.
pub const KEY_VAR: &str = "TRAIL_LLM_API_KEY";

/// What a provider is asked.
pub struct Request<'a> {
    /// Instructions: the output format and the no-fabrication rule.
    pub system: &'a str,
    /// The material itself, as text.
    pub user: &'a str,
    /// The same material, structured, for providers that do not read prose (extractive).
    pub memory: &'a str,
    /// Daily files in the window, oldest first: (`memory/DATE.md`, text).
    pub days: &'a [(String, String)],
}

/// One way to get an answer.
pub trait Provider {
    /// `openai model gpt-x at https://…`, for progress lines and the diary.
    fn describe(&self) -> String;
    /// The answer's text. `progress` receives status lines (retries, waits).
    fn complete(
        &self,
        req: &Request<'_>,
        progress: &mut dyn FnMut(&str),
    ) -> Result<String, LlmError>;
}

/// Resolved settings for one run.
#[derive(Clone, Debug)]
pub struct Settings {
    pub provider: LlmProvider,
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub command: Option<String>,
    pub timeout: Duration,
    pub retries: u32,
    /// Never printed; see [`Settings::from_config`] for where it comes from.
    pub api_key: Option<String>,
    /// Where the key was found, for messages (`$TRAIL_LLM_API_KEY`, `~/.secrets/trail.env`).
    pub key_origin: Option<String>,
}

impl Settings {
    /// Settings from the configuration; the API key from `$TRAIL_LLM_API_KEY`, then the
    /// provider's own variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`), then
    /// `TRAIL_LLM_API_KEY` in `<secrets_dir>/trail.env`. Never from a config file.
    pub fn from_config(c: &Config, env: &dyn Env) -> Settings {
        let own = match c.llm_provider.value {
            LlmProvider::Openai => Some("OPENAI_API_KEY"),
            LlmProvider::Anthropic => Some("ANTHROPIC_API_KEY"),
            _ => None,
        };
        let mut key = None;
        for var in std::iter::once(KEY_VAR).chain(own) {
            if let Some(v) = env.var(var).filter(|v| !v.trim().is_empty()) {
                key = Some((v.trim().to_string(), format!("${var}")));
                break;
            }
        }
        if key.is_none() {
            let file = c.secrets_dir.value.join("trail.env");
            if let Some(v) = key_from_file(&file) {
                key = Some((v, file.display().to_string()));
            }
        }
        let (api_key, key_origin) = key.unzip();
        Settings {
            provider: c.llm_provider.value,
            base_url: c
                .llm_base_url
                .value
                .clone()
                .map(|u| u.trim_end_matches('/').to_string()),
            model: c.llm_model.value.clone(),
            command: c.llm_command.value.clone(),
            timeout: c.llm_timeout.value,
            retries: c.llm_retries.value,
            api_key,
            key_origin,
        }
    }

    /// The model, or [`LlmError::NoModel`].
    pub fn model_or_err(&self) -> Result<String, LlmError> {
        self.model
            .clone()
            .filter(|m| !m.trim().is_empty())
            .ok_or(LlmError::NoModel {
                provider: self.provider,
            })
    }

    /// The API key, or [`LlmError::NoKey`].
    pub fn key_or_err(&self) -> Result<String, LlmError> {
        self.api_key.clone().ok_or(LlmError::NoKey {
            provider: self.provider,
        })
    }
}

/// `NAME="escaped"` (as trail writes it) or `NAME=raw` / `export NAME=raw` (as people do).
fn key_from_file(path: &Path) -> Option<String> {
    let store = crate::secrets::SecretStore::new(path.parent()?.to_path_buf());
    if let Ok(Some(v)) = store.lookup(KEY_VAR) {
        return Some(v).filter(|v| !v.trim().is_empty());
    }
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().find_map(|l| {
        let l = l.trim();
        let l = l.strip_prefix("export ").unwrap_or(l);
        let (name, value) = l.split_once('=')?;
        let v = value.trim().trim_matches(|c| c == '"' || c == '\'');
        (name.trim() == KEY_VAR && !v.is_empty()).then(|| v.to_string())
    })
}

/// Why there is no answer (the binary says what to fix for each).
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// A provider that needs a model was given none; nothing was sent.
    #[error("the {provider} provider needs a model name")]
    NoModel { provider: LlmProvider },
    /// A provider that needs an API key found none; nothing was sent.
    #[error("{KEY_VAR} is not set (the {provider} provider needs an API key)")]
    NoKey { provider: LlmProvider },
    /// The `command` provider was given no command; nothing was run.
    #[error("the command provider needs a command to run")]
    NoCommand,
    #[error("{what} did not answer within {}", secs(*after))]
    Timeout { what: String, after: Duration },
    #[error("cannot reach {url}: {message}")]
    Connect { url: String, message: String },
    #[error("{what} answered HTTP {status}{}: {detail}", if *attempts > 1 { format!(" ({attempts} attempts)") } else { String::new() })]
    Status {
        what: String,
        status: u16,
        attempts: u32,
        detail: String,
    },
    #[error("{what} sent an answer trail cannot read: {detail}")]
    BadAnswer { what: String, detail: String },
    #[error("the command `{command}` failed: {detail}")]
    Command { command: String, detail: String },
}

fn secs(d: Duration) -> String {
    if d.as_millis().is_multiple_of(1000) {
        format!("{} s", d.as_secs())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// A short, single-line excerpt of a service's error body (its `error.message` when JSON).
pub fn excerpt(body: &str) -> String {
    let msg = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            v.pointer("/error/message")
                .or_else(|| v.get("error"))
                .or_else(|| v.get("message"))
                .and_then(|m| m.as_str().map(str::to_string))
        })
        .unwrap_or_else(|| body.to_string());
    let out = crate::text::one_line(&msg, 300);
    if out.is_empty() {
        "(empty body)".into()
    } else {
        out
    }
}

/// Where the secrets live, for messages.
pub fn secrets_file(c: &Config) -> PathBuf {
    c.secrets_dir.value.join("trail.env")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_read_from_an_env_style_secrets_file_quoted_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("trail.env");
        std::fs::write(&f, "# keys\nOTHER=\"x\"\nTRAIL_LLM_API_KEY=\"sk-quoted\"\n").unwrap();
        assert_eq!(key_from_file(&f).as_deref(), Some("sk-quoted"));
        std::fs::write(&f, "export TRAIL_LLM_API_KEY=sk-raw\n").unwrap();
        assert_eq!(key_from_file(&f).as_deref(), Some("sk-raw"));
        std::fs::write(&f, "TRAIL_LLM_API_KEY=\n").unwrap();
        assert_eq!(key_from_file(&f), None);
        assert_eq!(key_from_file(&dir.path().join("missing.env")), None);
    }

    #[test]
    fn error_excerpts_are_short_single_lines() {
        assert_eq!(
            excerpt(r#"{"error":{"message":"Invalid\nkey","type":"auth"}}"#),
            "Invalid key"
        );
        assert_eq!(excerpt(""), "(empty body)");
        assert!(excerpt(&"x".repeat(1000)).chars().count() <= 301);
    }
}
