//! `trail decide` and NOTES.md session continuity (issue 12, items 1 and 2): `trail init` and a
//! first decision create NOTES.md; a decision goes to the trajectory, the pulse stream and the
//! Decision Log, its citations checked; a Loa project's own NOTES.md is extended in place.

use std::path::Path;

use serde_json::Value;

use crate::common::{TestEnv, code, stderr, stdout};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn corpus(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../trail-core/tests/data/loa")
        .join(name);
    std::fs::read_to_string(p).unwrap()
}

fn project() -> TestEnv {
    let env = TestEnv::new();
    write(
        &env.cwd.join("src/auth.rs"),
        "pub fn rotate() {}\npub fn validate(token: &str) -> bool {\n    !token.is_empty()\n}\n",
    );
    env
}

const GOOD: &str = "`pub fn rotate() {}` [${PROJECT_ROOT}/src/auth.rs:1]";
const DRIFTED: &str = "`pub fn rotate() {}` [${PROJECT_ROOT}/src/auth.rs:2]";

fn decide(env: &TestEnv, title: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "decide",
        "--title",
        title,
        "--decision",
        "rotate refresh tokens",
        "--rationale",
        "prevents replay",
    ];
    args.extend_from_slice(extra);
    env.run(&args)
}

fn json(out: &std::process::Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}\nstdout: {}\nstderr: {}", stdout(out), stderr(out)))
}

