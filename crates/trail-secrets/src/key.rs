//! The person's key: proof that something trail trusts was written by trail on a person's
//! behalf, not forged by the agent.
//!
//! The agent runs as the same user as the person, so file permissions cannot keep it out of
//! trail's files. What it cannot do is compute an HMAC without the key. Grants (an approval, a
//! dismissal, their use), the pending junction a person is shown, and the ledger's anchored head
//! carry a MAC under this key; a record without a valid one is ignored, whoever wrote the bytes.
//!
//! The key lives in the secret store's directory (`~/.secrets/trail.key`, 0600 in a 0700
//! directory), outside every project. The gate blocks every agent command that names it, and
//! reading the secret store is a junction. Residual risk (SECURITY.md): a program the agent
//! writes to disk and then runs can read any file the user can; the gate cannot see inside it.

use std::fs::{DirBuilder, OpenOptions};
use std::io::{self, ErrorKind, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use trail_base::file_error::FileError;

use crate::text::hex;

/// The key file's name inside the secrets directory.
pub const FILE_NAME: &str = "trail.key";

const LEN: usize = 32;
const BLOCK: usize = 64;

/// A per-user secret key (32 random bytes).
#[derive(Clone)]
pub struct Key([u8; LEN]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(…)")
    }
}

/// `<secrets_dir>/trail.key`.
pub fn path(secrets_dir: &Path) -> PathBuf {
    secrets_dir.join(FILE_NAME)
}

impl Key {
    /// The key, or `None` when none was ever made (then no grant can be valid yet). An error
    /// names the key's file.
    pub fn load(secrets_dir: &Path) -> Result<Option<Key>, FileError> {
        let p = path(secrets_dir);
        Key::read(&p).map_err(|e| FileError::new("read the key", &p, e))
    }

    fn read(p: &Path) -> io::Result<Option<Key>> {
        let mut f = match OpenOptions::new()
            .read(true)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits().cast_signed())
            .open(p)
        {
            Ok(f) => f,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        if !f.metadata()?.is_file() {
            return Err(io::Error::new(
                ErrorKind::InvalidData,
                format!("{} is not a regular file", p.display()),
            ));
        }
        let mut text = String::new();
        Read::by_ref(&mut f).take(256).read_to_string(&mut text)?;
        parse(text.trim()).map(Some).ok_or_else(|| {
            io::Error::new(
                ErrorKind::InvalidData,
                format!("{} is not a trail key (64 hex digits)", p.display()),
            )
        })
    }

    /// The key, made now (from the OS's random source) when there is none. Two processes racing
    /// to make it agree: the file is created exclusively and the loser reads the winner's. An
    /// error names the key's file.
    pub fn load_or_create(secrets_dir: &Path) -> Result<Key, FileError> {
        if let Some(k) = Key::load(secrets_dir)? {
            return Ok(k);
        }
        Key::create(secrets_dir)
            .map_err(|e| FileError::new("create the key", &path(secrets_dir), e))
    }

    fn create(secrets_dir: &Path) -> io::Result<Key> {
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(secrets_dir)?;
        let mut bytes = [0u8; LEN];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
        let key = Key(bytes);
        let p = path(secrets_dir);
        // Written under a temporary name and linked into place, so a reader never sees a half key.
        let mut tmp = tempfile::Builder::new()
            .prefix(".trail.key.tmp-")
            .tempfile_in(secrets_dir)?;
        tmp.write_all(hex(&key.0).as_bytes())?;
        tmp.write_all(b"\n")?;
        tmp.as_file().sync_all()?;
        match tmp.persist_noclobber(&p) {
            Ok(_) => {
                crate::fsutil::sync_dir(secrets_dir)?;
                Ok(key)
            }
            Err(e) if e.error.kind() == ErrorKind::AlreadyExists => Key::read(&p)?
                .ok_or_else(|| io::Error::other("the key vanished while it was being made")),
            Err(e) => Err(e.error),
        }
    }

    /// HMAC-SHA256 (RFC 2104) of `msg`, as 64 hex digits.
    pub fn mac(&self, msg: &[u8]) -> String {
        let mut k = [0u8; BLOCK];
        k[..LEN].copy_from_slice(&self.0);
        let pad = |b: u8| k.map(|x| x ^ b);
        let inner = Sha256::new()
            .chain_update(pad(0x36))
            .chain_update(msg)
            .finalize();
        let outer = Sha256::new()
            .chain_update(pad(0x5c))
            .chain_update(inner)
            .finalize();
        hex(&outer)
    }

    /// Whether `mac` is this key's MAC of `msg` (compared in constant time).
    pub fn verify(&self, msg: &[u8], mac: &str) -> bool {
        let want = self.mac(msg);
        want.len() == mac.len()
            && want
                .bytes()
                .zip(mac.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

fn parse(text: &str) -> Option<Key> {
    if text.len() != LEN * 2 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; LEN];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&text[i * 2..i * 2 + 2], 16).ok()?;
    }
    Some(Key(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key that cannot be read or made says which file and what was being done (issue 23:
    /// errors that say where), not only the system's "Is a directory".
    #[test]
    fn a_key_that_cannot_be_read_names_its_file() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir(path(d.path())).unwrap();
        let e = Key::load(d.path()).unwrap_err();
        assert_eq!(e.path, path(d.path()));
        assert!(
            e.to_string()
                .starts_with(&format!("cannot read the key {}", path(d.path()).display())),
            "{e}"
        );
        let blocked = d.path().join("file");
        std::fs::write(&blocked, "").unwrap();
        let e = Key::load_or_create(&blocked).unwrap_err();
        assert!(
            e.to_string()
                .contains(&path(&blocked).display().to_string()),
            "{e}"
        );
    }

    #[test]
    fn hmac_matches_rfc_4231_test_case_2() {
        // RFC 4231 §4.3 uses a 4-byte key; ours are 32 bytes, so check the construction with a
        // key padded the same way HMAC pads it: "Jefe" followed by zeros is the same HMAC key.
        let mut k = [0u8; LEN];
        k[..4].copy_from_slice(b"Jefe");
        let key = Key(k);
        assert_eq!(
            key.mac(b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn a_key_is_made_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let secrets = dir.path().join(".secrets");
        assert!(Key::load(&secrets).unwrap().is_none());
        let a = Key::load_or_create(&secrets).unwrap();
        let b = Key::load_or_create(&secrets).unwrap();
        assert_eq!(a.mac(b"x"), b.mac(b"x"));
        assert!(a.verify(b"x", &a.mac(b"x")));
        assert!(!a.verify(b"y", &a.mac(b"x")));
        assert!(!a.verify(b"x", ""));
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path(&secrets))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "the key is private: {mode:o}");
    }

    #[test]
    fn a_symlinked_or_malformed_key_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let secrets = dir.path().join(".secrets");
        std::fs::create_dir_all(&secrets).unwrap();
        std::fs::write(dir.path().join("mine"), "ab".repeat(32)).unwrap();
        std::os::unix::fs::symlink(dir.path().join("mine"), path(&secrets)).unwrap();
        assert!(Key::load(&secrets).is_err());
        std::fs::remove_file(path(&secrets)).unwrap();
        std::fs::write(path(&secrets), "not a key").unwrap();
        assert!(Key::load(&secrets).is_err());
    }
}
