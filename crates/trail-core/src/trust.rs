//! Which project configurations the person trusted (`trail trust`), kept outside every project.
//!
//! A repository can ship a `.trail/config.toml`. The settings in it that run a command, send
//! data or keys to a host, or move where secrets, keys and journals live (see
//! [`crate::config::SettingKey::class`]) count only when the person trusted that file, as direnv
//! does with `.envrc` and Codex with a project's config. The record of that act lives in the
//! user's config directory (`~/.config/trail/trusted.json`), which the repository cannot ship
//! and the gate guards, and names the file by its absolute path and the sha256 of its bytes: any
//! change to the bytes voids the trust, so an agent (or a `git pull`) that edits a trusted file
//! gets its sensitive settings refused again until the person looks at it.
//!
//! Each record carries an HMAC under the person's key (see [`crate::secrets::key`]), like a
//! grant: a program that writes `trusted.json` without the key (an agent's script that gets past
//! the gate) adds nothing that counts.
//!
//! This module stores and looks up; it never asks anyone anything. `trail trust` (the binary)
//! shows the person what they are about to trust.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::file_error::{At as _, FileError};
use crate::secrets::key::Key;
use crate::text::sha256_hex;

/// The store's file name inside the user's trail config directory.
pub const FILE_NAME: &str = "trusted.json";

/// A trust store larger than this is not read (it holds one short line per trusted project).
const MAX_BYTES: u64 = 1 << 20;

/// One trusted project configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The configuration file's absolute path (its directory resolved, see [`key_path`]).
    pub path: PathBuf,
    /// sha256 of the file's bytes when it was trusted, as 64 hex digits.
    pub sha256: String,
    /// When (RFC 3339 UTC).
    pub trusted_at: String,
    /// HMAC of the path and hash under the person's key: proof a person's `trail trust` wrote it.
    #[serde(default)]
    pub mac: String,
}

impl Entry {
    fn message(path: &Path, sha256: &str) -> Vec<u8> {
        let mut m = b"trail-trust v1\n".to_vec();
        m.extend_from_slice(path.as_os_str().as_encoded_bytes());
        m.push(b'\n');
        m.extend_from_slice(sha256.as_bytes());
        m
    }

    /// Whether the record was made with `key`.
    pub fn is_genuine(&self, key: &Key) -> bool {
        key.verify(&Entry::message(&self.path, &self.sha256), &self.mac)
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    version: u32,
    #[serde(default)]
    trusted: Vec<Entry>,
}

/// Whether a project configuration is trusted as it stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Trusted with exactly these bytes.
    Trusted,
    /// Never trusted (or the trust was revoked).
    Untrusted,
    /// Trusted once, but its bytes changed since.
    Changed,
}

/// Trust records under a user's trail config directory (`~/.config/trail`).
#[derive(Clone, Debug)]
pub struct TrustStore {
    path: PathBuf,
}

/// The name a configuration file is trusted under: its directory resolved (so `cd` through a
/// symlinked checkout or `$CLAUDE_PROJECT_DIR` spelled differently names the same file), the
/// file name kept as is (so a config that is itself a symlink is trusted as this project's file,
/// not as whatever it points at).
pub fn key_path(config_file: &Path) -> PathBuf {
    let name = config_file.file_name().unwrap_or_default();
    match config_file.parent().map(std::fs::canonicalize) {
        Some(Ok(dir)) => dir.join(name),
        _ => std::path::absolute(config_file).unwrap_or_else(|_| config_file.to_path_buf()),
    }
}

