//! Layered configuration: built-in defaults < `~/.config/trail/config.toml` <
//! `<project>/.trail/config.toml` < environment (`TRAIL_*`) < flags. Every value remembers where
//! it came from, so `trail config` can show it.
//!
//! Every setting is one row of [`SETTINGS`] (`table.rs`): its key, variable, default, parser
//! and description. Files and the environment go through the same parser, so a value means
//! the same wherever it is written; sizes and durations carry their unit (`parse.rs`).
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

mod admit;
mod parse;
mod table;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::de::DeserializeOwned;
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};

pub use parse::{
    BadValue, LlmProvider, format_duration, format_size, parse_count, parse_duration, parse_path,
    parse_size,
};
pub use table::{Class, Kind, LISTS, SETTINGS, SettingKey, Shown, Spec};

use crate::ledger::{Ledger, LedgerOptions};
use crate::secrets::{RuleSpec, Secrets, SecretsError};
use crate::trust::{self, TrustStore};
use crate::zones::custom::{RuleCheckError, UserRule};
use admit::{FileSource, ProjectTrust};

/// How a configured gate rule is checked against its examples (the gate's
/// `trail_gate::custom::check`: the library does not depend on the gate).
pub type GateRuleCheck = fn(&UserRule) -> Result<(), RuleCheckError>;

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

    /// The value and where it came from, when something set it: a default that defers to
    /// another source (Loa's config) is `None`.
    pub fn chosen(&self) -> Option<(T, String)>
    where
        T: Clone,
    {
        (self.origin != Origin::Default).then(|| (self.value.clone(), self.origin.to_string()))
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
    /// Its sensitive settings, in the order of [`SETTINGS`].
    pub sensitive: Vec<(SettingKey, String)>,
    pub trust: trust::Status,
}

/// A configuration problem: which file or variable, which key, and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{}: {problem}", path.display())]
    File { path: PathBuf, problem: FileProblem },
    #[error("${var} ({key}): {problem}")]
    Env {
        var: String,
        key: SettingKey,
        problem: BadValue,
    },
    #[error("cannot find a home directory: set HOME (or TRAIL_HOME)")]
    NoHome,
    /// A `[[secrets.rules]]` entry that does not compile or misses its own example.
    #[error(transparent)]
    SecretRule(SecretsError),
}

/// What is wrong in one configuration file (or in the trust record beside it). `line` is the
/// line of the value at fault, as `line N`.
#[derive(Debug, thiserror::Error)]
pub enum FileProblem {
    #[error(transparent)]
    Read(std::io::Error),
    /// Not TOML; the parser's message says where.
    #[error("{0}")]
    Syntax(String),
    #[error(
        "unknown setting `{section}` ({line}): settings live in the sections [ledger], \
         [secrets], [llm] and [gate]"
    )]
    UnknownSection { section: String, line: String },
    #[error("unknown setting `{section}.{key}` ({line}): [{section}] takes {takes}")]
    UnknownKey {
        section: String,
        key: String,
        line: String,
        takes: String,
    },
    /// A key in a config file ends up in a commit or a backup sooner or later.
    #[error(
        "llm.api_key: API keys are never read from config files; remove it, then export \
         TRAIL_LLM_API_KEY or put TRAIL_LLM_API_KEY=\"...\" in ~/.secrets/trail.env"
    )]
    ApiKey,
    #[error("{key} ({line}): {problem}")]
    Value {
        key: SettingKey,
        line: String,
        problem: BadValue,
    },
    #[error("{key} ({line}): write each one as a [[{key}]] table")]
    NotAList { key: SettingKey, line: String },
    /// A `[[…]]` entry that does not have the entry's shape; the message is the deserializer's.
    #[error("{key} ({line}): {message}")]
    Entry {
        key: SettingKey,
        line: String,
        message: String,
    },
    /// The trust record could not be read.
    #[error("{0}")]
    Trust(crate::file_error::FileError),
    #[error(transparent)]
    GateRule(RuleCheckError),
}

