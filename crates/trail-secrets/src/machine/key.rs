//! The machine's signing key: what it publishes is signed with it, and the other machines check
//! the signature with the public half the person trusted (`trail sync --trust-machine`).
//!
//! The private half lives beside the person's key (`~/.secrets/trail.machine.key`, 0600), which
//! the agent's confinement hides and the gate refuses to name; it never leaves the machine.

use std::fs::{DirBuilder, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use sha2::{Digest, Sha256};

use trail_base::file_error::{At as _, FileError};
use trail_base::text::{hex, unhex};

use super::{MachineError, Result};

/// The file's name in the secrets directory.
pub const FILE_NAME: &str = "trail.machine.key";

pub fn path(secrets_dir: &Path) -> PathBuf {
    secrets_dir.join(FILE_NAME)
}

/// This machine's signing key.
pub struct MachineKey(SigningKey);

impl MachineKey {
    /// The key, if this machine has made one (reading it makes nothing).
    pub fn load(secrets_dir: &Path) -> Result<Option<MachineKey>> {
        let p = path(secrets_dir);
        match std::fs::read_to_string(&p) {
            Ok(text) => unhex::<32>(text.trim())
                .map(|seed| Some(MachineKey(SigningKey::from_bytes(&seed))))
                .ok_or_else(|| MachineError::Key(format!("{} does not hold a key", p.display()))),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(FileError::new("read", &p, e).into()),
        }
    }

    /// The key, made (from 32 bytes of `/dev/urandom`) the first time.
    pub fn load_or_create(secrets_dir: &Path) -> Result<MachineKey> {
        if let Some(k) = MachineKey::load(secrets_dir)? {
            return Ok(k);
        }
        let p = path(secrets_dir);
        DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(secrets_dir)
            .at("create", secrets_dir)?;
        let mut seed = [0u8; 32];
        std::fs::File::open("/dev/urandom")
            .and_then(|mut f| f.read_exact(&mut seed))
            .at("read", Path::new("/dev/urandom"))?;
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&p);
        match &mut f {
            Ok(f) => {
                f.write_all(format!("{}\n", hex(&seed)).as_bytes())
                    .and_then(|()| f.sync_all())
                    .at("write", &p)?;
                Ok(MachineKey(SigningKey::from_bytes(&seed)))
            }
            // Another sync made it first: use that one.
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                MachineKey::load_or_create(secrets_dir)
            }
            Err(_) => Err(FileError::new(
                "create",
                &p,
                f.err().unwrap_or_else(|| ErrorKind::Other.into()),
            )
            .into()),
        }
    }

    /// The public half, in hex.
    pub fn public(&self) -> String {
        hex(self.0.verifying_key().as_bytes())
    }

    pub fn sign(&self, msg: &[u8]) -> String {
        hex(&self.0.sign(msg).to_bytes())
    }
}

/// Whether `sig` (hex) is `public`'s (hex) signature of `msg`.
pub fn verify(public: &str, msg: &[u8], sig: &str) -> bool {
    let (Some(pk), Some(sig)) = (unhex::<32>(public), unhex::<64>(sig)) else {
        return false;
    };
    let Ok(vk) = VerifyingKey::from_bytes(&pk) else {
        return false;
    };
    vk.verify(msg, &Signature::from_bytes(&sig)).is_ok()
}

/// What a person compares across machines: `SHA256:` and the first 16 bytes of the public
/// key's hash, in hex groups of four.
pub fn fingerprint(public: &str) -> String {
    let h = Sha256::digest(public.as_bytes());
    let hexed = hex(&h[..16]);
    let groups: Vec<&str> = hexed
        .as_bytes()
        .chunks(4)
        .map(|c| std::str::from_utf8(c).unwrap_or(""))
        .collect();
    format!("SHA256:{}", groups.join(":"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_verifies_only_for_its_message_and_key() {
        let d = tempfile::tempdir().unwrap();
        let k = MachineKey::load_or_create(d.path()).unwrap();
        let again = MachineKey::load_or_create(d.path()).unwrap();
        assert_eq!(k.public(), again.public(), "made once, then kept");
        let other = MachineKey::load_or_create(&d.path().join("other")).unwrap();
        let sig = k.sign(b"tree abc");
        assert!(verify(&k.public(), b"tree abc", &sig));
        assert!(!verify(&k.public(), b"tree abd", &sig));
        assert!(!verify(&other.public(), b"tree abc", &sig));
        assert!(!verify(&k.public(), b"tree abc", "00"));
        assert!(!verify("zz", b"tree abc", &sig));
        let mode = std::fs::metadata(path(d.path())).unwrap().permissions();
        assert_eq!(
            std::os::unix::fs::PermissionsExt::mode(&mode) & 0o777,
            0o600
        );
    }

    #[test]
    fn a_fingerprint_is_stable_and_grouped() {
        let f = fingerprint(&"ab".repeat(32));
        assert!(f.starts_with("SHA256:"), "{f}");
        assert_eq!(f.matches(':').count(), 8, "{f}");
        assert_eq!(f, fingerprint(&"ab".repeat(32)));
    }
}
