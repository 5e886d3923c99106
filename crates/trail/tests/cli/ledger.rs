//! The pulse stream through the CLI: records, rehydration, log, rotation, locks, config.

use crate::common::*;

fn ts_line(s: &str) -> String {
    let t = s.trim().to_string();
    assert!(t.ends_with('Z') && t.len() == 27, "not a timestamp: {t:?}");
    t
}

#[test]
fn pulse_prints_a_microsecond_utc_timestamp_and_timestamps_strictly_increase() {
    let env = TestEnv::new();
    let mut last = String::new();
    for i in 0..5 {
        let ts = ts_line(&env.ok(&["pulse", "--proj", "p", "--summary", &format!("step {i}")]));
        assert!(ts > last, "{ts} not after {last}");
        last = ts;
    }
    assert_eq!(env.ok(&["log", "--count"]).trim(), "5");
}

#[test]
fn every_field_round_trips_through_the_stream() {
    let env = TestEnv::new();
    env.ok(&[
        "pulse",
        "--proj",
        "A",
        "--topic",
        "TLS investigation",
        "--proj",
        "B",
        "--topic",
        "System prompt design",
        "--intent",
        "continue",
        "--summary",
        "Investigate TLS chain",
        "--next",
        "Run openssl s_client",
        "--next",
        "Return to spec edits",
        "--fact",
        "curl -v shows unknown CA error",
        "--file",
        "C:/normalized/path/file.txt",
        "--tag",
        "context-switch",
        "--confidence",
        "medium",
        "--shift-before",
        "CA missing",
        "--shift-after",
        "proxy rewrites the chain",
    ]);
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["log", "--json", "--limit", "1"])).unwrap();
    let r = &json[0];
    assert_eq!(r["type"], "pulse");
    assert_eq!(r["focus"][0]["proj"], "A");
    assert_eq!(r["focus"][0]["topic"], "TLS investigation");
    assert_eq!(r["focus"][1]["topic"], "System prompt design");
    assert_eq!(r["intent"]["primary"], "continue");
    assert_eq!(r["next"][1], "Return to spec edits");
    assert_eq!(r["facts"][0], "curl -v shows unknown CA error");
    assert_eq!(r["files"][0], "C:/normalized/path/file.txt");
    assert_eq!(r["tags"][0], "context-switch");
    assert_eq!(r["status"]["confidence"], "medium");
    assert_eq!(r["status"]["blocked"], false);
    assert_eq!(r["model_shift"]["after"], "proxy rewrites the chain");
    assert_eq!(r["sealed"], true);
    env.ok(&["verify"]);
}

#[test]
fn a_tangent_that_changes_intent_is_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    env.ok(&[
        "pulse",
        "--proj",
        "p",
        "--intent",
        "continue",
        "--summary",
        "main work",
    ]);
    let before = std::fs::read(env.stream()).unwrap();
    let out = env.run(&[
        "pulse", "--type", "tangent", "--proj", "p", "--intent", "switch",
    ]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(
        err.contains("must not change intent")
            && err.contains("hint: drop the intent (--intent, or `intent:`"),
        "{err}"
    );
    assert_eq!(std::fs::read(env.stream()).unwrap(), before);
    // Keeping the intent, or not naming one, is fine; a tangent may defer instead of next.
    env.ok(&[
        "pulse",
        "--type",
        "tangent",
        "--proj",
        "p",
        "--intent",
        "continue",
        "--defer",
        "look at X",
    ]);
    env.ok(&[
        "pulse",
        "--type",
        "tangent",
        "--proj",
        "q",
        "--defer",
        "look at Y",
    ]);
}

#[test]
fn resume_skips_tangents_unless_asked_and_lists_them_as_parked() {
    let env = TestEnv::new();
    env.ok(&[
        "pulse",
        "--proj",
        "shop",
        "--topic",
        "checkout",
        "--intent",
        "continue",
        "--summary",
        "fix rounding",
        "--next",
        "move rounding to total",
    ]);
    env.ok(&[
        "pulse",
        "--type",
        "tangent",
        "--proj",
        "infra",
        "--topic",
        "flaky",
        "--summary",
        "flaky network test",
        "--defer",
        "quarantine test_retry",
    ]);
    let plain = env.ok(&["resume", "--level", "3"]);
    assert!(plain.contains("move rounding to total"), "{plain}");
    assert!(!plain.contains("quarantine test_retry"), "{plain}");
    let with = env.ok(&["resume", "--level", "3", "--tangents"]);
    assert!(with.contains("parked"), "{with}");
    assert!(with.contains("quarantine test_retry"), "{with}");
}

