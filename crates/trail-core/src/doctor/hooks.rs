//! The hosts' side: trail's hooks installed, their program reachable, hooks not switched off
//! by a setting, Codex trusting them, and Claude Code keeping transcripts long enough.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Finding, Ground};
use crate::install::claude::{self, is_ours_for};
use crate::install::{codex, hooks_seen, shared};

pub const CHECK_INSTALLED: &str = "hooks-installed";
pub const CHECK_REACHABLE: &str = "hook-binary";
pub const CHECK_SWITCHED_OFF: &str = "hooks-disabled";
pub const CHECK_WEAKENED: &str = "hooks-weakened";
pub const CHECK_CODEX_TRUST: &str = "codex-trust";
pub const CHECK_CLEANUP: &str = "claude-cleanup";

/// Claude Code deletes transcripts older than this when `cleanupPeriodDays` is unset.
pub const CLEANUP_DEFAULT_DAYS: u64 = 30;
/// Below this, `cleanup-period` suggests keeping transcripts longer.
pub const CLEANUP_SUGGESTED_DAYS: u64 = 365;

/// A settings file read as JSON (missing, unreadable or malformed: `None`).
fn read_json(path: &Path) -> Option<Value> {
    let text = crate::fsutil::read_text_capped(path, 4 << 20).ok()?;
    serde_json::from_str(&text).ok()
}

/// trail's hook commands anywhere in a settings file, for the host named `word`. An entry in
/// exec form (`command` the program, `args` its arguments, as the plugin writes them) is given
/// back as the shell string it stands for.
fn trail_commands(v: &Value, word: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(c)) = m.get("command") {
                match m.get("args").and_then(Value::as_array) {
                    Some(args) => {
                        let args: Vec<&str> = args.iter().filter_map(Value::as_str).collect();
                        let program = if c.contains(char::is_whitespace) {
                            format!("\"{c}\"")
                        } else {
                            c.clone()
                        };
                        let line = format!("{program} {}", args.join(" "));
                        if args.len() == 2 && is_ours_for(&line, word) {
                            out.push(line);
                        }
                    }
                    None if is_ours_for(c, word) => out.push(c.clone()),
                    None => {}
                }
            }
            m.values().for_each(|v| trail_commands(v, word, out));
        }
        Value::Array(a) => a.iter().for_each(|v| trail_commands(v, word, out)),
        _ => {}
    }
}

/// Every file a host reads hooks from, with the host's word: Claude Code's four settings
/// layers, then Codex's user and project `hooks.json`.
fn hook_files(g: &Ground) -> Vec<(PathBuf, &'static str)> {
    let mut out: Vec<_> = hooks_seen::settings_files(&g.project_root, &g.home)
        .into_iter()
        .map(|p| (p, "claude-code"))
        .collect();
    out.push((g.codex_home.join("hooks.json"), "codex"));
    out.push((codex::hooks_path(&g.project_root, &g.home, false), "codex"));
    out.extend(
        claude_plugin_hooks(g)
            .into_iter()
            .map(|p| (p, "claude-code")),
    );
    out.extend(codex_plugin_hooks(g).into_iter().map(|p| (p, "codex")));
    out
}