impl TrustStore {
    /// The store of the user whose trail config directory is `user_config_dir`
    /// (`~/.config/trail`).
    pub fn new(user_config_dir: &Path) -> TrustStore {
        TrustStore {
            path: user_config_dir.join(FILE_NAME),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every trusted configuration.
    pub fn list(&self) -> Result<Vec<Entry>, FileError> {
        Ok(self.read()?.trusted)
    }

    /// Whether the configuration at `config_file` with these `bytes` is trusted. Records not
    /// made with `key` (or with no key at all) do not count.
    pub fn status(
        &self,
        config_file: &Path,
        bytes: &[u8],
        key: Option<&Key>,
    ) -> Result<Status, FileError> {
        let Some(key) = key else {
            return Ok(Status::Untrusted);
        };
        let name = key_path(config_file);
        let file = self.read()?;
        let Some(e) = file
            .trusted
            .iter()
            .find(|e| e.path == name && e.is_genuine(key))
        else {
            return Ok(Status::Untrusted);
        };
        Ok(if e.sha256 == sha256_hex(bytes) {
            Status::Trusted
        } else {
            Status::Changed
        })
    }

    /// Record that the person trusts `config_file` with exactly these `bytes` (replacing an
    /// earlier record of the same file). Written atomically: a crash leaves the old store or the
    /// new one.
    pub fn trust(
        &self,
        config_file: &Path,
        bytes: &[u8],
        now: &str,
        key: &Key,
    ) -> Result<Entry, FileError> {
        let path = key_path(config_file);
        let sha256 = sha256_hex(bytes);
        let mac = key.mac(&Entry::message(&path, &sha256));
        let entry = Entry {
            path,
            sha256,
            trusted_at: now.to_string(),
            mac,
        };
        let mut file = self.read()?;
        file.trusted.retain(|e| e.path != entry.path);
        file.trusted.push(entry.clone());
        self.write(&mut file)?;
        Ok(entry)
    }

    /// Forget the trust in `config_file`. Returns whether there was one.
    pub fn revoke(&self, config_file: &Path) -> Result<bool, FileError> {
        let key = key_path(config_file);
        let mut file = self.read()?;
        let before = file.trusted.len();
        file.trusted.retain(|e| e.path != key);
        if file.trusted.len() == before {
            return Ok(false);
        }
        self.write(&mut file)?;
        Ok(true)
    }

    fn read(&self) -> Result<File, FileError> {
        let f = match open_regular(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(File::default()),
            Err(e) => return Err(FileError::new("read", &self.path, e)),
        };
        let mut text = String::new();
        f.take(MAX_BYTES)
            .read_to_string(&mut text)
            .at("read", &self.path)?;
        serde_json::from_str(&text)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
            .at("read", &self.path)
    }

    fn write(&self, file: &mut File) -> Result<(), FileError> {
        file.version = 1;
        file.trusted.sort_by(|a, b| a.path.cmp(&b.path));
        let mut text = serde_json::to_string_pretty(file)
            .map_err(io::Error::other)
            .at("write", &self.path)?;
        text.push('\n');
        let dir = crate::fsutil::parent_dir(&self.path);
        crate::fsutil::ensure_dir(dir).at("create the directory", dir)?;
        crate::fsutil::atomic_write(&self.path, text.as_bytes()).at("write", &self.path)
    }
}

/// Open without following a symlink and without blocking on a FIFO: whoever planted either
/// must not decide what trail reads as the person's trust (or hang it).
fn open_regular(path: &Path) -> io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags.bits().cast_signed())
        .open(path)?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not a regular file", path.display()),
        ));
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_is_keyed_by_path_and_bytes_and_can_be_revoked() {
        let dir = tempfile::tempdir().unwrap();
        let store = TrustStore::new(&dir.path().join("cfg"));
        let key = Key::load_or_create(&dir.path().join("secrets")).unwrap();
        let k = Some(&key);
        let proj = dir.path().join("proj/.trail");
        std::fs::create_dir_all(&proj).unwrap();
        let file = proj.join("config.toml");
        std::fs::write(&file, "x").unwrap();
        assert_eq!(store.status(&file, b"x", k).unwrap(), Status::Untrusted);
        store
            .trust(&file, b"x", "2026-01-01T00:00:00Z", &key)
            .unwrap();
        assert_eq!(store.status(&file, b"x", k).unwrap(), Status::Trusted);
        assert_eq!(store.status(&file, b"x ", k).unwrap(), Status::Changed);
        // Without the key, or with another one, the record proves nothing.
        assert_eq!(store.status(&file, b"x", None).unwrap(), Status::Untrusted);
        let other = Key::load_or_create(&dir.path().join("other")).unwrap();
        assert_eq!(
            store.status(&file, b"x", Some(&other)).unwrap(),
            Status::Untrusted
        );
        // Trusting again replaces the record rather than adding a second one.
        store
            .trust(&file, b"y", "2026-01-02T00:00:00Z", &key)
            .unwrap();
        assert_eq!(store.list().unwrap().len(), 1);
        assert_eq!(store.status(&file, b"y", k).unwrap(), Status::Trusted);
        assert!(store.revoke(&file).unwrap());
        assert!(!store.revoke(&file).unwrap());
        assert_eq!(store.status(&file, b"y", k).unwrap(), Status::Untrusted);
    }

    #[test]
    fn a_symlinked_store_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("cfg");
        std::fs::create_dir_all(&cfg).unwrap();
        std::fs::write(
            dir.path().join("planted.json"),
            r#"{"version":1,"trusted":[]}"#,
        )
        .unwrap();
        std::os::unix::fs::symlink(dir.path().join("planted.json"), cfg.join(FILE_NAME)).unwrap();
        let store = TrustStore::new(&cfg);
        let key = Key::load_or_create(&dir.path().join("secrets")).unwrap();
        assert!(
            store
                .status(&dir.path().join("c.toml"), b"", Some(&key))
                .is_err()
        );
    }
}
