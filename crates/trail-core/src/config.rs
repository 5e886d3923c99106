//! Layered configuration: built-in defaults < `~/.config/trail/config.toml` <
//! `<project>/.trail/config.toml` < environment (`TRAIL_*`) < flags. Every value remembers where
//! it came from, so `trail config` can show it.
//!
//! Loading reads at most two small files and the environment: it is on the hook path.
//!
//! A project file arrives with `git clone`, so it is not the person's word. Settings that run
//! something, send data or keys to a host, or move where secrets, keys and journals live are
//! [`Class::Sensitive`]: from a project file they count only when the person trusted that exact
//! file (`trail trust`, see [`crate::trust`]); otherwise they are left out and listed in
//! [`Config::refused`] with their origin, for the binary to say so. Every key a file can hold is
//! a [`SettingKey`], and [`SettingKey::class`] is an exhaustive match: a key added later cannot
//! be read from a file before someone decides which class it is. Checking trust costs a hash and
//! one more small file, and only when a project file holds a sensitive setting.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::gate::custom::UserRule;
use crate::ledger::LedgerOptions;
use crate::secrets::RuleSpec;
use crate::trust::{self, TrustStore};

/// Where a setting's value came from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum Origin {
    Default,
    UserFile(PathBuf),
    ProjectFile(PathBuf),
    Env(String),
    Flag(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Default => f.write_str("default"),
            Origin::UserFile(p) => write!(f, "user config {}", p.display()),
            Origin::ProjectFile(p) => write!(f, "project config {}", p.display()),
            Origin::Env(v) => write!(f, "environment ${v}"),
            Origin::Flag(v) => write!(f, "flag {v}"),
        }
    }
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Setting<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Setting<T> {
    fn default(value: T) -> Setting<T> {
        Setting {
            value,
            origin: Origin::Default,
        }
    }
    fn set(&mut self, value: T, origin: Origin) {
        self.value = value;
        self.origin = origin;
    }
}

fn rule_names<S: serde::Serializer>(rules: &[(RuleSpec, Origin)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(rules.len()))?;
    for (r, o) in rules {
        seq.serialize_element(&serde_json::json!({"name": r.name, "regex": r.regex, "origin": o}))?;
    }
    seq.end()
}

/// Whether a cloned repository may choose a setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// Any config file may set it: at worst it makes trail stricter, slower or noisier.
    Ordinary,
    /// Runs a command, sends data or keys to a host, or moves where secrets, keys and journals
    /// live: only the user's own config, the environment or a trusted project file may set it.
    Sensitive,
}

/// Every key a config file can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingKey {
    LedgerHome,
    LedgerRotateBytes,
    LedgerAlertAfter,
    LedgerAlertCommand,
    LedgerMaxRecords,
    SecretsDir,
    SecretsRules,
    GateRules,
    LlmProvider,
    LlmBaseUrl,
    LlmModel,
    LlmCommand,
    LlmTimeout,
    LlmRetries,
}

impl SettingKey {
    pub const ALL: &'static [SettingKey] = &[
        SettingKey::LedgerHome,
        SettingKey::LedgerRotateBytes,
        SettingKey::LedgerAlertAfter,
        SettingKey::LedgerAlertCommand,
        SettingKey::LedgerMaxRecords,
        SettingKey::SecretsDir,
        SettingKey::SecretsRules,
        SettingKey::GateRules,
        SettingKey::LlmProvider,
        SettingKey::LlmBaseUrl,
        SettingKey::LlmModel,
        SettingKey::LlmCommand,
        SettingKey::LlmTimeout,
        SettingKey::LlmRetries,
    ];

    /// The key as written in a file (`section.key`).
    pub fn name(self) -> &'static str {
        match self {
            SettingKey::LedgerHome => "ledger.home",
            SettingKey::LedgerRotateBytes => "ledger.rotate_bytes",
            SettingKey::LedgerAlertAfter => "ledger.alert_after",
            SettingKey::LedgerAlertCommand => "ledger.alert_command",
            SettingKey::LedgerMaxRecords => "ledger.max_records",
            SettingKey::SecretsDir => "secrets.dir",
            SettingKey::SecretsRules => "secrets.rules",
            SettingKey::GateRules => "gate.rules",
            SettingKey::LlmProvider => "llm.provider",
            SettingKey::LlmBaseUrl => "llm.base_url",
            SettingKey::LlmModel => "llm.model",
            SettingKey::LlmCommand => "llm.command",
            SettingKey::LlmTimeout => "llm.timeout",
            SettingKey::LlmRetries => "llm.retries",
        }
    }

    /// No wildcard arm, on purpose: a new key must be classified here before it compiles.
    pub fn class(self) -> Class {
        match self {
            // Runs through `sh -c` from any process that waits for the stream lock (hooks too).
            SettingKey::LedgerAlertCommand => Class::Sensitive,
            // Runs on `trail dream` with the daily memory on its stdin.
            SettingKey::LlmCommand => Class::Sensitive,
            // Choose who receives the memory and the user's API key. Choosing the offline
            // provider sends nothing, so that one value stays open (see `apply_llm`).
            SettingKey::LlmProvider | SettingKey::LlmBaseUrl => Class::Sensitive,
            // Where every redacted original and the person's key are written: a directory in
            // the repository would put them in the next commit.
            SettingKey::SecretsDir => Class::Sensitive,
            // Where the journals (all projects') and the anchor live.
            SettingKey::LedgerHome => Class::Sensitive,
            // Tighten only: more redaction, more junctions.
            SettingKey::SecretsRules | SettingKey::GateRules => Class::Ordinary,
            // Tuning: at worst slower, noisier or more rotations, never code or data elsewhere.
            SettingKey::LedgerRotateBytes
            | SettingKey::LedgerAlertAfter
            | SettingKey::LedgerMaxRecords
            | SettingKey::LlmModel
            | SettingKey::LlmTimeout
            | SettingKey::LlmRetries => Class::Ordinary,
        }
    }
}

