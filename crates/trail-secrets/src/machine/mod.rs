//! The machine's own signing key, and the other machines the person trusts.
//!
//! A machine signs what it publishes (`trail sync`'s segments, `trail blame`'s notes) with its
//! ed25519 key; another machine believes the signature only with the public half the person
//! trusted there (`trail sync --trust-machine`). Both files sit with the person's key, which the
//! agent's confinement hides, and neither syncs: a machine's private half never leaves it.

pub mod key;
pub mod trust;

use trail_base::file_error::FileError;

pub use key::{MachineKey, fingerprint, verify};
pub use trust::{TrustList, Trusted};

pub type Result<T> = std::result::Result<T, MachineError>;

/// Why a machine key or the trust list cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MachineError {
    /// A file that cannot be read or written: which, and what was being done.
    #[error(transparent)]
    File(#[from] FileError),
    /// A key file that holds no key, or the person's key that seals the trust list.
    #[error("the key cannot be used: {0}")]
    Key(String),
}
