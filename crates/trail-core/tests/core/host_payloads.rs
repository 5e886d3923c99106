//! Every real hook payload in tests/data/payloads decodes, and decodes to the right event.

use std::path::Path;

use serde_json::Value;
use trail_core::host::render::{MAX_CONTEXT_CHARS, Response, render};
use trail_core::host::{Event, Host, SessionSource, Tool, ToolInput, decode};

fn payloads() -> Vec<(String, serde_json::Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/payloads");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        if name.contains("status_line") {
            // Status-line command input (`{timestamp, input_data}`), not a hook event.
            continue;
        }
        if name.ends_with(".jsonl") {
            for (i, line) in text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty())
            {
                out.push((
                    format!("{name}:{}", i + 1),
                    serde_json::from_str(line).unwrap(),
                ));
            }
        } else if name.ends_with(".json") {
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            for (i, p) in v.as_array().unwrap().iter().enumerate() {
                out.push((format!("{name}[{i}]"), p.clone()));
            }
        }
    }
    out
}

#[test]
fn every_corpus_payload_decodes_to_its_event() {
    let all = payloads();
    assert!(all.len() >= 60, "only {} payloads found", all.len());
    let mut seen = std::collections::BTreeMap::new();
    let mut shapes = std::collections::BTreeSet::new();
    for (name, v) in &all {
        let bytes = serde_json::to_vec(v).unwrap();
        let (env, event) = decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            env.session_id.is_some() && env.cwd.is_some(),
            "{name}: envelope lost"
        );
        let kind = v["hook_event_name"].as_str().unwrap().to_string();
        match (&kind[..], &event) {
            ("PreToolUse", Event::ToolRequested { tool, input, .. }) => {
                shapes.insert(typed(name, tool, input, &v["tool_input"]));
            }
            (
                "PostToolUse",
                Event::ToolFinished {
                    tool,
                    input,
                    sent,
                    response,
                    ..
                },
            ) => {
                assert_eq!(response.as_ref(), Some(&v["tool_response"]), "{name}");
                assert_eq!(sent, &v["tool_input"], "{name}");
                shapes.insert(typed(name, tool, input, sent));
            }
            ("SessionStart", Event::SessionStarted { .. })
            | ("UserPromptSubmit", Event::PromptSubmitted { .. })
            | ("Stop", Event::StopRequested { .. })
            | ("SubagentStop", Event::SubagentStopped { .. })
            | ("Notification", Event::Notified { .. }) => {}
            (k, e) => panic!("{name}: {k} decoded as {e:?}"),
        }
        *seen.entry(kind).or_insert(0) += 1;
    }
    for k in [
        "PreToolUse",
        "PostToolUse",
        "SessionStart",
        "UserPromptSubmit",
        "Stop",
        "SubagentStop",
        "Notification",
    ] {
        assert!(seen.contains_key(k), "no {k} payload decoded: {seen:?}");
    }
    // Claude Code's Bash, Edit, Read and others; Codex's Bash and apply_patch.
    for shape in ["Bash", "Edit", "Read", "Other", "ApplyPatch"] {
        assert!(
            shapes.contains(shape),
            "no {shape} input decoded: {shapes:?}"
        );
    }
}

/// Checks that a real payload's typed input says what its `tool_input` says; returns the shape.
fn typed(name: &str, tool: &Tool, input: &ToolInput, sent: &Value) -> &'static str {
    let text = |k: &str| sent[k].as_str().map(String::from);
    match (tool, input) {
        (Tool::Bash, ToolInput::Bash { command }) => {
            assert!(command.is_some(), "{name}: no command");
            assert_eq!(command, &text("command"), "{name}");
            "Bash"
        }
        (Tool::ApplyPatch, ToolInput::ApplyPatch { patch }) => {
            assert_eq!(patch, &text("command"), "{name}");
            assert!(!input.files().is_empty(), "{name}: the patch names no file");
            "ApplyPatch"
        }
        (Tool::Edit, ToolInput::Edit { path, replace }) => {
            assert_eq!(path, &text("file_path"), "{name}");
            let replace = replace
                .as_ref()
                .unwrap_or_else(|| panic!("{name}: no change"));
            assert_eq!(Some(&replace.old), text("old_string").as_ref(), "{name}");
            assert_eq!(Some(&replace.new), text("new_string").as_ref(), "{name}");
            "Edit"
        }
        (Tool::Read, ToolInput::Read { path }) => {
            assert_eq!(path, &text("file_path"), "{name}");
            "Read"
        }
        (Tool::TodoWrite | Tool::Other(_) | Tool::Mcp { .. }, ToolInput::Other(v)) => {
            assert_eq!(v, sent, "{name}");
            "Other"
        }
        (t, i) => panic!("{name}: {t} decoded as {i:?}"),
    }
}

