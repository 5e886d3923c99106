//! A project is a repository (issue 11, item 2): its worktrees are one project, two
//! repositories called `app` are two. Every repository here is a real `git` checkout.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::*;
use crate::e2e::git;

/// A repository at `dir` with one commit on `main`.
fn repo(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let ok = |args: &[&str]| assert!(git(dir, args).status.success(), "git {args:?}");
    ok(&["init", "-q", "-b", "main"]);
    std::fs::write(dir.join("README.md"), "hello\n").unwrap();
    ok(&["add", "README.md"]);
    ok(&["commit", "-qm", "first"]);
    dir.to_path_buf()
}

/// `trail ARGS` run in `dir`; its stdout.
fn ok_in(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    let out = env.cmd(args).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "trail {args:?}: {}", stderr(&out));
    stdout(&out)
}

/// `trail status --json` in `dir`: its `project`.
fn project_of(env: &TestEnv, dir: &Path) -> Value {
    let v: Value = serde_json::from_str(&ok_in(env, dir, &["status", "--json"])).unwrap();
    v["project"].clone()
}

#[test]
fn worktrees_of_one_repository_are_one_project() {
    let env = TestEnv::new();
    let main = repo(&env.root.join("src").join("app"));
    let feature = env.root.join("elsewhere").join("app-feature");
    assert!(
        git(
            &main,
            &[
                "worktree",
                "add",
                "-q",
                "-b",
                "feature",
                feature.to_str().unwrap()
            ]
        )
        .status
        .success()
    );
    let (a, b) = (project_of(&env, &main), project_of(&env, &feature));
    assert_eq!(a["name"], "app", "{a}");
    assert_eq!(
        b["name"], "app",
        "the worktree is named after its repository: {b}"
    );
    assert_eq!(a["id"], b["id"]);
    let mut keys: Vec<&String> = a.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["id", "name"]);
    // With a remote, its name wins, in every worktree.
    git(
        &main,
        &["remote", "add", "origin", "git@example.com:acme/shop.git"],
    );
    assert_eq!(project_of(&env, &main)["name"], "shop");
    assert_eq!(project_of(&env, &feature)["name"], "shop");
    assert_eq!(project_of(&env, &feature)["id"], a["id"]);
    // A pulse observed in the worktree says which branch it was on. The hook runs elsewhere:
    // the payload's `cwd` names the project.
    let payload =
        json!({"hook_event_name":"SessionEnd","session_id":"s1","reason":"other","cwd":feature});
    let out = env
        .cmd(&["hook", "claude-code"])
        .current_dir(&env.root)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .unwrap()
                .write_all(payload.to_string().as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    let log: Value = serde_json::from_str(&env.ok(&["log", "--json", "--limit", "1"])).unwrap();
    let tags = log[0]["tags"].to_string();
    assert_eq!(log[0]["focus"][0]["proj"], "shop", "{log}");
    assert!(tags.contains("branch:feature"), "{tags}");
    assert!(
        tags.contains(&format!("project:{}", a["id"].as_str().unwrap())),
        "{tags}"
    );
}

#[test]
fn two_unrelated_repositories_named_app_are_two_projects() {
    let env = TestEnv::new();
    let x = repo(&env.root.join("x").join("app"));
    let y = repo(&env.root.join("y").join("app"));
    let (a, b) = (project_of(&env, &x), project_of(&env, &y));
    assert_eq!(
        (a["name"].as_str(), b["name"].as_str()),
        (Some("app"), Some("app"))
    );
    assert_ne!(a["id"], b["id"]);
}
