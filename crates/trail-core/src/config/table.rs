//! Every setting, stated once: its key in a file, its environment variable, its default, the
//! kind of value it takes (which chooses its parser), what it does, and where `Config` keeps
//! it. Loading (defaults, files, environment), `trail config`, `--help` and the guide's table (docs/GUIDE.md)
//! all walk [`SETTINGS`]; nothing else names a setting's variable or default.
//!
//! Whether a cloned repository may choose a setting is [`SettingKey::class`], an exhaustive
//! match kept apart from the table on purpose: a key added later does not compile until
//! someone decides its class.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::parse::{
    BadValue, LlmProvider, format_duration, format_size, parse_count, parse_duration, parse_path,
    parse_size,
};
use super::{Config, Origin, Setting};
use crate::ratio::{Enforcement, Threshold};

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
    GateTrustedInstallers,
    LlmProvider,
    LlmBaseUrl,
    LlmModel,
    LlmCommand,
    LlmTimeout,
    LlmRetries,
    MemoryInjectChars,
    ResumeOtherProjects,
    MemoryDreamEvery,
    SyncEvery,
    ImportBatch,
    GroundingThreshold,
    GroundingEnforcement,
    ContextCapTokens,
    ContextReanchorTokens,
    SubagentPrimer,
    GroundingGhostMentions,
    GroundingGhostSimilarity,
    NotesPath,
    AttentionYellow,
    AttentionOrange,
    AttentionRed,
    AttentionWindow,
    ConfineMode,
    ConfineWritable,
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
        SettingKey::GateTrustedInstallers,
        SettingKey::LlmProvider,
        SettingKey::LlmBaseUrl,
        SettingKey::LlmModel,
        SettingKey::LlmCommand,
        SettingKey::LlmTimeout,
        SettingKey::LlmRetries,
        SettingKey::MemoryInjectChars,
        SettingKey::ResumeOtherProjects,
        SettingKey::MemoryDreamEvery,
        SettingKey::SyncEvery,
        SettingKey::ImportBatch,
        SettingKey::GroundingThreshold,
        SettingKey::GroundingEnforcement,
        SettingKey::ContextCapTokens,
        SettingKey::ContextReanchorTokens,
        SettingKey::SubagentPrimer,
        SettingKey::GroundingGhostMentions,
        SettingKey::GroundingGhostSimilarity,
        SettingKey::NotesPath,
        SettingKey::AttentionYellow,
        SettingKey::AttentionOrange,
        SettingKey::AttentionRed,
        SettingKey::AttentionWindow,
        SettingKey::ConfineMode,
        SettingKey::ConfineWritable,
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
            SettingKey::GateTrustedInstallers => "gate.trusted_installers",
            SettingKey::LlmProvider => "llm.provider",
            SettingKey::LlmBaseUrl => "llm.base_url",
            SettingKey::LlmModel => "llm.model",
            SettingKey::LlmCommand => "llm.command",
            SettingKey::LlmTimeout => "llm.timeout",
            SettingKey::LlmRetries => "llm.retries",
            SettingKey::MemoryInjectChars => "memory.inject_chars",
            SettingKey::ResumeOtherProjects => "resume.other_projects",
            SettingKey::MemoryDreamEvery => "memory.dream_every",
            SettingKey::SyncEvery => "sync.every",
            SettingKey::ImportBatch => "import.batch",
            SettingKey::GroundingThreshold => "grounding.threshold",
            SettingKey::GroundingEnforcement => "grounding.enforcement",
            SettingKey::ContextCapTokens => "context.cap_tokens",
            SettingKey::ContextReanchorTokens => "context.reanchor_tokens",
            SettingKey::SubagentPrimer => "subagent.primer",
            SettingKey::GroundingGhostMentions => "grounding.ghost_mentions",
            SettingKey::GroundingGhostSimilarity => "grounding.ghost_similarity",
            SettingKey::NotesPath => "notes.path",
            SettingKey::AttentionYellow => "attention.yellow",
            SettingKey::AttentionOrange => "attention.orange",
            SettingKey::AttentionRed => "attention.red",
            SettingKey::AttentionWindow => "attention.window",
            SettingKey::ConfineMode => "confine.mode",
            SettingKey::ConfineWritable => "confine.writable",
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
            // provider sends nothing, so that one value stays open (see `Spec::apply`).
            SettingKey::LlmProvider | SettingKey::LlmBaseUrl => Class::Sensitive,
            // Where every redacted original and the person's key are written: a directory in
            // the repository would put them in the next commit.
            SettingKey::SecretsDir => Class::Sensitive,
            // Where the journals (all projects') and the anchor live.
            SettingKey::LedgerHome => Class::Sensitive,
            // Loosens the gate: code from these hosts piped to a shell asks instead of being
            // blocked. A repository must not vouch for its own installer.
            SettingKey::GateTrustedInstallers => Class::Sensitive,
            // Tighten only: more redaction, more junctions.
            SettingKey::SecretsRules | SettingKey::GateRules => Class::Ordinary,
            // Tuning: at worst slower, noisier or more rotations, never code or data elsewhere.
            SettingKey::LedgerRotateBytes
            | SettingKey::LedgerAlertAfter
            | SettingKey::LedgerMaxRecords
            | SettingKey::LlmModel
            | SettingKey::LlmTimeout
            | SettingKey::LlmRetries => Class::Ordinary,
            // How much of what is already in the project reaches the agent's context.
            SettingKey::MemoryInjectChars | SettingKey::ResumeOtherProjects => Class::Ordinary,
            // How often the provider the user chose is asked, never which one or with what.
            SettingKey::MemoryDreamEvery => Class::Ordinary,
            // How often the remote the person named is reached, never which one.
            SettingKey::SyncEvery => Class::Ordinary,
            // How much work an interrupted import redoes; what it imports is the person's call.
            SettingKey::ImportBatch => Class::Ordinary,
            // What the checkpoint does with the ratio. A repository's .loa.config.yaml sets the
            // same two, unsigned, by Loa's design; neither runs, sends or moves anything.
            SettingKey::GroundingThreshold | SettingKey::GroundingEnforcement => Class::Ordinary,
            // How much trail may add to a session's context: at worst noisier or quieter.
            SettingKey::ContextCapTokens | SettingKey::ContextReanchorTokens => Class::Ordinary,
            // Text trail hands every subagent as its own: a cloned repository must not speak to
            // the user's subagents in trail's voice.
            SettingKey::SubagentPrimer => Class::Sensitive,
            // How a ghost feature's matches are judged: at worst more ghosts need a person.
            SettingKey::GroundingGhostMentions | SettingKey::GroundingGhostSimilarity => {
                Class::Ordinary
            }
            // Which file in the project holds the decision log: checked to stay inside the
            // project, to be Markdown, and to be none of .trail/, .proof/ or .git/ (a path into
            // them could overwrite a journal), so a repository may choose it.
            SettingKey::NotesPath => Class::Ordinary,
            // When the budget advises and (strict) holds edits: a repository can make trail
            // stricter or quieter, never run or send anything.
            SettingKey::AttentionYellow
            | SettingKey::AttentionOrange
            | SettingKey::AttentionRed
            | SettingKey::AttentionWindow => Class::Ordinary,
            // What the agent's commands may write: a repository must not switch its own
            // confinement off or open the person's home to it.
            SettingKey::ConfineMode | SettingKey::ConfineWritable => Class::Sensitive,
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

