//! Deep Dream by itself (issue 11, item 3): a session's end (or the next start, after an unclean
//! exit) starts `trail dream` in the background when daily memory changed and the last dream
//! is older than `memory.dream_every`; the hook does not wait for it, two never run at once, and
//! the next SessionStart says what it changed.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::*;

/// A `command` provider that notes when it starts and ends, and in between waits until the
/// test creates [`SlowProvider::release`] (at most a minute). It answers with the first bullet
/// of the daily memory it was given, which the verifier finds in its source.
pub struct SlowProvider {
    pub log: PathBuf,
    pub release: PathBuf,
    /// The shell command, for `llm.command`.
    pub command: String,
}

impl SlowProvider {
    pub fn new(dir: &Path) -> SlowProvider {
        let log = dir.join("provider.log");
        let release = dir.join("release");
        let script = dir.join("slow-provider.sh");
        std::fs::write(
            &script,
            format!(
                r#"echo start >> '{log}'
prompt=$(cat)
i=0
while [ ! -e '{release}' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
line=$(printf '%s\n' "$prompt" | grep -m1 '^L[0-9]*: - ' | sed 's/^L[0-9]*: - //')
printf '[MEMORY]\n## Sessions\n- %s\n[DREAM]\nKept the first note.\n' "$line"
echo done >> '{log}'
"#,
                log = log.display(),
                release = release.display()
            ),
        )
        .unwrap();
        SlowProvider {
            log,
            release,
            command: format!("sh '{}'", script.display()),
        }
    }

    /// How many dreams asked it so far.
    pub fn starts(&self) -> usize {
        occurrences(
            &std::fs::read_to_string(&self.log).unwrap_or_default(),
            "start",
        )
    }

    pub fn finished(&self) -> bool {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .contains("done")
    }
}

impl Drop for SlowProvider {
    /// A failed test must not leave a dream waiting for a minute.
    fn drop(&mut self) {
        let _ = std::fs::write(&self.release, "");
    }
}

/// Waits up to `secs` for `what`.
pub fn eventually(secs: u64, mut what: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < until {
        if what() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    what()
}

fn ask(text: &str) -> String {
    format!(
        "{}\n",
        serde_json::json!({"type":"user","isSidechain":false,"message":{"role":"user","content":text}})
    )
}

/// A Claude Code hook for `session`; its JSON answer (`null` when silent) and how long it took.
fn hook_for(
    env: &TestEnv,
    event: &str,
    session: &str,
    transcript: &Path,
) -> (serde_json::Value, Duration) {
    let payload = serde_json::json!({"hook_event_name": event, "session_id": session, "transcript_path": transcript, "source": "startup", "reason": "other"});
    let started = Instant::now();
    let out = env.run_stdin(&["hook", "claude-code"], &payload.to_string());
    let took = started.elapsed();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let s = stdout(&out);
    let v = if s.trim().is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(&s).unwrap()
    };
    (v, took)
}

fn context(v: &serde_json::Value) -> String {
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_session_end_starts_the_dream_without_waiting_and_never_two_at_once() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let slow = SlowProvider::new(&env.root);
    let env = env
        .env("TRAIL_LLM_PROVIDER", "command")
        .env("TRAIL_LLM_COMMAND", &slow.command)
        // Due again as soon as daily memory changes: only the lock stops a second dream.
        .env("TRAIL_DREAM_EVERY", "1ms");
    let t = env.root.join("s1.jsonl");
    std::fs::write(&t, ask("keep the staging port 5433 in mind")).unwrap();

    let (_, took) = hook_for(&env, "SessionEnd", "s1", &t);
    assert!(
        eventually(10, || slow.starts() == 1),
        "no dream started in the background"
    );
    // The provider is still waiting for the test: the hook did not wait for it.
    assert!(!slow.finished());
    assert!(took < Duration::from_secs(2), "SessionEnd took {took:?}");

    // While it dreams: a second session ends with new daily memory; a dream by hand is refused.
    std::fs::write(
        &t,
        format!(
            "{}{}",
            ask("keep the staging port 5433 in mind"),
            ask("and the VPN")
        ),
    )
    .unwrap();
    let (_, took) = hook_for(&env, "SessionEnd", "s1", &t);
    assert!(took < Duration::from_secs(2), "SessionEnd took {took:?}");
    let out = env.run(&["dream"]);
    assert_ne!(code(&out), 0);
    assert!(
        stderr(&out).contains("another dream is running"),
        "{}",
        stderr(&out)
    );
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(slow.starts(), 1, "a second dream started while one ran");

    // It ends; the next session is told what it changed, once.
    std::fs::write(&slow.release, "").unwrap();
    let news = env.cwd.join(".trail/state/dream.news");
    assert!(eventually(20, || news.exists()), "the dream left no news");
    let memory = std::fs::read_to_string(env.cwd.join(".trail/MEMORY.md")).unwrap();
    assert!(
        memory.contains("keep the staging port 5433 in mind"),
        "{memory}"
    );
    let (v, _) = hook_for(&env, "SessionStart", "s2", &t);
    let said = context(&v);
    assert!(
        said.contains("Deep Dream ran by itself")
            && said.contains(".trail/MEMORY.md went from 0 to 1 entries")
            && said.contains(".trail/memory/dreams/"),
        "{said}"
    );
    let (v, _) = hook_for(&env, "SessionStart", "s3", &t);
    assert!(!context(&v).contains("Deep Dream"), "told twice");
}

#[test]
fn the_next_start_dreams_when_the_previous_session_ended_uncleanly() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.ok(&["init"]);
    // The state file is where trail notes that a session ended (`session.ended_at`).
    env.ok(&["mode", "plan"]);
    let env = env.env("TRAIL_DREAM_EVERY", "1ms");
    let dir = env.cwd.join(".trail/memory");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("2025-01-10.md"),
        "# Daily Memory: 2025-01-10\n\n## Remembered (09:00)\n- Deploys need the VPN\n",
    )
    .unwrap();
    let none = env.root.join("none.jsonl");
    let memory = env.cwd.join(".trail/MEMORY.md");

    // s1 ends cleanly, with dreaming switched off; s2's start has nothing to make up for.
    hook_for(&env, "SessionStart", "s1", &none);
    let off = env
        .cmd(&["hook", "claude-code"])
        .env("TRAIL_DREAM_EVERY", "0s")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut off = off;
        off.stdin
            .take()
            .unwrap()
            .write_all(br#"{"hook_event_name":"SessionEnd","session_id":"s1","reason":"other"}"#)
            .unwrap();
        assert!(off.wait().unwrap().success());
    }
    hook_for(&env, "SessionStart", "s2", &none);
    std::thread::sleep(Duration::from_secs(1));
    assert!(!memory.exists(), "a start after a clean exit dreamed");

    // s2 never ends (a crash): s3's start makes up for its SessionEnd.
    hook_for(&env, "SessionStart", "s3", &none);
    assert!(
        eventually(20, || env.cwd.join(".trail/state/dream.news").exists()),
        "no dream after the unclean exit"
    );
    assert!(
        std::fs::read_to_string(&memory)
            .unwrap()
            .contains("Deploys need the VPN")
    );
    let (v, _) = hook_for(&env, "SessionStart", "s4", &none);
    assert!(
        context(&v).contains("Deep Dream ran by itself"),
        "{}",
        context(&v)
    );
}
