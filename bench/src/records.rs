//! Realistic records for benchmarks.

use trail_core::ledger::record::{
    Confidence, Focus, Intent, Record, RecordType, Status, facts_body,
};
use trail_core::time::Ts;

const PROJECTS: &[(&str, &str)] = &[
    ("shop", "checkout"),
    ("infra", "ci"),
    ("docs", "api reference"),
    ("trail", "gate"),
    ("ml", "eval harness"),
];

/// Record `i`: about 1 KB serialised, focus rotating over five projects, intents and next steps
/// that keep changing (so rehydration cannot stop early: the worst case).
pub fn record(i: u64, ts: Ts) -> Record {
    let (p, t) = PROJECTS[(i % PROJECTS.len() as u64) as usize];
    let mut r = Record::new(
        if i.is_multiple_of(17) {
            RecordType::Checkpoint
        } else {
            RecordType::Pulse
        },
        ts,
    );
    r.focus = vec![Focus {
        proj: p.into(),
        topic: t.into(),
    }];
    r.intent = Some(Intent {
        primary: if i.is_multiple_of(9) {
            "switch".into()
        } else {
            "continue".into()
        },
        summary: format!(
            "Step {i}: work through the {t} backlog item by item, keeping notes of what changed and why"
        ),
    });
    r.status = Some(Status {
        confidence: Some(Confidence::Medium),
        blocked: i.is_multiple_of(23),
    });
    r.next = vec![
        format!("Run the {t} test suite again after change {i} and compare with the baseline"),
        format!(
            "Write down the decision about item {} in the decision log",
            i / 3
        ),
    ];
    r.files = vec![
        format!("src/{p}/module_{}.rs", i % 40),
        format!("tests/{p}_{}.rs", i % 13),
    ];
    r.tags = vec!["bench".into()];
    r.body = facts_body(&[
        format!(
            "Observation {i}: the {t} change reduced the failure count from {} to {}",
            i % 50,
            i % 7
        ),
        format!(
            "Command `cargo test -p {p}` finished in {} ms with exit status 0",
            1000 + i % 900
        ),
        "The team agreed to keep the public interface unchanged until the next minor release"
            .into(),
    ]);
    r
}

/// Record `i` of a typical session: work comes in bursts of eight pulses on one thread whose
/// intent and next steps hold still while facts accumulate, so rehydration can stop early.
pub fn bursty(i: u64, ts: Ts) -> Record {
    let burst = i / 8;
    // Everything but the facts comes from the burst: one thread, one intent, one plan.
    let mut r = record(burst, ts);
    let t = &r.focus[0].topic;
    r.body = facts_body(&[format!(
        "Burst {burst}, pulse {i}: one more observation about {t}"
    )]);
    r
}
