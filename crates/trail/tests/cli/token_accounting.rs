//! Every piece of context trail injects is counted per session, `trail status` shows it, and
//! past `context.cap_tokens` one line stands in for it; subagents hear only the primer
//! `subagent.primer` names. Through the binary, with hook payloads as Claude Code sends them.

use serde_json::{Value, json};

use crate::common::*;

fn context(v: &Value) -> &str {
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
}

fn prompt(env: &TestEnv, session: &str, text: &str) -> Value {
    hook(
        env,
        json!({"hook_event_name":"UserPromptSubmit","session_id":session,"prompt":text}),
    )
}

#[test]
fn past_the_cap_trail_injects_one_line_and_status_shows_what_the_session_received() {
    let env = TestEnv::new().env("TRAIL_CONTEXT_CAP_TOKENS", "150");
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    // `/edge status` always answers in the prompt's context: ~60 tokens each.
    let first = prompt(&env, "s1", "/edge status");
    assert!(context(&first).contains("mode:"), "{first}");
    let second = prompt(&env, "s1", "/edge status");
    assert!(context(&second).contains("mode:"), "{second}");
    let third = prompt(&env, "s1", "/edge status");
    let line = context(&third);
    assert!(
        line.starts_with("trail: held back ~") && !line.contains('\n'),
        "{line}"
    );
    assert!(line.contains("cap 150"), "{line}");
    // Another session is counted on its own.
    assert!(context(&prompt(&env, "s2", "/edge status")).contains("mode:"));

    let st = status(&env);
    let c = &st["context"];
    assert_eq!(
        c["session"], "s2",
        "the session trail injected into last: {st}"
    );
    let out = env.ok(&["status"]);
    assert!(out.contains("context:   ~"), "{out}");

    // A compaction empties the window: SessionStart's rebuilt state comes back whole.
    env.ok(&[
        "pulse",
        "--proj",
        "p",
        "--summary",
        "s",
        "--next",
        "NEXT-AFTER-COMPACT",
    ]);
    let start = hook(
        &env,
        json!({"hook_event_name":"SessionStart","session_id":"s1","source":"compact"}),
    );
    assert!(context(&start).contains("NEXT-AFTER-COMPACT"), "{start}");
    let journal = env.cwd.join(".trail/state/context/s1.jsonl");
    let lines: Vec<Value> = std::fs::read_to_string(&journal)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[2]["withheld"].as_u64().unwrap() > 50, "{lines:?}");
    assert_eq!(lines[3]["event"], "SessionStart");
    assert_eq!(lines[3]["window"], true);
    // Held back, then given: the session's own numbers, in JSON.
    let st = {
        // The state file names s1 as this session once it started.
        status(&env)
    };
    let c = &st["context"];
    assert_eq!(c["session"], "s1", "{st}");
    assert_eq!(c["injections"], 4, "{st}");
    assert_eq!(c["withheld_injections"], 1, "{st}");
    assert_eq!(c["cap"], 150, "{st}");
    assert_eq!(c["by_event"]["UserPromptSubmit"]["injections"], 3, "{st}");
    assert_eq!(c["by_event"]["SessionStart"]["injections"], 1, "{st}");
    assert!(
        c["window_tokens"].as_u64() < c["tokens"].as_u64(),
        "the window started again: {st}"
    );
}

#[test]
fn an_allowed_tool_call_counts_nothing_and_writes_nothing() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let v = hook(
        &env,
        json!({"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}),
    );
    assert_eq!(v, Value::Null);
    assert!(!env.cwd.join(".trail/state/context").exists());
    assert_eq!(status(&env)["context"], Value::Null);
    assert!(
        env.ok(&["status"])
            .contains("context:   nothing injected yet")
    );
}