#[test]
fn resume_reports_threads_per_project_with_status_shifts_facts_and_files() {
    let env = TestEnv::new();
    env.ok(&[
        "pulse",
        "--proj",
        "A",
        "--topic",
        "tls",
        "--intent",
        "continue",
        "--summary",
        "TLS chain",
        "--fact",
        "unknown CA",
        "--file",
        "a.txt",
    ]);
    env.ok(&[
        "pulse",
        "--proj",
        "B",
        "--topic",
        "prompt",
        "--intent",
        "switch",
        "--summary",
        "prompt work",
        "--next",
        "draft v2",
        "--blocked",
        "--confidence",
        "low",
        "--shift-before",
        "old idea",
        "--shift-after",
        "new idea",
    ]);
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["resume", "--json", "--level", "3"])).unwrap();
    let threads = json["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 2);
    assert_eq!(threads[0]["proj"], "B");
    assert_eq!(threads[0]["status"]["blocked"], true);
    assert_eq!(threads[0]["model_shifts"][0]["after"], "new idea");
    assert_eq!(threads[1]["facts"][0], "unknown CA");
    assert_eq!(threads[1]["files"][0], "a.txt");
    let only_a = env.ok(&["resume", "--proj", "A", "--level", "3"]);
    assert!(
        only_a.contains("TLS chain") && !only_a.contains("prompt work"),
        "{only_a}"
    );
}

#[test]
fn resume_levels_stay_within_their_token_budgets() {
    let env = TestEnv::new();
    for i in 0..30 {
        env.ok(&[
            "pulse",
            "--proj",
            &format!("project-{}", i % 7),
            "--topic",
            &format!("topic number {i}"),
            "--intent",
            "continue",
            "--summary",
            &format!("a fairly long summary of what is going on in step {i} of the work"),
            "--next",
            &format!("do the next thing number {i} with care and attention to detail"),
            "--fact",
            &format!("fact {i}: the quick brown fox jumps over the lazy dog"),
        ]);
    }
    for (level, budget) in [("1", 100usize), ("2", 500)] {
        let json: serde_json::Value =
            serde_json::from_str(&env.ok(&["resume", "--json", "--level", level])).unwrap();
        let tokens = json["tokens"].as_u64().unwrap() as usize;
        assert!(tokens <= budget, "level {level}: {tokens} > {budget}");
        assert!(
            tokens > budget / 3,
            "level {level} wastes its budget: {tokens}"
        );
    }
    let full = env.ok(&["resume", "--level", "3"]);
    assert!(full.contains("topic number 29") && full.contains("project-0"));
}

/// Found by issue 21: three agreeing records on one topic stopped the whole read, so a
/// parallel topic's thread and its next step vanished from `trail resume` (even `--level 3`,
/// "everything") and from the SessionStart brief. Early stopping is per thread now: the settled
/// thread takes nothing older, the others are still read.
#[test]
fn a_settled_thread_stops_only_itself() {
    let env = TestEnv::new();
    let pulse = |topic: &str, summary: &str, next: &str| {
        env.ok(&[
            "pulse",
            "--proj",
            "shop",
            "--topic",
            topic,
            "--intent",
            "continue",
            "--summary",
            summary,
            "--next",
            next,
        ]);
    };
    pulse("auth", "auth work", "rotate the signing keys");
    pulse("billing", "billing work", "an older billing step");
    for _ in 0..3 {
        pulse("billing", "billing work", "export the invoices");
    }
    let json: serde_json::Value = serde_json::from_str(&env.ok(&["resume", "--json"])).unwrap();
    assert_eq!(json["stopped"], "start", "{json}");
    let text = json["text"].as_str().unwrap();
    assert!(text.contains("rotate the signing keys"), "{text}");
    assert!(text.contains("export the invoices"), "{text}");
    // The settled thread took nothing from the record before its three.
    assert!(!text.contains("an older billing step"), "{text}");
    let full = env.ok(&["resume", "--level", "3"]);
    assert!(full.contains("## shop / auth"), "{full}");
    assert!(full.contains("rotate the signing keys"), "{full}");
    let brief = env.ok(&["resume", "--level", "1", "--proj", "shop"]);
    assert!(brief.contains("export the invoices"), "{brief}");
}

