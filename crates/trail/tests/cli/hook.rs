//! `trail hook claude-code|codex` with real payloads on stdin.

use std::path::Path;

use crate::common::*;

fn corpus(kind: &str) -> Vec<serde_json::Value> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../trail-core/tests/data/payloads");
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.to_string_lossy().to_string();
        let text = std::fs::read_to_string(&p).unwrap();
        let items: Vec<serde_json::Value> = if name.ends_with(".jsonl") {
            text.lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        } else if name.ends_with(".json") && !name.contains("status_line") {
            serde_json::from_str(&text).unwrap()
        } else {
            continue;
        };
        out.extend(items.into_iter().filter(|v| v["hook_event_name"] == kind));
    }
    out
}

fn hook(env: &TestEnv, payload: &str) -> (i32, String, String) {
    let out = env.run_stdin(&["hook", "claude-code"], payload);
    (code(&out), stdout(&out), stderr(&out))
}

/// Found by the PowerShell property test (issue 23): a word like `-é/x` made the gate slice a
/// character in half and panic; the hook died without an answer, and a dead PreToolUse hook
/// lets the whole line through where the host does not fail closed (Codex; Claude Code without
/// `onFailure: block`), `rm -rf ~` included.
#[test]
fn a_word_with_a_wide_character_after_a_dash_is_judged() {
    let env = TestEnv::new().env("CLAUDE_PROJECT_DIR", "/work/proj");
    let (c, out, _) = hook(
        &env,
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~; acme -é/x"}}"#,
    );
    assert_eq!(c, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out}"
    );
}

