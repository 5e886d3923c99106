//! trail-core: the library behind `trail`.
//!
//! It never prints, parses arguments or starts an async runtime: the `trail` binary owns the
//! terminal, flags and exit codes. What lives here:
//!
//! - [`attention`]: the attention budget: context fill, tokens added since the last checkpoint,
//!   zones, and the strict red zone's hold on edits.
//! - [`ledger`]: the LedgerPulse stream — records, sealed framing, crash-safe append, index,
//!   rehydration, rotation and verification.
//! - [`proof`]: the proof log, one line per tool call, from the host's own report.
//! - [`secrets`]: detection rules and redaction applied before anything reaches disk.
//! - [`confine`]: the agent's shell commands confined by the OS (bubblewrap), and the outbox
//!   through which it records while confined.
//! - [`zones`]: where a path really lands and the protected zones it reaches (the gate's
//!   vocabulary, held here without the gate: the gate is `trail-gate`, and what a tool call
//!   may do is `trail-guard`, both above this crate).
//! - [`heal`]: views and journals (NOTES.md, the state file, MEMORY.md, the trajectory, beads)
//!   brought back when missing or blank: from git, the journals, a template.
//! - [`git`]: git, read in a way no repository config can make run a program.
//! - [`install`]: trail's hooks merged into (and removed from) an agent host's settings.
//! - [`doctor`]: what silently disables or weakens trail (`trail doctor`), each with its fix.
//! - [`layout`]: every path trail keeps in a project, named once.
//! - [`project`]: which project a directory is in (worktrees of one repository are one), and
//!   its name, id and branch.
//! - [`host`]: Claude Code / Codex hook payloads, reduced to domain events, and responses.
//! - [`injected`]: what trail injects into each session's context, counted, and the cap.
//! - [`config`]: layered configuration with the origin of every value.
//! - [`trust`]: the project configurations a person trusted (`trail trust`), outside projects.
//! - [`memory`]: the daily and core memory tiers, and Deep Dream with its no-fabrication verifier.
//! - [`search`]: ranked search over the stream, the journals, memory and notes (and code).
//! - [`import`]: history backfilled from the sessions Claude Code and Codex already keep.
//! - [`llm`]: the providers a dream can ask (OpenAI-compatible, Anthropic, a command, extractive).
//! - [`transcript`], [`rollout`]: Claude Code transcripts and Codex rollouts (the context
//!   tier), read as one through [`conversation`].
//! - [`state`]: `active_context.yaml` and the protocol: modes, junctions, grants, observations.
//! - [`recovery`]: tiered recovery after `/clear`: levels 1 (≤ 100 tokens), 2 (≤ 500) and 3.
//! - [`time`]: exact UTC timestamps, the ledger's only identity.
//! - [`tokens`]: a text's token count, estimated on the side of caution without a tokenizer.
//! - [`cite`]: `[${PROJECT_ROOT}/path:LINE]` citations and their quotes, checked against the files.
//! - [`trajectory`]: the agent's reasoning journal (cite, decision, handoff…), with lineage ids.
//! - [`grounding`]: the grounding ratio, decisions with a verified citation, compared exactly.
//! - [`checkpoint`]: the synthesis checkpoint's seven steps before `/clear`.
//! - [`beads`]: the bead in progress, when `br` or `bd` tracks the project.
//! - [`decision`]: a decision recorded in the trajectory, the pulse stream and NOTES.md.
//! - [`show`]: the lines an identifier names, redacted (JIT retrieval), or its enclosing
//!   function with tree-sitter.
//! - [`notes`]: NOTES.md's Session Continuity section, edited in place or rebuilt from the
//!   journals.

// The floor every crate of trail stands on, named here as before (`trail_core::time`,
// `crate::fsutil` inside this crate): it lives in `trail-base`, which knows nothing above it.
pub use trail_base::{
    failpoint, file_error, fsutil, git, layout, project, ratio, text, time, tokens,
};
pub use trail_host as host;
pub use trail_ledger as ledger;
pub use trail_secrets as secrets;
pub use trail_zones as zones;

pub mod attention;
pub mod beads;
pub mod blame;
pub mod checkpoint;
pub mod cite;
pub mod confine;
// Built and tested on Linux; other Unixes (macOS) should build, untested. Storage reaches project
// files with openat(2) and O_NOFOLLOW | O_NONBLOCK, keeps secrets by Unix permissions and
// syncs directories; none of that has a Windows form here yet (docs/GUIDE.md, "Platforms").
#[cfg(not(unix))]
compile_error!(
    "trail builds on Unix only (Linux: built and tested; macOS: untested). On Windows, run trail and the agent inside WSL; see docs/GUIDE.md, \"Platforms\"."
);
// File offsets are u64 and buffers are indexed by usize: `fsutil::to_usize` relies on this.
#[cfg(not(target_pointer_width = "64"))]
compile_error!("trail builds for 64-bit targets only.");

pub mod config;
pub mod conversation;
pub mod decided;
pub mod decision;
pub mod doctor;
pub mod fork;
pub mod grounding;
pub mod heal;
pub mod import;
#[cfg(test)]
mod import_graph;
pub mod injected;
pub mod install;
pub mod llm;
pub mod loa;
pub mod lookup;
pub mod memory;
pub mod notes;
pub mod proof;
pub mod reanchor;
pub mod recovery;
pub mod report;
pub mod resume;
pub mod rollout;
pub mod search;
pub mod show;
pub mod state;
#[cfg(test)]
mod testing;
pub mod timeline;
pub mod trajectory;
pub mod transcript;
pub mod trust;
pub mod workspace;
