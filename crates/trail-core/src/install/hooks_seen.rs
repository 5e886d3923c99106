//! How many of trail's hook commands each of Claude Code's settings files held when the session
//! started (`.trail/state/hooks-seen.json`): what a ConfigChange is compared with, so a change
//! that drops trail's hooks mid-session is noticed even when the file on disk already changed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn path(root: &Path) -> PathBuf {
    crate::layout::Layout::new(root).hooks_seen()
}

/// How many of Claude Code's events a settings file's text gives to trail, as `trail init`
/// installs it ([`events_enforced`](super::claude::events_enforced)): a hook that only holds
/// the text `trail hook` does not count.
pub fn count(text: &str) -> usize {
    super::claude::enforced_in(text, &super::claude::CLAUDE)
}

/// The settings files Claude Code reads for a project (user, project and local layers).
pub fn settings_files(root: &Path, home: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [home.join(".claude"), root.join(".claude")] {
        for name in ["settings.json", "settings.local.json"] {
            out.push(dir.join(name));
        }
    }
    out
}

/// Records the count for every settings file that holds trail's hooks.
pub fn record(root: &Path, home: &Path) -> Result<(), trail_base::file_error::FileError> {
    let mut seen = BTreeMap::new();
    for f in settings_files(root, home) {
        let n = crate::fsutil::read_text_capped(&f, 4 << 20).map_or(0, |t| count(&t));
        if n > 0 {
            seen.insert(f.to_string_lossy().into_owned(), n);
        }
    }
    if seen.is_empty() && !path(root).exists() {
        // trail's hooks are not in these files: nothing to guard, and no `.trail/` to make.
        return Ok(());
    }
    let json = serde_json::to_string(&seen).map_err(|e| {
        trail_base::file_error::FileError::new("write", &path(root), std::io::Error::other(e))
    })?;
    crate::fsutil::atomic_write_in(root, &path(root), json.as_bytes())
}

/// What [`record`] found for `settings` at the session's start.
pub fn recorded(root: &Path, settings: &Path) -> Option<usize> {
    let text = crate::fsutil::read_string_in(root, &path(root), 1 << 20).ok()?;
    let seen: BTreeMap<String, usize> = serde_json::from_str(&text).ok()?;
    seen.get(settings.to_string_lossy().as_ref()).copied()
}