/// Whatever fails inside the check of a tool call, the call is refused with a reason, not let
/// through by a hook that died without answering.
#[test]
fn a_hook_that_fails_while_checking_refuses_the_tool_call() {
    let env = TestEnv::new()
        .env("CLAUDE_PROJECT_DIR", "/work/proj")
        .env("TRAIL_TEST_PANIC_IN_HOOK", "1");
    let (c, out, err) = hook(
        &env,
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cargo test"}}"#,
    );
    assert_eq!(c, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    let reason = v["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    insta::assert_snapshot!(reason, @"trail failed while checking this tool call (an internal error), so it is refused to be safe. `trail gate -- 'COMMAND'` shows the failure; please report it");
    // Where it failed (a line of trail's source, which moves with every edit) is for stderr.
    assert!(err.contains("internal error at"), "{err}");
    // Other events are not tool calls: the switch changes nothing there.
    let (c, _, _) = hook(
        &env,
        r#"{"hook_event_name":"UserPromptSubmit","prompt":"hi"}"#,
    );
    assert_eq!(c, 0);
}

#[test]
fn pre_tool_use_denies_what_the_gate_refuses_and_says_nothing_otherwise() {
    let env = TestEnv::new().env("CLAUDE_PROJECT_DIR", "/work/proj");
    let (c, out, _) = hook(
        &env,
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}"#,
    );
    assert_eq!(c, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(
        v["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("rm-recursive-critical")
    );
    let (c, out, _) = hook(
        &env,
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push origin main"}}"#,
    );
    assert_eq!(c, 0);
    assert!(
        out.contains("a person's decision") && out.contains("git-push"),
        "{out}"
    );
    // An allow prints no decision at all: the user's own permission rules still apply.
    let (c, out, _) = hook(
        &env,
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cargo test"}}"#,
    );
    assert_eq!((c, out.as_str()), (0, ""));
    let (c, out, _) = hook(
        &env,
        r#"{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/etc/hosts"}}"#,
    );
    assert_eq!((c, out.as_str()), (0, ""));
}

#[test]
fn a_shell_call_whose_command_cannot_be_read_is_denied() {
    let env = TestEnv::new().env("CLAUDE_PROJECT_DIR", "/work/proj");
    let mut said = String::new();
    for input in [r#"{"command":["rm","-rf","~"]}"#, "{}", "null"] {
        let (c, out, _) = hook(
            &env,
            &format!(
                r#"{{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{input}}}"#
            ),
        );
        assert_eq!(c, 0);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            v["hookSpecificOutput"]["permissionDecision"], "deny",
            "{input}"
        );
        let reason = v["hookSpecificOutput"]["permissionDecisionReason"].as_str();
        said += &format!("{input}\n{}\n", reason.unwrap());
    }
    insta::assert_snapshot!(said, @r#"
    {"command":["rm","-rf","~"]}
    trail could not find the command in this shell tool call (it reads `command`, a string), so it is refused to be safe: send the command line as one string
    {}
    trail could not find the command in this shell tool call (it reads `command`, a string), so it is refused to be safe: send the command line as one string
    null
    trail could not find the command in this shell tool call (it reads `command`, a string), so it is refused to be safe: send the command line as one string
    "#);
}

#[test]
fn every_captured_pre_tool_use_payload_gets_a_well_formed_answer() {
    let env = TestEnv::new();
    let payloads = corpus("PreToolUse");
    assert!(payloads.len() >= 20);
    for p in payloads {
        let (c, out, err) = hook(&env, &p.to_string());
        assert_eq!(c, 0, "{p}: {err}");
        if !out.is_empty() {
            let v: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(
                v["hookSpecificOutput"]["permissionDecision"], "deny",
                "{out}"
            );
        }
    }
}

#[test]
fn post_tool_use_appends_one_proof_line_per_call_with_the_real_outcome() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let payloads = corpus("PostToolUse");
    assert!(payloads.len() >= 14);
    for p in &payloads {
        let (c, out, err) = hook(&env, &p.to_string());
        assert_eq!((c, out.as_str()), (0, ""), "{err}");
    }
    let (c, _, _) = hook(
        &env,
        r#"{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"cargo test"},"error":"Exit code 101"}"#,
    );
    assert_eq!(c, 0);
    let log = std::fs::read_to_string(env.cwd.join(".proof/session_log.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), payloads.len() + 1);
    let last = lines.last().unwrap();
    assert_eq!(last["success"], false);
    assert_eq!(last["error"], "Exit code 101");
    assert!(
        lines
            .iter()
            .all(|l| l["input_preview"].as_str().unwrap().chars().count() <= 500)
    );
}

#[test]
fn malformed_payloads_fail_closed_only_before_a_tool_runs() {
    let env = TestEnv::new();
    let (c, out, _) = hook(&env, r#"{"hook_event_name":"PreToolUse","tool_name":"#);
    assert_eq!(c, 0);
    assert!(out.contains("\"deny\""), "{out}");
    let (c, out, err) = hook(&env, r#"{"hook_event_name":"PostToolUse", nope"#);
    assert_eq!((c, out.as_str()), (0, ""));
    assert!(err.contains("could not read"), "{err}");
    assert!(!env.cwd.join(".proof").exists());
    assert_eq!(code(&env.run_stdin(&["hook", "vim"], "{}")), 2);
}

#[test]
fn session_start_injects_the_rehydrated_state_and_stop_never_blocks() {
    let env = TestEnv::new();
    let (_, out, _) = hook(
        &env,
        r#"{"hook_event_name":"SessionStart","source":"startup"}"#,
    );
    assert_eq!(out, "", "nothing to inject on an empty ledger");
    env.ok(&[
        "pulse",
        "--proj",
        "shop",
        "--intent",
        "continue",
        "--summary",
        "fix rounding",
        "--next",
        "add the regression test",
    ]);
    let (c, out, _) = hook(
        &env,
        r#"{"hook_event_name":"SessionStart","source":"compact"}"#,
    );
    assert_eq!(c, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ctx = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(ctx.contains("add the regression test"), "{ctx}");
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    let stops: Vec<_> = corpus("Stop")
        .into_iter()
        .chain(corpus("SubagentStop"))
        .collect();
    assert!(stops.len() >= 2);
    for p in &stops {
        let (c, out, _) = hook(&env, &p.to_string());
        assert_eq!((c, out.as_str()), (0, ""));
    }
    let (c, out, _) = hook(
        &env,
        r#"{"hook_event_name":"Stop","stop_hook_active":true}"#,
    );
    assert_eq!((c, out.as_str()), (0, ""));
}

#[test]
fn compaction_and_session_end_flush_daily_memory_once() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let transcript = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../trail-core/tests/data/transcripts/spotter_tool_heavy.jsonl");
    let payload = |event: &str| {
        serde_json::json!({"hook_event_name": event, "session_id": "abc123", "transcript_path": transcript, "trigger": "auto", "reason": "other"}).to_string()
    };
    let (c, out, err) = hook(&env, &payload("PreCompact"));
    assert_eq!((c, out.as_str()), (0, ""), "{err}");
    let (c, _, _) = hook(&env, &payload("SessionEnd"));
    assert_eq!(c, 0);
    let (c, _, _) = hook(&env, &payload("SessionEnd"));
    assert_eq!(c, 0);
    let dir = env.cwd.join(".trail/memory");
    // Day files (the session end may also have started a dream, whose diary goes in dreams/).
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    assert_eq!(files.len(), 1);
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(text.starts_with("# Daily Memory: "), "{text}");
    assert_eq!(text.matches("## Trimmed Context (").count(), 1, "{text}");
    // The session end carries the same content as the trimmed context: nothing new to add.
    assert_eq!(text.matches("## Session abc123").count(), 0, "{text}");
    let out = env.ok(&[
        "memory",
        "flush",
        "--transcript",
        transcript.to_str().unwrap(),
    ]);
    assert!(out.contains("nothing new"), "{out}");

    // The context summary callback: the next prompt gets the flushed block back, once.
    let prompt = serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": "abc123", "prompt": "go on"}).to_string();
    let (_, out, _) = hook(&env, &prompt);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ctx = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        ctx.contains("what the last flush kept") && ctx.contains("## Trimmed Context ("),
        "{ctx}"
    );
    assert!(!ctx.contains("trail:flush sha256"), "{ctx}");
    let (_, out, _) = hook(&env, &prompt);
    assert_eq!(out, "", "given back once");
}

#[test]
fn remember_and_recall_round_trip_with_sources() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let out = env.ok(&["remember", "the staging DB is on port 5433"]);
    assert!(out.contains("memory/") && out.contains("#L4"), "{out}");
    env.ok(&["remember", "deploys need the VPN"]);
    let hits: serde_json::Value =
        serde_json::from_str(&env.ok(&["recall", "--json", "staging port"])).unwrap();
    assert!(
        hits[0]["source"].as_str().unwrap().ends_with("#L4"),
        "{hits}"
    );
    assert!(hits[0]["text"].as_str().unwrap().contains("5433"));
    assert!(
        env.ok(&["recall", "kubernetes"])
            .contains("nothing in memory matches")
    );
    assert_eq!(code(&env.run(&["remember", "  "])), 2);
    assert!(env.ok(&["memory", "show"]).contains("deploys need the VPN"));
}

/// `remember --json` gives the note's source reference alone, and the line it points at holds
/// the note as written, redacted.
#[test]
fn remember_json_gives_the_source_of_the_redacted_note() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.ok(&["remember", "the staging DB is on port 5433"]);
    let key = "ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ";
    let v: serde_json::Value =
        serde_json::from_str(&env.ok(&["remember", "--json", &format!("the CI token is {key}")]))
            .unwrap();
    let source = v["source"].as_str().unwrap();
    assert_eq!(v.as_object().unwrap().len(), 1, "{v}");
    let (file, line) = source.split_once("#L").unwrap();
    let text = std::fs::read_to_string(env.cwd.join(".trail").join(file)).unwrap();
    let line = text
        .lines()
        .nth(line.parse::<usize>().unwrap() - 1)
        .unwrap();
    assert!(line.starts_with("- the CI token is ${secret:"), "{line}");
    assert!(!text.contains(key), "{text}");
}

#[test]
fn memory_verify_names_unsupported_bullets_and_fails() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let src = env.ok(&["remember", "the staging DB is on port 5433"]);
    let src = src
        .trim()
        .trim_start_matches("remembered (")
        .trim_end_matches(')')
        .to_string();
    std::fs::write(
        env.cwd.join(".trail/MEMORY.md"),
        format!("## Infra\n- The staging DB is on port 5433 (src: {src})\n"),
    )
    .unwrap();
    let out = env.ok(&["memory", "verify"]);
    assert!(
        out.contains("verified") && out.contains("0 unsupported"),
        "{out}"
    );
    std::fs::write(
        env.cwd.join(".trail/MEMORY.md"),
        "- The staging DB is on port 6543\n",
    )
    .unwrap();
    let out = env.run(&["memory", "verify", "--json"]);
    assert_eq!(code(&out), 1);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["verdict"], "unsupported");
    assert!(v[0]["why"].as_str().unwrap().contains("6543"));
}

#[test]
fn memory_flush_without_a_transcript_looks_where_claude_code_keeps_them() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let out = env.run(&["memory", "flush"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--transcript"), "{}", stderr(&out));
    // Claude Code's folder for the project: its path with every other character as '-'.
    let slug: String = env
        .cwd
        .to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = env.home.join(".claude/projects").join(slug);
    std::fs::create_dir_all(&dir).unwrap();
    let transcript = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../trail-core/tests/data/transcripts/spotter_tool_heavy.jsonl");
    std::fs::copy(&transcript, dir.join("abc.jsonl")).unwrap();
    let out = env.ok(&["memory", "flush"]);
    assert!(out.contains("flushed to"), "{out}");
}

#[test]
fn what_the_hook_reports_on_stderr_is_prefixed_and_redacted() {
    let env = TestEnv::new();
    let token = "ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ";
    let gone = env.root.join(format!("gone {token} .jsonl"));
    let payload = serde_json::json!({
        "hook_event_name": "SessionEnd", "session_id": "s", "transcript_path": gone,
        "reason": "exit",
    });
    let (c, _, err) = hook(&env, &payload.to_string());
    assert_eq!(c, 0, "{err}");
    assert!(
        err.starts_with("trail hook: cannot read the transcript ")
            && err.contains("${secret:")
            && err.contains("No such file"),
        "{err}"
    );
    assert!(!err.contains(token), "{err}");
}

/// An allowed tool call never redacts, so its PreToolUse builds no secrets service and compiles
/// no secret rule: the per-call cost of the hook stays the gate's. A `[[secrets.rules]]` entry
/// that does not compile is the probe, since the person's rules are compiled when the service
/// first redacts and a broken one is reported then: `ls` says nothing, while the PostToolUse of
/// the same call, which redacts its proof line, reports it.
#[test]
fn an_allowed_pre_tool_use_compiles_no_secret_rule() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.user_config(BROKEN_SECRET_RULE);
    let pre = serde_json::json!({
        "hook_event_name": "PreToolUse", "session_id": "s", "cwd": env.cwd,
        "tool_name": "Bash", "tool_input": {"command": "ls -la"},
    });
    let (c, out, err) = hook(&env, &pre.to_string());
    assert_eq!((c, out.as_str(), err.as_str()), (0, "", ""));
    let post = serde_json::json!({
        "hook_event_name": "PostToolUse", "session_id": "s", "cwd": env.cwd,
        "tool_name": "Bash", "tool_input": {"command": "ls -la"},
        "tool_response": {"stdout": "Cargo.toml"},
    });
    let (c, _, err) = hook(&env, &post.to_string());
    assert_eq!(c, 0, "{err}");
    assert!(err.contains("secret rule `acme`"), "{err}");
}

/// Found by issue 22: one typo in the person's configuration (`[ledger` without its `]`)
/// denied every tool call in every session, the Edit that would fix the file too, and the
/// explanation went to stderr, which the person never sees. The gate now runs on its built-in
/// defaults, and `systemMessage` tells the person at session start and on each refusal.
#[test]
fn a_broken_config_keeps_the_gate_at_its_defaults_and_says_so() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.user_config("[ledger\nmax_records = 5\n");
    let config = env.home.join(".config/trail/config.toml");
    let call = |tool: &str, input: serde_json::Value| {
        let pre = serde_json::json!({
            "hook_event_name": "PreToolUse", "session_id": "s", "cwd": env.cwd,
            "tool_name": tool, "tool_input": input,
        });
        let (c, out, _) = hook(&env, &pre.to_string());
        assert_eq!(c, 0);
        serde_json::from_str::<serde_json::Value>(&out).unwrap_or(serde_json::Value::Null)
    };
    let start = serde_json::json!({
        "hook_event_name": "SessionStart", "session_id": "s", "cwd": env.cwd, "source": "startup",
    });
    let (_, out, _) = hook(&env, &start.to_string());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let notice = v["systemMessage"].as_str().unwrap();
    assert!(
        notice.contains("built-in defaults") && notice.contains("config.toml"),
        "{notice}"
    );
    // Reading, and commands the defaults allow, run.
    let read = call("Read", serde_json::json!({"file_path": config}));
    assert_ne!(
        read["hookSpecificOutput"]["permissionDecision"], "deny",
        "{read}"
    );
    let ls = call("Bash", serde_json::json!({"command": "ls"}));
    assert_ne!(
        ls["hookSpecificOutput"]["permissionDecision"], "deny",
        "{ls}"
    );
    assert!(ls.get("systemMessage").is_none(), "{ls}");
    // What the defaults block is blocked, and the person is told why the defaults rule.
    let rm = call("Bash", serde_json::json!({"command": "rm -rf ~"}));
    assert_eq!(
        rm["hookSpecificOutput"]["permissionDecision"], "deny",
        "{rm}"
    );
    assert!(
        rm["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("rm-recursive-critical"),
        "{rm}"
    );
    assert!(
        rm["systemMessage"]
            .as_str()
            .unwrap()
            .contains("built-in defaults")
    );
    // The fix is a person's decision away, as any edit of trail's configuration is.
    let fix = call(
        "Edit",
        serde_json::json!({"file_path": config, "old_string": "[ledger", "new_string": "[ledger]"}),
    );
    let why = fix["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(
        why.contains("[agent-settings]") && why.contains("pending"),
        "{why}"
    );
}

/// Found by issue 22: an unwritable ledger lost every hook's record with a line on stderr only.
/// The session's start now tells the person, once, through `systemMessage`.
#[test]
fn a_ledger_that_cannot_be_written_is_said_at_session_start() {
    let probe = TestEnv::new();
    std::fs::create_dir_all(probe.cwd.join(".git")).unwrap();
    let file = probe.root.join("not-a-dir");
    std::fs::write(&file, "").unwrap();
    let env = probe.env("TRAIL_HOME", file.to_str().unwrap());
    let start = serde_json::json!({
        "hook_event_name": "SessionStart", "session_id": "s", "cwd": env.cwd, "source": "startup",
    });
    let (c, out, _) = hook(&env, &start.to_string());
    assert_eq!(c, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let notice = v["systemMessage"].as_str().unwrap();
    assert!(
        notice.contains("not a directory") && notice.contains("record nothing"),
        "{notice}"
    );
    // Only at the start: a tool call says nothing more about it.
    let pre = serde_json::json!({
        "hook_event_name": "PreToolUse", "session_id": "s", "cwd": env.cwd,
        "tool_name": "Bash", "tool_input": {"command": "ls"},
    });
    let (_, out, _) = hook(&env, &pre.to_string());
    assert!(!out.contains("systemMessage"), "{out}");
}

/// A project that opted out of sync (`.trail/no-sync`, issue 24): what the hooks write for it
/// goes to the local-only ledger, never to the stream `trail sync` publishes.
#[test]
fn the_hooks_of_a_project_that_opted_out_write_to_the_local_ledger() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    std::fs::create_dir_all(env.cwd.join(".trail")).unwrap();
    std::fs::write(env.cwd.join(".trail/no-sync"), "").unwrap();
    for payload in [
        serde_json::json!({"hook_event_name": "SessionStart", "session_id": "s", "cwd": env.cwd,
            "source": "startup"}),
        serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": "s",
            "cwd": env.cwd, "prompt": "tidy the payroll module"}),
        serde_json::json!({"hook_event_name": "PostToolUse", "session_id": "s", "cwd": env.cwd,
            "tool_name": "Bash", "tool_input": {"command": "cargo test"},
            "tool_response": {"stdout": "ok"}}),
        serde_json::json!({"hook_event_name": "SessionEnd", "session_id": "s", "cwd": env.cwd,
            "reason": "exit"}),
    ] {
        let (c, _, err) = hook(&env, &payload.to_string());
        assert_eq!(c, 0, "{err}");
    }
    let read = |p: &str| std::fs::read(env.trail_home.join(p)).unwrap_or_default();
    let local = read("local/stream/pulses.log.md");
    assert!(
        String::from_utf8_lossy(&local).contains("session s ended"),
        "the hooks wrote nothing to the local ledger"
    );
    let stream = read("stream/pulses.log.md");
    assert!(
        !String::from_utf8_lossy(&stream).contains("schema: ledgerpulse"),
        "a record reached the published stream"
    );
    // The marker is the person's: the agent removing or rewriting it is stopped for them.
    for (tool, input) in [
        ("Bash", serde_json::json!({"command": "rm .trail/no-sync"})),
        (
            "Write",
            serde_json::json!({"file_path": env.cwd.join(".trail/no-sync"), "content": ""}),
        ),
    ] {
        let pre = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
            "cwd": env.cwd, "tool_name": tool, "tool_input": input});
        let (c, out, err) = hook(&env, &pre.to_string());
        assert_eq!(c, 0, "{err}");
        assert!(
            out.contains("\"deny\"") && out.contains("agent-settings"),
            "{tool}: {out}"
        );
    }
}
