//! `trail heal [--check-only]` and healing at SessionStart (issue 12 item 10), with real git.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};

use crate::common::{TestEnv, code, hook, stdout};

use trail_testkit::git::git_ok as git;

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

/// Every path under `root` (`.git/` included) and its bytes.
fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for p in crate::common::files_under(root) {
        let rel = p.strip_prefix(root).unwrap().display().to_string();
        out.insert(rel, std::fs::read(&p).unwrap_or_default());
    }
    out
}

const NOTES: &[u8] = b"# NOTES.md\n\n## Session Continuity\n\n### Decision Log\n#### 2026-01-01 - Use git plumbing\n  trailing spaces   \n";
const BEAD: &[u8] = b"{\"id\":\"bd-1\",\"status\":\"in_progress\"}\n";

fn committed(env: &TestEnv) {
    let p = &env.cwd;
    git(p, &["init", "-q"]);
    write(p, "NOTES.md", NOTES);
    write(p, ".trail/MEMORY.md", b"# Core Memory\n");
    write(p, ".beads/issues.jsonl", BEAD);
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "state zone"]);
}

fn json_of(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(out)))
}

#[test]
fn check_only_reports_and_writes_nothing_then_heal_restores_byte_for_byte() {
    let env = TestEnv::new();
    committed(&env);
    let p = &env.cwd;
    assert_eq!(code(&env.run(&["heal", "--check-only"])), 0);
    std::fs::remove_file(p.join("NOTES.md")).unwrap();
    write(p, ".beads/issues.jsonl", b"\n \n");
    let before = tree(p);
    let out = env.run(&["heal", "--check-only", "--json"]);
    assert_eq!(code(&out), 1);
    let v = json_of(&out);
    assert_eq!(v["status"], "needs_healing");
    let found: Vec<(&str, &str, &str)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["file"].as_str().unwrap(),
                f["problem"].as_str().unwrap(),
                f["source"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (".beads/issues.jsonl", "blank", "git_show"),
            ("NOTES.md", "missing", "git_show")
        ]
    );
    assert_eq!(tree(p), before, "--check-only wrote something");

    let out = env.run(&["heal"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).contains("healed NOTES.md (missing) from git's last commit"));
    assert_eq!(std::fs::read(p.join("NOTES.md")).unwrap(), NOTES);
    assert_eq!(std::fs::read(p.join(".beads/issues.jsonl")).unwrap(), BEAD);
    // Each heal is a trajectory entry.
    let t: Value =
        serde_json::from_str(&env.ok(&["trajectory", "--phase", "heal", "--json"])).unwrap();
    let files: Vec<&str> = t["entries"]
        .as_array()
        .unwrap_or_else(|| panic!("{t}"))
        .iter()
        .map(|e| e["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, [".beads/issues.jsonl", "NOTES.md"]);
    assert_eq!(code(&env.run(&["heal", "--check-only"])), 0);
}

#[test]
fn without_git_notes_come_from_the_template_in_a_project_trail_was_set_up_in() {
    let env = TestEnv::new();
    let p = &env.cwd;
    let out = env.run(&["heal", "--json"]);
    assert_eq!(code(&out), 0);
    assert_eq!(json_of(&out)["status"], "healthy");
    assert!(!p.join("NOTES.md").exists(), "nothing is invented");
    write(p, ".trail/.gitignore", b"state/\n");
    assert_eq!(code(&env.run(&["heal", "--check-only"])), 1);
    assert!(!p.join("NOTES.md").exists());
    let v = json_of(&env.run(&["heal", "--json"]));
    assert_eq!(v["status"], "healed");
    assert_eq!(v["git"], false);
    assert_eq!(v["findings"][0]["source"], "template");
    let notes = std::fs::read_to_string(p.join("NOTES.md")).unwrap();
    assert!(notes.contains("## Session Continuity"), "{notes}");
}

#[test]
fn a_symlink_in_place_of_a_view_is_reported_and_never_replaced() {
    let env = TestEnv::new();
    committed(&env);
    let p = &env.cwd;
    std::fs::remove_file(p.join("NOTES.md")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", p.join("NOTES.md")).unwrap();
    let out = env.run(&["heal"]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("cannot heal NOTES.md"),
        "{}",
        stdout(&out)
    );
    assert!(
        std::fs::symlink_metadata(p.join("NOTES.md"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn session_start_heals_says_so_and_logs_it() {
    let env = TestEnv::new();
    committed(&env);
    let p = &env.cwd;
    std::fs::remove_file(p.join("NOTES.md")).unwrap();
    let v = hook(
        &env,
        json!({"hook_event_name":"SessionStart","session_id":"s-heal","source":"startup","cwd":p}),
    );
    let ctx = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        ctx.contains("NOTES.md was missing: restored from git's last commit"),
        "{ctx}"
    );
    assert_eq!(std::fs::read(p.join("NOTES.md")).unwrap(), NOTES);
    let t: Value =
        serde_json::from_str(&env.ok(&["trajectory", "--phase", "heal", "--json"])).unwrap();
    assert_eq!(t["entries"][0]["session_id"], "s-heal");
    assert_eq!(t["entries"][0]["source"], "git_show");
}

/// NOTES.md comes back where the project keeps it (`notes.path`), from `trail heal` and at
/// SessionStart alike, and never appears at the root instead.
#[test]
fn notes_come_back_where_notes_path_keeps_them() {
    let env = TestEnv::new();
    let p = &env.cwd;
    git(p, &["init", "-q"]);
    write(
        p,
        ".trail/config.toml",
        b"[notes]\npath = \"docs/NOTES.md\"\n",
    );
    write(p, "docs/NOTES.md", NOTES);
    write(p, ".trail/MEMORY.md", b"# Core Memory\n");
    git(p, &["add", "-A"]);
    git(p, &["commit", "-qm", "notes kept in docs"]);
    assert_eq!(code(&env.run(&["heal", "--check-only"])), 0);
    std::fs::remove_file(p.join("docs/NOTES.md")).unwrap();
    let before = tree(p);
    let out = env.run(&["heal", "--check-only", "--json"]);
    assert_eq!(code(&out), 1);
    let v = json_of(&out);
    assert_eq!(v["status"], "needs_healing");
    assert_eq!(
        (
            &v["findings"][0]["file"],
            &v["findings"][0]["problem"],
            &v["findings"][0]["source"]
        ),
        (
            &json!("docs/NOTES.md"),
            &json!("missing"),
            &json!("git_show")
        )
    );
    assert_eq!(v["findings"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(tree(p), before, "--check-only wrote something");

    let out = env.run(&["heal"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("healed docs/NOTES.md (missing) from git's last commit"),
        "{}",
        stdout(&out)
    );
    assert_eq!(std::fs::read(p.join("docs/NOTES.md")).unwrap(), NOTES);
    assert!(!p.join("NOTES.md").exists(), "NOTES.md made at the root");

    // SessionStart heals the same file.
    std::fs::remove_file(p.join("docs/NOTES.md")).unwrap();
    let v = hook(
        &env,
        json!({"hook_event_name":"SessionStart","session_id":"s-moved","source":"startup","cwd":p}),
    );
    let ctx = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        ctx.contains("docs/NOTES.md was missing: restored from git's last commit"),
        "{ctx}"
    );
    assert_eq!(std::fs::read(p.join("docs/NOTES.md")).unwrap(), NOTES);
    assert!(!p.join("NOTES.md").exists(), "NOTES.md made at the root");

    // A notes.path that names no usable file is said, and everything else still heals.
    write(p, ".trail/config.toml", b"[notes]\npath = \"notes.txt\"\n");
    std::fs::remove_file(p.join(".trail/MEMORY.md")).unwrap();
    let out = env.run(&["heal"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let text = stdout(&out);
    assert!(
        text.contains("cannot heal notes.txt: notes.path")
            && text.contains("it must be a Markdown file"),
        "{text}"
    );
    assert!(
        text.contains("healed .trail/MEMORY.md (missing) from git's last commit"),
        "{text}"
    );
    assert_eq!(
        std::fs::read(p.join(".trail/MEMORY.md")).unwrap(),
        b"# Core Memory\n"
    );
    assert!(!p.join("notes.txt").exists() && !p.join("NOTES.md").exists());
}

/// Found by issue 21: a `loa-grimoire/` deleted whole was healed to the wrong place (a blank
/// template in `grimoires/loa/`), and the committed `loa-grimoire/NOTES.md` never came back.
/// Which grimoire the project keeps is decided from git, not from what is left on disk.
#[test]
fn a_legacy_grimoire_deleted_whole_comes_back_from_git() {
    let env = TestEnv::new();
    let root = &env.cwd;
    let git = |args: &[&str]| crate::e2e::git_ok(root, args);
    git(&["init", "-q"]);
    let notes = "# Loa notes\n\n## Decision Log\n\n- kept in git\n";
    write(root, "loa-grimoire/NOTES.md", notes.as_bytes());
    write(root, ".loa.config.yaml", b"grounding:\n  threshold: 0.95\n");
    git(&["add", "-A"]);
    git(&["commit", "-qm", "init"]);
    std::fs::remove_dir_all(root.join("loa-grimoire")).unwrap();
    let out = env.ok(&["heal"]);
    assert!(out.contains("loa-grimoire/NOTES.md"), "{out}");
    assert_eq!(
        std::fs::read_to_string(root.join("loa-grimoire/NOTES.md")).unwrap(),
        notes
    );
    assert!(!root.join("grimoires").exists());
}
