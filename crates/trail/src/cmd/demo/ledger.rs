//! `trail demo`'s ledger chapter: a working day across two projects recorded as pulses (a focus
//! switch, a tangent, a model shift, a blocked step, a pasted secret redacted), what is on disk,
//! resume at two levels, verify, a crash mid-write repaired, and an edit of history caught.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use trail_core::ledger::record::{
    Confidence, Focus, Intent, ModelShift, Record, RecordType, Status, facts_body,
};
use trail_core::ledger::rehydrate::{self, Level, RehydrateOptions};
use trail_core::ledger::{Ledger, LedgerOptions};
use trail_core::secrets::Secrets;
use trail_core::time::Ts;

use super::{Say, indent};
use crate::error::{CliError, CliResult};

struct Step<'a> {
    kind: RecordType,
    focus: &'a [(&'a str, &'a str)],
    intent: Option<(&'a str, &'a str)>,
    next: &'a [&'a str],
    defer: &'a [&'a str],
    facts: &'a [&'a str],
    files: &'a [&'a str],
    status: Option<(Confidence, bool)>,
    shift: Option<(&'a str, &'a str)>,
}

const STEPS: &[(&str, Step<'static>)] = &[
    (
        "Start on the shop's checkout bug",
        Step {
            kind: RecordType::Pulse,
            focus: &[("shop", "checkout")],
            intent: Some(("continue", "Fix the rounding bug in checkout totals")),
            next: &["Reproduce with a cart of three items"],
            defer: &[],
            facts: &["Totals are off by one cent for some carts"],
            files: &["src/checkout/total.rs"],
            status: Some((Confidence::Medium, false)),
            shift: None,
        },
    ),
    (
        "A decision: round once per order",
        Step {
            kind: RecordType::Pulse,
            focus: &[("shop", "checkout")],
            intent: Some(("continue", "Fix the rounding bug in checkout totals")),
            next: &[
                "Move rounding to the order total",
                "Add a regression test for 3-item carts",
            ],
            defer: &[],
            facts: &["Rounding happens per line instead of per order"],
            files: &["src/checkout/total.rs", "tests/checkout.rs"],
            status: Some((Confidence::High, false)),
            shift: None,
        },
    ),
    (
        "Focus switch: CI on main went red (two projects at once)",
        Step {
            kind: RecordType::Pulse,
            focus: &[("infra", "ci"), ("shop", "checkout")],
            intent: Some((
                "switch",
                "CI is red on main; fix it before finishing checkout",
            )),
            next: &["Find the failing job"],
            defer: &[],
            facts: &[],
            files: &[".github/workflows/ci.yml"],
            status: Some((Confidence::Medium, false)),
            shift: None,
        },
    ),
    (
        "A tangent: a flaky test noticed on the way (deferred, intent unchanged)",
        Step {
            kind: RecordType::Tangent,
            focus: &[("infra", "flaky-tests")],
            intent: None,
            next: &[],
            defer: &["Quarantine test_network_retry"],
            facts: &["test_network_retry failed 2 of the last 20 runs"],
            files: &[],
            status: None,
            shift: None,
        },
    ),
    (
        "A mental model shift",
        Step {
            kind: RecordType::Pulse,
            focus: &[("infra", "ci")],
            intent: Some((
                "continue",
                "CI is red on main; fix it before finishing checkout",
            )),
            next: &["Pin the runner image to the previous OpenSSL"],
            defer: &[],
            facts: &["The runner image moved to OpenSSL 3.5 on Monday"],
            files: &[],
            status: Some((Confidence::Medium, false)),
            shift: Some((
                "CI fails because of our checkout change",
                "CI fails because the runner image upgraded OpenSSL",
            )),
        },
    ),
    (
        "Blocked, and a secret pasted into a fact (it is redacted before it touches disk)",
        Step {
            kind: RecordType::Pulse,
            focus: &[("infra", "ci")],
            intent: Some((
                "continue",
                "CI is red on main; fix it before finishing checkout",
            )),
            next: &["Ask ops to pin the runner image"],
            defer: &[],
            facts: &[
                "Pinning needs an admin: tried with GITHUB_TOKEN=ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ, got 403",
            ],
            files: &[],
            status: Some((Confidence::Low, true)),
            shift: None,
        },
    ),
    (
        "Back to checkout while waiting on ops",
        Step {
            kind: RecordType::Pulse,
            focus: &[("shop", "checkout")],
            intent: Some(("continue", "Fix the rounding bug in checkout totals")),
            next: &[
                "Move rounding to the order total",
                "Add a regression test for 3-item carts",
            ],
            defer: &[],
            facts: &[],
            files: &[],
            status: Some((Confidence::High, false)),
            shift: None,
        },
    ),
];

fn record(step: &Step<'_>) -> Record {
    let mut r = Record::new(step.kind, Ts::now());
    r.focus = step
        .focus
        .iter()
        .map(|(p, t)| Focus {
            proj: (*p).into(),
            topic: (*t).into(),
        })
        .collect();
    r.intent = step.intent.map(|(p, s)| Intent {
        primary: p.into(),
        summary: s.into(),
    });
    r.status = step.status.map(|(c, b)| Status {
        confidence: Some(c),
        blocked: b,
    });
    r.next = step.next.iter().map(|s| (*s).into()).collect();
    r.defer = step.defer.iter().map(|s| (*s).into()).collect();
    r.files = step.files.iter().map(|s| (*s).into()).collect();
    r.model_shift = step.shift.map(|(b, a)| ModelShift {
        before: b.into(),
        after: a.into(),
    });
    r.body = facts_body(
        &step
            .facts
            .iter()
            .map(|s| (*s).to_string())
            .collect::<Vec<_>>(),
    );
    r
}

/// The command a person would type for this step.
fn as_command(step: &Step<'_>) -> String {
    let q = |s: &str| {
        if s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
        {
            s.to_string()
        } else {
            format!("'{}'", s.replace('\'', "'\\''"))
        }
    };
    let mut c = String::from("trail pulse");
    if step.kind != RecordType::Pulse {
        let _ = write!(c, " --type {}", step.kind);
    }
    for (p, t) in step.focus {
        let _ = write!(c, " --proj {} --topic {}", q(p), q(t));
    }
    if let Some((p, s)) = step.intent {
        let _ = write!(c, " --intent {} --summary {}", q(p), q(s));
    }
    for n in step.next {
        let _ = write!(c, " --next {}", q(n));
    }
    for d in step.defer {
        let _ = write!(c, " --defer {}", q(d));
    }
    for f in step.facts {
        let _ = write!(c, " --fact {}", q(f));
    }
    for f in step.files {
        let _ = write!(c, " --file {}", q(f));
    }
    if let Some((conf, blocked)) = step.status {
        let _ = write!(c, " --confidence {}", conf.as_str());
        if blocked {
            c.push_str(" --blocked");
        }
    }
    if let Some((b, a)) = step.shift {
        let _ = write!(c, " --shift-before {} --shift-after {}", q(b), q(a));
    }
    c
}

/// Runs the chapter on a ledger in `dir/ledger` (secrets under `home`); its steps are 1–13.
pub fn ledger_chapter(
    dir: &Path,
    home: &Path,
    secrets: &std::sync::Arc<Secrets>,
    say: Say<'_>,
) -> CliResult {
    let ledger = Ledger::open(
        dir.join("ledger"),
        LedgerOptions::new(home.join(".secrets")),
    )
    .with_secrets(secrets.clone());
    say(&format!(
        "trail demo — a working day on a throwaway ledger in {}\n\
         (TRAIL_HOME={}, secrets under {})\n\n",
        dir.display(),
        ledger.root().display(),
        home.join(".secrets").display()
    ))?;
    record_the_day(&ledger, secrets, say)?;
    show_the_disk(&ledger, secrets, say)?;
    resume(&ledger, say)?;
    crash_and_repair(&ledger, say)?;
    tamper(&ledger, dir, home, say)
}

/// Steps 1–7: the day's pulses, each shown as the command that writes it.
fn record_the_day(ledger: &Ledger, secrets: &Secrets, say: Say<'_>) -> CliResult {
    for (i, (title, step)) in STEPS.iter().enumerate() {
        let done = ledger.append(record(step))?;
        // Even the echo of the command must not put the secret on screen.
        let command = as_command(step);
        let shown = secrets.redact(&command)?;
        say(&format!("{}. {title}\n  $ {shown}\n  → {}", i + 1, done.ts))?;
        if !done.redacted.is_empty() {
            say(&format!("   (redacted: {})", done.redacted.join(", ")))?;
        }
        say("\n\n")?;
    }
    Ok(())
}

/// Step 8: one sealed, hash-chained record as it is on disk, and the redacted secret.
fn show_the_disk(ledger: &Ledger, secrets: &Secrets, say: Say<'_>) -> CliResult {
    let stream = std::fs::read_to_string(ledger.stream_path())?;
    let last = stream
        .rfind("\n---\nschema:")
        .map_or(stream.as_str(), |i| &stream[i + 1..]);
    let blocked_rec = stream
        .split("\n---\nschema:")
        .find(|r| r.contains("${secret:"))
        .unwrap_or("");
    say(
        "8. What is on disk: one sealed, hash-chained Markdown record per pulse. The last one:\n\n",
    )?;
    say(&indent(last.trim_end()))?;
    if let Some(line) = blocked_rec.lines().find(|l| l.contains("${secret:")) {
        say(&format!(
            "\n  The secret never reached the stream; the record holds a reference instead:\n    {}\n  and the original is kept 0600 in {}\n\n",
            line.trim(),
            secrets.store_path().display()
        ))?;
    }
    Ok(())
}

/// Steps 9–11: resume at two levels, then verify.
fn resume(ledger: &Ledger, say: Say<'_>) -> CliResult {
    let state = ledger.rehydrate(&RehydrateOptions::default())?;
    say(&format!(
        "9. After /clear, a crash or on a new machine: `trail resume --level 1` (≤ 100 tokens; read {} records, {})\n\n",
        state.records_read,
        state.stopped.describe()
    ))?;
    let brief = rehydrate::render(&state, Level::Brief);
    say(&indent(&brief))?;
    say(&format!(
        "  ≈ {} tokens\n\n",
        rehydrate::estimate_tokens(&brief)
    ))?;
    let with_tangents = ledger.rehydrate(&RehydrateOptions {
        tangents: true,
        ..RehydrateOptions::default()
    })?;
    let standard = rehydrate::render(&with_tangents, Level::Standard);
    say(
        "10. `trail resume --level 2 --tangents` (≤ 500 tokens; tangents listed as parked threads)\n\n",
    )?;
    say(&indent(&standard))?;
    say(&format!(
        "  ≈ {} tokens\n\n",
        rehydrate::estimate_tokens(&standard)
    ))?;

    let report = ledger.verify(&mut |_, _| {})?;
    say(&format!(
        "11. `trail verify`: {} records, {} sealed, chain {}\n\n",
        report.records,
        report.sealed,
        if report.ok() { "intact" } else { "BROKEN" }
    ))?;
    Ok(())
}

/// Step 12: a writer killed mid-append; verify names the torn tail, the next append repairs it.
fn crash_and_repair(ledger: &Ledger, say: Say<'_>) -> CliResult {
    let path = ledger.stream_path();
    let mut torn = record(&STEPS[0].1);
    torn.ts = Ts::now();
    let (bytes, _) = trail_core::ledger::frame::encode(&torn);
    {
        let mut f = std::fs::OpenOptions::new().append(true).open(&path)?;
        f.write_all(&bytes[..bytes.len() / 2])?;
    }
    let report = ledger.verify(&mut |_, _| {})?;
    say("12. A writer killed mid-append leaves half a record. `trail verify` names it:\n")?;
    for f in &report.findings {
        say(&format!(
            "    {} @{}: {:?}: {}\n",
            f.file, f.offset, f.problem, f.detail
        ))?;
    }
    let done = ledger.append(record(&STEPS[6].1))?;
    let report = ledger.verify(&mut |_, _| {})?;
    say(&format!(
        "  The next append repairs the tail and keeps the torn bytes in {}\n  `trail verify` again: {}\n\n",
        done.recovery
            .torn_saved
            .first()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        if report.ok() {
            "ok, chain intact"
        } else {
            "FAILED"
        }
    ))?;
    if !report.ok() {
        return Err(CliError::CheckFailed);
    }
    Ok(())
}

/// Step 13: an edit of history, made in a copy so the demo ledger stays intact, is caught.
fn tamper(ledger: &Ledger, dir: &Path, home: &Path, say: Say<'_>) -> CliResult {
    let path = ledger.stream_path();
    let copy = dir.join("tampered");
    std::fs::create_dir_all(copy.join("stream"))?;
    let mut text = std::fs::read(&path)?;
    if let Some(i) = find(&text, b"off by one cent") {
        text[i + 7] = b'w';
    }
    std::fs::write(copy.join("stream").join("pulses.log.md"), &text)?;
    let tampered = Ledger::open(&copy, LedgerOptions::new(home.join(".secrets")));
    let report = tampered.verify(&mut |_, _| {})?;
    say("13. Someone edits history (\"off by one\" → \"off by owe\") in a copy of the stream:\n")?;
    for f in &report.findings {
        say(&format!(
            "    {} @{}: {:?}: {}\n",
            f.file, f.offset, f.problem, f.detail
        ))?;
    }
    say("\n")
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
