//! Bad input exits 2, says what and where, and writes nothing.

use crate::common::*;
use crate::snapshots::normalise;

fn assert_nothing_written(env: &TestEnv) {
    assert!(!env.stream().exists() || std::fs::metadata(env.stream()).unwrap().len() == 0);
    let leftovers: Vec<_> = files_under(&env.trail_home.join("stream"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("intent"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn malformed_front_matter_on_stdin_names_line_and_column_and_writes_nothing() {
    let env = TestEnv::new();
    let cases = [
        "---\nschema: ledgerpulse/v1\ntype: pulse\nfocus: [unclosed\n---\n",
        "---\nschema: ledgerpulse/v1\ntype: pulse\nstatus:\n  blocked: maybe\n---\n",
        "---\nschema: ledgerpulse/v1\ntype: gossip\n---\n",
        "---\nschema: ledgerpulse/v1\nts: 2025-12-22T21:18:12Z\ntype: pulse\nnext: [a]\n---\n",
        "---\nschema: ledgerpulse/v1\ntype: pulse\nnext: [a]\n",
        "schema: ledgerpulse/v1\ntype: pulse\n",
        "---\nschema: other/v9\ntype: pulse\n---\n",
        "---\nschema: ledgerpulse/v1\ntype: tangent\nintent:\n  primary: switch\n---\n",
    ];
    // Every answer whole, one after another (issue 23: these were `.contains` checks).
    let mut said = String::new();
    for input in cases {
        let out = env.run_stdin(&["pulse", "--stdin"], input);
        assert_eq!(code(&out), 2, "input {input:?}: {}", stderr(&out));
        said += &format!("{input:?}\n{}\n", stderr(&out));
        assert_nothing_written(&env);
    }
    insta::assert_snapshot!(normalise(&env, &said), @r#"
    "---\nschema: ledgerpulse/v1\ntype: pulse\nfocus: [unclosed\n---\n"
    error: stdin line 4, column 8: unclosed bracket '['

    "---\nschema: ledgerpulse/v1\ntype: pulse\nstatus:\n  blocked: maybe\n---\n"
    error: stdin line 4, column 8: `status.blocked` must be true or false, found "maybe"

    "---\nschema: ledgerpulse/v1\ntype: gossip\n---\n"
    error: stdin line 3, column 6: unknown type `gossip`: use pulse, checkpoint, tangent, compaction or handoff

    "---\nschema: ledgerpulse/v1\nts: [TS]\ntype: pulse\nnext: [a]\n---\n"
    error: stdin line 3, column 4: `ts`: `[TS]` has less than millisecond precision: give at least three fractional digits

    "---\nschema: ledgerpulse/v1\ntype: pulse\nnext: [a]\n"
    error: stdin line 1, column 1: front matter is not closed by a `---` line

    "schema: ledgerpulse/v1\ntype: pulse\n"
    error: stdin line 1, column 1: a record starts with a `---` line, then `schema: ledgerpulse/v1`

    "---\nschema: other/v9\ntype: pulse\n---\n"
    error: stdin line 2, column 1: the line after `---` must be `schema: ledgerpulse/v1`

    "---\nschema: ledgerpulse/v1\ntype: tangent\nintent:\n  primary: switch\n---\n"
    error: a tangent must not change intent (current intent is `(none)`, the tangent says `switch`)
    hint: drop the intent (--intent, or `intent:` in a --stdin record), or write a pulse instead of a tangent
    "#);
}

#[test]
fn a_whole_record_on_stdin_is_written_and_stamped() {
    let env = TestEnv::new();
    let input = "---\nschema: ledgerpulse/v1\ntype: checkpoint\nfocus:\n  - proj: \"A\"\n    topic: \"TLS\"\nintent: {primary: continue, summary: \"from stdin\"}\nnext: [\"one\", \"two\"]\n---\nfacts:\n- \"curl -v shows unknown CA error\"\n\nFree notes, kept as written.\n";
    let out = env.run_stdin(&["pulse", "--stdin"], input);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&env.ok(&["log", "--json"])).unwrap();
    assert_eq!(json[0]["type"], "checkpoint");
    assert_eq!(json[0]["next"][1], "two");
    assert_eq!(json[0]["facts"][0], "curl -v shows unknown CA error");
    assert!(
        json[0]["body"]
            .as_str()
            .unwrap()
            .contains("Free notes, kept as written.")
    );
}

#[test]
fn bad_flags_exit_2_and_write_nothing() {
    let env = TestEnv::new();
    for args in [
        vec!["pulse", "--proj", "p", "--confidence", "sure"],
        vec!["pulse", "--type", "memo", "--proj", "p", "--summary", "x"],
        vec!["pulse", "--topic", "t", "--proj", "p", "--summary", "x"],
        vec![
            "pulse",
            "--proj",
            "p",
            "--shift-before",
            "x",
            "--summary",
            "y",
        ],
        vec!["pulse", "--proj", "p"],
        vec!["pulse", "--proj", "", "--summary", "x"],
        vec!["pulse", "--proj", "p", "--next", ""],
        vec!["resume", "--level", "4"],
        vec!["frobnicate"],
    ] {
        let out = env.run(&args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).is_empty());
        assert_nothing_written(&env);
    }
}

#[test]
fn a_broken_config_file_is_reported_with_its_path() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.home.join(".config/trail")).unwrap();
    std::fs::write(env.home.join(".config/trail/config.toml"), "[ledger\nx=").unwrap();
    let out = env.run(&["pulse", "--proj", "p", "--summary", "x"]);
    assert_eq!(code(&out), 2);
    insta::assert_snapshot!(normalise(&env, &stderr(&out)), @r"
    error: configuration: [ROOT]/home/.config/trail/config.toml: TOML parse error at line 1, column 8
      |
    1 | [ledger
      |        ^
    unclosed table, expected `]`

    hint: `trail config` shows every setting and where it came from
    ");
    assert_nothing_written(&env);
}

/// Found by issue 22: small things a user hits. `search --type bogus` matched nothing without a
/// word; a file that is no transcript was described as an empty one; the checkpoint's headline
/// said "pass" above failing rows.
#[test]
fn small_things_say_what_is_wrong() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let out = env.run(&["search", "x", "--type", "bogus"]);
    assert_eq!(code(&out), 2);
    insta::assert_snapshot!(normalise(&env, &stderr(&out)), @r"
    error: --type bogus: no source or kind is called that
    hint: sources: stream, proof, trajectory, notes, memory, code; record types: pulse, checkpoint, tangent, compaction, handoff, alert; trajectory phases: cite, decision, session_handoff, delta_sync, pivot, heal, checkpoint, negative_grounding, fork_detected; memory: daily, core; or a tool's name (Bash, Edit, apply_patch, mcp__SERVER__TOOL, …)
    ");
    assert_eq!(
        code(&env.run(&["search", "x", "--type", "Grep,pulse,daily"])),
        0
    );
    let not = env.root.join("notes.txt");
    std::fs::write(&not, "hello\n{\"x\":1}\n").unwrap();
    let out = env.run(&["transcript", not.to_str().unwrap()]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    insta::assert_snapshot!(normalise(&env, &stderr(&out)), @r"
    error: [ROOT]/notes.txt is unreadable as a session: none of its 2 lines is a message, tool call, compaction or summary of a Claude Code transcript or Codex rollout
    hint: Claude Code keeps transcripts in ~/.claude/projects/<project>/<session>.jsonl; Codex keeps rollouts in ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl
    ");
    // A project with no decision: the decision_log step fails, enforcement warn lets it go on.
    env.ok(&["init"]);
    let out = env.run(&["checkpoint"]);
    insta::assert_snapshot!(normalise(&env, &stdout(&out)), @r#"
    checkpoint: 1 step failed, not blocking; enforcement warn (from default)
    1. grounding               pass    no decisions to ground (0/0)
    2. negative_grounding      skipped no ghost features listed in ${PROJECT_ROOT}/NOTES.md (under a "Ghost Features" heading)
    3. decision_log            fail    no decision recorded (all decisions)
       remedy: record what this session decided: `trail decide --title T --decision D --rationale R --evidence '`quote` [${PROJECT_ROOT}/path:LINE]' --test …`
    4. plan_and_bead           skipped no active_context.yaml; beads not in use
    5. trajectory_handoff      pass    session_handoff written to the trajectory (notes_refs NOTES.md:7-20)
    6. decayed_to_identifiers  pass    0 identifiers in the table
    7. test_scenarios          pass    no decision to check
    "#);
}

/// Issue 22: a clap CLI of this size is expected to ship completions and a man page, and
/// `trail hook --help` to print help; none may panic on a closed pipe.
#[test]
fn completions_man_page_and_hook_help() {
    let env = TestEnv::new();
    for (shell, marker) in [
        ("bash", "complete -F _trail"),
        ("zsh", "#compdef trail"),
        ("fish", "complete -c trail"),
    ] {
        let out = env.ok(&["completions", shell]);
        assert!(
            out.contains(marker),
            "{shell}: {}",
            &out[..out.len().min(200)]
        );
        for sub in ["resume", "checkpoint", "doctor"] {
            assert!(out.contains(sub), "{shell} lacks {sub}");
        }
    }
    let man = env.ok(&["man"]);
    assert!(
        man.contains(".TH trail 1") && man.contains("resume"),
        "{}",
        &man[..200]
    );
    let help = env.ok(&["hook", "--help"]);
    assert!(help.contains("Usage: trail hook"), "{help}");
    // A reader that stops early (`| head -1`) is no panic.
    let mut child = env
        .cmd(&["completions", "bash"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

/// Issue 22: verdicts in colour on a terminal, plain when piped or with `NO_COLOR`.
#[test]
fn verdicts_are_coloured_on_a_terminal_only() {
    let env = TestEnv::new();
    let out = env.in_terminal_env(&["gate", "--", "rm -rf ~"], &[], &[("TERM", "xterm")]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("\u{1b}[1;31mblock\u{1b}[0m"), "{text:?}");
    let out = env.in_terminal_env(
        &["gate", "--", "rm -rf ~"],
        &[],
        &[("TERM", "xterm"), ("NO_COLOR", "1")],
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        !text.contains('\u{1b}') && text.contains("block ["),
        "{text:?}"
    );
    let piped = env.ok(&["gate", "--", "rm -rf ~"]);
    assert!(
        !piped.contains('\u{1b}') && piped.starts_with("block ["),
        "{piped:?}"
    );
}
