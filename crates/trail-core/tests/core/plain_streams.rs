//! Streams in the plain spec format, as another LedgerPulse writer puts them down (LedgerPulse
//! §3's example: millisecond timestamps, quoted enum values, flow-style lists, no seals): the
//! line parser reads them exactly as the YAML parser does, and rehydration's glance never skips
//! one of their records that mattered.

#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "tests and benchmarks convert small counts, offsets and clock readings"
)]

use proptest::prelude::*;
use trail_core::ledger::format;
use trail_core::ledger::record::{
    Confidence, Focus, Intent, ModelShift, Record, RecordType, Status, facts_body,
};
use trail_core::ledger::rehydrate::RehydrateOptions;
use trail_core::ledger::{Ledger, LedgerOptions};
use trail_core::time::Ts;

/// How a plain writer lays a record out: which lists are in flow style (`[..]`), whether
/// `confidence` is quoted, and whether `ts` has milliseconds or microseconds.
#[derive(Clone, Debug)]
struct Layout {
    flow: [bool; 4],
    quoted_confidence: bool,
    millis: bool,
}

fn layout() -> impl Strategy<Value = Layout> {
    (any::<[bool; 4]>(), any::<bool>(), any::<bool>()).prop_map(
        |(flow, quoted_confidence, millis)| Layout {
            flow,
            quoted_confidence,
            millis,
        },
    )
}

fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// The front matter of `r` (between the fences) in the plain layout.
fn plain_front(r: &Record, l: &Layout) -> String {
    let ts = r.ts.to_string();
    let ts = if l.millis {
        format!("{}Z", &ts[..ts.len() - 4])
    } else {
        ts
    };
    let mut s = format!("schema: ledgerpulse/v1\nts: {ts}\ntype: {}\n", r.kind);
    if !r.focus.is_empty() {
        s.push_str("focus:\n");
        for f in &r.focus {
            s.push_str(&format!(
                "  - proj: {}\n    topic: {}\n",
                q(&f.proj),
                q(&f.topic)
            ));
        }
    }
    if let Some(i) = &r.intent {
        s.push_str(&format!(
            "intent:\n  primary: {}\n  summary: {}\n",
            q(&i.primary),
            q(&i.summary)
        ));
    }
    if let Some(st) = &r.status {
        s.push_str("status:\n");
        if let Some(c) = st.confidence {
            let c = if l.quoted_confidence {
                q(c.as_str())
            } else {
                c.as_str().to_string()
            };
            s.push_str(&format!("  confidence: {c}\n"));
        }
        s.push_str(&format!("  blocked: {}\n", st.blocked));
    }
    for (i, (key, items)) in [
        ("next", &r.next),
        ("defer", &r.defer),
        ("files", &r.files),
        ("tags", &r.tags),
    ]
    .into_iter()
    .enumerate()
    {
        if items.is_empty() {
            continue;
        }
        if l.flow[i] {
            let items: Vec<String> = items.iter().map(|x| q(x)).collect();
            s.push_str(&format!("{key}: [{}]\n", items.join(", ")));
        } else {
            s.push_str(&format!("{key}:\n"));
            for it in items {
                s.push_str(&format!("  - {}\n", q(it)));
            }
        }
    }
    if let Some(m) = &r.model_shift {
        s.push_str(&format!(
            "model_shift:\n  before: {}\n  after: {}\n",
            q(&m.before),
            q(&m.after)
        ));
    }
    s
}

/// A whole plain record: fences, body, and a blank line after it.
fn plain_record(r: &Record, l: &Layout) -> String {
    format!("---\n{}---\n{}\n", plain_front(r, l), r.body)
}

/// Text that YAML and JSON quote differently from plain words, or that looks like flow syntax.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,8}",
        "\\PC{0,16}",
        Just("a, b".to_string()),
        Just("[x]".to_string()),
        Just("\"quoted\", then \\ a backslash".to_string()),
        Just("key: value # not a comment".to_string()),
        Just("]".to_string()),
        Just("- dash".to_string()),
    ]
    .prop_filter("non-empty", |s| !s.trim().is_empty())
}

