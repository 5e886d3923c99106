//! Writers that keep a `Ledger` open between appends (the benchmark's workers, a server) trust
//! their cached tail only while the stream still ends there.

use trail_core::ledger::record::{Intent, Record, RecordType};
use trail_core::ledger::{Ledger, LedgerOptions};
use trail_core::time::Ts;

fn record(summary: &str) -> Record {
    let mut r = Record::new(RecordType::Pulse, Ts::now());
    r.intent = Some(Intent {
        primary: "continue".into(),
        summary: summary.into(),
    });
    r
}

/// Found by the group commit's trace: two long-lived writers taking turns wrote at the same
/// offset, because a record written into the blank reserve after a writer's cached tail left the
/// file's size and the bytes before that tail unchanged. Every acknowledged record was then
/// overwritten by the next turn of the other writer.
#[test]
fn long_lived_writers_taking_turns_never_overwrite_each_others_records() {
    let dir = tempfile::tempdir().unwrap();
    let open = || {
        Ledger::open(
            dir.path().join("ledger"),
            LedgerOptions::new(dir.path().join("secrets")),
        )
    };
    let (a, b) = (open(), open());
    let mut offsets = Vec::new();
    for i in 0..6 {
        let w = if i % 2 == 0 { &a } else { &b };
        offsets.push(w.append(record(&format!("turn {i}"))).unwrap().offset);
    }
    assert!(
        offsets.windows(2).all(|o| o[0] < o[1]),
        "records written at {offsets:?}"
    );
    let report = a.verify(&mut |_, _| {}).unwrap();
    assert_eq!(report.records, 6, "{report:?}");
    assert!(report.findings.is_empty(), "{report:?}");
}