fn trajectory(env: &TestEnv) -> Vec<Value> {
    let out = env.ok(&["trajectory", "--json", "--phase", "decision"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    v["entries"].as_array().unwrap().clone()
}

#[test]
fn init_creates_notes_md_once_and_uninstall_keeps_it() {
    let env = project();
    let out = env.ok(&["init"]);
    assert!(
        out.contains("NOTES.md session continuity: installed"),
        "{out}"
    );
    let notes = std::fs::read_to_string(env.cwd.join("NOTES.md")).unwrap();
    for part in [
        "## Session Continuity",
        "### Active Context",
        "- **Current Task**:",
        "- **Last Checkpoint**: none yet",
        "- **Reasoning State**:",
        "### Lightweight Identifiers",
        "| Identifier | Purpose | Last Verified |",
        "### Decision Log",
    ] {
        assert!(notes.contains(part), "{part}: {notes}");
    }
    let again: Value = serde_json::from_str(&env.ok(&["init", "--json"])).unwrap();
    let n = again["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["what"] == "NOTES.md session continuity")
        .unwrap();
    assert_eq!(n["changed"], false);
    env.ok(&["uninstall"]);
    assert_eq!(
        std::fs::read_to_string(env.cwd.join("NOTES.md")).unwrap(),
        notes
    );
}

#[test]
fn init_adds_the_section_to_an_existing_notes_md_and_nothing_else() {
    let env = project();
    let original = corpus("henlo_faucet_grimoires_loa_NOTES.md");
    write(&env.cwd.join("NOTES.md"), &original);
    env.ok(&["init"]);
    let new = std::fs::read_to_string(env.cwd.join("NOTES.md")).unwrap();
    // Its own Session Continuity section (a table) gets the three parts, before `## Decision Log`.
    let cut = original.find("## Decision Log").unwrap();
    let head_end = original.find("|-----------|-------|---------|\n").unwrap() + 32;
    assert_eq!(&new[..head_end], &original[..head_end]);
    assert!(new.ends_with(&original[cut..]));
    assert!(new[head_end..new.len() - (original.len() - cut)].contains("### Decision Log"));
}

#[test]
fn a_decision_reaches_the_trajectory_the_stream_and_the_decision_log() {
    let env = project();
    let out = decide(
        &env,
        "Rotate tokens",
        &[
            "--evidence",
            GOOD,
            "--evidence",
            DRIFTED,
            "--evidence",
            "${PROJECT_ROOT}/src/missing.rs:3",
            "--test",
            "happy: a fresh token",
            "--test",
            "edge: a token at expiry",
            "--test",
            "error: a reused token",
            "--bead",
            "bd-x7y8",
            "--json",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v = json(&out);
    let id = v["id"].as_str().unwrap().to_string();
    assert!(id.starts_with("d-"), "{v}");
    let statuses: Vec<&str> = v["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["verified", "drifted", "missing-file"]);
    assert_eq!(v["citations"][1]["found_at"], serde_json::json!([1]));
    assert_eq!(
        v["unverified"],
        serde_json::json!([
            "[${PROJECT_ROOT}/src/auth.rs:2]",
            "[${PROJECT_ROOT}/src/missing.rs:3]"
        ])
    );
    assert_eq!(
        (v["tests"].as_u64(), v["notes_created"].as_bool()),
        (Some(3), Some(true))
    );

    // The trajectory's decision entry, with what each check said.
    let t = trajectory(&env);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0]["id"], id.as_str());
    assert_eq!(t[0]["bead"], "bd-x7y8");
    assert_eq!(t[0]["evidence"][1]["status"], "drifted");
    assert_eq!(t[0]["tests"].as_array().unwrap().len(), 3);

    // The pulse, tagged with the decision's id, focused on the project.
    let log: Value = serde_json::from_str(&env.ok(&["log", "--json", "--limit", "1"])).unwrap();
    let rec = &log[0];
    let tags: Vec<&str> = rec["tags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    assert!(
        tags.contains(&"decided") && tags.contains(&format!("decision:{id}").as_str()),
        "{rec}"
    );
    assert!(
        rec["body"]
            .as_str()
            .unwrap()
            .contains("decided: Rotate tokens — rotate refresh tokens"),
        "{rec}"
    );

    // NOTES.md: the entry, the verified citation as an identifier, Active Context.
    let notes = std::fs::read_to_string(env.cwd.join("NOTES.md")).unwrap();
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &notes), @r#"
    # NOTES.md

    > Session continuity for this project, kept by trail (`trail decide`, `trail checkpoint`).
    > Everything outside "Session Continuity" is yours; that section is a view of the
    > journals (the pulse stream and .trail/trajectory/) and can be rebuilt from them.

    ## Session Continuity
    <!-- Load FIRST after /clear. Kept by trail: every decision here is also in the pulse stream and the trajectory, from which this section can be rebuilt. -->

    ### Active Context
    - **Current Task**: (none recorded)
    - **Last Checkpoint**: none yet
    - **Reasoning State**: last decision [TS]: Rotate tokens — rotate refresh tokens

    ### Lightweight Identifiers
    | Identifier | Purpose | Last Verified |
    |------------|---------|---------------|
    | ${PROJECT_ROOT}/src/auth.rs:1 | Rotate tokens | [TIME] |

    ### Decision Log
    <!-- `trail decide` adds each decision here, citing the code it rests on word for word: `pub fn rotate()` [${PROJECT_ROOT}/src/auth.rs:42] -->

    #### [TS] - Rotate tokens
    <!-- trail:decision d-[ID] -->
    **Decision**: rotate refresh tokens
    **Rationale**: prevents replay
    **Evidence**:
    - `pub fn rotate() {}` [${PROJECT_ROOT}/src/auth.rs:1]
    - `pub fn rotate() {}` [${PROJECT_ROOT}/src/auth.rs:2] (not verified when recorded: drifted)
    - [${PROJECT_ROOT}/src/missing.rs:3] (not verified when recorded: missing-file)
    **Test Scenarios**: 1) happy: a fresh token 2) edge: a token at expiry 3) error: a reused token
    **Bead**: bd-x7y8
    "#);
    // Only verified citations become identifiers; the entry carries the decision's own id.
    assert!(
        notes.contains(&format!("<!-- trail:decision {id} -->")),
        "{notes}"
    );

    // The grounding ratio counts it once (trajectory and NOTES.md name the same decision).
    let g: Value =
        serde_json::from_slice(&env.run(&["ground", "--json", "--notes", "NOTES.md"]).stdout)
            .unwrap();
    assert_eq!(
        (g["total"].as_u64(), g["grounded"].as_u64()),
        (Some(1), Some(1)),
        "{g}"
    );
}