/// The merged settings. The fields of single-valued settings are named in [`SETTINGS`], which
/// is what fills them; `trail config` and `--json` read them through it too.
#[derive(Clone, Debug)]
pub struct Config {
    /// The personal root holding `stream/`.
    pub home: Setting<PathBuf>,
    pub rotate_bytes: Setting<u64>,
    pub alert_after: Setting<Duration>,
    pub alert_command: Setting<Option<String>>,
    pub max_records: Setting<u32>,
    /// Where secret originals are kept (`$HOME/.secrets`).
    pub secrets_dir: Setting<PathBuf>,
    pub secret_rules: Vec<(RuleSpec, Origin)>,
    /// Gate rules added in configuration (`[[gate.rules]]`), after the built-in ones.
    pub gate_rules: Vec<(UserRule, Origin)>,
    /// Installer hosts a person trusts (`gate.trusted_installers`).
    pub trusted_installers: Vec<(String, Origin)>,
    /// The project this invocation belongs to.
    pub project_root: Setting<PathBuf>,
    /// Who `trail dream` asks: openai, anthropic, command or extractive.
    pub llm_provider: Setting<LlmProvider>,
    pub llm_base_url: Setting<Option<String>>,
    pub llm_model: Setting<Option<String>>,
    /// The shell command of the `command` provider (the prompt on its stdin).
    pub llm_command: Setting<Option<String>>,
    pub llm_timeout: Setting<Duration>,
    /// Retries after a 429 or 5xx answer (so at most `1 + retries` requests).
    pub llm_retries: Setting<u32>,
    /// Characters of core memory injected at session start.
    pub memory_inject_chars: Setting<u32>,
    /// Other projects given one line each at session start and in `trail resume`.
    pub resume_other_projects: Setting<u32>,
    /// How old the last dream must be before a session's end starts the next one.
    pub dream_every: Setting<Duration>,
    /// How long after the last try a session's end or a prompt starts a background sync.
    pub sync_every: Setting<Duration>,
    /// Sessions per batch `trail import` commits.
    pub import_batch: Setting<u32>,
    /// The lowest passing grounding ratio, and what falling below it does.
    pub grounding_threshold: Setting<crate::ratio::Threshold>,
    pub grounding_enforcement: Setting<crate::ratio::Enforcement>,
    /// Tokens trail may inject into one context window of a session (0: no cap).
    pub context_cap_tokens: Setting<u32>,
    pub context_reanchor_tokens: Setting<u32>,
    /// What a subagent is told as it starts (`builtin`: trail's own primer).
    pub subagent_primer: Setting<Option<String>>,
    /// `grounding.ghost_mentions`.
    pub ghost_mentions: Setting<u32>,
    /// `grounding.ghost_similarity`.
    pub ghost_similarity: Setting<crate::ratio::Threshold>,
    /// The NOTES.md trail writes, relative to the project root (`None`: NOTES.md or Loa's).
    pub notes_path: Setting<Option<String>>,
    /// `attention.*`: where the zones start, in added tokens, and the model's window.
    pub attention_yellow: Setting<u32>,
    pub attention_orange: Setting<u32>,
    pub attention_red: Setting<u32>,
    pub attention_window: Setting<u32>,
    /// `confine.mode`: whether the agent's shell commands run confined by the OS.
    pub confine_mode: Setting<crate::confine::Mode>,
    /// `confine.writable`: the caches a confined command may write, `:`-separated.
    pub confine_writable: Setting<Option<String>>,
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
        Self::load_from(&ProcessEnv)
    }

    /// Each layer in turn: the table's defaults, the user's file, the project's file (its
    /// sensitive settings only if trusted), the environment.
    pub fn load_from(env: &dyn Env) -> Result<Config, ConfigError> {
        let (mut c, home) = Config::defaults_for(env);
        let home = home.as_deref();
        if let Some(dir) = c.user_dir.clone() {
            let path = dir.join("config.toml");
            if let Some(text) = read_config(&path)? {
                let mut src = FileSource::user(Origin::UserFile(path.clone()));
                c.apply_file(&path, &text, &mut src, home)?;
            }
        }
        c.trust_key_dir.clone_from(&c.secrets_dir.value);
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
            c.apply_file(&path, &text, &mut src, home)?;
            c.refused = src.refused;
        }
        c.apply_env(env, home)?;
        c.prefer_the_specs_spelling(home);
        if c.home.value.as_os_str().is_empty() || c.secrets_dir.value.as_os_str().is_empty() {
            return Err(ConfigError::NoHome);
        }
        Ok(c)
    }

    /// The built-in defaults for the project `env` names, with the environment's settings when
    /// they can be read: what the hooks fall back to when a configuration file cannot be read,
    /// so that the gate stays on at its defaults instead of refusing everything (issue 22).
    pub fn builtin_from(env: &dyn Env) -> Result<Config, ConfigError> {
        let (mut c, home) = Config::defaults_for(env);
        let home = home.as_deref();
        c.trust_key_dir.clone_from(&c.secrets_dir.value);
        let mut with_env = c.clone();
        if with_env.apply_env(env, home).is_ok() {
            c = with_env;
        }
        c.prefer_the_specs_spelling(home);
        if c.home.value.as_os_str().is_empty() || c.secrets_dir.value.as_os_str().is_empty() {
            return Err(ConfigError::NoHome);
        }
        Ok(c)
    }

    /// The table's defaults for the project `env` names, and the home they were made for.
    fn defaults_for(env: &dyn Env) -> (Config, Option<PathBuf>) {
        let home = env.var("HOME").map(PathBuf::from);
        let mut c = Config::blank();
        c.project_root = project_root(env);
        c.user_dir = user_config_dir(env);
        c.apply_defaults(home.as_deref());
        (c, home)
    }

    /// Every setting empty, from nowhere: what the layers start from.
    pub(crate) fn blank() -> Config {
        Config {
            home: Setting::default(PathBuf::new()),
            rotate_bytes: Setting::default(0),
            alert_after: Setting::default(Duration::ZERO),
            alert_command: Setting::default(None),
            max_records: Setting::default(0),
            secrets_dir: Setting::default(PathBuf::new()),
            secret_rules: Vec::new(),
            gate_rules: Vec::new(),
            trusted_installers: Vec::new(),
            project_root: Setting::default(PathBuf::new()),
            llm_provider: Setting::default(LlmProvider::default()),
            llm_base_url: Setting::default(None),
            llm_model: Setting::default(None),
            llm_command: Setting::default(None),
            llm_timeout: Setting::default(Duration::ZERO),
            llm_retries: Setting::default(0),
            memory_inject_chars: Setting::default(0),
            resume_other_projects: Setting::default(0),
            dream_every: Setting::default(Duration::ZERO),
            sync_every: Setting::default(Duration::ZERO),
            import_batch: Setting::default(0),
            grounding_threshold: Setting::default(crate::ratio::Threshold::DEFAULT),
            grounding_enforcement: Setting::default(crate::ratio::Enforcement::default()),
            context_cap_tokens: Setting::default(0),
            context_reanchor_tokens: Setting::default(0),
            subagent_primer: Setting::default(None),
            ghost_mentions: Setting::default(0),
            ghost_similarity: Setting::default(crate::ratio::Threshold::DEFAULT),
            notes_path: Setting::default(None),
            attention_yellow: Setting::default(0),
            attention_orange: Setting::default(0),
            attention_red: Setting::default(0),
            attention_window: Setting::default(0),
            confine_mode: Setting::default(crate::confine::Mode::Auto),
            confine_writable: Setting::default(None),
            files: Vec::new(),
            refused: Vec::new(),
            user_dir: None,
            trust_key_dir: PathBuf::new(),
        }
    }

    fn apply_defaults(&mut self, home: Option<&Path>) {
        for s in SETTINGS {
            if let Some(d) = s.default {
                // Every default parses (the table's test proves it), except that a `~/` one
                // cannot without HOME: it then stays blank, and `load_from` says NoHome unless
                // a later layer sets it.
                let _ = s.apply(self, d, home, |_| Some(Origin::Default));
            }
        }
    }

    /// The spec spells the root `~/.leger`; an existing one is used when `~/.ledger` is absent
    /// and nothing chose the root. Checked last, so a chosen root costs no `stat`.
    fn prefer_the_specs_spelling(&mut self, home: Option<&Path>) {
        if let (Origin::Default, Some(h)) = (&self.home.origin, home) {
            let leger = h.join(".leger");
            if !self.home.value.exists() && leger.exists() {
                self.home.value = leger;
            }
        }
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
                    problem: FileProblem::Trust(e),
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

    /// One file's settings, each through its table row's parser, then its rule lists.
    ///
    /// The file is read as TOML's borrowed document tree rather than deserialized into a
    /// struct per section: the table stays the only list of keys, and skipping serde's value
    /// visitor keeps this hook-path step about as cheap as the typed one it replaced.
    fn apply_file(
        &mut self,
        path: &Path,
        text: &str,
        src: &mut FileSource<'_>,
        home: Option<&Path>,
    ) -> Result<(), ConfigError> {
        let err = |problem: FileProblem| ConfigError::File {
            path: path.into(),
            problem,
        };
        let mut doc = DeTable::parse(text)
            .map_err(|e| err(FileProblem::Syntax(e.to_string())))?
            .into_inner();
        check_keys(&doc, text).map_err(err)?;
        self.files.push(path.to_path_buf());
        for s in SETTINGS {
            let Some(v) = lookup(&doc, s.key) else {
                continue;
            };
            let at = |problem: BadValue| {
                err(FileProblem::Value {
                    key: s.key,
                    line: line(text, v),
                    problem,
                })
            };
            let value = file_text(s, v.get_ref()).map_err(at)?;
            s.apply(self, &value, home, |class| src.admit(s.key, class, &value))
                .map_err(at)?;
        }
        let key = SettingKey::SecretsRules;
        for mut r in take_list::<RuleSpec>(&mut doc, key, text).map_err(err)? {
            r.file = Some(path.to_path_buf());
            if let Some(o) = src.admit(key, key.class(), &r.name) {
                self.secret_rules.push((r, o));
            }
        }
        let key = SettingKey::GateRules;
        for r in take_list::<UserRule>(&mut doc, key, text).map_err(err)? {
            if let Some(o) = src.admit(key, key.class(), &r.id) {
                self.gate_rules.push((r, o));
            }
        }
        let key = SettingKey::GateTrustedInstallers;
        for host in take_list::<String>(&mut doc, key, text).map_err(err)? {
            if let Some(o) = src.admit(key, key.class(), &host) {
                self.trusted_installers.push((host, o));
            }
        }
        Ok(())
    }

    /// Every `TRAIL_*` variable of the table, through the same parser as a file's value.
    fn apply_env(&mut self, env: &dyn Env, home: Option<&Path>) -> Result<(), ConfigError> {
        for s in SETTINGS {
            if let Some(v) = env.var(s.env) {
                s.apply(self, &v, home, |_| Some(Origin::Env(s.env.into())))
                    .map_err(|problem| ConfigError::Env {
                        var: s.env.into(),
                        key: s.key,
                        problem,
                    })?;
            }
        }
        Ok(())
    }

    /// The installer hosts a person trusts, for the gate's context.
    pub fn trusted_installers(&self) -> Vec<String> {
        self.trusted_installers
            .iter()
            .map(|(h, _)| h.clone())
            .collect()
    }

    /// The configured gate rules, for the gate's context.
    pub fn gate_rules(&self) -> Vec<UserRule> {
        self.gate_rules.iter().map(|(r, _)| r.clone()).collect()
    }

    /// Checks every configured gate rule against its own examples with `check` (the gate's,
    /// `trail_gate::custom::check`: the library does not depend on the gate). Not done on the
    /// hook path (parsing examples costs time on every tool call); commands a person runs call it.
    pub fn check_gate_rules(&self, check: GateRuleCheck) -> Result<(), ConfigError> {
        for (r, origin) in &self.gate_rules {
            if let Err(e) = check(r) {
                let path = match origin {
                    Origin::UserFile(p) | Origin::ProjectFile(p) => p.clone(),
                    other => PathBuf::from(other.to_string()),
                };
                return Err(ConfigError::File {
                    path,
                    problem: FileProblem::GateRule(e),
                });
            }
        }
        Ok(())
    }

    /// Compiles every configured secret rule and checks it against its example. Not done on the
    /// hook path (compiling costs time on every tool call); commands a person runs call it, and
    /// the ledger reports the same error when it first redacts.
    pub fn check_secret_rules(&self) -> Result<(), ConfigError> {
        if self.secret_rules.is_empty() {
            return Ok(());
        }
        self.secrets()
            .redactor()
            .map(drop)
            .map_err(ConfigError::SecretRule)
    }

    /// The secrets service this configuration names: where originals are kept and the rules
    /// added to the built-in ones. Building it compiles and reads nothing; a process builds one
    /// and shares it (the ledger's included, [`Ledger::with_secrets`]), so that the user's rules
    /// compile once and each original is kept once.
    pub fn secrets(&self) -> std::sync::Arc<Secrets> {
        let rules: Vec<RuleSpec> = self.secret_rules.iter().map(|(r, _)| r.clone()).collect();
        std::sync::Arc::new(Secrets::new(self.secrets_dir.value.clone(), rules))
    }

    /// Ledger options from this configuration.
    fn ledger_options(&self) -> LedgerOptions {
        let mut o = LedgerOptions::new(self.secrets_dir.value.clone());
        o.rotate_bytes = self.rotate_bytes.value;
        o.alert_after = self.alert_after.value;
        o.alert_command.clone_from(&self.alert_command.value);
        o.max_records = usize::try_from(self.max_records.value).unwrap_or(usize::MAX);
        o.secrets = self.secrets();
        // A project that opted out of sync (`.trail/no-sync`) has its records written where
        // `trail sync` never looks.
        o.local_only = crate::layout::Layout::new(&self.project_root.value).opted_out_of_sync();
        o
    }

    /// The ledger this configuration names: the one way commands and hooks open it. It redacts
    /// with a service of its own unless given the process's ([`Ledger::with_secrets`]).
    pub fn ledger(&self) -> Ledger {
        Ledger::open(self.home.value.clone(), self.ledger_options())
    }
}

