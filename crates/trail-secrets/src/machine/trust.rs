//! Which machines' segments this machine takes: a list the person made, one machine at a time
//! (`trail sync --trust-machine ID`, at their own terminal), each entry sealed with the
//! person's key so that an entry written by anything else is ignored.
//!
//! `$TRAIL_HOME/sync/trusted.json`: `[{"id", "key", "mac"}]`, where `key` is the machine's
//! public signing key (hex) and `mac` the person's HMAC of `trail-sync-trust v1\n<id>\n<key>\n`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use trail_base::file_error::{At as _, FileError};

use super::{MachineError, Result};
use crate::key::Key;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Trusted {
    pub id: String,
    pub key: String,
    pub mac: String,
}

fn message(id: &str, key: &str) -> String {
    format!("trail-sync-trust v1\n{id}\n{key}\n")
}

/// The trust list of a personal root.
pub struct TrustList {
    path: PathBuf,
    secrets_dir: PathBuf,
}

/// The sync directory of a personal root (`$TRAIL_HOME/sync`), where the trust list sits.
pub const SYNC_DIR: &str = "sync";

impl TrustList {
    /// The trust list of the personal root `root` (`$TRAIL_HOME`).
    pub fn of_root(root: &Path, secrets_dir: &Path) -> TrustList {
        TrustList::new(&root.join(SYNC_DIR), secrets_dir)
    }

    pub fn new(sync_dir: &Path, secrets_dir: &Path) -> TrustList {
        TrustList {
            path: sync_dir.join("trusted.json"),
            secrets_dir: secrets_dir.to_path_buf(),
        }
    }

    fn read(&self) -> Result<Vec<Trusted>> {
        match std::fs::read(&self.path) {
            Ok(b) => Ok(serde_json::from_slice(&b).unwrap_or_default()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(e) => Err(FileError::new("read", &self.path, e).into()),
        }
    }

    /// The machines the person trusted, each with the key they trusted; entries whose seal does
    /// not verify are left out.
    pub fn machines(&self) -> Result<Vec<Trusted>> {
        let entries = self.read()?;
        if entries.is_empty() {
            return Ok(entries);
        }
        let key = Key::load(&self.secrets_dir)
            .map_err(|e| MachineError::Key(e.to_string()))?
            .ok_or_else(|| MachineError::Key("no key was ever made on this machine".into()))?;
        Ok(entries
            .into_iter()
            .filter(|t| key.verify(message(&t.id, &t.key).as_bytes(), &t.mac))
            .collect())
    }

    /// The key trusted for machine `id`.
    pub fn key_of(&self, id: &str) -> Result<Option<String>> {
        Ok(self
            .machines()?
            .into_iter()
            .find(|t| t.id == id)
            .map(|t| t.key))
    }

    /// Trust machine `id` with public key `key` (replacing what was trusted for it).
    pub fn trust(&self, id: &str, public: &str) -> Result<()> {
        let key =
            Key::load_or_create(&self.secrets_dir).map_err(|e| MachineError::Key(e.to_string()))?;
        let mut entries: Vec<Trusted> = self.machines()?;
        entries.retain(|t| t.id != id);
        entries.push(Trusted {
            id: id.to_string(),
            key: public.to_string(),
            mac: key.mac(message(id, public).as_bytes()),
        });
        entries.sort_by(|a, b| a.id.cmp(&b.id));
        let text = serde_json::to_vec_pretty(&entries).unwrap_or_default();
        Ok(trail_base::fsutil::atomic_write(&self.path, &text).at("write", &self.path)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_not_sealed_with_the_persons_key_is_ignored() {
        let d = tempfile::tempdir().unwrap();
        let t = TrustList::new(d.path(), &d.path().join("secrets"));
        t.trust("0123456789abcdef", &"aa".repeat(32)).unwrap();
        assert_eq!(t.key_of("0123456789abcdef").unwrap(), Some("aa".repeat(32)));
        // Something else adds a machine, or swaps the key, without the person's key.
        let mut entries: Vec<Trusted> =
            serde_json::from_slice(&std::fs::read(d.path().join("trusted.json")).unwrap()).unwrap();
        entries[0].key = "bb".repeat(32);
        entries.push(Trusted {
            id: "fedcba9876543210".into(),
            key: "cc".repeat(32),
            mac: "00".repeat(32),
        });
        std::fs::write(
            d.path().join("trusted.json"),
            serde_json::to_vec(&entries).unwrap(),
        )
        .unwrap();
        assert!(t.machines().unwrap().is_empty());
    }
}