#[test]
fn the_text_answer_lists_what_is_not_verified() {
    let env = project();
    let out = decide(&env, "Rotate", &["--evidence", DRIFTED, "--test", "happy"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The whole answer a person reads (issue 23: these were `.contains` checks of a line each);
    // the decision's id is made from the clock.
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &stdout(&out)), @r"
    recorded d-[ID]: Rotate
      citations: 0 of 1 verified; not verified:
        [${PROJECT_ROOT}/src/auth.rs:2] drifted, now at line 1
      test scenarios: 1 (EDD asks for three: happy path, edge case, error; the checkpoint checks)
      NOTES.md: created, with the decision in its Decision Log
    ");
}

#[test]
fn bad_input_is_refused_and_writes_nothing() {
    let env = project();
    let mut said = String::new();
    for args in [vec!["--evidence", "see the code"], vec!["--bead", "a b"]] {
        let out = decide(&env, "T", &args);
        assert_eq!(code(&out), 2, "{args:?}");
        said += &format!("{args:?}\n{}\n", stderr(&out));
    }
    let out = env.run(&[
        "decide",
        "--title",
        " ",
        "--decision",
        "d",
        "--rationale",
        "r",
    ]);
    assert_eq!(code(&out), 2);
    said += &format!("[\"--title\", \" \"]\n{}", stderr(&out));
    // Each refusal whole: what is wrong and the hint (issue 23: were `.contains` checks).
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &said), @r#"
    ["--evidence", "see the code"]
    error: evidence 1 (`see the code`) holds no citation: write `quote` [${PROJECT_ROOT}/path:LINE] (or :START-END)
    hint: --evidence takes a citation as a document writes it, e.g. --evidence '`fn main()` [${PROJECT_ROOT}/src/main.rs:1]'; nothing was recorded

    ["--bead", "a b"]
    error: `a b` is not a bead id: one word of letters, digits, `.`, `_`, `:` or `-`, at most 64 characters
    hint: --bead takes the id `br`/`bd` shows

    ["--title", " "]
    error: the title is empty: say it in words
    hint: give --title "…"; nothing was recorded
    "#);
    assert!(!env.cwd.join("NOTES.md").exists());
    assert!(!env.cwd.join(".trail/trajectory").exists());
    assert!(!env.stream().exists());
}

