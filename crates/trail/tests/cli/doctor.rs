//! `trail doctor`: a healthy setup exits 0 with `"ok": true`; each thing that silently disables
//! or weakens trail exits 1 naming its check, the problem and its fix.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::{TestEnv, code, stdout};

/// A `trail` the doctor can inspect but never runs: an ELF header with one PT_LOAD and no
/// PT_INTERP, i.e. a static build.
fn fake_static_trail(dir: &Path) {
    let mut b = vec![0u8; 64 + 56];
    b[..4].copy_from_slice(b"\x7fELF");
    b[4] = 2;
    b[5] = 1;
    b[32..40].copy_from_slice(&64u64.to_le_bytes());
    b[54..56].copy_from_slice(&56u16.to_le_bytes());
    b[56..58].copy_from_slice(&1u16.to_le_bytes());
    b[64..68].copy_from_slice(&1u32.to_le_bytes());
    std::fs::create_dir_all(dir).unwrap();
    let exe = dir.join("trail");
    std::fs::write(&exe, &b).unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn write(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// trail's hooks in the project's Claude Code settings, naming `trail` on a PATH holding only
/// a static `trail` (so no host CLI is found and asked for its version), transcripts kept a
/// year, and one record in the stream.
fn healthy() -> TestEnv {
    let probe = TestEnv::new();
    let bin = probe.root.join("bin");
    // Confinement as installed by default (bubblewrap is part of the README's set-up).
    let env = probe
        .env("PATH", bin.to_str().unwrap())
        .env("TRAIL_CONFINE_MODE", "auto");
    env.ok(&["pulse", "--proj", "doc", "--summary", "first"]);
    fake_static_trail(&bin);
    // An agent host on PATH (it says no version, so none is compared).
    let claude = bin.join("claude");
    std::fs::write(&claude, "#!/bin/sh\nexit 1\n").unwrap();
    std::fs::set_permissions(&claude, std::fs::Permissions::from_mode(0o755)).unwrap();
    write(
        &env.cwd.join(".claude/settings.json"),
        r#"{"cleanupPeriodDays": 400, "hooks": {"PreToolUse": [{"matcher": "*",
            "hooks": [{"type": "command", "command": "trail hook claude-code",
                       "onFailure": "block"}]}]}}"#,
    );
    std::fs::create_dir_all(env.home.join(".claude")).unwrap();
    env
}

fn doctor(env: &TestEnv) -> (i32, serde_json::Value) {
    let out = env.run(&["doctor", "--json"]);
    let v = serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    (code(&out), v)
}

/// Exit 1, and exactly one problem of `check`, with a fix.
fn fails_only(env: &TestEnv, check: &str) -> serde_json::Value {
    let (rc, v) = doctor(env);
    assert_eq!(rc, 1, "{v}");
    assert_eq!(v["ok"], false);
    let problems = v["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{v}");
    assert_eq!(problems[0]["check"], check, "{v}");
    assert!(!problems[0]["fix"].as_str().unwrap().is_empty());
    problems[0].clone()
}

#[test]
fn a_healthy_setup_exits_0_with_ok_true() {
    let env = healthy();
    let (rc, v) = doctor(&env);
    assert_eq!((rc, &v["ok"]), (0, &serde_json::json!(true)), "{v}");
    assert_eq!(v["problems"], serde_json::json!([]));
    let text = stdout(&env.run(&["doctor"]));
    assert!(
        text.contains("ok    stream\n") && text.contains("healthy"),
        "{text}"
    );
}

#[test]
fn a_hook_whose_trail_is_not_on_path_is_reported() {
    let env = healthy();
    std::fs::remove_file(env.root.join("bin/trail")).unwrap();
    let p = fails_only(&env, "hook-binary");
    assert!(p["problem"].as_str().unwrap().contains("exits 127"), "{p}");
    let text = stdout(&env.run(&["doctor"]));
    assert!(
        text.contains("FAIL  hook-binary:") && text.contains("fix: "),
        "{text}"
    );
}

#[test]
fn no_hooks_at_all_is_reported() {
    let env = healthy();
    std::fs::remove_file(env.cwd.join(".claude/settings.json")).unwrap();
    // The cleanup setting went with the file: set it for the user instead.
    write(
        &env.home.join(".claude/settings.json"),
        r#"{"cleanupPeriodDays": 400}"#,
    );
    fails_only(&env, "hooks-installed");
}

#[test]
fn disable_all_hooks_is_reported() {
    let env = healthy();
    write(
        &env.cwd.join(".claude/settings.local.json"),
        r#"{"disableAllHooks": true}"#,
    );
    let p = fails_only(&env, "hooks-disabled");
    assert!(
        p["fix"].as_str().unwrap().contains("disableAllHooks"),
        "{p}"
    );
}