/// The hooks files of trail plugins Claude Code has installed and enabled: a plugin id
/// `trail@<marketplace>` set to `true` under `enabledPlugins` in a settings layer, whose
/// install path `~/.claude/plugins/installed_plugins.json` names.
fn claude_plugin_hooks(g: &Ground) -> Vec<PathBuf> {
    let mut enabled = Vec::new();
    for f in hooks_seen::settings_files(&g.project_root, &g.home) {
        let Some(v) = read_json(&f) else { continue };
        if let Some(m) = v.get("enabledPlugins").and_then(Value::as_object) {
            for (id, on) in m {
                if on == &Value::Bool(true) && is_trail_plugin(id) && !enabled.contains(id) {
                    enabled.push(id.clone());
                }
            }
        }
    }
    let Some(installed) = read_json(&g.home.join(".claude/plugins/installed_plugins.json")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for id in enabled {
        let installs = installed["plugins"][&id]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for i in installs {
            if let Some(p) = i.get("installPath").and_then(Value::as_str) {
                out.push(Path::new(p).join("hooks/hooks.json"));
            }
        }
    }
    out
}

/// The hooks files of trail plugins Codex has enabled (`[plugins."trail@<marketplace>"]
/// enabled = true` in its config.toml), in Codex's plugin cache.
fn codex_plugin_hooks(g: &Ground) -> Vec<PathBuf> {
    let Ok(text) = crate::fsutil::read_text_capped(&g.codex_home.join("config.toml"), 4 << 20)
    else {
        return Vec::new();
    };
    let Ok(config) = text.parse::<toml::Table>() else {
        return Vec::new();
    };
    let Some(plugins) = config.get("plugins").and_then(|p| p.as_table()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (id, t) in plugins {
        let on = t
            .get("enabled")
            .and_then(toml::Value::as_bool)
            .unwrap_or(true);
        let Some((name, marketplace)) = id.split_once('@') else {
            continue;
        };
        if !on || name != crate::install::plugin::NAME {
            continue;
        }
        let cache = g
            .codex_home
            .join("plugins/cache")
            .join(marketplace)
            .join(name);
        let Ok(versions) = std::fs::read_dir(&cache) else {
            continue;
        };
        out.extend(
            versions
                .filter_map(Result::ok)
                .map(|v| v.path().join("hooks/hooks.json")),
        );
    }
    out
}

fn is_trail_plugin(id: &str) -> bool {
    id.split_once('@')
        .is_some_and(|(name, _)| name == crate::install::plugin::NAME)
}

/// The hook commands trail installed: (file, command).
pub fn installed_commands(g: &Ground) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for (file, word) in hook_files(g) {
        let mut cmds = Vec::new();
        if let Some(v) = read_json(&file) {
            trail_commands(&v, word, &mut cmds);
        }
        cmds.dedup();
        out.extend(cmds.into_iter().map(|c| (file.clone(), c)));
    }
    out
}

/// No trail hook in any host's settings: nothing is gated or recorded.
pub fn installed(commands: &[(PathBuf, String)]) -> Vec<Finding> {
    if !commands.is_empty() {
        return Vec::new();
    }
    vec![Finding::new(
        CHECK_INSTALLED,
        "no trail hooks in Claude Code's or Codex's settings for this project, and no trail \
         plugin enabled: tool calls are neither gated nor recorded",
        "run `trail init` in the project (`--agent codex` for Codex, `--global` for every \
         project), or install the plugin (`trail init --plugin DIR`, then `claude plugin \
         install trail --marketplace DIR`)",
    )]
}

/// Every program the hook commands name, resolved like the host's shell would; a finding for
/// each that is not there. Returns the programs found too.
pub fn reachable(g: &Ground, commands: &[(PathBuf, String)]) -> (Vec<Finding>, Vec<PathBuf>) {
    let (mut findings, mut found) = (Vec::new(), Vec::new());
    for (file, command) in commands {
        if ["claude-code", "codex"]
            .iter()
            .any(|w| shared::is_shared(command, w))
        {
            match g.config_dir.as_deref().and_then(shared::linked) {
                Some(p) if !found.contains(&p) => found.push(p),
                Some(_) => {}
                None => findings.push(Finding::new(
                    CHECK_REACHABLE,
                    format!(
                        "{} runs the team's trail hooks through {}, which links no trail on this \
                         machine: sessions here are neither gated nor recorded (each says so at \
                         its start)",
                        file.display(),
                        g.config_dir.as_deref().map_or_else(
                            || "~/.config/trail/hook".into(),
                            |d| shared::link_path(d).display().to_string()
                        )
                    ),
                    "run `trail init` in this project: it links this machine's trail",
                )),
            }
            continue;
        }
        let Some(program) = super::binary::program(command) else {
            continue;
        };
        match super::binary::resolve(&program, g.path.as_deref()) {
            Some(p) => {
                if !found.contains(&p) {
                    found.push(p);
                }
            }
            None => findings.push(Finding::new(
                CHECK_REACHABLE,
                format!(
                    "{} runs `{program}`, which is not found from the hook's PATH: the hook \
                     exits 127 and the host lets every tool call through",
                    file.display()
                ),
                "put trail back where the hook names it, or run `trail init` again with the \
                 trail you want the hooks to run",
            )),
        }
    }
    findings.dedup();
    (findings, found)
}

/// A settings file whose hooks name trail (`… hook <host>`) for events where trail does not
/// run as `trail init` installs it: a prefix command (`true /x/trail hook …`), a narrower
/// matcher, PreToolUse without its fail-closed switch. The host runs them, and trail is off
/// for those events, while every check that looks for the text would pass.
pub fn weakened(g: &Ground) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut files: Vec<(PathBuf, &claude::HostSpec)> =
        hooks_seen::settings_files(&g.project_root, &g.home)
            .into_iter()
            .map(|p| (p, &claude::CLAUDE))
            .collect();
    files.push((g.codex_home.join("hooks.json"), &codex::CODEX));
    files.push((
        codex::hooks_path(&g.project_root, &g.home, false),
        &codex::CODEX,
    ));
    for (f, host) in files {
        let Some(v) = read_json(&f) else { continue };
        let enforced = claude::events_enforced(&v, host);
        let named: Vec<&str> = host
            .events
            .iter()
            .copied()
            .filter(|e| !enforced.contains(e) && names_trail(&v["hooks"][*e], host.word))
            .collect();
        if named.is_empty() {
            continue;
        }
        out.push(Finding::new(
            CHECK_WEAKENED,
            format!(
                "{} has hooks that name trail for {} but do not run it as `trail init` installs it (something else runs first, the matcher is narrower, or PreToolUse does not fail closed): trail is off for those events",
                f.display(),
                named.join(", ")
            ),
            format!(
                "run `trail init{}` again in your own terminal, then remove the other entries from {}",
                if host.word == "codex" { " --agent codex" } else { "" },
                f.display()
            ),
        ));
    }
    out
}

