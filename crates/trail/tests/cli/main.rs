//! One integration-test binary for the `trail` CLI: every test runs the real binary in an
//! isolated HOME, TRAIL_HOME and config, so nothing depends on the machine's own setup.

#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "tests convert small counts, offsets and clock readings"
)]
#![allow(
    clippy::too_many_lines,
    reason = "a scenario reads top to bottom as one story"
)]
#![allow(
    clippy::format_collect,
    reason = "fixtures are built once per test, never on a hot path"
)]

mod common;

mod anchor;
mod attacks;
mod attention;
mod auto_dream;
mod bad_input;
mod beads;
mod blame;
mod checkpoint;
mod claude_e2e;
mod codex_e2e;
mod concurrency;
mod confine;
mod crash;
mod daily_memory;
mod day;
mod decide;
mod doctor;
mod dream;
mod e2e;
mod fork;
mod gate;
mod grounding;
mod group_commit;
mod heal;
mod hook;
mod hook_deadline;
mod import;
mod init;
mod injected_context;
mod ledger;
mod mcp;
mod plugin;
mod project;
mod prompt_origin;
mod pulses;
mod reanchor;
mod recovery;
mod regression;
mod report;
mod review;
mod safe_files;
mod search;
mod secrets;
mod show;
mod snapshots;
mod state;
mod sync;
mod team_merge;
mod token_accounting;
mod torn_tail;
mod trust;

/// Every file in this directory is a module of this binary: a test file left out of the list
/// above would never run, and nothing else would say so (jj's `test_no_forgotten_test_files`).
#[test]
fn no_test_file_is_forgotten() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if let Some(module) = name.strip_suffix(".rs")
            && module != "main"
        {
            assert!(
                main.contains(&format!("mod {module};")),
                "tests/cli/{name} is not declared in tests/cli/main.rs, so it never runs"
            );
        }
    }
}
