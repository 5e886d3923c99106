//! Beads (issue 12 item 12): with `br` on PATH and a `.beads/` project, decisions and handoffs
//! carry bead ids, NOTES.md names the current bead, and the checkpoint reports the bead in
//! progress. Never required.
//!
//! The tracker here is a scripted `br` answering from a file, as beads_rust's JSON has it
//! (`br list --status in_progress --json`): the real one is tested in `real_br_when_installed`
//! when `~/.cache/trail-e2e-beads/bin/br` exists. beads_rust 0.7.6 needs rustc 1.96 or newer
//! (a nightly will do): `cargo +nightly install beads_rust@0.7.6 --locked --no-default-features
//! --root ~/.cache/trail-e2e-beads`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{TestEnv, code, skip, stderr};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A `br` that prints `answer` (a file the test rewrites) for `list`, and fails when the file
/// says `FAIL`.
fn fake_br(env: &TestEnv) -> (PathBuf, PathBuf) {
    let bin = env.root.join("bin");
    let answer = env.root.join("br-answer.json");
    let script = format!(
        "#!/bin/sh\ncase \"$1\" in\n  list) if grep -q FAIL '{a}'; then echo 'database locked' >&2; exit 3; fi; cat '{a}' ;;\n  show) echo '{{\"id\":\"'\"$2\"'\"}}' ;;\n  comments) shift; printf '%s\\n' \"$*\" >> '{a}.comments' ;;\n  *) exit 1 ;;\nesac\n",
        a = answer.display()
    );
    write(&bin.join("br"), &script);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("br"), std::fs::Permissions::from_mode(0o755)).unwrap();
    (bin, answer)
}

