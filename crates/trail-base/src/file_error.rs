//! An I/O failure that says where: the action, the file, and the system's answer.
//!
//! `std::io::Error` names neither the file nor what was being done to it, so an error that
//! crosses a module boundary as a bare `io::Error` reaches the person as "No such file or
//! directory (os error 2)" with nothing to act on. A function whose failure is a file's returns
//! [`FileError`] instead, built where the path is known:
//!
//! ```
//! use std::path::Path;
//! use trail_base::file_error::{At, FileError};
//!
//! fn load(path: &Path) -> Result<String, FileError> {
//!     std::fs::read_to_string(path).at("read", path)
//! }
//! let e = load(Path::new("/nonexistent/notes.md")).unwrap_err();
//! assert_eq!(e.to_string(), "cannot read /nonexistent/notes.md: No such file or directory (os error 2)");
//! assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
//! ```
//!
//! The kind is kept, so a caller that tells "missing" from "refused" still can, and a
//! [`FileError`] converts into an `io::Error` of the same kind for callers that speak only
//! `io`; the message travels with it.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// What was being done, to which file, and why it failed.
#[derive(Debug)]
pub struct FileError {
    /// A verb phrase that reads after "cannot": `read`, `append to`, `create the directory`.
    pub action: &'static str,
    pub path: PathBuf,
    pub source: io::Error,
}

impl FileError {
    pub fn new(action: &'static str, path: &Path, source: io::Error) -> FileError {
        FileError {
            action,
            path: path.to_path_buf(),
            source,
        }
    }

    /// The system's kind of failure (`NotFound`, `PermissionDenied`, `StorageFull`…).
    pub fn kind(&self) -> io::ErrorKind {
        self.source.kind()
    }

    /// Whether the system's answer already names the path (a refusal of a symlink or a FIFO,
    /// or a `FileError` from further down): then it is not said twice.
    fn names_path(&self) -> bool {
        self.source
            .get_ref()
            .is_some_and(|inner| inner.is::<FileError>() || inner.is::<crate::fsutil::Refused>())
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.names_path() {
            return write!(f, "{}", self.source);
        }
        write!(
            f,
            "cannot {} {}: {}",
            self.action,
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl From<FileError> for io::Error {
    fn from(e: FileError) -> io::Error {
        io::Error::new(e.kind(), e)
    }
}

/// Attach the action and the path to an I/O result where both are known.
pub trait At<T> {
    fn at(self, action: &'static str, path: &Path) -> Result<T, FileError>;
}

impl<T> At<T> for io::Result<T> {
    fn at(self, action: &'static str, path: &Path) -> Result<T, FileError> {
        self.map_err(|e| FileError::new(action, path, e))
    }
}

/// A [`FileError`] already says where; a caller's own words for it are not added.
impl<T> At<T> for Result<T, FileError> {
    fn at(self, _action: &'static str, _path: &Path) -> Result<T, FileError> {
        self
    }
}

/// The system's own answer, for an error type that says the action and the path itself
/// (`LedgerError::io("create", dir)`): an `io::Error` as it is, a [`FileError`]'s cause.
pub trait Cause {
    fn cause(self) -> io::Error;
}

impl Cause for io::Error {
    fn cause(self) -> io::Error {
        self
    }
}

impl Cause for FileError {
    fn cause(self) -> io::Error {
        self.source
    }
}

/// The first error of type `E` in `e`'s chain of causes: an `io::Error` may carry a
/// [`FileError`] that carries the error a caller looks for (a refusal, the secrets service's).
pub fn find_in<'a, E: std::error::Error + 'static>(
    e: &'a (dyn std::error::Error + 'static),
) -> Option<&'a E> {
    let mut at: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = at {
        if let Some(found) = err.downcast_ref::<E>() {
            return Some(found);
        }
        // An io::Error's payload is its `get_ref`, not always its `source`.
        at = match err.downcast_ref::<io::Error>() {
            Some(io) => io.get_ref().map(|inner| inner as _),
            None => err.source(),
        };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fsutil;

    #[test]
    fn the_message_names_the_action_the_path_and_the_cause() {
        let e = FileError::new(
            "append to",
            Path::new("/p/.trail/trajectory/2026-11-30.jsonl"),
            io::Error::from(io::ErrorKind::StorageFull),
        );
        assert_eq!(
            e.to_string(),
            "cannot append to /p/.trail/trajectory/2026-11-30.jsonl: no storage space"
        );
        assert_eq!(io::Error::from(e).kind(), io::ErrorKind::StorageFull);
    }

    #[test]
    fn a_refusal_is_not_said_twice_and_is_still_found() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("NOTES.md");
        std::os::unix::fs::symlink("/etc/passwd", &link).unwrap();
        let refused = fsutil::read_in(dir.path(), &link, 1024).unwrap_err();
        let said = refused.to_string();
        let e = Err::<(), _>(refused).at("read", &link).unwrap_err();
        assert_eq!(e.to_string(), said);
        let as_io = io::Error::from(e);
        assert!(find_in::<fsutil::Refused>(&as_io).is_some());
        assert!(fsutil::refusal(&as_io).is_some());
    }
}
