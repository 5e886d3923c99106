//! The attention budget (issue 12 item 8, Lossless Ledger FR-4) through the real binary: zones
//! counted from the session's start, delta-synthesis at yellow, advice at orange, red per
//! enforcement (strict holds edits until a checkpoint passes), one count per session.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{TestEnv, code, denied, hook};

fn project() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env
}

/// A main-chain answer whose context was `tokens`.
fn answer(t: &Path, tokens: u64) {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(t)
        .unwrap();
    let line = json!({"type":"assistant","message":{"id":format!("m{tokens}"),"role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":tokens,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}});
    writeln!(f, "{line}").unwrap();
}

/// A prompt of the session whose transcript is `t`; the context trail adds.
fn ask(env: &TestEnv, t: &Path) -> String {
    let v = hook(
        env,
        json!({"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"go on","transcript_path":t}),
    );
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// PreToolUse of `name` in the session whose transcript is `t`.
fn tool(env: &TestEnv, t: &Path, name: &str, input: Value) -> Value {
    hook(
        env,
        json!({"hook_event_name":"PreToolUse","session_id":"s1","tool_name":name,"tool_input":input,"transcript_path":t}),
    )
}

fn edit(env: &TestEnv, t: &Path) -> Value {
    let file = env.cwd.join("src.rs");
    tool(
        env,
        t,
        "Edit",
        json!({"file_path":file,"old_string":"a","new_string":"b"}),
    )
}

/// A session whose first answer had a context of 20k tokens.
fn transcript(env: &TestEnv, name: &str) -> PathBuf {
    let t = env.root.join(name);
    answer(&t, 20_000);
    t
}

fn phases(env: &TestEnv, phase: &str) -> Vec<Value> {
    let tr: Value =
        serde_json::from_str(&env.ok(&["trajectory", "--phase", phase, "--json"])).unwrap();
    tr["entries"].as_array().unwrap().clone()
}

#[test]
fn zones_count_added_tokens_and_yellow_persists_without_clearing() {
    let env = project();
    let t = transcript(&env, "t.jsonl");
    // The proof log holds what the session did; delta-synthesis takes files and commands there.
    for (name, input) in [
        (
            "Edit",
            json!({"file_path": env.cwd.join("src/a.rs"), "old_string": "a", "new_string": "b"}),
        ),
        ("Bash", json!({"command": "cargo test -p core"})),
    ] {
        hook(
            &env,
            json!({"hook_event_name":"PostToolUse","session_id":"s1","tool_name":name,"tool_input":input,"tool_response":{"stdout":"ok"}}),
        );
    }
    assert_eq!(ask(&env, &t), "", "green says nothing");
    answer(&t, 25_500);
    let said = ask(&env, &t);
    assert!(
        said.contains(
            "attention budget yellow: 5500 tokens added to the context since the session started"
        ),
        "{said}"
    );
    assert!(
        said.contains("delta_sync") && said.contains("nothing was cleared"),
        "{said}"
    );
    answer(&t, 26_000);
    assert_eq!(ask(&env, &t), "", "a zone is acted on once");
    // Delta-synthesis: one trajectory entry and one checkpoint pulse.
    let entries = phases(&env, "delta_sync");
    assert_eq!(entries.len(), 1, "{entries:?}");
    let e = &entries[0];
    assert_eq!(
        (e["zone"].as_str(), e["tokens"].as_u64()),
        (Some("yellow"), Some(5500))
    );
    assert!(e["files"].to_string().contains("src/a.rs"), "{e}");
    assert!(
        e["commands"].to_string().contains("cargo test -p core"),
        "{e}"
    );
    let log = env.ok(&["log", "--json", "--type", "checkpoint"]);
    assert!(log.contains("delta-sync at yellow"), "{log}");
    answer(&t, 30_000);
    let orange = ask(&env, &t);
    assert!(
        orange.contains("attention budget orange") && orange.contains("recommend /clear"),
        "{orange}"
    );
    assert_eq!(ask(&env, &t), "", "orange is said once");
    answer(&t, 36_000);
    let red = ask(&env, &t);
    assert!(
        red.contains("budget red") && red.contains("MANDATORY"),
        "{red}"
    );
    assert!(ask(&env, &t).contains("MANDATORY"), "warn: red repeats");
    // Warn never holds an edit.
    assert_eq!(denied(&edit(&env, &t)), None);
    assert_eq!(
        phases(&env, "delta_sync").len(),
        1,
        "persisted once per count"
    );
}

#[test]
fn one_answer_past_yellow_still_persists_once() {
    let env = project().env("TRAIL_GROUNDING_ENFORCEMENT", "disabled");
    let t = transcript(&env, "t.jsonl");
    ask(&env, &t);
    answer(&t, 60_000);
    let said = ask(&env, &t);
    assert!(
        said.contains("budget red") && said.contains("delta_sync entry"),
        "{said}"
    );
    assert_eq!(phases(&env, "delta_sync").len(), 1);
    // Disabled: red is said once, and nothing is held.
    answer(&t, 61_000);
    assert_eq!(ask(&env, &t), "");
    assert_eq!(denied(&edit(&env, &t)), None);
}

#[test]
fn strict_red_holds_edits_until_a_checkpoint_passes() {
    let env = project().env("TRAIL_GROUNDING_ENFORCEMENT", "strict");
    let t = transcript(&env, "t.jsonl");
    ask(&env, &t);
    answer(&t, 40_000);
    let said = ask(&env, &t);
    assert!(said.contains("new edits are refused"), "{said}");
    assert!(
        ask(&env, &t).contains("new edits are refused"),
        "strict says so on every prompt"
    );
    let why = denied(&edit(&env, &t)).expect("the edit is held");
    assert!(
        why.contains("attention budget is red (20000 tokens added")
            && why.contains("trail checkpoint"),
        "{why}"
    );
    for (name, input) in [
        (
            "Write",
            json!({"file_path": env.cwd.join("new.rs"), "content": "x"}),
        ),
        (
            "MultiEdit",
            json!({"file_path": env.cwd.join("src.rs"), "edits": [{"old_string": "a", "new_string": "b"}]}),
        ),
        (
            "apply_patch",
            json!({"command": "*** Begin Patch\n*** Add File: new.rs\n+x\n*** End Patch\n"}),
        ),
    ] {
        let v = tool(&env, &t, name, input);
        assert!(denied(&v).is_some(), "{name}: {v}");
    }
    // Reads, commands, the checkpoint itself, and the files a checkpoint asks to be updated run.
    let allowed = [
        ("Read", json!({"file_path": env.cwd.join("src.rs")})),
        ("Bash", json!({"command": "trail checkpoint"})),
        ("Bash", json!({"command": "cargo test"})),
        (
            "Edit",
            json!({"file_path": env.cwd.join("NOTES.md"), "old_string": "a", "new_string": "b"}),
        ),
        (
            "Write",
            json!({"file_path": env.cwd.join("active_context.yaml"), "content": "objective: x\n"}),
        ),
    ];
    for (name, input) in allowed {
        let v = tool(&env, &t, name, input.clone());
        assert_eq!(denied(&v), None, "{name} {input}");
    }
    // Another session of the project has a count of its own: it is not held.
    let other = transcript(&env, "other.jsonl");
    ask(&env, &other);
    assert_eq!(denied(&edit(&env, &other)), None);
    assert!(
        denied(&edit(&env, &t)).is_some(),
        "still held for the red session"
    );
    // The agent cannot lift the hold by rewriting the budget's mark.
    let forged = tool(
        &env,
        &t,
        "Write",
        json!({"file_path": env.cwd.join(".trail/state/attention"), "content": "{}"}),
    );
    assert!(denied(&forged).is_some(), "{forged}");
    // A checkpoint that is blocked lifts nothing.
    assert_eq!(code(&env.run(&["checkpoint"])), 1);
    assert!(denied(&edit(&env, &t)).is_some());
    // One that passes lifts it at once.
    std::fs::write(env.cwd.join("src.rs"), "fn main() {}\n").unwrap();
    env.ok(&[
        "decide",
        "--title",
        "Hold edits at strict red",
        "--decision",
        "the guard refuses edits until a checkpoint passes",
        "--rationale",
        "the PRD halts new work at red",
        "--evidence",
        "`fn main() {}` [${PROJECT_ROOT}/src.rs:1]",
        "--test",
        "happy: a checkpoint lifts the hold",
        "--test",
        "edge: NOTES.md stays editable",
        "--test",
        "error: a blocked checkpoint lifts nothing",
    ]);
    env.ok(&["checkpoint"]);
    assert_eq!(
        denied(&edit(&env, &t)),
        None,
        "the checkpoint lifts the hold"
    );
    // And the count starts again from it.
    answer(&t, 41_000);
    assert_eq!(ask(&env, &t), "");
    answer(&t, 47_000);
    let said = ask(&env, &t);
    assert!(
        said.contains("yellow: 6000 tokens added to the context since the last checkpoint"),
        "{said}"
    );
}

#[test]
fn a_compaction_lifts_the_count_and_the_hold() {
    let env = project().env("TRAIL_GROUNDING_ENFORCEMENT", "strict");
    let t = transcript(&env, "t.jsonl");
    ask(&env, &t);
    answer(&t, 40_000);
    ask(&env, &t);
    assert!(denied(&edit(&env, &t)).is_some());
    let mut f = std::fs::OpenOptions::new().append(true).open(&t).unwrap();
    writeln!(
        f,
        "{}",
        json!({"type":"system","subtype":"compact_boundary"})
    )
    .unwrap();
    answer(&t, 12_000);
    assert_eq!(ask(&env, &t), "", "a fresh count is green");
    assert_eq!(denied(&edit(&env, &t)), None);
}

/// A payload Codex 0.169 sent (`tests/data/payloads/codex_*.json`), pointed at this project
/// and at `rollout`.
fn codex_payload(env: &TestEnv, file: &str, nth: usize, rollout: &Path) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../trail-core/tests/data/payloads")
        .join(file);
    let all: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut v = all[nth].clone();
    v["cwd"] = json!(env.cwd);
    v["transcript_path"] = json!(rollout);
    v
}

#[test]
fn codex_sessions_are_measured_from_their_rollout() {
    let env = project().env("TRAIL_GROUNDING_ENFORCEMENT", "strict");
    let rollout = env.root.join("rollout.jsonl");
    // The rollout's own lines, as Codex 0.169 writes them: its session_meta, then token counts.
    let real = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../trail-core/tests/data/rollouts/codex-0.169.0_exec_then_resume.jsonl"),
    )
    .unwrap();
    let meta = real.lines().next().unwrap().to_string();
    let count_line = real
        .lines()
        .find(|l| l.contains("\"token_count\"") && l.contains("\"last_token_usage\""))
        .unwrap()
        .to_string();
    let count = |n: u64| count_line.replace("150000", &n.to_string());
    std::fs::write(&rollout, format!("{meta}\n{}\n", count(30_000))).unwrap();
    let codex = |payload: &Value| {
        let out = env.run_stdin(&["hook", "codex"], &payload.to_string());
        assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let prompt = codex_payload(&env, "codex_user_prompt_submit.json", 0, &rollout);
    let patch = codex_payload(&env, "codex_pre_tool_use.json", 2, &rollout);
    assert_eq!(codex(&prompt).trim(), "");
    assert_eq!(codex(&patch).trim(), "", "green holds nothing");
    std::fs::write(
        &rollout,
        format!("{meta}\n{}\n{}\n", count(30_000), count(46_000)),
    )
    .unwrap();
    let said = codex(&prompt);
    assert!(
        said.contains("attention budget red: 16000 tokens added"),
        "{said}"
    );
    let held = codex(&patch);
    assert!(held.contains("attention budget is red"), "{held}");
    // A shell command is not an edit the guard can hold.
    let bash = codex_payload(&env, "codex_pre_tool_use.json", 1, &rollout);
    assert!(!codex(&bash).contains("attention budget"));
}

fn budget(env: &TestEnv, t: &Path) -> Value {
    serde_json::from_str(&env.ok(&["budget", "--transcript", t.to_str().unwrap(), "--json"]))
        .unwrap()
}

#[test]
fn budget_shows_the_zone_fill_and_where_the_baseline_comes_from() {
    let env = project();
    let t = transcript(&env, "t.jsonl");
    answer(&t, 31_000);
    let b = budget(&env, &t);
    assert_eq!(b["zone"], "orange");
    assert_eq!(
        (&b["added"], &b["context"], &b["baseline"], &b["window"]),
        (
            &json!(11_000),
            &json!(31_000),
            &json!(20_000),
            &json!(200_000)
        )
    );
    assert_eq!(b["basis"], "session_start");
    assert_eq!(b["next"], json!({"zone": "red", "at": 15_000}));
    assert_eq!(
        (&b["enforcement"], &b["enforcement_from"]),
        (&json!("warn"), &json!("default"))
    );
    assert_eq!(
        (&b["edits_held"], &b["measured_by_hook"]),
        (&json!(false), &json!(false))
    );
    let text = env.ok(&["budget", "--transcript", t.to_str().unwrap()]);
    assert!(
        text.starts_with(
            "orange: 11000 tokens added to the context since the session's first answer (20000 tokens)\n\
             context: 31000 of 200000 tokens (15.5% full; the window from the default (the model is not one trail knows))\n\
             zones (added tokens): yellow 5000, orange 10000, red 15000; red in 4000 tokens\n\
             enforcement: warn (from default)\n\
             orange: run `trail checkpoint`, then /clear"
        ),
        "{text}"
    );
    assert!(
        text.contains("no hook has measured this session yet"),
        "{text}"
    );
    // It only looks: no mark is left, so the hook still acts on entering orange.
    assert!(!env.cwd.join(".trail/state/attention").exists());
    assert!(ask(&env, &t).contains("attention budget orange"));
    assert_eq!(budget(&env, &t)["measured_by_hook"], true);
    // Configurable zones; an order that does not grow is refused, saying what to set.
    let env2 = env.env("TRAIL_ATTENTION_RED", "11000");
    assert_eq!(budget(&env2, &t)["zone"], "red");
    let bad = env2.env("TRAIL_ATTENTION_ORANGE", "20000");
    let out = bad.run(&["budget", "--transcript", t.to_str().unwrap()]);
    assert_eq!(code(&out), 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("attention.yellow < attention.orange"),
        "{out:?}"
    );
}

#[test]
fn budget_after_a_checkpoint_counts_from_it_and_says_the_hold_is_gone() {
    let env = project().env("TRAIL_GROUNDING_ENFORCEMENT", "strict");
    let t = transcript(&env, "t.jsonl");
    ask(&env, &t);
    answer(&t, 40_000);
    ask(&env, &t);
    let b = budget(&env, &t);
    assert_eq!(
        (&b["zone"], &b["edits_held"]),
        (&json!("red"), &json!(true))
    );
    let text = env.ok(&["budget", "--transcript", t.to_str().unwrap()]);
    assert!(
        text.contains("red: new edits are held until `trail checkpoint` passes (held now)"),
        "{text}"
    );
    std::fs::write(env.cwd.join("src.rs"), "fn main() {}\n").unwrap();
    env.ok(&[
        "decide",
        "--title",
        "Count from the checkpoint",
        "--decision",
        "a passing checkpoint restarts the count",
        "--rationale",
        "the PRD counts a working set",
        "--evidence",
        "`fn main() {}` [${PROJECT_ROOT}/src.rs:1]",
        "--test",
        "happy",
        "--test",
        "edge",
        "--test",
        "error",
    ]);
    env.ok(&["checkpoint"]);
    answer(&t, 41_000);
    let b = budget(&env, &t);
    assert_eq!(
        (&b["zone"], &b["basis"], &b["added"], &b["edits_held"]),
        (
            &json!("green"),
            &json!("checkpoint"),
            &json!(0),
            &json!(false)
        )
    );
    assert!(
        b["baseline_source"]
            .as_str()
            .unwrap()
            .starts_with("the first measure after the checkpoint that passed at "),
        "{b}"
    );
}

#[test]
fn budget_finds_the_newest_session_or_says_what_to_pass() {
    let env = project();
    // No session file anywhere: a clear error naming where it looked, and what to pass.
    let out = env.run(&["budget"]);
    assert_eq!(code(&out), 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no Claude Code transcript for this project") && err.contains("--transcript"),
        "{err}"
    );
    let out = env.run(&["budget", "--transcript", "/nonexistent/t.jsonl"]);
    assert_eq!(code(&out), 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot read /nonexistent/t.jsonl"),
        "{out:?}"
    );
    // A session file with no answer yet.
    let empty = env.root.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    assert_eq!(budget(&env, &empty)["zone"], "unknown");
    assert!(
        env.ok(&["budget", "--transcript", empty.to_str().unwrap()])
            .starts_with("unknown: ")
    );
    // Claude Code keeps the project's transcripts under ~/.claude/projects/<its path as a slug>.
    let slug: String = env
        .cwd
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = env.home.join(".claude/projects").join(slug);
    std::fs::create_dir_all(&dir).unwrap();
    let t = dir.join("session.jsonl");
    answer(&t, 20_000);
    answer(&t, 26_000);
    let b: Value = serde_json::from_str(&env.ok(&["budget", "--json"])).unwrap();
    assert_eq!((&b["zone"], &b["added"]), (&json!("yellow"), &json!(6_000)));
    assert_eq!(b["transcript"], json!(t));
}

/// Found by issue 21: a payload without `transcript_path` inherited the strict red hold of
/// whichever session was measured last, and the hold's "setting grounding enforcement to warn
/// lets edits through" was false until the next prompt re-measured.
#[test]
fn a_hold_is_its_own_sessions_and_follows_the_enforcement_in_force() {
    let env = project().env("TRAIL_GROUNDING_ENFORCEMENT", "strict");
    let t = transcript(&env, "t.jsonl");
    ask(&env, &t);
    answer(&t, 40_000);
    assert!(ask(&env, &t).contains("new edits are refused"));
    assert!(denied(&edit(&env, &t)).is_some(), "this session is held");
    // Another call that names no session file: not held.
    let file = env.cwd.join("src.rs");
    let other = hook(
        &env,
        json!({"hook_event_name":"PreToolUse","session_id":"s2","tool_name":"Edit",
               "tool_input":{"file_path":file,"old_string":"a","new_string":"b"}}),
    );
    assert_eq!(denied(&other), None, "{other}");
    // Enforcement set to warn: the held session's next edit goes through at once.
    let mut warn = env;
    warn.extra_env
        .retain(|(k, _)| k != "TRAIL_GROUNDING_ENFORCEMENT");
    let warn = warn.env("TRAIL_GROUNDING_ENFORCEMENT", "warn");
    let v = edit(&warn, &t);
    assert_eq!(denied(&v), None, "{v}");
}

/// Found by issue 21: yellow wrote only a pulse (the PRD's delta-synthesis also appends to
/// NOTES.md's Decision Log and logs `decisions_persisted`), and orange and red reached only the
/// agent. Now yellow brings NOTES.md up to date, and orange and red reach the person too.
#[test]
fn yellow_persists_to_notes_and_orange_and_red_reach_the_person() {
    let env = project();
    std::fs::write(env.cwd.join("a.rs"), "fn a() {}\n").unwrap();
    env.ok(&["init"]);
    env.ok(&[
        "decide",
        "--title",
        "Keep a",
        "--decision",
        "keep it",
        "--rationale",
        "used",
        "--evidence",
        "`fn a() {}` [${PROJECT_ROOT}/a.rs:1]",
    ]);
    // The Decision Log lost its entry (edited by hand): yellow brings it back.
    let notes = env.cwd.join("NOTES.md");
    let text = std::fs::read_to_string(&notes).unwrap();
    let i = text.find("#### ").unwrap();
    std::fs::write(&notes, &text[..i]).unwrap();
    let t = transcript(&env, "t.jsonl");
    let prompt = |t: &Path| {
        hook(
            &env,
            json!({"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"go on","transcript_path":t}),
        )
    };
    prompt(&t);
    answer(&t, 25_500);
    let yellow = prompt(&t);
    assert!(
        yellow.get("systemMessage").is_none(),
        "yellow is the agent's: {yellow}"
    );
    let text = std::fs::read_to_string(&notes).unwrap();
    assert!(text.contains("Keep a"), "{text}");
    assert!(text.contains("delta-sync at yellow"), "{text}");
    let e = &phases(&env, "delta_sync")[0];
    assert_eq!(e["decisions_persisted"], 1, "{e}");
    answer(&t, 30_000);
    let orange = prompt(&t);
    let told = orange["systemMessage"].as_str().unwrap_or_default();
    assert!(
        told.contains("context orange") && told.contains("/clear"),
        "{orange}"
    );
    assert!(
        prompt(&t).get("systemMessage").is_none(),
        "orange is said once"
    );
    answer(&t, 36_000);
    let red = prompt(&t);
    assert!(
        red["systemMessage"]
            .as_str()
            .unwrap_or_default()
            .contains("context red"),
        "{red}"
    );
}

/// Found by issue 22: the budget's window was fixed at 200,000, whatever model the session ran.
#[test]
fn the_window_comes_from_the_sessions_model_unless_a_person_set_it() {
    let env = project();
    let t = env.root.join("gpt.jsonl");
    std::fs::write(
        &t,
        "{\"type\":\"assistant\",\"message\":{\"model\":\"claude-sonnet-4-5[1m]\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":300000,\"output_tokens\":1}}}\n",
    )
    .unwrap();
    let b: Value =
        serde_json::from_str(&env.ok(&["budget", "--transcript", t.to_str().unwrap(), "--json"]))
            .unwrap();
    assert_eq!(b["window"], 1_000_000, "{b}");
    assert!(
        b["window_from"]
            .as_str()
            .unwrap()
            .contains("claude-sonnet-4-5[1m]"),
        "{b}"
    );
    // A person's setting wins.
    let env = env.env("TRAIL_ATTENTION_WINDOW", "500000");
    let b: Value =
        serde_json::from_str(&env.ok(&["budget", "--transcript", t.to_str().unwrap(), "--json"]))
            .unwrap();
    assert_eq!(b["window"], 500_000, "{b}");
}
