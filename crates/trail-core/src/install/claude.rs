//! Claude Code: trail's hooks in `.claude/settings.json` (or `~/.claude/settings.json`).
//!
//! Settings shape: `{"hooks": {"<Event>": [{"matcher": "…", "hooks": [{"type": "command",
//! "command": "…", "timeout": 10}]}]}}`. trail's entries are recognised by what their command
//! runs (a trail binary, first, with exactly `hook claude-code`: [`is_ours_for`]), so running
//! `trail init` twice changes nothing and `trail uninstall` removes exactly what it added; and
//! whether trail really runs for an event ([`events_enforced`]) is what the edit guard,
//! ConfigChange and `doctor` ask. Other keys keep their order (the file is someone's, and diffs
//! matter).
//!
//! Every entry carries an explicit `timeout` ([`HOOK_TIMEOUT_SECS`]; the host's default is 600 s,
//! ten minutes of a frozen session). PreToolUse also carries Claude Code's fail-closed switch,
//! `"onFailure": "block"`: without it a PreToolUse hook that is killed, crashes or times out
//! lets the tool run (measured with Claude Code 2.1.328, tests/cli/hook_deadline.rs).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::{Change, InstallError};
use crate::fsutil;

/// Every event trail handles. PostToolUseFailure matters: a failing command is reported only
/// through it.
pub const EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PreCompact",
    "PostCompact",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "SessionEnd",
    "ConfigChange",
];

const TOOL_EVENTS: &[&str] = &["PreToolUse", "PostToolUse", "PostToolUseFailure"];

/// Whether `event` concerns one tool call (its group carries the host's tool matcher).
pub(crate) fn is_tool_event(event: &str) -> bool {
    TOOL_EVENTS.contains(&event)
}

/// The `timeout` (seconds) of every hook entry trail installs: twice the hook's own deadline
/// (`trail hook` answers by itself within 5 s, denying a tool call it could not check), so the
/// host's timeout only fires when the hook could not run at all.
pub const HOOK_TIMEOUT_SECS: u64 = 10;

/// The settings file trail's hooks go to: the user's with `global`, else the project's
/// machine-local one (`.claude/settings.local.json`). The hook command names this machine's
/// binary by its absolute path, so it must never reach the committed `.claude/settings.json`,
/// where a teammate's clone would run a path that does not exist there (issue 22).
pub fn settings_path(project_root: &Path, home: &Path, global: bool) -> PathBuf {
    if global {
        home.join(".claude").join("settings.json")
    } else {
        local_settings(project_root)
    }
}

/// The project's machine-local settings, which Claude Code reads and never shares.
pub fn local_settings(project_root: &Path) -> PathBuf {
    project_root.join(".claude").join("settings.local.json")
}

/// The project's shared settings, committed with it: where an older `trail init` put its hooks.
pub fn shared_settings(project_root: &Path) -> PathBuf {
    project_root.join(".claude").join("settings.json")
}

/// An agent host's hook settings: which events trail takes, and the word naming the host in
/// trail's hook command (`trail hook <word>`).
pub struct HostSpec {
    pub word: &'static str,
    pub events: &'static [&'static str],
    /// The matcher for tool events (`None`: no matcher, which matches every tool).
    pub tool_matcher: Option<&'static str>,
    /// The key and value that make a failed PreToolUse hook block the tool, where the host has
    /// them.
    pub fail_closed: Option<(&'static str, &'static str)>,
}

pub const CLAUDE: HostSpec = HostSpec {
    word: "claude-code",
    events: EVENTS,
    tool_matcher: Some("*"),
    fail_closed: Some(("onFailure", "block")),
};

/// The fields trail wants on its entry for `event`, beyond `type` and `command`.
pub(crate) fn wanted_fields(host: &HostSpec, event: &str) -> Vec<(&'static str, Value)> {
    let mut out = vec![("timeout", json!(HOOK_TIMEOUT_SECS))];
    if event == "PreToolUse"
        && let Some((k, v)) = host.fail_closed
    {
        out.push((k, json!(v)));
    }
    out
}

