//! `trail search`: every source, ranking, filters, regexes, redaction, hostile files, the JSON
//! contract, the trajectory's pivot and the semantic fallback.

use std::path::Path;

use serde_json::Value;

use crate::common::*;

fn pulse(env: &TestEnv, args: &[&str]) -> String {
    let mut a = vec!["pulse"];
    a.extend_from_slice(args);
    env.ok(&a).trim().to_string()
}

fn search(env: &TestEnv, args: &[&str]) -> Value {
    let mut a = vec!["search", "--json"];
    a.extend_from_slice(args);
    serde_json::from_str(&env.ok(&a)).unwrap()
}

fn ids(v: &Value) -> Vec<String> {
    v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["id"].as_str().unwrap().to_string())
        .collect()
}

fn write(env: &TestEnv, rel: &str, text: &str) {
    let p = env.cwd.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
fn hits_rank_by_bm25_and_the_newest_wins_a_tie() {
    let env = TestEnv::new();
    let both = pulse(
        &env,
        &["--proj", "p", "--summary", "staging db moved to port 5433"],
    );
    let old = pulse(&env, &["--proj", "p", "--summary", "the staging cluster"]);
    let one = pulse(&env, &["--proj", "p", "--summary", "an unrelated port"]);
    let new = pulse(&env, &["--proj", "p", "--summary", "the staging cluster"]);
    pulse(&env, &["--proj", "p", "--summary", "nothing to see"]);
    let v = search(&env, &["staging port"]);
    assert_eq!(v["total"], 4);
    let got = ids(&v);
    // Both words first; then the two equal records, newer first; `port` alone is rarer than
    // `staging`, so its record outranks neither of theirs only by its own weight.
    assert_eq!(got[0], both);
    let pos = |id: &str| got.iter().position(|g| g == id).unwrap();
    assert!(pos(&new) < pos(&old), "{got:?}");
    assert!(got.contains(&one));
    let scores: Vec<f64> = v["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn every_source_is_searched_and_named_by_an_id_to_retrieve_it() {
    let env = TestEnv::new();
    let archived = pulse(
        &env,
        &["--proj", "project", "--summary", "zebra in the archive"],
    );
    env.ok(&["rotate", "--force"]);
    let live = pulse(
        &env,
        &["--proj", "project", "--fact", "zebra in the stream"],
    );
    env.ok(&["remember", "a zebra in daily memory"]);
    write(
        &env,
        ".trail/MEMORY.md",
        "## Facts\n- a zebra in core memory\n",
    );
    write(&env, "NOTES.md", "# Notes\n\n- decided: zebra in notes\n");
    write(
        &env,
        ".proof/session_log.jsonl",
        "{\"timestamp\":\"2026-11-26T10:00:00.000000Z\",\"tool\":\"Bash\",\"input_preview\":\"echo zebra\",\"success\":true}\n",
    );
    write(
        &env,
        ".trail/trajectory/2026-11-26.jsonl",
        "{\"ts\":\"2026-11-26T10:00:01.000000Z\",\"phase\":\"decision\",\"text\":\"zebra chosen\"}\n",
    );
    write(
        &env,
        "src/main.rs",
        "fn main() {\n    // zebra in code\n}\n",
    );
    let v = search(&env, &["zebra"]);
    let got = ids(&v);
    let day = &live[..10];
    for id in [
        archived.as_str(),
        live.as_str(),
        &format!("${{PROJECT_ROOT}}/.trail/memory/{day}.md:4"),
        "${PROJECT_ROOT}/.trail/MEMORY.md:2",
        "${PROJECT_ROOT}/NOTES.md:3",
        "${PROJECT_ROOT}/.proof/session_log.jsonl:1",
        "${PROJECT_ROOT}/.trail/trajectory/2026-11-26.jsonl:1",
    ] {
        assert!(got.iter().any(|g| g == id), "{id} not in {got:?}");
    }
    assert!(!got.iter().any(|g| g.contains("src/main.rs")), "{got:?}");
    let by_id = |id: &str| -> Value {
        v["hits"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["id"] == id)
            .unwrap()
            .clone()
    };
    let rec = by_id(&archived);
    assert_eq!(rec["source"], "stream");
    assert_eq!(rec["kind"], "pulse");
    assert_eq!(rec["time"], archived.as_str());
    assert!(
        rec["file"].as_str().unwrap().starts_with("archive/"),
        "{rec}"
    );
    assert_eq!(rec["snippet"], "summary: zebra in the archive");
    let proof = by_id("${PROJECT_ROOT}/.proof/session_log.jsonl:1");
    assert_eq!(
        (proof["source"].clone(), proof["kind"].clone()),
        ("proof".into(), "Bash".into())
    );
    assert_eq!(proof["snippet"], "input_preview: echo zebra");
    assert_eq!(proof["time"], "2026-11-26T10:00:00.000000Z");
    let traj = by_id("${PROJECT_ROOT}/.trail/trajectory/2026-11-26.jsonl:1");
    assert_eq!(traj["kind"], "decision");
    assert_eq!(by_id("${PROJECT_ROOT}/.trail/MEMORY.md:2")["kind"], "core");
    let code = search(&env, &["zebra", "--code"]);
    assert!(
        ids(&code).contains(&"${PROJECT_ROOT}/src/main.rs:2".to_string()),
        "{code}"
    );
    // NOTES.md is searched once, as notes, not again as code.
    assert_eq!(
        ids(&code).iter().filter(|i| i.contains("NOTES.md")).count(),
        1
    );
    // The text form: each id with its source, then the snippet.
    let text = env.ok(&["search", "zebra", "--type", "core"]);
    assert_eq!(
        text,
        "${PROJECT_ROOT}/.trail/MEMORY.md:2  memory/core  ".to_string()
            + by_id("${PROJECT_ROOT}/.trail/MEMORY.md:2")["time"]
                .as_str()
                .unwrap()
            + "\n    - a zebra in core memory\n1 of 1 result (lexical)\n"
    );
}

#[test]
fn code_search_respects_gitignore() {
    let env = TestEnv::new();
    write(&env, ".gitignore", "build/\n");
    write(&env, "build/gen.rs", "// quokka generated\n");
    write(&env, "src/lib.rs", "// quokka by hand\n");
    write(&env, ".hidden/x.rs", "// quokka hidden\n");
    let got = ids(&search(&env, &["quokka", "--code"]));
    assert_eq!(got, ["${PROJECT_ROOT}/src/lib.rs:1"]);
}

#[test]
fn filters_narrow_by_time_type_and_project() {
    let env = TestEnv::new();
    let first = pulse(&env, &["--proj", "project", "--summary", "otter one"]);
    let hand = pulse(
        &env,
        &[
            "--type",
            "handoff",
            "--proj",
            "project",
            "--summary",
            "otter handed off",
        ],
    );
    let other = pulse(
        &env,
        &["--proj", "elsewhere", "--summary", "otter elsewhere"],
    );
    write(&env, "NOTES.md", "- otter in the notes\n");
    assert_eq!(
        ids(&search(&env, &["otter", "--type", "handoff"])),
        [hand.as_str()]
    );
    assert_eq!(
        ids(&search(&env, &["otter", "--type", "NOTES"])),
        ["${PROJECT_ROOT}/NOTES.md:1"]
    );
    let mut since = ids(&search(
        &env,
        &["otter", "--type", "stream", "--since", &hand],
    ));
    since.sort();
    assert_eq!(since, [hand.clone(), other.clone()]);
    assert_eq!(
        ids(&search(
            &env,
            &["otter", "--type", "stream", "--until", &hand]
        )),
        [first.as_str()]
    );
    // Another project's records only; this project's files are not another project's.
    assert_eq!(
        ids(&search(&env, &["otter", "--proj", "elsewhere"])),
        [other]
    );
    let mine = ids(&search(&env, &["otter", "--proj", "project"]));
    assert!(mine.contains(&"${PROJECT_ROOT}/NOTES.md:1".to_string()) && mine.len() == 3);
    let bad = env.run(&["search", "otter", "--since", "yesterday"]);
    assert_eq!(code(&bad), 2);
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &stderr(&bad)), @"error: --since: `yesterday` is neither an RFC 3339 time ([TS]) nor a date (2026-11-26)");
}