/// One setting that takes a single value, from a file (`key = value`) or its variable.
pub struct Spec {
    pub key: SettingKey,
    pub env: &'static str,
    /// As a person would write it. `None`: unset unless given (the kind says what that means).
    pub default: Option<&'static str>,
    pub kind: Kind,
    /// What it does, in one or two sentences, for `--help` and the README.
    pub doc: &'static str,
}

/// The kind of value a setting takes, which chooses its parser, and where `Config` keeps it
/// (typed, so a size can only land in a `Setting<u64>`).
pub enum Kind {
    /// Bytes with their unit: `100MB`, `64KB`, `4096B`.
    Size(Field<u64>),
    /// With its unit: `2s`, `500ms`, `1m`. `zero`: whether `0s` means something.
    Duration { field: Field<Duration>, zero: bool },
    /// A whole number from `min` to `max`.
    Count {
        field: Field<u32>,
        min: u32,
        max: u32,
    },
    /// A path; `~/` is the home directory.
    Path(Field<PathBuf>),
    /// Free text: a command, an address, a name. `unset` says what no value means.
    Text {
        field: Field<Option<String>>,
        unset: &'static str,
    },
    /// One of [`LlmProvider::NAMES`].
    Provider(Field<LlmProvider>),
    /// A decimal from 0 to 1, kept exact ([`Threshold`]).
    Ratio(Field<Threshold>),
    /// One of [`Enforcement::NAMES`].
    Enforcement(Field<Enforcement>),
    /// One of [`crate::confine::Mode::NAMES`].
    ConfineMode(Field<crate::confine::Mode>),
}

