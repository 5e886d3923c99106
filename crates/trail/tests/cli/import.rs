//! `trail import`: history from real Claude Code transcripts (`trail-core/tests/data/
//! claude-projects/`, written by 2.1.328 with a subagent, an output kept in `tool-results/`, a
//! resume and a fork; the corpus transcripts) and a real Codex rollout, into the stream's
//! imported segments, the proof log and daily memory — once.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../trail-core/tests/data");
/// Where the 2.1.328 session ran.
const CCE_CWD: &str = "/tmp/cce/proj";
const SECRET: &str = "ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ";

/// Copy `from` to `to` (a file or a tree), replacing `cwd` by `project` in every file.
fn copy(from: &Path, to: &Path, cwd: &str, project: &Path) {
    if from.is_dir() {
        for e in std::fs::read_dir(from).unwrap().flatten() {
            copy(&e.path(), &to.join(e.file_name()), cwd, project);
        }
        return;
    }
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    let text = std::fs::read_to_string(from).unwrap();
    std::fs::write(to, text.replace(cwd, project.to_str().unwrap())).unwrap();
}

/// A `~/.claude/projects` with six sessions: the 2.1.328 one (continued in a second file, with
/// a subagent and a kept output) in the test's project, four corpus sessions in a second
/// project (`spotter`; one with its compaction subagent; one asking with a secret in the
/// prompt), and one whose directory is not on this machine.
fn claude_projects(env: &TestEnv) -> PathBuf {
    let projects = env.home.join(".claude/projects");
    copy(
        &Path::new(DATA).join("claude-projects/-tmp-cce-proj"),
        &projects.join("-project"),
        CCE_CWD,
        &env.cwd,
    );
    let spotter = spotter(env);
    let t = Path::new(DATA).join("transcripts");
    let dir = projects.join("-spotter");
    for name in ["spotter_short", "spotter_tool_heavy", "spotter_subagent"] {
        copy(
            &t.join(format!("{name}.jsonl")),
            &dir.join(format!("{name}.jsonl")),
            "/home/marco/projects/spotter",
            &spotter,
        );
    }
    let short = dir.join("spotter_short.jsonl");
    let text = std::fs::read_to_string(&short).unwrap();
    let asked = "mix phx.server doesnt seem to start";
    assert!(text.contains(asked));
    std::fs::write(
        &short,
        text.replace(asked, &format!("{asked}; token={SECRET}")),
    )
    .unwrap();
    let compact = "4d5611e5-241a-462a-8d15-5122611a9569";
    let worktree = "/home/USER/projects/spotter-worktrees/spotter-dov";
    copy(
        &t.join("spotter_4d5611e5_lines720-800_compact_window.jsonl"),
        &dir.join(format!("{compact}.jsonl")),
        worktree,
        &spotter,
    );
    copy(
        &t.join("spotter_4d5611e5_subagents_agent-acompact-e1f845.jsonl"),
        &dir.join(compact)
            .join("subagents/agent-acompact-e1f845.jsonl"),
        worktree,
        &spotter,
    );
    copy(
        &t.join("task-patterns_chat_session-263940d8_first80.jsonl"),
        &projects.join("-Users-dug-linear-agent/263940d8.jsonl"),
        "/nothing-to-replace",
        &spotter,
    );
    pin_mtimes(&projects);
    projects
}

/// Give the copied transcripts modification times one second apart, in path order.
/// Import takes sessions oldest first by mtime, and a copy's mtime is when the copy ran, at the
/// kernel clock's coarse granularity: two environments built moments apart could otherwise
/// import (and write daily memory) in different orders. Found by a run under load, where
/// `an_interrupted_import_resumes_and_adds_nothing_twice` saw its `## Session` blocks swap.
fn pin_mtimes(dir: &Path) {
    let mut all = files_under(dir);
    all.sort();
    // After every line's own timestamp, as a host's files would be (`--since` reads mtimes).
    let base = std::time::SystemTime::now() - std::time::Duration::from_hours(1);
    for (i, p) in all.iter().enumerate() {
        let f = std::fs::File::options().write(true).open(p).unwrap();
        f.set_modified(base + std::time::Duration::from_secs(i as u64))
            .unwrap();
    }
}

/// The second project the corpus sessions ran in (a git repository).
fn spotter(env: &TestEnv) -> PathBuf {
    let p = env.root.join("spotter");
    std::fs::create_dir_all(p.join(".git")).unwrap();
    std::fs::write(p.join(".git/HEAD"), "ref: refs/heads/master\n").unwrap();
    p
}

