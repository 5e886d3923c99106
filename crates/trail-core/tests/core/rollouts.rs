//! A real Codex rollout (`tests/data/rollouts/`) read for everything a Claude Code transcript is
//! read for: the person's prompts, commands and how they ended, the context size, daily memory.

use std::path::{Path, PathBuf};

use trail_core::conversation::{self, Format};
use trail_core::memory::daily::extract;
use trail_core::secrets::Secrets;

fn rollout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/rollouts/codex-0.169.0_exec_then_resume.jsonl")
}

#[test]
fn a_rollout_reads_as_the_sessions_prompts_commands_and_context() {
    let text = std::fs::read_to_string(rollout()).unwrap();
    assert_eq!(Format::of(text.as_bytes()), Format::CodexRollout);
    let t = conversation::parse(&text);
    assert!(t.bad_lines.is_empty(), "{:?}", t.bad_lines);
    // The person's two prompts, not what Codex and the hooks injected around them.
    let asked: Vec<&str> = t
        .messages
        .iter()
        .filter(|m| m.role == "user")
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(
        asked,
        [
            "SCRIPTED-E2E: remember this session",
            "SCRIPTED-E2E: and then this"
        ]
    );
    let ran: Vec<(&str, bool)> = t
        .tool_calls
        .iter()
        .map(|c| (c.input["command"].as_str().unwrap(), c.is_error))
        .collect();
    assert_eq!(
        ran,
        [
            ("echo made > made.txt", false),
            ("ls /definitely/not/here", true),
            ("echo again", false)
        ]
    );
    assert!(t.tool_calls.iter().all(|c| c.name == "Bash"));
    // The last request had 10 tokens of context (the first session's had 150000).
    assert_eq!(t.context_tokens, Some(10));
    assert_eq!(conversation::context_tokens(&rollout()).unwrap(), Some(10));
    // Session 2 (the resume) starts with the last `thread_settings_applied`.
    let first_session = &text[..text.rfind("thread_settings_applied").unwrap()];
    let first_session = &first_session[..=first_session.rfind('\n').unwrap()];
    assert_eq!(
        conversation::parse(first_session).context_tokens,
        Some(150_000)
    );
}

#[test]
fn a_rollout_flushes_to_daily_memory_and_its_tail_keeps_its_format() {
    let text = std::fs::read_to_string(rollout()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
    let body = secrets
        .pass(|p| extract(&conversation::parse(&text), p))
        .unwrap();
    assert!(
        body.contains(
            "### Asked\n- SCRIPTED-E2E: remember this session\n- SCRIPTED-E2E: and then this\n"
        ),
        "{body}"
    );
    assert!(
        body.contains("- `echo made > made.txt` — ok\n- `ls /definitely/not/here` — failed\n- `echo again` — ok\n"),
        "{body}"
    );
    // The part after a flush has no `session_meta`: the whole file's format reads it.
    let tail = &text[text.rfind("thread_settings_applied").unwrap()..];
    let tail = &tail[tail.find('\n').unwrap() + 1..];
    let t = Format::of(text.as_bytes()).parse(tail);
    assert_eq!(t.messages[0].text, "SCRIPTED-E2E: and then this");
    assert_eq!(t.tool_calls.len(), 1);
}