#[test]
fn unknown_events_and_fields_are_ignored_not_rejected() {
    let (_, e) =
        decode(br#"{"hook_event_name":"PermissionDenied","session_id":"s","brand_new":{"x":1}}"#)
            .unwrap();
    assert_eq!(e, Event::Ignored);
    let (env, e) = decode(br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t1","permission_mode":"plan","prompt_id":"p","future":[1,2]}"#).unwrap();
    assert_eq!(env.permission_mode.as_deref(), Some("plan"));
    assert!(
        matches!(e, Event::ToolRequested { tool: Tool::Bash, tool_use_id: Some(ref id), .. } if id == "t1")
    );
}

#[test]
fn malformed_payloads_say_where_and_what_is_missing() {
    let e = decode(b"{\"hook_event_name\": \"PreToolUse\",\n \"tool_name\": ").unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
    let e = decode(br#"{"hook_event_name":"PreToolUse","tool_input":{}}"#).unwrap_err();
    assert!(e.to_string().contains("tool_name"), "{e}");
    assert!(decode(b"[]").is_err());
    assert!(decode(b"").is_err());
}

#[test]
fn failures_are_reported_from_the_hosts_own_signals() {
    let (_, e) = decode(br#"{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"false"},"error":"Exit code 1"}"#).unwrap();
    assert!(
        matches!(e, Event::ToolFinished { ok: false, error: Some(ref m), .. } if m == "Exit code 1")
    );
    let (_, e) = decode(br#"{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"","stderr":"","interrupted":true}}"#).unwrap();
    assert!(matches!(e, Event::ToolFinished { ok: false, .. }));
    let (_, e) = decode(br#"{"hook_event_name":"PostToolUse","tool_name":"mcp__github__create_issue","tool_response":{"is_error":true,"content":"rate limited"}}"#).unwrap();
    assert!(matches!(
        e,
        Event::ToolFinished {
            ok: false,
            tool: Tool::Mcp { .. },
            ..
        }
    ));
    let (_, e) = decode(br#"{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":{"stdout":"ok","stderr":"","interrupted":false},"duration_ms":1500}"#).unwrap();
    assert!(
        matches!(e, Event::ToolFinished { ok: true, duration: Some(d), .. } if d.as_millis() == 1500)
    );
    let (_, e) = decode(br#"{"hook_event_name":"SessionStart","source":"compact"}"#).unwrap();
    assert_eq!(
        e,
        Event::SessionStarted {
            source: SessionSource::Compact
        }
    );
}

#[test]
fn responses_render_in_each_hosts_format() {
    assert_eq!(render(Host::ClaudeCode, &Response::Silent), None);
    let deny = render(
        Host::ClaudeCode,
        &Response::Deny {
            reason: "no".into(),
        },
    )
    .unwrap();
    assert_eq!(deny["hookSpecificOutput"]["permissionDecision"], "deny");
    assert_eq!(deny["hookSpecificOutput"]["permissionDecisionReason"], "no");
    let codex = render(
        Host::Codex,
        &Response::Deny {
            reason: "no".into(),
        },
    )
    .unwrap();
    assert_eq!(
        codex.as_object().unwrap().keys().collect::<Vec<_>>(),
        vec!["hookSpecificOutput"]
    );
    let long = "é".repeat(MAX_CONTEXT_CHARS * 2);
    let ctx = render(
        Host::ClaudeCode,
        &Response::Context {
            event: "SessionStart",
            text: long,
        },
    )
    .unwrap();
    let text = ctx["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(text.chars().count() <= MAX_CONTEXT_CHARS);
    assert!(text.ends_with("for everything)"));
}
