use super::*;
use crate::secrets::Secrets;
use crate::trajectory::{self, Body, Entry, journal};

fn line(tokens: u64, id: &str) -> String {
    serde_json::json!({"type":"assistant","message":{"id":id,"role":"assistant","content":[{"type":"text","text":"x"}],"usage":{"input_tokens":tokens,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}).to_string()
}

fn at(s: &str) -> Ts {
    Ts::parse_loose(s).unwrap()
}

fn append(path: &Path, text: &str) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    writeln!(f, "{text}").unwrap();
}

/// Append a main-chain answer of `tokens` context to the transcript.
fn grow(path: &Path, tokens: u64) {
    append(path, &line(tokens, &format!("m{tokens}")));
}

/// What `trail checkpoint` journals: a `checkpoint` entry with its verdict.
fn checkpoint(root: &Path, ts: &str, verdict: &str) {
    let mut e = Entry::now(
        Body::Checkpoint(trajectory::Checkpoint {
            verdict: verdict.into(),
            steps: Vec::new(),
            reasoning: None,
        }),
        Some("s1"),
    );
    e.ts = at(ts);
    journal::append(root, &e, &Secrets::new(root.join(".secrets"), Vec::new())).unwrap();
}

fn setup(strict: bool) -> Setup {
    Setup {
        zones: Zones::DEFAULT,
        window: 200_000,
        window_set: true,
        strict,
    }
}

/// Measure at `now` and save the mark, as the prompt hook does.
fn step(root: &Path, t: &Path, now: &str, strict: bool) -> Measure {
    let m = measure(root, t, setup(strict), at(now)).unwrap().unwrap();
    save_mark(root, &m.mark).unwrap();
    m.measure
}

#[test]
fn zones_start_where_configured_and_must_grow() {
    use Zone::{Green, Orange, Red, Yellow};
    let z = Zones::DEFAULT;
    let zones: Vec<Zone> = [0, 4_999, 5_000, 9_999, 10_000, 14_999, 15_000, 900_000]
        .iter()
        .map(|&a| z.zone(a))
        .collect();
    assert_eq!(
        zones,
        [Green, Green, Yellow, Yellow, Orange, Orange, Red, Red]
    );
    assert_eq!(z.next_at(7_000), Some((Orange, 10_000)));
    assert_eq!(z.next_at(15_000), None);
    assert!(Zones::new(5, 5, 6).is_err());
    assert!(Zones::new(3, 2, 1).is_err());
    assert!(Zones::new(1, 2, 3).is_ok());
}

#[test]
fn tokens_are_counted_from_the_session_start_then_from_each_passing_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let t = root.join("t.jsonl");
    // No answer yet: nothing to measure.
    append(&t, "{\"type\":\"user\",\"message\":{\"content\":\"hi\"}}");
    assert!(
        measure(root, &t, setup(true), at("2026-01-01T00:00:00Z"))
            .unwrap()
            .is_none()
    );
    grow(&t, 20_000);
    grow(&t, 21_000);
    // The first measure finds the session's first size from the start of the file.
    let m = step(root, &t, "2026-01-01T00:01:00Z", true);
    assert_eq!(
        (m.baseline, m.added, m.zone, m.basis),
        (20_000, 1_000, Zone::Green, Basis::SessionStart)
    );
    assert!((m.fill - 0.105).abs() < 1e-9);
    grow(&t, 26_000);
    let m = step(root, &t, "2026-01-01T00:02:00Z", true);
    assert_eq!(
        (m.zone, m.entered(), m.crossed_yellow()),
        (Zone::Yellow, true, true)
    );
    grow(&t, 27_000);
    let m = step(root, &t, "2026-01-01T00:03:00Z", true);
    assert!(!m.entered() && !m.crossed_yellow(), "acted on once");
    grow(&t, 31_000);
    let m = step(root, &t, "2026-01-01T00:04:00Z", true);
    assert_eq!(
        (m.zone, m.entered(), m.crossed_yellow()),
        (Zone::Orange, true, false)
    );
    assert_eq!(hold(root, Some(&t)), None, "orange holds nothing");
    grow(&t, 36_000);
    let m = step(root, &t, "2026-01-01T00:05:00Z", true);
    assert_eq!((m.zone, m.added), (Zone::Red, 16_000));
    let h = hold(root, Some(&t)).expect("strict red holds edits");
    assert_eq!(
        (h.added, h.basis, h.red_since, h.unreadable),
        (
            16_000,
            Basis::SessionStart,
            at("2026-01-01T00:05:00Z"),
            None
        )
    );
    // Red stays red from when it began.
    grow(&t, 37_000);
    step(root, &t, "2026-01-01T00:06:00Z", true);
    assert_eq!(
        read_mark(root, &t).unwrap().red_since,
        Some(at("2026-01-01T00:05:00Z"))
    );
    // A checkpoint that did not pass lifts nothing; one from before red lifts nothing.
    checkpoint(root, "2026-01-01T00:06:30Z", "blocked");
    assert!(hold(root, Some(&t)).is_some());
    // One that passed lifts the hold at once, and the count starts again at the next measure.
    checkpoint(root, "2026-01-01T00:07:00Z", "pass");
    assert_eq!(hold(root, Some(&t)), None);
    grow(&t, 38_000);
    let m = step(root, &t, "2026-01-01T00:08:00Z", true);
    assert_eq!(
        (m.baseline, m.added, m.zone, m.basis, m.since),
        (
            38_000,
            0,
            Zone::Green,
            Basis::Checkpoint,
            at("2026-01-01T00:07:00Z")
        )
    );
    // The same checkpoint does not restart the count twice; a red after it is held again.
    grow(&t, 60_000);
    let m = step(root, &t, "2026-01-01T00:09:00Z", true);
    assert_eq!(
        (m.basis, m.added, m.zone),
        (Basis::Checkpoint, 22_000, Zone::Red)
    );
    assert!(m.crossed_yellow(), "a jump past yellow still persists once");
    assert!(hold(root, Some(&t)).is_some());
}