#[test]
fn a_regex_query_matches_as_written_and_a_bad_one_is_refused() {
    let env = TestEnv::new();
    let hit = pulse(&env, &["--proj", "p", "--summary", "error E0425 in parser"]);
    pulse(&env, &["--proj", "p", "--summary", "error in the docs"]);
    assert_eq!(ids(&search(&env, &["E0\\d{3}", "--regex"])), [hit]);
    // Without --regex, the same text is a literal word.
    assert_eq!(search(&env, &["E0\\d{3}"])["total"], 0);
    // Each refusal whole (issue 23: were `.contains` checks).
    let mut said = String::new();
    for bad in ["(unclosed", "x*", "  "] {
        let regex: &[&str] = if bad.trim().is_empty() {
            &[]
        } else {
            &["--regex"]
        };
        let out = env.run(&[&["search", bad], regex].concat());
        assert_eq!(code(&out), 2, "{bad}");
        said += &format!("{bad:?}\n{}\n", stderr(&out));
    }
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &said), @r#"
    "(unclosed"
    error: the regex does not compile: unclosed group

    "x*"
    error: the regex matches the empty string, so it matches everywhere: give it something to find

    "  "
    error: the query is empty: give a word to search for
    "#);
}

#[test]
fn a_secret_in_a_hit_is_redacted_in_every_output() {
    let env = TestEnv::new();
    let token = "ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ";
    write(
        &env,
        "NOTES.md",
        &format!("- the deploy token is {token}\n"),
    );
    write(
        &env,
        "config/key.pem",
        "-----BEGIN RSA PRIVATE KEY-----\nmdVPlW354z9gY69gmsXlO85zSLAAUkNEbCiW69DD48gKSdUkz+Pe/pIlRvnZzM6M\nr8bpf1iIFYqNfMxhM8nAuO77O0+bDq1ld7U07UGWwALKYnWKFonOWsUQO2WUheVC\n-----END RSA PRIVATE KEY-----\n",
    );
    for args in [
        vec!["search", "deploy token"],
        vec!["search", "deploy token", "--json"],
        vec!["search", "r8bpf1iIFYqNfMxhM8nAuO77O0", "--code"],
        vec!["search", "r8bpf1iIFYqNfMxhM8nAuO77O0", "--code", "--json"],
    ] {
        let out = env.ok(&args);
        assert!(out.contains("${secret:"), "{args:?}: {out}");
        assert!(
            !out.contains("ghp_R2d9") && !out.contains("r8bpf1"),
            "{args:?}: {out}"
        );
    }
}

