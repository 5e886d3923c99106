//! `trail cite check`, `trail ground` and `trail trajectory` (issue 12 items 3, 4 and 9), as the
//! contract's acceptance checks call them.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::TestEnv;

fn write(path: &Path, bytes: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn json_of(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn code(out: &std::process::Output) -> i32 {
    out.status.code().unwrap()
}

fn statuses(v: &Value) -> Vec<String> {
    v["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap().to_string())
        .collect()
}

/// The corpus tree: Loa's files at commit 883c504 (and trail's own cases).
fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../trail-core/tests/data/labelled/citations")
}

#[test]
fn every_status_from_the_cli_with_the_contract_shape() {
    let env = TestEnv::new();
    let p = &env.cwd;
    write(
        &p.join("src/lib.rs"),
        "pub fn one() {}\n\npub fn two() {}\n\tlet  x = 1;\n",
    );
    write(&p.join("empty.txt"), "");
    write(&p.join("blob.bin"), b"\x00\x01\x02\npub fn one() {}\n");
    write(&env.root.join("outside.rs"), "pub fn one() {}\n");
    std::os::unix::fs::symlink("../../outside.rs", p.join("src/out.rs")).unwrap();
    std::os::unix::fs::symlink("lib.rs", p.join("src/in.rs")).unwrap();
    let doc = "\
`pub fn one() {}` [${PROJECT_ROOT}/src/lib.rs:1]
`pub fn one() {}` [${PROJECT_ROOT}/src/lib.rs:x]
`pub fn one() {}` [src/lib.rs:1]
`pub fn one() {}` [${PROJECT_ROOT}/../outside.rs:1]
`pub fn one() {}` [${PROJECT_ROOT}/src/out.rs:1]
`pub fn one() {}` [${PROJECT_ROOT}/src/nope.rs:1]
`pub fn one() {}` [${PROJECT_ROOT}/src/lib.rs:3-9]
`let x = 1;` [${PROJECT_ROOT}/src/in.rs:4]
```
pub fn one() {}
let x = 1;
```
[${PROJECT_ROOT}/src/lib.rs:1-2]
`pub fn two() {}` [${PROJECT_ROOT}/src/lib.rs:1]
`pub fn three() {}` [${PROJECT_ROOT}/src/lib.rs:1]
[${PROJECT_ROOT}/src/lib.rs:2-3]
`anything` [${PROJECT_ROOT}/empty.txt:1]
`pub fn one() {}` [${PROJECT_ROOT}/blob.bin:2]
";
    write(&p.join("doc.md"), doc);
    let out = env.run(&["cite", "check", "--json", "doc.md"]);
    assert_eq!(code(&out), 1);
    let v = json_of(&out);
    assert_eq!(
        statuses(&v),
        [
            "verified",
            "malformed",
            "relative-path",
            "outside-root",
            "outside-root",
            "missing-file",
            "out-of-range",
            "verified",
            "partial",
            "drifted",
            "quote-not-found",
            "verified",
            "out-of-range",
            "quote-not-found",
        ]
    );
    let first = &v["citations"][0];
    assert_eq!(
        first,
        &json!({"line": 1, "citation": "[${PROJECT_ROOT}/src/lib.rs:1]", "path": "src/lib.rs",
                "start": 1, "end": 1, "status": "verified", "found_at": [], "quote": "inline"})
    );
    assert_eq!(v["citations"][9]["found_at"], json!([3]));
    assert_eq!(v["citations"][8]["found_at"], json!([4]));
    assert_eq!(v["citations"][8]["quote"], "fenced");
    // Without a quote only the range is checked, and the answer says so.
    let bare = &v["citations"][11];
    assert_eq!(bare["quote"], "none");
    assert!(
        bare["note"].as_str().unwrap().contains("no quote"),
        "{bare}"
    );
    assert!(
        v["citations"][13]["note"]
            .as_str()
            .unwrap()
            .contains("binary")
    );
    assert_eq!(v["citations"][12]["note"], "the file is empty");
    assert_eq!(v["counts"]["verified"], 3);
    assert_eq!(v["counts"]["outside-root"], 2);
    assert_eq!(v["counts"]["drifted"], 1);

    // The text form names the file, the line, the status, and where a drift went.
    let text = String::from_utf8(env.run(&["cite", "check", "doc.md"]).stdout).unwrap();
    assert!(
        text.contains("doc.md:14: drifted: [${PROJECT_ROOT}/src/lib.rs:1] (now at line 3)"),
        "{text}"
    );
    assert!(
        text.ends_with("3 verified, 1 partial, 1 drifted, 2 quote-not-found\n"),
        "{text}"
    );
}

#[test]
fn exit_zero_only_when_every_citation_verifies_and_two_on_error() {
    let env = TestEnv::new();
    write(&env.cwd.join("a.rs"), "fn a() {}\n");
    write(
        &env.cwd.join("ok.md"),
        "`fn a() {}` [${PROJECT_ROOT}/a.rs:1]\n",
    );
    assert_eq!(code(&env.run(&["cite", "check", "ok.md"])), 0);
    // A symlink to the document is followed: the name is the person's.
    std::os::unix::fs::symlink("ok.md", env.cwd.join("link.md")).unwrap();
    assert_eq!(code(&env.run(&["cite", "check", "link.md"])), 0);
    write(&env.cwd.join("none.md"), "no citations here [x]\n");
    let out = env.run(&["cite", "check", "none.md"]);
    assert_eq!(code(&out), 0);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "no citations\n");
    assert_eq!(code(&env.run(&["cite", "check", "missing.md"])), 2);
    assert_eq!(
        code(&env.run(&["cite", "check", "--root", "/nonexistent/root", "ok.md"])),
        2
    );
    // `-` reads the document from stdin.
    let out = env.run_stdin(
        &["cite", "check", "--json", "-"],
        "`fn b()` [${PROJECT_ROOT}/a.rs:1]",
    );
    assert_eq!(code(&out), 1);
    assert_eq!(statuses(&json_of(&out)), ["quote-not-found"]);
}

/// Loa's reviewer file (loa @ 883c504) against the six files it cites at that commit.
#[test]
fn the_corpus_reviewer_file_against_its_snapshot() {
    let base = corpus();
    let env = TestEnv::new().env("PROJECT_ROOT", base.join("tree").to_str().unwrap());
    let doc = base.join("loa-reviewer-v090.md");
    let out = env.run(&["cite", "check", "--json", doc.to_str().unwrap()]);
    assert_eq!(code(&out), 1);
    let v = json_of(&out);
    let got: Vec<(u64, String, Value)> = v["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["line"].as_u64().unwrap(),
                c["status"].as_str().unwrap().to_string(),
                c["found_at"].clone(),
            )
        })
        .collect();
    let want = [
        // The quoted /ride sequence is at 294, after the section grew.
        (41, "drifted", json!([294])),
        // One quoted line (`enabled: true`) is in 57-100; the rest is at 136-165, and one line
        // is not in the file at all (a comment merged into it): not found together, partial.
        (73, "partial", v["citations"][1]["found_at"].clone()),
        // index.yaml has 85 lines.
        (110, "out-of-range", json!([])),
        (133, "verified", json!([])),
        (166, "verified", json!([])),
        (195, "drifted", json!([130])),
    ];
    let want: Vec<(u64, String, Value)> = want
        .into_iter()
        .map(|(l, s, f)| (l, s.to_string(), f))
        .collect();
    assert_eq!(got, want);
    assert!(
        v["citations"][1]["found_at"]
            .as_array()
            .unwrap()
            .contains(&json!(136))
    );
}

