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

/// `r` as another LedgerPulse writer would put it down: the spec's example layout (§3), with
/// millisecond timestamps, quoted enum values, a flow-style tag list, no `prev` and no seal, and
/// a blank line between records. trail reads these through its general YAML path.
pub fn plain(r: &Record) -> String {
    let ts = r.ts.to_string();
    // `…:SS.ffffffZ` → `…:SS.fffZ`, as the spec's example writes it.
    let ts = format!("{}Z", &ts[..ts.len() - 4]);
    let mut s = format!("---\nschema: ledgerpulse/v1\nts: {ts}\ntype: {}\n", r.kind);
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
            s.push_str(&format!("  confidence: {}\n", q(c.as_str())));
        }
        s.push_str(&format!("  blocked: {}\n", st.blocked));
    }
    for (key, items) in [("next", &r.next), ("defer", &r.defer), ("files", &r.files)] {
        if !items.is_empty() {
            s.push_str(&format!("{key}:\n"));
            for it in items {
                s.push_str(&format!("  - {}\n", q(it)));
            }
        }
    }
    if !r.tags.is_empty() {
        let tags: Vec<String> = r.tags.iter().map(|t| q(t)).collect();
        s.push_str(&format!("tags: [{}]\n", tags.join(", ")));
    }
    s.push_str("---\n");
    s.push_str(&r.body);
    s.push('\n');
    s
}

/// A YAML double-quoted scalar.
fn q(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