/// `trail config --json`: every row of [`SETTINGS`] under its key, then what is not a row.
impl serde::Serialize for Config {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct Json<'a> {
            settings: Rows<'a>,
            project_root: &'a Setting<PathBuf>,
            secret_rules: Vec<RuleJson<'a>>,
            gate_rules: &'a [(UserRule, Origin)],
            refused: &'a [Refused],
            files: &'a [PathBuf],
        }
        #[derive(serde::Serialize)]
        struct RuleJson<'a> {
            name: &'a str,
            regex: &'a str,
            origin: &'a Origin,
        }
        struct Rows<'a>(&'a Config);
        #[derive(serde::Serialize)]
        struct Row<'a> {
            value: Shown,
            origin: &'a Origin,
            env: &'static str,
            class: Class,
        }
        impl serde::Serialize for Rows<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_map(SETTINGS.iter().map(|spec| {
                    let (value, origin) = spec.get(self.0);
                    let row = Row {
                        value,
                        origin,
                        env: spec.env,
                        class: spec.key.class(),
                    };
                    (spec.key.name(), row)
                }))
            }
        }
        Json {
            settings: Rows(self),
            project_root: &self.project_root,
            secret_rules: (self.secret_rules.iter())
                .map(|(r, origin)| RuleJson {
                    name: &r.name,
                    regex: &r.regex,
                    origin,
                })
                .collect(),
            gate_rules: &self.gate_rules,
            refused: &self.refused,
            files: &self.files,
        }
        .serialize(s)
    }
}

