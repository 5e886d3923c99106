//! What can go wrong in a sync, typed; the binary words it for the person.

use std::io;
use std::path::{Path, PathBuf};

pub type Result<T> = std::result::Result<T, SyncError>;

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error("cannot {op} {}: {source}", path.display())]
    Io {
        op: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("cannot run git: {0} (is git installed and on PATH?)")]
    Spawn(#[source] io::Error),
    #[error("{what} failed: {detail}")]
    Git { what: String, detail: String },
    #[error(transparent)]
    Machine(#[from] trail_secrets::machine::MachineError),
    #[error(transparent)]
    Ledger(#[from] trail_ledger::LedgerError),
    /// No remote was ever named.
    #[error("no sync remote is set")]
    NoRemote,
    /// What another machine published does not hold up.
    #[error("{0}")]
    Rejected(String),
    /// A machine id the person named is not one.
    #[error("`{0}` is not a machine id (16 lowercase hex digits, as `trail status` shows)")]
    BadId(String),
    /// The machine the person wants to trust has published nothing on the remote.
    #[error(
        "machine {0} has published nothing on the remote yet: run `trail sync` on it first, then here"
    )]
    UnknownMachine(String),
}

impl SyncError {
    pub fn io<'p, E: trail_base::file_error::Cause>(
        op: &'static str,
        path: &'p Path,
    ) -> impl FnOnce(E) -> SyncError + 'p {
        move |source| SyncError::Io {
            op,
            path: path.to_path_buf(),
            source: source.cause(),
        }
    }

    pub fn spawn(e: io::Error) -> SyncError {
        SyncError::Spawn(e)
    }
}
