//! A stream cut at every byte offset inside its last record.

use crate::common::*;

#[test]
fn truncation_at_every_offset_of_the_last_record_is_reported_skipped_and_repaired() {
    let base = TestEnv::new();
    base.ok(&[
        "pulse",
        "--proj",
        "p",
        "--intent",
        "continue",
        "--summary",
        "first record",
        "--next",
        "EARLIER-NEXT",
    ]);
    base.ok(&["pulse", "--proj", "p", "--fact", "EARLIER-FACT"]);
    let before_last = stream_bytes(&base);
    base.ok(&[
        "pulse",
        "--proj",
        "p",
        "--intent",
        "continue",
        "--summary",
        "LAST-RECORD",
        "--next",
        "LAST-NEXT",
    ]);
    let full = stream_bytes(&base);
    let start = before_last.len();
    assert!(full.len() - start > 200);

    for cut in start + 1..full.len() {
        let env = TestEnv::new();
        std::fs::create_dir_all(env.stream().parent().unwrap()).unwrap();
        std::fs::write(env.stream(), &full[..cut]).unwrap();

        let out = env.run(&["verify", "--json"]);
        assert_eq!(code(&out), 1, "cut at {cut}: verify passed a torn stream");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // A stream copied into a fresh home has no anchor there: reported as such, besides.
        let findings: Vec<_> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["problem"] != "unanchored")
            .collect();
        assert_eq!(findings.len(), 1, "cut at {cut}: {findings:?}");
        assert_eq!(findings[0]["problem"], "torn", "cut at {cut}: {findings:?}");
        let off = findings[0]["offset"].as_u64().unwrap() as usize;
        assert_eq!(
            off, start,
            "cut at {cut}: offset {off}, record starts at {start}"
        );

        let r = env.ok(&["resume", "--level", "3"]);
        assert!(
            !r.contains("LAST-RECORD") && !r.contains("LAST-NEXT"),
            "cut at {cut}: resume used a torn record:\n{r}"
        );
        assert!(
            r.contains("EARLIER-NEXT") && r.contains("EARLIER-FACT"),
            "cut at {cut}:\n{r}"
        );

        env.ok(&["pulse", "--proj", "p", "--summary", "after the crash"]);
        let repaired = std::fs::read(env.stream()).unwrap();
        assert_eq!(
            &repaired[..start],
            &before_last[..],
            "cut at {cut}: earlier records changed"
        );
        let torn: Vec<_> = files_under(&env.archive())
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("torn-")
            })
            .collect();
        assert_eq!(torn.len(), 1, "cut at {cut}");
        assert_eq!(
            std::fs::read(&torn[0]).unwrap(),
            &full[start..cut],
            "cut at {cut}: torn bytes not kept"
        );
        let v = env.ok(&["verify"]);
        assert!(v.contains("3 records"), "cut at {cut}: {v}");
    }
}

#[test]
fn garbage_in_the_middle_is_reported_by_verify_and_skipped_by_resume() {
    let env = TestEnv::new();
    env.ok(&[
        "pulse",
        "--proj",
        "p",
        "--intent",
        "continue",
        "--summary",
        "one",
        "--next",
        "FIRST-NEXT",
    ]);
    let mid = stream_bytes(&env).len();
    env.ok(&[
        "pulse",
        "--proj",
        "q",
        "--intent",
        "continue",
        "--summary",
        "two",
        "--next",
        "SECOND-NEXT",
    ]);
    let mut bytes = std::fs::read(env.stream()).unwrap();
    bytes.splice(
        mid..mid,
        b"\x00\x01garbage from a bad disk\n#### more\n"
            .iter()
            .copied(),
    );
    std::fs::write(env.stream(), &bytes).unwrap();
    let out = env.run(&["verify"]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains(&format!("@{mid}: corrupt")),
        "{}",
        stdout(&out)
    );

    // Garbage inside a record breaks its seal: tampered, named with its offset.
    let env2 = TestEnv::new();
    env2.ok(&[
        "pulse",
        "--proj",
        "p",
        "--intent",
        "continue",
        "--summary",
        "one",
        "--next",
        "FIRST-NEXT",
    ]);
    env2.ok(&[
        "pulse",
        "--proj",
        "q",
        "--intent",
        "continue",
        "--summary",
        "two",
        "--next",
        "SECOND-NEXT",
    ]);
    env2.ok(&[
        "pulse",
        "--proj",
        "q",
        "--intent",
        "continue",
        "--summary",
        "three",
        "--next",
        "THIRD-NEXT",
    ]);
    let mut bytes = std::fs::read(env2.stream()).unwrap();
    let at = String::from_utf8_lossy(&bytes).find("SECOND-NEXT").unwrap();
    bytes[at] = b'Z';
    std::fs::write(env2.stream(), &bytes).unwrap();
    let out = env2.run(&["verify", "--json"]);
    assert_eq!(code(&out), 1);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["findings"][0]["problem"], "tampered");
    let r = env2.ok(&["resume", "--level", "3", "--proj", "q"]);
    assert!(
        !r.contains("ZECOND-NEXT") && r.contains("THIRD-NEXT"),
        "{r}"
    );
    let r = env2.ok(&["resume", "--level", "3", "--proj", "p"]);
    assert!(r.contains("FIRST-NEXT"), "{r}");
}

#[test]
fn removing_a_record_breaks_the_chain() {
    let env = TestEnv::new();
    let mut offsets = vec![0usize];
    for i in 0..3 {
        env.ok(&["pulse", "--proj", "p", "--summary", &format!("r{i}")]);
        offsets.push(stream_bytes(&env).len());
    }
    let mut bytes = std::fs::read(env.stream()).unwrap();
    bytes.drain(offsets[1]..offsets[2]);
    std::fs::write(env.stream(), &bytes).unwrap();
    let out = env.run(&["verify", "--json"]);
    assert_eq!(code(&out), 1);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["findings"][0]["problem"], "chain-broken");
    assert_eq!(
        v["findings"][0]["offset"].as_u64().unwrap() as usize,
        offsets[1]
    );
}