impl Kind {
    /// How a value of this kind is written, for messages and docs.
    pub fn written_as(&self) -> &'static str {
        match self {
            Kind::Size(_) => "a size with its unit (\"100MB\", \"64KB\", \"4096B\")",
            Kind::Duration { .. } => {
                "a duration with its unit (\"2s\", \"500ms\", \"1m\", \"24h\")"
            }
            Kind::Count { .. } => "a whole number",
            Kind::Path(_) => "a path in quotes (`~/` is your home)",
            Kind::Text { .. } => "text in quotes",
            Kind::Provider(_) => "openai, anthropic, command or extractive, in quotes",
            Kind::Ratio(_) => "a decimal from 0 to 1 (0.95)",
            Kind::Enforcement(_) => "strict, warn or disabled, in quotes",
            Kind::ConfineMode(_) => "auto, require or off, in quotes",
        }
    }

    /// Whether a file may write it as a TOML number rather than a string: counts, and sizes
    /// and durations only so that a bare number gets the message saying how to write it.
    pub(super) fn takes_numbers(&self) -> bool {
        matches!(
            self,
            Kind::Size(_) | Kind::Duration { .. } | Kind::Count { .. } | Kind::Ratio(_)
        )
    }
}

/// A field of [`Config`], to read and to write.
pub struct Field<T: 'static> {
    get: fn(&Config) -> &Setting<T>,
    get_mut: fn(&mut Config) -> &mut Setting<T>,
}

impl<T> Field<T> {
    fn store(&self, c: &mut Config, value: T, origin: Option<Origin>) {
        if let Some(o) = origin {
            (self.get_mut)(c).set(value, o);
        }
    }
}

macro_rules! field {
    ($name:ident) => {
        Field {
            get: |c| &c.$name,
            get_mut: |c| &mut c.$name,
        }
    };
}

