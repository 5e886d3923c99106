//! `trail sync` with real git: machines (separate HOMEs and ledgers) and one bare remote.

use std::path::{Path, PathBuf};
use trail_testkit::git::Git;

use crate::common::{TestEnv, code, logical, stderr, stdout};

/// Machines sharing one bare remote, each trusting the others.
struct Fleet {
    _dir: tempfile::TempDir,
    remote: PathBuf,
    machines: Vec<TestEnv>,
}

/// git on the bare repository `dir` (the shared remote), which must succeed; stdout, trimmed.
fn git(dir: &Path, args: &[&str]) -> String {
    Git::git_dir(dir).ok(args)
}

/// [`git`] with `input` on stdin.
fn git_in(dir: &Path, args: &[&str], input: &[u8]) -> String {
    Git::git_dir(dir).ok_with_input(args, input)
}

pub(crate) fn machine_id(env: &TestEnv) -> String {
    let st: serde_json::Value = serde_json::from_str(&env.ok(&["status", "--json"])).unwrap();
    st["sync"]["machine"].as_str().unwrap().to_string()
}

pub(crate) fn fingerprint(env: &TestEnv) -> String {
    let st: serde_json::Value = serde_json::from_str(&env.ok(&["status", "--json"])).unwrap();
    st["sync"]["fingerprint"].as_str().unwrap().to_string()
}

/// `trail sync`, which must succeed; its JSON report.
pub(crate) fn sync(env: &TestEnv) -> serde_json::Value {
    let out = env.run(&["sync", "--json"]);
    assert_eq!(
        code(&out),
        0,
        "sync failed: {}\n{}",
        stdout(&out),
        stderr(&out)
    );
    serde_json::from_str(&stdout(&out)).unwrap()
}