/// Whether a hook command is trail's (for Claude Code).
#[cfg(test)]
fn is_ours(command: &str) -> bool {
    is_ours_for(command, "claude-code")
}

/// Whether a hook command runs trail's hook entry point for the host `word`, judged by what the
/// host's shell would execute, not by the text it contains (`true /x/trail hook claude-code`
/// holds the text and runs `true`): the first word is a trail binary, with nothing in front (no
/// prefix command, assignment or redirection) and no shell syntax in it; the arguments are
/// exactly `hook <word>`, separated by plain spaces.
pub fn is_ours_for(command: &str, word: &str) -> bool {
    if super::shared::is_shared(command, word) {
        return true;
    }
    let c = command.trim_matches([' ', '\t']);
    let (program, rest) = match c.strip_prefix('"') {
        Some(q) => match q.split_once('"') {
            Some((p, r)) if r.starts_with([' ', '\t']) => (p, r),
            _ => return false,
        },
        None => match c.split_once([' ', '\t']) {
            Some(x) => x,
            None => return false,
        },
    };
    let args: Vec<&str> = rest.split([' ', '\t']).filter(|a| !a.is_empty()).collect();
    runs_trail(program) && args == ["hook", word]
}

/// Whether `program` (a hook's first word, unquoted) is a trail binary named plainly: its file
/// name is `trail`, and it holds nothing the shell would expand, substitute or split on.
fn runs_trail(program: &str) -> bool {
    const SHELL: &[char] = &[
        '$', '`', ';', '|', '&', '<', '>', '(', ')', '{', '}', '*', '?', '[', ']', '!', '\\', '\'',
        '"', '#', '=',
    ];
    !program.contains(SHELL)
        && !program.contains(char::is_control)
        && program.rsplit('/').next() == Some("trail")
}

/// Whether one hook entry is trail's, as the host runs it: a `command` entry (shell form, or
/// exec form with `args`) running trail's hook entry point for `host`, and on PreToolUse the
/// host's fail-closed switch.
fn entry_is_ours(h: &Value, host: &HostSpec, event: &str) -> bool {
    let Some(command) = h.get("command").and_then(Value::as_str) else {
        return false;
    };
    let runs = match h.get("args") {
        None => is_ours_for(command, host.word),
        Some(Value::Array(args)) => {
            runs_trail(command.trim_matches([' ', '\t']))
                && args.len() == 2
                && args[0] == "hook"
                && args[1] == host.word
        }
        Some(_) => false,
    };
    let fails_closed = event != "PreToolUse"
        || host
            .fail_closed
            .is_none_or(|(k, v)| h.get(k).and_then(Value::as_str) == Some(v));
    runs && h
        .get("type")
        .and_then(Value::as_str)
        .is_none_or(|t| t == "command")
        && fails_closed
}

/// The events of `host` whose hooks in `settings` (a settings file of Claude Code's shape) run
/// trail as `trail init` installs it: an entry that is trail's (`entry_is_ours`), in a group
/// that matches every tool for tool events (`*`, empty or no matcher). None when the file sets
/// `disableAllHooks`. A change that lowers this count switches trail off or weakens it.
pub fn events_enforced(settings: &Value, host: &HostSpec) -> Vec<&'static str> {
    if settings.get("disableAllHooks") == Some(&Value::Bool(true)) {
        return Vec::new();
    }
    let every_tool = |g: &Value| match g.get("matcher") {
        None => true,
        Some(Value::String(m)) => matches!(m.as_str(), "*" | "" | ".*"),
        Some(_) => false,
    };
    host.events
        .iter()
        .copied()
        .filter(|event| {
            settings["hooks"][*event].as_array().is_some_and(|groups| {
                groups.iter().any(|g| {
                    (!is_tool_event(event) || every_tool(g))
                        && g["hooks"]
                            .as_array()
                            .is_some_and(|hs| hs.iter().any(|h| entry_is_ours(h, host, event)))
                })
            })
        })
        .collect()
}

