//! Every real transcript reads, and the context size read from the end agrees with a full read.

use std::path::{Path, PathBuf};

use trail_core::transcript::{context_tokens, parse};

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/transcripts");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_corpus_transcript_reads_and_the_tail_read_agrees_with_the_full_read() {
    let files = corpus();
    assert_eq!(files.len(), 7);
    for f in &files {
        let t = parse(&std::fs::read_to_string(f).unwrap());
        assert!(t.bad_lines.is_empty(), "{}: {:?}", f.display(), t.bad_lines);
        assert!(!t.messages.is_empty(), "{}", f.display());
        assert_eq!(
            context_tokens(f).unwrap(),
            t.context_tokens,
            "{}",
            f.display()
        );
    }
}

#[test]
fn a_message_split_over_lines_is_counted_once() {
    let text = std::fs::read_to_string(
        corpus()
            .into_iter()
            .find(|p| p.ends_with("spotter_short.jsonl"))
            .unwrap(),
    )
    .unwrap();
    let t = parse(&text);
    // Sum usage naively over every assistant line, then compare with the deduplicated total.
    let mut naive = 0u64;
    let mut ids = std::collections::HashSet::new();
    let mut repeated = false;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] == "assistant" && v["isSidechain"] != true {
            naive += v["message"]["usage"]["output_tokens"].as_u64().unwrap_or(0);
            repeated |= !ids.insert(v["message"]["id"].as_str().unwrap_or("").to_string());
        }
    }
    assert!(repeated, "the fixture should repeat a message id");
    assert!(
        t.usage.output_tokens < naive,
        "{} vs naive {naive}",
        t.usage.output_tokens
    );
    assert!(t.context_tokens.is_some_and(|c| c > 0));
}

#[test]
fn compaction_is_seen_with_its_summary_and_resets_the_context_size() {
    let f = corpus()
        .into_iter()
        .find(|p| p.to_string_lossy().contains("compact_window"))
        .unwrap();
    let t = parse(&std::fs::read_to_string(&f).unwrap());
    assert_eq!(t.compactions.len(), 1);
    assert_eq!(t.compactions[0].pre_tokens, Some(170_251));
    assert_eq!(t.compactions[0].trigger.as_deref(), Some("auto"));
    assert!(t.summary.as_ref().is_some_and(|s| s.len() > 100));
    // After the boundary, the context is what the newer messages report: far below 170k.
    if let Some(c) = t.context_tokens {
        assert!(c < 170_251, "{c}");
    }
}

#[test]
fn sidechains_do_not_count_as_the_main_context() {
    let f = corpus()
        .into_iter()
        .find(|p| p.to_string_lossy().contains("agent-acompact"))
        .unwrap();
    let t = parse(&std::fs::read_to_string(&f).unwrap());
    assert!(
        t.messages.iter().all(|m| m.sidechain),
        "a subagent file is all sidechain"
    );
    assert_eq!(t.context_tokens, None);
    assert_eq!(t.usage.input_tokens, 0);
}

#[test]
fn broken_lines_are_counted_not_fatal() {
    let t = parse(
        "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\nnot json\n{\"type\":\"mystery\"}\n",
    );
    assert_eq!(t.bad_lines, vec![2]);
    assert_eq!(t.messages.len(), 1);
}