/// One decision entry as `trail decide` writes it.
fn decision(n: usize, citation: &str, quote: &str) -> String {
    json!({
        "ts": format!("2026-01-01T10:00:{:02}.{:06}Z", n % 60, n),
        "phase": "decision", "id": format!("d{n}"), "title": format!("decision {n}"),
        "decision": "d", "rationale": "r",
        "evidence": [{"citation": citation, "quote": quote}],
        "tests": ["happy", "edge", "error"],
        "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "span_id": format!("{:016x}", n + 1),
    })
    .to_string()
}

fn decisions(env: &TestEnv, grounded: usize, total: usize) {
    write(&env.cwd.join("src/a.rs"), "fn a() {}\nfn b() {}\n");
    let lines: Vec<String> = (0..total)
        .map(|n| {
            if n < grounded {
                decision(n, "[${PROJECT_ROOT}/src/a.rs:1]", "fn a() {}")
            } else {
                decision(n, "[${PROJECT_ROOT}/src/a.rs:2]", "fn a() {}")
            }
        })
        .collect();
    write(
        &env.cwd.join(".trail/trajectory/2026-01-01.jsonl"),
        lines.join("\n") + "\n",
    );
}

#[test]
fn eighteen_of_nineteen_fails_at_095_and_is_shown_exactly() {
    let env = TestEnv::new();
    decisions(&env, 18, 19);
    let out = env.run(&["ground", "--json"]);
    assert_eq!(code(&out), 1);
    let v = json_of(&out);
    for (k, want) in [
        ("total", json!(19)),
        ("grounded", json!(18)),
        ("ratio", json!(0.947)),
        ("ratio_exact", json!("18/19")),
        ("threshold", json!("0.95")),
        ("status", json!("fail")),
    ] {
        assert_eq!(v[k], want, "{k}: {v}");
    }
    assert_eq!(v["ungrounded"][0]["decision"], "decision 18");
    assert_eq!(v["ungrounded"][0]["citations"][0]["status"], "drifted");
    let text = String::from_utf8(env.run(&["ground"]).stdout).unwrap();
    assert!(
        text.starts_with("fail: grounding 0.947 (18/19) is below the threshold 0.95"),
        "{text}"
    );

    let env = TestEnv::new();
    decisions(&env, 19, 20);
    let out = env.run(&["ground", "--json"]);
    assert_eq!(code(&out), 0);
    let v = json_of(&out);
    assert_eq!(
        (v["ratio_exact"].as_str(), v["status"].as_str()),
        (Some("19/20"), Some("pass"))
    );
    assert_eq!(v["ratio"], json!(0.95));
    // --threshold wins; a threshold with more places is shown with as many.
    let out = env.run(&["ground", "--json", "--threshold", "0.9501"]);
    assert_eq!(code(&out), 1);
    assert_eq!(json_of(&out)["ratio"], json!(0.95));
    assert_eq!(code(&env.run(&["ground", "--threshold", "0.9"])), 0);
}

