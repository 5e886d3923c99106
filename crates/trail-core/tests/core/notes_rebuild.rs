//! NOTES.md is a view (issue 12, item 1): decisions recorded through `decision::record` are in
//! the trajectory and the pulse stream, and `notes::rebuild::rebuild_from_journals` writes the
//! same NOTES.md again from either.

use std::path::Path;

use trail_core::decision::{self, Request};
use trail_core::ledger::{Ledger, LedgerOptions};
use trail_core::notes::{self, rebuild::rebuild_from_journals};
use trail_core::project::Project;

struct Fixture {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    ledger: Ledger,
    project: Project,
    loc: notes::Location,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("project");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/auth.rs"),
        "pub fn rotate() {}\npub fn validate(token: &str) -> bool {\n    !token.is_empty()\n}\n",
    )
    .unwrap();
    let ledger = Ledger::open(
        dir.path().join("ledger"),
        LedgerOptions::new(dir.path().join("secrets")),
    );
    let project = Project::discover(&root);
    let loc = notes::locate(&root, None, None).unwrap();
    Fixture {
        _dir: dir,
        root,
        ledger,
        project,
        loc,
    }
}

fn decide(f: &Fixture, title: &str, evidence: &[&str], tests: usize) -> decision::Recorded {
    let cx = decision::Context {
        root: &f.root,
        ledger: &f.ledger,
        project: &f.project,
        session: Some("sess-1"),
        notes: &f.loc,
        bead_in_progress: None,
    };
    decision::record(
        &cx,
        Request {
            title: title.into(),
            decision: format!("{title}, decided"),
            rationale: "because\nof reasons".into(),
            evidence: evidence
                .iter()
                .map(std::string::ToString::to_string)
                .collect(),
            tests: (0..tests).map(|i| format!("scenario {i}")).collect(),
            bead: None,
        },
    )
    .unwrap()
}

fn notes_text(f: &Fixture) -> String {
    std::fs::read_to_string(&f.loc.path).unwrap()
}

#[test]
fn a_lost_notes_file_comes_back_byte_for_byte_from_either_journal() {
    let f = fixture();
    let r = decide(
        &f,
        "Rotate tokens",
        &["`pub fn rotate() {}` [${PROJECT_ROOT}/src/auth.rs:1]"],
        3,
    );
    assert!(r.notes_created && r.unverified.is_empty(), "{r:?}");
    let r = decide(
        &f,
        "Validate tokens",
        &[
            "```\npub fn validate(token: &str) -> bool {\n    !token.is_empty()\n```\n[${PROJECT_ROOT}/src/auth.rs:2-3]",
            "`nowhere()` [${PROJECT_ROOT}/src/auth.rs:1]",
        ],
        2,
    );
    assert_eq!(r.unverified, ["[${PROJECT_ROOT}/src/auth.rs:1]"]);
    decide(
        &f,
        "Same identifier again",
        &["${PROJECT_ROOT}/src/auth.rs:1"],
        0,
    );
    let written = notes_text(&f);
    assert_eq!(
        written.matches("| ${PROJECT_ROOT}/src/auth.rs:1 |").count(),
        1,
        "{written}"
    );

    let both = rebuild_from_journals(&f.root, Some(&f.ledger), &f.project, None).unwrap();
    assert_eq!((both.from_trajectory, both.from_stream), (3, 0));
    assert_eq!(both.text, written);

    // Without the trajectory, the pulse stream alone gives the same file.
    std::fs::remove_dir_all(f.root.join(".trail/trajectory")).unwrap();
    let stream = rebuild_from_journals(&f.root, Some(&f.ledger), &f.project, None).unwrap();
    assert_eq!((stream.from_trajectory, stream.from_stream), (0, 3));
    // Active Context's reasoning line names the last decision either way.
    assert_eq!(stream.text, written);

    // Without either, a template with no decisions.
    let none = rebuild_from_journals(&f.root, None, &f.project, None).unwrap();
    assert_eq!(none.text, notes::template());
    assert!(trail_core::grounding::notes::claims(&none.text, "N").is_empty());
}

#[test]
fn another_projects_decisions_stay_out() {
    let f = fixture();
    decide(&f, "Ours", &[], 0);
    let other_root = f.root.parent().unwrap().join("other");
    std::fs::create_dir_all(&other_root).unwrap();
    let other = Fixture {
        _dir: tempfile::tempdir().unwrap(),
        root: other_root.clone(),
        ledger: Ledger::open(
            f.ledger.root().to_path_buf(),
            LedgerOptions::new(f.root.parent().unwrap().join("secrets")),
        ),
        project: Project::discover(&other_root),
        loc: notes::locate(&other_root, None, None).unwrap(),
    };
    decide(&other, "Theirs", &[], 0);
    std::fs::remove_dir_all(f.root.join(".trail/trajectory")).unwrap();
    let r = rebuild_from_journals(&f.root, Some(&f.ledger), &f.project, None).unwrap();
    assert!(r.text.contains("- Ours\n"), "{}", r.text);
    assert!(!r.text.contains("Theirs"), "{}", r.text);
}

#[test]
fn a_loa_notes_file_keeps_every_byte_outside_its_section() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/loa");
    for name in [
        "henlo_faucet_grimoires_loa_NOTES.md",
        "loa_loa-grimoire_NOTES.md",
        "loa_.claude_templates_NOTES.md.template",
    ] {
        let f = fixture();
        let original = std::fs::read_to_string(corpus.join(name)).unwrap();
        std::fs::write(&f.loc.path, &original).unwrap();
        let section = notes::continuity::find(&original);
        decide(
            &f,
            "Rotate tokens",
            &["`pub fn rotate() {}` [${PROJECT_ROOT}/src/auth.rs:1]"],
            3,
        );
        let new = notes_text(&f);
        match section {
            Some(s) => {
                assert_eq!(&new[..s.start], &original[..s.start], "{name}");
                assert!(new.ends_with(&original[s.end..]), "{name}");
            }
            None => assert!(new.starts_with(&original), "{name}"),
        }
        let claims = trail_core::grounding::notes::claims(&new, "NOTES.md");
        assert!(
            claims
                .iter()
                .any(|c| c.title == "Rotate tokens" && c.evidence.len() == 1),
            "{name}"
        );
    }
}
