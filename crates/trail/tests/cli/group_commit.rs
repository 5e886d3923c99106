//! Group commit: concurrent writers share fsyncs, and none is acknowledged before an fsync that
//! covers its record has completed, whoever dies on the way (`ledger/group.rs`).
//!
//! The writers run with `TRAIL_TRACE` (debug builds): each notes, in one shared file, when its
//! records were written, when every fsync of the stream began and ended, and when it was
//! acknowledged. [`check_trace`] holds every acknowledgement against that record, and
//! `TRAIL_FAILPOINT` with `TRAIL_FAILPOINT_GATE` holds a leader at a step of the protocol while
//! others queue behind it.

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

/// One acknowledgement in a trace, checked.
#[derive(Debug)]
pub struct Ack {
    pub pid: u32,
    /// `own` (this writer's fsync) or `covered` (a leader's).
    pub how: String,
}

/// Check the trace at `path`: every `ack` follows a `wrote` of the same writer, stream and end,
/// and after that write an fsync of the same stream began and then ended, all before the
/// acknowledgement. Panics with the trace when one does not. Returns the acknowledgements.
pub fn check_trace(path: &Path) -> Vec<Ack> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<Vec<&str>> = text.lines().map(|l| l.split(' ').collect()).collect();
    let mut acks = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l[0] != "ack" {
            continue;
        }
        let (pid, stream, end) = (l[1], l[2], l[3]);
        let wrote = (0..i)
            .rev()
            .find(|&j| lines[j][..] == ["wrote", pid, stream, end])
            .unwrap_or_else(|| panic!("ack without its write at line {}:\n{text}", i + 1));
        let covered = (wrote + 1..i).any(|b| {
            let begin = &lines[b];
            begin[0] == "fsync-begin"
                && begin[2] == stream
                && (b + 1..i).any(|e| lines[e][..] == ["fsync-end", begin[1], stream])
                && !(b + 1..i).any(|e| lines[e][..] == ["fsync-begin", begin[1], stream])
        });
        assert!(
            covered,
            "pid {pid} acknowledged at line {} without a completed fsync begun after its write \
             (line {}):\n{text}",
            i + 1,
            wrote + 1
        );
        acks.push(Ack {
            pid: pid.parse().unwrap(),
            how: l[4].to_string(),
        });
    }
    acks
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_mins(1),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn pulse(env: &TestEnv, marker: &str, trace: &Path) -> std::process::Command {
    let mut c = env.cmd(&["pulse", "--proj", "group", "--summary", marker]);
    c.env("TRAIL_TRACE", trace)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

/// A leader held at `point` with the sync lock, and the gate that lets it go on.
fn held_leader(env: &TestEnv, point: &str, trace: &Path) -> (Child, PathBuf) {
    let gate = env.root.join(format!("gate-{point}"));
    let leader = pulse(env, "leader", trace)
        .env("TRAIL_FAILPOINT", point)
        .env("TRAIL_FAILPOINT_GATE", &gate)
        .spawn()
        .unwrap();
    let reached = PathBuf::from(format!("{}.reached", gate.display()));
    wait_for("the leader to reach its failpoint", || reached.exists());
    (leader, gate)
}

/// Writers started while the leader holds the sync lock: they write their records and queue.
fn queue_followers(env: &TestEnv, names: &[&str], trace: &Path) -> Vec<(String, Child)> {
    let followers: Vec<_> = names
        .iter()
        .map(|n| (n.to_string(), pulse(env, n, trace).spawn().unwrap()))
        .collect();
    wait_for("the followers' records to be written", || {
        let wrote = std::fs::read_to_string(trace).unwrap_or_default();
        followers
            .iter()
            .all(|(_, c)| wrote.contains(&format!("wrote {} ", c.id())))
    });
    followers
}

fn verified(env: &TestEnv) -> serde_json::Value {
    let out = env.run(&["verify", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(code(&out), 0, "{v}");
    v
}

#[test]
fn queued_writers_are_not_acknowledged_while_the_leader_has_not_synced() {
    let env = TestEnv::new();
    let trace = env.root.join("trace");
    env.ok(&["pulse", "--proj", "group", "--summary", "before"]);
    // Held with the sync lock, before it reads the written point.
    let (mut leader, gate) = held_leader(&env, "group-leader", &trace);
    let mut followers = queue_followers(&env, &["f1", "f2", "f3"], &trace);
    // Their records are written; only an fsync can acknowledge them, and the one writer that
    // may run it holds the sync lock without running it. However long we wait, none returns.
    std::thread::sleep(Duration::from_millis(500));
    for (name, c) in &mut followers {
        assert!(
            c.try_wait().unwrap().is_none(),
            "{name} returned before any fsync covered its record"
        );
    }
    // Let the leader go: one fsync, and the writers queued behind it return without their own.
    std::fs::write(&gate, "").unwrap();
    assert!(leader.wait().unwrap().success());
    for (name, c) in followers {
        let out = c.wait_with_output().unwrap();
        assert!(out.status.success(), "{name}: {}", stderr(&out));
    }
    let acks = check_trace(&trace);
    assert_eq!(acks.len(), 4, "{acks:?}");
    let text = std::fs::read_to_string(&trace).unwrap();
    // The leader read the written point after the followers wrote: its fsync covered them all.
    assert_eq!(occurrences(&text, "fsync-begin"), 1, "{text}");
    assert_eq!(acks.iter().filter(|a| a.how == "covered").count(), 3);
    let v = verified(&env);
    assert_eq!(v["records"], 5);
    assert_eq!(v["anchor"]["not_yet_anchored"], 0, "{v}");
}

#[test]
fn killing_the_leader_before_or_after_its_fsync_makes_a_queued_writer_sync_for_the_group() {
    for point in ["group-before-fsync", "group-after-fsync"] {
        let env = TestEnv::new();
        let trace = env.root.join("trace");
        env.ok(&["pulse", "--proj", "group", "--summary", "before"]);
        let (mut leader, _gate) = held_leader(&env, point, &trace);
        let followers = queue_followers(&env, &["f1", "f2", "f3"], &trace);
        leader.kill().unwrap(); // SIGKILL, with the sync lock held and the durable point unchanged
        leader.wait().unwrap();
        for (name, c) in followers {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success(), "{point}: {name}: {}", stderr(&out));
        }
        let acks = check_trace(&trace);
        assert_eq!(acks.len(), 3, "{point}: {acks:?}");
        assert!(
            acks.iter().all(|a| a.pid != leader.id()),
            "{point}: the killed leader acknowledged"
        );
        // One of them led: the killed leader's durable point was never published.
        assert!(acks.iter().any(|a| a.how == "own"), "{point}: {acks:?}");
        // The leader's record was written before it was killed: in the stream once, synced by
        // the new leader, anchored, never acknowledged.
        let all = summaries(&env);
        for m in ["before", "leader", "f1", "f2", "f3"] {
            assert_eq!(
                all.iter().filter(|s| *s == m).count(),
                1,
                "{point}: {m} in {all:?}"
            );
        }
        let v = verified(&env);
        assert_eq!(v["anchor"]["not_yet_anchored"], 0, "{point}: {v}");
    }
}

#[test]
fn a_writer_killed_while_queued_loses_nothing_acknowledged_and_is_synced_by_the_leader() {
    let env = TestEnv::new();
    let trace = env.root.join("trace");
    env.ok(&["pulse", "--proj", "group", "--summary", "before"]);
    // Held with the sync lock, before it reads the written point.
    let (mut leader, gate) = held_leader(&env, "group-leader", &trace);
    let mut followers = queue_followers(&env, &["victim", "f2"], &trace);
    let (_, mut victim) = followers.remove(0);
    victim.kill().unwrap();
    victim.wait().unwrap();
    std::fs::write(&gate, "").unwrap();
    assert!(leader.wait().unwrap().success());
    let (_, f2) = followers.remove(0);
    let out = f2.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let acks = check_trace(&trace);
    let text = std::fs::read_to_string(&trace).unwrap();
    assert_eq!(acks.len(), 2, "{text}");
    assert!(acks.iter().all(|a| a.pid != victim.id()), "{text}");
    // The leader's fsync, begun after both wrote, covered f2 and the victim's record too.
    assert_eq!(occurrences(&text, "fsync-begin"), 1, "{text}");
    let all = summaries(&env);
    for m in ["before", "leader", "victim", "f2"] {
        assert_eq!(all.iter().filter(|s| *s == m).count(), 1, "{m} in {all:?}");
    }
    let v = verified(&env);
    assert_eq!(v["anchor"]["not_yet_anchored"], 0, "{v}");
    // Nothing left for a later writer to replay: the victim's intent was done before it queued.
    env.ok(&["pulse", "--proj", "group", "--summary", "after"]);
    let all = summaries(&env);
    assert_eq!(all.iter().filter(|s| *s == "victim").count(), 1);
}

#[test]
fn eight_writers_at_once_share_fsyncs_and_each_is_covered_by_one() {
    let env = TestEnv::new();
    let mut acks = 0;
    let mut covered = 0;
    for round in 0..20 {
        let trace = env.root.join(format!("trace-{round}"));
        let children: Vec<_> = (0..8)
            .map(|w| {
                pulse(&env, &format!("r{round}-w{w}"), &trace)
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert!(out.status.success(), "{}", stderr(&out));
        }
        let a = check_trace(&trace);
        assert_eq!(a.len(), 8, "round {round}");
        acks += a.len();
        covered += a.iter().filter(|a| a.how == "covered").count();
    }
    eprintln!("{acks} acknowledged, {covered} by another writer's fsync");
    let v = verified(&env);
    assert_eq!(v["records"], 160);
    assert_eq!(v["anchor"]["not_yet_anchored"], 0, "{v}");
}

/// The checker itself: it must refuse an acknowledgement no fsync covers.
#[test]
fn the_trace_check_refuses_an_acknowledgement_before_the_fsync_ended() {
    let dir = tempfile::tempdir().unwrap();
    let ok = "wrote 1 8:9 100\nwrote 2 8:9 200\nfsync-begin 2 8:9\nfsync-end 2 8:9\n\
              ack 2 8:9 200 own\nack 1 8:9 100 covered\n";
    let early = "wrote 1 8:9 100\nwrote 2 8:9 200\nfsync-begin 2 8:9\nack 1 8:9 100 covered\n\
                 fsync-end 2 8:9\n";
    let before_write = "fsync-begin 2 8:9\nwrote 1 8:9 100\nfsync-end 2 8:9\n\
                        ack 1 8:9 100 covered\n";
    let other_stream = "wrote 1 8:9 100\nfsync-begin 2 8:7\nfsync-end 2 8:7\n\
                        ack 1 8:9 100 covered\n";
    let path = dir.path().join("t");
    std::fs::write(&path, ok).unwrap();
    assert_eq!(check_trace(&path).len(), 2);
    for bad in [early, before_write, other_stream] {
        std::fs::write(&path, bad).unwrap();
        let caught = std::panic::catch_unwind(|| check_trace(&path));
        assert!(caught.is_err(), "accepted:\n{bad}");
    }
}
