//! Installing trail into an agent host: its hooks merged into the host's settings, idempotently,
//! keeping every hook that is not trail's, and removed again without touching the rest.

pub mod claude;
pub mod codex;
pub mod files;
pub mod hooks_seen;
pub mod mcp;
pub mod plugin;
pub mod shared;

/// Why an install could not be done. The settings file is never overwritten in these cases (the
/// binary says how to retry).
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("{} is not valid JSON (line {line}, column {column}): {message}; it was not changed", path.display())]
    Malformed {
        path: std::path::PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{} has `{field}` of an unexpected shape ({found}); it was not changed", path.display())]
    Shape {
        path: std::path::PathBuf,
        field: String,
        found: String,
    },
    #[error("{} exists and is {what}; trail leaves it alone", path.display())]
    Foreign {
        path: std::path::PathBuf,
        what: &'static str,
    },
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What an install or uninstall changed.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    pub path: std::path::PathBuf,
    /// Hook events trail's entry was added to (or removed from).
    pub events: Vec<String>,
    /// Whether the file was written.
    pub written: bool,
}