/// Unknown sections and keys are errors that name them (a typo would otherwise be a setting
/// silently not taken), and an API key gets the message saying where keys go.
fn check_keys(doc: &DeTable<'_>, text: &str) -> Result<(), FileProblem> {
    for (section, v) in doc {
        let section = section.get_ref().as_ref();
        let (DeValue::Table(table), true) = (v.get_ref(), keys_in(section).next().is_some()) else {
            return Err(FileProblem::UnknownSection {
                section: section.into(),
                line: line(text, v),
            });
        };
        for (key, v) in table {
            let key = key.get_ref().as_ref();
            if section == "llm" && key == "api_key" {
                return Err(FileProblem::ApiKey);
            }
            if !keys_in(section).any(|k| k == key) {
                let names: Vec<&str> = keys_in(section).collect();
                return Err(FileProblem::UnknownKey {
                    section: section.into(),
                    key: key.into(),
                    line: line(text, v),
                    takes: names.join(", "),
                });
            }
        }
    }
    Ok(())
}

/// The keys a file's `[section]` may hold, without the section: `rotate_bytes`, ….
fn keys_in(section: &str) -> impl Iterator<Item = &'static str> + '_ {
    SettingKey::ALL
        .iter()
        .filter_map(move |k| match k.name().split_once('.') {
            Some((s, key)) if s == section => Some(key),
            _ => None,
        })
}

