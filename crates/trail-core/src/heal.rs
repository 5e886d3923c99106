//! Healing views (DESIGN, principle 1): `active_context.yaml` and `.trail/MEMORY.md` are views
//! a lost copy of which costs time, never data. When one is missing at session start, it is
//! brought back — from git's last commit, else (MEMORY.md) from the copy the last dream kept.
//! A file that exists is never touched here, readable or not: an unreadable state file is the
//! person's to fix, and trail says so.

use std::path::Path;
use std::process::{Command, Stdio};

/// What was brought back, in words for the agent and the person.
pub fn missing_views(project_root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let state = project_root.join(crate::state::FILE_NAME);
    let layout = crate::layout::Layout::new(project_root);
    // Only a view that was there is missed (trail wrote it: its hash, or the dream's files, are
    // kept); a project that never had one spawns no git here.
    if !state.exists()
        && layout.state_hash().exists()
        && let Some(bytes) = from_git(project_root, crate::state::FILE_NAME)
        // Only a file trail can read comes back: a broken one would block junctions.
        && crate::state::parse(&state, &bytes).is_ok()
        && crate::fsutil::atomic_write_in(project_root, &state, &bytes).is_ok()
    {
        out.push(format!(
            "{} was missing: restored from git's last commit",
            crate::state::FILE_NAME
        ));
    }
    let memory = layout.core_memory();
    let backup = layout.memory_backup();
    if !memory.exists() && (backup.exists() || layout.dream_hash().exists()) {
        let (bytes, whence) = match from_git(project_root, ".trail/MEMORY.md") {
            Some(b) => (Some(b), "git's last commit"),
            None => (
                crate::fsutil::read_in(project_root, &backup, crate::fsutil::MAX_PROJECT_FILE).ok(),
                "the copy kept before the last dream",
            ),
        };
        if let Some(b) = bytes
            && crate::fsutil::atomic_write_in(project_root, &memory, &b).is_ok()
        {
            out.push(format!(
                ".trail/MEMORY.md was missing: restored from {whence}"
            ));
        }
    }
    out
}

/// The file at `rel` in the project's last commit, when the project is a git repository that
/// has one.
fn from_git(project_root: &Path, rel: &str) -> Option<Vec<u8>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(project_root)
        .args(["show", &format!("HEAD:{rel}")])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir)
            .output()
            .unwrap()
            .status
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn missing_views_come_back_from_git_then_from_the_dream_backup() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q"]);
        std::fs::write(
            root.join("active_context.yaml"),
            "schema_version: 4\nmode: plan\n",
        )
        .unwrap();
        git(root, &["add", "active_context.yaml"]);
        std::fs::create_dir_all(root.join(".trail/state")).unwrap();
        // trail wrote it once: its hash is kept.
        std::fs::write(root.join(".trail/state/active_context.sha256"), "x").unwrap();
        git(root, &["commit", "-qm", "state"]);
        assert!(missing_views(root).is_empty(), "nothing is missing");
        std::fs::remove_file(root.join("active_context.yaml")).unwrap();
        std::fs::create_dir_all(root.join(".trail/state")).unwrap();
        std::fs::write(root.join(".trail/state/MEMORY.md.bak"), "# Core Memory\n").unwrap();
        let healed = missing_views(root);
        assert_eq!(healed.len(), 2, "{healed:?}");
        assert_eq!(
            std::fs::read_to_string(root.join("active_context.yaml")).unwrap(),
            "schema_version: 4\nmode: plan\n"
        );
        assert!(healed[1].contains("before the last dream"));
        // A file that is there, even unreadable, is left alone.
        std::fs::write(root.join("active_context.yaml"), "mode: [").unwrap();
        assert!(missing_views(root).is_empty());
        assert_eq!(
            std::fs::read_to_string(root.join("active_context.yaml")).unwrap(),
            "mode: ["
        );
    }

    #[test]
    fn outside_git_nothing_is_invented() {
        let dir = tempfile::tempdir().unwrap();
        assert!(missing_views(dir.path()).is_empty());
        assert!(!dir.path().join("active_context.yaml").exists());
    }
}
