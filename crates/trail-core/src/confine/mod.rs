//! The agent's shell commands, confined by the operating system (issue 19).
//!
//! The gate infers a command's effect from its text, and a form nobody listed slips past it.
//! What the agent must never do is therefore made impossible where the OS can: every shell
//! command an agent runs is rewritten by the PreToolUse hook into `trail confine … -- COMMAND`
//! ([`shell::rewrite`]), which runs COMMAND under bubblewrap ([`bwrap`]) with a [`Policy`]:
//!
//! - the whole file system read-only, except the project, its git directory, the temporary
//!   directories and a short list of tool caches (`confine.writable`);
//! - inside those, trail's records (`.trail/`, `.proof/`), the hosts' project settings
//!   (`.claude/`, `.codex/`, `.mcp.json`) and git's `config` and `hooks` read-only again, each a
//!   mount point of its own so it can be neither renamed nor replaced;
//! - the secret store and the key hidden (an empty tmpfs over the directory);
//! - the ledger's home and trail's configuration read-only wherever they are;
//! - every Unix socket present at the start masked (a person's tmux, an ssh or docker agent
//!   would run commands outside the confinement);
//! - its own user, PID and IPC namespaces, no capabilities, no further user namespaces, and a
//!   new session (no terminal to push keystrokes into).
//!
//! Everything the command starts inherits this, a program the agent wrote and ran included.
//! Only processes outside it (trail's hooks, started by the host, and the person's terminal)
//! can write trail's decisions, grants, state and journals; what the agent records through
//! trail's own commands goes to `.trail/outbox/`, the one writable place under `.trail/`, and a
//! hook ingests it as the agent's ([`outbox`]).
//!
//! Landlock was measured and not chosen: its grants are additive, so it cannot keep a folder
//! inside the writable project read-only (`../shared/notes/confinement.md`; SECURITY.md).

pub mod bwrap;
pub mod outbox;
pub mod policy;
pub mod shell;

pub use policy::{Inputs, Mount, Policy, PolicyError};

/// Whether the agent's commands are confined (`confine.mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Confine when bubblewrap is installed; otherwise the gate alone judges, and `trail
    /// doctor` says which guarantees fell back to it.
    Auto,
    /// Confine, or refuse to run the command.
    Require,
    /// Never confine (the gate alone judges). Only the person's own configuration can say so.
    Off,
}

impl Mode {
    pub const NAMES: &'static str = "auto, require or off";

    pub fn parse(text: &str) -> Option<Mode> {
        match text {
            "auto" => Some(Mode::Auto),
            "require" => Some(Mode::Require),
            "off" => Some(Mode::Off),
            _ => None,
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mode::Auto => "auto",
            Mode::Require => "require",
            Mode::Off => "off",
        })
    }
}

/// `confine.writable` when unset: the caches builds and package managers fill on first use.
pub const DEFAULT_WRITABLE: &str = "~/.cache:~/.npm:~/.cargo/registry:~/.cargo/git";

/// The variable a confined command sees, so trail's own commands inside know to use the
/// outbox. It is a courtesy, not a defence: unsetting it changes nothing the OS enforces.
pub const CONFINED_VAR: &str = "TRAIL_CONFINED";

/// Whether this process runs inside trail's confinement (or any place where `dir`, trail's
/// state directory, cannot be written): the OS's answer, not the variable's.
pub fn cannot_write(dir: &std::path::Path) -> bool {
    match rustix::fs::access(dir, rustix::fs::Access::WRITE_OK) {
        Ok(()) => false,
        Err(e) => e == rustix::io::Errno::ROFS || e == rustix::io::Errno::ACCESS,
    }
}