#[test]
fn log_lists_newest_first_with_filters() {
    let env = TestEnv::new();
    let t1 = ts_line(&env.ok(&["pulse", "--proj", "a", "--summary", "first"]));
    env.ok(&[
        "pulse",
        "--type",
        "checkpoint",
        "--proj",
        "b",
        "--summary",
        "second",
    ]);
    env.ok(&["pulse", "--proj", "a", "--summary", "third"]);
    let all = env.ok(&["log"]);
    let first = all.find("first").unwrap();
    let third = all.find("third").unwrap();
    assert!(third < first, "{all}");
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["log", "--json", "--type", "checkpoint"])).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 1);
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["log", "--json", "--proj", "a", "--limit", "1"])).unwrap();
    assert_eq!(json[0]["intent"]["summary"], "third");
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["log", "--json", "--since", &t1])).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 3);
    let out = env.run(&["log", "--since", "last tuesday"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn log_since_reads_through_the_index_and_keeps_it_current() {
    let env = TestEnv::new();
    let mut times = Vec::new();
    for i in 0..6 {
        times.push(ts_line(&env.ok(&[
            "pulse",
            "--proj",
            "p",
            "--summary",
            &format!("n{i}"),
        ])));
    }
    let idx = env.trail_home.join("stream/pulses.log.md.idx.json");
    assert!(!idx.exists(), "appends leave the index to readers");
    let since = |t: &str| {
        let out = env.ok(&["log", "--json", "--since", t]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v.as_array().unwrap().len()
    };
    assert_eq!(since(&times[2]), 4);
    // The reader left an index describing every record.
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&idx).unwrap()).unwrap();
    assert_eq!(v["offsets"].as_object().unwrap().len(), 6);
    assert_eq!(
        v["covered"].as_u64().unwrap() as usize,
        stream_bytes(&env).len()
    );
    // An index whose entries point into records changes no answer, and is rebuilt.
    let shifted = std::fs::read_to_string(&idx)
        .unwrap()
        .replace("\":", "\":1");
    std::fs::write(&idx, shifted).unwrap();
    assert_eq!(since(&times[4]), 2);
    let healed: serde_json::Value = serde_json::from_slice(&std::fs::read(&idx).unwrap()).unwrap();
    assert_eq!(healed, v);
}

#[test]
fn count_uses_and_heals_the_index() {
    let env = TestEnv::new();
    for i in 0..10 {
        env.ok(&["pulse", "--proj", "p", "--summary", &format!("n{i}")]);
    }
    assert_eq!(env.ok(&["log", "--count"]).trim(), "10");
    let idx = env.trail_home.join("stream/pulses.log.md.idx.json");
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&idx).unwrap()).unwrap();
    assert_eq!(v["schema"], "ledgerpulse-index/v1");
    assert_eq!(v["offsets"].as_object().unwrap().len(), 10);
    // The index covers every record, up to (not including) the blank reserve.
    assert_eq!(
        v["covered"].as_u64().unwrap() as usize,
        stream_bytes(&env).len()
    );
    // A stale index (garbage offsets) and a deleted one are both rebuilt.
    std::fs::write(&idx, r#"{"schema":"ledgerpulse-index/v1","offsets":{"2020-01-01T00:00:00.000Z":7},"covered":50}"#).unwrap();
    env.ok(&["pulse", "--proj", "p", "--summary", "n10"]);
    assert_eq!(env.ok(&["log", "--count"]).trim(), "11");
    std::fs::remove_file(&idx).unwrap();
    assert_eq!(env.ok(&["log", "--count"]).trim(), "11");
    std::fs::write(&idx, "not json").unwrap();
    assert_eq!(env.ok(&["log", "--count"]).trim(), "11");
}