/// `line N` of a value, for messages.
fn line(text: &str, v: &Spanned<DeValue<'_>>) -> String {
    let at = v.span().start.min(text.len());
    let n = memchr::memchr_iter(b'\n', &text.as_bytes()[..at]).count();
    format!("line {}", n + 1)
}

/// The value a file gives `key`, if any.
fn lookup<'d, 'i>(doc: &'d DeTable<'i>, key: SettingKey) -> Option<&'d Spanned<DeValue<'i>>> {
    let (section, name) = key.name().split_once('.')?;
    match doc.get(section)?.get_ref() {
        DeValue::Table(t) => t.get(name),
        _ => None,
    }
}

/// A file's value as the text its parser reads, so that `timeout = "2s"` in a file and
/// `TRAIL_LLM_TIMEOUT=2s` are one string through one parser. A TOML number is taken as its
/// digits where a number may be written (sizes and durations then refuse it for lack of unit).
fn file_text(spec: &Spec, v: &DeValue<'_>) -> Result<String, BadValue> {
    match v {
        DeValue::String(s) => Ok(s.to_string()),
        DeValue::Integer(i) if spec.kind.takes_numbers() => {
            Ok(i64::from_str_radix(i.as_str(), i.radix())
                .map_or_else(|_| i.as_str().to_string(), |n| n.to_string()))
        }
        DeValue::Float(f) if spec.kind.takes_numbers() => Ok(f.as_str().to_string()),
        _ => Err(BadValue::WrongType(spec.kind.written_as())),
    }
}