/// `trail sync` expected to report a problem; its JSON report.
fn sync_refused(env: &TestEnv) -> serde_json::Value {
    let out = env.run(&["sync", "--json"]);
    assert_eq!(
        code(&out),
        1,
        "sync should report: {}\n{}",
        stdout(&out),
        stderr(&out)
    );
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn pulse(env: &TestEnv, topic: &str, summary: &str, next: &str) {
    env.ok(&[
        "pulse",
        "--proj",
        "project",
        "--topic",
        topic,
        "--summary",
        summary,
        "--next",
        next,
    ]);
}

/// A person names the remote at their terminal.
pub(crate) fn set_remote(env: &TestEnv, remote: &Path) {
    let out = env.in_terminal(&["sync", "--remote", remote.to_str().unwrap()], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A person trusts machine `other` at `env`'s terminal, typing the end of its fingerprint.
pub(crate) fn trust(env: &TestEnv, other: &TestEnv) {
    let fp = fingerprint(other);
    let out = env.in_terminal(
        &["sync", "--trust-machine", &machine_id(other)],
        &[&fp[fp.len() - 4..]],
    );
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(shown.contains(&fp), "the fingerprint is shown: {shown}");
    assert!(shown.contains("is trusted"), "{shown}");
}

fn fleet(n: usize) -> Fleet {
    let dir = tempfile::tempdir().unwrap();
    let remote = dir.path().join("ledger.git");
    Git::at(dir.path()).ok(&["init", "--bare", "--quiet", "ledger.git"]);
    let machines: Vec<TestEnv> = (0..n).map(|_| TestEnv::new()).collect();
    for (i, m) in machines.iter().enumerate() {
        set_remote(m, &remote);
        pulse(
            m,
            &format!("machine-{i}"),
            &format!("machine {i} starts"),
            "begin",
        );
        sync(m);
    }
    for a in &machines {
        for b in &machines {
            if !std::ptr::eq(a, b) {
                trust(a, b);
            }
        }
    }
    Fleet {
        _dir: dir,
        remote,
        machines,
    }
}

/// Every segment file under a stream directory, by name, without the live stream's reserve.
fn segments(stream: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for sub in ["", "archive", "imported"] {
        let Ok(rd) = std::fs::read_dir(stream.join(sub)) else {
            continue;
        };
        for e in rd {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.ends_with(".log.md") {
                continue;
            }
            let bytes = std::fs::read(e.path()).unwrap();
            let rel = if sub.is_empty() {
                name
            } else {
                format!("{sub}/{name}")
            };
            out.push((rel, logical(&bytes).to_vec()));
        }
    }
    out.sort();
    out
}

fn replica(env: &TestEnv, id: &str) -> PathBuf {
    env.trail_home.join("machines").join(id).join("stream")
}

#[test]
fn three_machines_converge_after_concurrent_work_and_a_partition() {
    let f = fleet(3);
    let ids: Vec<String> = f.machines.iter().map(machine_id).collect();
    // Concurrent pulses and syncs on all three; machine 2 is cut off (no sync) until the end,
    // and machine 0 rotates its stream midway.
    std::thread::scope(|s| {
        for (i, m) in f.machines.iter().enumerate() {
            s.spawn(move || {
                for round in 0..4 {
                    std::thread::scope(|inner| {
                        inner.spawn(|| {
                            pulse(
                                m,
                                &format!("machine-{i}"),
                                &format!("machine {i} round {round}"),
                                &format!("step {round} of machine {i}"),
                            );
                        });
                        if i != 2 {
                            inner.spawn(|| sync(m));
                        }
                    });
                    if i == 0 && round == 2 {
                        m.ok(&["rotate", "--force"]);
                    }
                }
            });
        }
    });
    // Reconnected: everyone syncs twice, in turn.
    for _ in 0..2 {
        for m in &f.machines {
            let r = sync(m);
            assert_eq!(r["findings"].as_array().unwrap().len(), 0, "{r}");
        }
    }
    for (i, m) in f.machines.iter().enumerate() {
        let own = segments(&m.trail_home.join("stream"));
        assert!(
            own.iter().any(|(n, _)| n.starts_with("archive/")) || i != 0,
            "machine 0 rotated"
        );
        for (j, other) in f.machines.iter().enumerate() {
            if i == j {
                continue;
            }
            // The same records, byte for byte, as the machine that wrote them holds.
            assert_eq!(
                segments(&replica(other, &ids[i])),
                own,
                "machine {j}'s copy of machine {i}"
            );
        }
        let v = m.run(&["verify"]);
        assert_eq!(code(&v), 0, "verify on machine {i}: {}", stdout(&v));
        assert!(stdout(&v).contains("2 other machine(s)"), "{}", stdout(&v));
        // `trail search` finds every machine's records.
        let found = m.ok(&["search", "round", "--limit", "50"]);
        for k in 0..3 {
            assert!(
                found.contains(&format!("machine {k} round")),
                "machine {i}'s search lacks machine {k}:\n{found}"
            );
        }
        // `trail log` too: the newest records of all three, one timeline.
        let log = m.ok(&["log", "--limit", "60"]);
        for k in 0..3 {
            assert!(
                log.contains(&format!("machine {k} round 3")),
                "machine {i}'s log lacks machine {k}:\n{log}"
            );
        }
        // Each machine's resume shows the others' latest work on the project.
        let resume = m.ok(&["resume"]);
        for k in 0..3 {
            assert!(
                resume.contains(&format!("step 3 of machine {k}")),
                "machine {i}'s resume lacks machine {k}:\n{resume}"
            );
        }
    }
    // The remote holds one ref per machine, and nothing else.
    let refs = git(&f.remote, &["for-each-ref", "--format=%(refname)"]);
    let mut want: Vec<String> = ids.iter().map(|id| format!("refs/trail/{id}")).collect();
    want.sort();
    let mut got: Vec<String> = refs.lines().map(String::from).collect();
    got.sort();
    assert_eq!(got, want);
}

#[test]
fn a_sync_killed_at_any_step_loses_nothing_and_the_next_completes() {
    let f = fleet(2);
    let (a, b) = (&f.machines[0], &f.machines[1]);
    let id_a = machine_id(a);
    for (n, point) in [
        "sync-after-commit",
        "sync-after-push",
        "sync-after-fetch",
        "sync-mid-file",
        "sync-before-accept",
        "sync-after-move",
    ]
    .iter()
    .enumerate()
    {
        let said = format!("acknowledged before the crash at {point}");
        pulse(a, "crash", &said, &format!("next {n}"));
        if *point == "sync-after-move" {
            a.ok(&["rotate", "--force"]);
        }
        sync(a);
        pulse(b, "crash-b", &format!("b's record before {point}"), "go on");
        let out = b
            .cmd(&["sync"])
            .env("TRAIL_FAILPOINT", point)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{point}: the sync should have died");
        // The next syncs complete and lose nothing.
        sync(b);
        sync(a);
        let copy: Vec<u8> = segments(&replica(b, &id_a))
            .into_iter()
            .flat_map(|(_, b)| b)
            .collect();
        assert!(
            String::from_utf8_lossy(&copy).contains(&said),
            "{point}: lost"
        );
        assert_eq!(
            segments(&replica(b, &id_a)),
            segments(&a.trail_home.join("stream")),
            "{point}"
        );
        let mine: Vec<u8> = segments(&replica(a, &machine_id(b)))
            .into_iter()
            .flat_map(|(_, b)| b)
            .collect();
        assert!(
            String::from_utf8_lossy(&mine).contains(&format!("b's record before {point}")),
            "{point}: b's record"
        );
        for m in [a, b] {
            let v = m.run(&["verify"]);
            assert_eq!(code(&v), 0, "{point}: {}", stdout(&v));
        }
    }
}

/// Replace the ref of machine `id` on the remote with a commit of the same message whose tree
/// has `edit` applied to its live stream's first chunk.
fn tamper(remote: &Path, id: &str, edit: impl Fn(&[u8]) -> Vec<u8>) {
    let commit = git(remote, &["rev-parse", &format!("refs/trail/{id}")]);
    let message = git(remote, &["log", "-1", "--format=%B", &commit]);
    let path = "stream/pulses.log.md/00000000";
    let old = git(remote, &["rev-parse", &format!("{commit}:{path}")]);
    // The blob's bytes as they are (`ok` would trim them).
    let bytes = Git::git_dir(remote).run(&["cat-file", "blob", &old]).stdout;
    let new = git_in(remote, &["hash-object", "-w", "--stdin"], &edit(&bytes));
    let index = remote.join("tamper-index");
    let _ = std::fs::remove_file(&index);
    let run = |args: &[&str]| Git::git_dir(remote).env("GIT_INDEX_FILE", &index).ok(args);
    run(&["read-tree", &commit]);
    run(&[
        "update-index",
        "--cacheinfo",
        &format!("100644,{new},{path}"),
    ]);
    let tree = run(&["write-tree"]);
    let forged = git_in(
        remote,
        &["commit-tree", &tree, "-p", &commit],
        message.as_bytes(),
    );
    git(
        remote,
        &["update-ref", &format!("refs/trail/{id}"), &forged],
    );
}

/// A change made to a chunk's bytes on the remote.
type Edit = Box<dyn Fn(&[u8]) -> Vec<u8>>;

#[test]
fn a_hostile_remote_is_reported_and_nothing_local_changes() {
    let f = fleet(2);
    let (a, b) = (&f.machines[0], &f.machines[1]);
    let id_a = machine_id(a);
    for k in 0..3 {
        pulse(
            a,
            "work",
            &format!("record {k} from a"),
            &format!("after {k}"),
        );
    }
    sync(a);
    sync(b);
    let good = git(&f.remote, &["rev-parse", &format!("refs/trail/{id_a}")]);
    let before_copy = segments(&replica(b, &id_a));
    let before_own = std::fs::read(b.stream()).unwrap();
    let untouched = |what: &str| {
        assert_eq!(
            segments(&replica(b, &id_a)),
            before_copy,
            "{what}: the copy of a changed"
        );
        assert_eq!(
            std::fs::read(b.stream()).unwrap(),
            before_own,
            "{what}: b's own stream changed"
        );
    };
    let problems = |r: &serde_json::Value| -> Vec<String> {
        r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["problem"].as_str().unwrap().to_string())
            .collect()
    };
    // A record rewritten, the segment cut, two records swapped: none is what a signed.
    let cases: Vec<(&str, Edit)> = vec![
        (
            "rewritten",
            Box::new(|b: &[u8]| {
                String::from_utf8_lossy(b)
                    .replace("record 1 from a", "record 1 from x")
                    .into_bytes()
            }),
        ),
        ("truncated", Box::new(|b: &[u8]| b[..b.len() / 2].to_vec())),
        (
            "reordered",
            Box::new(|b: &[u8]| {
                let text = String::from_utf8_lossy(b).into_owned();
                let mut parts: Vec<&str> = text.split("---\nschema:").collect();
                let n = parts.len();
                parts.swap(n - 1, n - 2);
                parts.join("---\nschema:").into_bytes()
            }),
        ),
    ];
    for (what, edit) in &cases {
        tamper(&f.remote, &id_a, edit);
        let r = sync_refused(b);
        assert_eq!(problems(&r), vec!["forged"], "{what}: {r}");
        untouched(what);
        git(
            &f.remote,
            &["update-ref", &format!("refs/trail/{id_a}"), &good],
        );
    }
    // The ref forced back to an older commit a signed.
    pulse(a, "work", "record 3 from a", "after 3");
    sync(a);
    sync(b);
    let before_copy = segments(&replica(b, &id_a));
    git(
        &f.remote,
        &["update-ref", &format!("refs/trail/{id_a}"), &good],
    );
    let r = sync_refused(b);
    assert_eq!(problems(&r), vec!["backwards"], "{r}");
    assert_eq!(segments(&replica(b, &id_a)), before_copy);
    // a's own sync puts its ref forward again (the remote's is an ancestor of its own).
    sync(a);
    // A machine nobody trusted: reported, with its fingerprint, and nothing of it taken.
    let d = TestEnv::new();
    set_remote(&d, &f.remote);
    pulse(&d, "intruder", "from a machine b never trusted", "x");
    sync(&d);
    let r = sync(b);
    assert_eq!(problems(&r), vec!["unknown"], "{r}");
    assert!(
        r["findings"][0]["detail"]
            .as_str()
            .unwrap()
            .contains(&fingerprint(&d)),
        "{r}"
    );
    assert!(!b.trail_home.join("machines").join(machine_id(&d)).exists());
    // a's own history cut and signed again: b keeps what it took and says so.
    let before_copy = segments(&replica(b, &id_a));
    let stream = std::fs::read(a.stream()).unwrap();
    let text = String::from_utf8_lossy(logical(&stream)).into_owned();
    let last = text.rfind("---\nschema:").unwrap();
    std::fs::write(a.stream(), &text.as_bytes()[..last]).unwrap();
    let _ = a.run(&["sync"]);
    let r = sync_refused(b);
    assert!(problems(&r).contains(&"rewritten".to_string()), "{r}");
    assert_eq!(segments(&replica(b, &id_a)), before_copy);
}

#[test]
fn a_dry_run_shows_records_per_project_and_sends_nothing() {
    let f = fleet(1);
    let m = &f.machines[0];
    let refs = git(&f.remote, &["for-each-ref"]);
    m.ok(&["pulse", "--proj", "alpha", "--summary", "one"]);
    m.ok(&["pulse", "--proj", "alpha", "--summary", "two"]);
    m.ok(&["pulse", "--proj", "beta", "--summary", "three"]);
    let out: serde_json::Value =
        serde_json::from_str(&m.ok(&["sync", "--dry-run", "--json"])).unwrap();
    let by: std::collections::BTreeMap<String, u64> = out["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["project"].as_str().unwrap().to_string(),
                p["records"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(by.get("alpha"), Some(&2), "{out}");
    assert_eq!(by.get("beta"), Some(&1), "{out}");
    assert!(out["bytes"].as_u64().unwrap() > 0);
    assert_eq!(git(&f.remote, &["for-each-ref"]), refs, "nothing was sent");
    let text = m.ok(&["sync", "--dry-run"]);
    assert!(text.contains("alpha: 2 record(s)"), "{text}");
}

#[test]
fn naming_the_remote_and_trusting_a_machine_are_a_persons_acts() {
    let env = TestEnv::new();
    let out = env.run(&["sync", "--remote", "/tmp/elsewhere.git"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let mut said = stderr(&out);
    assert!(!env.trail_home.join("sync/remote").exists());
    let out = env.run(&["sync", "--trust-machine", "0123456789abcdef"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    said += &stderr(&out);
    assert!(!env.trail_home.join("sync/trusted.json").exists());
    // With no remote, a sync says how to name one.
    let out = env.run(&["sync"]);
    assert_eq!(code(&out), 2);
    said += &stderr(&out);
    // Each refusal whole (issue 23: were `.contains` checks of a word).
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &said), @r"
    error: a person's decision is made at a terminal, and this is not one: run it in your own terminal
    error: a person's decision is made at a terminal, and this is not one: run it in your own terminal
    error: no sync remote is set
    hint: name one, once, at your terminal: trail sync --remote URL (any git URL you own: git@host:you/ledger.git, or a bare repository's path)
    ");
}

#[test]
fn offline_a_sync_waits_says_so_and_the_next_sends_everything() {
    let dir = tempfile::tempdir().unwrap();
    let remote = dir.path().join("later.git");
    let env = TestEnv::new();
    // Named while the remote cannot be reached: the sync that follows says so.
    env.in_terminal(&["sync", "--remote", remote.to_str().unwrap()], &[]);
    pulse(&env, "offline", "written while offline", "send it later");
    let out = env.run(&["sync", "--json"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let r: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(r["offline"].is_string() && r["pushed"] == false, "{r}");
    let st: serde_json::Value = serde_json::from_str(&env.ok(&["status", "--json"])).unwrap();
    assert!(st["sync"]["last"]["offline"].is_string(), "{st}");
    assert!(env.ok(&["status"]).contains("FAILED"));
    let doctor = env.run(&["doctor"]);
    assert!(
        stdout(&doctor).contains("could not reach"),
        "{}",
        stdout(&doctor)
    );
    // The remote comes back: the next sync sends what waited.
    Git::at(remote.parent().unwrap()).ok(&["init", "--bare", "-q", &remote.display().to_string()]);
    pulse(&env, "offline", "written after", "done");
    let r = sync(&env);
    assert_eq!(r["pushed"], true, "{r}");
    let id = machine_id(&env);
    // The commits of the two syncs that could not reach it, then this one's.
    let count = git(
        &remote,
        &["rev-list", "--count", &format!("refs/trail/{id}")],
    );
    assert_eq!(count, "3", "every commit went");
    let blob = git(
        &remote,
        &[
            "show",
            &format!("refs/trail/{id}:stream/pulses.log.md/00000000"),
        ],
    );
    assert!(blob.contains("written while offline") && blob.contains("written after"));
}

/// A project that opted out of sync (`.trail/no-sync`, issue 24): its records go to the
/// local-only ledger, which no sync sends (not to the other machine, not into the remote's
/// objects), while this machine still reads them as one timeline with everything else.
#[test]
fn a_project_that_opted_out_never_leaves_the_machine() {
    let f = fleet(2);
    let (a, b) = (&f.machines[0], &f.machines[1]);
    std::fs::create_dir_all(a.cwd.join(".trail")).unwrap();
    std::fs::write(a.cwd.join(".trail/no-sync"), "").unwrap();
    pulse(
        a,
        "payroll",
        "private plan: migrate the payroll tables",
        "keep it here",
    );
    // Another project on the same machine still syncs.
    let elsewhere = a.root.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = a
        .cmd(&[
            "pulse",
            "--proj",
            "elsewhere",
            "--topic",
            "shared",
            "--summary",
            "shared work goes out",
            "--next",
            "go on",
        ])
        .current_dir(&elsewhere)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));

    let dry = a.ok(&["sync", "--dry-run"]);
    assert!(dry.contains("kept on this machine"), "{dry}");
    assert!(dry.contains("elsewhere: 1 record(s)"), "{dry}");
    let status = a.ok(&["status"]);
    assert!(
        status.contains("kept on this machine (.trail/no-sync)"),
        "{status}"
    );
    sync(a);
    sync(b);

    let copy: Vec<u8> = segments(&replica(b, &machine_id(a)))
        .into_iter()
        .flat_map(|(_, b)| b)
        .collect();
    let copy = String::from_utf8_lossy(&copy);
    assert!(copy.contains("shared work goes out"), "{copy}");
    assert!(!copy.contains("payroll"), "{copy}");
    let objects = git(&f.remote, &["cat-file", "--batch-all-objects", "--batch"]);
    assert!(objects.contains("shared work goes out"));
    assert!(!objects.contains("payroll"));
    let stream = std::fs::read(a.trail_home.join("stream/pulses.log.md")).unwrap();
    assert!(!String::from_utf8_lossy(&stream).contains("payroll"));

    // Here it is one timeline: log, search and resume read it, and verify checks its chain
    // and its anchor.
    assert!(a.ok(&["log"]).contains("payroll"));
    assert!(a.ok(&["search", "payroll"]).contains("payroll"));
    let resume = a.ok(&["resume"]);
    assert!(resume.contains("keep it here"), "{resume}");
    let verify = a.ok(&["verify"]);
    assert!(verify.contains("kept on this machine only"), "{verify}");
}

/// `trail recall` reads the person's other machines too (issue 24): a note remembered on one
/// machine is a record of the project, which a sync carries; the other machine's recall finds
/// it beside its own memory, named by the machine it came from.
#[test]
fn a_note_remembered_on_one_machine_is_recalled_on_another() {
    let f = fleet(2);
    let (a, b) = (&f.machines[0], &f.machines[1]);
    a.ok(&["remember", "the staging database listens on port 6543"]);
    b.ok(&["remember", "staging deploys need the VPN"]);
    // Before a sync, each knows only its own.
    let before = b.ok(&["recall", "staging", "--json"]);
    assert!(!before.contains("6543"), "{before}");
    sync(a);
    sync(b);
    let hits: serde_json::Value =
        serde_json::from_str(&b.ok(&["recall", "staging", "--json"])).unwrap();
    let hits = hits.as_array().unwrap();
    let from_a = hits
        .iter()
        .find(|h| h["text"].as_str().unwrap().contains("port 6543"))
        .unwrap_or_else(|| panic!("{hits:?}"));
    assert!(
        from_a["source"]
            .as_str()
            .unwrap()
            .starts_with(&format!("machine {}", machine_id(a))),
        "{from_a}"
    );
    assert!(
        hits.iter()
            .any(|h| h["text"].as_str().unwrap().contains("VPN")),
        "{hits:?}"
    );
    // Recalled once, however many records say it.
    assert_eq!(
        hits.iter()
            .filter(|h| h["text"].as_str().unwrap().contains("port 6543"))
            .count(),
        1
    );
}
