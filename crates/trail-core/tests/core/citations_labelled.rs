//! The citation checker measured on labelled documents (`tests/data/labelled/citations/`, see its
//! PROVENANCE.md): Loa's protocol examples, Loa's reviewer file against the files it cites, and
//! families written for trail. Each row's label is the status of the document's last citation
//! (or `none`), under trail's policy.
//!
//!     cargo test -p trail-core --test core citations_labelled::tune -- --nocapture
//!     cargo test -p trail-core --test core citations_labelled::held_out -- --ignored --nocapture

use crate::labelled;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use trail_core::cite::check_document;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/labelled/citations")
}

/// A copy of the tree with the symlinks git cannot be trusted to keep, and a file outside it.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    copy(&data().join("tree"), &root);
    std::fs::write(dir.path().join("outside.txt"), "secret\n").unwrap();
    for row in labelled::rows("citations/symlinks.tsv") {
        std::os::unix::fs::symlink(&row[1], root.join(&row[0])).unwrap();
    }
    (dir, root)
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

#[derive(Default)]
struct Tally {
    right: usize,
    predicted: usize,
    expected: usize,
}

/// Check every row of `file`; print per-status precision and recall and every disagreement.
/// Returns (rows, agreeing rows, drifted/partial rows whose found_at was labelled and matched,
/// of those labelled).
fn evaluate(file: &str) -> (usize, usize, usize, usize) {
    let (_dir, root) = project();
    let rows = labelled::rows(file);
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut agree = 0;
    let (mut found_ok, mut found_n) = (0, 0);
    let mut wrong = Vec::new();
    for row in &rows {
        let (label, family, source, doc) = (&row[0], &row[1], &row[2], &row[3]);
        let want_found = row.get(4).map_or("", String::as_str);
        let report = check_document(doc, &root).unwrap();
        let last = report.citations.last();
        let got = last.map_or("none".to_string(), |c| c.status.to_string());
        tally.entry(got.clone()).or_default().predicted += 1;
        tally.entry(label.clone()).or_default().expected += 1;
        if &got == label {
            tally.entry(got.clone()).or_default().right += 1;
            agree += 1;
        } else {
            wrong.push(format!(
                "  {family} ({source}): want {label}, got {got}: {doc:?}"
            ));
        }
        if !want_found.is_empty() {
            found_n += 1;
            let got_found: Vec<String> = last
                .map(|c| c.found_at.iter().map(usize::to_string).collect())
                .unwrap_or_default();
            if got_found.join(",") == want_found {
                found_ok += 1;
            } else {
                wrong.push(format!(
                    "  {family} ({source}): found_at want {want_found}, got {}: {doc:?}",
                    got_found.join(",")
                ));
            }
        }
    }
    println!(
        "{file}: {agree}/{} rows agree; found_at {found_ok}/{found_n}",
        rows.len()
    );
    println!(
        "  {:<16} {:>9} {:>9} {:>6}",
        "status", "precision", "recall", "rows"
    );
    for (status, t) in &tally {
        let pct = |a: usize, b: usize| {
            if b == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * a as f64 / b as f64)
            }
        };
        println!(
            "  {status:<16} {:>9} {:>9} {:>6}",
            pct(t.right, t.predicted),
            pct(t.right, t.expected),
            t.expected
        );
    }
    for w in &wrong {
        println!("{w}");
    }
    (rows.len(), agree, found_ok, found_n)
}

#[test]
fn tune() {
    let (n, agree, found_ok, found_n) = evaluate("citations/citations-tune.tsv");
    assert!(n > 100, "{n} rows");
    assert_eq!(agree, n, "every tune row agrees (disagreements above)");
    assert_eq!(found_ok, found_n, "every labelled found_at matches");
}

/// Measured once, at the end; printed, not asserted (see the README of tests/data/labelled).
#[test]
#[ignore = "the held-out set is run once, at the end of tuning"]
fn held_out() {
    evaluate("citations/citations-holdout.tsv");
}

/// The symlink list only names links inside the tree, to targets the tests mean.
#[test]
fn the_symlinks_are_the_listed_ones() {
    let rows = labelled::rows("citations/symlinks.tsv");
    assert!(rows.len() >= 8);
    for r in rows {
        assert_eq!(r.len(), 2, "{r:?}");
        assert!(!r[0].starts_with('/') && !r[0].contains(".."), "{r:?}");
    }
}
