use std::collections::BTreeMap;
use std::path::Path;

use super::*;
use crate::testing::git;

const NOTES: &[u8] = b"# NOTES.md\r\n\n## Session Continuity\n- **Reasoning State**: trailing  \n\xe2\x80\x94 done\n";
const STATE: &[u8] = b"schema_version: 4\nmode: active\nobjective: ship heal\n";
const MEMORY: &[u8] = b"# Core Memory\n\n## Infra\n- DB on 5433 (src: memory/2026-01-01.md#L2)\n";
const TRAJ: &[u8] = b"{\"ts\":\"2026-01-01T00:00:00Z\",\"phase\":\"heal\"}\n";
const BEAD: &[u8] = b"{\"id\":\"bd-1\",\"title\":\"x\"}\n";

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

/// Every file under `root` (`.git/` included) and its bytes: "the tree", compared whole.
fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().display().to_string();
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                out.insert(format!("{rel}/"), Vec::new());
                dirs.push(p);
            } else if ft.is_symlink() {
                out.insert(
                    rel,
                    std::fs::read_link(&p)
                        .unwrap()
                        .into_os_string()
                        .into_encoded_bytes(),
                );
            } else {
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// A repository where every covered file was committed.
fn committed() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    write(root, "NOTES.md", NOTES);
    write(root, "active_context.yaml", STATE);
    write(root, ".trail/MEMORY.md", MEMORY);
    write(root, ".trail/trajectory/2026-01-01.jsonl", TRAJ);
    write(root, ".beads/issues.jsonl", BEAD);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "state zone"]);
    dir
}

fn sources(r: &Report) -> Vec<(String, Option<Source>, bool)> {
    r.findings
        .iter()
        .map(|f| (f.file.clone(), f.source, f.healed))
        .collect()
}

#[test]
fn committed_then_deleted_files_come_back_byte_for_byte() {
    let dir = committed();
    let root = dir.path();
    let before = tree(root);
    assert!(
        check(root, &Options::located(root, None))
            .findings
            .is_empty()
    );
    for rel in [
        "NOTES.md",
        "active_context.yaml",
        ".trail/MEMORY.md",
        ".beads/issues.jsonl",
    ] {
        std::fs::remove_file(root.join(rel)).unwrap();
    }
    std::fs::remove_dir_all(root.join(".trail/trajectory")).unwrap();
    let r = heal(root, &Options::located(root, None));
    assert!(r.git);
    assert!(!r.needs_healing(), "{r:?}");
    let got = sources(&r);
    let want: Vec<(String, Option<Source>, bool)> = [
        ".trail/trajectory/2026-01-01.jsonl",
        ".beads/issues.jsonl",
        "NOTES.md",
        "active_context.yaml",
        ".trail/MEMORY.md",
    ]
    .iter()
    .map(|f| (f.to_string(), Some(Source::GitShow), true))
    .collect();
    assert_eq!(got, want);
    // trail's own state (`.trail/state/`: git's answer remembered) aside.
    let mut after = tree(root);
    after.retain(|k, _| !k.starts_with(".trail/state"));
    assert_eq!(after, before, "every file as committed, and nothing else");
    assert!(
        check(root, &Options::located(root, None))
            .findings
            .is_empty()
    );
}

#[test]
fn staged_but_uncommitted_files_come_back_from_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    write(root, "NOTES.md", NOTES);
    git(root, &["add", "NOTES.md"]);
    std::fs::remove_file(root.join("NOTES.md")).unwrap();
    let r = heal(root, &Options::located(root, None));
    assert_eq!(
        sources(&r),
        [("NOTES.md".to_string(), Some(Source::GitCheckout), true)]
    );
    assert_eq!(std::fs::read(root.join("NOTES.md")).unwrap(), NOTES);
}

#[test]
fn a_whitespace_only_file_counts_as_missing() {
    let dir = committed();
    let root = dir.path();
    for rel in ["NOTES.md", ".trail/MEMORY.md", ".beads/issues.jsonl"] {
        write(root, rel, b"  \n\t\r\n");
    }
    let found = check(root, &Options::located(root, None));
    let problems: Vec<(&str, &Problem)> = found
        .findings
        .iter()
        .map(|f| (f.file.as_str(), &f.problem))
        .collect();
    assert_eq!(
        problems,
        [
            (".beads/issues.jsonl", &Problem::Blank),
            ("NOTES.md", &Problem::Blank),
            (".trail/MEMORY.md", &Problem::Blank),
        ]
    );
    assert!(found.needs_healing());
    heal(root, &Options::located(root, None));
    assert_eq!(std::fs::read(root.join("NOTES.md")).unwrap(), NOTES);
    assert_eq!(
        std::fs::read(root.join(".trail/MEMORY.md")).unwrap(),
        MEMORY
    );
    assert_eq!(
        std::fs::read(root.join(".beads/issues.jsonl")).unwrap(),
        BEAD
    );
}

