//! The optional `Trail-Session:` trailer: the session that made a commit, in the commit's own
//! message, for people and tools that read `git log` and never look at notes.
//!
//! git's commit hooks are not told which session is committing, so the session travels in the
//! environment. At SessionStart Claude Code hands its hooks a file (`$CLAUDE_ENV_FILE`) whose
//! `export` lines it runs ahead of every Bash command; trail writes `TRAIL_SESSION` there. The
//! person turns the trailer on with `trail init --trailer`, which installs a
//! `prepare-commit-msg` hook that adds the trailer when `TRAIL_SESSION` is set: a person's own
//! terminal has no such variable, so their commits get none.
//!
//! A trailer is a claim in a text the agent can write: blame shows it beside the signed note
//! and says whether the two agree; only the note is evidence.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

use crate::file_error::{At as _, FileError};

/// The trailer's key.
pub const KEY: &str = "Trail-Session";
/// The variable that carries the session into the agent's shell.
pub const ENV: &str = "TRAIL_SESSION";
/// The first line after the shebang of the hook trail installs: how trail knows the file is its
/// own (and never touches one that is not).
const MARK: &str = "# trail: the Trail-Session trailer (trail init --trailer)";

/// The hook: adds the trailer when the commit comes from an agent's shell, never twice.
fn script() -> String {
    format!(
        "#!/bin/sh\n{MARK}; off: trail init --no-trailer\n\
         [ -n \"${ENV}\" ] || exit 0\n\
         exec git interpret-trailers --in-place --if-exists doNothing \
         --trailer \"{KEY}: ${ENV}\" \"$1\"\n"
    )
}

/// Whether `session` can stand in a shell line and a trailer as it is.
fn plain(session: &str) -> bool {
    (1..=128).contains(&session.len())
        && session
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Append `export TRAIL_SESSION='<session>'` to the host's session environment file, unless
/// it is there. A session id with any other character than letters, digits, `-`, `_` and `.`
/// is not written (it would have to be quoted for a shell and a trailer alike).
pub fn export(env_file: &Path, session: &str) -> Result<bool, FileError> {
    if !plain(session) {
        return Ok(false);
    }
    let line = format!("export {ENV}='{session}'");
    match std::fs::read_to_string(env_file) {
        Ok(text) if text.lines().any(|l| l == line) => return Ok(false),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(FileError::new("read", env_file, e)),
    }
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits().cast_signed())
        .open(env_file)
        .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()))
        .at("append to", env_file)?;
    Ok(true)
}

/// The value of the last `Trail-Session:` trailer in a commit message (its last paragraph).
pub fn parse(message: &str) -> Option<String> {
    let body = message.trim_end();
    let last = body.rsplit("\n\n").next()?;
    // A one-paragraph message is a subject, not trailers.
    if last.len() == body.len() {
        return None;
    }
    last.lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(KEY)
                .then(|| v.trim().to_string())
        })
        .rfind(|v| !v.is_empty())
}

/// What `trail init --trailer` or `--no-trailer` did (`init --json` prints it as `state`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Hook {
    /// trail's hook is in place (written now when `changed`).
    On { path: PathBuf, changed: bool },
    /// trail's hook is gone (removed now when `changed`).
    Off { path: PathBuf, changed: bool },
    /// Another `prepare-commit-msg` hook is there: trail leaves it alone; the person can add
    /// `add_line` to it.
    Taken { path: PathBuf, add_line: String },
}

