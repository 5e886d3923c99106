//! One test per bug, named after it, through the real binary (ripgrep's `tests/regression.rs`).

use crate::common::*;

/// `llm.timeout = 120` in a config file meant 120 s, while `TRAIL_LLM_TIMEOUT=120` meant 120 ms.
/// A bare number is now refused wherever it is written, with the key and how to write it; with
/// a unit, a file and the environment agree.
#[test]
fn llm_timeout_bare_number_meant_seconds_in_a_file_and_ms_in_the_env() {
    let env = TestEnv::new().env("TRAIL_LLM_TIMEOUT", "120");
    let out = env.run(&["config"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("$TRAIL_LLM_TIMEOUT (llm.timeout)")
            && err.contains("\"120s\"")
            && err.contains("\"120ms\""),
        "{err}"
    );

    let env = TestEnv::new();
    env.user_config("[llm]\ntimeout = 120\n");
    let out = env.run(&["config"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("config.toml: llm.timeout (line 2):") && err.contains("\"120s\""),
        "{err}"
    );

    env.user_config("[llm]\ntimeout = \"120s\"\n");
    let from_file = env.ok(&["config", "--json"]);
    let from_env = TestEnv::new()
        .env("TRAIL_LLM_TIMEOUT", "120s")
        .ok(&["config", "--json"]);
    let timeout = |json: &str| {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        v["settings"]["llm.timeout"]["value"].clone()
    };
    assert_eq!(timeout(&from_file), "120s");
    assert_eq!(timeout(&from_env), "120s");
}

/// What a bare number costs someone upgrading: the setting cannot be read, so the gate runs on
/// its built-in defaults (issue 22: it used to refuse every tool call), and the person is told
/// what to write instead on each refusal.
#[test]
fn a_bare_size_in_the_config_is_reported_by_the_hook_with_the_fix() {
    let env = TestEnv::new();
    env.user_config("[ledger]\nrotate_bytes = 104857600\n");
    assert_eq!(denied(&bash(&env, "ls")), None, "the defaults allow it");
    let v = bash(&env, "rm -rf ~");
    assert!(denied(&v).is_some(), "the defaults block it: {v}");
    let notice = v["systemMessage"].as_str().unwrap_or_default();
    assert!(
        notice.contains("ledger.rotate_bytes") && notice.contains("\"104857600B\""),
        "{v}"
    );
    env.user_config("[ledger]\nrotate_bytes = \"100MB\"\n");
    assert_eq!(denied(&bash(&env, "ls")), None);
    assert!(bash(&env, "rm -rf ~").get("systemMessage").is_none());
}

/// A `[[secrets.rules]]` entry whose regex does not compile surfaced as "bad record: …" on the
/// first write, naming neither the setting nor the file. It now says which rule, why the regex
/// is wrong and where the rule was written, on every command that redacts and in `trail config`.
#[test]
fn a_bad_secret_rule_regex_was_reported_as_a_bad_record() {
    let env = TestEnv::new();
    env.user_config(BROKEN_SECRET_RULE);
    let says_so = |out: &std::process::Output| {
        let err = stderr(out);
        assert_eq!(code(out), 2, "{err}");
        assert!(
            !err.contains("bad record")
                && err.contains("[[secrets.rules]]")
                && err.contains("`acme`")
                && err.contains("invalid regex")
                && err.contains("unclosed group")
                && err.contains(
                    &env.home
                        .join(".config/trail/config.toml")
                        .display()
                        .to_string(),
                ),
            "{err}"
        );
    };
    says_so(&env.run(&["pulse", "--proj", "p", "--summary", "s"]));
    says_so(&env.run_stdin(&["redact"], "nothing secret\n"));
    says_so(&env.run(&["config"]));
    // The hook cannot refuse the session over it, but says the same on stderr.
    let payload = serde_json::json!({
        "hook_event_name": "PostToolUse", "session_id": "s", "cwd": env.cwd,
        "tool_name": "Bash", "tool_input": {"command": "echo hi"},
        "tool_response": {"stdout": "hi"},
    });
    let out = env.run_stdin(&["hook", "claude-code"], &payload.to_string());
    let err = stderr(&out);
    assert_eq!(code(&out), 0, "{err}");
    assert!(
        err.starts_with("trail hook: secret rule `acme` ([[secrets.rules]] in ")
            && err.contains("invalid regex"),
        "{err}"
    );
    assert!(!env.stream().exists(), "nothing was written");
}

/// With a `[[secrets.rules]]` entry that did not compile, SessionEnd and PreCompact skipped
/// daily memory without a word: the redactor's error was dropped on the floor. It is reported.
#[test]
fn daily_memory_was_skipped_silently_when_a_secret_rule_was_broken() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.user_config(BROKEN_SECRET_RULE);
    let transcript = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../trail-core/tests/data/transcripts/spotter_tool_heavy.jsonl");
    let payload = serde_json::json!({
        "hook_event_name": "SessionEnd", "session_id": "s", "transcript_path": transcript,
        "reason": "exit",
    });
    let out = env.run_stdin(&["hook", "claude-code"], &payload.to_string());
    let err = stderr(&out);
    assert_eq!(code(&out), 0, "{err}");
    assert!(
        err.contains("trail hook: cannot write daily memory: secret rule `acme`"),
        "{err}"
    );
    assert!(
        !env.cwd.join(".trail/memory").exists(),
        "nothing was written"
    );
}

/// With a `[[secrets.rules]]` entry that did not compile, PreToolUse kept a junction's command
/// unredacted: the built-in rules were skipped along with the broken one, and a token in a
/// `git push` reached `.trail/state/pending.json` and active_context.yaml as it was.
#[test]
fn a_broken_secret_rule_switched_redaction_off_for_junctions() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.user_config(BROKEN_SECRET_RULE);
    let token = "ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ";
    let command = format!("git push https://x:{token}@github.com/o/r.git main");
    let payload = serde_json::json!({
        "hook_event_name": "PreToolUse", "session_id": "s", "cwd": env.cwd,
        "tool_name": "Bash", "tool_input": {"command": command},
    });
    let out = env.run_stdin(&["hook", "claude-code"], &payload.to_string());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answer = stdout(&out);
    assert!(
        answer.contains("Junction j-"),
        "a push is a junction: {answer}"
    );
    let err = stderr(&out);
    assert_eq!(
        occurrences(&err, "trail hook: secret rule `acme`"),
        1,
        "{err}"
    );
    for f in [
        env.cwd.join(".trail/state/pending.json"),
        env.cwd.join("active_context.yaml"),
    ] {
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(
            !text.contains(token) && text.contains("${secret:"),
            "{}: {text}",
            f.display()
        );
    }
    assert!(!answer.contains(token), "{answer}");
}

/// The stream lock's holder note (`pulses.lock`, read in lock-wait alerts) named the writer by
/// its whole command line, so `trail pulse --fact "<a secret>"` left the secret there in plain
/// text: redaction covers what is written to the stream, not the note. Found by the decide
/// tests' "no file holds the key" walk. The note now names the program and subcommand only.
#[test]
fn the_stream_lock_note_kept_a_secret_from_the_command_line() {
    let env = TestEnv::new();
    let key = "AKIAQ3EGRRZ7JXLM4KVD";
    env.ok(&[
        "pulse",
        "--proj",
        "p",
        "--fact",
        &format!("deploy key {key}"),
    ]);
    for f in files_under(&env.root) {
        if f.starts_with(env.home.join(".secrets")) {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
        assert!(!text.contains(key), "{} holds the key", f.display());
    }
    let note = std::fs::read_to_string(env.trail_home.join("stream/pulses.lock")).unwrap();
    assert!(
        note.contains("command=") && note.contains(" pulse"),
        "{note}"
    );
}
