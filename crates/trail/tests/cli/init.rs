//! `trail init` / `trail uninstall` against a project's `.claude/settings.local.json` (this
//! machine's), never the committed `.claude/settings.json`.

use crate::common::*;
use crate::e2e::git_ok;
use crate::snapshots::normalise;
use std::process::Output;

/// The reports themselves are pinned whole in `snapshots::init_again_then_uninstall`; this
/// test is about the files.
#[test]
fn init_merges_idempotently_and_uninstall_restores_the_file() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let settings = env.cwd.join(".claude/settings.local.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let foreign = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify-send done"}]}]},"model":"opus"}"#;
    std::fs::write(&settings, foreign).unwrap();
    // The committed settings are a teammate's too: trail writes nothing there.
    let shared = env.cwd.join(".claude/settings.json");
    std::fs::write(&shared, r#"{"model":"opus"}"#).unwrap();

    let out = env.ok(&["init"]);
    assert!(
        out.contains("installed")
            && out.contains("PreToolUse")
            && out.contains("PostToolUseFailure"),
        "{out}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let stop = v["hooks"]["Stop"].as_array().unwrap();
    assert_eq!(stop.len(), 2, "the foreign Stop hook is kept: {v}");
    let cmd = v["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(cmd.ends_with(" hook claude-code"), "{cmd}");
    // Issue 19: Claude Code's own deny rules keep its file tools off the key and secret store.
    let secrets = env.home.join(".secrets");
    let deny = v["permissions"]["deny"].as_array().unwrap();
    for rule in [
        format!("Read(/{}/**)", secrets.display()),
        format!("Edit(/{}/**)", secrets.display()),
    ] {
        assert!(deny.iter().any(|d| d == &rule), "{rule}: {v}");
    }

    let once = std::fs::read_to_string(&settings).unwrap();
    assert!(env.ok(&["init"]).contains("nothing to change"));
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), once);

    // The installed command really is a working hook.
    let program = cmd.trim_end_matches(" hook claude-code");
    assert!(std::path::Path::new(program).exists(), "{program}");

    env.ok(&["uninstall"]);
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(
        after,
        serde_json::from_str::<serde_json::Value>(foreign).unwrap()
    );
    assert!(env.ok(&["uninstall"]).contains("nothing to change"));
    assert_eq!(
        std::fs::read_to_string(&shared).unwrap(),
        r#"{"model":"opus"}"#
    );
}