#[test]
fn hostile_and_binary_files_neither_break_nor_stall_a_search() {
    let env = TestEnv::new();
    pulse(&env, &["--proj", "p", "--summary", "walrus in the stream"]);
    // A symlinked NOTES.md (it would print whatever it points at) and a FIFO proof log (it
    // would block a reader forever) are refused and named.
    let outside = env.root.join("outside.txt");
    std::fs::write(&outside, "walrus outside the project\n").unwrap();
    std::os::unix::fs::symlink(&outside, env.cwd.join("NOTES.md")).unwrap();
    std::fs::create_dir_all(env.cwd.join(".proof")).unwrap();
    let fifo = env.cwd.join(".proof/session_log.jsonl");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    // Binary, invalid UTF-8, control characters, a 6 MB line, a stream with garbage appended.
    write(&env, "src/blob.bin", "walrus\0\u{1}binary");
    std::fs::write(env.cwd.join("src/latin1.txt"), b"walrus caf\xe9 \x1b[2J\n").unwrap();
    write(
        &env,
        "src/long.txt",
        &format!("{}walrus{}", "a ".repeat(3 << 20), "b".repeat(99)),
    );
    let mut garbage = std::fs::OpenOptions::new()
        .append(true)
        .open(env.stream())
        .unwrap();
    std::io::Write::write_all(
        &mut garbage,
        b"\n---\nschema: ledgerpulse/v1\nwalrus \xff\xfe torn",
    )
    .unwrap();
    let out = env.run(&["search", "walrus", "--code", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let skipped = v["skipped"].to_string();
    assert!(
        skipped.contains("NOTES.md") && skipped.contains("session_log.jsonl"),
        "{v}"
    );
    assert!(stderr(&out).contains("not searched: ${PROJECT_ROOT}/NOTES.md"));
    let got = ids(&v);
    assert!(!got.iter().any(|i| i.contains("blob.bin")), "{got:?}");
    assert!(got.iter().any(|i| i.ends_with("latin1.txt:1")), "{got:?}");
    assert!(got.iter().any(|i| i.ends_with("long.txt:1")), "{got:?}");
    let text = stdout(&out);
    assert!(
        !text.contains("outside the project") && !text.contains('\u{1b}'),
        "{text}"
    );
    // The text rendering shows no control characters either.
    let shown = env.ok(&["search", "walrus", "--code"]);
    assert!(!shown.contains('\u{1b}'), "{shown}");
}

#[test]
fn the_json_answer_keeps_its_contract() {
    let env = TestEnv::new();
    for i in 0..7 {
        pulse(
            &env,
            &["--proj", "p", "--summary", &format!("heron sighting {i}")],
        );
    }
    let v = search(&env, &["heron", "--limit", "3"]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["hits", "total", "mode"]);
    assert_eq!(v["total"], 7);
    assert_eq!(v["mode"], "lexical");
    let hits = v["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 3);
    for h in hits {
        for (k, t) in [
            ("source", "s"),
            ("id", "s"),
            ("snippet", "s"),
            ("score", "n"),
        ] {
            let ok = if t == "s" {
                h[k].is_string()
            } else {
                h[k].is_number()
            };
            assert!(ok, "{k} in {h}");
        }
    }
    let none = search(&env, &["pelican"]);
    assert_eq!(
        (
            none["hits"].as_array().unwrap().len(),
            none["total"].clone()
        ),
        (0, 0.into())
    );
    assert_eq!(
        env.ok(&["search", "pelican"]),
        "nothing matches `pelican`\n"
    );
}

#[test]
fn more_than_fifty_results_log_a_pivot_in_the_trajectory() {
    let env = TestEnv::new();
    let lines: String = (0..51).map(|i| format!("- ibis {i}\n")).collect();
    write(&env, "NOTES.md", &lines);
    let trajectory = env.cwd.join(".trail/trajectory");
    // Not a trail project yet: nothing is written.
    assert_eq!(search(&env, &["ibis"])["total"], 51);
    assert!(!env.cwd.join(".trail").exists());
    std::fs::create_dir_all(env.cwd.join(".trail")).unwrap();
    search(&env, &["ibis", "--limit", "1"]);
    let files = files_under(&trajectory);
    assert_eq!(files.len(), 1, "{files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let v: Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["phase"], "pivot");
    assert_eq!(v["original_query"], "ibis");
    assert_eq!(v["result_count"], 51);
    // Written by the trajectory's writer: its reader reads it, and grounding is not stopped.
    assert!(v["trace_id"].is_string() && v["span_id"].is_string(), "{v}");
    let ground = env.run(&["ground"]);
    assert_eq!(code(&ground), 0, "{}", stderr(&ground));
    // Fifty is not too many: 49 notes and the pivot itself, which names the query.
    let fewer: String = lines.lines().take(49).map(|l| format!("{l}\n")).collect();
    write(&env, "NOTES.md", &fewer);
    assert_eq!(search(&env, &["ibis"])["total"], 50);
    assert_eq!(std::fs::read_to_string(&files[0]).unwrap(), text);
    // The pivot is searchable like any trajectory entry.
    assert_eq!(search(&env, &["broad", "--type", "pivot"])["total"], 1);
}

/// A stand-in for ck that answers with one hit in the file given last.
fn fake_ck(dir: &Path, hits_file: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let script = format!(
        "#!/bin/sh\necho \"$@\" > {args}\nfor last; do :; done\nprintf '%s\\n' '{{\"path\":\"'\"$last\"'/{hits_file}\",\"span\":{{\"byte_start\":0,\"byte_end\":9,\"line_start\":2,\"line_end\":2}},\"snippet\":\"meaning found\",\"score\":0.87}}'\n",
        args = dir.join("args").display(),
    );
    let p = dir.join("ck");
    std::fs::write(&p, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn semantic_search_uses_ck_when_it_is_there_and_says_so_when_not() {
    let env = TestEnv::new().env("PATH", "/usr/bin:/bin");
    pulse(&env, &["--proj", "p", "--summary", "a lexical kingfisher"]);
    let v = search(&env, &["kingfisher", "--semantic"]);
    assert_eq!(v["mode"], "lexical");
    assert!(v["fallback"].as_str().unwrap().contains("needs ck"), "{v}");
    assert_eq!(v["total"], 1);
    let text = env.ok(&["search", "kingfisher", "--hybrid"]);
    assert!(text.starts_with("note: --hybrid needs ck"), "{text}");
    let bin = env.root.join("fakebin");
    fake_ck(&bin, "src/main.rs");
    write(
        &env,
        "src/main.rs",
        "fn main() {\n    let meaning = 42;\n}\n",
    );
    let env = env.env("PATH", &format!("{}:/usr/bin:/bin", bin.display()));
    let v = search(&env, &["what it means", "--semantic", "--code"]);
    assert_eq!(v["mode"], "semantic", "{v}");
    assert!(v.get("fallback").is_none());
    let args = std::fs::read_to_string(bin.join("args")).unwrap();
    assert!(
        args.starts_with("--jsonl --sem --topk 80 -- what it means "),
        "{args}"
    );
    // ck was handed the project root last; its hit is named as trail names it.
    let root = env.cwd.to_str().unwrap();
    assert!(args.trim_end().ends_with(root), "{args}");
    let hits = v["hits"].as_array().unwrap();
    assert_eq!(hits.len(), 1, "{v}");
    assert_eq!(hits[0]["id"], "${PROJECT_ROOT}/src/main.rs:2");
    assert_eq!(hits[0]["source"], "code");
    assert_eq!(hits[0]["score"], 0.87);
    assert_eq!(hits[0]["snippet"], "meaning found");
}

/// A stream of `mb` megabytes written straight to the file (as `trail-bench gen` does): every
/// record mentions `backlog`, one in a thousand `quokka`.
fn big_stream(env: &TestEnv, mb: usize) -> i64 {
    use trail_core::ledger::frame;
    use trail_core::ledger::record::{Focus, Intent, Record, RecordType};
    use trail_core::time::Ts;
    let mut bytes = Vec::with_capacity(mb << 20);
    let mut i = 0i64;
    while bytes.len() < mb << 20 {
        let mut r = Record::new(
            RecordType::Pulse,
            Ts::from_micros(1_790_000_000_000_000 + i),
        );
        r.focus = vec![Focus {
            proj: "project".into(),
            topic: "search".into(),
        }];
        let word = if i % 1000 == 7 { "quokka" } else { "wombat" };
        r.intent = Some(Intent {
            primary: "continue".into(),
            summary: format!("step {i}: the backlog of {word} work, item by item, with notes"),
        });
        bytes.extend(frame::encode(&r).0);
        i += 1;
    }
    std::fs::create_dir_all(env.stream().parent().unwrap()).unwrap();
    std::fs::write(env.stream(), bytes).unwrap();
    i
}

/// The search cache's parts (not the builder's lock).
fn parts(env: &TestEnv) -> Vec<std::path::PathBuf> {
    let mut v = files_under(&env.trail_home.join("cache/search"));
    v.retain(|p| p.extension().is_some_and(|e| e == "idx"));
    v
}

/// Wait for the background builder's build number `n` to end, and return its note. Bounded,
/// and about liveness only: a debug build of 17 MB takes what it takes.
fn built(env: &TestEnv, n: u64) -> String {
    let lock = env.trail_home.join("cache/search/build.lock");
    let deadline = std::time::Instant::now() + std::time::Duration::from_mins(10);
    loop {
        let note = std::fs::read_to_string(&lock).unwrap_or_default();
        if note.starts_with(&format!("builds={n}\n"))
            && (note.contains("finished=") || note.contains("failed="))
        {
            assert!(!note.contains("failed="), "{note}");
            return note;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "build {n} did not end: {note:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Two answers to the same query are the same: the same hits in the same order, the same
/// total. Scores may differ in the last digits: a scan estimates how many records are in the
/// blocks it did not need to split (ranking counts documents), where the cache counts them.
fn same(a: &[Value], b: &[Value]) {
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(b) {
        let without_scores = |v: &Value| {
            let mut v = v.clone();
            let mut scores = Vec::new();
            for h in v["hits"].as_array_mut().unwrap() {
                scores.push(h["score"].as_f64().unwrap());
                h.as_object_mut().unwrap().remove("score");
            }
            (v, scores)
        };
        let ((a, sa), (b, sb)) = (without_scores(a), without_scores(b));
        assert_eq!(a, b);
        for (x, y) in sa.iter().zip(&sb) {
            assert!((x - y).abs() <= 1e-3 * x.abs().max(1.0), "{sa:?} {sb:?}");
        }
    }
}

#[test]
fn the_search_cache_is_only_a_cache() {
    let env = TestEnv::new();
    let records = big_stream(&env, 17);
    let cache = env.trail_home.join("cache/search");
    let answers = |env: &TestEnv| -> Vec<Value> {
        ["backlog", "quokka", "step 12345"]
            .iter()
            .map(|q| search(env, &[q, "--limit", "5"]))
            .collect()
    };
    // No cache: the first search answers from the scan and starts the builder, which writes
    // the parts of the two complete 8 MiB windows in the background (the rest of the stream is
    // always scanned).
    let first = answers(&env);
    assert_eq!(first[0]["total"], records);
    assert_eq!(first[1]["total"], (records - 7).div_euclid(1000) + 1);
    built(&env, 1);
    assert_eq!(parts(&env).len(), 2, "{:?}", files_under(&cache));
    same(&answers(&env), &first); // read from the cache
    // Deleted: the same answers from the scan, and the cache is whole again.
    std::fs::remove_dir_all(&cache).unwrap();
    assert_eq!(answers(&env), first);
    built(&env, 1);
    let rebuilt = parts(&env);
    assert_eq!(rebuilt.len(), 2);
    // Damaged: not believed, and rebuilt.
    std::fs::write(&rebuilt[0], b"garbage").unwrap();
    same(&answers(&env), &first);
    built(&env, 2);
    assert!(std::fs::metadata(&rebuilt[0]).unwrap().len() > 1000);
    same(&answers(&env), &first);
    // What the cache answers is what a scan answers: a regex query never uses it, nor does
    // `--no-cache`.
    let scanned = search(&env, &["\\bquokka", "--regex", "--limit", "5"]);
    assert_eq!(scanned["total"], first[1]["total"]);
    assert_eq!(ids(&scanned), ids(&first[1]));
    assert_eq!(
        search(&env, &["quokka", "--limit", "5", "--no-cache"]),
        first[1]
    );
}

#[test]
fn two_searches_at_once_start_one_builder() {
    let env = TestEnv::new();
    let records = big_stream(&env, 17);
    let run = || {
        env.cmd(&["search", "backlog", "--json", "--limit", "3"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (run(), run());
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert!(a.status.success() && b.status.success());
    assert_eq!(stdout(&a), stdout(&b));
    let v: Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["total"], records);
    let note = built(&env, 1);
    assert!(note.contains("finished="), "{note}");
    assert_eq!(parts(&env).len(), 2);
    // Complete: a search starts no builder, and the one that ran was the only one.
    search(&env, &["backlog"]);
    assert!(
        std::fs::read_to_string(env.trail_home.join("cache/search/build.lock"))
            .unwrap()
            .starts_with("builds=1\n")
    );
    // By hand: nothing left to write.
    let json: Value = serde_json::from_str(&env.ok(&["build-search-cache", "--json"])).unwrap();
    assert_eq!(
        (
            json["running"].clone(),
            json["built"].clone(),
            json["kept"].clone()
        ),
        (false.into(), 0.into(), 2.into())
    );
}
