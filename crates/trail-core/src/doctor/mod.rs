//! `trail doctor`: everything that silently disables or weakens trail, found from files and the
//! environment, each problem with its fix. Every check is a function of a [`Ground`] (or of
//! what the binary already loaded) returning its [`Finding`]s: none means healthy. Running the
//! host CLIs for their versions is left to the binary.

pub mod binary;
pub mod confine;
pub mod hooks;
pub mod secrets;
pub mod setup;
pub mod versions;

use std::ffi::OsString;
use std::path::PathBuf;

/// One problem and what to do about it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    pub check: &'static str,
    pub problem: String,
    pub fix: String,
    pub level: Level,
}

/// How much a finding weighs: a failure means trail is off or losing records; a warning is a
/// recommendation, and doctor still exits 0 for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Fail,
    Warn,
}

impl Finding {
    pub fn new(check: &'static str, problem: impl Into<String>, fix: impl Into<String>) -> Self {
        Finding {
            check,
            problem: problem.into(),
            fix: fix.into(),
            level: Level::Fail,
        }
    }

    /// The same finding as a recommendation.
    #[must_use]
    pub fn warning(mut self) -> Self {
        self.level = Level::Warn;
        self
    }
}

/// Where the checks look: the person's home, the project, the hooks' PATH, Codex's home and
/// Claude Code's managed settings. Injectable so tests never read the real ones.
#[derive(Clone, Debug)]
pub struct Ground {
    pub home: PathBuf,
    pub project_root: PathBuf,
    /// The PATH a hook runs with (the host passes its own environment on).
    pub path: Option<OsString>,
    /// `$CODEX_HOME`, default `~/.codex`.
    pub codex_home: PathBuf,
    /// Claude Code's managed settings (`/etc/claude-code/managed-settings.json` on Linux).
    pub managed_settings: PathBuf,
    /// trail's config folder, which holds the link the team's shared hooks run.
    pub config_dir: Option<PathBuf>,
}

impl Ground {
    /// The real ground of this process.
    pub fn from_env(home: PathBuf, project_root: PathBuf) -> Ground {
        let codex_home = std::env::var_os("CODEX_HOME")
            .filter(|v| !v.is_empty())
            .map_or_else(|| home.join(".codex"), PathBuf::from);
        Ground {
            path: std::env::var_os("PATH"),
            codex_home,
            managed_settings: PathBuf::from(MANAGED_SETTINGS),
            config_dir: crate::config::user_config_dir(&crate::config::ProcessEnv),
            home,
            project_root,
        }
    }
}

/// Claude Code's managed settings file on Linux (its settings reference).
pub const MANAGED_SETTINGS: &str = "/etc/claude-code/managed-settings.json";