#[test]
fn an_error_while_grounding_exits_two_never_zero() {
    let env = TestEnv::new();
    decisions(&env, 1, 1);
    assert_eq!(code(&env.run(&["ground"])), 0);
    // A torn line: a decision that cannot be counted.
    let f = env.cwd.join(".trail/trajectory/2026-01-02.jsonl");
    write(&f, "{\"phase\":\"decision\",\"title\":\"torn");
    let out = env.run(&["ground", "--json"]);
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2026-01-02.jsonl:1") && err.contains("hint:"),
        "{err}"
    );
    std::fs::remove_file(&f).unwrap();
    // A .loa.config.yaml that does not parse, or says nonsense.
    write(&env.cwd.join(".loa.config.yaml"), "grounding: [unclosed\n");
    assert_eq!(code(&env.run(&["ground"])), 2);
    write(
        &env.cwd.join(".loa.config.yaml"),
        "grounding_enforcement: loud\n",
    );
    let out = env.run(&["ground"]);
    assert_eq!(code(&out), 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("`loud` is not strict, warn or disabled")
    );
    std::fs::remove_file(env.cwd.join(".loa.config.yaml")).unwrap();
    for bad in ["95", "0.9.5", "-1", "abc"] {
        assert_eq!(code(&env.run(&["ground", "--threshold", bad])), 2, "{bad}");
    }
    assert_eq!(
        code(&env.run(&["ground", "--notes", "no-such-NOTES.md"])),
        2
    );
}