#[test]
fn rotation_archives_and_the_chain_continues_across_segments() {
    let env = TestEnv::new().env("TRAIL_ROTATE_BYTES", "4KB");
    for i in 0..12 {
        env.ok(&[
            "pulse",
            "--proj",
            "p",
            "--intent",
            "continue",
            "--summary",
            &format!("step {i} {}", "x".repeat(300)),
            "--next",
            &format!("after {i}"),
        ]);
    }
    let archives: Vec<_> = files_under(&env.archive())
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".log.md"))
        .collect();
    assert!(archives.len() >= 2, "{archives:?}");
    for a in &archives {
        let name = a.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            name.starts_with("pulses-") && name.len() == "pulses-YYYYMMDD-HHMMSS.mmmZ.log.md".len(),
            "{name}"
        );
        let idx = a.with_file_name(name.replace(".log.md", ".idx.json"));
        assert!(idx.exists(), "no index for {name}");
    }
    let v = env.ok(&["verify"]);
    assert!(v.contains("chain intact"), "{v}");
    // Resume still knows the latest work, from the carried state or the new records.
    let r = env.ok(&["resume", "--level", "3"]);
    assert!(r.contains("after 11"), "{r}");
    // Every user record is still somewhere: 12 pulses plus two compaction records per rotation.
    let n: usize = env.ok(&["log", "--count"]).trim().parse().unwrap();
    assert_eq!(n, 12 + 2 * archives.len());
    let out = env.ok(&["rotate"]);
    assert!(out.contains("not rotated"), "{out}");
    let out = env.ok(&["rotate", "--force", "--json"]);
    assert!(out.contains("\"rotated\":true"), "{out}");
    env.ok(&["verify"]);
}

#[test]
fn plain_spec_format_streams_are_read_and_extended() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.trail_home.join("stream")).unwrap();
    let plain = "---\nschema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\nfocus:\n  - proj: \"A\"\n    topic: \"TLS investigation\"\nintent:\n  primary: \"continue\"\n  summary: \"Investigate TLS chain in A\"\nstatus:\n  confidence: \"medium\"\n  blocked: false\nnext:\n  - \"Run openssl s_client and capture full chain\"\ntags: [\"context-switch\"]\n---\nfacts:\n- \"curl -v shows unknown CA error\"\n\n---\nschema: ledgerpulse/v1\nts: 2025-12-22T21:20:00.000Z\ntype: tangent\nfocus:\n  - proj: \"B\"\n    topic: \"fonts\"\ndefer:\n  - \"pick a font\"\n---\n";
    std::fs::write(env.stream(), plain).unwrap();
    // Written by another tool: nothing in it can be checked, which is not a failure (issue
    // 21: verify exited 1 on the plain streams the README says are read and extended).
    let out = env.run(&["verify"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &stdout(&out)), @r"
    ok: 2 records in 1 segment(s), 0 sealed, no chain to check
    note: the 2 record(s) are in the plain spec format (no seals, as another LedgerPulse writer puts them down): trail reads and extends them, but nothing in them can be verified; records trail appends from now on are sealed, chained and anchored
    ");
    let json: serde_json::Value = serde_json::from_str(&env.ok(&["verify", "--json"])).unwrap();
    assert_eq!(json["anchor"]["status"], "plain", "{json}");
    // What a person reads of another tool's records, whole (issue 23).
    let r = env.ok(&["resume", "--level", "3"]);
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &r), @r"
    ## A / TLS investigation (confidence medium)
    intent: continue — Investigate TLS chain in A
    next: Run openssl s_client and capture full chain
    fact: curl -v shows unknown CA error
    ");
    env.ok(&["pulse", "--proj", "A", "--summary", "sealed now"]);
    let v = env.ok(&["verify"]);
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &v), @r"
    ok: 3 records in 1 segment(s), 1 sealed, chain intact, head anchored
    note: anchoring began after 2 record(s) the stream already held; those were anchored as found (an anchor that was deleted restarts this way)
    ");
    assert_eq!(env.ok(&["log", "--count"]).trim(), "3");
}