/// Found by issue 22: `trail init` wrote `/home/you/.cargo/bin/trail hook claude-code` into
/// the committed `.claude/settings.json`, and a teammate who pulled the project got a hook that
/// does not exist on their machine (exit 127: the gate fails open, or every tool call is
/// refused). The hooks go to `.claude/settings.local.json`, kept out of git; an older init's
/// entries move there; init says what is committed and what never is.
#[test]
fn init_keeps_machine_paths_out_of_the_committed_settings() {
    let env = TestEnv::new();
    let git = |args: &[&str]| git_ok(&env.cwd, args);
    git(&["init", "-q"]);
    // What an older trail left in the committed file: its hooks and deny rules, beside the
    // team's own settings.
    env.ok(&["init"]);
    let local = env.cwd.join(".claude/settings.local.json");
    let shared = env.cwd.join(".claude/settings.json");
    let old = std::fs::read_to_string(&local).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&old).unwrap();
    v["model"] = "opus".into();
    std::fs::write(&shared, v.to_string()).unwrap();
    std::fs::remove_file(&local).unwrap();

    // What is committed and what never is, the older entries moved, and (issue 21) what
    // grounding enforcement gives and how to switch.
    let out = env.ok(&["init"]);
    insta::assert_snapshot!(normalise(&env, &out), @r#"
    hooks: installed trail's hooks for SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, PreCompact, PostCompact, Stop, SubagentStart, SubagentStop, SessionEnd, ConfigChange in [ROOT]/project/.claude/settings.local.json
    the /edge slash command: unchanged [ROOT]/project/.claude/commands/edge.md
    the instruction block: unchanged [ROOT]/project/CLAUDE.md
    git-ignore for .trail/state, .trail/outbox and daily memory: unchanged [ROOT]/project/.trail/.gitignore
    git-ignore for the proof log (.proof/): unchanged [ROOT]/project/.proof/.gitignore
    the trajectory's merge (both clones' lines kept): unchanged [ROOT]/project/.trail/.gitattributes
    NOTES.md's merge driver, for the team (.gitattributes): unchanged [ROOT]/project/.gitattributes
    NOTES.md's merge driver, for this clone: unchanged [ROOT]/project/.git/config
    permission deny rules for trail's key and records: installed [ROOT]/project/.claude/settings.local.json
    trail's machine-local entries (an older init put them in the committed settings): moved out of [ROOT]/project/.claude/settings.json
    NOTES.md session continuity: unchanged [ROOT]/project/NOTES.md
    Commit with the project: CLAUDE.md, .claude/commands/edge.md, .trail/.gitignore, .trail/.gitattributes, .gitattributes, .trail/notes-location and NOTES.md. Never commit .claude/settings.local.json (it runs this machine's trail by its path; each teammate runs `trail init`), .trail/state/ or .trail/outbox/.
    Grounding enforcement: warn (from default): the checkpoint, the compaction hold and the red-zone hold warn and do not block. To make them block: `trail init --strict` (this project), or grounding.enforcement = "strict" in ~/.config/trail/config.toml (every project).
    "#);
    let team: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&shared).unwrap()).unwrap();
    assert_eq!(team["model"], "opus");
    let text = team.to_string();
    assert!(
        !text.contains("hook claude-code") && !text.contains(&env.home.display().to_string()),
        "{text}"
    );
    let mine = std::fs::read_to_string(&local).unwrap();
    assert!(mine.contains("hook claude-code"), "{mine}");
    // git does not see the machine-local file.
    let status = git_ok(
        &env.cwd,
        &["status", "--porcelain", "--untracked-files=all"],
    );
    assert!(!status.contains("settings.local.json"), "{status}");
    assert!(status.contains(".claude/settings.json"), "{status}");
}

#[test]
fn a_malformed_settings_file_is_reported_not_overwritten() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let settings = env.cwd.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{\n  \"hooks\": {,\n}").unwrap();
    let out = env.run(&["init"]);
    assert_eq!(code(&out), 2);
    insta::assert_snapshot!(normalise(&env, &stderr(&out)), @r"
    error: [ROOT]/project/.claude/settings.json is not valid JSON (line 2, column 13): key must be a string at line 2 column 13; it was not changed
    hint: fix or move it, then run `trail init` (or `trail uninstall`) again
    ");
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\n  \"hooks\": {,\n}"
    );
    assert_eq!(code(&env.run(&["init", "--agent", "gemini"])), 2);
}

