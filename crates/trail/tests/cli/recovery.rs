//! `trail resume --level 1|2|3 [--query Q] --json` (issue 12 item 7): the brief from the state
//! file, NOTES.md and decision records, within its budget as o200k counts it.

use std::path::Path;

use serde_json::Value;

use crate::common::{TestEnv, o200k};

fn corpus(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../trail-core/tests/data/loa")
            .join(name),
    )
    .unwrap()
}

/// A decision as an agent records it, and its id.
fn decide(env: &TestEnv, title: &str, rationale: &str) -> String {
    let out = env.ok(&[
        "decide",
        "--title",
        title,
        "--decision",
        title,
        "--rationale",
        rationale,
        "--json",
    ]);
    let v: Value = serde_json::from_str(&out).unwrap();
    v["id"].as_str().unwrap().to_string()
}

fn resume(env: &TestEnv, args: &[&str]) -> Value {
    let out = env.ok(&[&["resume", "--json"], args].concat());
    serde_json::from_str(&out).unwrap()
}

fn setup() -> (TestEnv, Vec<String>) {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    std::fs::write(
        env.cwd.join("active_context.yaml"),
        "schema_version: 4\nmode: active\nobjective: Ship tiered recovery and the attention budget\nplan:\n  - description: Read decision records from the pulse stream\n    status: completed\n  - description: Render level 1 within 100 o200k tokens\n    status: in_progress\n  - description: Wire the budget into the prompt hook\n    status: pending\n  - description: Wait for branch decide's checkpoint\n    status: blocked\n",
    )
    .unwrap();
    let ids = vec![
        decide(
            &env,
            "Estimate tokens without a tokenizer on the hook path",
            "tiktoken-rs only in dev-dependencies",
        ),
        decide(
            &env,
            "Read git with cat-file, never checkout",
            "smudge filters from a cloned config would run",
        ),
        decide(&env, "Unverified ghosts never count as grounded", "FR-7"),
        decide(
            &env,
            "Red zone refuses edits in strict mode only",
            "reads and trail checkpoint stay allowed",
        ),
    ];
    // A junction outcome the hooks record (tagged `decision`) is not a design decision.
    let held = crate::common::bash(&env, "git push origin main");
    assert!(crate::common::denied(&held).is_some(), "{held}");
    let said = crate::common::prompt(&env, "/edge approve");
    assert!(said.contains("carried out"), "{said}");
    (env, ids)
}

#[test]
fn level_one_is_the_brief_within_100_o200k_tokens() {
    let (env, ids) = setup();
    let v = resume(&env, &["--level", "1"]);
    let text = v["text"].as_str().unwrap();
    assert!(
        text.starts_with("objective: Ship tiered recovery"),
        "{text}"
    );
    assert!(text.contains("now: 2/4 Render level 1"), "{text}");
    assert!(text.contains("next: 3/4 Wire the budget"), "{text}");
    assert!(text.contains("blocked: Wait for branch decide"), "{text}");
    assert_eq!(
        v["brief"]["decisions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap().split(']').next().unwrap())
            .collect::<Vec<_>>(),
        [3, 2, 1].map(|i| format!("[{}", ids[i]))
    );
    assert!(!text.contains("git push"), "{text}");
    let tokens = v["tokens"].as_u64().unwrap() as usize;
    assert!(tokens <= 100, "{tokens}");
    assert!(o200k(text) <= tokens, "{} > {tokens}", o200k(text));
}

#[test]
fn level_one_stays_within_budget_with_the_corpus_notes_files() {
    for name in [
        "loa_loa-grimoire_NOTES.md",
        "henlo_faucet_grimoires_loa_NOTES.md",
        "loa_.claude_templates_NOTES.md.template",
    ] {
        let (env, ids) = setup();
        std::fs::write(env.cwd.join("NOTES.md"), corpus(name)).unwrap();
        std::fs::remove_file(env.cwd.join("active_context.yaml")).unwrap();
        let v = resume(&env, &["--level", "1"]);
        let text = v["text"].as_str().unwrap();
        let real = o200k(text);
        assert!(real <= 100, "{name}: {real}:\n{text}");
        assert!(text.contains(&format!("[{}]", ids[3])), "{name}:\n{text}");
        if name.starts_with("henlo") {
            assert!(text.contains("blocked: WalletConnect project ID"), "{text}");
        }
    }
}

#[test]
fn level_two_retrieves_for_a_query_and_shows_the_bead() {
    let (env, ids) = setup();
    // The project uses beads.
    std::fs::create_dir_all(env.cwd.join(".beads")).unwrap();
    std::fs::write(
        env.cwd.join("NOTES.md"),
        "## Session Continuity\n### Active Context\n- **Current Bead**: bd-x7y8 (recovery)\n",
    )
    .unwrap();
    // A stand-in for beads on PATH (beads itself is not installed here): what is tested is that
    // trail runs `show` on the current bead and keeps what it prints, redacted.
    let bin = env.root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let br = bin.join("br");
    std::fs::write(
        &br,
        "#!/bin/sh\necho \"$1 $2: status in_progress, token ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&br, std::fs::Permissions::from_mode(0o755)).unwrap();
    let env = env.env(
        "PATH",
        &format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
    );
    let v = resume(&env, &["--level", "2", "--query", "tokenizer"]);
    let text = v["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("decisions for \"tokenizer\":\n- [{}]", ids[0])),
        "{text}"
    );
    assert!(
        text.contains("bead bd-x7y8 (`br show`):\nshow bd-x7y8: status in_progress"),
        "{text}"
    );
    assert!(!text.contains("ghp_R2d9"), "{text}");
    assert_eq!(v["decisions"][0]["id"], ids[0].as_str());
    let tokens = v["tokens"].as_u64().unwrap() as usize;
    assert!(tokens <= 500 && o200k(text) <= tokens, "{tokens}");
    // Level 3: every decision with its facts.
    let full = resume(&env, &["--level", "3"]);
    let text = full["text"].as_str().unwrap();
    for f in [
        "tiktoken-rs only",
        "smudge filters",
        "FR-7",
        "reads and trail checkpoint",
    ] {
        assert!(text.contains(f), "{f}: {text}");
    }
}