/// A ledger that trail anchored, whose stream was then replaced by plain records and its anchor
/// removed, is not a plain stream: it fails.
#[test]
fn plain_records_in_place_of_an_anchored_stream_fail_verify() {
    let env = TestEnv::new();
    env.ok(&["pulse", "--proj", "A", "--summary", "sealed"]);
    let plain = "---\nschema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\nfocus:\n  - proj: \"A\"\n    topic: \"t\"\n---\n";
    std::fs::write(env.stream(), plain).unwrap();
    std::fs::remove_file(env.trail_home.join("stream/pulses.anchor")).unwrap();
    let out = env.run(&["verify"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(stdout(&out).contains("unanchored"), "{}", stdout(&out));
}

/// Issue 11, item 11: a hook that waited for the lock wrote the alert record and ran the alert
/// command, but said nothing to the person; the host shows a hook's stderr.
#[test]
fn a_hook_that_waits_too_long_for_the_lock_says_so_on_stderr() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env.ok(&["pulse", "--proj", "p", "--summary", "first"]);
    let env = env.env("TRAIL_ALERT_AFTER", "200ms");
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(env.trail_home.join("stream/pulses.lock"))
        .unwrap();
    lock.lock().unwrap();
    let mut child = env
        .cmd(&["hook", "claude-code"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        // SessionEnd writes a handoff pulse, so it waits for the lock.
        let payload = r#"{"hook_event_name":"SessionEnd","session_id":"s1","reason":"other"}"#;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.as_bytes())
            .unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(900));
    lock.unlock().unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("trail: waiting for the pulse stream lock"),
        "the person was not told: {}",
        stderr(&out)
    );
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["log", "--json", "--type", "alert"])).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 1, "{json}");
}

#[test]
fn a_writer_that_waits_too_long_for_the_lock_alerts() {
    let env = TestEnv::new();
    env.ok(&["pulse", "--proj", "p", "--summary", "first"]);
    let flag = env.root.join("alerted");
    let env = env.env("TRAIL_ALERT_AFTER", "200ms").env(
        "TRAIL_ALERT_COMMAND",
        &format!("echo \"$TRAIL_ALERT_MESSAGE\" > {}", flag.display()),
    );
    let lock = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(env.trail_home.join("stream/pulses.lock"))
        .unwrap();
    lock.lock().unwrap();
    let child = env
        .cmd(&["pulse", "--proj", "p", "--summary", "waited"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(900));
    lock.unlock().unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("waiting for the pulse stream lock"),
        "{}",
        stderr(&out)
    );
    for _ in 0..50 {
        if flag.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(std::fs::read_to_string(&flag).unwrap().contains("lock"));
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["log", "--json", "--type", "alert"])).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 1);
    assert!(
        json[0]["intent"]["summary"]
            .as_str()
            .unwrap()
            .contains("waited")
    );
    env.ok(&["verify"]);
}