#[test]
fn secrets_in_a_decision_reach_no_file() {
    let env = project();
    let key = "AKIAQ3EGRRZ7JXLM4KVD";
    let out = env.run(&[
        "decide",
        "--title",
        "Use the deploy key",
        "--decision",
        &format!("deploy with {key}"),
        "--rationale",
        "it has the rights",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for f in crate::common::files_under(&env.root) {
        if f.starts_with(env.home.join(".secrets")) {
            continue;
        }
        let bytes = std::fs::read(&f).unwrap();
        assert!(
            !String::from_utf8_lossy(&bytes).contains(key),
            "{} holds the key",
            f.display()
        );
    }
    assert!(
        stdout(&out).contains("redacted: aws-access-key-id-"),
        "{}",
        stdout(&out)
    );
    assert!(
        std::fs::read_to_string(env.secrets_file())
            .unwrap()
            .contains(key)
    );
}

#[test]
fn a_loa_project_keeps_its_notes_in_its_grimoire_and_every_byte_outside_the_section() {
    let env = project();
    write(
        &env.cwd.join(".loa.config.yaml"),
        "paths:\n  grimoire: loa-grimoire\n",
    );
    let original = corpus("loa_loa-grimoire_NOTES.md");
    let path = env.cwd.join("loa-grimoire/NOTES.md");
    write(&path, &original);
    let out = decide(&env, "Rotate tokens", &["--evidence", GOOD, "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(json(&out)["notes"], "loa-grimoire/NOTES.md");
    assert!(!env.cwd.join("NOTES.md").exists());
    let new = std::fs::read_to_string(&path).unwrap();
    let start = original.find("## Session Continuity").unwrap();
    let end = original.find("## Decision Log").unwrap();
    assert_eq!(&new[..start], &original[..start]);
    assert!(new.ends_with(&original[end..]));
    assert!(new[start..new.len() - (original.len() - end)].contains("Rotate tokens"));

    // trail's own setting wins; a path leaving the project is refused.
    let env2 = env.env("TRAIL_NOTES_PATH", "docs/decisions.md");
    let out = decide(&env2, "Second", &["--json"]);
    assert_eq!(json(&out)["notes"], "docs/decisions.md");
    let env3 = env2.env("TRAIL_NOTES_PATH", "../escape.md");
    let out = decide(&env3, "Third", &[]);
    assert_eq!(code(&out), 2);
    insta::assert_snapshot!(crate::snapshots::normalise(&env3, &stderr(&out)), @r"
    error: nothing was recorded: environment $TRAIL_NOTES_PATH puts NOTES.md at `../escape.md`: it must not climb out of the project (`..`)
    hint: set notes.path (TRAIL_NOTES_PATH) to a .md file inside the project
    ");
}

/// Found by issue 21: adding the `.loa.config.yaml` the PRD prescribes switched trail to
/// `grimoires/loa/NOTES.md`; the root NOTES.md that `trail init` wrote went stale, and the
/// checkpoint failed. The place is chosen once and recorded; a move is a person's, with the
/// content.
#[test]
fn a_loa_config_added_later_does_not_move_notes_and_a_person_can() {
    let env = project();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.ok(&["init"]);
    assert_eq!(
        std::fs::read_to_string(env.cwd.join(".trail/notes-location")).unwrap(),
        "NOTES.md\n"
    );
    assert_eq!(code(&decide(&env, "First", &["--evidence", GOOD])), 0);
    write(
        &env.cwd.join(".loa.config.yaml"),
        "grounding:\n  threshold: 0.95\n",
    );
    assert_eq!(code(&decide(&env, "Second", &["--evidence", GOOD])), 0);
    let notes = std::fs::read_to_string(env.cwd.join("NOTES.md")).unwrap();
    assert!(
        notes.contains("First") && notes.contains("Second"),
        "{notes}"
    );
    assert!(!env.cwd.join("grimoires").exists());
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &env.ok(&["notes", "where"])), @r"
    NOTES.md (chosen by .trail/notes-location)
    note: .loa.config.yaml names grimoires/loa/NOTES.md; trail keeps NOTES.md until a person moves it: `trail notes move grimoires/loa/NOTES.md`
    ");
    // The agent's shell is no terminal: the move is refused and nothing changes.
    let out = env.run(&["notes", "move", "grimoires/loa/NOTES.md"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &stderr(&out)), @"error: a person's decision is made at a terminal, and this is not one: run it in your own terminal");
    assert!(env.cwd.join("NOTES.md").is_file());
    // A person at a terminal confirms it: the content moves, and the record with it.
    let out = env.in_terminal(&["notes", "move", "grimoires/loa/NOTES.md"], &["move"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let moved = std::fs::read_to_string(env.cwd.join("grimoires/loa/NOTES.md")).unwrap();
    assert_eq!(moved, notes);
    assert!(!env.cwd.join("NOTES.md").exists());
    assert_eq!(code(&decide(&env, "Third", &["--evidence", GOOD])), 0);
    let moved = std::fs::read_to_string(env.cwd.join("grimoires/loa/NOTES.md")).unwrap();
    assert!(moved.contains("Third"), "{moved}");
    // A place that already holds text is refused: nothing is merged by guess.
    write(&env.cwd.join("docs/NOTES.md"), "# mine\n");
    let out = env.run(&["notes", "move", "docs/NOTES.md"]);
    assert_eq!(code(&out), 2);
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &stderr(&out)), @r"
    error: docs/NOTES.md already holds text: trail moves NOTES.md only to a place that is missing or empty, so nothing is merged by guess
    hint: merge grimoires/loa/NOTES.md into docs/NOTES.md by hand, empty or remove docs/NOTES.md, then run this again
    ");
}