/// The host whose settings file `path` is: Codex for a `hooks.json` in a `.codex` directory,
/// Claude Code otherwise.
pub fn host_of_file(path: &Path) -> &'static HostSpec {
    let codex = path.file_name().is_some_and(|n| n == "hooks.json")
        && path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|d| d == ".codex");
    if codex { &super::codex::CODEX } else { &CLAUDE }
}

/// [`events_enforced`] of a settings file's text (none when it is not JSON).
pub fn enforced_in(text: &str, host: &HostSpec) -> usize {
    serde_json::from_str::<Value>(text).map_or(0, |v| events_enforced(&v, host).len())
}

pub(super) fn load(path: &Path) -> Result<Map<String, Value>, InstallError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Map::new()),
        Err(source) => {
            return Err(InstallError::Io {
                action: "read",
                path: path.into(),
                source,
            });
        }
    };
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(other) => Err(InstallError::Shape {
            path: path.into(),
            field: "(top level)".into(),
            found: kind(&other).into(),
        }),
        Err(e) => Err(InstallError::Malformed {
            path: path.into(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        }),
    }
}

pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

pub(super) fn save(path: &Path, settings: &Map<String, Value>) -> Result<(), InstallError> {
    let io = |action, source| InstallError::Io {
        action,
        path: path.into(),
        source,
    };
    fsutil::ensure_dir(fsutil::parent_dir(path))
        .map_err(|e| io("create the folder of", e.source))?;
    let mut text = serde_json::to_string_pretty(settings)
        .map_err(|e| io("serialise", std::io::Error::other(e)))?;
    text.push('\n');
    fsutil::atomic_write(path, text.as_bytes()).map_err(|e| io("write", e.source))
}

/// The hooks object, created if missing; an error (and no change) if it has another shape.
fn hooks_of<'a>(
    settings: &'a mut Map<String, Value>,
    path: &Path,
) -> Result<&'a mut Map<String, Value>, InstallError> {
    let hooks = settings
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let found = kind(hooks);
    hooks.as_object_mut().ok_or_else(|| InstallError::Shape {
        path: path.into(),
        field: "hooks".into(),
        found: found.into(),
    })
}

/// Merge trail's hooks (running `command`, e.g. `/usr/local/bin/trail hook claude-code`).
pub fn install(path: &Path, command: &str) -> Result<Change, InstallError> {
    install_for(&CLAUDE, path, command)
}

