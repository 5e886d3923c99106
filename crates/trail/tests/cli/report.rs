//! `trail report`: the summary, the JSON and the HTML page, the page checked in a real browser
//! (Debian's headless Chromium, driven by playwright-core: `tests/browser/report-check.mjs`).
//!
//! Two realistic ledgers: the demo's, and one a real hook sequence and `trail import` of corpus
//! transcripts leave, with hostile text in a prompt, a command and a tool's error. The browser
//! says what requests the page tried (none may leave it), whether anything ran (no script, no
//! dialog), and what the DOM holds, which must match `trail report --json`. Each page's
//! screenshot is kept under `target/tmp/report-artifacts/` (CI's artefact).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::common::{TestEnv, hook, skip};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../trail-core/tests/data");
const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/browser/report-check.mjs"
);

/// Text a hostile transcript or agent could put anywhere: it must reach the page as text.
const HOSTILE: &str = "<script>alert('owned')</script><img src=x onerror=alert(1)> [click](javascript:alert(2)) \"><svg onload=alert(3)>";

/// The browser and its driver, when this machine has them (`.ci/run` installs both).
fn browser() -> Option<(PathBuf, PathBuf)> {
    let home = std::env::var_os("HOME").map(PathBuf::from)?;
    let driver = home.join(".cache/trail-e2e-browser/node_modules/playwright-core");
    let chromium =
        PathBuf::from(std::env::var_os("CHROMIUM").unwrap_or("/usr/bin/chromium".into()));
    (driver.is_dir() && chromium.is_file()).then_some((driver, chromium))
}

/// What the browser saw of `page`; the screenshot is saved as `name`.png.
fn in_browser(page: &Path, name: &str) -> Option<Value> {
    let Some((driver, chromium)) = browser() else {
        skip(
            "browser",
            "Chromium (/usr/bin/chromium) or playwright-core (~/.cache/trail-e2e-browser) is not installed",
        );
        return None;
    };
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-artifacts");
    std::fs::create_dir_all(&shots).unwrap();
    let out = Command::new("node")
        .arg(SCRIPT)
        .arg(page)
        .arg(shots.join(format!("{name}.png")))
        .env("PLAYWRIGHT_DIR", &driver)
        .env("CHROMIUM", &chromium)
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "the browser check failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8(out.stdout).unwrap();
    Some(serde_json::from_str(line.trim()).unwrap())
}

/// Nothing left the page, nothing ran, nothing is markup that came from a record.
fn inert(v: &Value) {
    assert_eq!(v["requests"], json!([]), "the page made requests");
    assert_eq!(v["dialogs"], json!([]), "something ran on the page");
    assert_eq!(v["errors"], json!([]), "the page reported errors");
    for k in ["scripts", "iframes", "handlers", "javascript_urls"] {
        assert_eq!(v[k], 0, "{k} on the page");
    }
}

#[test]
fn the_demos_report_opens_in_a_real_browser_and_shows_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let env = TestEnv::new();
    let out = env.ok(&["demo", "--keep", dir.path().to_str().unwrap()]);
    assert!(out.contains("trail report --html report.html"), "{out}");
    let page = dir.path().join("report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("default-src 'none'"));
    let Some(v) = in_browser(&page, "demo") else {
        return;
    };
    inert(&v);
    assert_eq!(v["sessions"][0], "demo-session", "{}", v["sessions"]);
    // The demo's session: `rm -rf ~` blocked, the push stopped twice (once before the
    // approval, once after it was used up), one approval, one failed test run.
    assert_eq!(v["blocked"], 1);
    assert_eq!(v["junctions"], 2);
    assert_eq!(v["approved"], 1);
    assert_eq!(v["tools_failed"], 1);
    assert!(
        v["fill_points"].as_u64().unwrap() >= 4,
        "{}",
        v["fill_points"]
    );
    assert_eq!(v["stops"], json!(["git-push", "rm-recursive-critical"]));
    assert_eq!(v["tiles"]["approvals"], "1");
}

/// A corpus transcript as Claude Code would keep it for the test's project.
fn transcript(env: &TestEnv, name: &str, from_cwd: &str) -> PathBuf {
    let text = std::fs::read_to_string(Path::new(DATA).join("transcripts").join(name)).unwrap();
    let to = env.home.join(".claude/projects/-project").join(name);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::write(&to, text.replace(from_cwd, env.cwd.to_str().unwrap())).unwrap();
    to
}

