//! Fork detection (issue 12 item 11): what the agent asserts against what the journals hold, in
//! each of its three families (a contradicting decision, a stale Active Context, a citation that
//! drifted), where the agent reads it: `trail decide`, `trail checkpoint`, SessionStart. Each is
//! journalled as `fork_detected`; the cases that must not fire are here too.

use serde_json::{Value, json};

use crate::common::*;

fn project() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    std::fs::create_dir_all(env.cwd.join("src")).unwrap();
    std::fs::write(
        env.cwd.join("src/store.rs"),
        "pub fn open() {}\npub fn put(k: &str) {}\n",
    )
    .unwrap();
    std::fs::write(
        env.cwd.join("active_context.yaml"),
        "schema_version: 4\nmode: active\nobjective: Rotate refresh tokens on every use\nplan:\n  - description: write the rotation\n    status: completed\n  - description: wire rotation into login\n    status: in_progress\n",
    )
    .unwrap();
    env
}

fn decide(env: &TestEnv, title: &str, decision: &str, rationale: &str) -> Value {
    let out = env.ok(&[
        "decide",
        "--title",
        title,
        "--decision",
        decision,
        "--rationale",
        rationale,
        "--evidence",
        "`pub fn open() {}` [${PROJECT_ROOT}/src/store.rs:1]",
        "--json",
    ]);
    serde_json::from_str(&out).unwrap()
}

fn forks(env: &TestEnv) -> Vec<Value> {
    let v: Value =
        serde_json::from_str(&env.ok(&["trajectory", "--json", "--phase", "fork_detected"]))
            .unwrap();
    v["entries"].as_array().unwrap().clone()
}

#[test]
fn a_decision_that_contradicts_the_last_one_on_its_topic_is_a_fork_until_it_names_it() {
    let env = project();
    let first = decide(
        &env,
        "Token storage backend",
        "store refresh tokens in Redis",
        "fast",
    );
    assert!(first.get("forks").is_none(), "{first}");
    // The same topic, decided otherwise, without a word about the first: a fork.
    let out = env.ok(&[
        "decide",
        "--title",
        "Backend for token storage",
        "--decision",
        "store refresh tokens in Postgres",
        "--rationale",
        "durable",
    ]);
    assert!(out.contains("fork: the decision ["), "{out}");
    assert!(
        out.contains(&format!("contradicts [{}]", first["id"].as_str().unwrap())),
        "{out}"
    );
    let logged = forks(&env);
    assert_eq!(logged.len(), 1, "{logged:?}");
    assert_eq!(logged[0]["kind"], "decision");
    assert!(logged[0]["journal"].as_str().unwrap().contains("Redis"));
    // Said again in the same words: it agrees with the latest on the topic.
    let again = decide(
        &env,
        "Token storage backend",
        "Store refresh tokens in Postgres.",
        "x",
    );
    assert!(again.get("forks").is_none(), "{again}");
    // A refinement, another topic, a supersession that names the decision: none is a fork.
    let refined = decide(
        &env,
        "Token storage backend",
        "store refresh tokens in Postgres with a 30 day TTL",
        "x",
    );
    assert!(refined.get("forks").is_none(), "{refined}");
    let other = decide(&env, "Login page copy", "say sign in, not log in", "x");
    assert!(other.get("forks").is_none(), "{other}");
    let superseding = decide(
        &env,
        "Token storage backend",
        "keep refresh tokens in memory only",
        &format!(
            "supersedes {}: tokens must not outlive the process",
            refined["id"].as_str().unwrap()
        ),
    );
    assert!(superseding.get("forks").is_none(), "{superseding}");
    assert_eq!(forks(&env).len(), 1);
}

#[test]
fn checkpoint_reports_a_stale_active_context_and_a_drifted_citation_and_journals_them() {
    let env = project();
    let d = decide(&env, "Open the store first", "open before put", "order");
    // The agent's NOTES.md names other work; the cited line moved.
    let notes = std::fs::read_to_string(env.cwd.join("NOTES.md")).unwrap();
    let stale = notes
        .lines()
        .map(|l| {
            if l.starts_with("- **Current Task**:") {
                "- **Current Task**: Migrate the billing schema to v3".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(env.cwd.join("NOTES.md"), stale).unwrap();
    std::fs::write(
        env.cwd.join("src/store.rs"),
        "// the store\npub fn open() {}\npub fn put(k: &str) {}\n",
    )
    .unwrap();
    let out = env.run(&["checkpoint"]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "fork: NOTES.md's Active Context says Current Task \"Migrate the billing schema to v3\""
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "fork: [{}] Open the store first: [${{PROJECT_ROOT}}/src/store.rs:1] was verified when recorded; now drifted (the quote is at line 2)",
            d["id"].as_str().unwrap()
        )),
        "{text}"
    );
    let kinds: Vec<String> = forks(&env)
        .iter()
        .map(|f| f["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["active_context", "citation"]);
    // The checkpoint wrote Active Context from the state file: that fork is gone; the code has
    // not moved back, so the drift is reported again.
    let v: Value = serde_json::from_str(&stdout(&env.run(&["checkpoint", "--json"]))).unwrap();
    let again: Vec<&str> = v["forks"]
        .as_array()
        .map(|a| a.iter().map(|f| f["kind"].as_str().unwrap()).collect())
        .unwrap_or_default();
    assert_eq!(again, ["citation"], "{v}");
    assert!(
        v["forks"][0]["said"]
            .as_str()
            .unwrap()
            .starts_with("fork: ")
    );
}

#[test]
fn a_checkpoint_that_agrees_with_the_journals_reports_no_fork() {
    let env = project();
    decide(&env, "Open the store first", "open before put", "order");
    let v: Value = serde_json::from_str(&stdout(&env.run(&["checkpoint", "--json"]))).unwrap();
    assert!(v.get("forks").is_none(), "{v}");
    assert!(forks(&env).is_empty());
}

#[test]
fn session_start_says_a_stale_active_context_once_per_context() {
    let env = project();
    decide(&env, "Open the store first", "open before put", "order");
    std::fs::write(
        env.cwd.join("NOTES.md"),
        "## Session Continuity\n### Active Context\n- **Current Task**: Migrate the billing schema to v3\n",
    )
    .unwrap();
    let start = |source: &str| {
        let v = hook(
            &env,
            json!({"hook_event_name":"SessionStart","session_id":"s1","source":source,"cwd":env.cwd}),
        );
        v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let ctx = start("resume");
    assert!(
        ctx.contains("what disagrees with the journals (they win):\n- fork: NOTES.md's Active Context says Current Task \"Migrate the billing schema to v3\", the state file says objective \"Rotate refresh tokens on every use\", step 2/2 \"wire rotation into login\" in flight"),
        "{ctx}"
    );
    assert_eq!(forks(&env).len(), 1);
    // Resumed again: the conversation holds it; neither said nor journalled again.
    let again = start("resume");
    assert!(!again.contains("fork:"), "{again}");
    assert_eq!(forks(&env).len(), 1);
    // A fresh start gives no packet and says no fork.
    assert!(!start("startup").contains("fork:"));
}