#[test]
fn config_shows_each_value_and_its_origin() {
    let env = TestEnv::new().env("TRAIL_ROTATE_BYTES", "50MB");
    std::fs::create_dir_all(env.cwd.join(".trail")).unwrap();
    std::fs::write(
        env.cwd.join(".trail/config.toml"),
        "[ledger]\nalert_after = \"5s\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let out = env.ok(&["config"]);
    let line = |key: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(key))
            .unwrap_or_else(|| panic!("no {key} in {out}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    // Values are shown as they are written, with their unit, so a line can be pasted back.
    assert_eq!(
        line("ledger.rotate_bytes"),
        "ledger.rotate_bytes 50MB (environment $TRAIL_ROTATE_BYTES)"
    );
    assert!(
        line("ledger.alert_after").starts_with("ledger.alert_after 5s (project config "),
        "{out}"
    );
    assert!(out.contains("environment $TRAIL_HOME"), "{out}");
    let json: serde_json::Value = serde_json::from_str(&env.ok(&["config", "--json"])).unwrap();
    let max_records = &json["settings"]["ledger.max_records"];
    assert_eq!(max_records["value"], 500);
    assert_eq!(max_records["origin"]["kind"], "default");
    assert_eq!(max_records["env"], "TRAIL_MAX_RECORDS");
}

#[test]
fn config_shows_one_row_per_setting_of_the_table_in_its_order() {
    let env = TestEnv::new();
    let out = env.ok(&["config"]);
    let keys: Vec<&str> = out
        .lines()
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let mut expected: Vec<&str> = trail_core::config::SETTINGS
        .iter()
        .map(|s| s.key.name())
        .collect();
    expected.push("project.root");
    assert_eq!(keys, expected, "{out}");
    // The defaults, as the table states them (paths depend on the test's home).
    let defaults: Vec<String> = out
        .lines()
        .filter(|l| l.ends_with("(default)") && !l.contains('/'))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        defaults,
        [
            "ledger.rotate_bytes 100MB (default)",
            "ledger.alert_after 2s (default)",
            "ledger.alert_command (none) (default)",
            "ledger.max_records 500 (default)",
            "llm.provider extractive (default)",
            "llm.base_url (the provider's) (default)",
            "llm.model (none) (default)",
            "llm.command (none) (default)",
            "llm.timeout 120s (default)",
            "llm.retries 2 (default)",
            "memory.inject_chars 2500 (default)",
            "resume.other_projects 10 (default)",
            "memory.dream_every 24h (default)",
            "sync.every 600s (default)",
            "import.batch 200 (default)",
            "grounding.threshold 0.95 (default)",
            "grounding.enforcement warn (default)",
            "context.cap_tokens 20000 (default)",
            "context.reanchor_tokens 1500 (default)",
            "subagent.primer (none: subagents get nothing from trail) (default)",
            "grounding.ghost_mentions 3 (default)",
            "grounding.ghost_similarity 0.4 (default)",
            "notes.path (NOTES.md, or Loa's) (default)",
            "attention.yellow 5000 (default)",
            "attention.orange 10000 (default)",
            "attention.red 15000 (default)",
            "attention.window 200000 (default)",
        ],
        "{out}"
    );
}

/// The guide's settings table is `trail config --markdown`'s output, pasted between two marker
/// comments (with a blank line each side, so the end marker cannot read as a table row): a
/// setting added to the table and not to the guide fails here.
#[test]
fn the_guides_settings_table_is_what_trail_config_markdown_prints() {
    const BEGIN: &str = "<!-- begin: generated by `trail config --markdown`";
    const END: &str = "<!-- end: generated by `trail config --markdown` -->";
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/GUIDE.md");
    let guide = std::fs::read_to_string(path).unwrap();
    let begin = guide
        .find(BEGIN)
        .unwrap_or_else(|| panic!("docs/GUIDE.md has no line starting {BEGIN}"));
    let table_start = begin + guide[begin..].find('\n').expect("a line after the marker") + 1;
    let table_end = table_start
        + guide[table_start..]
            .find(END)
            .unwrap_or_else(|| panic!("docs/GUIDE.md has no {END} after its begin marker"));
    let in_guide = &guide[table_start..table_end];
    let generated = TestEnv::new().ok(&["config", "--markdown"]);
    assert!(
        in_guide == format!("\n{generated}\n"),
        "docs/GUIDE.md's settings table differs from `trail config --markdown`. Regenerate it: \
         replace the lines between its marker comments with a blank line, the output of \
         `cargo run -q -p trail --bin trail -- config --markdown`, and a blank line.\n\
         --- docs/GUIDE.md ---\n{in_guide}\n--- trail config --markdown ---\n{generated}"
    );
}

#[test]
fn demo_runs_offline_and_ends_with_an_intact_chain() {
    let env = TestEnv::new();
    let out = env.ok(&["demo"]);
    for needle in [
        "focus",
        "tangent",
        "model shift",
        "[BLOCKED]",
        "${secret:",
        "chain intact",
        "Tampered",
        // The gated session.
        "denied [rm-recursive-critical]",
        "Junction j-",
        "Approved junction",
        "allowed once, under a person's one-time approval",
        "observed:  4 tool calls",
        // Memory and the dream.
        "# Daily Memory:",
        "# Dream Diary:",
        // The report of it all.
        "trail report --html report.html",
        "1 blocked, 2 junction(s)",
    ] {
        assert!(
            out.to_lowercase().contains(&needle.to_lowercase()),
            "demo lacks {needle}:\n{out}"
        );
    }
    assert!(!out.contains("ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ"));
    // Regression: the record shown on screen once dragged the stream's blank reserve along.
    assert!(
        out.lines().all(|l| l.len() < 1000),
        "a runaway line in the demo output"
    );
    // The demo never touches the user's own ledger or secrets.
    assert!(!env.trail_home.exists());
    assert!(!env.home.join(".secrets").exists());
}

#[test]
fn count_includes_an_unsealed_last_record_of_a_plain_stream() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.trail_home.join("stream")).unwrap();
    let rec = |ts: &str| {
        format!("---\nschema: ledgerpulse/v1\nts: {ts}\ntype: pulse\nnext: [\"x\"]\n---\n")
    };
    std::fs::write(
        env.stream(),
        rec("2025-12-22T21:18:12.483Z") + &rec("2025-12-22T21:19:12.483Z"),
    )
    .unwrap();
    assert_eq!(env.ok(&["log", "--count"]).trim(), "2");
    assert_eq!(env.ok(&["log", "--count"]).trim(), "2");
}

