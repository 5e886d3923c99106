//! `trail checkpoint` (issue 12 item 6) and what makes "before `/clear`" real on the host: the
//! PreCompact hold in strict mode and the SessionStart note after `/clear`.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::{TestEnv, code, stderr, stdout};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn project() -> TestEnv {
    let env = TestEnv::new();
    write(
        &env.cwd.join("src/auth.rs"),
        "pub fn rotate() {}\npub fn validate(token: &str) -> bool {\n    !token.is_empty()\n}\n",
    );
    env
}

const GOOD: &str = "`pub fn rotate() {}` [${PROJECT_ROOT}/src/auth.rs:1]";

fn decide(env: &TestEnv, title: &str, evidence: &str, tests: usize) {
    let mut args = vec![
        "decide",
        "--title",
        title,
        "--decision",
        "d",
        "--rationale",
        "r",
        "--evidence",
        evidence,
    ];
    let t: Vec<String> = (0..tests).map(|i| format!("scenario {i}")).collect();
    for x in &t {
        args.extend(["--test", x.as_str()]);
    }
    env.ok(&args);
}

fn checkpoint(env: &TestEnv) -> (i32, Value) {
    let out = env.run(&["checkpoint", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", stdout(&out), stderr(&out)));
    (code(&out), v)
}

fn step<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no step {name}: {v}"))
}

fn phases(env: &TestEnv, phase: &str) -> Vec<Value> {
    let v: Value =
        serde_json::from_str(&env.ok(&["trajectory", "--json", "--phase", phase])).unwrap();
    v["entries"].as_array().unwrap().clone()
}

#[test]
fn a_grounded_session_passes_all_seven_steps_and_is_journalled() {
    let env = project().env("CLAUDE_CODE_SESSION_ID", "sess-1");
    decide(&env, "Rotate tokens", GOOD, 3);
    let (c, v) = checkpoint(&env);
    assert_eq!(c, 0, "{v}");
    assert_eq!(v["verdict"], "pass");
    let names: Vec<&str> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "grounding",
            "negative_grounding",
            "decision_log",
            "plan_and_bead",
            "trajectory_handoff",
            "decayed_to_identifiers",
            "test_scenarios"
        ]
    );
    assert_eq!(step(&v, "grounding")["verdict"], "pass");
    assert_eq!(step(&v, "negative_grounding")["verdict"], "skipped");
    assert_eq!(
        step(&v, "negative_grounding")["detail"],
        "no ghost features listed in ${PROJECT_ROOT}/NOTES.md (under a \"Ghost Features\" heading)"
    );
    assert_eq!(
        step(&v, "decision_log")["detail"],
        "1 decision recorded (session sess-1), each in NOTES.md"
    );
    // The handoff names the session's root span and the NOTES.md lines handed over.
    let h = phases(&env, "session_handoff");
    assert_eq!(h.len(), 1);
    assert_eq!(h[0]["session_id"], "sess-1");
    assert_eq!(
        (
            h[0]["edd_verified"].as_bool(),
            h[0]["next_session_ready"].as_bool()
        ),
        (Some(true), Some(true))
    );
    assert_eq!(h[0]["grounding_exact"], "1/1");
    let refs = h[0]["notes_refs"][0].as_str().unwrap();
    assert!(refs.starts_with("NOTES.md:7-"), "{refs}");
    let decisions = phases(&env, "decision");
    assert_eq!(
        decisions[0]["parent_span_id"], h[0]["root_span_id"],
        "one lineage"
    );
    let cp = phases(&env, "checkpoint");
    assert_eq!(cp[0]["verdict"], "pass");
    assert_eq!(cp[0]["steps"].as_array().unwrap().len(), 7);
    let notes = std::fs::read_to_string(env.cwd.join("NOTES.md")).unwrap();
    assert!(
        !notes.contains("- **Last Checkpoint**: none yet"),
        "{notes}"
    );
    let log: Value =
        serde_json::from_str(&env.ok(&["log", "--json", "--type", "checkpoint"])).unwrap();
    assert!(
        log[0]["facts"][0]
            .as_str()
            .unwrap()
            .starts_with("synthesis checkpoint: pass"),
        "{log}"
    );
}