#[test]
fn init_writes_the_slash_command_and_instruction_block_and_uninstall_removes_only_them() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let claude_md = env.cwd.join("CLAUDE.md");
    std::fs::write(&claude_md, "# Rules\n\nBe kind.\n").unwrap();
    env.ok(&["init"]);
    let md = std::fs::read_to_string(&claude_md).unwrap();
    assert!(
        md.starts_with("# Rules\n\nBe kind.\n") && md.contains("trail:begin"),
        "{md}"
    );
    assert!(
        md.contains("every 10 minutes") && md.contains("/edge approve"),
        "{md}"
    );
    let cmd = std::fs::read_to_string(env.cwd.join(".claude/commands/edge.md")).unwrap();
    assert!(cmd.contains("$ARGUMENTS") && cmd.contains("disable-model-invocation: true"));
    assert_eq!(
        std::fs::read_to_string(env.cwd.join(".trail/.gitignore"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>(),
        ["state/", "outbox/", "memory/"]
    );
    let out = env.ok(&["init", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["changed"] == false),
        "second run changes nothing: {v}"
    );
    env.ok(&["uninstall"]);
    assert_eq!(
        std::fs::read_to_string(&claude_md).unwrap(),
        "# Rules\n\nBe kind.\n"
    );
    assert!(!env.cwd.join(".claude/commands/edge.md").exists());
    assert!(!env.cwd.join(".trail/.gitignore").exists());
}

#[test]
fn init_for_codex_writes_its_hooks_file_and_agents_md() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let out = env.ok(&["init", "--agent", "codex"]);
    assert!(out.contains("trust"), "{out}");
    let hooks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(env.cwd.join(".codex/hooks.json")).unwrap())
            .unwrap();
    let keys: Vec<&str> = hooks
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["hooks"], "Codex refuses unknown root fields");
    let cmd = hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(cmd.ends_with(" hook codex"), "{cmd}");
    assert!(
        hooks["hooks"].get("PostToolUseFailure").is_none(),
        "Codex has no PostToolUseFailure"
    );
    assert!(hooks["hooks"].get("SessionEnd").is_some());
    assert!(
        std::fs::read_to_string(env.cwd.join("AGENTS.md"))
            .unwrap()
            .contains("trail pulse")
    );
    assert!(!env.cwd.join(".claude").exists());
    assert!(
        env.ok(&["init", "--agent", "codex"])
            .contains("nothing to change")
    );
    env.ok(&["uninstall", "--agent", "codex"]);
    assert!(!env.cwd.join("AGENTS.md").exists());
    // Nothing of trail's left: no `{}` hooks file, no empty folder.
    assert!(!env.cwd.join(".codex").exists());
}

/// Issue 22: Codex's project hooks name this machine's binary too, so they stay out of git.
#[test]
fn codex_hooks_stay_out_of_the_projects_history() {
    let env = TestEnv::new();
    git_ok(&env.cwd, &["init", "-q"]);
    env.ok(&["init", "--agent", "codex"]);
    let status = git_ok(
        &env.cwd,
        &["status", "--porcelain", "--untracked-files=all"],
    );
    assert!(!status.contains(".codex/"), "{status}");
    assert!(status.contains("AGENTS.md"), "{status}");
}

/// Found by issue 22: `trail uninstall --agent codex` removed `.trail/.gitignore`, which the
/// Claude Code install still needed; uninstall left `{}` settings and empty folders behind
/// without a word. A shared file goes with the last agent; what is left on purpose is said.
#[test]
fn uninstalling_one_agent_keeps_what_the_other_needs_and_says_what_stays() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.ok(&["init"]);
    env.ok(&["init", "--agent", "codex"]);
    let ignore = env.cwd.join(".trail/.gitignore");
    assert!(ignore.is_file());
    env.ok(&["uninstall", "--agent", "codex"]);
    assert!(ignore.is_file(), "the Claude Code install still needs it");
    assert!(
        std::fs::read_to_string(env.cwd.join(".claude/settings.local.json"))
            .unwrap()
            .contains("hook claude-code")
    );
    let out = env.ok(&["uninstall"]);
    assert!(out.contains("Left on purpose"), "{out}");
    assert!(!ignore.exists(), "the last agent takes it");
    assert!(!env.cwd.join(".claude").exists(), "empty folders go: {out}");
    assert!(env.cwd.join("NOTES.md").is_file(), "the decisions stay");
}