#[test]
fn transcript_reports_context_usage_tools_and_summary() {
    let env = TestEnv::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../trail-core/tests/data/transcripts");
    let f = dir.join("spotter_4d5611e5_lines720-800_compact_window.jsonl");
    let out = env.ok(&["transcript", f.to_str().unwrap()]);
    assert!(out.contains("compaction: auto at 170251 tokens"), "{out}");
    assert!(out.contains("summary:"), "{out}");
    let v: serde_json::Value =
        serde_json::from_str(&env.ok(&["transcript", "--json", f.to_str().unwrap()])).unwrap();
    assert!(
        v["context_tokens"]
            .as_u64()
            .is_some_and(|c| c > 0 && c < 170_251),
        "{}",
        v["context_tokens"]
    );
    let out = env.run(&["transcript", "/no/such/file.jsonl"]);
    assert_eq!(code(&out), 2);
}

/// Found by issue 21: in a busy project (an objective, 12 decisions, 20 pulses each with a next
/// step), level 1 said the objective, "now: last decision …" and decision titles, and not the
/// newest next step, the one thing an agent needs after `/clear`. And the SessionStart brief
/// lost the quieter topic's thread.
#[test]
fn level_1_says_what_is_next_in_a_busy_project() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    std::fs::write(env.cwd.join("a.rs"), "fn a() {}\n").unwrap();
    env.ok(&["init"]);
    env.ok(&["mode", "active", "Ship the billing export"]);
    for i in 1..=12 {
        env.ok(&[
            "decide",
            "--title",
            &format!("Decision {i} about rounding"),
            "--decision",
            &format!("use mode {i}"),
            "--rationale",
            "because",
            "--evidence",
            "`fn a() {}` [${PROJECT_ROOT}/a.rs:1]",
        ]);
    }
    for i in 1..=20 {
        let topic = if i == 7 { "auth" } else { "billing" };
        // The last three agree: the billing thread settles.
        let i = i.min(18);
        env.ok(&[
            "pulse",
            "--proj",
            "project",
            "--topic",
            topic,
            "--summary",
            &format!("step {i} on {topic}"),
            "--next",
            &format!("next step {i} for {topic}"),
        ]);
    }
    let json: serde_json::Value =
        serde_json::from_str(&env.ok(&["resume", "--level", "1", "--json"])).unwrap();
    let text = json["text"].as_str().unwrap();
    assert!(text.contains("next: next step 18 for billing"), "{text}");
    assert!(text.contains("now: step 18 on billing (billing)"), "{text}");
    assert!(json["tokens"].as_u64().unwrap() <= 100, "{json}");
    // The SessionStart brief carries both topics' threads and next steps.
    let out = hook(
        &env,
        serde_json::json!({"hook_event_name":"SessionStart","session_id":"s2","source":"clear"}),
    );
    let brief = out["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(brief.contains("next step 18 for billing"), "{brief}");
    assert!(brief.contains("next step 7 for auth"), "{brief}");
}

/// Found by issue 21: a record given on stdin with a time before the stream's newest was
/// appended at a later time without a word.
#[test]
fn a_stdin_record_older_than_the_stream_is_restamped_and_says_so() {
    let env = TestEnv::new();
    env.ok(&["pulse", "--proj", "A", "--summary", "first"]);
    let record = "---\nschema: ledgerpulse/v1\nts: 2025-01-01T00:00:00.000Z\ntype: pulse\nfocus:\n  - proj: \"A\"\n    topic: \"t\"\nnext:\n  - \"do x\"\n---\n";
    let out = env.run_stdin(&["pulse", "--stdin", "--json"], record);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ts 2025-01-01T00:00:00.000000Z is not after the stream's newest"),
        "{}",
        stderr(&out)
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        json["restamped_from"], "2025-01-01T00:00:00.000000Z",
        "{json}"
    );
    assert_ne!(json["ts"], json["restamped_from"]);
    // A record after the newest keeps its time, and nothing is said.
    let later = record.replace("2025-01-01T00:00:00.000Z", "2099-01-01T00:00:00.000Z");
    let out = env.run_stdin(&["pulse", "--stdin", "--json"], &later);
    assert_eq!(stderr(&out), "", "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["ts"], "2099-01-01T00:00:00.000000Z");
    assert!(json.get("restamped_from").is_none(), "{json}");
}