#[test]
fn strict_enforcement_blocks_and_warn_only_warns() {
    let env = project().env("CLAUDE_CODE_SESSION_ID", "sess-1");
    decide(
        &env,
        "Unsupported",
        "`pub fn nowhere() {}` [${PROJECT_ROOT}/src/auth.rs:1]",
        1,
    );
    let (c, v) = checkpoint(&env);
    assert_eq!(
        (c, v["verdict"].as_str()),
        (0, Some("pass")),
        "warn is the default: {v}"
    );
    assert_eq!(v["warnings"], 2);
    assert_eq!(step(&v, "grounding")["verdict"], "fail");
    assert!(
        step(&v, "test_scenarios")["detail"]
            .as_str()
            .unwrap()
            .contains("has 1")
    );

    let strict = env.env("TRAIL_GROUNDING_ENFORCEMENT", "strict");
    let (c, v) = checkpoint(&strict);
    assert_eq!((c, v["verdict"].as_str()), (1, Some("blocked")), "{v}");
    let g = step(&v, "grounding");
    assert!(
        g["detail"]
            .as_str()
            .unwrap()
            .contains("0.000 (0/1) is below the threshold 0.95"),
        "{g}"
    );
    assert!(
        g["remedy"]
            .as_str()
            .unwrap()
            .contains("trail decide --evidence"),
        "{g}"
    );
    // The table a person reads, whole (issue 23: were a prefix and a `.contains` check).
    let text = stdout(&strict.run(&["checkpoint"]));
    insta::assert_snapshot!(crate::snapshots::normalise(&strict, &text), @r#"
    checkpoint: blocked; enforcement strict (from environment $TRAIL_GROUNDING_ENFORCEMENT)
    1. grounding               fail    0.000 (0/1) is below the threshold 0.95; without a verified citation: "Unsupported" (no citation verifies: [${PROJECT_ROOT}/src/auth.rs:1] quote-not-found)
       remedy: give each of those decisions a citation that verifies: `trail ground` lists them, `trail cite check` says why a citation fails; record the corrected decision with `trail decide --evidence '`quote` [${PROJECT_ROOT}/path:LINE]'`
    2. negative_grounding      skipped no ghost features listed in ${PROJECT_ROOT}/NOTES.md (under a "Ghost Features" heading)
    3. decision_log            pass    1 decision recorded (session sess-1), each in NOTES.md
    4. plan_and_bead           skipped no active_context.yaml; beads not in use
    5. trajectory_handoff      pass    session_handoff written to the trajectory (notes_refs NOTES.md:7-27)
    6. decayed_to_identifiers  pass    0 identifiers in the table
    7. test_scenarios          fail    short of three test scenarios: d-[ID] "Unsupported" has 1
       remedy: record the decision again under the same title with three --test (happy path, edge case, error); the latest record of a title is the one checked
    "#);
    let h = phases(&strict, "session_handoff");
    assert_eq!(h.last().unwrap()["next_session_ready"], false);

    // Recording the decision again with a quote that verifies and three scenarios clears it.
    decide(&strict, "Unsupported", GOOD, 3);
    let (c, v) = checkpoint(&strict);
    // The first record stays ungrounded in the ratio (1/2): still blocked on grounding only.
    assert_eq!(c, 1, "{v}");
    assert_eq!(
        step(&v, "test_scenarios")["verdict"],
        "pass",
        "the latest record of a title counts"
    );
    assert_eq!(
        step(&v, "grounding")["detail"]
            .as_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap(),
        "0.500 (1/2) is below the threshold 0.95"
    );
}

#[test]
fn an_unreadable_trajectory_is_an_error_never_a_pass() {
    let env = project();
    decide(&env, "Rotate tokens", GOOD, 3);
    let dir = env.cwd.join(".trail/trajectory");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("{\"phase\":\"decision\",\"title\":\n");
    std::fs::write(&file, text).unwrap();
    let out = env.run(&["checkpoint"]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(
        stdout(&out).starts_with("checkpoint: error"),
        "{}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("never a pass"), "{}", stderr(&out));
}

#[test]
fn identifiers_that_no_longer_resolve_and_pasted_output_fail_the_decay_step() {
    let env = project();
    decide(&env, "Rotate tokens", GOOD, 3);
    let (_, v) = checkpoint(&env);
    assert_eq!(step(&v, "decayed_to_identifiers")["verdict"], "pass");
    std::fs::write(env.cwd.join("src/auth.rs"), "").unwrap();
    let notes = env.cwd.join("NOTES.md");
    let text = std::fs::read_to_string(&notes).unwrap().replace(
        "### Lightweight Identifiers",
        "```\nerror: build failed\n  at line 1\n```\n\n### Lightweight Identifiers",
    );
    std::fs::write(&notes, text).unwrap();
    let (_, v) = checkpoint(&env);
    let s = step(&v, "decayed_to_identifiers");
    assert_eq!(s["verdict"], "fail", "{s}");
    let d = s["detail"].as_str().unwrap();
    assert!(
        d.contains("${PROJECT_ROOT}/src/auth.rs:1 out-of-range"),
        "{d}"
    );
    assert!(d.contains(": a code block of 2 lines"), "{d}");
    assert!(s["remedy"].as_str().unwrap().contains("trail show"), "{s}");
}

#[test]
fn a_plan_with_no_step_in_flight_fails_plan_and_bead() {
    let env = project();
    write(
        &env.cwd.join("active_context.yaml"),
        "schema_version: 4\nmode: active\nobjective: ship auth\nplan:\n  - description: rotate\n    status: completed\n  - description: validate\n    status: pending\n",
    );
    decide(&env, "Rotate tokens", GOOD, 3);
    let (_, v) = checkpoint(&env);
    let s = step(&v, "plan_and_bead");
    assert_eq!(s["verdict"], "fail", "{s}");
    assert!(
        s["detail"]
            .as_str()
            .unwrap()
            .starts_with("no step of the 2-step plan is marked in progress; beads not in use"),
        "{s}"
    );
    let notes = std::fs::read_to_string(env.cwd.join("NOTES.md")).unwrap();
    assert!(
        notes.contains("- **Current Task**: ship auth — step 2/2: validate\n"),
        "{notes}"
    );
}

/// The ghost features NOTES.md lists, one of each verdict, as step 2 gives them.
fn ghost_classes(s: &Value) -> Vec<(&str, &str)> {
    s["finding"]["report"]["ghosts"]
        .as_array()
        .unwrap_or_else(|| panic!("{s}"))
        .iter()
        .map(|g| (g["feature"].as_str().unwrap(), g["class"].as_str().unwrap()))
        .collect()
}

/// Step 2 (issue 12 items 5 and 6): the ghost features NOTES.md lists are searched for, each
/// with its verdict, findings and trajectory entry. A feature the code has is said to be no
/// ghost, a confirmed ghost passes, an ambiguous one warns without blocking, and an unverified
/// one fails: under strict enforcement it blocks.
#[test]
fn ghost_features_are_checked_by_the_checkpoint_and_journalled() {
    let env = project().env("CLAUDE_CODE_SESSION_ID", "sess-g");
    let p = env.cwd.clone();
    write(&p.join("src/net.rs"), "fn check_rate_limit() {}\n");
    write(
        &p.join("docs/ui.md"),
        "Dark mode is coming.\nThe dark mode toggle lives in settings.\nDark mode follows the system.\n",
    );
    decide(&env, "Rotate tokens", GOOD, 3);
    let notes = p.join("NOTES.md");
    let mut text = std::fs::read_to_string(&notes).unwrap();
    text.push_str(
        "\n## Ghost Features\n- Rate limiting (also: throttle)\n- Offline sync (also: local replica)\n- Dark mode (also: night theme)\n",
    );
    std::fs::write(&notes, &text).unwrap();

    let (c, v) = checkpoint(&env);
    assert_eq!((c, v["verdict"].as_str()), (0, Some("pass")), "{v}");
    assert_eq!(v["warnings"], 1, "the ambiguous ghost: {v}");
    let s = step(&v, "negative_grounding");
    assert_eq!(s["verdict"], "warn", "{s}");
    assert_eq!(
        ghost_classes(s),
        [
            ("Rate limiting", "not_ghost"),
            ("Offline sync", "confirmed_ghost"),
            ("Dark mode", "high_ambiguity")
        ]
    );
    let report = &s["finding"]["report"];
    assert_eq!(
        (report["engine"].as_str(), report["notes"].as_str()),
        (Some("lexical"), Some("${PROJECT_ROOT}/NOTES.md"))
    );
    assert_eq!(report["ghosts"][2]["doc_mentions"], 3);
    assert_eq!(
        report["ghosts"][0]["queries"][1]["examples"][0],
        "${PROJECT_ROOT}/src/net.rs:1"
    );
    assert_eq!(
        s["detail"],
        "3 ghost features listed in ${PROJECT_ROOT}/NOTES.md checked with lexical search; \
         [HIGH AMBIGUITY] (for a person): Dark mode (3 doc mentions); \
         [NOT A GHOST] (the code has it: take it off the ghost list): Rate limiting \
         (${PROJECT_ROOT}/src/net.rs:1); \
         [CONFIRMED GHOST] (documented, not built): Offline sync"
    );
    assert!(
        s["remedy"].as_str().unwrap().starts_with("for a person"),
        "{s}"
    );
    // Each ghost is a negative_grounding entry in the session's trace; the checkpoint entry
    // keeps the step's verdict.
    let logged: Vec<(String, String, String)> = phases(&env, "negative_grounding")
        .iter()
        .map(|e| {
            (
                e["feature"].as_str().unwrap().to_string(),
                e["classification"].as_str().unwrap().to_string(),
                e["session_id"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want = |f: &str, c: &str| (f.to_string(), c.to_string(), "sess-g".to_string());
    assert_eq!(
        logged,
        [
            want("Rate limiting", "not_ghost"),
            want("Offline sync", "confirmed_ghost"),
            want("Dark mode", "high_ambiguity")
        ]
    );
    let cp = phases(&env, "checkpoint");
    assert_eq!(cp[0]["steps"][1]["name"], "negative_grounding");
    assert_eq!(cp[0]["steps"][1]["verdict"], "warn");

    // Ambiguity is for a person: even strict enforcement does not block on it.
    let strict = env.env("TRAIL_GROUNDING_ENFORCEMENT", "strict");
    let (c, v) = checkpoint(&strict);
    assert_eq!((c, v["verdict"].as_str()), (0, Some("pass")), "{v}");

    // A one-word ghost with no other name cannot get two different queries: unverified, and
    // never a pass. Under strict enforcement it blocks.
    text = std::fs::read_to_string(&notes).unwrap();
    text.push_str("- Billing\n");
    std::fs::write(&notes, &text).unwrap();
    let (c, v) = checkpoint(&strict);
    assert_eq!((c, v["verdict"].as_str()), (1, Some("blocked")), "{v}");
    let s = step(&v, "negative_grounding");
    assert_eq!(s["verdict"], "fail", "{s}");
    assert_eq!(ghost_classes(s)[3], ("Billing", "unverified"));
    assert!(
        s["detail"]
            .as_str()
            .unwrap()
            .contains("; [UNVERIFIED GHOST] (never counts as grounded): Billing;"),
        "{s}"
    );
    assert!(
        s["remedy"].as_str().unwrap().contains("(also: A, B)"),
        "{s}"
    );
    let shown = stdout(&strict.run(&["checkpoint"]));
    insta::assert_snapshot!(crate::snapshots::normalise(&strict, &shown), @r"
    checkpoint: blocked; enforcement strict (from environment $TRAIL_GROUNDING_ENFORCEMENT)
    1. grounding               pass    1.000 (1/1) meets the threshold 0.95
    2. negative_grounding      fail    4 ghost features listed in ${PROJECT_ROOT}/NOTES.md checked with lexical search; [UNVERIFIED GHOST] (never counts as grounded): Billing; [HIGH AMBIGUITY] (for a person): Dark mode (3 doc mentions); [NOT A GHOST] (the code has it: take it off the ghost list): Rate limiting (${PROJECT_ROOT}/src/net.rs:1); [CONFIRMED GHOST] (documented, not built): Offline sync
       remedy: an unverified ghost never counts as grounded: give it other names in NOTES.md (`- Name (also: A, B)`) so two different searches look for it, or take it off the list; `trail ghosts` checks them again
    3. decision_log            pass    1 decision recorded (session sess-g), each in NOTES.md
    4. plan_and_bead           skipped no active_context.yaml; beads not in use
    5. trajectory_handoff      pass    session_handoff written to the trajectory (notes_refs NOTES.md:7-28)
    6. decayed_to_identifiers  pass    1 identifier in the table
    7. test_scenarios          pass    1 decision checked, each with three test scenarios
    ");

    // A NOTES.md that cannot be read: its ghosts were never checked, which is an error.
    std::fs::remove_file(&notes).unwrap();
    std::os::unix::fs::symlink(p.join("docs/ui.md"), &notes).unwrap();
    let (c, v) = checkpoint(&strict);
    assert_eq!(c, 2, "{v}");
    let s = step(&v, "negative_grounding");
    assert_eq!(s["verdict"], "error", "{s}");
    assert!(
        s["detail"]
            .as_str()
            .unwrap()
            .starts_with("the ghost features were not checked: cannot read"),
        "{s}"
    );
}

/// A PreCompact payload as Claude Code sends it.
fn compact_payload(env: &TestEnv) -> String {
    json!({"hook_event_name": "PreCompact", "session_id": "s1", "cwd": env.cwd, "trigger": "manual", "custom_instructions": ""}).to_string()
}

#[test]
fn strict_mode_holds_compaction_until_a_checkpoint_passes() {
    let env = project().env("TRAIL_GROUNDING_ENFORCEMENT", "strict");
    // No decision yet: nothing to hold.
    let out = env.run_stdin(&["hook", "claude-code"], &compact_payload(&env));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    decide(&env, "Rotate tokens", GOOD, 3);
    let out = env.run_stdin(&["hook", "claude-code"], &compact_payload(&env));
    assert_eq!(code(&out), 2, "Claude Code blocks compaction on exit 2");
    // What Claude Code shows the person and the agent, whole (issue 23: was three `.contains`).
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &stderr(&out)), @r#"trail holds compaction until a synthesis checkpoint passes (grounding enforcement is strict): 1 decision since the last one that passed, the latest "Rotate tokens" (d-[ID]). Run `trail checkpoint`, fix what it reports, then compact again. Setting grounding enforcement to warn lets compaction through."#);
    let log: Value = serde_json::from_str(&env.ok(&["log", "--json", "--limit", "1"])).unwrap();
    assert!(
        log[0]["facts"][0].as_str().unwrap().contains("held"),
        "{log}"
    );
    // A checkpoint that passes lets it through.
    env.ok(&["checkpoint"]);
    let out = env.run_stdin(&["hook", "claude-code"], &compact_payload(&env));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // Under warn (the default), compaction is never held.
    let env = project();
    decide(&env, "Rotate tokens", GOOD, 3);
    let out = env.run_stdin(&["hook", "claude-code"], &compact_payload(&env));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// Found by issue 21: PreCompact held compaction under strict enforcement and otherwise ran no
/// checkpoint, though DESIGN's hook table runs a synthesis checkpoint there (non-blocking) and
/// records it. Its verdict now goes in the compaction's checkpoint record.
#[test]
fn a_compaction_records_the_synthesis_checkpoint_without_blocking() {
    let env = project();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.ok(&["init"]);
    let last = |env: &TestEnv| -> Value {
        let log: Value = serde_json::from_str(&env.ok(&["log", "--json", "--limit", "1"])).unwrap();
        log[0].clone()
    };
    decide(&env, "Rotate tokens", GOOD, 3);
    let out = env.run_stdin(&["hook", "claude-code"], &compact_payload(&env));
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // This session (s1) recorded no decision of its own: that step fails, the others pass.
    let r = last(&env);
    assert_eq!(
        r["facts"][1],
        "synthesis checkpoint before compaction: 1 does not pass (decision_log); the ghost \
         search is `trail checkpoint`'s",
        "{r}"
    );
    // A decision whose citation does not verify.
    decide(
        &env,
        "Cache sessions",
        "`pub fn cache() {}` [${PROJECT_ROOT}/src/auth.rs:1]",
        0,
    );
    let out = env.run_stdin(&["hook", "claude-code"], &compact_payload(&env));
    assert_eq!(code(&out), 0, "never blocks under warn: {}", stderr(&out));
    let r = last(&env);
    let fact = r["facts"][1].as_str().unwrap();
    assert!(
        fact.starts_with(
            "synthesis checkpoint before compaction: 2 do not pass (grounding, decision_log)"
        ),
        "{r}"
    );
    assert_eq!(r["next"][0], "trail checkpoint", "{r}");
    // It lifts nothing: the decisions still have no checkpoint after them.
    let phases = phases(&env, "checkpoint");
    assert!(phases.is_empty(), "{phases:?}");
}

#[test]
fn a_clear_after_unchecked_decisions_is_journalled_and_said() {
    let env = project();
    decide(&env, "Rotate tokens", GOOD, 3);
    let start = |source: &str| {
        let p = json!({"hook_event_name": "SessionStart", "session_id": "s2", "cwd": env.cwd, "source": source}).to_string();
        let out = env.run_stdin(&["hook", "claude-code"], &p);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        stdout(&out)
    };
    let out = start("startup");
    assert!(
        !out.contains("no synthesis checkpoint"),
        "only after /clear: {out}"
    );
    let out = start("clear");
    assert!(
        out.contains("/clear came after 1 decision with no synthesis checkpoint since"),
        "{out}"
    );
    assert!(
        out.contains("Rotate tokens") && out.contains("trail checkpoint"),
        "{out}"
    );
    let cp = phases(&env, "checkpoint");
    assert_eq!(cp.len(), 1);
    assert_eq!(cp[0]["verdict"], "missing");
    assert_eq!(cp[0]["session_id"], "s2");
    // After a checkpoint passes, a /clear says nothing of it.
    env.ok(&["checkpoint"]);
    let out = start("clear");
    assert!(!out.contains("no synthesis checkpoint"), "{out}");
}

/// Found by issue 21: a session that ended without `trail checkpoint` left no
/// `session_handoff` in the trajectory, though Loa's protocol hands every session off. SessionEnd
/// writes one, with the session's id, and no `checkpoint` entry (which would lift holds).
#[test]
fn every_session_that_ends_hands_off_in_the_trajectory() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.ok(&["init"]);
    crate::common::hook(
        &env,
        serde_json::json!({"hook_event_name":"SessionEnd","session_id":"sess-end-1","reason":"exit"}),
    );
    let t: serde_json::Value = serde_json::from_str(&env.ok(&["trajectory", "--json"])).unwrap();
    let entries = t["entries"].as_array().unwrap();
    let handoffs: Vec<&serde_json::Value> = entries
        .iter()
        .filter(|e| e["phase"] == "session_handoff")
        .collect();
    assert_eq!(handoffs.len(), 1, "{t}");
    assert_eq!(handoffs[0]["session_id"], "sess-end-1", "{t}");
    assert!(
        handoffs[0]["notes_refs"][0]
            .as_str()
            .unwrap()
            .starts_with("NOTES.md:"),
        "{t}"
    );
    assert!(!entries.iter().any(|e| e["phase"] == "checkpoint"), "{t}");
    // Outside a project trail keeps, nothing is written there.
    let bare = TestEnv::new();
    crate::common::hook(
        &bare,
        serde_json::json!({"hook_event_name":"SessionEnd","session_id":"s","reason":"exit"}),
    );
    assert!(!bare.cwd.join(".trail/trajectory").exists());
}