/// Whether a hooks list has a command that mentions trail's hook entry point for `word`.
fn names_trail(groups: &Value, word: &str) -> bool {
    let needle = format!("hook {word}");
    groups.as_array().is_some_and(|gs| {
        gs.iter().any(|g| {
            g["hooks"].as_array().is_some_and(|hs| {
                hs.iter().any(|h| {
                    h["command"].as_str().is_some_and(|c| c.contains("trail"))
                        && (h.to_string().contains(&needle) || h["args"].is_array())
                })
            })
        })
    })
}

/// `disableAllHooks` in any layer, or managed settings that allow only managed hooks (trail's
/// are in the user's or project's files, so they stop running).
pub fn switched_off(g: &Ground) -> Vec<Finding> {
    let mut files = hooks_seen::settings_files(&g.project_root, &g.home);
    files.push(g.managed_settings.clone());
    let mut out = Vec::new();
    for f in files {
        let Some(v) = read_json(&f) else { continue };
        if v.get("disableAllHooks") == Some(&Value::Bool(true)) {
            out.push(Finding::new(
                CHECK_SWITCHED_OFF,
                format!(
                    "{} sets `disableAllHooks`: Claude Code runs none of trail's hooks",
                    f.display()
                ),
                format!("remove `disableAllHooks` from {}", f.display()),
            ));
        }
        if f == g.managed_settings && v.get("allowManagedHooksOnly") == Some(&Value::Bool(true)) {
            out.push(Finding::new(
                CHECK_SWITCHED_OFF,
                format!(
                    "{} sets `allowManagedHooksOnly`: trail's hooks in user and project \
                     settings do not run",
                    f.display()
                ),
                "ask the administrator to add trail's hooks to the managed settings, or to lift \
                 `allowManagedHooksOnly`",
            ));
        }
    }
    out
}

/// Codex reads a project's `.codex/hooks.json` only when the project is trusted in
/// `$CODEX_HOME/config.toml` (`[projects."<dir>"] trust_level = "trusted"`); and it runs
/// unmanaged hooks only after a person reviewed them in `/hooks`.
pub fn codex_trust(g: &Ground) -> Vec<Finding> {
    let project_hooks = codex::hooks_path(&g.project_root, &g.home, false);
    let mut cmds = Vec::new();
    if let Some(v) = read_json(&project_hooks) {
        trail_commands(&v, "codex", &mut cmds);
    }
    if cmds.is_empty() || project_trusted(g) {
        return Vec::new();
    }
    vec![Finding::new(
        CHECK_CODEX_TRUST,
        format!(
            "{} holds trail's hooks, but Codex does not trust {}: it ignores the file",
            project_hooks.display(),
            g.project_root.display()
        ),
        format!(
            "trust the project in Codex (or add [projects.\"{}\"] trust_level = \"trusted\" to \
             {}), then review trail's hooks in Codex's /hooks",
            g.project_root.display(),
            g.codex_home.join("config.toml").display()
        ),
    )]
}

