//! `trail verify`: every record, seal and link of the chain, and the anchored head.

use std::io::Write;
use std::time::Instant;

use trail_core::ledger::verify::{Finding, Problem, Report};

use crate::cli::VerifyArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, args: &VerifyArgs) -> CliResult {
    let report = verify_showing_progress(ctx)?;
    if args.json {
        #[derive(serde::Serialize)]
        struct J<'a> {
            ok: bool,
            #[serde(flatten)]
            report: &'a Report,
        }
        output::json(&J {
            ok: report.ok(),
            report: &report,
        })?;
    } else {
        output::text(&describe(&report))?;
    }
    if report.ok() {
        Ok(())
    } else {
        Err(CliError::CheckFailed)
    }
}

/// A long scan shows progress, on a terminal only and at most ten times a second, and wipes it
/// before the result is printed.
fn verify_showing_progress(ctx: &Context) -> CliResult<Report> {
    let tty = output::stderr_is_tty();
    let started = Instant::now();
    let mut last_draw = Instant::now();
    let mut progress = |done: u64, total: u64| {
        if tty && total > 8 << 20 && last_draw.elapsed().as_millis() >= 100 {
            last_draw = Instant::now();
            let pct = done * 100 / total.max(1);
            let _ = write!(
                std::io::stderr(),
                "\rverifying… {pct:>3}% of {} MB",
                total >> 20
            );
        }
    };
    let mut report = ctx.ledger.verify(&mut progress)?;
    // The records of projects that opted out of sync: a chain and an anchor of their own.
    if let Some(local) = ctx.ledger.local() {
        report.add_local(local.verify(&mut progress)?);
    }
    // Every other machine's segments `trail sync` brought, each its own chain.
    for (id, replica) in ctx.ledger.replicas()? {
        let r = replica.verify_replica(&mut progress)?;
        report.add_machine(&id, r);
    }
    if tty && started.elapsed().as_millis() >= 100 {
        eprint!("\r{:40}\r", "");
    }
    Ok(report)
}

/// One line per finding, the verdict, then what the person should know or do next.
fn describe(report: &Report) -> String {
    let mut s: String = report.findings.iter().map(finding_line).collect();
    if report.ok() {
        s.push_str(&format!(
            "ok: {} records in {} segment(s), {} sealed, {}{}{}\n",
            report.records,
            report.segments + report.imported,
            report.sealed,
            if report.sealed == 0 && report.records > 0 {
                "no chain to check"
            } else {
                "chain intact"
            },
            if report.anchor.status == "anchored" {
                ", head anchored"
            } else {
                ""
            },
            match report.imported {
                0 => String::new(),
                n => format!("; {n} imported segment(s), each joined to the chain"),
            },
        ));
        if report.local_records > 0 {
            s.push_str(&format!(
                "ok: {} record(s) kept on this machine only (projects that opted out of sync), chain intact, head anchored\n",
                report.local_records
            ));
        }
        if report.machines > 0 {
            s.push_str(&format!(
                "ok: {} other machine(s)' segments, each chain intact (signed by its machine)\n",
                report.machines
            ));
        }
    } else {
        s.push_str(&format!(
            "FAILED: {} problem(s) in {} records\n",
            report.findings.len(),
            report.records
        ));
    }
    s.push_str(&notes(report));
    s
}

/// `FILE @OFFSET: kind [ts]: detail`, the kind as it is named in `--json`.
fn finding_line(f: &Finding) -> String {
    let ts =
        f.ts.as_deref()
            .map(|t| format!(" [{t}]"))
            .unwrap_or_default();
    let kind = serde_json::to_value(f.problem)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    format!("{} @{}: {kind}{ts}: {}\n", f.file, f.offset, f.detail)
}

/// What is not a failure but needs saying (records awaiting their anchor, an anchor adopted
/// midway, intents waiting to be appended), and how to keep evidence of a tampered stream.
fn notes(report: &Report) -> String {
    let a = &report.anchor;
    let mut s = String::new();
    if a.status == "plain" {
        s.push_str(&format!(
            "note: the {} record(s) are in the plain spec format (no seals, as another \
             LedgerPulse writer puts them down): trail reads and extends them, but nothing in \
             them can be verified; records trail appends from now on are sealed, chained and \
             anchored\n",
            report.records
        ));
    }
    if a.not_yet_anchored > 0 {
        s.push_str(&format!(
            "note: the last {} record(s) are sealed and chained but not anchored yet (a writer \
             stopped between writing and anchoring); the next append anchors them\n",
            a.not_yet_anchored
        ));
    }
    if let Some(n) = a.adopted {
        s.push_str(&format!(
            "note: anchoring began after {n} record(s) the stream already held; those were \
             anchored as found (an anchor that was deleted restarts this way)\n"
        ));
    }
    let tampered = report.findings.iter().any(|f| {
        matches!(
            f.problem,
            Problem::Rewritten
                | Problem::Truncated
                | Problem::AnchorForged
                | Problem::Unanchored
                | Problem::RolledBack
        )
    });
    if tampered {
        s.push_str(
            "hint: keep a copy of stream/ as evidence; once you have looked, deleting \
             stream/pulses.anchor lets the next append anchor the stream as it now stands\n",
        );
    }
    if report
        .findings
        .iter()
        .any(|f| f.problem == Problem::RolledBack)
    {
        s.push_str(
            "hint: if you put this copy back yourself (a restore from backup, a new machine), \
             accept it by deleting the trail.anchored.* file in your secret store \
             (~/.secrets by default)\n",
        );
    }
    if report.pending_imports > 0 {
        s.push_str(&format!(
            "note: {} batch(es) of an interrupted `trail import` are not finished; the next `trail import` finishes them\n",
            report.pending_imports
        ));
    }
    if report.pending_intents > 0 {
        s.push_str(&format!(
            "note: {} pending intent file(s) from interrupted writers; the next `trail pulse` appends them\n",
            report.pending_intents
        ));
    }
    s
}