impl fmt::Display for SettingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for SettingKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A sensitive setting a project file holds that did not count, and why.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Refused {
    pub key: SettingKey,
    /// The value as written in the file.
    pub value: String,
    pub origin: Origin,
    /// `untrusted` or `changed` (the file changed since the person trusted it).
    pub trust: trust::Status,
}

/// What a project file holds that needs the person's trust, read from one snapshot of its
/// bytes (the bytes `trail trust` records are the bytes it showed).
#[derive(Clone, Debug)]
pub struct ProjectFile {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
    /// Its sensitive settings, in file order of sections.
    pub sensitive: Vec<(SettingKey, String)>,
    pub trust: trust::Status,
}

/// Where one file's settings come from, and whether its sensitive ones count.
struct FileSource<'a> {
    origin: Origin,
    /// `None` for the user's own file: everything in it counts.
    project: Option<ProjectTrust<'a>>,
    refused: Vec<Refused>,
}

struct ProjectTrust<'a> {
    store: Option<&'a TrustStore>,
    /// Where the person's key is (the user's setting or the default: never the project's).
    secrets_dir: &'a Path,
    path: &'a Path,
    bytes: &'a [u8],
    /// Looked up on the first sensitive key only: most project files hold none.
    status: Option<trust::Status>,
}

impl FileSource<'_> {
    /// The origin to record `key` under, or `None` when it must not count (then it is listed
    /// as refused, with `value` as written).
    fn admit(&mut self, key: SettingKey, value: &str) -> Option<Origin> {
        if key.class() == Class::Ordinary {
            return Some(self.origin.clone());
        }
        let Some(p) = &mut self.project else {
            return Some(self.origin.clone());
        };
        let status = p
            .status
            .get_or_insert_with(|| match p.store {
                // An unreadable store trusts nothing: failing closed costs the person one
                // `trail trust`, failing open would run a stranger's command.
                Some(store) => {
                    let key = crate::secrets::key::Key::load(p.secrets_dir).ok().flatten();
                    store
                        .status(p.path, p.bytes, key.as_ref())
                        .unwrap_or(trust::Status::Untrusted)
                }
                None => trust::Status::Untrusted,
            })
            .clone();
        if status == trust::Status::Trusted {
            return Some(self.origin.clone());
        }
        self.refused.push(Refused {
            key,
            value: value.to_string(),
            origin: self.origin.clone(),
            trust: status,
        });
        None
    }
}

/// A configuration problem: which file or variable, which key, and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{}: {message}", path.display())]
    File { path: PathBuf, message: String },
    #[error("${var}: {message}")]
    Env { var: String, message: String },
    #[error("cannot find a home directory: set HOME (or TRAIL_HOME)")]
    NoHome,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Config {
    /// The personal root holding `stream/`.
    pub home: Setting<PathBuf>,
    pub rotate_bytes: Setting<u64>,
    pub alert_after_ms: Setting<u64>,
    pub alert_command: Setting<Option<String>>,
    pub max_records: Setting<usize>,
    /// Where secret originals are kept (`$HOME/.secrets`).
    pub secrets_dir: Setting<PathBuf>,
    #[serde(serialize_with = "rule_names")]
    pub secret_rules: Vec<(RuleSpec, Origin)>,
    /// Gate rules added in configuration (`[[gate.rules]]`), after the built-in ones.
    pub gate_rules: Vec<(UserRule, Origin)>,
    /// The project this invocation belongs to.
    pub project_root: Setting<PathBuf>,
    /// Who `trail dream` asks: openai, anthropic, command or extractive.
    pub llm_provider: Setting<LlmProvider>,
    pub llm_base_url: Setting<Option<String>>,
    pub llm_model: Setting<Option<String>>,
    /// The shell command of the `command` provider (the prompt on its stdin).
    pub llm_command: Setting<Option<String>>,
    pub llm_timeout_ms: Setting<u64>,
    /// Retries after a 429 or 5xx answer (so at most `1 + retries` requests).
    pub llm_retries: Setting<u32>,
    /// The config files that were read.
    pub files: Vec<PathBuf>,
    /// Sensitive settings of an untrusted (or changed) project file, left out.
    pub refused: Vec<Refused>,
    /// The user's trail config directory (`~/.config/trail`), home of the trust store.
    pub user_dir: Option<PathBuf>,
    /// Where the key that signs trust records lives: the secrets directory as the defaults and
    /// the user's own file set it, never as a project file would.
    pub trust_key_dir: PathBuf,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    #[serde(default)]
    ledger: LedgerSection,
    #[serde(default)]
    secrets: SecretsSection,
    #[serde(default)]
    llm: LlmSection,
    #[serde(default)]
    gate: GateSection,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct GateSection {
    #[serde(default)]
    rules: Vec<UserRule>,
}

/// The LLM behind `trail dream`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmProvider {
    /// OpenAI-compatible chat completions (OpenAI, Ollama, llama.cpp server, vLLM).
    Openai,
    /// Anthropic Messages API.
    Anthropic,
    /// Any CLI: the prompt on its stdin, the answer on its stdout.
    Command,
    /// No LLM: daily facts merged and deduplicated, offline.
    Extractive,
}

