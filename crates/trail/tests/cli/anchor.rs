//! The journal is evident, not just chained (issue 8, item 9): a history rewritten whole, with
//! every `prev` and seal recomputed, or cut short, is reported by `trail verify` through the
//! anchored head; crashes and rotations never read as tampering.

use serde_json::Value;
use trail_core::ledger::frame::{digest, hex};

use crate::common::*;

const START: &str = "---\nschema: ledgerpulse/v1\n";
const SEAL: &str = "<!-- seal sha256=";

fn pulses(env: &TestEnv, n: usize, tag: &str) {
    for i in 0..n {
        env.ok(&[
            "pulse",
            "--proj",
            "p",
            "--intent",
            "continue",
            "--summary",
            &format!("{tag} {i}"),
            "--next",
            "go on",
        ]);
    }
}

fn verify(env: &TestEnv) -> (i32, Value) {
    let out = env.run(&["verify", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", stdout(&out), stderr(&out)));
    (code(&out), v)
}

fn problems(v: &Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["problem"].as_str().unwrap().to_string())
        .collect()
}

/// The stream's records, each from its start to the end of its seal line.
fn records(env: &TestEnv) -> Vec<String> {
    let text = String::from_utf8(stream_bytes(env)).unwrap();
    let mut out: Vec<String> = text
        .split(START)
        .skip(1)
        .map(|r| format!("{START}{r}"))
        .collect();
    for r in &mut out {
        let end = r.rfind(" -->\n").unwrap() + 5;
        r.truncate(end);
    }
    out
}

/// What an attacker's script does: keep `records`, re-chain them from the zero digest, reseal.
fn rechain(records: &[String]) -> String {
    let mut prev = [0u8; 32];
    let mut out = String::new();
    for r in records {
        let body = &r[..r.rfind(SEAL).unwrap()];
        let at = body.find("\nprev: ").unwrap() + 7;
        let eol = at + body[at..].find('\n').unwrap();
        let body = format!("{}{}{}", &body[..at], hex(&prev), &body[eol..]);
        prev = digest(body.as_bytes());
        out.push_str(&format!("{body}{SEAL}{} -->\n", hex(&prev)));
    }
    out
}

#[test]
fn a_history_rewritten_without_two_records_and_rechained_is_reported() {
    let env = TestEnv::new();
    pulses(&env, 6, "real");
    let (c, v) = verify(&env);
    assert_eq!(c, 0, "{v}");
    assert_eq!(v["anchor"]["status"], "anchored");
    let text = env.ok(&["verify"]);
    assert!(text.contains("head anchored"), "{text}");

    // Drop records 2 and 3, recompute every prev and seal: the chain alone is intact again.
    let mut kept = records(&env);
    kept.drain(2..4);
    std::fs::write(env.stream(), rechain(&kept)).unwrap();
    let (c, v) = verify(&env);
    assert_eq!(c, 1, "verify passed a rewritten history: {v}");
    let p = problems(&v);
    assert!(
        p.iter().all(|p| p == "rewritten" || p == "truncated") && p.len() == 1,
        "the chain is intact, the anchor catches it: {p:?}"
    );

    // The same, padded back to its old length with forged records: still caught.
    let later = |r: &str, n: u32| {
        let at = r.find("\nts: ").unwrap() + 5;
        let eol = at + r[at..].find('\n').unwrap();
        let r = format!("{}2099-01-01T00:00:0{n}.000000Z{}", &r[..at], &r[eol..]);
        r.replace("real 5", &format!("forged {n}"))
    };
    let mut forged = kept.clone();
    forged.push(later(&kept[3], 1));
    forged.push(later(&kept[3], 2));
    std::fs::write(env.stream(), rechain(&forged)).unwrap();
    let (c, v) = verify(&env);
    assert_eq!(c, 1, "{v}");
    assert_eq!(problems(&v), ["rewritten"], "{v}");
    let out = env.run(&["verify"]);
    assert!(
        stdout(&out).contains("no record carries the anchored seal"),
        "{}",
        stdout(&out)
    );

    // Another append does not launder it: the anchor stays where it was, as evidence.
    let out = env.run(&["pulse", "--proj", "p", "--summary", "later"]);
    assert!(out.status.success());
    assert!(
        stderr(&out).contains("does not continue from its anchored head"),
        "{}",
        stderr(&out)
    );
    let (c, v) = verify(&env);
    assert_eq!(c, 1, "{v}");
    assert!(problems(&v).contains(&"rewritten".to_string()), "{v}");
}

#[test]
fn a_stream_cut_short_is_reported_as_truncated() {
    let env = TestEnv::new();
    pulses(&env, 5, "real");
    let mut kept = records(&env);
    kept.truncate(3);
    // A clean cut at a record boundary: seals and chain are fine, the last two are gone.
    std::fs::write(env.stream(), kept.concat()).unwrap();
    let (c, v) = verify(&env);
    assert_eq!(c, 1, "{v}");
    assert_eq!(problems(&v), ["truncated"], "{v}");
    let out = env.run(&["verify"]);
    assert!(
        stdout(&out).contains("records were cut off"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_missing_anchor_is_unanchored_and_a_forged_one_is_tampering() {
    let env = TestEnv::new();
    pulses(&env, 3, "real");
    let anchor = env.trail_home.join("stream/pulses.anchor");
    let good = std::fs::read(&anchor).unwrap();

    // Forged: the right shape, a MAC made without the key.
    let mut forged = good.clone();
    let mut at = 0;
    while let Some(i) = forged[at..].windows(5).position(|w| w == b" mac=") {
        let start = at + i + 5;
        forged[start..start + 64].fill(b'0');
        at = start;
    }
    assert!(at > 0);
    std::fs::write(&anchor, forged).unwrap();
    let (c, v) = verify(&env);
    assert_eq!(c, 1, "{v}");
    assert_eq!(problems(&v), ["anchor-forged"], "{v}");

    std::fs::remove_file(&anchor).unwrap();
    let (c, v) = verify(&env);
    assert_eq!(c, 1, "a stream with records and no anchor passed: {v}");
    assert_eq!(problems(&v), ["unanchored"], "{v}");
    assert_eq!(v["anchor"]["status"], "missing");

    // The next append starts a new anchor over the stream as found, and says so ever after.
    pulses(&env, 1, "later");
    let (c, v) = verify(&env);
    assert_eq!(c, 0, "{v}");
    assert_eq!(v["anchor"]["adopted"], 3);
    assert!(
        env.ok(&["verify"])
            .contains("anchoring began after 3 record(s)")
    );

    // Restoring the old anchor over a longer history: the chain still continues from it, but
    // a newer anchor was written since (issue 19: an old copy put back revives what it
    // names), so it is a rollback, and the writer leaves it as evidence.
    std::fs::write(&anchor, &good).unwrap();
    let (c, v) = verify(&env);
    assert_eq!(c, 1, "{v}");
    assert_eq!(problems(&v), ["rolled-back"], "{v}");
    assert_eq!(v["anchor"]["not_yet_anchored"], 1);
    pulses(&env, 1, "after the restore");
    assert_eq!(problems(&verify(&env).1), ["rolled-back"]);
}

const APPEND_POINTS: &[&str] = &[
    "append-after-intent",
    "append-after-lock",
    "append-after-repair",
    "append-mid-write",
    "append-after-write",
    "append-after-fsync",
];

const ANCHOR_PROBLEMS: &[&str] = &["rewritten", "truncated", "unanchored", "anchor-forged"];

#[test]
fn a_writer_killed_at_any_step_of_an_append_never_reads_as_tampering() {
    for point in APPEND_POINTS {
        let env = TestEnv::new();
        pulses(&env, 2, "before");
        let out = env
            .cmd(&["pulse", "--proj", "p", "--summary", "crashed"])
            .env("TRAIL_FAILPOINT", point)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{point}: the failpoint did not fire");
        // Right after the crash, before anyone repairs anything.
        let (_, v) = verify(&env);
        let p = problems(&v);
        assert!(
            !p.iter().any(|p| ANCHOR_PROBLEMS.contains(&p.as_str())),
            "{point}: a crash read as tampering: {v}"
        );
        if *point == "append-after-fsync" {
            assert_eq!(v["anchor"]["not_yet_anchored"], 1, "{point}: {v}");
            assert!(p.is_empty(), "{point}: {v}");
        }
        pulses(&env, 1, "after");
        let (c, v) = verify(&env);
        assert_eq!(c, 0, "{point}: {v}");
        assert_eq!(v["anchor"]["not_yet_anchored"], 0, "{point}: {v}");
    }
}

const ROTATION_POINTS: &[&str] = &[
    "rotate-after-compaction",
    "atomic-write-before-rename",
    "rotate-after-new-stream",
    "rotate-after-archive",
    "rotate-after-swap",
];

#[test]
fn a_writer_killed_at_any_step_of_a_rotation_never_reads_as_tampering() {
    for point in ROTATION_POINTS {
        let env = TestEnv::new();
        pulses(&env, 3, "pre");
        let out = env
            .cmd(&["pulse", "--proj", "p", "--summary", "crashed"])
            .env("TRAIL_FAILPOINT", point)
            .env("TRAIL_ROTATE_BYTES", "1KB")
            .output()
            .unwrap();
        assert!(!out.status.success(), "{point}: the failpoint did not fire");
        let (_, v) = verify(&env);
        assert!(
            !problems(&v)
                .iter()
                .any(|p| ANCHOR_PROBLEMS.contains(&p.as_str())),
            "{point}: a crash read as tampering: {v}"
        );
        pulses(&env, 1, "after");
        let (c, v) = verify(&env);
        assert_eq!(c, 0, "{point}: {v}");
        assert_eq!(v["anchor"]["not_yet_anchored"], 0, "{point}: {v}");
    }
}

#[test]
fn rotation_keeps_the_stream_anchored() {
    let env = TestEnv::new().env("TRAIL_ROTATE_BYTES", "1KB");
    pulses(&env, 8, "rot");
    assert!(
        files_under(&env.archive())
            .iter()
            .any(|p| p.to_string_lossy().ends_with(".log.md")),
        "no rotation happened"
    );
    let (c, v) = verify(&env);
    assert_eq!(c, 0, "{v}");
    assert_eq!(v["anchor"]["status"], "anchored");
    assert_eq!(v["anchor"]["not_yet_anchored"], 0);
    env.ok(&["rotate", "--force"]);
    let (c, v) = verify(&env);
    assert_eq!(c, 0, "{v}");
    assert_eq!(v["anchor"]["not_yet_anchored"], 0, "{v}");
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    let out = std::process::Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// Issue 19, replays: a saved `~/.ledger` copied back over the live one chains and anchors as
/// it did the day it was saved. The highest anchor ever written, kept in the secret store,
/// says it is older.
#[test]
fn a_saved_ledger_put_back_is_reported_as_rolled_back() {
    let env = TestEnv::new();
    pulses(&env, 3, "kept");
    let saved = env.root.join("saved-ledger");
    copy_dir(&env.trail_home, &saved);
    pulses(&env, 2, "later");
    assert_eq!(verify(&env).0, 0);
    std::fs::remove_dir_all(&env.trail_home).unwrap();
    copy_dir(&saved, &env.trail_home);
    let (rc, v) = verify(&env);
    assert_eq!(rc, 1, "{v}");
    assert_eq!(problems(&v), ["rolled-back"], "{v}");
    let text = stdout(&env.run(&["verify"]));
    assert!(text.contains("older copy"), "{text}");
    assert!(
        text.contains("trail.anchored"),
        "the hint says how to accept it: {text}"
    );
}

/// An empty stream with an empty anchor once records existed is not a new ledger.
#[test]
fn an_emptied_stream_and_anchor_after_records_existed_fail() {
    let env = TestEnv::new();
    pulses(&env, 2, "there");
    let stream = env.trail_home.join("stream");
    std::fs::write(stream.join("pulses.log.md"), "").unwrap();
    std::fs::write(stream.join("pulses.anchor"), "").unwrap();
    let (rc, v) = verify(&env);
    assert_eq!(rc, 1, "{v}");
    assert!(problems(&v).contains(&"rolled-back".to_string()), "{v}");
    // A ledger that never had records is still fine.
    let fresh = TestEnv::new();
    assert_eq!(verify(&fresh).0, 0);
}