/// Every single-valued setting, in the order `trail config` and the docs show them (and in
/// which a file's refused settings are listed).
pub static SETTINGS: &[Spec] = &[
    Spec {
        key: SettingKey::LedgerHome,
        env: "TRAIL_HOME",
        default: Some("~/.ledger"),
        kind: Kind::Path(field!(home)),
        doc: "The personal root holding stream/: the journals of all projects and the anchor. \
              An existing ~/.leger (the spec's spelling) is used when ~/.ledger is absent.",
    },
    Spec {
        key: SettingKey::LedgerRotateBytes,
        env: "TRAIL_ROTATE_BYTES",
        default: Some("100MB"),
        kind: Kind::Size(field!(rotate_bytes)),
        doc: "Past this size the stream is archived and a new one started.",
    },
    Spec {
        key: SettingKey::LedgerAlertAfter,
        env: "TRAIL_ALERT_AFTER",
        default: Some("2s"),
        kind: Kind::Duration {
            field: field!(alert_after),
            zero: true,
        },
        doc: "A writer waiting this long for the stream lock alerts: a record, a line on \
              stderr, and ledger.alert_command.",
    },
    Spec {
        key: SettingKey::LedgerAlertCommand,
        env: "TRAIL_ALERT_COMMAND",
        default: None,
        kind: Kind::Text {
            field: field!(alert_command),
            unset: "(none)",
        },
        doc: "Run through `sh -c` when a writer waits past ledger.alert_after, with the \
              message in $TRAIL_ALERT_MESSAGE.",
    },
    Spec {
        key: SettingKey::LedgerMaxRecords,
        env: "TRAIL_MAX_RECORDS",
        default: Some("500"),
        kind: Kind::Count {
            field: field!(max_records),
            min: 1,
            max: u32::MAX,
        },
        doc: "Rehydration (`trail resume`) reads at most this many records.",
    },
    Spec {
        key: SettingKey::SecretsDir,
        env: "TRAIL_SECRETS_DIR",
        default: Some("~/.secrets"),
        kind: Kind::Path(field!(secrets_dir)),
        doc: "Where the originals of redacted secrets (trail.env) and your key (trail.key) \
              are kept.",
    },
    Spec {
        key: SettingKey::LlmProvider,
        env: "TRAIL_LLM_PROVIDER",
        default: Some("extractive"),
        kind: Kind::Provider(field!(llm_provider)),
        doc: "Who `trail dream` asks: openai (any OpenAI-compatible server), anthropic, \
              command, or extractive (offline, no LLM).",
    },
    Spec {
        key: SettingKey::LlmBaseUrl,
        env: "TRAIL_LLM_BASE_URL",
        default: None,
        kind: Kind::Text {
            field: field!(llm_base_url),
            unset: "(the provider's)",
        },
        doc: "The provider's API address (Ollama, vLLM, a proxy).",
    },
    Spec {
        key: SettingKey::LlmModel,
        env: "TRAIL_LLM_MODEL",
        default: None,
        kind: Kind::Text {
            field: field!(llm_model),
            unset: "(none)",
        },
        doc: "The model `trail dream` asks for.",
    },
    Spec {
        key: SettingKey::LlmCommand,
        env: "TRAIL_LLM_COMMAND",
        default: None,
        kind: Kind::Text {
            field: field!(llm_command),
            unset: "(none)",
        },
        doc: "The command provider's shell command: the prompt on its stdin, the answer on \
              its stdout.",
    },
    Spec {
        key: SettingKey::LlmTimeout,
        env: "TRAIL_LLM_TIMEOUT",
        default: Some("120s"),
        kind: Kind::Duration {
            field: field!(llm_timeout),
            zero: false,
        },
        doc: "How long one LLM request may take.",
    },
    Spec {
        key: SettingKey::LlmRetries,
        env: "TRAIL_LLM_RETRIES",
        default: Some("2"),
        kind: Kind::Count {
            field: field!(llm_retries),
            min: 0,
            max: 10,
        },
        doc: "Retries after a 429 or 5xx answer (so at most 1 + retries requests).",
    },
    Spec {
        key: SettingKey::MemoryInjectChars,
        env: "TRAIL_MEMORY_INJECT_CHARS",
        default: Some("2500"),
        kind: Kind::Count {
            field: field!(memory_inject_chars),
            min: 0,
            max: 10_000,
        },
        doc: "At session start, at most this many characters of core memory (.trail/MEMORY.md \
              bullets still supported by their source, and the state file's lessons) reach the \
              agent, most relevant first; 0 injects none.",
    },
    Spec {
        key: SettingKey::ResumeOtherProjects,
        env: "TRAIL_RESUME_OTHER_PROJECTS",
        default: Some("10"),
        kind: Kind::Count {
            field: field!(resume_other_projects),
            min: 0,
            max: 1000,
        },
        doc: "At session start and in `trail resume`, the current project's threads come first \
              and at most this many other projects get one line each; 0 shows none.",
    },
    Spec {
        key: SettingKey::MemoryDreamEvery,
        env: "TRAIL_DREAM_EVERY",
        default: Some("24h"),
        kind: Kind::Duration {
            field: field!(dream_every),
            zero: true,
        },
        doc: "A session's end starts `trail dream` in the background when daily memory \
              changed and the last dream is older than this; 0s: only when you run it.",
    },
    Spec {
        key: SettingKey::SyncEvery,
        env: "TRAIL_SYNC_EVERY",
        default: Some("10m"),
        kind: Kind::Duration {
            field: field!(sync_every),
            zero: true,
        },
        doc: "With a sync remote set (`trail sync --remote URL`), a session's end, and a prompt \
              once this long has passed since the last try, start `trail sync` in the \
              background; 0s: only when you run it.",
    },
    Spec {
        key: SettingKey::ImportBatch,
        env: "TRAIL_IMPORT_BATCH",
        default: Some("200"),
        kind: Kind::Count {
            field: field!(import_batch),
            min: 1,
            max: 1_000_000,
        },
        doc: "`trail import` commits this many sessions' records at a time (one imported \
              segment each): an interrupted import redoes at most one batch.",
    },
    Spec {
        key: SettingKey::GroundingThreshold,
        env: "TRAIL_GROUNDING_THRESHOLD",
        default: Some("0.95"),
        kind: Kind::Ratio(field!(grounding_threshold)),
        doc: "The lowest grounding ratio that passes (decisions with a verified citation over \
              all decisions), compared exactly. Set here, it wins over .loa.config.yaml.",
    },
    Spec {
        key: SettingKey::GroundingEnforcement,
        env: "TRAIL_GROUNDING_ENFORCEMENT",
        default: Some("warn"),
        kind: Kind::Enforcement(field!(grounding_enforcement)),
        doc: "What a ratio below the threshold does: strict blocks the checkpoint, warn says \
              so, disabled only measures. Set here, it wins over .loa.config.yaml.",
    },
    Spec {
        key: SettingKey::ContextCapTokens,
        env: "TRAIL_CONTEXT_CAP_TOKENS",
        default: Some("20000"),
        kind: Kind::Count {
            field: field!(context_cap_tokens),
            min: 0,
            max: 10_000_000,
        },
        doc: "Tokens (estimated) trail may add to one session's context window, counted from \
              its start or its last compaction; past it each addition is one line saying what \
              was held back (`trail status` shows the count). 0: no cap.",
    },
    Spec {
        key: SettingKey::ContextReanchorTokens,
        env: "TRAIL_REANCHOR_TOKENS",
        default: Some("1500"),
        kind: Kind::Count {
            field: field!(context_reanchor_tokens),
            min: 0,
            max: 2000,
        },
        doc: "Tokens (estimated) of the re-anchor packet SessionStart gives after /clear, a \
              compaction or a resume (the objective, the plan step, the pending junction, the \
              last decisions with their citations checked now, NOTES.md's reasoning state, the \
              user's last prompts, the last tool calls, the thread, core memory), most \
              important first; 0: no packet. At most 2000, so that it fits Claude Code's \
              10,000-character cap on hook context.",
    },
    Spec {
        key: SettingKey::SubagentPrimer,
        env: "TRAIL_SUBAGENT_PRIMER",
        default: None,
        kind: Kind::Text {
            field: field!(subagent_primer),
            unset: "(none: subagents get nothing from trail)",
        },
        doc: "What trail tells each subagent as it starts (Claude Code's SubagentStart), cut to \
              1,500 characters and redacted; `builtin` is trail's own primer of about 80 \
              tokens.",
    },
    Spec {
        key: SettingKey::GroundingGhostMentions,
        env: "TRAIL_GHOST_MENTIONS",
        default: Some("3"),
        kind: Kind::Count {
            field: field!(ghost_mentions),
            min: 1,
            max: 1_000_000,
        },
        doc: "Negative grounding (`trail ghosts`): a ghost feature no code matches but this many \
              documentation lines mention is HIGH AMBIGUITY, for a person to decide (Loa: 3).",
    },
    Spec {
        key: SettingKey::GroundingGhostSimilarity,
        env: "TRAIL_GHOST_SIMILARITY",
        default: Some("0.4"),
        kind: Kind::Ratio(field!(ghost_similarity)),
        doc: "With ck installed, the similarity a semantic match of a ghost feature needs to \
              count (FR-7's 0.4); trail's lexical search ignores it.",
    },
    Spec {
        key: SettingKey::NotesPath,
        env: "TRAIL_NOTES_PATH",
        default: None,
        kind: Kind::Text {
            field: field!(notes_path),
            unset: "(NOTES.md, or Loa's)",
        },
        doc: "The NOTES.md that holds Session Continuity and the Decision Log, relative to the \
              project root. Unset: Loa's own when .loa.config.yaml exists, else NOTES.md.",
    },
    Spec {
        key: SettingKey::AttentionYellow,
        env: "TRAIL_ATTENTION_YELLOW",
        default: Some("5000"),
        kind: Kind::Count {
            field: field!(attention_yellow),
            min: 1,
            max: u32::MAX,
        },
        doc: "The attention budget turns yellow at this many tokens added to the context since \
              the last checkpoint (or the session's start): trail persists decisions, files and \
              commands (delta-synthesis).",
    },
    Spec {
        key: SettingKey::AttentionOrange,
        env: "TRAIL_ATTENTION_ORANGE",
        default: Some("10000"),
        kind: Kind::Count {
            field: field!(attention_orange),
            min: 1,
            max: u32::MAX,
        },
        doc: "At this many added tokens the budget is orange: the agent is advised to run a \
              checkpoint and ask for /clear.",
    },
    Spec {
        key: SettingKey::AttentionRed,
        env: "TRAIL_ATTENTION_RED",
        default: Some("15000"),
        kind: Kind::Count {
            field: field!(attention_red),
            min: 1,
            max: u32::MAX,
        },
        doc: "At this many added tokens the budget is red: with strict grounding enforcement, \
              new edits wait until a checkpoint passes; under warn every prompt says so, under \
              disabled the first.",
    },
    Spec {
        key: SettingKey::AttentionWindow,
        env: "TRAIL_ATTENTION_WINDOW",
        default: Some("200000"),
        kind: Kind::Count {
            field: field!(attention_window),
            min: 1,
            max: u32::MAX,
        },
        doc: "The model's context window in tokens, for how full the context is (`trail \
              budget`). Unset, it comes from the session's model where trail knows it (Claude \
              200000, or 1000000 for a long-context one; GPT-5 400000), else this default.",
    },
    Spec {
        key: SettingKey::ConfineMode,
        env: "TRAIL_CONFINE_MODE",
        default: Some("auto"),
        kind: Kind::ConfineMode(field!(confine_mode)),
        doc: "Whether the agent's shell commands run confined by the OS (bubblewrap): `auto` \
              when bubblewrap works here, `require` refuses to run them otherwise, `off` leaves \
              them to the gate alone.",
    },
    Spec {
        key: SettingKey::ConfineWritable,
        env: "TRAIL_CONFINE_WRITABLE",
        default: None,
        kind: Kind::Text {
            field: field!(confine_writable),
            unset: "(~/.cache:~/.npm:~/.cargo/registry:~/.cargo/git)",
        },
        doc: "The places a confined command may write besides the project, its git directory \
              and the temporary directories: tool caches, `:`-separated, `~/` is your home. \
              Setting it replaces the default list.",
    },
];