#[test]
fn check_only_writes_nothing_anywhere() {
    let dir = committed();
    let root = dir.path();
    std::fs::remove_file(root.join("NOTES.md")).unwrap();
    write(root, ".trail/MEMORY.md", b"\n");
    std::fs::remove_dir_all(root.join(".beads")).unwrap();
    // The state file's hash: trail wrote it, so a template is due when git has nothing.
    write(root, ".trail/state/active_context.sha256", b"x\n");
    let before = tree(root);
    let r = check(root, &Options::located(root, None));
    assert_eq!(r.findings.len(), 3, "{r:?}");
    assert!(r.findings.iter().all(|f| !f.healed && f.source.is_some()));
    assert_eq!(tree(root), before);
}

#[test]
fn a_file_that_is_there_is_never_touched_and_a_symlink_never_followed() {
    let dir = committed();
    let root = dir.path();
    write(root, "NOTES.md", b"my own edits\n");
    write(root, "active_context.yaml", b"mode: [");
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "MEMORY.md", b"elsewhere\n");
    std::fs::remove_file(root.join(".trail/MEMORY.md")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("MEMORY.md"),
        root.join(".trail/MEMORY.md"),
    )
    .unwrap();
    let r = heal(root, &Options::located(root, None));
    assert_eq!(r.findings.len(), 1, "{r:?}");
    let f = &r.findings[0];
    assert_eq!(f.file, ".trail/MEMORY.md");
    assert!(
        matches!(&f.problem, Problem::Blocked(why) if why.contains("symlink")),
        "{f:?}"
    );
    assert!(!f.healed && r.needs_healing());
    assert_eq!(
        std::fs::read(root.join("NOTES.md")).unwrap(),
        b"my own edits\n"
    );
    assert_eq!(
        std::fs::read(root.join("active_context.yaml")).unwrap(),
        b"mode: ["
    );
    assert_eq!(
        std::fs::read(outside.path().join("MEMORY.md")).unwrap(),
        b"elsewhere\n"
    );
}

#[test]
fn without_git_notes_come_from_the_journals_then_the_template() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // A project that never had NOTES.md and never ran `trail init`: nothing is invented.
    assert!(
        heal(root, &Options::located(root, None))
            .findings
            .is_empty()
    );
    assert!(!root.join("NOTES.md").exists());
    // The journals hold decisions: NOTES.md is rebuilt from them.
    let rebuilt = |_: &Path| Some("# NOTES.md\n\n### Decision Log\n#### d1\n".to_string());
    let r = heal(
        root,
        &Options {
            notes_from_journals: &rebuilt,
            ..Options::located(root, None)
        },
    );
    assert!(!r.git);
    assert_eq!(
        sources(&r),
        [("NOTES.md".to_string(), Some(Source::Journals), true)]
    );
    assert!(
        std::fs::read_to_string(root.join("NOTES.md"))
            .unwrap()
            .contains("#### d1")
    );
    // No decisions, but trail was set up here (`trail init` writes .trail/.gitignore).
    std::fs::remove_file(root.join("NOTES.md")).unwrap();
    write(root, ".trail/.gitignore", b"state/\n");
    let r = heal(root, &Options::located(root, None));
    assert_eq!(
        sources(&r),
        [("NOTES.md".to_string(), Some(Source::Template), true)]
    );
    assert_eq!(
        std::fs::read_to_string(root.join("NOTES.md")).unwrap(),
        crate::notes::template()
    );
}

#[test]
fn git_comes_before_the_journals_and_the_template() {
    let dir = committed();
    let root = dir.path();
    std::fs::remove_file(root.join("NOTES.md")).unwrap();
    write(root, ".trail/.gitignore", b"state/\n");
    let rebuilt = |_: &Path| Some("from the journals\n".to_string());
    let opts = Options {
        notes_from_journals: &rebuilt,
        ..Options::located(root, None)
    };
    heal(root, &opts);
    assert_eq!(std::fs::read(root.join("NOTES.md")).unwrap(), NOTES);
}

#[test]
fn views_trail_kept_come_back_from_its_own_copies_and_templates() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // trail wrote the state file once; the dream kept MEMORY.md before its last rewrite.
    write(root, ".trail/state/active_context.sha256", b"x\n");
    write(root, ".trail/state/MEMORY.md.bak", MEMORY);
    let r = heal(root, &Options::located(root, None));
    assert_eq!(
        sources(&r),
        [
            (
                "active_context.yaml".to_string(),
                Some(Source::Template),
                true
            ),
            (".trail/MEMORY.md".to_string(), Some(Source::Journals), true),
        ]
    );
    let state = std::fs::read(root.join("active_context.yaml")).unwrap();
    let parsed = crate::state::parse(&root.join("active_context.yaml"), &state).unwrap();
    assert!(parsed.problems().is_empty());
    assert_eq!(
        std::fs::read(root.join(".trail/MEMORY.md")).unwrap(),
        MEMORY
    );
    // A state file git has but trail cannot read does not come back from git.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    write(root, "active_context.yaml", b"mode: [\n");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "broken"]);
    std::fs::remove_file(root.join("active_context.yaml")).unwrap();
    assert!(
        check(root, &Options::located(root, None))
            .findings
            .is_empty()
    );
}

