//! Where trail keeps things in a project. Every path under the project root is named here, once;
//! everything else asks a [`Layout`].
//!
//! ```text
//! active_context.yaml                       the state view (Operator's Edge v4)
//! NOTES.md                                  session continuity and decision log (Lossless Ledger);
//!                                           elsewhere by `notes.path` or Loa's config (`notes::locate`)
//! .proof/session_log.jsonl                  one line per tool call (append-only)
//! .proof/archive.jsonl                      sessions archived in done mode
//! .trail/config.toml                        project configuration
//! .trail/no-sync                            the person's marker: this project's records stay on
//!                                           this machine (`trail sync` never sends them)
//! .trail/.gitignore                         keeps .trail/state/ out of git
//! .trail/MEMORY.md                          core memory
//! .trail/memory/YYYY-MM-DD.md               daily memory
//! .trail/memory/dreams/YYYY-MM-DD.md        dream diaries
//! .trail/trajectory/YYYY-MM-DD.jsonl        the trajectory: cite, decision, handoff… (append-only)
//! .trail/state/                             trail's own records (the agent may not write here):
//!   grants.jsonl                            the signed grants journal
//!   pending.json                            the signed pending junction
//!   state.lock                              the state lock
//!   notes.lock                              held while NOTES.md is rewritten
//!   active_context.sha256                   hash of the view as trail last wrote it
//!   active_context.before-trail.yaml        an older view, kept whole before its first rewrite
//!   hooks-seen.json                         trail's hook count per settings layer at SessionStart
//!   summary.pending                         the context summary callback's ticket
//!   attention                               the attention budget's last measure (JSON, a view)
//!   MEMORY.md.bak                           MEMORY.md before the last dream
//!   dream.hash                              the daily content the last dream consolidated
//!   dream.lock                              held by the dream running now; when the last began
//!   dream.news                              what a background dream tells the next session
//!   flushed/<hash of a transcript's path>   where the last flush of that transcript ended
//!   context/<session>.jsonl                 what trail injected into that session's context
//!   reanchor/<session>.jsonl                the re-anchor packets given in that session chain
//!   git-tracked                             what git keeps of the healed paths, and its key
//! .loa.config.yaml                          Loa's configuration, read (grounding, its paths)
//! ```

use std::path::{Path, PathBuf};

/// The state view's file name (at the project root).
pub const STATE_FILE: &str = "active_context.yaml";

/// One project's paths.
#[derive(Clone, Debug)]
pub struct Layout {
    root: PathBuf,
}

impl Layout {
    /// The grants journal's name inside the state directory.
    pub const GRANTS: &'static str = "grants.jsonl";
    /// The pending junction's name inside the state directory.
    pub const PENDING: &'static str = "pending.json";

