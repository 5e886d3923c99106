//! Daily memory as the hooks write it: each flush of a session adds only what came after the
//! last one, and days and times are the person's local ones.

use std::path::{Path, PathBuf};

use crate::common::*;

/// A Claude Code transcript line in which the user asks `text`.
fn ask(text: &str) -> String {
    format!(
        "{}\n",
        serde_json::json!({"type":"user","isSidechain":false,"message":{"role":"user","content":text}})
    )
}

/// A Claude Code transcript line in which the agent runs `command` (id `id`), and its result.
fn ran(id: &str, command: &str) -> String {
    let call = serde_json::json!({"type":"assistant","isSidechain":false,"message":{"id":format!("msg_{id}"),"role":"assistant","content":[{"type":"tool_use","id":id,"name":"Bash","input":{"command":command}}]}});
    let result = serde_json::json!({"type":"user","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":id,"content":"ok"}]}});
    format!("{call}\n{result}\n")
}

fn project() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env
}

/// Runs a Claude Code hook for session `s1` of `transcript`.
fn event(env: &TestEnv, name: &str, transcript: &Path) {
    let payload = serde_json::json!({"hook_event_name": name, "session_id": "s1", "transcript_path": transcript, "trigger": "auto", "reason": "other"});
    let out = env.run_stdin(&["hook", "claude-code"], &payload.to_string());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!stderr(&out).contains("gave up"), "{}", stderr(&out));
}

/// The one daily file, its name and text.
fn the_day(env: &TestEnv) -> (String, String) {
    let files: Vec<PathBuf> = std::fs::read_dir(env.cwd.join(".trail/memory"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    (name, std::fs::read_to_string(&files[0]).unwrap())
}

/// Issue 11, item 5: a SessionEnd flush after a compaction re-extracted the whole transcript,
/// so every ask and command before the compaction was in the day's file twice.
#[test]
fn a_session_end_after_a_compaction_flushes_only_what_came_after_it() {
    let env = project();
    let t = env.root.join("s1.jsonl");
    std::fs::write(
        &t,
        format!(
            "{}{}",
            ask("fix the parser"),
            ran("t1", "cargo test -p parser")
        ),
    )
    .unwrap();
    event(&env, "PreCompact", &t);
    let mut more = std::fs::read_to_string(&t).unwrap();
    more.push_str(&ask("now update the changelog"));
    more.push_str(&ran("t2", "git diff --stat"));
    std::fs::write(&t, &more).unwrap();
    event(&env, "SessionEnd", &t);
    let (_, text) = the_day(&env);
    for once in [
        "fix the parser",
        "cargo test -p parser",
        "now update the changelog",
        "git diff --stat",
    ] {
        assert_eq!(occurrences(&text, once), 1, "{once:?} in\n{text}");
    }
    let session = &text[text.find("## Session s1").expect(&text)..];
    assert!(session.contains("now update the changelog"), "{text}");
    assert!(!session.contains("fix the parser"), "{text}");

    // Nothing new since: a second SessionEnd adds no block, and neither does a flush by hand.
    event(&env, "SessionEnd", &t);
    let out = env.ok(&["memory", "flush", "--transcript", t.to_str().unwrap()]);
    assert!(out.contains("nothing new"), "{out}");
    assert_eq!(the_day(&env).1, text);
}

/// A transcript rewritten under the same path (its start changed) is flushed from after the last
/// line flushed; one that no longer holds that line is new and flushed whole, never lost.
#[test]
fn a_rewritten_transcript_is_flushed_without_repeats_or_losses() {
    let env = project();
    let t = env.root.join("s1.jsonl");
    std::fs::write(
        &t,
        format!("{}{}", ask("first ask"), ran("t1", "make build")),
    )
    .unwrap();
    event(&env, "PreCompact", &t);
    std::fs::write(
        &t,
        format!(
            "{}{}{}",
            ask("first ask, reworded"),
            ran("t1", "make build"),
            ask("second ask")
        ),
    )
    .unwrap();
    event(&env, "SessionEnd", &t);
    let (_, text) = the_day(&env);
    assert_eq!(occurrences(&text, "make build"), 1, "{text}");
    assert_eq!(occurrences(&text, "second ask"), 1, "{text}");
    assert!(!text.contains("reworded"), "{text}");

    std::fs::write(&t, ask("a different session altogether")).unwrap();
    event(&env, "SessionEnd", &t);
    let (_, text) = the_day(&env);
    assert_eq!(
        occurrences(&text, "a different session altogether"),
        1,
        "{text}"
    );
}

/// `date +FORMAT` in time zone `tz`.
pub fn date_in(tz: &str, format: &str) -> String {
    let out = std::process::Command::new("date")
        .arg(format!("+{format}"))
        .env("TZ", tz)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// Issue 11, item 6: daily files were named by the UTC date and headed with UTC times. Two zones
/// 25 hours apart (POSIX `TZ` strings, so no zone database is needed) never share a date, so
/// at any hour at least one of them differs from UTC's.
#[test]
fn daily_files_are_named_and_headed_in_local_time() {
    for tz in ["XST-14", "YST11"] {
        let env = project().env("TZ", tz);
        let t = env.root.join("s1.jsonl");
        std::fs::write(&t, ask("what day is it")).unwrap();
        let (day_before, before) = (date_in(tz, "%F"), date_in(tz, "%H:%M"));
        event(&env, "SessionEnd", &t);
        let (day_after, after) = (date_in(tz, "%F"), date_in(tz, "%H:%M"));
        let (name, text) = the_day(&env);
        // The test's clock may pass midnight between the two readings.
        let today = if name == format!("{day_before}.md") {
            day_before
        } else {
            day_after
        };
        assert_eq!(name, format!("{today}.md"), "TZ={tz}");
        assert!(
            text.starts_with(&format!("# Daily Memory: {today}\n")),
            "TZ={tz}: {text}"
        );
        assert!(
            text.contains(&format!("## Session s1 ({before})"))
                || text.contains(&format!("## Session s1 ({after})")),
            "TZ={tz}, local time {before}: {text}"
        );
        // `trail remember` and `trail memory show` agree on the day.
        env.ok(&["remember", "the local day"]);
        assert!(env.ok(&["memory", "show"]).contains("the local day"));
        assert_eq!(the_day(&env).0, name);
        // The stream keeps UTC.
        let stream = std::fs::read_to_string(env.stream()).unwrap();
        assert!(stream.contains(&date_in("UTC0", "%F")), "{stream}");
    }
}