fn project_trusted(g: &Ground) -> bool {
    let Ok(text) = crate::fsutil::read_text_capped(&g.codex_home.join("config.toml"), 4 << 20)
    else {
        return false;
    };
    let Ok(config) = text.parse::<toml::Table>() else {
        return false;
    };
    let Some(projects) = config.get("projects").and_then(|p| p.as_table()) else {
        return false;
    };
    let canonical = g.project_root.canonicalize().ok();
    projects.iter().any(|(dir, t)| {
        let here = Path::new(dir) == g.project_root
            || canonical.as_deref() == Some(Path::new(dir))
            || g.project_root.starts_with(dir);
        here && t.get("trust_level").and_then(|v| v.as_str()) == Some("trusted")
    })
}

/// Claude Code deletes transcripts after `cleanupPeriodDays` (30 when unset): the history
/// `trail import` could backfill from goes with them. The most specific layer that sets it wins.
pub fn cleanup_period(g: &Ground) -> Vec<Finding> {
    if !g.home.join(".claude").is_dir() {
        return Vec::new();
    }
    let mut files = hooks_seen::settings_files(&g.project_root, &g.home);
    files.reverse();
    files.insert(0, g.managed_settings.clone());
    let set = files.iter().find_map(|f| {
        let v = read_json(f)?;
        Some((f.clone(), v.get("cleanupPeriodDays")?.as_u64()?))
    });
    let (days, whence) = match &set {
        Some((f, d)) => (
            *d,
            format!("{} sets `cleanupPeriodDays` to {d}", f.display()),
        ),
        None => (
            CLEANUP_DEFAULT_DAYS,
            format!("`cleanupPeriodDays` is unset ({CLEANUP_DEFAULT_DAYS} days)"),
        ),
    };
    if days >= CLEANUP_SUGGESTED_DAYS {
        return Vec::new();
    }
    // A recommendation, not a failure: nothing is off on day one (issue 22).
    vec![
        Finding::new(
            CHECK_CLEANUP,
            format!("{whence}: Claude Code deletes older transcripts, and their history with them"),
            format!(
                "set \"cleanupPeriodDays\": {CLEANUP_SUGGESTED_DAYS} (or more) in {}, and keep \
             what is there with `trail import claude-code`",
                g.home.join(".claude").join("settings.json").display()
            ),
        )
        .warning(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ground(t: &Path) -> Ground {
        let home = t.join("home");
        let root = t.join("project");
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(root.join(".claude")).unwrap();
        Ground {
            codex_home: home.join(".codex"),
            managed_settings: t.join("managed-settings.json"),
            config_dir: Some(t.join("config")),
            path: Some(t.join("bin").into_os_string()),
            home,
            project_root: root,
        }
    }

    fn write(p: &Path, text: &str) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    const HOOKS: &str = r#"{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[
        {"type":"command","command":"trail hook claude-code"},
        {"type":"command","command":"other-tool"}]}]}}"#;

    #[test]
    fn hooks_are_found_and_their_program_looked_up_on_path() {
        let t = tempfile::tempdir().unwrap();
        let g = ground(t.path());
        assert_eq!(installed(&installed_commands(&g)).len(), 1, "none yet");
        write(&g.project_root.join(".claude/settings.json"), HOOKS);
        let cmds = installed_commands(&g);
        assert_eq!(cmds.len(), 1, "{cmds:?}");
        assert!(installed(&cmds).is_empty());
        let (f, found) = reachable(&g, &cmds);
        assert_eq!(f.len(), 1);
        assert!(found.is_empty());
        assert!(f[0].problem.contains("exits 127"), "{}", f[0].problem);
        let bin = t.path().join("bin/trail");
        write(&bin, "#!/bin/sh\n");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        let (f, found) = reachable(&g, &cmds);
        assert!(f.is_empty(), "{f:?}");
        assert_eq!(found, vec![bin]);
    }

    #[test]
    fn an_enabled_trail_plugin_counts_as_installed_hooks_and_a_disabled_one_does_not() {
        let t = tempfile::tempdir().unwrap();
        let g = ground(t.path());
        // What `trail init --plugin` writes, where `claude plugin install` copies it.
        let cache = g.home.join(".claude/plugins/cache/trail-local/trail/0.1.0");
        let bin = t.path().join("my tools/trail");
        crate::install::plugin::install(&cache, &bin).unwrap();
        write(
            &g.home.join(".claude/plugins/installed_plugins.json"),
            &serde_json::json!({"version": 2, "plugins": {"trail@trail-local": [
                {"scope": "user", "installPath": cache}]}})
            .to_string(),
        );
        let settings = g.home.join(".claude/settings.json");
        write(
            &settings,
            r#"{"enabledPlugins":{"trail@trail-local":false}}"#,
        );
        assert!(installed_commands(&g).is_empty());
        write(
            &settings,
            r#"{"enabledPlugins":{"trail@trail-local":true}}"#,
        );
        let cmds = installed_commands(&g);
        assert_eq!(cmds.len(), 1, "{cmds:?}");
        assert_eq!(cmds[0].0, cache.join("hooks/hooks.json"));
        // The program is the exec-form `command`, spaces and all.
        let (f, _) = reachable(&g, &cmds);
        assert!(f[0].problem.contains("my tools/trail"), "{f:?}");
        // Codex: enabled in its config.toml, in its plugin cache.
        let codex_cache = g.codex_home.join("plugins/cache/trail-local/trail/0.1.0");
        crate::install::plugin::install(&t.path().join("plugin"), &bin).unwrap();
        std::fs::create_dir_all(&codex_cache).unwrap();
        std::fs::rename(
            t.path().join("plugin/codex/hooks"),
            codex_cache.join("hooks"),
        )
        .unwrap();
        write(
            &g.codex_home.join("config.toml"),
            "[plugins.\"trail@trail-local\"]\nenabled = true\n",
        );
        let cmds = installed_commands(&g);
        assert_eq!(cmds.len(), 2, "{cmds:?}");
        assert!(cmds[1].1.ends_with("hook codex"), "{cmds:?}");
    }

    #[test]
    fn disable_all_hooks_and_managed_only_hooks_are_found() {
        let t = tempfile::tempdir().unwrap();
        let g = ground(t.path());
        assert!(switched_off(&g).is_empty());
        write(
            &g.home.join(".claude/settings.json"),
            r#"{"disableAllHooks": true}"#,
        );
        write(&g.managed_settings, r#"{"allowManagedHooksOnly": true}"#);
        let f = switched_off(&g);
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(f[0].problem.contains("disableAllHooks"));
        assert!(f[1].problem.contains("allowManagedHooksOnly"));
    }

    #[test]
    fn codex_project_hooks_need_a_trusted_project() {
        let t = tempfile::tempdir().unwrap();
        let g = ground(t.path());
        assert!(
            codex_trust(&g).is_empty(),
            "no codex hooks: nothing to trust"
        );
        write(
            &g.project_root.join(".codex/hooks.json"),
            r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"/x/trail hook codex"}]}]}}"#,
        );
        assert_eq!(codex_trust(&g).len(), 1);
        write(
            &g.codex_home.join("config.toml"),
            &format!(
                "[projects.{:?}]\ntrust_level = \"trusted\"\n",
                g.project_root.display().to_string()
            ),
        );
        assert!(codex_trust(&g).is_empty());
    }

    #[test]
    fn a_short_transcript_cleanup_period_is_found_and_a_long_one_is_not() {
        let t = tempfile::tempdir().unwrap();
        let g = ground(t.path());
        let f = cleanup_period(&g);
        assert_eq!(f.len(), 1);
        assert!(f[0].problem.contains("unset (30 days)"), "{}", f[0].problem);
        assert!(f[0].fix.contains("trail import"));
        write(
            &g.home.join(".claude/settings.json"),
            r#"{"cleanupPeriodDays": 1000}"#,
        );
        assert!(cleanup_period(&g).is_empty());
        write(
            &g.project_root.join(".claude/settings.local.json"),
            r#"{"cleanupPeriodDays": 7}"#,
        );
        assert!(cleanup_period(&g)[0].problem.contains("to 7"));
    }
}
