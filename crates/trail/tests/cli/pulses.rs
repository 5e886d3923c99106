//! The pulses the hooks write on their own (LedgerPulse §8): after state-changing tools, and
//! every ten minutes of work, with or without a prompt.
//!
//! Time is simulated the way the hooks read it: the proof log's lines carry when each tool call
//! finished, and the files' modification times say when the log and the stream were last
//! written. A test writes both as a session that has run for a while would have left them.

use std::path::Path;
use std::time::{Duration, SystemTime};

use serde_json::json;

use crate::common::*;

/// Every record in the stream, newest first.
fn records(env: &TestEnv) -> Vec<serde_json::Value> {
    serde_json::from_str(&env.ok(&["log", "--json"])).unwrap()
}

/// The records tagged `tag`.
fn tagged(env: &TestEnv, tag: &str) -> Vec<serde_json::Value> {
    records(env)
        .into_iter()
        .filter(|r| r["tags"].as_array().unwrap().iter().any(|t| t == tag))
        .collect()
}

fn set_mtime(path: &Path, ago: Duration) {
    let f = std::fs::File::options().append(true).open(path).unwrap();
    f.set_modified(SystemTime::now() - ago).unwrap();
}

fn minutes(m: u64) -> Duration {
    Duration::from_secs(m * 60)
}

/// A session that has been working: one pulse `pulse_ago`, then a tool call a minute from
/// `work_from` ago until a minute ago, all in session s1's proof log.
fn working_session(pulse_ago: Duration, work_from: Duration) -> TestEnv {
    let env = TestEnv::new();
    env.ok(&[
        "pulse",
        "--proj",
        "project",
        "--summary",
        "start the parser",
    ]);
    let log = env.cwd.join(".proof/session_log.jsonl");
    std::fs::create_dir_all(log.parent().unwrap()).unwrap();
    let mut lines = String::new();
    let mut ago = work_from;
    while ago >= minutes(1) {
        let at = SystemTime::now() - ago;
        let us = at
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .as_micros();
        let at = trail_core::time::Ts::from_micros(us as i64);
        let line = json!({"timestamp": at.to_string(), "tool": "Bash", "input_preview": "cargo build",
            "output_preview": "", "success": true, "session_id": "s1"});
        lines.push_str(&format!("{line}\n"));
        ago -= minutes(1);
    }
    std::fs::write(&log, lines).unwrap();
    set_mtime(&log, minutes(1));
    set_mtime(&env.stream(), pulse_ago);
    env
}

fn post_tool(env: &TestEnv, tool: &str, input: serde_json::Value) {
    hook(
        env,
        json!({"hook_event_name":"PostToolUse","session_id":"s1","tool_name":tool,"tool_input":input,"tool_response":{"stdout":"ok"}}),
    );
}

/// Issue 11, item 7: the ten-minute pulse fired only when a prompt arrived, so an autonomous
/// session could work for an hour without one.
#[test]
fn an_autonomous_session_gets_a_pulse_after_ten_minutes_of_work_without_a_prompt() {
    let env = working_session(minutes(12), minutes(11));
    post_tool(&env, "Bash", json!({"command": "cargo build --release"}));
    let timer = tagged(&env, "timer");
    assert_eq!(timer.len(), 1, "{:#?}", records(&env));
    let fact = timer[0]["facts"][0].as_str().unwrap();
    assert!(
        fact.contains("ten minutes without a pulse") && fact.contains("12 tool calls"),
        "{fact}"
    );
    assert!(fact.contains("tests run: no"), "{fact}");
    // The pulse moved the stream: the next tool call writes none.
    post_tool(&env, "Bash", json!({"command": "ls"}));
    assert_eq!(tagged(&env, "timer").len(), 1);
}

#[test]
fn work_a_pulse_followed_or_younger_than_ten_minutes_gets_no_timer_pulse() {
    // A pulse five minutes ago: the work since is five minutes old.
    let env = working_session(minutes(5), minutes(11));
    post_tool(&env, "Bash", json!({"command": "ls"}));
    assert!(tagged(&env, "timer").is_empty(), "{:#?}", records(&env));
    // No pulse for half an hour, but the session started working three minutes ago.
    let env = working_session(minutes(30), minutes(3));
    post_tool(&env, "Bash", json!({"command": "ls"}));
    assert!(tagged(&env, "timer").is_empty(), "{:#?}", records(&env));
}

/// Issue 11, item 7: an edit changes state (§8: a pulse after "any tool execution that modifies
/// state"), as a commit does; only git commands counted.
#[test]
fn every_kind_of_edit_is_state_changing_and_gets_a_pulse_naming_its_files() {
    let env = TestEnv::new();
    let file = env.cwd.join("src/total.rs");
    let f = file.to_str().unwrap();
    post_tool(
        &env,
        "Edit",
        json!({"file_path": f, "old_string": "a", "new_string": "b"}),
    );
    post_tool(
        &env,
        "Write",
        json!({"file_path": f, "content": "fn main() {}"}),
    );
    post_tool(
        &env,
        "MultiEdit",
        json!({"file_path": f, "edits": [{"old_string": "a", "new_string": "b"}]}),
    );
    post_tool(
        &env,
        "NotebookEdit",
        json!({"notebook_path": env.cwd.join("n.ipynb"), "new_source": "x = 1"}),
    );
    let patch = "*** Begin Patch\n*** Update File: src/total.rs\n@@\n-a\n+b\n*** End Patch\n";
    let out = env.run_stdin(
        &["hook", "codex"],
        &json!({"hook_event_name":"PostToolUse","session_id":"s1","tool_name":"apply_patch","tool_input":{"command": patch},"tool_response":"Exit code: 0"}).to_string(),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let pulses = tagged(&env, "state-changing");
    let facts: Vec<&str> = pulses
        .iter()
        .rev()
        .map(|r| r["facts"][0].as_str().unwrap())
        .collect();
    assert_eq!(
        facts,
        [
            format!("state-changing: Edit {f}"),
            format!("state-changing: Write {f}"),
            format!("state-changing: MultiEdit {f}"),
            format!(
                "state-changing: NotebookEdit {}",
                env.cwd.join("n.ipynb").display()
            ),
            "state-changing: apply_patch src/total.rs".to_string(),
        ]
    );
    // A read changes nothing.
    post_tool(&env, "Read", json!({"file_path": f}));
    assert_eq!(tagged(&env, "state-changing").len(), 5);
}

/// Found by issue 21: passing tests and state-changing commands other than git wrote no pulse,
/// so the morning brief's thread was often a bare `## project`.
#[test]
fn passing_tests_and_state_changing_commands_write_a_pulse() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    for command in [
        "cd web && npm ci",
        "docker compose up -d",
        "python manage.py migrate",
    ] {
        post_tool(&env, "Bash", json!({ "command": command }));
    }
    post_tool(&env, "Bash", json!({"command": "cargo test -p shop"}));
    post_tool(&env, "Bash", json!({"command": "ls -la"}));
    let changed = tagged(&env, "state-changing");
    assert_eq!(changed.len(), 3, "{:#?}", records(&env));
    let passed = tagged(&env, "tests-passed");
    assert_eq!(passed.len(), 1, "{:#?}", records(&env));
    assert!(
        passed[0]["facts"][0]
            .as_str()
            .unwrap()
            .contains("cargo test -p shop"),
        "{passed:?}"
    );
}