#[test]
fn an_unset_cleanup_period_suggests_raising_it_and_importing() {
    let env = healthy();
    write(
        &env.cwd.join(".claude/settings.json"),
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "trail hook claude-code"}]}]}}"#,
    );
    // A recommendation: said, and doctor still exits 0 (issue 22).
    let (rc, v) = doctor(&env);
    assert_eq!(rc, 0, "{v}");
    let p = &v["problems"][0];
    assert_eq!(
        (&p["check"], &p["level"]),
        (&"claude-cleanup".into(), &"warn".into()),
        "{v}"
    );
    assert!(p["fix"].as_str().unwrap().contains("trail import"), "{p}");
}

#[test]
fn a_readable_secrets_directory_is_reported() {
    let env = healthy();
    let dir = env.home.join(".secrets");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let p = fails_only(&env, "secrets-permissions");
    assert_eq!(p["fix"], format!("chmod 700 {}", dir.display()));
}

#[test]
fn a_broken_config_is_reported() {
    let env = healthy();
    write(
        &env.home.join(".config/trail/config.toml"),
        "[ledger]\nrotate_bytes = 12\n",
    );
    let (rc, v) = doctor(&env);
    assert_eq!(rc, 1, "{v}");
    let p = &v["problems"][0];
    assert_eq!(p["check"], "config", "{v}");
    assert!(
        p["problem"].as_str().unwrap().contains("config.toml"),
        "{v}"
    );
}

#[test]
fn a_tampered_stream_is_reported() {
    let env = healthy();
    let stream = env.stream();
    let text = std::fs::read_to_string(&stream).unwrap();
    assert!(text.contains("first"));
    std::fs::write(&stream, text.replace("first", "FIRST")).unwrap();
    let p = fails_only(&env, "stream");
    assert!(p["fix"].as_str().unwrap().contains("trail verify"), "{p}");
}

#[test]
fn commands_left_unconfined_say_which_guarantees_fall_back_to_the_gate() {
    let env = healthy().env("TRAIL_CONFINE_MODE", "off");
    let v = fails_only(&env, "confinement");
    let p = v["problem"].as_str().unwrap();
    assert!(p.contains("fall back to the gate"), "{v}");
    assert!(p.contains("secret store") && p.contains(".trail/"), "{v}");
}

/// Found by issue 22: doctor said "healthy" while trail was failing. An unwritable ledger loses
/// every hook's record; `.mcp.json` registering a server whose binary is not installed; no agent
/// host on PATH. Each is a FAIL with its fix; a recommendation is a WARN that exits 0.
#[test]
fn what_silently_fails_is_a_failure_and_a_recommendation_is_not() {
    let env = healthy();
    // No agent host.
    std::fs::remove_file(env.root.join("bin/claude")).unwrap();
    fails_only(&env, "agent host");
    let claude = env.root.join("bin/claude");
    std::fs::write(&claude, "#!/bin/sh\nexit 1\n").unwrap();
    std::fs::set_permissions(&claude, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The MCP server registered by a trail whose trail-mcp is not beside it nor on PATH.
    write(
        &env.cwd.join(".mcp.json"),
        &format!(
            r#"{{"mcpServers":{{"trail":{{"type":"stdio","command":"{}","args":["mcp"]}}}}}}"#,
            env.root.join("bin/trail").display()
        ),
    );
    let p = fails_only(&env, "mcp server");
    assert!(p["problem"].as_str().unwrap().contains("trail-mcp"), "{p}");
    std::fs::remove_file(env.cwd.join(".mcp.json")).unwrap();
    // A ledger this user cannot write (root writes anywhere: the check is skipped for root).
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    if !root {
        let mut perms = std::fs::metadata(&env.trail_home).unwrap().permissions();
        perms.set_mode(0o500);
        std::fs::set_permissions(&env.trail_home, perms.clone()).unwrap();
        fails_only(&env, "records");
        perms.set_mode(0o700);
        std::fs::set_permissions(&env.trail_home, perms).unwrap();
    }
    let file = env.home.join("ledger-file");
    std::fs::write(&file, "").unwrap();
    let env = env.env("TRAIL_HOME", file.to_str().unwrap());
    let (rc, v) = doctor(&env);
    assert_eq!(rc, 1, "{v}");
    let records = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["check"] == "records")
        .unwrap_or_else(|| panic!("{v}"));
    assert!(
        records["problem"]
            .as_str()
            .unwrap()
            .contains("not a directory"),
        "{v}"
    );
}

#[test]
fn a_recommendation_is_a_warning_and_exits_0() {
    let env = healthy();
    write(
        &env.cwd.join(".claude/settings.json"),
        r#"{"cleanupPeriodDays": 5, "hooks": {"PreToolUse": [{"matcher": "*",
            "hooks": [{"type": "command", "command": "trail hook claude-code",
                       "onFailure": "block"}]}]}}"#,
    );
    let (rc, v) = doctor(&env);
    assert_eq!(rc, 0, "{v}");
    assert_eq!(v["problems"][0]["level"], "warn", "{v}");
    let text = stdout(&env.run(&["doctor"]));
    assert!(
        text.contains("WARN  ") && text.contains("recommendation"),
        "{text}"
    );
}
