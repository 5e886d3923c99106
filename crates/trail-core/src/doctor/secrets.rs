//! The secret store's permissions: `~/.secrets` 0700, every file in it (the store, the key)
//! 0600. Anything wider lets another account read the originals of redacted secrets, or the
//! key that signs grants and anchors.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::Finding;

pub const CHECK: &str = "secrets-permissions";

/// Findings for `dir` (a missing directory is fine: nothing is stored yet).
pub fn permissions(dir: &Path) -> Vec<Finding> {
    let Ok(meta) = std::fs::symlink_metadata(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        out.push(Finding::new(
            CHECK,
            format!(
                "{} is mode {mode:03o}: other accounts can reach it",
                dir.display()
            ),
            format!("chmod 700 {}", dir.display()),
        ));
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    files.sort();
    for f in files {
        let Ok(m) = std::fs::symlink_metadata(&f) else {
            continue;
        };
        let mode = m.permissions().mode() & 0o777;
        if m.is_file() && mode & 0o077 != 0 {
            out.push(Finding::new(
                CHECK,
                format!(
                    "{} is mode {mode:03o}: other accounts can read it",
                    f.display()
                ),
                format!("chmod 600 {}", f.display()),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chmod(p: &Path, mode: u32) {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn a_private_store_is_healthy_and_a_wide_one_is_not() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join(".secrets");
        assert!(permissions(&dir).is_empty(), "missing is fine");
        std::fs::create_dir(&dir).unwrap();
        let key = dir.join("trail.key");
        std::fs::write(&key, "k").unwrap();
        chmod(&dir, 0o700);
        chmod(&key, 0o600);
        assert!(permissions(&dir).is_empty());
        chmod(&dir, 0o755);
        chmod(&key, 0o644);
        let f = permissions(&dir);
        assert_eq!(f.len(), 2, "{f:?}");
        assert_eq!(f[0].fix, format!("chmod 700 {}", dir.display()));
        assert_eq!(f[1].fix, format!("chmod 600 {}", key.display()));
    }
}