    pub fn new(project_root: impl Into<PathBuf>) -> Layout {
        Layout {
            root: project_root.into(),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn state_view(&self) -> PathBuf {
        self.root.join(STATE_FILE)
    }

    pub fn notes(&self) -> PathBuf {
        self.root.join("NOTES.md")
    }

    pub fn proof_dir(&self) -> PathBuf {
        self.root.join(".proof")
    }

    pub fn proof_log(&self) -> PathBuf {
        self.proof_dir().join("session_log.jsonl")
    }

    pub fn proof_archive(&self) -> PathBuf {
        self.proof_dir().join("archive.jsonl")
    }

    pub fn trail_dir(&self) -> PathBuf {
        self.root.join(".trail")
    }

    pub fn config(&self) -> PathBuf {
        self.trail_dir().join("config.toml")
    }

    /// The marker that keeps this project's records out of `trail sync` (its content is not
    /// read): the ledger writes them to its local-only part instead.
    pub fn no_sync_marker(&self) -> PathBuf {
        self.trail_dir().join("no-sync")
    }

    /// Whether the project opted out of sync. A symbolic link counts as the file it names
    /// would not: only the person's own file in the project says so.
    pub fn opted_out_of_sync(&self) -> bool {
        std::fs::symlink_metadata(self.no_sync_marker()).is_ok_and(|m| m.is_file())
    }

    /// Which NOTES.md the project keeps, as first chosen (one line, relative to the root):
    /// committed with the project, so a Loa config added later does not move the file.
    pub fn notes_location(&self) -> PathBuf {
        self.trail_dir().join("notes-location")
    }

    pub fn gitignore(&self) -> PathBuf {
        self.trail_dir().join(".gitignore")
    }

    pub fn core_memory(&self) -> PathBuf {
        self.trail_dir().join("MEMORY.md")
    }

    pub fn memory_dir(&self) -> PathBuf {
        self.trail_dir().join("memory")
    }

    pub fn dreams_dir(&self) -> PathBuf {
        self.memory_dir().join("dreams")
    }

    pub fn trajectory_dir(&self) -> PathBuf {
        self.trail_dir().join("trajectory")
    }

    /// Loa's configuration, when the project uses Loa (trail reads it, never writes it).
    pub fn loa_config(&self) -> PathBuf {
        self.root.join(".loa.config.yaml")
    }

    pub fn state_dir(&self) -> PathBuf {
        self.trail_dir().join("state")
    }

    pub fn grants(&self) -> PathBuf {
        self.state_dir().join(Self::GRANTS)
    }

    pub fn pending(&self) -> PathBuf {
        self.state_dir().join(Self::PENDING)
    }

    pub fn state_lock(&self) -> PathBuf {
        self.state_dir().join("state.lock")
    }

    pub fn notes_lock(&self) -> PathBuf {
        self.state_dir().join("notes.lock")
    }

    pub fn state_hash(&self) -> PathBuf {
        self.state_dir().join("active_context.sha256")
    }

    pub fn state_before_trail(&self) -> PathBuf {
        self.state_dir().join("active_context.before-trail.yaml")
    }

    pub fn hooks_seen(&self) -> PathBuf {
        self.state_dir().join("hooks-seen.json")
    }

    pub fn summary_ticket(&self) -> PathBuf {
        self.state_dir().join("summary.pending")
    }

    pub fn attention(&self) -> PathBuf {
        self.state_dir().join("attention")
    }

    pub fn memory_backup(&self) -> PathBuf {
        self.state_dir().join("MEMORY.md.bak")
    }

    pub fn dream_hash(&self) -> PathBuf {
        self.state_dir().join("dream.hash")
    }

    pub fn dream_lock(&self) -> PathBuf {
        self.state_dir().join("dream.lock")
    }

    pub fn dream_news(&self) -> PathBuf {
        self.state_dir().join("dream.news")
    }

    /// What trail injected into one session's context, a line per injection; `key` names the
    /// session (`trail_core::injected::session_key`).
    pub fn injected(&self, key: &str) -> PathBuf {
        self.injected_dir().join(format!("{key}.jsonl"))
    }

    pub fn injected_dir(&self) -> PathBuf {
        self.state_dir().join("context")
    }

    /// The agent's commits as the hooks saw them, a line each, waiting to be written as git
    /// notes (`trail_core::blame`).
    pub fn commits(&self) -> PathBuf {
        self.state_dir().join("commits.jsonl")
    }

    /// How far into [`Layout::commits`] the notes are written (a byte offset).
    pub fn commits_noted(&self) -> PathBuf {
        self.state_dir().join("commits.noted")
    }

    /// What the hooks saw of each session that no other journal keeps (prompts, context fill,
    /// starts, compactions), a file a day (`trail_core::timeline`).
    pub fn timeline_dir(&self) -> PathBuf {
        self.state_dir().join("timeline")
    }

    /// What git keeps of the paths healing covers, remembered with what identifies the answer
    /// (`heal::tracked`).
    pub fn git_tracked(&self) -> PathBuf {
        self.state_dir().join("git-tracked")
    }

    /// The re-anchor packets given in one session chain, a line each (their content hashes);
    /// `key` names the chain (`trail_core::injected::session_key` of its session id).
    pub fn reanchored(&self, key: &str) -> PathBuf {
        self.state_dir()
            .join("reanchor")
            .join(format!("{key}.jsonl"))
    }

    /// Where the last flush of one transcript ended; `key` names the transcript.
    pub fn flush_mark(&self, key: &str) -> PathBuf {
        self.state_dir().join("flushed").join(key)
    }
}
