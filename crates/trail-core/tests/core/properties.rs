//! Property tests of the stream formats: any valid record round-trips, both front-matter parsers
//! agree, and every stream reader finds the same records in any byte soup.

#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "tests and benchmarks convert small counts, offsets and clock readings"
)]

use proptest::prelude::*;
use trail_core::ledger::frame::{self, Seal};
use trail_core::ledger::record::{
    Confidence, Focus, Intent, ModelShift, Record, RecordType, Status,
};
use trail_core::ledger::{check, format};
use trail_core::time::Ts;

fn line() -> impl Strategy<Value = String> {
    // Printable text of any script, with YAML's favourite troublemakers mixed in.
    prop_oneof![
        "\\PC{0,24}",
        Just("key: value # not a comment".to_string()),
        Just("- dash".to_string()),
        Just("\"quoted\" and 'single'".to_string()),
        Just("yes".to_string()),
        Just("null".to_string()),
        Just("---".to_string()),
        Just("  leading and trailing  ".to_string()),
        Just("tab\there \\ backslash".to_string()),
    ]
}

fn nonempty_line() -> impl Strategy<Value = String> {
    line().prop_filter("non-empty", |s| !s.trim().is_empty())
}

fn body() -> impl Strategy<Value = String> {
    let l = prop_oneof![
        "\\PC{0,30}",
        Just("---".to_string()),
        Just("schema: ledgerpulse/v1".to_string()),
        Just(
            "<!-- seal sha256=0000000000000000000000000000000000000000000000000000000000000000 -->"
                .to_string()
        ),
        Just("\\---".to_string()),
        Just("\\\\schema: ledgerpulse/v1".to_string()),
        Just("facts:".to_string()),
        Just("- \"a fact\"".to_string()),
    ];
    prop::collection::vec(l, 0..6).prop_map(|lines| {
        if lines.is_empty() {
            String::new()
        } else {
            lines.join("\n") + "\n"
        }
    })
}