/// Where git looks for the repository's hooks: `core.hooksPath` (this repository's, then the
/// person's), else `hooks/` in the repository. trail's own git runs with hooks switched off on
/// its command line, so the setting is read from each file, never from the merged view.
fn hooks_dir(root: &Path) -> Result<PathBuf, FileError> {
    let git = |args: &[&str]| {
        crate::git::command(root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .filter(|s| !s.is_empty())
    };
    let top = git(&["rev-parse", "--show-toplevel"]).map(PathBuf::from);
    for scope in ["--local", "--global"] {
        if let Some(p) = git(&["config", scope, "--get", "core.hooksPath"]) {
            let p = match p.strip_prefix("~/") {
                Some(rest) => std::env::var_os("HOME")
                    .map_or_else(|| p.clone().into(), |h| PathBuf::from(h).join(rest)),
                None => PathBuf::from(&p),
            };
            // A relative path is the work tree's, where git runs hooks.
            return Ok(top.as_deref().unwrap_or(root).join(p));
        }
    }
    let common =
        git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]).ok_or_else(|| {
            FileError::new(
                "find the git hooks of",
                root,
                std::io::Error::other("not a git repository"),
            )
        })?;
    Ok(PathBuf::from(common).join("hooks"))
}

/// Install (`on`) or remove trail's `prepare-commit-msg` hook in the repository at `root`.
/// Another program's hook is never overwritten nor removed.
pub fn set(root: &Path, on: bool) -> Result<Hook, FileError> {
    let dir = hooks_dir(root)?;
    let path = dir.join("prepare-commit-msg");
    let want = script();
    let current = match std::fs::read_to_string(&path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(FileError::new("read", &path, e)),
    };
    let ours = current.as_deref().is_some_and(|t| t.contains(MARK));
    if current.is_some() && !ours {
        return Ok(Hook::Taken {
            path,
            add_line: format!(
                "[ -n \"${ENV}\" ] && git interpret-trailers --in-place --if-exists doNothing \
                 --trailer \"{KEY}: ${ENV}\" \"$1\""
            ),
        });
    }
    if !on {
        if ours {
            std::fs::remove_file(&path).at("remove", &path)?;
        }
        return Ok(Hook::Off {
            path,
            changed: ours,
        });
    }
    if current.as_deref() == Some(want.as_str()) {
        return Ok(Hook::On {
            path,
            changed: false,
        });
    }
    crate::fsutil::ensure_dir(&dir).at("create the directory", &dir)?;
    crate::fsutil::atomic_write(&path, want.as_bytes()).at("write", &path)?;
    std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .at("make executable", &path)?;
    Ok(Hook::On {
        path,
        changed: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailer_is_read_from_the_last_paragraph_only() {
        assert_eq!(
            parse("Fix totals\n\nBody text.\n\nTrail-Session: abc-123\n"),
            Some("abc-123".into())
        );
        assert_eq!(
            parse("Fix\n\nSigned-off-by: P <p@x>\ntrail-session:  s.2 \n"),
            Some("s.2".into())
        );
        // In the body, not the trailer block; or the subject itself.
        assert_eq!(parse("Fix\n\nTrail-Session: a\n\nMore text.\n"), None);
        assert_eq!(parse("Trail-Session: a"), None);
        assert_eq!(parse("Fix\n\nTrail-Session:\n"), None);
    }

    #[test]
    fn the_export_line_is_written_once_and_only_for_a_plain_id() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("sessionstart-hook-0.sh");
        assert!(export(&f, "0b6c1d2e-aaaa-4bbb-8ccc-123456789abc").unwrap());
        assert!(!export(&f, "0b6c1d2e-aaaa-4bbb-8ccc-123456789abc").unwrap());
        for hostile in ["a'; rm -rf ~; '", "a b", "", "$(id)", "a\nb"] {
            assert!(!export(&f, hostile).unwrap(), "{hostile:?}");
        }
        assert_eq!(
            std::fs::read_to_string(&f).unwrap(),
            "export TRAIL_SESSION='0b6c1d2e-aaaa-4bbb-8ccc-123456789abc'\n"
        );
        // A link planted where the file should be is not followed.
        let target = d.path().join("elsewhere");
        let link = d.path().join("link.sh");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(export(&link, "s1").is_err());
        assert!(!target.exists());
    }
}