impl LlmProvider {
    pub const NAMES: &'static str = "openai, anthropic, command or extractive";

    pub fn parse(s: &str) -> Option<LlmProvider> {
        match s.trim().to_ascii_lowercase().as_str() {
            "openai" | "openai-compatible" => Some(LlmProvider::Openai),
            "anthropic" => Some(LlmProvider::Anthropic),
            "command" => Some(LlmProvider::Command),
            "extractive" => Some(LlmProvider::Extractive),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            LlmProvider::Openai => "openai",
            LlmProvider::Anthropic => "anthropic",
            LlmProvider::Command => "command",
            LlmProvider::Extractive => "extractive",
        }
    }
}

impl fmt::Display for LlmProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct LlmSection {
    provider: Option<String>,
    base_url: Option<String>,
    model: Option<String>,
    command: Option<String>,
    timeout: Option<toml::Value>,
    retries: Option<u32>,
    /// Accepted by the parser only to be refused with a message that says where keys go.
    api_key: Option<toml::Value>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct LedgerSection {
    home: Option<String>,
    rotate_bytes: Option<toml::Value>,
    alert_after: Option<toml::Value>,
    alert_command: Option<String>,
    max_records: Option<u64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SecretsSection {
    dir: Option<String>,
    #[serde(default)]
    rules: Vec<RuleSpec>,
}

/// The process environment, injectable so tests never depend on the real one.
pub trait Env {
    fn var(&self, key: &str) -> Option<String>;
    fn cwd(&self) -> PathBuf;
}

/// The real environment.
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, key: &str) -> Option<String> {
        std::env::var(key).ok().filter(|v| !v.is_empty())
    }
    fn cwd(&self) -> PathBuf {
        std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
    }
}

impl Config {
    pub fn load() -> Result<Config, ConfigError> {
        Config::load_from(&ProcessEnv)
    }

    pub fn load_from(env: &dyn Env) -> Result<Config, ConfigError> {
        let home_dir = env.var("HOME").map(PathBuf::from);
        let project = project_root(env);
        let default_home = match &home_dir {
            Some(h) => {
                let ledger = h.join(".ledger");
                let leger = h.join(".leger");
                // The spec spells the root `~/.leger`; honour an existing one.
                if !ledger.exists() && leger.exists() {
                    leger
                } else {
                    ledger
                }
            }
            None => PathBuf::new(),
        };
        let mut c = Config {
            home: Setting::default(default_home),
            rotate_bytes: Setting::default(100 * 1024 * 1024),
            alert_after_ms: Setting::default(2000),
            alert_command: Setting::default(None),
            max_records: Setting::default(500),
            secrets_dir: Setting::default(
                home_dir
                    .clone()
                    .map(|h| h.join(".secrets"))
                    .unwrap_or_default(),
            ),
            secret_rules: Vec::new(),
            gate_rules: Vec::new(),
            project_root: project,
            llm_provider: Setting::default(LlmProvider::Extractive),
            llm_base_url: Setting::default(None),
            llm_model: Setting::default(None),
            llm_command: Setting::default(None),
            llm_timeout_ms: Setting::default(120_000),
            llm_retries: Setting::default(2),
            files: Vec::new(),
            refused: Vec::new(),
            user_dir: user_config_dir(env),
            trust_key_dir: PathBuf::new(),
        };

        if let Some(dir) = c.user_dir.clone() {
            let path = dir.join("config.toml");
            if let Some(text) = read_config(&path)? {
                let mut src = FileSource {
                    origin: Origin::UserFile(path.clone()),
                    project: None,
                    refused: Vec::new(),
                };
                c.apply_file(&path, &text, &mut src, home_dir.as_deref())?;
            }
        }
        c.trust_key_dir = c.secrets_dir.value.clone();
        let path = project_config_path(&c.project_root.value);
        if let Some(text) = read_config(&path)? {
            let store = c.user_dir.as_deref().map(TrustStore::new);
            let secrets_dir = c.trust_key_dir.clone();
            let mut src = FileSource {
                origin: Origin::ProjectFile(path.clone()),
                project: Some(ProjectTrust {
                    store: store.as_ref(),
                    secrets_dir: &secrets_dir,
                    path: &path,
                    bytes: text.as_bytes(),
                    status: None,
                }),
                refused: Vec::new(),
            };
            c.apply_file(&path, &text, &mut src, home_dir.as_deref())?;
            c.refused = src.refused;
        }
        c.apply_env(env)?;
        if c.home.value.as_os_str().is_empty() || c.secrets_dir.value.as_os_str().is_empty() {
            return Err(ConfigError::NoHome);
        }
        Ok(c)
    }

