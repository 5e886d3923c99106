//! Review mode (Operator's Edge §2: "light gates, encourage proof generation"): an edit runs with
//! a warning, and the proof done still lacks is named to the agent, on entering review, on every
//! edit and at every prompt, until the proof log shows it.

use serde_json::json;

use crate::common::*;

/// A project in active mode whose plan has one completed step, in session s1.
fn reviewed_project() -> TestEnv {
    let env = TestEnv::new();
    hook(
        &env,
        json!({"hook_event_name":"SessionStart","session_id":"s1","source":"startup"}),
    );
    env.ok(&["mode", "active", "fix the totals"]);
    let state = env.cwd.join("active_context.yaml");
    let text = std::fs::read_to_string(&state).unwrap().replace(
        "plan: []",
        "plan:\n  - description: round per line\n    status: completed",
    );
    std::fs::write(&state, text).unwrap();
    env
}

fn pre_edit(env: &TestEnv) -> serde_json::Value {
    let file = env.cwd.join("src/total.rs");
    hook(
        env,
        json!({"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Edit","tool_input":{"file_path": file, "old_string": "a", "new_string": "b"}}),
    )
}

fn post_tool(env: &TestEnv, tool: &str, input: serde_json::Value) {
    hook(
        env,
        json!({"hook_event_name":"PostToolUse","session_id":"s1","tool_name":tool,"tool_input":input,"tool_response":{"stdout":"ok"}}),
    );
}

fn context(v: &serde_json::Value) -> String {
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Issue 11, item 12: review behaved exactly like active, so an edit with a plan ran silently.
#[test]
fn in_review_an_edit_runs_with_a_warning_naming_the_missing_proof() {
    let env = reviewed_project();
    assert_eq!(
        pre_edit(&env),
        serde_json::Value::Null,
        "active, with a plan"
    );
    env.ok(&["mode", "review"]);
    let answer = pre_edit(&env);
    assert_eq!(
        answer["hookSpecificOutput"]["hookEventName"], "PreToolUse",
        "{answer}"
    );
    assert!(
        denied(&answer).is_none(),
        "an edit in review runs: {answer}"
    );
    let warning = context(&answer);
    assert!(
        warning.contains("review mode is for verifying finished work")
            && warning.contains("Still missing before /edge done: Very little activity observed; Steps marked completed but no files modified; No test run observed this session."),
        "{warning}"
    );
    // The proof arrives: the warning stays (the edit still changes reviewed work), the list goes.
    let file = env.cwd.join("src/total.rs");
    post_tool(
        &env,
        "Edit",
        json!({"file_path": file, "old_string": "a", "new_string": "b"}),
    );
    post_tool(&env, "Bash", json!({"command": "cargo test"}));
    post_tool(&env, "Bash", json!({"command": "git diff"}));
    let warning = context(&pre_edit(&env));
    assert!(
        warning.contains("review mode is for verifying") && !warning.contains("Still missing"),
        "{warning}"
    );
}

#[test]
fn review_asks_for_proof_on_entering_and_at_every_prompt_until_it_is_there() {
    let env = reviewed_project();
    assert_eq!(prompt(&env, "go on"), "", "active mode says nothing");
    let entered = prompt(&env, "/edge review");
    assert!(
        entered.contains("Mode: active → review")
            && entered.contains("Still missing before done: Very little activity observed;"),
        "{entered}"
    );
    let st: serde_json::Value =
        serde_json::from_str(&env.ok(&["mode", "review", "--json"])).unwrap();
    assert_eq!(
        st["proof_missing"].as_array().unwrap().last().unwrap(),
        "No test run observed this session",
        "{st}"
    );
    let asked = prompt(&env, "go on");
    assert!(
        asked.contains("review mode asks for proof")
            && asked.contains("No test run observed this session"),
        "{asked}"
    );
    post_tool(&env, "Bash", json!({"command": "cargo test"}));
    let asked = prompt(&env, "go on");
    assert!(
        !asked.contains("No test run") && asked.contains("Very little activity observed"),
        "{asked}"
    );
    let file = env.cwd.join("src/total.rs");
    post_tool(
        &env,
        "Write",
        json!({"file_path": file, "content": "fn total() {}"}),
    );
    post_tool(&env, "Bash", json!({"command": "git diff"}));
    assert_eq!(prompt(&env, "go on"), "", "all the proof is there");
}