#[test]
fn loa_config_and_trajectory_count_and_trail_settings_win() {
    let env = TestEnv::new();
    decisions(&env, 1, 1);
    write(
        &env.cwd.join(".loa.config.yaml"),
        "paths:\n  grimoire: grimoires/loa\ngrounding_enforcement: strict\ngrounding:\n  threshold: 0.5\n  enforcement: warn\n",
    );
    let abs = env.cwd.canonicalize().unwrap().join("src/a.rs");
    let loa = [
        json!({"ts": "2025-12-27T10:30:10Z", "agent": "implementing-tasks", "phase": "cite",
               "citations": [{"claim": "a exists", "code": "fn a() {}", "path": abs, "line": 1,
                              "grounding": "citation"}]}),
        json!({"phase": "cite", "claim": "users like it", "grounding": "user_input"}),
        json!({"phase": "intent", "intent": "not a claim"}),
    ];
    let lines: Vec<String> = loa.iter().map(Value::to_string).collect();
    write(
        &env.cwd
            .join("grimoires/loa/a2a/trajectory/implementing-tasks-2025-12-27.jsonl"),
        lines.join("\n") + "\n",
    );
    let out = env.run(&["ground", "--json"]);
    let v = json_of(&out);
    assert_eq!(code(&out), 0, "{v}");
    assert_eq!(v["ratio_exact"], "2/3");
    assert_eq!(
        (v["threshold"].as_str(), v["threshold_from"].as_str()),
        (Some("0.5"), Some(".loa.config.yaml"))
    );
    assert_eq!(v["enforcement"], "strict");
    assert_eq!(v["ungrounded"][0]["decision"], "users like it");
    assert!(
        v["ungrounded"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("user_input")
    );
    // trail's own settings, when set, win over Loa's: the project's file (a TOML float keeps
    // its digits), then the environment.
    write(
        &env.cwd.join(".trail/config.toml"),
        "[grounding]\nthreshold = 0.6\nenforcement = \"disabled\"\n",
    );
    let v = json_of(&env.run(&["ground", "--json"]));
    assert_eq!(
        (v["threshold"].as_str(), v["enforcement"].as_str()),
        (Some("0.6"), Some("disabled"))
    );
    assert!(
        v["threshold_from"]
            .as_str()
            .unwrap()
            .contains(".trail/config.toml"),
        "{v}"
    );
    let env = env.env("TRAIL_GROUNDING_THRESHOLD", "0.7");
    let out = env.run(&["ground", "--json"]);
    assert_eq!(code(&out), 1);
    let v = json_of(&out);
    assert_eq!(v["threshold"], "0.7");
    assert!(
        v["threshold_from"]
            .as_str()
            .unwrap()
            .contains("TRAIL_GROUNDING_THRESHOLD")
    );
}

#[test]
fn a_notes_decision_log_counts_and_is_left_as_it_was() {
    let env = TestEnv::new();
    let notes = env.cwd.join("NOTES.md");
    let original = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../trail-core/tests/data/loa/loa_loa-grimoire_NOTES.md"),
    )
    .unwrap();
    write(&notes, &original);
    let out = env.run(&["ground", "--json", "--notes", "NOTES.md"]);
    assert_eq!(code(&out), 1);
    let v = json_of(&out);
    assert_eq!(
        (v["total"].as_u64(), v["grounded"].as_u64()),
        (Some(8), Some(0))
    );
    assert_eq!(v["ungrounded"][0]["reason"], "no citation");
    assert_eq!(std::fs::read(&notes).unwrap(), original);
}

#[test]
fn trajectory_lists_filters_and_skips_bad_lines() {
    let env = TestEnv::new();
    let handoff = json!({"ts": "2026-01-02T09:00:00.000000Z", "phase": "session_handoff",
        "session_id": "sess-002", "root_span_id": "00f067aa0ba902b7", "notes_refs": ["NOTES.md:68-92"],
        "edd_verified": true, "grounding_ratio": 0.947, "grounding_exact": "18/19",
        "next_session_ready": true, "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736",
        "span_id": "b7ad6b7169203331"});
    write(
        &env.cwd.join(".trail/trajectory/2026-01-01.jsonl"),
        format!("{}\nnot json\n", decision(1, "[${PROJECT_ROOT}/a:1]", "q")),
    );
    write(
        &env.cwd.join(".trail/trajectory/2026-01-02.jsonl"),
        format!("{handoff}\n"),
    );
    let out = env.run(&["trajectory"]);
    assert_eq!(code(&out), 0);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("2026-01-01T10:00:01.000001Z  decision")
            && lines[0].contains("decision 1 (1 citation)"),
        "{text}"
    );
    assert!(
        lines[1].contains("session_handoff") && lines[1].contains("18/19"),
        "{text}"
    );
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("1 unreadable trajectory line skipped (2026-01-01.jsonl:2)")
    );

    let v = json_of(&env.run(&["trajectory", "--json", "--phase", "session_handoff"]));
    assert_eq!(v["entries"].as_array().unwrap().len(), 1);
    assert_eq!(v["entries"][0]["notes_refs"], json!(["NOTES.md:68-92"]));
    assert_eq!(v["unreadable"][0]["line"], 2);
    let v = json_of(&env.run(&["trajectory", "--json", "--since", "2026-01-02"]));
    assert_eq!(v["entries"][0]["phase"], "session_handoff");
    assert_eq!(v["entries"].as_array().unwrap().len(), 1);
    assert_eq!(code(&env.run(&["trajectory", "--phase", "nope"])), 2);
    assert_eq!(code(&env.run(&["trajectory", "--since", "yesterday"])), 2);
}

