//! Flushing real transcripts to daily memory: extractive, redacted, idempotent.

use std::path::Path;

use trail_core::memory::daily::{Trigger, flush, memory_dir};
use trail_core::secrets::Secrets;
use trail_core::time::Ts;
use trail_core::transcript::parse;

fn transcripts() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/transcripts");
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_corpus_transcript_flushes_once_and_only_once() {
    let dir = tempfile::tempdir().unwrap();
    let now = &Ts::parse_strict("2026-11-26T14:30:00.000Z")
        .unwrap()
        .in_utc();
    let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
    for (name, text) in transcripts() {
        let t = parse(&text);
        let first = flush(
            dir.path(),
            &t,
            Trigger::SessionEnd,
            Some(&name),
            now,
            &secrets,
        )
        .unwrap();
        if t.messages.iter().any(|m| m.role == "user" && !m.sidechain) || !t.tool_calls.is_empty() {
            assert!(first.written, "{name}: nothing flushed");
        }
        let again = flush(
            dir.path(),
            &t,
            Trigger::SessionEnd,
            Some(&name),
            now,
            &secrets,
        )
        .unwrap();
        assert!(!again.written, "{name}: a repeated flush added a block");
    }
    let file = memory_dir(dir.path()).join("2026-11-26.md");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# Daily Memory: 2026-11-26\n"), "{text}");
    assert_eq!(text.matches("# Daily Memory:").count(), 1);
    assert!(text.contains("## Session spotter_short.jsonl (14:30)"));
    assert!(text.contains("### Commands"));
    assert!(text.contains("### Files changed"));
    assert!(text.contains("### Compaction\n- auto at 170251 tokens"));
}

#[test]
fn flushes_are_redacted_and_trimmed_context_gets_its_heading() {
    let dir = tempfile::tempdir().unwrap();
    let line = r#"{"type":"user","isSidechain":false,"message":{"role":"user","content":"deploy with GITHUB_TOKEN=ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ please"}}"#;
    let t = parse(line);
    let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
    let now = &Ts::parse_strict("2026-11-26T09:05:00.000Z")
        .unwrap()
        .in_utc();
    let f = flush(dir.path(), &t, Trigger::Compaction, None, now, &secrets).unwrap();
    let text = std::fs::read_to_string(&f.path).unwrap();
    assert!(text.contains("## Trimmed Context (09:05)"), "{text}");
    assert!(!text.contains("ghp_R2d9"), "{text}");
    assert!(text.contains("${secret:github-pat-"), "{text}");
    let kept = std::fs::read_to_string(secrets.store_path()).unwrap();
    assert_eq!(
        kept.matches("ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ")
            .count(),
        1
    );
}

/// Issue 23: a flush that cannot write says which file, and why, as a typed error (it was a
/// bare `io::Error` with neither).
#[test]
fn a_flush_that_cannot_write_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let now = &Ts::parse_strict("2026-11-26T14:30:00.000Z")
        .unwrap()
        .in_utc();
    let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
    // The daily directory is a file: nothing can be written under it.
    let memory = memory_dir(dir.path());
    std::fs::create_dir_all(memory.parent().unwrap()).unwrap();
    std::fs::write(&memory, "not a directory").unwrap();
    let (_, text) = transcripts().into_iter().next().unwrap();
    let e = flush(
        dir.path(),
        &parse(&text),
        Trigger::SessionEnd,
        Some("s1"),
        now,
        &secrets,
    )
    .unwrap_err();
    let trail_core::memory::daily::FlushError::File(file) = &e else {
        panic!("not a file error: {e}");
    };
    assert!(file.path.starts_with(&memory), "{e}");
    assert!(e.to_string().contains(&memory.display().to_string()), "{e}");
}
