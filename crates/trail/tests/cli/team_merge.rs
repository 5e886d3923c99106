//! A team's project journals: two clones of one project record decisions on both sides and
//! merge with real git, without conflicts (issue 24).

use std::path::Path;

use crate::common::TestEnv;

/// git in the working tree `dir`, which must succeed; its stdout.
fn ok(dir: &Path, args: &[&str]) -> String {
    trail_testkit::git::git_ok(dir, args)
}

fn decide(env: &TestEnv, title: &str, decision: &str) {
    env.ok(&[
        "decide",
        "--title",
        title,
        "--decision",
        decision,
        "--rationale",
        "the team agreed",
    ]);
}

#[test]
fn two_clones_decisions_merge_without_conflicts_and_both_are_kept() {
    let origin = tempfile::tempdir().unwrap();
    let origin = origin.path().join("app.git");
    ok(
        origin.parent().unwrap(),
        &["init", "--bare", "-q", "-b", "main", "app.git"],
    );
    let (a, b) = (TestEnv::new(), TestEnv::new());
    ok(&a.cwd, &["init", "-q", "-b", "main"]);
    std::fs::write(a.cwd.join("README.md"), "# app\n").unwrap();
    a.ok(&["init"]);
    decide(&a, "Start", "a first decision both clones share");
    ok(
        &a.cwd,
        &["add", "README.md", ".gitattributes", ".trail", "NOTES.md"],
    );
    ok(&a.cwd, &["commit", "-q", "-m", "start"]);
    ok(&a.cwd, &["push", "-q", origin.to_str().unwrap(), "main"]);
    ok(&b.cwd, &["clone", "-q", origin.to_str().unwrap(), "."]);
    b.ok(&["init"]);
    // Each side decides, and commits.
    decide(&a, "Use Postgres", "Postgres for orders");
    decide(&b, "Use Redis", "Redis for sessions");
    decide(&b, "Cache for a day", "sessions expire after 24h");
    for (env, what) in [(&a, "a decides"), (&b, "b decides")] {
        ok(&env.cwd, &["add", ".trail", "NOTES.md"]);
        ok(&env.cwd, &["commit", "-q", "-m", what]);
    }
    ok(&a.cwd, &["push", "-q", origin.to_str().unwrap(), "main"]);
    let merged = trail_testkit::git::git(
        &b.cwd,
        &[
            "pull",
            "--no-rebase",
            "-q",
            origin.to_str().unwrap(),
            "main",
        ],
    );
    assert!(
        merged.status.success(),
        "the merge conflicted: {}{}",
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&merged.stderr)
    );
    let notes = std::fs::read_to_string(b.cwd.join("NOTES.md")).unwrap();
    assert!(!notes.contains("<<<<<<<"), "{notes}");
    for title in ["Start", "Use Postgres", "Use Redis", "Cache for a day"] {
        assert_eq!(
            notes.matches(&format!(" - {title}\n")).count(),
            1,
            "{title} once: {notes}"
        );
    }
    assert_eq!(
        notes.matches("**Rationale**: the team agreed").count(),
        4,
        "every entry whole: {notes}"
    );
    // The trajectory holds all four decisions, each once.
    let mut lines = Vec::new();
    for e in std::fs::read_dir(b.cwd.join(".trail/trajectory")).unwrap() {
        lines.extend(
            std::fs::read_to_string(e.unwrap().path())
                .unwrap()
                .lines()
                .map(String::from),
        );
    }
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains("\"phase\":\"decision\""))
            .count(),
        4,
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("<<<<<<<")));
    // And trail reads the merged log back: the last decisions of both people.
    let st = b.ok(&["notes", "where"]);
    assert!(st.contains("NOTES.md"), "{st}");
}