/// Settings a file holds as a list of tables (`[[secrets.rules]]`): no variable, no default.
pub static LISTS: &[(SettingKey, &str)] = &[
    (
        SettingKey::SecretsRules,
        "More secret rules (name, regex, an example that must match), after the built-in ones.",
    ),
    (
        SettingKey::GateRules,
        "More gate rules (block or junction, with examples that must and must not match), \
         after the built-in ones; they can only tighten.",
    ),
    (
        SettingKey::GateTrustedInstallers,
        "Hosts whose installers you trust (`[\"sh.rustup.rs\"]`): their script piped to a shell \
         is a junction a person approves instead of being blocked.",
    ),
];

/// A value as `trail config` shows it.
pub enum Shown {
    /// No value; what that means (`(none)`, `(the provider's)`).
    Unset(&'static str),
    /// A number without a unit.
    Count(u32),
    /// Anything else, in a form that parses back to the same value (`100MB`, `2s`, a path).
    Text(String),
}

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shown::Unset(what) => f.write_str(what),
            Shown::Count(n) => write!(f, "{n}"),
            Shown::Text(s) => f.write_str(s),
        }
    }
}

/// In JSON: `null` when unset, a number when it has no unit, else the text `trail config` shows.
impl serde::Serialize for Shown {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Shown::Unset(_) => s.serialize_none(),
            Shown::Count(n) => s.serialize_u32(*n),
            Shown::Text(t) => s.serialize_str(t),
        }
    }
}