fn import(env: &TestEnv, args: &[&str]) -> Value {
    let mut a = vec!["import"];
    a.extend_from_slice(args);
    a.push("--json");
    serde_json::from_str(&env.ok(&a)).unwrap()
}

fn counts(v: &Value) -> (u64, u64, u64) {
    (
        v["sessions"].as_u64().unwrap(),
        v["records"].as_u64().unwrap(),
        v["skipped"].as_u64().unwrap(),
    )
}

/// Every imported record, as text, in segment order.
fn imported_records(env: &TestEnv) -> Vec<String> {
    let dir = env.trail_home.join("stream/imported");
    let mut out = Vec::new();
    for f in files_under(&dir) {
        if f.to_string_lossy().ends_with(".log.md") {
            let text = std::fs::read_to_string(&f).unwrap();
            out.extend(
                text.split("---\nschema: ledgerpulse/v1\n")
                    .skip(1)
                    .map(String::from),
            );
        }
    }
    out
}

fn proof(root: &Path) -> Vec<Value> {
    std::fs::read_to_string(root.join(".proof/session_log.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn memory(root: &Path) -> String {
    files_under(&root.join(".trail/memory"))
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect()
}

fn verify(env: &TestEnv) -> Value {
    let out = env.run(&["verify", "--json"]);
    serde_json::from_str(&stdout(&out)).unwrap()
}

#[test]
fn claude_code_history_becomes_records_proof_lines_and_daily_memory_once() {
    let env = TestEnv::new();
    let dir = claude_projects(&env);
    let dir = dir.to_str().unwrap();
    let v = import(&env, &["claude-code", dir]);
    assert_eq!(counts(&v), (6, 6, 0), "{v}");
    assert_eq!(v["without_project"], 1, "{v}");
    let check = verify(&env);
    assert_eq!(check["ok"], true, "{check}");
    assert_eq!(check["imported"], 1, "{check}");

    // One handoff for the session continued in a second file, at its own time, with what its
    // subagent, its resume and its fork did.
    let records = imported_records(&env);
    assert_eq!(records.len(), 6);
    let cce: Vec<&String> = records
        .iter()
        .filter(|r| r.contains("session:64ff8008-4db3-4845-8d56-16b0798bfb29"))
        .collect();
    assert_eq!(cce.len(), 1, "{records:#?}");
    let cce = cce[0];
    for fact in [
        "ts: 2026-11-27T02:10:",
        "type: handoff",
        "session:72c80fa5-ce41-4149-87c2-8070a09d776b",
        "summary: \"EXPLORE-MAIN: make a list\"",
        "asked: EXPLORE-MAIN: now resume",
        "asked: EXPLORE-MAIN: and fork",
        "ran `seq 1 10000` — ok",
        "ran `echo from-the-subagent` — ok",
        "ran `ls /definitely/not/here` — failed",
        "ran `echo resumed-work` — ok",
        "ran `echo forked-work` — ok",
        "by 1 subagent(s)",
    ] {
        assert!(cce.contains(fact), "{fact:?} not in\n{cce}");
    }
    // Search finds it by what was asked, under the session's time.
    let found: Value =
        serde_json::from_str(&env.ok(&["search", "EXPLORE", "--type", "handoff", "--json"]))
            .unwrap();
    assert_eq!(found["total"], 1, "{found}");
    assert!(
        found["hits"][0]["id"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-27T02:10:"),
        "{found}"
    );

    // A proof line per finished call, the subagent's too; the kept output read from its file.
    let lines = proof(&env.cwd);
    let ids: Vec<&str> = lines
        .iter()
        .map(|l| l["tool_use_id"].as_str().unwrap())
        .collect();
    for id in ["toolu_a1", "toolu_a2", "toolu_a3", "toolu_b1", "toolu_c1"] {
        assert_eq!(ids.iter().filter(|i| **i == id).count(), 1, "{id}: {ids:?}");
    }
    assert!(ids.iter().any(|i| i.starts_with("toolu_s")), "{ids:?}");
    let seq = lines
        .iter()
        .find(|l| l["tool_use_id"] == "toolu_a1")
        .unwrap();
    let out = seq["output_preview"].as_str().unwrap();
    assert!(
        out.starts_with("1\n2\n3\n") && !out.contains("persisted-output"),
        "{out}"
    );
    assert_eq!(out.chars().count(), 1000);
    let failed = lines
        .iter()
        .find(|l| l["tool_use_id"] == "toolu_a3")
        .unwrap();
    assert_eq!(failed["success"], false);
    assert_eq!(
        failed["session_id"], "64ff8008-4db3-4845-8d56-16b0798bfb29",
        "{failed}"
    );
    // Daily memory, in each project, of the day each session ended.
    let mem = memory(&env.cwd);
    assert!(mem.contains("## Session 64ff8008-"), "{mem}");
    assert!(mem.contains("`echo from-the-subagent` — ok"), "{mem}");
    let spotter = env.root.join("spotter");
    assert_eq!(memory(&spotter).matches("## Session ").count(), 4);
    assert!(!proof(&spotter).is_empty());

    // Redacted everywhere, the original kept.
    let everything = format!(
        "{}{}{}{}",
        records.concat(),
        std::fs::read_to_string(spotter.join(".proof/session_log.jsonl")).unwrap(),
        memory(&spotter),
        String::from_utf8_lossy(&stream_bytes(&env))
    );
    assert!(everything.contains("mix phx.server doesnt seem to start"));
    assert!(!everything.contains(SECRET), "a secret was written");
    assert!(
        std::fs::read_to_string(env.secrets_file())
            .unwrap()
            .contains(SECRET)
    );

    // Again: nothing new anywhere.
    let before = (
        proof(&env.cwd),
        memory(&env.cwd),
        memory(&spotter),
        stream_bytes(&env),
    );
    let again = import(&env, &["claude-code", dir]);
    assert_eq!(counts(&again), (0, 0, 6), "{again}");
    assert_eq!(again["skipped_because"]["already"], 6, "{again}");
    assert_eq!(again["proof_lines"], 0);
    assert_eq!(again["memory_blocks"], 0);
    assert_eq!(
        before,
        (
            proof(&env.cwd),
            memory(&env.cwd),
            memory(&spotter),
            stream_bytes(&env)
        )
    );
    assert_eq!(imported_records(&env).len(), 6);
}

/// What an import leaves that must not depend on whether it was interrupted: the imported
/// records, each project's proof lines by call, and its daily-memory blocks by hash.
fn outcome(env: &TestEnv) -> (Vec<String>, Vec<String>, Vec<String>) {
    // Paths differ between test environments, and with them content hashes and project ids.
    let differs = |l: &str| {
        ["prev:", "- \"import:", "- \"project:"]
            .iter()
            .any(|p| l.trim_start().starts_with(p))
    };
    let mut records: Vec<String> = imported_records(env)
        .iter()
        .map(|r| {
            r.lines()
                .filter(|l| !differs(l))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .map(|r| {
            r.split("<!-- seal")
                .next()
                .unwrap()
                .replace(env.root.to_str().unwrap(), "ROOT")
        })
        .collect();
    records.sort();
    let mut calls = Vec::new();
    let mut blocks = Vec::new();
    for root in [env.cwd.clone(), env.root.join("spotter")] {
        calls.extend(
            proof(&root)
                .iter()
                .map(|l| format!("{} {}", l["session_id"], l["tool_use_id"])),
        );
        blocks.extend(
            memory(&root)
                .lines()
                .filter(|l| l.starts_with("## Session "))
                .map(String::from),
        );
    }
    calls.sort();
    (records, calls, blocks)
}

#[test]
fn an_interrupted_import_resumes_and_adds_nothing_twice() {
    let clean = TestEnv::new().env("TRAIL_IMPORT_BATCH", "2");
    let dir = claude_projects(&clean);
    let v = import(&clean, &["claude-code", dir.to_str().unwrap()]);
    assert_eq!(counts(&v), (6, 6, 0));
    assert_eq!(v["segments"].as_array().unwrap().len(), 3, "{v}");
    let want = outcome(&clean);
    assert_eq!(want.0.len(), 6);

    // Killed after the third session's files (its batch not committed), with a batch written
    // and not joined, and joined but not renamed.
    for point in [
        "import-after-session-3",
        "import-after-segment",
        "import-after-join",
    ] {
        let env = TestEnv::new().env("TRAIL_IMPORT_BATCH", "2");
        let dir = claude_projects(&env);
        let dir = dir.to_str().unwrap();
        let killed = env
            .cmd(&["import", "claude-code", dir, "--json"])
            .env("TRAIL_FAILPOINT", point)
            .output()
            .unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            killed.status.signal(),
            Some(libc_sigabrt()),
            "{point}: the failpoint fired\n{}",
            stderr(&killed)
        );
        if point != "import-after-session-3" {
            let check = verify(&env);
            assert_eq!(check["ok"], true, "{point}: {check}");
            assert_eq!(check["pending_imports"], 1, "{point}: {check}");
        }
        let resumed = import(&env, &["claude-code", dir]);
        assert_eq!(resumed["skipped_because"]["unreadable"], 0);
        let check = verify(&env);
        assert_eq!(check["ok"], true, "{point}: {check}");
        assert_eq!(check["pending_imports"], 0, "{point}: {check}");
        assert_eq!(outcome(&env), want, "{point}: nothing lost, nothing twice");
        let again = import(&env, &["claude-code", dir]);
        assert_eq!(counts(&again), (0, 0, 6), "{point}: {again}");
    }
}

/// SIGABRT: how a failpoint ends the process (`std::process::abort`).
fn libc_sigabrt() -> i32 {
    6
}

#[test]
fn codex_rollouts_are_imported_from_codex_home() {
    let codex_home = tempfile::tempdir().unwrap();
    let env = TestEnv::new().env("CODEX_HOME", codex_home.path().to_str().unwrap());
    copy(
        &Path::new(DATA).join("rollouts/codex-0.169.0_exec_then_resume.jsonl"),
        &codex_home
            .path()
            .join("sessions/2026/11/26/rollout-2026-11-26T16-41-28-01a218bb.jsonl"),
        "/tmp/trail-test-keoNlm/project",
        &env.cwd,
    );
    // No DIR: $CODEX_HOME/sessions.
    let v = import(&env, &["codex"]);
    assert_eq!(counts(&v), (1, 1, 0), "{v}");
    let records = imported_records(&env);
    for fact in [
        "ts: 2026-11-26T16:41:29.",
        "codex\"",
        "session:01a218bb-c474-7c43-aeca-07e22c5019a7",
        "asked: SCRIPTED-E2E: remember this session",
        "asked: SCRIPTED-E2E: and then this",
        "ran `echo made > made.txt` — ok",
        "ran `ls /definitely/not/here` — failed",
        "ran `echo again` — ok",
    ] {
        assert!(records[0].contains(fact), "{fact:?} not in {}", records[0]);
    }
    let lines = proof(&env.cwd);
    let calls: Vec<(&str, bool)> = lines
        .iter()
        .map(|l| {
            (
                l["tool_use_id"].as_str().unwrap(),
                l["success"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        calls,
        [("call_1", true), ("call_2", false), ("call_3", true)]
    );
    assert!(memory(&env.cwd).contains("## Session 01a218bb-"));
    assert_eq!(verify(&env)["ok"], true);
    assert_eq!(counts(&import(&env, &["codex"])), (0, 0, 1));
}

#[test]
fn since_project_and_dry_run_choose_and_write_nothing_they_should_not() {
    let env = TestEnv::new();
    let dir = claude_projects(&env);
    let dir = dir.to_str().unwrap();
    // A dry run counts what a real one adds, and writes nothing.
    let dry = import(&env, &["claude-code", dir, "--dry-run"]);
    assert_eq!(dry["dry_run"], true);
    assert!(
        !env.trail_home.join("stream").exists(),
        "the stream was touched"
    );
    assert!(!env.cwd.join(".proof").exists() && !env.cwd.join(".trail").exists());
    // Only what was active since the 2.1.328 session began; only one project.
    let since = import(
        &env,
        &["claude-code", dir, "--since", "2026-11-01", "--dry-run"],
    );
    assert_eq!(counts(&since), (1, 1, 5), "{since}");
    assert_eq!(since["skipped_because"]["filtered"], 5);
    let spotter = env.root.join("spotter");
    let by_dir = import(
        &env,
        &[
            "claude-code",
            dir,
            "--project",
            spotter.to_str().unwrap(),
            "--dry-run",
        ],
    );
    assert_eq!(counts(&by_dir), (4, 4, 2), "{by_dir}");
    let by_name = import(
        &env,
        &["claude-code", dir, "--project", "linear-agent", "--dry-run"],
    );
    assert_eq!(counts(&by_name), (1, 1, 5), "{by_name}");

    let real = import(&env, &["claude-code", dir]);
    for k in [
        "sessions",
        "records",
        "skipped",
        "proof_lines",
        "memory_blocks",
    ] {
        assert_eq!(dry[k], real[k], "{k}: dry {dry} real {real}");
    }
}

#[test]
fn a_session_the_hooks_recorded_gets_no_second_handoff() {
    let env = TestEnv::new();
    let dir = claude_projects(&env);
    let transcript = dir.join("-spotter/spotter_tool_heavy.jsonl");
    let session = "d6e0bada-1959-4eec-a9d2-0bfade768d8f";
    hook(
        &env,
        serde_json::json!({"hook_event_name": "SessionEnd", "session_id": session,
            "reason": "exit", "transcript_path": transcript, "cwd": env.cwd}),
    );
    let v = import(&env, &["claude-code", dir.to_str().unwrap()]);
    assert_eq!(v["records"], 5, "{v}");
    assert!(
        !imported_records(&env)
            .iter()
            .any(|r| r.contains(&format!("session:{session}"))),
        "the hook's handoff is the session's"
    );
}

#[test]
fn an_imported_segment_changed_or_unjoined_fails_verify() {
    let env = TestEnv::new();
    let dir = claude_projects(&env);
    import(&env, &["claude-code", dir.to_str().unwrap()]);
    let seg = files_under(&env.trail_home.join("stream/imported"))
        .into_iter()
        .find(|f| f.to_string_lossy().ends_with(".log.md"))
        .unwrap();
    let good = std::fs::read_to_string(&seg).unwrap();
    let problems = |env: &TestEnv| -> Vec<String> {
        let v = verify(env);
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["problem"].as_str().unwrap().to_string())
            .collect()
    };
    // A word changed: its seal no longer matches.
    std::fs::write(&seg, good.replacen("EXPLORE-MAIN", "EXPLORE-MANE", 1)).unwrap();
    assert!(problems(&env).contains(&"tampered".to_string()));
    // The last record dropped, the rest intact: the join's count and seal say so.
    let last = good.rfind("---\nschema: ledgerpulse/v1\n").unwrap();
    std::fs::write(&seg, &good[..last]).unwrap();
    assert_eq!(problems(&env), ["rewritten"]);
    // A segment no record joins.
    std::fs::write(&seg, &good).unwrap();
    assert!(problems(&env).is_empty());
    std::fs::copy(&seg, seg.with_file_name("claude-code-copied.log.md")).unwrap();
    assert_eq!(problems(&env), ["unjoined"]);
    assert_eq!(code(&env.run(&["verify"])), 1);
}

#[test]
fn bad_input_is_refused_before_anything_is_written() {
    let env = TestEnv::new();
    let missing = env.root.join("nowhere");
    let out = env.run(&["import", "claude-code", missing.to_str().unwrap()]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let mut said = stderr(&out);
    let dir = claude_projects(&env);
    let out = env.run(&[
        "import",
        "claude-code",
        dir.to_str().unwrap(),
        "--since",
        "soon",
    ]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    said += &stderr(&out);
    let out = env.run(&["import", "cursor"]);
    assert_eq!(code(&out), 2);
    said += &stderr(&out);
    // Each refusal whole (issue 23: were `.contains` checks of a word).
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &said), @r"
    error: [ROOT]/nowhere is not a directory
    hint: name the directory the sessions are in: `trail import claude-code DIR` or `trail import codex DIR`
    error: --since: `soon` is neither an RFC 3339 time ([TS]) nor a date (2026-11-26)
    error: invalid value 'cursor' for '<HOST>'
      [possible values: claude-code, codex]

    For more information, try '--help'.
    ");
    assert!(!env.trail_home.join("stream").exists());
    // Without DIR, ~/.claude/projects.
    let v = import(&env, &["claude-code", "--dry-run"]);
    assert_eq!(v["sessions"], 6, "{v}");
}

#[test]
fn the_progress_bar_shows_on_a_terminal_only() {
    let env = TestEnv::new();
    let dir = claude_projects(&env);
    let dir = dir.to_str().unwrap();
    let quiet = env.run(&["import", "claude-code", dir, "--dry-run"]);
    assert!(stderr(&quiet).is_empty(), "{}", stderr(&quiet));
    // A terminal says what it is (without TERM, indicatif takes it for a dumb one).
    let shown = env.in_terminal_env(
        &["import", "claude-code", dir, "--dry-run"],
        &[],
        &[("TERM", "xterm")],
    );
    let screen = String::from_utf8_lossy(&shown.stdout);
    assert!(screen.contains("importing"), "{screen}");
    assert!(screen.contains("would import 6 session(s)"), "{screen}");
}

/// Found by the issue 13 audit, untested until now: a session that grew after its import gets
/// one new handoff and only its new tool calls, and everything imported carries the session's
/// own time, daily memory the local day it ended (UTC−11 here: the day before in UTC).
#[test]
fn a_session_that_grew_since_its_import_adds_only_what_is_new_at_its_own_time() {
    let env = TestEnv::new().env("TZ", "YST11");
    let dir = claude_projects(&env);
    let first = import(&env, &["claude-code", dir.to_str().unwrap()]);
    assert_eq!(counts(&first), (6, 6, 0), "{first}");

    // The proof line of a call carries the transcript's time for it, not the import's.
    let fork = dir
        .join("-project")
        .join("72c80fa5-ce41-4149-87c2-8070a09d776b.jsonl");
    let text = std::fs::read_to_string(&fork).unwrap();
    let line = |needle: &str| {
        text.lines()
            .find(|l| l.contains(needle) && l.starts_with("{\"parentUuid\""))
            .unwrap()
            .to_string()
    };
    let (call, result) = (
        line("\"id\":\"toolu_c1\""),
        line("\"tool_use_id\":\"toolu_c1\""),
    );
    let at = |l: &str| {
        let v: Value = serde_json::from_str(l).unwrap();
        v["timestamp"].as_str().unwrap()[..23].to_string()
    };
    let logged = proof(&env.cwd)
        .into_iter()
        .find(|l| l["tool_use_id"] == "toolu_c1")
        .unwrap();
    let when = &logged["timestamp"].as_str().unwrap()[..23];
    assert!(
        when == at(&call) || when == at(&result),
        "{when} is not the call's time ({} / {})",
        at(&call),
        at(&result)
    );
    // The session ended at 02:10 UTC on the 27th: at UTC−11, the 26th.
    let days: Vec<String> = files_under(&env.cwd.join(".trail/memory"))
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(days, ["2026-11-26.md"], "{days:?}");

    // The fork goes on: one more call, an hour later.
    let grow = |l: &str, ts: &str| {
        let old_ts: Value = serde_json::from_str(l).unwrap();
        l.replace("toolu_c1", "toolu_grown")
            .replace("forked-work", "grown-later")
            .replace(
                "86ad53ef-af79-4a90-b5c7-ad50810e30ff",
                "0e0e0e0e-0000-4000-8000-000000000001",
            )
            .replace(
                "d9d3987a-9ac3-41f2-bb45-a7137d4a1636",
                "0e0e0e0e-0000-4000-8000-000000000002",
            )
            .replace("msg_c1", "msg_grown")
            .replace(old_ts["timestamp"].as_str().unwrap(), ts)
    };
    let more = format!(
        "{}\n{}\n",
        grow(&call, "2026-11-27T03:10:00.000Z"),
        grow(&result, "2026-11-27T03:10:01.000Z")
    );
    assert!(more.contains("toolu_grown") && !more.contains("toolu_c1"));
    let mut grown = text.clone();
    grown.push_str(&more);
    std::fs::write(&fork, grown).unwrap();

    let second = import(&env, &["claude-code", dir.to_str().unwrap()]);
    assert_eq!(counts(&second), (1, 1, 5), "{second}");
    let lines = proof(&env.cwd);
    for id in ["toolu_c1", "toolu_grown", "toolu_a1"] {
        let n = lines.iter().filter(|l| l["tool_use_id"] == id).count();
        assert_eq!(n, 1, "{id}: {lines:?}");
    }
    let grown = lines
        .iter()
        .find(|l| l["tool_use_id"] == "toolu_grown")
        .unwrap();
    assert!(
        grown["timestamp"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-27T03:10:0"),
        "{grown}"
    );
    assert_eq!(verify(&env)["ok"], true);
    let records = imported_records(&env);
    assert_eq!(records.len(), 7);
    // Segments are read in their files' order, not by time: find the new handoff by content.
    let new: Vec<_> = records
        .iter()
        .filter(|r| r.contains("grown-later"))
        .collect();
    assert_eq!(new.len(), 1, "{records:#?}");
    assert!(new[0].starts_with("ts: 2026-11-27T03:10:01"), "{}", new[0]);

    let third = import(&env, &["claude-code", dir.to_str().unwrap()]);
    assert_eq!(counts(&third), (0, 0, 6), "{third}");
}
