//! What the real Claude Code does when a PreToolUse hook dies, and why trail's hook keeps its own
//! deadline (issue 8, item 5: "hangs fail open"). Needs the Claude Code CLI (see claude_e2e.rs);
//! without it each test prints one SKIP line.

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::claude_e2e::{
    DENIED, claude_command, claude_or_skip, serve, text_reply, tool_use_reply,
};
use crate::common::*;

fn project_env() -> TestEnv {
    let env = TestEnv::new();
    let root = env.cwd.display().to_string();
    env.env("CLAUDE_PROJECT_DIR", &root)
}

const POST_TOOL: &str = r#"{"hook_event_name":"PostToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"","stderr":"","interrupted":false}}"#;

const PRE_TOOL_RM: &str = r#"{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}"#;

/// Runs `trail hook claude-code` with `payload`, killing it after `limit` (None: it hung).
pub fn hook_within(env: &TestEnv, payload: &str, limit: Duration) -> Option<(Output, Duration)> {
    use std::io::Write;
    let started = Instant::now();
    let mut child = env
        .cmd(&["hook", "claude-code"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(payload.as_bytes());
    loop {
        if child.try_wait().unwrap().is_some() {
            return Some((child.wait_with_output().unwrap(), started.elapsed()));
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Make a FIFO at `path`.
pub fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkfifo {}", path.display());
}

/// Release any process still blocked opening the FIFO at `path` (a binary without the fix
/// waits there forever), so a failing run leaves no stuck process behind.
pub fn release_fifo(path: &Path) {
    use std::os::unix::fs::OpenOptionsExt;
    for _ in 0..50 {
        // O_NONBLOCK: opening for writing fails at once when nobody waits to read.
        if std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(0o4000)
            .open(path)
            .is_err()
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_fifo_config_cannot_make_a_destructive_command_pass() {
    let env = project_env();
    let config = env.cwd.join(".trail/config.toml");
    mkfifo(&config);
    let ran = hook_within(&env, PRE_TOOL_RM, Duration::from_secs(15));
    release_fifo(&config);
    let (out, took) = ran.expect("PreToolUse hung on a FIFO configuration");
    assert_eq!(code(&out), 0);
    // Refused at once: the configuration is opened without blocking and must be a file.
    assert!(took < Duration::from_secs(3), "{took:?}");
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim())
        .unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)));
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");
    assert!(v.to_string().contains("FIFO"), "{v}");
}

#[test]
fn a_hook_that_hangs_denies_the_tool_call_at_its_own_deadline() {
    let env = project_env().env("TRAIL_FAILPOINT", "hook-stall");
    let ran = hook_within(&env, PRE_TOOL_RM, Duration::from_secs(15));
    let (out, took) = ran.expect("PreToolUse hung past its own deadline");
    assert_eq!(code(&out), 0);
    // Within the hook's own deadline (5 s), well before the host's timeout (10 s).
    assert!(took < Duration::from_secs(8), "{took:?}");
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim())
        .unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)));
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny", "{v}");

    // Every other event lets the session go on, saying why.
    let (out, _) = hook_within(&env, POST_TOOL, Duration::from_secs(15))
        .expect("PostToolUse hung past its own deadline");
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).trim().is_empty(), "{}", stdout(&out));
    assert!(stderr(&out).contains("gave up after"), "{}", stderr(&out));
}

/// Runs claude to completion, or kills it after `limit` (None: it did not finish).
fn claude_within(
    env: &TestEnv,
    claude: &Path,
    port: u16,
    prompt: &str,
    limit: Duration,
) -> Option<std::process::Output> {
    let started = Instant::now();
    let mut child = claude_command(env, claude, port, prompt)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The measurement behind trail's deadline and the fields `trail init` writes: with Claude Code
/// 2.1.328, a PreToolUse hook that is killed, exits 1, or outlives its `timeout` does not stop
/// the tool; the same hook with `"onFailure": "block"` does. (Exit code 2 and a JSON deny are
/// the only verdicts a hook gives on purpose.)
#[test]
fn claude_code_runs_the_tool_when_a_pre_tool_hook_dies_unless_told_to_block() {
    let Some(claude) = claude_or_skip() else {
        return;
    };
    let deaths = [
        ("killed", "kill -KILL $$"),
        ("exit 1", "exit 1"),
        ("timed out", "sleep 20"),
    ];
    let mut seen = Vec::new();
    for (death, command) in deaths {
        for on_failure in [None, Some("block")] {
            let env = TestEnv::new();
            std::fs::create_dir_all(env.cwd.join(".claude")).unwrap();
            let mut hook = serde_json::json!({"type": "command", "command": command, "timeout": 2});
            if let Some(f) = on_failure {
                hook["onFailure"] = f.into();
            }
            let settings =
                serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [hook]}]}});
            std::fs::write(env.cwd.join(".claude/settings.json"), settings.to_string()).unwrap();
            let (port, _seen) = serve(vec![
                tool_use_reply("m1", "touch ran.txt"),
                text_reply("done"),
            ]);
            let out = claude_within(
                &env,
                &claude,
                port,
                "SCRIPTED-E2E: run it",
                Duration::from_secs(90),
            )
            .unwrap_or_else(|| panic!("claude did not finish ({death}, {on_failure:?})"));
            assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
            seen.push((death, on_failure, env.cwd.join("ran.txt").exists()));
        }
    }
    eprintln!("hook death -> tool ran: {seen:?}");
    for (death, on_failure, ran) in seen {
        assert_eq!(
            ran,
            on_failure.is_none(),
            "PreToolUse hook {death}, onFailure {on_failure:?}: the tool {}",
            if ran { "ran" } else { "did not run" }
        );
    }
}

/// `mkfifo .trail/config.toml` used to hang every hook; Claude Code then ran the tool once the
/// hook timed out. Now a configuration that cannot be read leaves the gate at its defaults, and
/// the hook's own deadline denies whatever it could not check, with the reason the model reads.
#[test]
fn a_fifo_config_cannot_make_claude_code_run_a_destructive_command() {
    let Some(claude) = claude_or_skip() else {
        return;
    };
    let env = TestEnv::new();
    let precious = crate::e2e::project_with_precious(&env);
    env.ok(&["init"]);
    let config = env.cwd.join(".trail/config.toml");
    std::fs::remove_file(&config).ok();
    mkfifo(&config);

    let (port, seen) = serve(vec![
        tool_use_reply("1", &format!("rm -rf {}", precious.display())),
        text_reply("all done"),
    ]);
    let started = Instant::now();
    let out = claude_within(
        &env,
        &claude,
        port,
        "SCRIPTED-E2E: clean up",
        Duration::from_mins(2),
    );
    release_fifo(&config);
    let requests = seen.lock().unwrap().join("\n");
    let out = out.unwrap_or_else(|| {
        panic!("claude did not finish within 120 s: trail's hooks hung on the FIFO\n{requests}")
    });
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    assert!(
        precious.join("keep.txt").exists(),
        "the destructive command ran while trail's hook was blocked"
    );
    let denial = crate::e2e::after(&requests, DENIED, 500);
    // The configuration cannot be read, so the gate judges on its built-in defaults (issue
    // 22), which block the command; a hook that could not even do that is cut by its deadline.
    assert!(
        denial.contains("trail blocked this")
            || denial.contains("trail stopped this")
            || denial.contains("did not finish checking this tool call"),
        "the denial did not come from trail: {denial}"
    );
    eprintln!("claude finished in {:?}", started.elapsed());
}
