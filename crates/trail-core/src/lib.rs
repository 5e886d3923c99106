//! trail-core: the library behind `trail`.
//!
//! It never prints, parses arguments or starts an async runtime: the `trail` binary owns the
//! terminal, flags and exit codes. What lives here:
//!
//! - [`ledger`]: the LedgerPulse stream — records, sealed framing, crash-safe append, index,
//!   rehydration, rotation and verification.
//! - [`proof`]: the proof log, one line per tool call, from the host's own report.
//! - [`secrets`]: detection rules and redaction applied before anything reaches disk.
//! - [`gate`]: the verdict (allow, junction, block) on a shell command before it runs.
//! - [`guard`]: what a tool call may do: the gate, the edit guard and the person's grants.
//! - [`heal`]: views (the state file, MEMORY.md) brought back when missing.
//! - [`install`]: trail's hooks merged into (and removed from) an agent host's settings.
//! - [`doctor`]: what silently disables or weakens trail (`trail doctor`), each with its fix.
//! - [`layout`]: every path trail keeps in a project, named once.
//! - [`project`]: which project a directory is in (worktrees of one repository are one), and
//!   its name, id and branch.
//! - [`host`]: Claude Code / Codex hook payloads, reduced to domain events, and responses.
//! - [`config`]: layered configuration with the origin of every value.
//! - [`trust`]: the project configurations a person trusted (`trail trust`), outside projects.
//! - [`memory`]: the daily and core memory tiers, and Deep Dream with its no-fabrication verifier.
//! - [`search`]: ranked search over the stream, the journals, memory and notes (and code).
//! - [`import`]: history backfilled from the sessions Claude Code and Codex already keep.
//! - [`llm`]: the providers a dream can ask (OpenAI-compatible, Anthropic, a command, extractive).
//! - [`transcript`], [`rollout`]: Claude Code transcripts and Codex rollouts (the context
//!   tier), read as one through [`conversation`].
//! - [`state`]: `active_context.yaml` and the protocol: modes, junctions, grants, observations.
//! - [`time`]: exact UTC timestamps, the ledger's only identity.
//! - [`cite`]: `[${PROJECT_ROOT}/path:LINE]` citations and their quotes, checked against the files.
//! - [`trajectory`]: the agent's reasoning journal (cite, decision, handoff…), with lineage ids.
//! - [`grounding`]: the grounding ratio, decisions with a verified citation, compared exactly.

pub mod cite;
// Built and tested on Linux; other Unixes (macOS) should build, untested. Storage reaches project
// files with openat(2) and O_NOFOLLOW | O_NONBLOCK, keeps secrets by Unix permissions and
// syncs directories; none of that has a Windows form here yet (README, "Platforms").
#[cfg(not(unix))]
compile_error!(
    "trail builds on Unix only (Linux: built and tested; macOS: untested). On Windows, run trail and the agent inside WSL; see README, \"Platforms\"."
);

pub mod config;
pub mod conversation;
pub mod doctor;
pub mod failpoint;
pub mod fsutil;
pub mod gate;
pub mod grounding;
pub mod guard;
pub mod heal;
pub mod host;
pub mod import;
pub mod install;
pub mod layout;
pub mod ledger;
pub mod llm;
pub mod memory;
pub mod project;
pub mod proof;
pub mod rollout;
pub mod search;
pub mod secrets;
pub mod state;
pub mod text;
pub mod time;
pub mod trajectory;
pub mod transcript;
pub mod trust;