#[test]
fn warn_never_holds_and_a_compaction_starts_the_count_again() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let t = root.join("t.jsonl");
    grow(&t, 20_000);
    grow(&t, 170_000);
    let m = step(root, &t, "2026-01-01T00:00:00Z", false);
    assert_eq!(m.zone, Zone::Red);
    assert_eq!(hold(root, Some(&t)), None, "only strict holds");
    // The host compacts: nothing is known until the next answer, which is small.
    append(
        &t,
        &serde_json::json!({"type":"system","subtype":"compact_boundary"}).to_string(),
    );
    assert!(
        measure(root, &t, setup(false), at("2026-01-01T00:01:00Z"))
            .unwrap()
            .is_none()
    );
    grow(&t, 32_000);
    let m = step(root, &t, "2026-01-01T00:02:00Z", false);
    assert_eq!(
        (m.basis, m.added, m.zone, m.previous),
        (Basis::Compaction, 0, Zone::Green, None)
    );
}

#[test]
fn each_session_keeps_its_own_count_and_the_guard_asks_for_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let (a, b) = (root.join("a.jsonl"), root.join("b.jsonl"));
    grow(&a, 20_000);
    grow(&b, 50_000);
    step(root, &a, "2026-01-01T00:00:00Z", true);
    step(root, &b, "2026-01-01T00:00:01Z", true);
    grow(&a, 40_000);
    assert_eq!(step(root, &a, "2026-01-01T00:01:00Z", true).zone, Zone::Red);
    // b's measures do not restart a's count, nor the other way round.
    grow(&b, 51_000);
    let mb = step(root, &b, "2026-01-01T00:01:01Z", true);
    assert_eq!(
        (mb.basis, mb.added, mb.zone),
        (Basis::SessionStart, 1_000, Zone::Green)
    );
    assert!(hold(root, Some(&a)).is_some());
    assert_eq!(hold(root, Some(&b)), None);
    // A call that does not say which session inherits no other session's hold, not even
    // that of the one measured last while it is red.
    step(root, &a, "2026-01-01T00:02:00Z", true);
    assert_eq!(hold(root, None), None);
    assert_eq!(
        read_mark(root, &a).map(|m| m.zone),
        Some(Zone::Red),
        "a's mark survived b's save"
    );
}

#[test]
fn marks_are_capped_and_an_older_plain_band_is_no_mark() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let state = Layout::new(root).attention();
    std::fs::create_dir_all(state.parent().unwrap()).unwrap();
    std::fs::write(&state, "red").unwrap();
    let t = root.join("t.jsonl");
    grow(&t, 90_000);
    assert_eq!(read_mark(root, &t), None);
    assert_eq!(hold(root, Some(&t)), None);
    for i in 0..(MAX_MARKS + 5) {
        let s = root.join(format!("s{i}.jsonl"));
        grow(&s, 1_000);
        step(root, &s, &format!("2026-01-01T00:{i:02}:00Z"), false);
    }
    assert_eq!(read_marks(root).sessions.len(), MAX_MARKS);
    assert_eq!(
        read_mark(root, &root.join("s0.jsonl")),
        None,
        "the oldest went"
    );
    assert!(read_mark(root, &root.join(format!("s{}.jsonl", MAX_MARKS + 4))).is_some());
}