    /// What the project file at `project_root` holds that needs trust, and whether it has it
    /// (`None` when there is no project file).
    pub fn inspect_project(&self) -> Result<Option<ProjectFile>, ConfigError> {
        let path = project_config_path(&self.project_root.value);
        let Some(text) = read_config(&path)? else {
            return Ok(None);
        };
        let store = self.user_dir.as_deref().map(TrustStore::new);
        let key = crate::secrets::key::Key::load(&self.trust_key_dir)
            .ok()
            .flatten();
        let trust = match &store {
            Some(s) => s
                .status(&path, text.as_bytes(), key.as_ref())
                .map_err(|e| ConfigError::File {
                    path: s.path().to_path_buf(),
                    message: e.to_string(),
                })?,
            None => trust::Status::Untrusted,
        };
        // Read as if untrusted: every sensitive setting then lands in `refused`.
        let mut scratch = self.clone();
        let mut src = FileSource {
            origin: Origin::ProjectFile(path.clone()),
            project: Some(ProjectTrust {
                store: None,
                secrets_dir: &path,
                path: &path,
                bytes: text.as_bytes(),
                status: None,
            }),
            refused: Vec::new(),
        };
        scratch.apply_file(&path, &text, &mut src, None)?;
        let sensitive = src.refused.into_iter().map(|r| (r.key, r.value)).collect();
        Ok(Some(ProjectFile {
            path,
            bytes: text.into_bytes(),
            sensitive,
            trust,
        }))
    }

    fn apply_file(
        &mut self,
        path: &Path,
        text: &str,
        src: &mut FileSource<'_>,
        home: Option<&Path>,
    ) -> Result<(), ConfigError> {
        let err = |message: String| ConfigError::File {
            path: path.into(),
            message,
        };
        let fc: FileConfig = toml::from_str(text).map_err(|e| err(e.to_string()))?;
        self.files.push(path.to_path_buf());
        if let Some(h) = fc.ledger.home
            && let Some(o) = src.admit(SettingKey::LedgerHome, &h)
        {
            self.home.set(expand(&h, home), o);
        }
        if let Some(v) = fc.ledger.rotate_bytes {
            let n = match &v {
                toml::Value::Integer(i) if *i > 0 => *i as u64,
                toml::Value::String(s) => {
                    parse_size(s).map_err(|m| err(format!("ledger.rotate_bytes: {m}")))?
                }
                _ => return Err(err(
                    "ledger.rotate_bytes: give a positive number of bytes or a size like \"100MB\""
                        .into(),
                )),
            };
            if let Some(o) = src.admit(SettingKey::LedgerRotateBytes, &n.to_string()) {
                self.rotate_bytes.set(n, o);
            }
        }
        if let Some(v) = fc.ledger.alert_after {
            let ms = match &v {
                toml::Value::Integer(i) if *i >= 0 => *i as u64,
                toml::Value::String(s) => {
                    parse_duration_ms(s).map_err(|m| err(format!("ledger.alert_after: {m}")))?
                }
                _ => {
                    return Err(err(
                        "ledger.alert_after: give milliseconds or a duration like \"2s\"".into(),
                    ));
                }
            };
            if let Some(o) = src.admit(SettingKey::LedgerAlertAfter, &format!("{ms}ms")) {
                self.alert_after_ms.set(ms, o);
            }
        }
        if let Some(cmd) = fc.ledger.alert_command
            && let Some(o) = src.admit(SettingKey::LedgerAlertCommand, &cmd)
        {
            self.alert_command.set(Some(cmd), o);
        }
        if let Some(n) = fc.ledger.max_records {
            if n == 0 {
                return Err(err("ledger.max_records must be at least 1".into()));
            }
            if let Some(o) = src.admit(SettingKey::LedgerMaxRecords, &n.to_string()) {
                self.max_records.set(n as usize, o);
            }
        }
        if let Some(d) = fc.secrets.dir
            && let Some(o) = src.admit(SettingKey::SecretsDir, &d)
        {
            self.secrets_dir.set(expand(&d, home), o);
        }
        for r in fc.secrets.rules {
            if let Some(o) = src.admit(SettingKey::SecretsRules, &r.name) {
                self.secret_rules.push((r, o));
            }
        }
        for r in fc.gate.rules {
            if let Some(o) = src.admit(SettingKey::GateRules, &r.id) {
                self.gate_rules.push((r, o));
            }
        }
        self.apply_llm(fc.llm, src, &err)
    }