fn record() -> impl Strategy<Value = Record> {
    let kind = prop::sample::select(RecordType::ALL.to_vec());
    let focus = prop::collection::vec((nonempty_line(), line()), 0..3);
    let intent = prop::option::of((nonempty_line(), line()));
    let status = prop::option::of((
        prop::option::of(prop::sample::select(vec![
            Confidence::Low,
            Confidence::Medium,
            Confidence::High,
        ])),
        any::<bool>(),
    ));
    let list = || prop::collection::vec(nonempty_line(), 0..3);
    let shift = prop::option::of((nonempty_line(), nonempty_line()));
    let prev = prop::option::of(prop::array::uniform32(any::<u8>()));
    (
        kind,
        0i64..4_102_444_800_000_000,
        focus,
        intent,
        status,
        (list(), list(), list(), list()),
        shift,
        prop::option::of(nonempty_line()),
        prev,
        body(),
    )
        .prop_map(
            |(
                kind,
                us,
                focus,
                intent,
                status,
                (next, defer, files, tags),
                shift,
                archive,
                prev,
                body,
            )| {
                let mut r = Record::new(kind, Ts::from_micros(us));
                r.focus = focus
                    .into_iter()
                    .map(|(proj, topic)| Focus { proj, topic })
                    .collect();
                r.intent = intent.map(|(primary, summary)| Intent { primary, summary });
                r.status = status.map(|(confidence, blocked)| Status {
                    confidence,
                    blocked,
                });
                r.next = next;
                r.defer = defer;
                r.files = files;
                r.tags = tags;
                r.model_shift = shift.map(|(before, after)| ModelShift { before, after });
                r.archive = archive;
                r.prev = prev.map(|d| frame::hex(&d));
                r.body = body;
                r
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_valid_record_round_trips_through_its_sealed_form(r in record()) {
        let (bytes, digest) = frame::encode(&r);
        let (pre, frames) = frame::split_all(0, &bytes);
        prop_assert!(pre.is_empty());
        prop_assert_eq!(frames.len(), 1);
        prop_assert_eq!(frames[0].seal, Seal::Valid);
        prop_assert_eq!(frames[0].digest, digest);
        prop_assert_eq!(frames[0].parse().unwrap(), r);
    }

    #[test]
    fn the_fast_parser_and_the_yaml_parser_agree_on_canonical_front_matter(r in record()) {
        let mut front = String::new();
        format::write_front(&r, &mut front);
        let fast = format::parse_front(&front).unwrap();
        let yaml = format::parse_front_yaml(&front).unwrap();
        prop_assert_eq!(fast, yaml);
    }

    #[test]
    fn records_in_a_row_split_apart_and_chain(rs in prop::collection::vec(record(), 1..6)) {
        let mut stream = Vec::new();
        let mut digests = Vec::new();
        for r in &rs {
            let (b, d) = frame::encode(r);
            stream.extend_from_slice(&b);
            digests.push(d);
        }
        let (_, frames) = frame::split_all(0, &stream);
        prop_assert_eq!(frames.len(), rs.len());
        for (i, f) in frames.iter().enumerate() {
            prop_assert_eq!(f.seal, Seal::Valid);
            prop_assert_eq!(f.digest, digests[i]);
            prop_assert_eq!(&f.parse().unwrap(), &rs[i]);
        }
    }

    #[test]
    fn every_reader_finds_the_same_records_in_any_bytes(
        rs in prop::collection::vec(record(), 0..5),
        reserve in any::<bool>(),
        noise in prop::collection::vec(any::<u8>(), 0..64),
        at in any::<prop::sample::Index>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut stream = Vec::new();
        for r in &rs {
            stream.extend_from_slice(&frame::encode(r).0);
        }
        if reserve {
            // The blank reserve a writer keeps after the last record.
            stream.extend_from_slice(format!("{}\n", " ".repeat(63)).as_bytes());
        }
        let pos = at.index(stream.len() + 1);
        stream.splice(pos..pos, noise);
        let end = cut.index(stream.len() + 1);
        if let Err(e) = check::readers_agree(&stream[..end]) {
            prop_assert!(false, "{}", e);
        }
    }
}

#[test]
fn parsers_never_panic_on_hostile_front_matter() {
    for text in [
        "",
        ":",
        "schema: ledgerpulse/v1\nts: [\n",
        "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\nfocus: &a [*a]\n",
        "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\nfocus:\n  - {proj: [1,2]}\n",
        "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\nnext: !!binary aGVsbG8=\n",
        "schema: ledgerpulse/v1\nts: 99999-12-22T21:18:12.483Z\ntype: pulse\n",
        "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\nprev: zz\n",
    ] {
        let _ = format::parse_front(text);
    }
}

mod rehydration {
    use super::*;
    use trail_core::ledger::record::facts_body;
    use trail_core::ledger::rehydrate::RehydrateOptions;
    use trail_core::ledger::{Ledger, LedgerOptions};

    /// Records of a few threads, with every field present or absent at random.
    fn session() -> impl Strategy<Value = Vec<Record>> {
        let one = (
            prop::sample::select(vec![
                RecordType::Pulse,
                RecordType::Pulse,
                RecordType::Checkpoint,
                RecordType::Tangent,
                RecordType::Handoff,
                RecordType::Alert,
            ]),
            prop::collection::vec((0usize..2, 0usize..2), 0..3),
            prop::option::of(0usize..3),
            prop::option::of(any::<bool>()),
            prop::collection::vec(0usize..20, 0..3),
            prop::collection::vec(0usize..20, 0..2),
            prop::collection::vec(0usize..30, 0..3),
            prop::collection::vec(0usize..30, 0..3),
            any::<bool>(),
        );
        prop::collection::vec(one, 1..150).prop_map(|rs| {
            rs.into_iter()
                .enumerate()
                .map(
                    |(i, (kind, focus, intent, blocked, next, defer, facts, files, shift))| {
                        let mut r =
                            Record::new(kind, Ts::from_micros(1_700_000_000_000_000 + i as i64));
                        r.focus = focus
                            .into_iter()
                            .map(|(p, t)| Focus {
                                proj: format!("p{p}"),
                                topic: format!("t{t}"),
                            })
                            .collect();
                        r.intent = intent.map(|n| Intent {
                            primary: "continue".into(),
                            summary: format!("s{n}"),
                        });
                        r.status = blocked.map(|b| Status {
                            confidence: None,
                            blocked: b,
                        });
                        r.next = next.into_iter().map(|n| format!("n{n}")).collect();
                        r.defer = defer.into_iter().map(|n| format!("d{n}")).collect();
                        r.files = files.into_iter().map(|n| format!("f{n}")).collect();
                        r.body = facts_body(
                            &facts
                                .into_iter()
                                .map(|n| format!("fact {n}"))
                                .collect::<Vec<_>>(),
                        );
                        if shift {
                            r.model_shift = Some(ModelShift {
                                before: format!("b{i}"),
                                after: format!("a{i}"),
                            });
                        }
                        r
                    },
                )
                .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn skipping_records_that_cannot_matter_changes_nothing(
            rs in session(),
            tangents in any::<bool>(),
            proj in prop::option::of(0usize..3),
            max in 1usize..200,
        ) {
            let dir = tempfile::tempdir().unwrap();
            let mut opts = LedgerOptions::new(dir.path().join("secrets"));
            opts.max_records = max;
            let ledger = Ledger::open(dir.path().join("ledger"), opts);
            std::fs::create_dir_all(ledger.stream_dir()).unwrap();
            let mut bytes = Vec::new();
            let mut prev = [0u8; 32];
            for r in &rs {
                let mut r = r.clone();
                r.prev = Some(frame::hex(&prev));
                let (b, d) = frame::encode(&r);
                bytes.extend_from_slice(&b);
                prev = d;
            }
            std::fs::write(ledger.stream_path(), &bytes).unwrap();
            let proj = proj.map(|p| format!("p{p}"));
            let fast = ledger.rehydrate(&RehydrateOptions { proj: proj.clone(), tangents, exhaustive: false, ..RehydrateOptions::default() }).unwrap();
            let full = ledger.rehydrate(&RehydrateOptions { proj, tangents, exhaustive: true, ..RehydrateOptions::default() }).unwrap();
            prop_assert_eq!(fast, full);
        }
    }
}