/// Found by issue 21: `rotate_refresh_token`, `validate_token` and `compare_digest` exist in
/// the project, and each was reported `[CONFIRMED GHOST]` (the stems were joined by `[_-]?`, so
/// an identifier never matched), and the checkpoint passed the step.
#[test]
fn existing_identifiers_are_not_ghosts() {
    let env = TestEnv::new();
    let p = &env.cwd;
    write(
        &p.join("auth/tokens.py"),
        "import hmac\n\ndef rotate_refresh_token(t):\n    return validate_token(t)\n\n\
         def validate_token(t):\n    return hmac.compare_digest(t, SECRET)\n",
    );
    write(
        &p.join("NOTES.md"),
        "## Ghost Features\n- rotate_refresh_token\n- validate_token\n- compare_digest\n\
         - token rotation\n- Password reset emails\n",
    );
    let v = json_of(&env.run(&["ghosts", "--json"]));
    let classes: Vec<(&str, &str)> = v["ghosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["feature"].as_str().unwrap(), g["class"].as_str().unwrap()))
        .collect();
    assert_eq!(
        classes,
        [
            ("rotate_refresh_token", "not_ghost"),
            ("validate_token", "not_ghost"),
            ("compare_digest", "not_ghost"),
            ("token rotation", "not_ghost"),
            ("Password reset emails", "confirmed_ghost"),
        ],
        "{v}"
    );
}

/// `trail ghosts` (issue 12 item 5): two queries per ghost feature, the verdicts, the engine
/// named, exit 1 when a person must look, and one trajectory entry per feature.
#[test]
fn ghosts_are_checked_against_the_tree_and_logged() {
    let env = TestEnv::new();
    let p = &env.cwd;
    write(
        &p.join("NOTES.md"),
        "## Ghost Features\n- Rate limiting (also: throttle)\n- Offline sync (also: local replica)\n",
    );
    write(&p.join("src/net.rs"), "fn check_rate_limit() {}\n");
    let out = env.run(&["ghosts", "--json"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let v = json_of(&out);
    assert_eq!(v["engine"], "lexical");
    assert_eq!(v["notes"], "${PROJECT_ROOT}/NOTES.md");
    let classes: Vec<&str> = v["ghosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["class"].as_str().unwrap())
        .collect();
    assert_eq!(classes, ["not_ghost", "confirmed_ghost"]);
    assert_eq!(
        v["ghosts"][0]["queries"][1]["examples"][0],
        "${PROJECT_ROOT}/src/net.rs:1"
    );
    // Named on the command line: a one-word name cannot get two different queries.
    let out = env.run(&["ghosts", "Billing"]);
    assert_eq!(code(&out), 1);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[UNVERIFIED GHOST] Billing"), "{text}");
    assert!(text.contains("lexical"), "{text}");
    let t = json_of(&env.run(&["trajectory", "--phase", "negative_grounding", "--json"]));
    let logged: Vec<(&str, &str)> = t["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["feature"].as_str().unwrap(),
                e["classification"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        logged,
        [
            ("Rate limiting", "not_ghost"),
            ("Offline sync", "confirmed_ghost"),
            ("Billing", "unverified")
        ]
    );
    // A NOTES.md that cannot be read is an error, never a pass.
    assert_eq!(code(&env.run(&["ghosts", "--notes", "nope.md"])), 2);
    // The NOTES.md `trail checkpoint` reads: `notes.path` when it is set.
    write(
        &p.join("docs/NOTES.md"),
        "## Ghost Features\n- Offline sync (also: local replica)\n",
    );
    let moved = env.env("TRAIL_NOTES_PATH", "docs/NOTES.md");
    let v = json_of(&moved.run(&["ghosts", "--json"]));
    assert_eq!(v["notes"], "${PROJECT_ROOT}/docs/NOTES.md");
    assert_eq!(v["ghosts"][0]["feature"], "Offline sync");
    assert_eq!(v["ghosts"].as_array().unwrap().len(), 1);
}