/// Merge trail's hooks into a host's settings file of Claude Code's shape.
pub fn install_for(host: &HostSpec, path: &Path, command: &str) -> Result<Change, InstallError> {
    let mut settings = load(path)?;
    let hooks = hooks_of(&mut settings, path)?;
    let mut change = Change {
        path: path.into(),
        ..Change::default()
    };
    for event in host.events {
        let list = hooks
            .entry(*event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let found = kind(list);
        let Some(list) = list.as_array_mut() else {
            return Err(InstallError::Shape {
                path: path.into(),
                field: format!("hooks.{event}"),
                found: found.into(),
            });
        };
        let mut present = false;
        for group in list.iter_mut() {
            for h in group
                .get_mut("hooks")
                .and_then(Value::as_array_mut)
                .into_iter()
                .flatten()
            {
                if let Some(cmd) = h.get("command").and_then(Value::as_str)
                    && is_ours_for(cmd, host.word)
                {
                    present = true;
                    let mut changed = false;
                    if cmd != command {
                        // Reinstalled from another path: point at this binary.
                        h["command"] = Value::String(command.into());
                        changed = true;
                    }
                    // An entry from before trail set a timeout gets one now.
                    for (k, v) in wanted_fields(host, event) {
                        if h.get(k) != Some(&v) {
                            h[k] = v;
                            changed = true;
                        }
                    }
                    if changed {
                        change.events.push((*event).to_string());
                    }
                }
            }
        }
        if !present {
            let mut hook = json!({ "type": "command", "command": command });
            for (k, v) in wanted_fields(host, event) {
                hook[k] = v;
            }
            let mut group = json!({ "hooks": [hook] });
            if is_tool_event(event)
                && let Some(m) = host.tool_matcher
            {
                group["matcher"] = Value::String(m.into());
            }
            list.push(group);
            change.events.push((*event).to_string());
        }
    }
    if !change.events.is_empty() {
        save(path, &settings)?;
        change.written = true;
    }
    Ok(change)
}

/// Remove trail's hooks and nothing else; drop groups and events left empty by that.
pub fn uninstall(path: &Path) -> Result<Change, InstallError> {
    uninstall_for(&CLAUDE, path)
}

pub fn uninstall_for(host: &HostSpec, path: &Path) -> Result<Change, InstallError> {
    remove_where(path, |c| is_ours_for(c, host.word))
}

/// Remove trail's hooks that name this machine's binary, and keep the shared mode's portable
/// ones: what an older init put in the committed settings goes, the team's hooks stay.
pub fn uninstall_machine_local(host: &HostSpec, path: &Path) -> Result<Change, InstallError> {
    remove_where(path, |c| {
        is_ours_for(c, host.word) && !super::shared::is_shared(c, host.word)
    })
}

/// Remove the hook entries whose command `ours` says are trail's.
fn remove_where(path: &Path, ours: impl Fn(&str) -> bool) -> Result<Change, InstallError> {
    let ours = &ours;
    let mut change = Change {
        path: path.into(),
        ..Change::default()
    };
    if !path.exists() {
        return Ok(change);
    }
    let mut settings = load(path)?;
    let Some(hooks) = settings.get_mut("hooks").and_then(Value::as_object_mut) else {
        return Ok(change);
    };
    let events: Vec<String> = hooks.keys().cloned().collect();
    for event in events {
        let Some(list) = hooks.get_mut(&event).and_then(Value::as_array_mut) else {
            continue;
        };
        let before: usize = list.iter().map(|g| count_ours(g, &ours)).sum();
        if before == 0 {
            continue;
        }
        for group in list.iter_mut() {
            if let Some(hs) = group.get_mut("hooks").and_then(Value::as_array_mut) {
                hs.retain(|h| !h.get("command").and_then(Value::as_str).is_some_and(ours));
            }
        }
        list.retain(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .is_none_or(|h| !h.is_empty())
        });
        if list.is_empty() {
            hooks.remove(&event);
        }
        change.events.push(event);
    }
    if hooks.is_empty() {
        settings.remove("hooks");
    }
    if !change.events.is_empty() {
        save(path, &settings)?;
        change.written = true;
    }
    Ok(change)
}

/// Claude Code's own permission rules over trail's files: a second layer under the gate, kept by
/// the host itself for its file tools (Read, Edit, Write and the searches). The key and the
/// secret store are neither read nor edited; the personal ledger is not edited. `//` starts an
/// absolute path in a permission rule (a single `/` is relative to the settings file).
pub fn deny_rules(secrets_dir: &Path, trail_home: &Path) -> Vec<String> {
    let abs = |p: &Path| format!("/{}/**", p.display().to_string().trim_end_matches('/'));
    vec![
        format!("Read({})", abs(secrets_dir)),
        format!("Edit({})", abs(secrets_dir)),
        format!("Edit({})", abs(trail_home)),
    ]
}

/// Add `rules` to `permissions.deny` (each once; the person's own rules and every other key
/// kept in place). Whether the file changed.
pub fn install_denies(path: &Path, rules: &[String]) -> Result<bool, InstallError> {
    edit_denies(path, |deny| {
        let missing: Vec<Value> = rules
            .iter()
            .filter(|r| !deny.iter().any(|d| d.as_str() == Some(r.as_str())))
            .map(|r| Value::String(r.clone()))
            .collect();
        let changed = !missing.is_empty();
        deny.extend(missing);
        changed
    })
}

/// Take `rules` (what [`deny_rules`] gives) out of `permissions.deny`, and nothing else; an
/// emptied list and `permissions` object go too. Whether the file changed.
pub fn uninstall_denies(path: &Path, rules: &[String]) -> Result<bool, InstallError> {
    if !path.exists() {
        return Ok(false);
    }
    edit_denies(path, |deny| {
        let before = deny.len();
        deny.retain(|d| !d.as_str().is_some_and(|d| rules.iter().any(|r| r == d)));
        deny.len() != before
    })
}

