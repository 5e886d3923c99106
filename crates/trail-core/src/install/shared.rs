//! The shared (team) mode: trail's hooks committed with the project, for every teammate.
//!
//! A committed hook must name no machine's path (issue 22: a clone ran `/home/you/.cargo/bin/
//! trail`, which exits 127 there). So the committed command is the same on every machine
//! ([`command`]): it runs the trail that `trail init` linked on *this* machine at
//! `$XDG_CONFIG_HOME/trail/hook` (else `~/.config/trail/hook`, [`link_path`]). It never looks
//! trail up on PATH, so a `trail` the agent puts earlier on PATH is not what runs: the link lives
//! in trail's configuration folder, which confined commands see read-only and the gate guards.
//!
//! A teammate without trail is told, once per session, at session start (the host's
//! user-visible `systemMessage`), and nothing is blocked: the hook has nothing to judge with.

use std::path::{Path, PathBuf};

use super::InstallError;

/// What a session of a teammate without trail shows the person. It sits inside single quotes
/// in the command, so it holds none (a test runs the command).
const NOT_SET_UP: &str = "trail: this project runs the trail hooks for the whole team, but trail is \
                          not set up on this machine, so this session is neither gated nor \
                          recorded by it. Install trail, then run `trail init` in this project \
                          once.";

/// The committed command up to the host's word: the link, run when it is there.
const HEAD: &str =
    "h=\"${XDG_CONFIG_HOME:-$HOME/.config}/trail/hook\"; if [ -x \"$h\" ]; then exec \"$h\" hook ";

/// The rest: without a link, what session start says.
fn tail() -> &'static str {
    static TAIL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "; fi; case \"$(cat)\" in *SessionStart*) printf '%s\\n' \
             '{{\"systemMessage\":\"{NOT_SET_UP}\"}}';; esac"
        )
    });
    &TAIL
}

/// The committed hook command for the host named `word` (a shell line, as the host runs it).
pub fn command(word: &str) -> String {
    format!("{HEAD}{word}{}", tail())
}

/// Whether `command` is the shared mode's command for the host `word`. Asked of every hook
/// entry a settings file holds, so it compares in place.
pub fn is_shared(command: &str, word: &str) -> bool {
    command
        .strip_prefix(HEAD)
        .and_then(|rest| rest.strip_prefix(word))
        .is_some_and(|rest| rest == tail())
}

/// Whether a settings file's text (Claude Code's shape) runs the shared command for `word` for
/// some event: the team's hooks are committed there.
pub fn committed_in(settings: &str, word: &str) -> bool {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(settings) else {
        return false;
    };
    let Some(events) = v.get("hooks").and_then(serde_json::Value::as_object) else {
        return false;
    };
    events
        .values()
        .filter_map(serde_json::Value::as_array)
        .flatten()
        .filter_map(|group| group.get("hooks").and_then(serde_json::Value::as_array))
        .flatten()
        .filter_map(|h| h.get("command").and_then(serde_json::Value::as_str))
        .any(|c| is_shared(c, word))
}

/// Where the shared command finds this machine's trail, in trail's config folder.
pub fn link_path(config_dir: &Path) -> PathBuf {
    config_dir.join("hook")
}

/// What the link on this machine runs, if it runs anything (an executable file at its end).
pub fn linked(config_dir: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = link_path(config_dir);
    let meta = std::fs::metadata(&path).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0)
        .then(|| std::fs::read_link(&path).unwrap_or(path))
}

/// Points the link at `binary` (replacing it atomically when it points elsewhere). Returns
/// whether it changed.
pub fn link(config_dir: &Path, binary: &Path) -> Result<bool, InstallError> {
    let path = link_path(config_dir);
    if std::fs::read_link(&path).is_ok_and(|t| t == binary) {
        return Ok(false);
    }
    let io = |action: &'static str, p: &Path| {
        let p = p.to_path_buf();
        move |source| InstallError::Io {
            action,
            path: p,
            source,
        }
    };
    crate::fsutil::ensure_dir(config_dir)
        .map_err(|e| e.source)
        .map_err(io("create", config_dir))?;
    // A new link beside it, renamed over it: a hook starting meanwhile runs the old or the new.
    let tmp = config_dir.join(format!(".hook.{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(binary, &tmp).map_err(io("create the link", &tmp))?;
    std::fs::rename(&tmp, &path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io("replace", &path)(e)
    })?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    /// Runs the shared command with `sh`, as the host does, with HOME and PATH given.
    fn run(home: &Path, path: &str, stdin: &str) -> std::process::Output {
        use std::io::Write;
        let mut child = Command::new("/bin/sh")
            .args(["-c", &command("claude-code")])
            .env_clear()
            .env("HOME", home)
            .env("PATH", path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    }

    fn script(path: &Path, body: &str) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn the_command_names_no_machines_path() {
        let c = command("claude-code");
        assert!(!c.contains("/home/") && !c.contains("/root") && !c.contains("/usr"));
        assert!(is_shared(&c, "claude-code"));
        assert!(!is_shared(&c, "codex"));
        let settings = serde_json::json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": c}]}]}});
        assert!(committed_in(&settings.to_string(), "claude-code"));
        assert!(!committed_in(r#"{"hooks":{}}"#, "claude-code"));
    }

    #[test]
    fn without_trail_the_session_goes_on_and_its_start_says_why() {
        let t = tempfile::tempdir().unwrap();
        let start = run(
            t.path(),
            "/usr/bin:/bin",
            r#"{"hook_event_name":"SessionStart"}"#,
        );
        assert!(start.status.success());
        let v: serde_json::Value = serde_json::from_slice(&start.stdout).unwrap();
        assert!(
            v["systemMessage"]
                .as_str()
                .unwrap()
                .contains("not set up on this machine"),
            "{v}"
        );
        let tool = run(
            t.path(),
            "/usr/bin:/bin",
            r#"{"hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}"#,
        );
        assert!(tool.status.success());
        assert!(tool.stdout.is_empty(), "only session start speaks");
    }

    #[test]
    fn the_linked_trail_runs_never_one_on_path() {
        let t = tempfile::tempdir().unwrap();
        let (home, bin) = (t.path().join("home"), t.path().join("bin"));
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let real = t.path().join("real-trail");
        script(&real, "cat > /dev/null; echo \"linked $*\"");
        // What an agent could put first on PATH.
        script(&bin.join("trail"), "echo shadow");
        let config = home.join(".config/trail");
        assert!(link(&config, &real).unwrap());
        assert!(
            !link(&config, &real).unwrap(),
            "a second link changes nothing"
        );
        assert_eq!(linked(&config).unwrap(), real);
        let out = run(&home, &format!("{}:/usr/bin:/bin", bin.display()), "{}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "linked hook claude-code"
        );
    }
}
