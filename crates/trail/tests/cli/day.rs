//! A day in the life (issue 21, "Done means"): two projects, parallel topics, a search with many
//! hits, a Loa config added mid-way, a crash, a `/clear`. What the next SessionStart gives back
//! is asserted thread by thread, and nothing earlier in the day stops grounding or the
//! checkpoint.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{TestEnv, code, stderr, stdout};

use crate::e2e::git_ok as git;

fn repo(env: &TestEnv, name: &str) -> PathBuf {
    let dir = env.root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    git(&dir, &["init", "-q", "-b", "main"]);
    dir
}

fn run_in(env: &TestEnv, dir: &Path, args: &[&str]) -> std::process::Output {
    env.cmd(args).current_dir(dir).output().unwrap()
}

fn ok_in(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    let out = run_in(env, dir, args);
    assert!(out.status.success(), "trail {args:?}: {}", stderr(&out));
    stdout(&out)
}

fn pulse(env: &TestEnv, dir: &Path, proj: &str, topic: &str, summary: &str, next: &str) {
    ok_in(
        env,
        dir,
        &[
            "pulse",
            "--proj",
            proj,
            "--topic",
            topic,
            "--intent",
            "continue",
            "--summary",
            summary,
            "--next",
            next,
        ],
    );
}

/// A hook event in `dir`; what the host would get back.
fn hook_in(env: &TestEnv, dir: &Path, payload: &Value) -> Value {
    use std::io::Write;
    let mut child = env
        .cmd(&["hook", "claude-code"])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or(Value::Null)
}

#[test]
fn a_day_of_two_projects_comes_back_thread_by_thread_after_clear() {
    let env = TestEnv::new();
    let shop = repo(&env, "shop");
    let blog = repo(&env, "blog");
    std::fs::write(shop.join("total.rs"), "pub fn total() -> u32 { 1 }\n").unwrap();
    ok_in(&env, &shop, &["init"]);
    git(&shop, &["add", "-A"]);
    git(&shop, &["commit", "-qm", "init"]);

    // Morning: the auth topic, then the other project, then billing settles (three agreeing).
    pulse(
        &env,
        &shop,
        "shop",
        "auth",
        "auth work",
        "rotate the signing keys",
    );
    pulse(
        &env,
        &blog,
        "blog",
        "launch",
        "drafting",
        "write the launch post",
    );
    for _ in 0..3 {
        pulse(
            &env,
            &shop,
            "shop",
            "billing",
            "billing work",
            "export the invoices",
        );
    }

    // A search with many hits logs a pivot.
    for i in 0..60 {
        std::fs::write(shop.join(format!("inv{i}.rs")), format!("// invoice {i}\n")).unwrap();
    }
    ok_in(&env, &shop, &["search", "--code", "invoice"]);

    // A decision, then the Loa config the PRD prescribes, then another decision.
    let evidence = "`pub fn total() -> u32 { 1 }` [${PROJECT_ROOT}/total.rs:1]";
    for title in ["Totals are whole units", "Totals stay integers"] {
        ok_in(
            &env,
            &shop,
            &[
                "decide",
                "--title",
                title,
                "--decision",
                "keep u32",
                "--rationale",
                "cents are \
                 stored as integers",
                "--evidence",
                evidence,
            ],
        );
        std::fs::write(
            shop.join(".loa.config.yaml"),
            "grounding:\n  threshold: 0.95\n",
        )
        .unwrap();
    }

    // A crash: a writer died mid-append and left a torn record at the end of the stream.
    let stream = env.trail_home.join("stream/pulses.log.md");
    let mut torn = std::fs::read(&stream).unwrap();
    torn.extend_from_slice(b"---\nschema: ledgerpulse/v1\nts: 2026-11-29T1");
    std::fs::write(&stream, torn).unwrap();

    // The person clears the context.
    let ctx = hook_in(
        &env,
        &shop,
        &json!({"hook_event_name":"SessionStart","session_id":"s2","source":"clear","cwd":shop}),
    );
    let text = ctx["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    // Thread by thread: this project's two topics with their next steps, the other project in a
    // line, the latest decision.
    assert!(text.contains("export the invoices"), "billing:\n{text}");
    assert!(text.contains("rotate the signing keys"), "auth:\n{text}");
    assert!(text.contains("blog"), "the other project:\n{text}");
    assert!(
        text.contains("Totals stay integers"),
        "the decision:\n{text}"
    );

    // Level 1 carries the newest next step.
    let brief = ok_in(&env, &shop, &["resume", "--level", "1"]);
    assert!(brief.contains("next: export the invoices"), "{brief}");

    // NOTES.md stayed where init put it, with both decisions; no second one under grimoires/.
    let notes = std::fs::read_to_string(shop.join("NOTES.md")).unwrap();
    assert!(
        notes.contains("Totals are whole units") && notes.contains("Totals stay integers"),
        "{notes}"
    );
    assert!(!shop.join("grimoires").exists());

    // The broad search did not stop grounding, and the checkpoint measures it.
    let ground = run_in(&env, &shop, &["ground"]);
    assert_eq!(code(&ground), 0, "{}", stderr(&ground));
    let checked: Value =
        serde_json::from_str(&stdout(&run_in(&env, &shop, &["checkpoint", "--json"]))).unwrap();
    let steps = checked["steps"].as_array().unwrap();
    assert!(steps.iter().all(|s| s["verdict"] != "error"), "{checked}");
    // The crash is repaired and the chain verifies.
    let verify = run_in(&env, &shop, &["verify"]);
    assert_eq!(code(&verify), 0, "{}", stdout(&verify));
}