/// Change `permissions.deny` with `f` (which says whether it changed anything), and save.
fn edit_denies(path: &Path, f: impl FnOnce(&mut Vec<Value>) -> bool) -> Result<bool, InstallError> {
    let mut settings = load(path)?;
    let shape = |field: &str, v: &Value| InstallError::Shape {
        path: path.into(),
        field: field.into(),
        found: kind(v).into(),
    };
    let perms = settings
        .entry("permissions")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(perms_map) = perms.as_object_mut() else {
        return Err(shape("permissions", perms));
    };
    let deny = perms_map
        .entry("deny")
        .or_insert_with(|| Value::Array(Vec::new()));
    let Some(list) = deny.as_array_mut() else {
        return Err(shape("permissions.deny", deny));
    };
    let changed = f(list);
    if list.is_empty() {
        perms_map.remove("deny");
    }
    if perms_map.is_empty() {
        settings.remove("permissions");
    }
    if changed {
        save(path, &settings)?;
    }
    Ok(changed)
}

fn count_ours(group: &Value, ours: &dyn Fn(&str) -> bool) -> usize {
    group
        .get("hooks")
        .and_then(Value::as_array)
        .map_or(0, |hs| {
            hs.iter()
                .filter(|h| h.get("command").and_then(Value::as_str).is_some_and(ours))
                .count()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMD: &str = "/opt/bin/trail hook claude-code";

    #[test]
    fn install_is_idempotent_and_keeps_foreign_hooks_and_keys() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let original = r#"{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "python3 ~/guard.py" } ] }
    ]
  },
  "permissions": { "allow": ["Bash(ls:*)"] }
}
"#;
        std::fs::write(&path, original).unwrap();
        let c = install(&path, CMD).unwrap();
        assert_eq!(c.events.len(), EVENTS.len());
        let once = std::fs::read_to_string(&path).unwrap();
        assert!(once.contains("python3 ~/guard.py"));
        assert!(once.find("\"model\"").unwrap() < once.find("\"permissions\"").unwrap());
        let again = install(&path, CMD).unwrap();
        assert!(!again.written && again.events.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), once);

        let u = uninstall(&path).unwrap();
        assert_eq!(u.events.len(), EVENTS.len());
        let after: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let before: Value = serde_json::from_str(original).unwrap();
        assert_eq!(after, before, "uninstall must leave exactly what was there");
    }

    #[test]
    fn a_malformed_settings_file_is_reported_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        std::fs::write(&path, "{ \"hooks\": [ oops").unwrap();
        let e = install(&path, CMD).unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{ \"hooks\": [ oops"
        );
        std::fs::write(&path, "{ \"hooks\": 3 }").unwrap();
        let e = install(&path, CMD).unwrap_err();
        assert!(e.to_string().contains("`hooks`"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ \"hooks\": 3 }");
    }

    #[test]
    fn every_entry_has_a_short_timeout_and_pre_tool_use_fails_closed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        // An entry installed by an older trail: no timeout, no onFailure.
        std::fs::write(
            &path,
            r#"{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/opt/bin/trail hook claude-code"}]}]}}"#,
        )
        .unwrap();
        let c = install(&path, CMD).unwrap();
        assert!(c.events.contains(&"PreToolUse".to_string()), "{c:?}");
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for event in EVENTS {
            let ours: Vec<&Value> = v["hooks"][event]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|g| g["hooks"].as_array().unwrap())
                .filter(|h| h["command"] == CMD)
                .collect();
            assert_eq!(ours.len(), 1, "{event}: {v}");
            assert_eq!(ours[0]["timeout"], HOOK_TIMEOUT_SECS, "{event}");
            let on_failure = (*event == "PreToolUse").then_some("block");
            assert_eq!(ours[0]["onFailure"].as_str(), on_failure, "{event}");
        }
        let again = install(&path, CMD).unwrap();
        assert!(!again.written, "{again:?}");
        let u = uninstall(&path).unwrap();
        assert_eq!(u.events.len(), EVENTS.len());
        assert_eq!(std::fs::read_to_string(&path).unwrap().trim(), "{}");
    }

    #[test]
    fn deny_rules_are_added_once_beside_the_persons_and_removed_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let original = r#"{"permissions":{"deny":["Read(./.env)"],"allow":["Bash(ls:*)"]}}"#;
        std::fs::write(&path, original).unwrap();
        let rules = deny_rules(Path::new("/h/.secrets"), Path::new("/h/.ledger/"));
        assert_eq!(
            rules,
            [
                "Read(//h/.secrets/**)",
                "Edit(//h/.secrets/**)",
                "Edit(//h/.ledger/**)"
            ]
        );
        assert!(install_denies(&path, &rules).unwrap());
        assert!(!install_denies(&path, &rules).unwrap());
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["permissions"]["deny"].as_array().unwrap().len(), 4);
        assert_eq!(v["permissions"]["deny"][0], "Read(./.env)");
        assert!(uninstall_denies(&path, &rules).unwrap());
        let after: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(after, serde_json::from_str::<Value>(original).unwrap());
        // A file that had none keeps none.
        std::fs::write(&path, "{}").unwrap();
        install_denies(&path, &rules).unwrap();
        uninstall_denies(&path, &rules).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap().trim(), "{}");
    }

    #[test]
    fn recognises_only_its_own_commands() {
        assert!(is_ours("trail hook claude-code"));
        assert!(is_ours("/home/me/.cargo/bin/trail hook claude-code"));
        assert!(is_ours("\"/Applications/My Tools/trail\" hook claude-code"));
        assert!(!is_ours("trail hook codex"));
        assert!(!is_ours("python3 trail_hook.py claude-code"));
        assert!(!is_ours("mytrail hook claude-code"));
        // Issue 19: the text `trail hook` is there, but something else runs.
        for weakened in [
            "true /opt/bin/trail hook claude-code",
            "X=1 /opt/bin/trail hook claude-code",
            "/opt/bin/trail hook claude-code || true",
            "/opt/bin/trail hook claude-code; exit 0",
            "/opt/bin/trail hook claude-code >/dev/null",
            "exit 0; /opt/bin/trail hook claude-code",
            "$(exit 0)/trail hook claude-code",
            "/opt/bin/trail hook claude-code\ntrue",
            "/opt/bin/trail hook\u{a0}claude-code",
            "\"/opt/bin/trail\"hook claude-code",
            "/opt/bin/trail hook claude-code extra",
        ] {
            assert!(!is_ours(weakened), "{weakened}");
        }
    }

    #[test]
    fn trail_counts_as_installed_only_as_init_installs_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        install(&path, CMD).unwrap();
        let good: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(events_enforced(&good, &CLAUDE).len(), EVENTS.len());
        let weakened = |f: &dyn Fn(&mut Value)| {
            let mut v = good.clone();
            f(&mut v);
            events_enforced(&v, &CLAUDE).len()
        };
        let all = EVENTS.len();
        assert_eq!(weakened(&|v| v["disableAllHooks"] = json!(true)), 0);
        assert_eq!(
            weakened(&|v| v["hooks"]["PreToolUse"][0]["matcher"] = json!("Read")),
            all - 1
        );
        assert_eq!(
            weakened(&|v| v["hooks"]["PreToolUse"][0]["hooks"][0]
                .as_object_mut()
                .unwrap()
                .remove("onFailure")
                .map_or((), |_| ())),
            all - 1
        );
        assert_eq!(
            weakened(
                &|v| v["hooks"]["Stop"][0]["hooks"][0]["command"] = json!(format!("true {CMD}"))
            ),
            all - 1
        );
        assert_eq!(
            weakened(&|v| v["hooks"]["Stop"][0]["hooks"][0]["type"] = json!("prompt")),
            all - 1
        );
        assert_eq!(enforced_in("not json", &CLAUDE), 0);
    }
}