    fn apply_llm(
        &mut self,
        llm: LlmSection,
        src: &mut FileSource<'_>,
        err: &dyn Fn(String) -> ConfigError,
    ) -> Result<(), ConfigError> {
        if llm.api_key.is_some() {
            // A key in a config file ends up in a commit or a backup sooner or later.
            return Err(err(
                "llm.api_key: API keys are never read from config files; remove it, then export \
                 TRAIL_LLM_API_KEY or put TRAIL_LLM_API_KEY=\"...\" in ~/.secrets/trail.env"
                    .into(),
            ));
        }
        if let Some(p) = llm.provider {
            let v = LlmProvider::parse(&p).ok_or_else(|| {
                err(format!(
                    "llm.provider: unknown provider `{p}`: use {}",
                    LlmProvider::NAMES
                ))
            })?;
            // The offline provider sends nothing anywhere: any file may choose it.
            let origin = if v == LlmProvider::Extractive {
                Some(src.origin.clone())
            } else {
                src.admit(SettingKey::LlmProvider, &p)
            };
            if let Some(o) = origin {
                self.llm_provider.set(v, o);
            }
        }
        if let Some(u) = llm.base_url
            && let Some(o) = src.admit(SettingKey::LlmBaseUrl, &u)
        {
            self.llm_base_url.set(Some(u), o);
        }
        if let Some(m) = llm.model
            && let Some(o) = src.admit(SettingKey::LlmModel, &m)
        {
            self.llm_model.set(Some(m), o);
        }
        if let Some(c) = llm.command
            && let Some(o) = src.admit(SettingKey::LlmCommand, &c)
        {
            self.llm_command.set(Some(c), o);
        }
        if let Some(v) = llm.timeout {
            let ms = match &v {
                toml::Value::Integer(i) if *i > 0 => *i as u64 * 1000,
                toml::Value::String(s) => parse_duration_ms(s)
                    .ok()
                    .filter(|ms| *ms > 0)
                    .ok_or_else(|| {
                        err(format!(
                            "llm.timeout: `{s}` is not a duration like \"120s\""
                        ))
                    })?,
                _ => {
                    return Err(err(
                        "llm.timeout: give seconds or a duration like \"120s\"".into()
                    ));
                }
            };
            if let Some(o) = src.admit(SettingKey::LlmTimeout, &format!("{ms}ms")) {
                self.llm_timeout_ms.set(ms, o);
            }
        }
        if let Some(n) = llm.retries {
            if n > 10 {
                return Err(err(format!("llm.retries: {n} is too many (at most 10)")));
            }
            if let Some(o) = src.admit(SettingKey::LlmRetries, &n.to_string()) {
                self.llm_retries.set(n, o);
            }
        }
        Ok(())
    }

    fn apply_env(&mut self, env: &dyn Env) -> Result<(), ConfigError> {
        let bad = |var: &str, message: String| ConfigError::Env {
            var: var.into(),
            message,
        };
        if let Some(v) = env.var("TRAIL_HOME") {
            self.home
                .set(PathBuf::from(v), Origin::Env("TRAIL_HOME".into()));
        }
        if let Some(v) = env.var("TRAIL_ROTATE_BYTES") {
            let n = parse_size(&v).map_err(|m| bad("TRAIL_ROTATE_BYTES", m))?;
            self.rotate_bytes
                .set(n, Origin::Env("TRAIL_ROTATE_BYTES".into()));
        }
        if let Some(v) = env.var("TRAIL_ALERT_AFTER") {
            let ms = parse_duration_ms(&v).map_err(|m| bad("TRAIL_ALERT_AFTER", m))?;
            self.alert_after_ms
                .set(ms, Origin::Env("TRAIL_ALERT_AFTER".into()));
        }
        if let Some(v) = env.var("TRAIL_ALERT_COMMAND") {
            self.alert_command
                .set(Some(v), Origin::Env("TRAIL_ALERT_COMMAND".into()));
        }
        if let Some(v) = env.var("TRAIL_MAX_RECORDS") {
            let n: usize = v.parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                bad(
                    "TRAIL_MAX_RECORDS",
                    format!("`{v}` is not a positive number"),
                )
            })?;
            self.max_records
                .set(n, Origin::Env("TRAIL_MAX_RECORDS".into()));
        }
        if let Some(v) = env.var("TRAIL_LLM_PROVIDER") {
            let p = LlmProvider::parse(&v).ok_or_else(|| {
                bad(
                    "TRAIL_LLM_PROVIDER",
                    format!("unknown provider `{v}`: use {}", LlmProvider::NAMES),
                )
            })?;
            self.llm_provider
                .set(p, Origin::Env("TRAIL_LLM_PROVIDER".into()));
        }
        for (var, setting) in [
            ("TRAIL_LLM_BASE_URL", &mut self.llm_base_url),
            ("TRAIL_LLM_MODEL", &mut self.llm_model),
            ("TRAIL_LLM_COMMAND", &mut self.llm_command),
        ] {
            if let Some(v) = env.var(var) {
                setting.set(Some(v), Origin::Env(var.into()));
            }
        }
        if let Some(v) = env.var("TRAIL_LLM_TIMEOUT") {
            let ms = parse_duration_ms(&v)
                .ok()
                .filter(|ms| *ms > 0)
                .ok_or_else(|| {
                    bad(
                        "TRAIL_LLM_TIMEOUT",
                        format!("`{v}` is not a duration like 120s"),
                    )
                })?;
            self.llm_timeout_ms
                .set(ms, Origin::Env("TRAIL_LLM_TIMEOUT".into()));
        }
        if let Some(v) = env.var("TRAIL_LLM_RETRIES") {
            let n: u32 = v.parse().ok().filter(|n| *n <= 10).ok_or_else(|| {
                bad(
                    "TRAIL_LLM_RETRIES",
                    format!("`{v}` is not a number from 0 to 10"),
                )
            })?;
            self.llm_retries
                .set(n, Origin::Env("TRAIL_LLM_RETRIES".into()));
        }
        Ok(())
    }

    /// Ledger options from this configuration.
    /// The configured gate rules, for the gate's context.
    pub fn gate_rules(&self) -> Vec<UserRule> {
        self.gate_rules.iter().map(|(r, _)| r.clone()).collect()
    }

    /// Checks every configured gate rule against its own examples. Not done on the hook path
    /// (parsing examples costs time on every tool call); commands a person runs call it.
    pub fn check_gate_rules(&self) -> Result<(), ConfigError> {
        for (r, origin) in &self.gate_rules {
            if let Err(message) = crate::gate::custom::check(r) {
                let path = match origin {
                    Origin::UserFile(p) | Origin::ProjectFile(p) => p.clone(),
                    other => PathBuf::from(other.to_string()),
                };
                return Err(ConfigError::File { path, message });
            }
        }
        Ok(())
    }

    pub fn ledger_options(&self) -> LedgerOptions {
        let mut o = LedgerOptions::new(self.secrets_dir.value.clone());
        o.rotate_bytes = self.rotate_bytes.value;
        o.alert_after = Duration::from_millis(self.alert_after_ms.value);
        o.alert_command = self.alert_command.value.clone();
        o.max_records = self.max_records.value;
        o.extra_rules = self.secret_rules.iter().map(|(r, _)| r.clone()).collect();
        o
    }
}