fn record() -> impl Strategy<Value = Record> {
    let list = || prop::collection::vec(text(), 0..3);
    (
        prop::sample::select(RecordType::ALL.to_vec()),
        0i64..4_102_444_800_000,
        prop::collection::vec((text(), text()), 0..3),
        prop::option::of((text(), text())),
        prop::option::of((
            prop::option::of(prop::sample::select(vec![
                Confidence::Low,
                Confidence::Medium,
                Confidence::High,
            ])),
            any::<bool>(),
        )),
        (list(), list(), list(), list()),
        prop::option::of((text(), text())),
    )
        .prop_map(
            |(kind, ms, focus, intent, status, (next, defer, files, tags), shift)| {
                let mut r = Record::new(kind, Ts::from_micros(ms * 1000));
                r.focus = focus
                    .into_iter()
                    .map(|(proj, topic)| Focus { proj, topic })
                    .collect();
                r.intent = intent.map(|(primary, summary)| Intent { primary, summary });
                r.status = status.map(|(confidence, blocked)| Status {
                    confidence,
                    blocked,
                });
                (r.next, r.defer, r.files, r.tags) = (next, defer, files, tags);
                r.model_shift = shift.map(|(before, after)| ModelShift { before, after });
                r
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_line_parser_reads_the_plain_layout_as_yaml_does(r in record(), l in layout()) {
        let front = plain_front(&r, &l);
        let yaml = format::parse_front_yaml(&front).unwrap();
        prop_assert_eq!(&yaml, &r);
        prop_assert_eq!(format::parse_front(&front).unwrap(), yaml);
    }

    #[test]
    fn a_glance_at_the_plain_layout_sees_what_the_parser_sees(r in record(), l in layout()) {
        let front = plain_front(&r, &l);
        let g = format::glance(front.as_bytes()).expect("the plain layout is glanced at");
        prop_assert_eq!(g.kind, Some(r.kind));
        let focus: Vec<(String, String)> =
            g.focus.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect();
        let want: Vec<(String, String)> =
            r.focus.iter().map(|f| (f.proj.clone(), f.topic.clone())).collect();
        prop_assert_eq!(focus, want);
        prop_assert_eq!(g.intent, r.intent.is_some());
        prop_assert_eq!(g.status, r.status.is_some());
        prop_assert_eq!(g.next, !r.next.is_empty());
        prop_assert_eq!(g.defer, r.defer.clone());
        prop_assert_eq!(g.files, r.files.clone());
        prop_assert_eq!(g.model_shift, r.model_shift.is_some());
    }
}

#[test]
fn a_glance_gives_up_on_lines_it_does_not_know() {
    let head = "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\n";
    for rest in [
        // YAML shapes the line parser leaves to the YAML parser: each could hide a field.
        "intent: \"continue\"\n",
        "focus: [{proj: \"A\", topic: \"B\"}]\n",
        "files: [\"a\",]\n",
        "files: [a]\n",
        "next:\n- \"unindented\"\n",
        "unknown: 1\n",
        "  - \"an item outside any list\"\n",
    ] {
        assert_eq!(
            format::glance(format!("{head}{rest}").as_bytes()),
            None,
            "{rest}"
        );
    }
}

/// Records of a few threads with every field present or absent at random, stamped in order.
fn session() -> impl Strategy<Value = Vec<(Record, Layout)>> {
    let one = (
        prop::sample::select(vec![
            RecordType::Pulse,
            RecordType::Pulse,
            RecordType::Checkpoint,
            RecordType::Tangent,
            RecordType::Handoff,
        ]),
        prop::collection::vec((0usize..2, 0usize..2), 0..3),
        prop::option::of(0usize..3),
        prop::option::of(any::<bool>()),
        prop::collection::vec(0usize..20, 0..3),
        prop::collection::vec(0usize..20, 0..2),
        prop::collection::vec(0usize..30, 0..3),
        prop::collection::vec(0usize..30, 0..3),
        layout(),
    );
    prop::collection::vec(one, 1..120).prop_map(|rs| {
        rs.into_iter()
            .enumerate()
            .map(
                |(i, (kind, focus, intent, blocked, next, defer, facts, files, l))| {
                    let mut r = Record::new(
                        kind,
                        Ts::from_micros(1_700_000_000_000_000 + i as i64 * 1000),
                    );
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
                        confidence: Some(Confidence::High),
                        blocked: b,
                    });
                    r.next = next.into_iter().map(|n| format!("n{n}")).collect();
                    r.defer = defer.into_iter().map(|n| format!("d{n}")).collect();
                    r.files = files.into_iter().map(|n| format!("f{n}")).collect();
                    r.tags = vec!["bench".into()];
                    r.body = facts_body(
                        &facts
                            .into_iter()
                            .map(|n| format!("fact {n}"))
                            .collect::<Vec<_>>(),
                    );
                    (r, l)
                },
            )
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn resuming_a_plain_stream_skips_nothing_that_matters(
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
        let stream: String = rs.iter().map(|(r, l)| plain_record(r, l)).collect();
        std::fs::write(ledger.stream_path(), stream).unwrap();
        let proj = proj.map(|p| format!("p{p}"));
        let fast = ledger
            .rehydrate(&RehydrateOptions { proj: proj.clone(), tangents, exhaustive: false, project_id: None, own_only: false })
            .unwrap();
        let full = ledger
            .rehydrate(&RehydrateOptions { proj, tangents, exhaustive: true, project_id: None, own_only: false })
            .unwrap();
        prop_assert_eq!(fast, full);
    }
}