impl Spec {
    /// The setting a file writes as `key` (`ledger.rotate_bytes`).
    pub fn find(key: &str) -> Option<&'static Spec> {
        SETTINGS.iter().find(|s| s.key.name() == key)
    }

    /// The default as the docs show it: the text, or what no value means.
    pub fn default_text(&self) -> &'static str {
        match (self.default, &self.kind) {
            (Some(d), _) => d,
            (None, Kind::Text { unset, .. }) => unset,
            (None, _) => "(none)",
        }
    }

    /// The file section and the key within it: `("ledger", "rotate_bytes")`.
    pub fn section_and_name(&self) -> (&'static str, &'static str) {
        self.key
            .name()
            .split_once('.')
            .unwrap_or(("", self.key.name()))
    }

    /// Parses `text` with this setting's parser and stores it under the origin `admit` gives
    /// for the value's class (`None`: it does not count). The value is parsed first, so a
    /// malformed value is an error even where it would not have counted.
    pub(super) fn apply(
        &self,
        c: &mut Config,
        text: &str,
        home: Option<&Path>,
        admit: impl FnOnce(Class) -> Option<Origin>,
    ) -> Result<(), BadValue> {
        let class = self.key.class();
        match &self.kind {
            Kind::Size(f) => f.store(c, parse_size(text)?, admit(class)),
            Kind::Duration { field, zero } => {
                let d = parse_duration(text)?;
                if d.is_zero() && !zero {
                    return Err(BadValue::NoTime(text.into()));
                }
                field.store(c, d, admit(class));
            }
            Kind::Count { field, min, max } => {
                field.store(c, parse_count(text, *min, *max)?, admit(class));
            }
            Kind::Path(f) => f.store(c, parse_path(text, home)?, admit(class)),
            Kind::Text { field, .. } => field.store(c, Some(text.to_string()), admit(class)),
            Kind::Provider(f) => {
                let p = LlmProvider::parse(text).ok_or_else(|| BadValue::Unknown {
                    what: "provider",
                    text: text.into(),
                    names: LlmProvider::NAMES,
                })?;
                // The offline provider sends nothing anywhere: any file may choose it.
                let class = if p == LlmProvider::Extractive {
                    Class::Ordinary
                } else {
                    class
                };
                f.store(c, p, admit(class));
            }
            Kind::Ratio(f) => f.store(c, Threshold::parse(text)?, admit(class)),
            Kind::Enforcement(f) => {
                let e = Enforcement::parse(text).ok_or_else(|| BadValue::Unknown {
                    what: "enforcement",
                    text: text.into(),
                    names: Enforcement::NAMES,
                })?;
                f.store(c, e, admit(class));
            }
            Kind::ConfineMode(f) => {
                let m = crate::confine::Mode::parse(text).ok_or_else(|| BadValue::Unknown {
                    what: "confine mode",
                    text: text.into(),
                    names: crate::confine::Mode::NAMES,
                })?;
                f.store(c, m, admit(class));
            }
        }
        Ok(())
    }

    /// The value in `c` and where it came from.
    pub fn get<'c>(&self, c: &'c Config) -> (Shown, &'c Origin) {
        fn view<'c, T>(
            f: &Field<T>,
            c: &'c Config,
            show: impl FnOnce(&T) -> Shown,
        ) -> (Shown, &'c Origin) {
            let s = (f.get)(c);
            (show(&s.value), &s.origin)
        }
        match &self.kind {
            Kind::Size(f) => view(f, c, |v| Shown::Text(format_size(*v))),
            Kind::Duration { field, .. } => view(field, c, |v| Shown::Text(format_duration(*v))),
            Kind::Count { field, .. } => view(field, c, |v| Shown::Count(*v)),
            Kind::Path(f) => view(f, c, |v| Shown::Text(v.display().to_string())),
            Kind::Text { field, unset } => view(field, c, |v| match v {
                Some(s) => Shown::Text(s.clone()),
                None => Shown::Unset(unset),
            }),
            Kind::Provider(f) => view(f, c, |v| Shown::Text(v.to_string())),
            Kind::Ratio(f) => view(f, c, |v| Shown::Text(v.to_string())),
            Kind::Enforcement(f) => view(f, c, |v| Shown::Text(v.to_string())),
            Kind::ConfineMode(f) => view(f, c, |v| Shown::Text(v.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_setting_has_a_variable_a_default_that_parses_a_doc_and_a_class() {
        let home = Path::new("/home/u");
        let mut keys = HashSet::new();
        let mut vars = HashSet::new();
        for s in SETTINGS {
            let k = s.key.name();
            assert!(keys.insert(k), "{k} twice");
            assert!(
                s.env.starts_with("TRAIL_") && vars.insert(s.env),
                "{k}: {}",
                s.env
            );
            assert!(s.doc.len() > 10 && s.doc.ends_with('.'), "{k}: describe it");
            // Only free text may be unset; everything else has a value to show.
            assert_eq!(
                s.default.is_none(),
                matches!(s.kind, Kind::Text { .. }),
                "{k}"
            );
            let _ = s.key.class();
            let mut c = Config::blank();
            if let Some(d) = s.default {
                s.apply(&mut c, d, Some(home), |_| Some(Origin::Default))
                    .unwrap_or_else(|e| panic!("{k}: default {d}: {e}"));
                // What `trail config` shows parses back to the same value.
                let (shown, _) = s.get(&c);
                let again = shown.to_string();
                let mut c2 = Config::blank();
                s.apply(&mut c2, &again, Some(home), |_| Some(Origin::Default))
                    .unwrap();
                assert_eq!(s.get(&c2).0.to_string(), again, "{k}");
            }
        }
        // Every key is either a single setting or a list, exactly once.
        for k in SettingKey::ALL {
            let n = SETTINGS.iter().filter(|s| s.key == *k).count()
                + LISTS.iter().filter(|(l, _)| l == k).count();
            assert_eq!(n, 1, "{k}");
        }
    }

    #[test]
    fn each_setting_lands_in_its_own_field() {
        // A table row pointing at another row's field would pass the test above; set each
        // one in turn and check that only its own value moved.
        for s in SETTINGS {
            let mut c = Config::blank();
            let text = match &s.kind {
                Kind::Size(_) => "7KB",
                Kind::Duration { .. } => "7s",
                Kind::Count { .. } => "7",
                Kind::Path(_) => "/seven",
                Kind::Text { .. } => "seven",
                Kind::Provider(_) => "command",
                Kind::Ratio(_) => "0.7",
                Kind::Enforcement(_) => "strict",
                Kind::ConfineMode(_) => "require",
            };
            s.apply(&mut c, text, None, |_| Some(Origin::Env(s.env.into())))
                .unwrap();
            for other in SETTINGS {
                let moved = matches!(other.get(&c).1, Origin::Env(_));
                assert_eq!(moved, other.key == s.key, "{} moved {}", s.key, other.key);
            }
        }
    }

    #[test]
    fn the_sensitive_keys_are_the_ones_that_run_send_move_or_loosen() {
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
                "gate.trusted_installers",
                "llm.provider",
                "llm.base_url",
                "llm.command",
                "subagent.primer",
                "confine.mode",
                "confine.writable"
            ]
        );
    }
}
