//! Daily memory as the hooks write it: days and times are the person's local ones.

use std::path::{Path, PathBuf};

use crate::common::*;

/// A Claude Code transcript line in which the user asks `text`.
fn ask(text: &str) -> String {
    format!(
        "{}\n",
        serde_json::json!({"type":"user","isSidechain":false,"message":{"role":"user","content":text}})
    )
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

/// `date +FORMAT` in time zone `tz`.
fn date_in(tz: &str, format: &str) -> String {
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