#[test]
fn an_unreadable_trajectory_keeps_the_hold_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let t = root.join("t.jsonl");
    grow(&t, 20_000);
    step(root, &t, "2026-01-01T00:00:00Z", true);
    grow(&t, 40_000);
    step(root, &t, "2026-01-01T00:01:00Z", true);
    // A symlink where the trajectory directory should be: trail does not follow it.
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, Layout::new(root).trajectory_dir()).unwrap();
    let h = hold(root, Some(&t)).expect("a checkpoint that cannot be seen lifts nothing");
    assert!(h.unreadable.is_some(), "{h:?}");
    let m = measure(root, &t, setup(true), at("2026-01-01T00:02:00Z"))
        .unwrap()
        .unwrap()
        .measure;
    assert!(m.trajectory_error.is_some());
    assert_eq!(m.zone, Zone::Red, "the count goes on");
}

#[test]
fn a_codex_rollout_is_measured_the_same_way() {
    let rollout = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/rollouts/codex-0.169.0_exec_then_resume.jsonl");
    let first = crate::conversation::first_context_tokens(&rollout)
        .unwrap()
        .unwrap();
    let last = crate::conversation::context_tokens(&rollout)
        .unwrap()
        .unwrap();
    let whole = crate::conversation::parse(&std::fs::read_to_string(&rollout).unwrap());
    assert_eq!(whole.context_tokens, Some(last));
    // Session 1's scripted model reported 150k; the resumed session's answers, 10.
    assert_eq!((first, last), (150_000, 10));
}

#[test]
fn delta_sync_takes_decisions_files_and_commands_from_the_journals() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let proof = Layout::new(root).proof_log();
    std::fs::create_dir_all(proof.parent().unwrap()).unwrap();
    let entry = |tool: &str, input: &str, file: Option<&str>| {
        serde_json::json!({"timestamp":"2026-01-01T00:00:00Z","tool":tool,"input_preview":input,"output_preview":"","success":true,"file_touched":file,"session_id":"s1"}).to_string()
    };
    std::fs::write(
        &proof,
        [
            entry("Edit", "{}", Some("src/a.rs")),
            entry("Bash", "cargo test\n-p x", None),
            entry("Write", "{}", Some("src/b.rs")),
            entry("Bash", "git status", None),
            entry("Edit", "{}", Some("src/other-session.rs")).replace("\"s1\"", "\"s2\""),
        ]
        .join("\n"),
    )
    .unwrap();
    let decision = |id: &str, title: &str, ts: &str| {
        let mut e = Entry::now(
            Body::Decision(crate::trajectory::Decision {
                id: id.into(),
                title: title.into(),
                decision: "zones count added tokens".into(),
                rationale: "the PRD's numbers are a working set".into(),
                evidence: Vec::new(),
                tests: Vec::new(),
                bead: None,
            }),
            Some("s1"),
        );
        e.ts = at(ts);
        journal::append(root, &e, &Secrets::new(root.join(".secrets"), Vec::new())).unwrap();
    };
    decision("d-1", "Count from the baseline", "2026-01-01T00:00:00Z");
    decision("d-2", "Hold edits at strict red", "2026-01-02T00:00:00Z");
    let mut m = measure_of(6_000);
    m.zone = Zone::Yellow;
    let d = delta_sync(root, 0, Some("s1"), &m);
    assert_eq!(d.zone.as_deref(), Some("yellow"));
    assert_eq!(d.tokens, Some(6_000));
    assert_eq!(
        d.decisions,
        [
            "[d-2] Hold edits at strict red",
            "[d-1] Count from the baseline"
        ],
        "newest first, across day files"
    );
    assert_eq!(d.files, ["src/b.rs", "src/a.rs"]);
    assert_eq!(d.commands, ["git status", "cargo test -p x"]);
}

fn measure_of(added: u64) -> Measure {
    Measure {
        context: 20_000 + added,
        window: 200_000,
        window_from: "the attention.window setting".into(),
        fill: 0.1,
        baseline: 20_000,
        basis: Basis::SessionStart,
        since: at("2026-01-01T00:00:00Z"),
        added,
        zone: Zones::DEFAULT.zone(added),
        previous: None,
        zones: Zones::DEFAULT,
        trajectory_error: None,
    }
}