/// Found by issue 22: daily memory (the person's prompts and commands) and `.proof/` were one
/// `git add -A` away from a commit.
#[test]
fn private_records_are_ignored_by_default() {
    let env = TestEnv::new();
    let git = |args: &[&str]| git_ok(&env.cwd, args);
    git(&["init", "-q"]);
    env.ok(&["init"]);
    for (rel, text) in [
        (
            ".trail/memory/2026-11-29.md",
            "- asked: deploy with my token\n",
        ),
        (".proof/session_log.jsonl", "{\"tool\":\"Bash\"}\n"),
        (".trail/trajectory/2026-11-29.jsonl", "{}\n"),
    ] {
        let p = env.cwd.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let status = git(&["status", "--porcelain", "--untracked-files=all"]);
    assert!(!status.contains(".trail/memory"), "{status}");
    assert!(!status.contains(".proof/"), "{status}");
    assert!(!status.contains(".trail/state"), "{status}");
    // The decisions are the team's to share if they choose.
    assert!(status.contains(".trail/trajectory/"), "{status}");
    assert!(status.contains("NOTES.md"), "{status}");
}

/// The committed PreToolUse command of a settings file, run by `sh` as the host runs it, in
/// `home` (its own HOME and config folder), with `payload` on stdin.
fn run_committed(settings: &std::path::Path, home: &std::path::Path, payload: &str) -> Output {
    use std::io::Write;
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(settings).unwrap()).unwrap();
    let command = v["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let mut child = std::process::Command::new("/bin/sh")
        .args(["-c", &command])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("TRAIL_HOME", home.join(".ledger"))
        .env("TRAIL_CONFINE_MODE", "off")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Issue 22: a team that wants trail for everyone commits hooks that name no machine's path;
/// each machine runs its own linked trail; a teammate without it is told and never blocked.
#[test]
fn the_team_mode_commits_portable_hooks_and_each_machine_links_its_trail() {
    let env = TestEnv::new();
    git_ok(&env.cwd, &["init", "-q"]);
    let out = env.ok(&["init", "--shared"]);
    assert!(
        out.contains("Team mode: commit .claude/settings.json"),
        "{out}"
    );
    let shared = env.cwd.join(".claude/settings.json");
    let text = std::fs::read_to_string(&shared).unwrap();
    let binary = std::fs::canonicalize(env!("CARGO_BIN_EXE_trail")).unwrap();
    assert!(!text.contains(binary.to_str().unwrap()), "{text}");
    assert!(!text.contains(env.root.to_str().unwrap()), "{text}");
    // Not also in this machine's own settings: the host would run trail twice per event.
    let local = std::fs::read_to_string(env.cwd.join(".claude/settings.local.json")).unwrap();
    assert!(!local.contains("\"hooks\""), "{local}");
    let link = env.home.join(".config/trail/hook");
    assert_eq!(std::fs::read_link(&link).unwrap(), binary);
    // On this machine the committed command runs trail, which refuses a catastrophic command.
    let pre = r#"{"session_id":"s","cwd":"CWD","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}"#
        .replace("CWD", env.cwd.to_str().unwrap());
    let out = run_committed(&shared, &env.home, &pre);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("\"deny\""), "{said} {}", stderr(&out));
    // A second init changes nothing.
    let again = env.ok(&["init", "--shared", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(v["hooks"]["events"], serde_json::json!([]), "{v}");
    assert_eq!(v["shared"], true);

    // A teammate's clone, on a machine whose trail is not set up yet.
    git_ok(&env.cwd, &["add", "-A"]);
    git_ok(&env.cwd, &["commit", "-qm", "trail for the team"]);
    git_ok(
        &env.root,
        &["clone", "-q", env.cwd.to_str().unwrap(), "mate"],
    );
    let mate = env.root.join("mate");
    let mate_home = env.root.join("mate-home");
    std::fs::create_dir_all(&mate_home).unwrap();
    let team = mate.join(".claude/settings.json");
    let start = run_committed(
        &team,
        &mate_home,
        r#"{"session_id":"m","hook_event_name":"SessionStart","source":"startup"}"#,
    );
    assert_eq!(code(&start), 0);
    let v: serde_json::Value = serde_json::from_slice(&start.stdout).unwrap();
    assert!(
        v["systemMessage"]
            .as_str()
            .unwrap()
            .contains("not set up on this machine"),
        "{v}"
    );
    let tool = run_committed(&team, &mate_home, &pre);
    assert_eq!(code(&tool), 0, "nothing is blocked");
    assert!(tool.stdout.is_empty(), "and nothing is said on each call");
    // Their doctor says what is wrong and how to fix it.
    let mut doctor = env.cmd(&["doctor"]);
    doctor
        .current_dir(&mate)
        .env("HOME", &mate_home)
        .env("XDG_CONFIG_HOME", mate_home.join(".config"));
    let out = doctor.output().unwrap();
    assert!(
        stdout(&out).contains("links no trail on this machine")
            && stdout(&out).contains("run `trail init` in this project"),
        "{}",
        stdout(&out)
    );
    // Their plain `trail init` sees the team's hooks: it links, and adds no hooks of its own.
    let mut init = env.cmd(&["init"]);
    init.current_dir(&mate)
        .env("HOME", &mate_home)
        .env("XDG_CONFIG_HOME", mate_home.join(".config"));
    let out = init.output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("Team mode"), "{}", stdout(&out));
    assert!(mate_home.join(".config/trail/hook").exists());
    assert_eq!(std::fs::read_to_string(&team).unwrap(), text, "unchanged");
    let local = std::fs::read_to_string(mate.join(".claude/settings.local.json")).unwrap();
    assert!(!local.contains("\"hooks\""), "{local}");

    // Uninstall keeps the team's hooks unless told, and says so.
    let out = env.ok(&["uninstall"]);
    assert!(
        out.contains("`trail uninstall --shared` takes them"),
        "{out}"
    );
    assert!(
        std::fs::read_to_string(&shared)
            .unwrap()
            .contains("trail/hook")
    );
    env.ok(&["uninstall", "--shared"]);
    assert!(
        !std::fs::read_to_string(&shared)
            .unwrap_or_default()
            .contains("trail/hook")
    );
}

/// An older init's machine-local hook in the committed settings moves out; the team's stays.
#[test]
fn moving_old_hooks_out_of_the_committed_settings_keeps_the_teams() {
    let env = TestEnv::new();
    git_ok(&env.cwd, &["init", "-q"]);
    env.ok(&["init", "--shared"]);
    let shared = env.cwd.join(".claude/settings.json");
    let before = std::fs::read_to_string(&shared).unwrap();
    env.ok(&["init"]);
    assert_eq!(std::fs::read_to_string(&shared).unwrap(), before);
    let out = env.run(&["init", "--shared", "--global"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = env.run(&["init", "--shared", "--agent", "codex"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("--shared is for Claude Code"),
        "{}",
        stderr(&out)
    );
}

/// Issue 21: strict enforcement had to be found in the guide and typed into a config file;
/// `trail init --strict` is the explicit way, for this project, and it says what it did.
#[test]
fn init_strict_makes_this_projects_enforcement_strict_and_says_so() {
    let env = TestEnv::new();
    git_ok(&env.cwd, &["init", "-q"]);
    let config = env.cwd.join(".trail/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "# mine\n[attention]\nyellow = 6000").unwrap();
    let out = env.ok(&["init", "--strict"]);
    assert!(
        out.contains("strict grounding enforcement for this project (commit it): installed")
            && out.contains("Grounding enforcement: strict (from "),
        "{out}"
    );
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(
        text.starts_with("# mine\n[attention]\nyellow = 6000\n"),
        "{text}"
    );
    let v: serde_json::Value = serde_json::from_str(&env.ok(&["config", "--json"])).unwrap();
    assert_eq!(
        v["settings"]["grounding.enforcement"]["value"], "strict",
        "{v}"
    );
    assert_eq!(v["settings"]["attention.yellow"]["value"], 6000, "{v}");
    // Again: nothing changes.
    env.ok(&["init", "--strict"]);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), text);
    // A file that chose otherwise is the person's: refused, unchanged, with what to do.
    std::fs::write(&config, "[grounding]\nenforcement = \"warn\"\n").unwrap();
    let out = env.run(&["init", "--strict"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("it sets grounding.enforcement = \"warn\"; it was not changed"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "[grounding]\nenforcement = \"warn\"\n"
    );
    assert_eq!(code(&env.run(&["uninstall", "--strict"])), 2);
    // Refused before anything was written, in a project init never touched.
    let fresh = TestEnv::new();
    let config = fresh.cwd.join(".trail/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, "[grounding]\nthreshold = 0.9\n").unwrap();
    assert_eq!(code(&fresh.run(&["init", "--strict"])), 2);
    assert!(!fresh.cwd.join(".claude").exists() && !fresh.cwd.join("CLAUDE.md").exists());
}