/// The `[[section.name]]` tables of a list setting, taken out of `doc`.
fn take_list<T: DeserializeOwned>(
    doc: &mut DeTable<'_>,
    key: SettingKey,
    text: &str,
) -> Result<Vec<T>, FileProblem> {
    let Some((section, name)) = key.name().split_once('.') else {
        return Ok(Vec::new());
    };
    let Some(v) = (doc.get_mut(section)).and_then(|s| match s.get_mut() {
        DeValue::Table(t) => t.remove(name),
        _ => None,
    }) else {
        return Ok(Vec::new());
    };
    let at = line(text, &v);
    let DeValue::Array(items) = v.into_inner() else {
        return Err(FileProblem::NotAList { key, line: at });
    };
    items
        .iter()
        .map(|item| {
            T::deserialize(ValueDeserializer::from(item.clone())).map_err(|e| FileProblem::Entry {
                key,
                line: line(text, item),
                message: e.message().into(),
            })
        })
        .collect()
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
    crate::layout::Layout::new(project_root).config()
}

/// A config file's text, `None` when there is none. Read without following a symlink at the
/// file, without blocking on a FIFO planted there (which once hung every hook), and only if it
/// is a regular file of sane size.
fn read_config(path: &Path) -> Result<Option<String>, ConfigError> {
    let text = crate::fsutil::read_capped(path, 1 << 20)
        .map_err(|e| e.source)
        .and_then(|b| {
            String::from_utf8(b)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
        });
    match text {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ConfigError::File {
            path: path.into(),
            problem: FileProblem::Read(e),
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

/// An environment of the variables a test gives and a working directory, for loading a
/// configuration without touching the process's (tests anywhere in the crate).
#[cfg(test)]
pub(crate) struct FakeEnv(
    pub(crate) std::collections::HashMap<&'static str, String>,
    pub(crate) PathBuf,
);

#[cfg(test)]
impl Env for FakeEnv {
    fn var(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn cwd(&self) -> PathBuf {
        self.1.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

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
            "[ledger]\nalert_after = \"500ms\"\n",
        )
        .unwrap();
        let mut vars = HashMap::new();
        vars.insert("HOME", home.path().display().to_string());
        vars.insert("TRAIL_MAX_RECORDS", "50".to_string());
        vars.insert("CLAUDE_PROJECT_DIR", proj.path().display().to_string());
        let c = Config::load_from(&FakeEnv(vars, proj.path().into())).unwrap();
        assert_eq!(c.rotate_bytes.value, 1024 * 1024);
        assert!(matches!(c.rotate_bytes.origin, Origin::UserFile(_)));
        assert_eq!(c.alert_after.value, Duration::from_millis(500));
        assert!(matches!(c.alert_after.origin, Origin::ProjectFile(_)));
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
    fn the_ledger_opens_at_the_home_with_every_ledger_setting() {
        let home = tempfile::tempdir().unwrap();
        user_file(
            home.path(),
            "[ledger]\nrotate_bytes = \"2MB\"\nalert_after = \"750ms\"\nalert_command = \"true\"\n\n\
             [[secrets.rules]]\nname = \"acme-token\"\nregex = \"acme_[0-9a-f]{32}\"\n\
             example = \"acme_0123456789abcdef0123456789abcdef\"\n",
        );
        let c = Config::load_from(&env_with(home.path(), "TRAIL_MAX_RECORDS", "40")).unwrap();
        let ledger = c.ledger();
        let o = ledger.options();
        assert_eq!(ledger.root(), home.path().join(".ledger"));
        assert_eq!(o.rotate_bytes, 2 * 1024 * 1024);
        assert_eq!(o.alert_after, Duration::from_millis(750));
        assert_eq!(o.alert_command.as_deref(), Some("true"));
        assert_eq!(o.max_records, 40);
        assert_eq!(o.secrets_dir, home.path().join(".secrets"));
        let rules = o
            .secrets
            .redactor()
            .unwrap()
            .rules()
            .map(|(n, _)| n.to_string());
        assert_eq!(rules.last().as_deref(), Some("acme-token"));
        assert!(o.anchor && o.alert_sink.is_none());
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
        assert_eq!(c.llm_timeout.value, Duration::from_secs(2));
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
        assert_eq!(c.llm_timeout.value, Duration::from_mins(2));
    }

    fn project_env(home: &Path, proj: &Path) -> FakeEnv {
        let mut vars = HashMap::new();
        vars.insert("HOME", home.display().to_string());
        vars.insert("CLAUDE_PROJECT_DIR", proj.display().to_string());
        FakeEnv(vars, proj.into())
    }

    const HOSTILE: &str = "[ledger]\nhome = \"/tmp/elsewhere\"\nalert_command = \"id\"\nalert_after = \"0s\"\n\
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
        assert_eq!(c.alert_after.value, Duration::ZERO);
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

    fn env_with(home: &Path, var: &'static str, value: &str) -> FakeEnv {
        let mut vars = HashMap::new();
        vars.insert("HOME", home.display().to_string());
        vars.insert(var, value.to_string());
        FakeEnv(vars, home.into())
    }

    fn user_file(home: &Path, text: &str) {
        std::fs::create_dir_all(home.join(".config/trail")).unwrap();
        std::fs::write(home.join(".config/trail/config.toml"), text).unwrap();
    }

    #[test]
    fn a_file_and_the_environment_read_the_same_text_as_the_same_value() {
        let samples = [
            ("~/elsewhere", "/fixed/path"),
            ("64KB", "1.5GB"),
            ("750ms", "3s"),
            ("1", "10"),
            ("openai", "Anthropic"),
            ("curl -d @- localhost", "x"),
        ];
        for spec in SETTINGS {
            for text in [samples.map(|s| s.0), samples.map(|s| s.1)].concat() {
                let home = tempfile::tempdir().unwrap();
                let from_env = Config::load_from(&env_with(home.path(), spec.env, text));
                let (section, key) = spec.key.name().split_once('.').unwrap();
                user_file(home.path(), &format!("[{section}]\n{key} = {text:?}\n"));
                let mut vars = HashMap::new();
                vars.insert("HOME", home.path().display().to_string());
                let from_file = Config::load_from(&FakeEnv(vars, home.path().into()));
                match (from_env, from_file) {
                    (Ok(e), Ok(f)) => {
                        assert_eq!(
                            spec.get(&e).0.to_string(),
                            spec.get(&f).0.to_string(),
                            "{spec} = {text:?}",
                            spec = spec.key
                        );
                        assert_eq!(spec.get(&e).1, &Origin::Env(spec.env.into()));
                        assert!(matches!(spec.get(&f).1, Origin::UserFile(_)));
                    }
                    (Err(_), Err(_)) => {}
                    (e, f) => panic!("{} = {text:?}: env {e:?}, file {f:?}", spec.key),
                }
            }
        }
    }

    #[test]
    fn an_unknown_section_or_key_is_named_with_what_is_known() {
        let home = tempfile::tempdir().unwrap();
        user_file(home.path(), "[llm]\ntimout = \"2s\"\n");
        let msg = Config::load_from(&env_with(home.path(), "X", ""))
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("llm.timout") && msg.contains("timeout") && msg.contains("retries"),
            "{msg}"
        );
        user_file(home.path(), "[ledgr]\nhome = \"/x\"\n");
        let msg = Config::load_from(&env_with(home.path(), "X", ""))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("ledgr") && msg.contains("[ledger]"), "{msg}");
        user_file(home.path(), "[llm]\nmodel = 5\n");
        let msg = Config::load_from(&env_with(home.path(), "X", ""))
            .unwrap_err()
            .to_string();
        assert!(
            msg.contains("llm.model") && msg.contains("in quotes"),
            "{msg}"
        );
    }

    #[test]
    fn a_secret_rule_that_does_not_compile_names_its_rule_and_file() {
        let home = tempfile::tempdir().unwrap();
        user_file(
            home.path(),
            "[[secrets.rules]]\nname = \"acme\"\nregex = \"acme_(\"\nexample = \"acme_x\"\n",
        );
        // Loading does not compile it (the hook loads the configuration on every tool call).
        let c = Config::load_from(&env_with(home.path(), "X", "")).unwrap();
        let file = c.files[0].clone();
        assert_eq!(c.secret_rules[0].0.file.as_ref(), Some(&file));
        let e = c.check_secret_rules().unwrap_err();
        assert!(matches!(
            &e,
            ConfigError::SecretRule(SecretsError::BadRegex { name, .. }) if name == "acme"
        ));
        let msg = e.to_string();
        assert!(
            msg.starts_with(&format!(
                "secret rule `acme` ([[secrets.rules]] in {}): invalid regex: ",
                file.display()
            )),
            "{msg}"
        );
        let e = c
            .secrets()
            .redact("a clean text")
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            e,
            Some(msg),
            "the secrets service says the same on its first redaction"
        );
    }

    #[test]
    fn a_rule_list_must_be_tables() {
        let home = tempfile::tempdir().unwrap();
        user_file(home.path(), "[secrets]\nrules = \"x\"\n");
        let msg = Config::load_from(&env_with(home.path(), "X", ""))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("[[secrets.rules]]"), "{msg}");
    }

    #[test]
    fn json_lists_every_setting_under_its_key() {
        let home = tempfile::tempdir().unwrap();
        let c = Config::load_from(&env_with(home.path(), "TRAIL_LLM_TIMEOUT", "90s")).unwrap();
        let j = serde_json::to_value(&c).unwrap();
        let keys: Vec<&str> = j["settings"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let names: Vec<&str> = SETTINGS.iter().map(|s| s.key.name()).collect();
        assert_eq!(keys, names);
        assert_eq!(j["settings"]["llm.timeout"]["value"], "90s");
        assert_eq!(
            j["settings"]["llm.timeout"]["origin"]["detail"],
            "TRAIL_LLM_TIMEOUT"
        );
        assert_eq!(j["settings"]["ledger.rotate_bytes"]["value"], "100MB");
        assert_eq!(j["settings"]["ledger.max_records"]["value"], 500);
        assert_eq!(j["settings"]["llm.model"]["value"], serde_json::Value::Null);
        assert_eq!(j["settings"]["llm.command"]["class"], "sensitive");
    }

    #[test]
    fn a_home_of_tilde_in_the_environment_is_the_home_directory() {
        let home = tempfile::tempdir().unwrap();
        let c = Config::load_from(&env_with(home.path(), "TRAIL_HOME", "~/j")).unwrap();
        assert_eq!(c.home.value, home.path().join("j"));
        let mut vars = HashMap::new();
        vars.insert("TRAIL_HOME", "/j".to_string());
        let e = Config::load_from(&FakeEnv(vars, "/".into())).unwrap_err();
        assert!(matches!(e, ConfigError::NoHome), "{e}");
    }

    /// Regression tests, one per bug, named after it.
    mod regression {
        use super::*;

        /// `llm.timeout = 120` in a file meant 120 s while `TRAIL_LLM_TIMEOUT=120` meant
        /// 120 ms: a thousandfold difference depending on where the same text was written.
        /// Now both are refused, naming the key and how to write it; with a unit both agree.
        #[test]
        fn llm_timeout_bare_number_meant_seconds_in_a_file_and_ms_in_the_env() {
            let home = tempfile::tempdir().unwrap();
            let e = Config::load_from(&env_with(home.path(), "TRAIL_LLM_TIMEOUT", "120"))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("TRAIL_LLM_TIMEOUT")
                    && e.contains("llm.timeout")
                    && e.contains("\"120s\"")
                    && e.contains("\"120ms\""),
                "{e}"
            );
            user_file(home.path(), "[llm]\ntimeout = 120\n");
            let f = Config::load_from(&env_with(home.path(), "X", ""))
                .unwrap_err()
                .to_string();
            assert!(
                f.contains("config.toml")
                    && f.contains("llm.timeout")
                    && f.contains("\"120s\"")
                    && f.contains("\"120ms\""),
                "{f}"
            );
            user_file(home.path(), "[llm]\ntimeout = \"120s\"\n");
            let file = Config::load_from(&env_with(home.path(), "X", "")).unwrap();
            let env =
                Config::load_from(&env_with(home.path(), "TRAIL_LLM_TIMEOUT", "120s")).unwrap();
            assert_eq!(file.llm_timeout.value, Duration::from_mins(2));
            assert_eq!(env.llm_timeout.value, Duration::from_mins(2));
        }

        /// The same ambiguity for every other size and duration: `alert_after = 500` and
        /// `rotate_bytes = 1048576` had meanings no one could see from the text.
        #[test]
        fn every_size_and_duration_refuses_a_bare_number_in_a_file_and_the_env() {
            let home = tempfile::tempdir().unwrap();
            for spec in SETTINGS {
                if !matches!(spec.kind, Kind::Size(_) | Kind::Duration { .. }) {
                    continue;
                }
                let (section, key) = spec.key.name().split_once('.').unwrap();
                for number in ["500", "0"] {
                    user_file(home.path(), &format!("[{section}]\n{key} = {number}\n"));
                    let f = Config::load_from(&env_with(home.path(), "X", ""))
                        .unwrap_err()
                        .to_string();
                    assert!(f.contains(spec.key.name()) && f.contains("no unit"), "{f}");
                    std::fs::remove_file(home.path().join(".config/trail/config.toml")).unwrap();
                    let e = Config::load_from(&env_with(home.path(), spec.env, number))
                        .unwrap_err()
                        .to_string();
                    assert!(e.contains(spec.env) && e.contains("no unit"), "{e}");
                }
            }
        }
    }
}
