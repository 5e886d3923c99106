//! Every corpus transcript flushed to daily memory, compared with a committed expected file
//! (`tests/data/daily-expected/<transcript>.md`) and checked free of secrets.
//!
//! After an intended change to the flush, rewrite the expected files with
//! `TRAIL_BLESS=1 cargo test -p trail-core --test core daily_snapshots::` and review the diff.

use std::path::{Path, PathBuf};

use trail_core::memory::daily::{Trigger, flush};
use trail_core::secrets::{Redactor, Secrets};
use trail_core::time::Ts;
use trail_core::transcript::parse;

/// Every `${secret:…}` reference in `text`.
fn references(text: &str) -> Vec<&str> {
    text.match_indices("${secret:")
        .filter_map(|(i, _)| text[i..].find('}').map(|end| &text[i..=(i + end)]))
        .collect()
}

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

#[test]
fn every_corpus_transcript_flushes_to_its_expected_daily_memory_without_secrets() {
    let bless = std::env::var_os("TRAIL_BLESS").is_some_and(|v| v == "1");
    let mut names: Vec<PathBuf> = std::fs::read_dir(data().join("transcripts"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    names.sort();
    assert!(names.len() >= 6, "the corpus copy is missing: {names:?}");
    let now = &Ts::parse_strict("2026-11-26T14:30:00.000Z")
        .unwrap()
        .in_utc();
    let mut mismatched = Vec::new();
    for path in &names {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let t = parse(&std::fs::read_to_string(path).unwrap());
        let dir = tempfile::tempdir().unwrap();
        let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
        let done = flush(
            dir.path(),
            &t,
            Trigger::SessionEnd,
            Some(&name),
            now,
            &secrets,
        )
        .unwrap();
        let got = std::fs::read_to_string(&done.path).unwrap_or_default();

        // Free of secrets: nothing the redactor would still catch, and no original of what it
        // caught during the flush; and every reference in it can be looked up.
        let mut left = Vec::new();
        Redactor::builtin().redact(&got, &mut left);
        assert!(
            left.is_empty(),
            "{name}: secrets left in the flush: {left:?}"
        );
        for reference in references(&got) {
            let original = secrets.lookup(reference).unwrap();
            let original = original.unwrap_or_else(|| {
                panic!("{name}: {reference} was written but its original not kept")
            });
            assert!(
                !got.contains(&original),
                "{name}: the original of {reference} is in the flush"
            );
        }

        let expected_path = data().join("daily-expected").join(format!("{name}.md"));
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_else(|_| {
            panic!(
                "{} is missing: run with TRAIL_BLESS=1 to create it",
                expected_path.display()
            )
        });
        if got != want {
            mismatched.push(format!("{name}:\n--- expected\n{want}\n--- got\n{got}"));
        }
    }
    assert!(
        mismatched.is_empty(),
        "flushes differ from tests/data/daily-expected (TRAIL_BLESS=1 rewrites them after an intended change):\n{}",
        mismatched.join("\n")
    );
}