fn path_with(bin: &Path) -> String {
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

fn in_progress(updated_at: &str) -> String {
    format!(
        r#"[{{"id":"bd-7","title":"Token rotation","status":"in_progress","priority":1,"issue_type":"task","updated_at":"{updated_at}"}}]"#
    )
}

/// Record a decision on `src/a.rs` (written here) that carries `bead`, with `extra` arguments.
fn decide_on_bead(env: &TestEnv, bead: &str, extra: &[&str]) {
    write(&env.cwd.join("src/a.rs"), "pub fn rotate() {}\n");
    let mut args = vec![
        "decide",
        "--title",
        "Rotate",
        "--decision",
        "d",
        "--rationale",
        "r",
        "--evidence",
        "`pub fn rotate() {}` [${PROJECT_ROOT}/src/a.rs:1]",
        "--bead",
        bead,
    ];
    args.extend_from_slice(extra);
    env.ok(&args);
}

fn step(v: &Value, name: &str) -> Value {
    v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap()
        .clone()
}

#[test]
fn the_bead_in_progress_reaches_notes_the_handoff_and_the_checkpoint() {
    let env = TestEnv::new();
    let (bin, answer) = fake_br(&env);
    let env = env.env("PATH", &path_with(&bin));
    std::fs::create_dir_all(env.cwd.join(".beads")).unwrap();
    write(&answer, &in_progress("2000-01-01T00:00:00Z"));
    decide_on_bead(&env, "bd-7", &["--test", "a", "--test", "b", "--test", "c"]);
    let notes = std::fs::read_to_string(env.cwd.join("NOTES.md")).unwrap();
    assert!(
        notes.contains("- **Current Bead**: bd-7 (Token rotation)\n"),
        "{notes}"
    );
    assert!(notes.contains("**Bead**: bd-7\n"), "{notes}");

    let out = env.run(&["checkpoint", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = step(&v, "plan_and_bead");
    assert_eq!(s["verdict"], "pass", "{s}");
    assert_eq!(
        s["detail"],
        "no active_context.yaml; bead bd-7 in progress (Token rotation)"
    );
    let t: Value =
        serde_json::from_str(&env.ok(&["trajectory", "--json", "--phase", "session_handoff"]))
            .unwrap();
    assert_eq!(t["entries"][0]["bead_id"], "bd-7");

    // The bead was last updated before that checkpoint: the next one says so.
    let out = env.run(&["checkpoint", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = step(&v, "plan_and_bead");
    assert_eq!(s["verdict"], "fail", "{s}");
    assert!(
        s["detail"]
            .as_str()
            .unwrap()
            .ends_with("not updated since the last checkpoint")
    );
    assert!(s["remedy"].as_str().unwrap().contains("br update"), "{s}");
    write(&answer, &in_progress("2999-01-01T00:00:00Z"));
    let v: Value = serde_json::from_slice(&env.run(&["checkpoint", "--json"]).stdout).unwrap();
    assert_eq!(step(&v, "plan_and_bead")["verdict"], "pass");

    // A tracker that fails is an error of the step, never a pass.
    write(&answer, "FAIL");
    let out = env.run(&["checkpoint", "--json"]);
    assert_eq!(code(&out), 2);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = step(&v, "plan_and_bead");
    assert_eq!(s["verdict"], "error");
    assert!(
        s["detail"].as_str().unwrap().contains("database locked"),
        "{s}"
    );
}

#[test]
fn without_a_beads_directory_br_is_never_run() {
    let env = TestEnv::new();
    let (bin, answer) = fake_br(&env);
    let env = env.env("PATH", &path_with(&bin));
    write(&answer, "FAIL");
    let out = env.run(&["checkpoint", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        step(&v, "plan_and_bead")["detail"],
        "no active_context.yaml; beads not in use"
    );
}

#[test]
fn real_br_when_installed() {
    let home = PathBuf::from(std::env::var("HOME").unwrap_or_default());
    let br = home.join(".cache/trail-e2e-beads/bin/br");
    if !br.exists() {
        skip(
            "br",
            &format!(
                "no real br at {} (cargo +nightly install beads_rust@0.7.6 --locked --no-default-features --root ~/.cache/trail-e2e-beads)",
                br.display()
            ),
        );
        return;
    }
    let env = TestEnv::new();
    let bin = env.root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(&br, bin.join("br")).unwrap();
    let env = env.env("PATH", &path_with(&bin));
    let run_br = |args: &[&str]| {
        let out = std::process::Command::new(&br)
            .args(args)
            .current_dir(&env.cwd)
            .env("HOME", &env.home)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "br {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run_br(&["init"]);
    let created: Value =
        serde_json::from_str(&run_br(&["create", "Token rotation", "--json"])).unwrap();
    let id = created["id"]
        .as_str()
        .or_else(|| created[0]["id"].as_str())
        .unwrap()
        .to_string();
    run_br(&["update", &id, "--status", "in_progress"]);
    let out = env.run(&["checkpoint", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = step(&v, "plan_and_bead")["detail"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        d.contains(&format!("bead {id} in progress (Token rotation)")),
        "{d}"
    );
    // A decision carries the bead, NOTES.md names it, and level 2 shows what `br show` says.
    decide_on_bead(&env, &id, &[]);
    let notes = std::fs::read_to_string(env.cwd.join("NOTES.md")).unwrap();
    assert!(
        notes.contains(&format!("- **Current Bead**: {id} (Token rotation)\n")),
        "{notes}"
    );
    let v: Value = serde_json::from_str(&env.ok(&["resume", "--level", "2", "--json"])).unwrap();
    let text = v["text"].as_str().unwrap();
    assert!(text.contains(&format!("bead {id} (`br show`):")), "{text}");
    assert!(text.contains("Token rotation"), "{text}");
    // Yellow notes the delta-sync on the bead, as the real br stores comments.
    let t = env.root.join("t.jsonl");
    prompt_at(&env, &t, 20_000);
    prompt_at(&env, &t, 25_500);
    let comments = run_br(&["comments", &id]);
    assert!(comments.contains("delta-sync at yellow"), "{comments}");
}

/// One prompt of session `s1` whose transcript's latest answer had a context of `tokens`.
fn prompt_at(env: &TestEnv, transcript: &Path, tokens: u64) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(transcript)
        .unwrap();
    let line = serde_json::json!({"type":"assistant","message":{"id":format!("m{tokens}"),"role":"assistant","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":tokens,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}});
    writeln!(f, "{line}").unwrap();
    crate::common::hook(
        env,
        serde_json::json!({"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"go on","transcript_path":transcript}),
    );
}

/// Found by issue 21: delta-synthesis at yellow wrote a pulse, the trajectory and NOTES.md, but
/// not the bead in progress, which the PRD's yellow zone updates too.
#[test]
fn yellow_notes_the_delta_sync_on_the_bead_in_progress() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    std::fs::create_dir_all(env.cwd.join(".beads")).unwrap();
    let (bin, answer) = fake_br(&env);
    write(&answer, &in_progress("2026-11-20T10:00:00Z"));
    let env = env.env("PATH", &path_with(&bin));
    env.ok(&["init"]);
    let t = env.root.join("t.jsonl");
    prompt_at(&env, &t, 20_000);
    let comments = answer.with_extension("json.comments");
    assert!(!comments.exists(), "green says nothing to the tracker");
    prompt_at(&env, &t, 25_500);
    let said = std::fs::read_to_string(&comments).unwrap();
    assert!(
        said.starts_with("add bd-7 -- trail delta-sync at yellow"),
        "{said}"
    );
    let log = env.ok(&["log", "--json", "--limit", "1"]);
    assert!(log.contains("noted on bead bd-7"), "{log}");
    // Once per count: the next prompt at yellow adds nothing.
    prompt_at(&env, &t, 26_000);
    assert_eq!(std::fs::read_to_string(&comments).unwrap(), said);
}