#[test]
fn hooks_and_imported_sessions_render_as_text_in_a_real_browser() {
    let env = TestEnv::new();
    // Sessions from before trail was installed, imported: one with a compaction.
    let heavy = transcript(
        &env,
        "spotter_tool_heavy.jsonl",
        "/home/marco/projects/spotter",
    );
    let compact = transcript(
        &env,
        "spotter_4d5611e5_lines720-800_compact_window.jsonl",
        "/home/USER/projects/spotter-worktrees/spotter-dov",
    );
    let projects = env.home.join(".claude/projects");
    env.ok(&["import", "claude-code", projects.to_str().unwrap()]);
    // A session the hooks saw, with hostile text where an agent or a tool can put it.
    let t = heavy.to_str().unwrap();
    hook(
        &env,
        json!({"hook_event_name":"SessionStart","session_id":"live-1","source":"startup","transcript_path":t}),
    );
    hook(
        &env,
        json!({"hook_event_name":"UserPromptSubmit","session_id":"live-1","prompt":format!("tidy up {HOSTILE}"),"transcript_path":t}),
    );
    for command in [
        "rm -rf ~",
        "git push origin main",
        &format!("echo '{HOSTILE}'"),
    ] {
        hook(
            &env,
            json!({"hook_event_name":"PreToolUse","session_id":"live-1","tool_name":"Bash","tool_input":{"command":command},"transcript_path":t}),
        );
    }
    hook(
        &env,
        json!({"hook_event_name":"PostToolUse","session_id":"live-1","tool_name":"Bash","tool_input":{"command":format!("echo '{HOSTILE}'")},"tool_response":{"stdout":"","stderr":HOSTILE,"exit_code":1,"interrupted":false},"transcript_path":t}),
    );
    hook(
        &env,
        json!({"hook_event_name":"SessionStart","session_id":"live-2","source":"clear","transcript_path":compact.to_str().unwrap()}),
    );

    let r: Value = serde_json::from_str(&env.ok(&["report", "--json"])).unwrap();
    let here = &r["projects"][0];
    assert_eq!(here["name"], r["here"]);
    assert_eq!(here["journals"], true);
    let ids: Vec<&str> = here["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["id"].as_str())
        .collect();
    for id in ["live-1", "live-2"] {
        assert!(ids.contains(&id), "{id} not in {ids:?}");
    }
    assert!(ids.len() >= 4, "the imported sessions too: {ids:?}");
    let stops: Vec<&str> = here["stops"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["rules"].as_array().unwrap())
        .map(|r| r["rule"].as_str().unwrap())
        .collect();
    assert!(stops.contains(&"git-push"), "{stops:?}");
    assert!(r["summary"]["blocked"].as_u64().unwrap() >= 1);
    assert_eq!(r["summary"]["clears"], 1);
    assert!(r["summary"]["compactions"].as_u64().unwrap() >= 1);

    let page = env.cwd.join("report.html");
    let summary = env.ok(&["report", "--html", page.to_str().unwrap()]);
    assert!(summary.contains("wrote "), "{summary}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        !html.contains("<script>alert"),
        "hostile markup reached the page as markup"
    );
    let Some(v) = in_browser(&page, "hooks-and-import") else {
        return;
    };
    inert(&v);
    // Every session and junction of the report is on the page.
    let shown: Vec<&str> = v["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s.as_str())
        .filter(|s| !s.is_empty())
        .collect();
    for id in &ids {
        assert!(shown.contains(id), "{id} not on the page: {shown:?}");
    }
    let junctions: u64 = r["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["counts"]["junctions"].as_u64().unwrap())
        .sum();
    assert_eq!(v["junctions"], junctions);
    assert!(v["fill_points"].as_u64().unwrap() > 0);
    assert!(v["prompts"].as_u64().unwrap() >= 2);
    // The hostile text is there, as text a person can read.
    let text = v["text"].as_str().unwrap();
    assert!(text.contains("<script>alert('owned')</script>"), "{text}");
    assert!(text.contains("javascript:alert(2)"));
}

#[test]
fn the_summary_says_when_nothing_was_recorded_and_bad_input_writes_nothing() {
    let env = TestEnv::new();
    let out = env.ok(&["report"]);
    assert!(out.contains("0 session(s)"), "{out}");
    assert!(out.contains("nothing recorded yet"), "{out}");
    let bad = env.run(&["report", "--since", "yesterday-ish"]);
    assert_eq!(crate::common::code(&bad), 2);
    assert!(crate::common::stderr(&bad).contains("--since"));
    // A page that cannot be written says where and what to do; nothing is left behind.
    let page = env.cwd.join("no-such-dir/report.html");
    let out = env.run(&["report", "--html", page.to_str().unwrap()]);
    assert_eq!(crate::common::code(&out), 1);
    let err = crate::common::stderr(&out);
    assert!(
        err.contains("cannot write") && err.contains("--html"),
        "{err}"
    );
    assert!(!env.cwd.join("no-such-dir").exists());
}