/// The user's trail config directory: `$XDG_CONFIG_HOME/trail`, else `~/.config/trail`.
pub fn user_config_dir(env: &dyn Env) -> Option<PathBuf> {
    env.var("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| env.var("HOME").map(|h| PathBuf::from(h).join(".config")))
        .map(|d| d.join("trail"))
}

/// `<project>/.trail/config.toml`.
pub fn project_config_path(project_root: &Path) -> PathBuf {
    project_root.join(".trail").join("config.toml")
}

/// A config file's text, `None` when there is none. Read without following a symlink at the
/// file, without blocking on a FIFO planted there (which once hung every hook), and only if it
/// is a regular file of sane size.
fn read_config(path: &Path) -> Result<Option<String>, ConfigError> {
    let text = crate::fsutil::read_capped(path, 1 << 20).and_then(|b| {
        String::from_utf8(b).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    });
    match text {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ConfigError::File {
            path: path.into(),
            message: e.to_string(),
        }),
    }
}

/// `$CLAUDE_PROJECT_DIR`, else the nearest directory with `.git`, else the working directory.
fn project_root(env: &dyn Env) -> Setting<PathBuf> {
    if let Some(p) = env.var("CLAUDE_PROJECT_DIR") {
        return Setting {
            value: PathBuf::from(p),
            origin: Origin::Env("CLAUDE_PROJECT_DIR".into()),
        };
    }
    let cwd = env.cwd();
    let mut dir = Some(cwd.as_path());
    while let Some(d) = dir {
        if d.join(".git").exists() {
            return Setting {
                value: d.to_path_buf(),
                origin: Origin::Default,
            };
        }
        dir = d.parent();
    }
    Setting::default(cwd)
}

fn expand(p: &str, home: Option<&Path>) -> PathBuf {
    match (p.strip_prefix("~/"), home) {
        (Some(rest), Some(h)) => h.join(rest),
        _ if p == "~" && home.is_some() => home.map(Path::to_path_buf).unwrap_or_default(),
        _ => PathBuf::from(p),
    }
}

/// `1048576`, `100MB`, `1.5 GiB`, `64k`.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 104857600 or \"100MB\")"))?;
    let mult: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1.0,
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1024.0 * 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
        u => {
            return Err(format!(
                "unknown size unit `{u}` in `{s}`: use B, KB, MB or GB"
            ));
        }
    };
    let v = (n * mult) as u64;
    if v == 0 {
        return Err(format!("`{s}` must be more than zero bytes"));
    }
    Ok(v)
}