#[test]
fn loa_keeps_notes_in_its_grimoire_and_a_path_out_of_the_project_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        ".loa.config.yaml",
        b"paths:\n  grimoire: grimoires/loa\n",
    );
    write(root, ".trail/.gitignore", b"state/\n");
    let r = heal(root, &Options::located(root, None));
    assert_eq!(
        sources(&r),
        [(
            "grimoires/loa/NOTES.md".to_string(),
            Some(Source::Template),
            true
        )]
    );
    write(
        root,
        ".loa.config.yaml",
        b"memory:\n  notes_file: ../escaped.md\n",
    );
    let r = heal(root, &Options::located(root, None));
    assert_eq!(r.findings.len(), 1);
    assert_eq!(r.findings[0].file, "../escaped.md");
    assert!(
        matches!(&r.findings[0].problem, Problem::Blocked(w) if w.contains("climb out of the project")),
        "{r:?}"
    );
    assert!(!root.parent().unwrap().join("escaped.md").exists());
}

#[test]
fn heals_become_trajectory_entries() {
    let dir = committed();
    let root = dir.path();
    std::fs::remove_file(root.join("NOTES.md")).unwrap();
    write(root, ".trail/MEMORY.md", b" \n");
    let r = heal(root, &Options::located(root, None));
    let e = entries(&r);
    assert_eq!(e.len(), 2);
    assert_eq!(
        (e[0].file.as_str(), e[0].source.as_str(), e[0].healed),
        ("NOTES.md", "git_show", true)
    );
    assert_eq!(e[1].detail.as_deref(), Some("was whitespace only"));
}

/// `notes.path` as trail's config sets it.
fn notes_path(root: &Path, rel: &str) -> Options<'static> {
    Options::located(root, Some((rel, "TRAIL_NOTES_PATH".into())))
}

#[test]
fn notes_come_back_where_notes_path_keeps_them_and_nowhere_else() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    write(root, "docs/NOTES.md", NOTES);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "notes kept in docs"]);
    let opts = notes_path(root, "docs/NOTES.md");
    assert!(check(root, &opts).findings.is_empty());
    std::fs::remove_file(root.join("docs/NOTES.md")).unwrap();
    let before = tree(root);
    let r = check(root, &opts);
    assert_eq!(
        sources(&r),
        [("docs/NOTES.md".to_string(), Some(Source::GitShow), false)]
    );
    assert_eq!(tree(root), before, "a check wrote something");
    let r = heal(root, &opts);
    assert_eq!(
        sources(&r),
        [("docs/NOTES.md".to_string(), Some(Source::GitShow), true)]
    );
    assert_eq!(std::fs::read(root.join("docs/NOTES.md")).unwrap(), NOTES);
    assert!(!root.join("NOTES.md").exists());
    // Without the setting, the root's NOTES.md is the one covered: never kept here, so not a
    // finding, and docs/NOTES.md is nobody's business.
    std::fs::remove_file(root.join("docs/NOTES.md")).unwrap();
    assert!(
        check(root, &Options::located(root, None))
            .findings
            .is_empty()
    );
}

#[test]
fn a_notes_path_naming_no_usable_file_is_said_and_the_rest_heals() {
    let dir = committed();
    let root = dir.path();
    std::fs::remove_file(root.join(".trail/MEMORY.md")).unwrap();
    for (set, why) in [
        ("notes.txt", "it must be a Markdown file"),
        ("../outside.md", "it must not climb out of the project"),
        (".trail/state/grants.md", "it must not be inside .trail/"),
    ] {
        let r = check(root, &notes_path(root, set));
        assert_eq!(r.findings.len(), 2, "{r:?}");
        let f = &r.findings[0];
        assert_eq!(
            (f.view, f.file.as_str(), f.source),
            (View::Notes, set, None)
        );
        assert!(
            matches!(&f.problem, Problem::Blocked(w) if w.contains(why) && w.contains("TRAIL_NOTES_PATH")),
            "{f:?}"
        );
    }
    let r = heal(root, &notes_path(root, "notes.txt"));
    assert!(r.needs_healing());
    assert_eq!(
        sources(&r),
        [
            ("notes.txt".to_string(), None, false),
            (".trail/MEMORY.md".to_string(), Some(Source::GitShow), true),
        ]
    );
    assert_eq!(
        std::fs::read(root.join(".trail/MEMORY.md")).unwrap(),
        MEMORY
    );
    assert!(!root.join("notes.txt").exists());
}

#[test]
fn an_unreadable_loa_config_leaves_notes_unhealed_unless_notes_path_decides() {
    let dir = committed();
    let root = dir.path();
    std::fs::remove_file(root.join("NOTES.md")).unwrap();
    write(root, ".loa.config.yaml", b"paths: [\n");
    let r = check(root, &Options::located(root, None));
    assert_eq!(r.findings.len(), 1, "{r:?}");
    assert_eq!(r.findings[0].file, ".loa.config.yaml");
    assert!(matches!(&r.findings[0].problem, Problem::Blocked(w) if w.contains("unknown")));
    let r = heal(root, &notes_path(root, "NOTES.md"));
    assert_eq!(
        sources(&r),
        [("NOTES.md".to_string(), Some(Source::GitShow), true)]
    );
}
