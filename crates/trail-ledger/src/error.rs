//! Everything that can go wrong with the ledger, in one type.

use std::path::{Path, PathBuf};

use super::record::RecordError;
use crate::secrets::SecretsError;

/// Everything that can go wrong with the ledger. Each variant says what to do next.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Secrets(#[from] SecretsError),
}

impl LedgerError {
    pub fn io<E: trail_base::file_error::Cause>(
        action: &'static str,
        path: &Path,
    ) -> impl FnOnce(E) -> LedgerError {
        let path = path.to_path_buf();
        move |source| LedgerError::Io {
            action,
            path,
            source: source.cause(),
        }
    }
}

/// A [`FileError`](trail_base::file_error::FileError) already says the action and the file.
impl From<trail_base::file_error::FileError> for LedgerError {
    fn from(e: trail_base::file_error::FileError) -> LedgerError {
        LedgerError::Io {
            action: e.action,
            path: e.path,
            source: e.source,
        }
    }
}

pub type Result<T, E = LedgerError> = std::result::Result<T, E>;