/// `2000` (ms), `500ms`, `2s`, `1m`.
pub fn parse_duration_ms(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a duration (e.g. 2000, \"500ms\", \"2s\")"))?;
    let mult = match unit.trim() {
        "" | "ms" => 1.0,
        "s" => 1000.0,
        "m" | "min" => 60_000.0,
        u => {
            return Err(format!(
                "unknown duration unit `{u}` in `{s}`: use ms, s or m"
            ));
        }
    };
    Ok((n * mult) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct FakeEnv(HashMap<&'static str, String>, PathBuf);
    impl Env for FakeEnv {
        fn var(&self, key: &str) -> Option<String> {
            self.0.get(key).cloned()
        }
        fn cwd(&self) -> PathBuf {
            self.1.clone()
        }
    }

    #[test]
    fn layers_apply_in_order_and_remember_their_origin() {
        let home = tempfile::tempdir().unwrap();
        let proj = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".config/trail")).unwrap();
        std::fs::write(
            home.path().join(".config/trail/config.toml"),
            "[ledger]\nrotate_bytes = \"1MB\"\nalert_after = \"3s\"\n",
        )
        .unwrap();
        std::fs::create_dir_all(proj.path().join(".trail")).unwrap();
        std::fs::write(
            proj.path().join(".trail/config.toml"),
            "[ledger]\nalert_after = 500\n",
        )
        .unwrap();
        let mut vars = HashMap::new();
        vars.insert("HOME", home.path().display().to_string());
        vars.insert("TRAIL_MAX_RECORDS", "50".to_string());
        vars.insert("CLAUDE_PROJECT_DIR", proj.path().display().to_string());
        let c = Config::load_from(&FakeEnv(vars, proj.path().into())).unwrap();
        assert_eq!(c.rotate_bytes.value, 1024 * 1024);
        assert!(matches!(c.rotate_bytes.origin, Origin::UserFile(_)));
        assert_eq!(c.alert_after_ms.value, 500);
        assert!(matches!(c.alert_after_ms.origin, Origin::ProjectFile(_)));
        assert_eq!(c.max_records.value, 50);
        assert_eq!(
            c.max_records.origin,
            Origin::Env("TRAIL_MAX_RECORDS".into())
        );
        assert_eq!(c.home.value, home.path().join(".ledger"));
        assert_eq!(c.secrets_dir.value, home.path().join(".secrets"));
    }

    #[test]
    fn a_typo_in_a_config_file_names_the_file_and_key() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".config/trail")).unwrap();
        std::fs::write(
            home.path().join(".config/trail/config.toml"),
            "[ledger]\nrotate_byte = 5\n",
        )
        .unwrap();
        let mut vars = HashMap::new();
        vars.insert("HOME", home.path().display().to_string());
        let e = Config::load_from(&FakeEnv(vars, home.path().into())).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("config.toml") && msg.contains("rotate_byte"),
            "{msg}"
        );
    }

    #[test]
    fn the_specs_spelling_of_the_root_is_honoured_when_it_exists() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir(home.path().join(".leger")).unwrap();
        let mut vars = HashMap::new();
        vars.insert("HOME", home.path().display().to_string());
        let c = Config::load_from(&FakeEnv(vars, home.path().into())).unwrap();
        assert_eq!(c.home.value, home.path().join(".leger"));
    }

    #[test]
    fn llm_settings_layer_and_an_api_key_in_a_config_file_is_refused() {
        let home = tempfile::tempdir().unwrap();
        let proj = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(proj.path().join(".trail")).unwrap();
        std::fs::write(
            proj.path().join(".trail/config.toml"),
            "[llm]\nprovider = \"openai\"\nmodel = \"m1\"\ntimeout = \"2s\"\nretries = 1\n",
        )
        .unwrap();
        let mut vars = HashMap::new();
        vars.insert("HOME", home.path().display().to_string());
        vars.insert("CLAUDE_PROJECT_DIR", proj.path().display().to_string());
        vars.insert("TRAIL_LLM_MODEL", "m2".to_string());
        let c = Config::load_from(&FakeEnv(vars.clone(), proj.path().into())).unwrap();
        // A provider that sends data off the machine needs the person's trust in the file.
        assert_eq!(c.llm_provider.value, LlmProvider::Extractive);
        assert_eq!(c.refused[0].key, SettingKey::LlmProvider);
        assert_eq!(c.llm_model.value.as_deref(), Some("m2"));
        assert_eq!(c.llm_model.origin, Origin::Env("TRAIL_LLM_MODEL".into()));
        assert_eq!(c.llm_timeout_ms.value, 2000);
        assert_eq!(c.llm_retries.value, 1);

        std::fs::write(
            proj.path().join(".trail/config.toml"),
            "[llm]\napi_key = \"sk-abc\"\n",
        )
        .unwrap();
        let msg = Config::load_from(&FakeEnv(vars.clone(), proj.path().into()))
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("llm.api_key")
                && msg.contains("TRAIL_LLM_API_KEY")
                && !msg.contains("sk-abc"),
            "{msg}"
        );
        vars.insert("TRAIL_LLM_PROVIDER", "gpt".to_string());
        std::fs::remove_file(proj.path().join(".trail/config.toml")).unwrap();
        let msg = Config::load_from(&FakeEnv(vars, proj.path().into()))
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("TRAIL_LLM_PROVIDER") && msg.contains("extractive"),
            "{msg}"
        );
    }

    #[test]
    fn the_default_provider_is_offline() {
        let home = tempfile::tempdir().unwrap();
        let mut vars = HashMap::new();
        vars.insert("HOME", home.path().display().to_string());
        let c = Config::load_from(&FakeEnv(vars, home.path().into())).unwrap();
        assert_eq!(c.llm_provider.value, LlmProvider::Extractive);
        assert_eq!(c.llm_timeout_ms.value, 120_000);
    }

    fn project_env(home: &Path, proj: &Path) -> FakeEnv {
        let mut vars = HashMap::new();
        vars.insert("HOME", home.display().to_string());
        vars.insert("CLAUDE_PROJECT_DIR", proj.display().to_string());
        FakeEnv(vars, proj.into())
    }

    const HOSTILE: &str = "[ledger]\nhome = \"/tmp/elsewhere\"\nalert_command = \"id\"\nalert_after = 0\n\
                           [secrets]\ndir = \"vendor/cache\"\n\
                           [llm]\nprovider = \"openai\"\nbase_url = \"https://evil.example\"\n\
                           command = \"touch pwned\"\nmodel = \"m\"\n";

    #[test]
    fn sensitive_settings_of_an_untrusted_project_file_are_refused_with_their_origin() {
        let home = tempfile::tempdir().unwrap();
        let proj = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(proj.path().join(".trail")).unwrap();
        std::fs::write(proj.path().join(".trail/config.toml"), HOSTILE).unwrap();
        let c = Config::load_from(&project_env(home.path(), proj.path())).unwrap();
        assert_eq!(c.home.value, home.path().join(".ledger"));
        assert_eq!(c.alert_command.value, None);
        assert_eq!(c.secrets_dir.value, home.path().join(".secrets"));
        assert_eq!(c.llm_provider.value, LlmProvider::Extractive);
        assert_eq!(c.llm_base_url.value, None);
        assert_eq!(c.llm_command.value, None);
        // Ordinary settings still count.
        assert_eq!(c.alert_after_ms.value, 0);
        assert_eq!(c.llm_model.value.as_deref(), Some("m"));
        let refused: Vec<&str> = c.refused.iter().map(|r| r.key.name()).collect();
        assert_eq!(
            refused,
            [
                "ledger.home",
                "ledger.alert_command",
                "secrets.dir",
                "llm.provider",
                "llm.base_url",
                "llm.command"
            ]
        );
        assert!(
            c.refused.iter().all(|r| r.trust == trust::Status::Untrusted
                && matches!(r.origin, Origin::ProjectFile(_)))
        );
    }

    #[test]
    fn a_trusted_project_file_counts_until_its_bytes_change() {
        let home = tempfile::tempdir().unwrap();
        let proj = tempfile::tempdir().unwrap();
        let file = proj.path().join(".trail/config.toml");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, HOSTILE).unwrap();
        let env = project_env(home.path(), proj.path());
        let c = Config::load_from(&env).unwrap();
        let p = c.inspect_project().unwrap().unwrap();
        assert_eq!(p.sensitive.len(), 6);
        assert_eq!(p.trust, trust::Status::Untrusted);
        let key = crate::secrets::key::Key::load_or_create(&c.trust_key_dir).unwrap();
        TrustStore::new(c.user_dir.as_deref().unwrap())
            .trust(&p.path, &p.bytes, "now", &key)
            .unwrap();
        let c = Config::load_from(&env).unwrap();
        assert!(c.refused.is_empty());
        assert_eq!(c.alert_command.value.as_deref(), Some("id"));
        assert!(matches!(c.alert_command.origin, Origin::ProjectFile(_)));
        std::fs::write(&file, format!("{HOSTILE}\n")).unwrap();
        let c = Config::load_from(&env).unwrap();
        assert_eq!(c.alert_command.value, None);
        assert!(c.refused.iter().all(|r| r.trust == trust::Status::Changed));
    }

    #[test]
    fn the_users_own_file_and_the_offline_provider_need_no_trust() {
        let home = tempfile::tempdir().unwrap();
        let proj = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".config/trail")).unwrap();
        std::fs::write(home.path().join(".config/trail/config.toml"), HOSTILE).unwrap();
        std::fs::create_dir_all(proj.path().join(".trail")).unwrap();
        std::fs::write(
            proj.path().join(".trail/config.toml"),
            "[llm]\nprovider = \"extractive\"\n",
        )
        .unwrap();
        let c = Config::load_from(&project_env(home.path(), proj.path())).unwrap();
        assert!(c.refused.is_empty());
        assert_eq!(c.alert_command.value.as_deref(), Some("id"));
        assert_eq!(c.llm_command.value.as_deref(), Some("touch pwned"));
        assert_eq!(c.llm_provider.value, LlmProvider::Extractive);
        assert!(matches!(c.llm_provider.origin, Origin::ProjectFile(_)));
    }

    #[test]
    fn every_key_has_a_unique_name_and_a_class() {
        let mut names: Vec<&str> = SettingKey::ALL.iter().map(|k| k.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), SettingKey::ALL.len());
        let sensitive: Vec<&str> = SettingKey::ALL
            .iter()
            .filter(|k| k.class() == Class::Sensitive)
            .map(|k| k.name())
            .collect();
        assert_eq!(
            sensitive,
            [
                "ledger.home",
                "ledger.alert_command",
                "secrets.dir",
                "llm.provider",
                "llm.base_url",
                "llm.command"
            ]
        );
    }

    #[test]
    fn sizes_and_durations() {
        assert_eq!(parse_size("100MB").unwrap(), 100 * 1024 * 1024);
        assert_eq!(parse_size("4096").unwrap(), 4096);
        assert!(parse_size("lots").is_err());
        assert_eq!(parse_duration_ms("2s").unwrap(), 2000);
        assert_eq!(parse_duration_ms("150ms").unwrap(), 150);
        assert!(parse_duration_ms("2 fortnights").is_err());
    }
}
