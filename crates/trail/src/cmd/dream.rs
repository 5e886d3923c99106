//! `trail dream`: consolidate daily memory into MEMORY.md (see `trail_core::memory::dream`).

use std::fmt::Write as _;

use trail_core::config::{Config, ProcessEnv};
use trail_core::llm::Settings;
use trail_core::memory::dream::{self, Options, Report, Status};
use trail_core::time::Local;

use crate::cli::DreamArgs;
use crate::context::Context;
use crate::error::CliResult;
use crate::output;

pub fn run(ctx: &Context, args: &DreamArgs) -> CliResult {
    let config = Config::load()?;
    let (lookback, note) = dream::clamp_lookback(args.lookback);
    if let Some(n) = note {
        eprintln!("note: {n}");
    }
    // Checked before anything is read or sent: a missing key or model is reported first.
    let settings = Settings::from_config(&config, &ProcessEnv);
    let provider = settings.provider()?;
    let report = dream::dream(
        &config.project_root.value,
        &Options {
            lookback,
            force: args.force,
            dry_run: args.dry_run,
            now: Local::now(),
            redactor: ctx.ledger.redactor()?,
        },
        provider.as_ref(),
        &mut |line| eprintln!("{line}"),
    )?;
    if args.json {
        return output::json(&report);
    }
    output::text(&describe(&report, &config.project_root.value))
}

/// The report as a person reads it.
pub fn describe(r: &Report, root: &std::path::Path) -> String {
    let rel = |p: &std::path::Path| {
        p.strip_prefix(root)
            .map(|x| x.display().to_string())
            .unwrap_or_else(|_| p.display().to_string())
    };
    let mut s = String::new();
    if r.status == Status::Skipped {
        let _ = writeln!(
            s,
            "dream skipped: {}",
            r.reason.as_deref().unwrap_or("nothing to do")
        );
        return s;
    }
    if r.status == Status::DryRun {
        s.push_str("dry run: nothing was written\n");
    }
    let _ = writeln!(
        s,
        "consolidated {} with {}",
        r.window.join(", "),
        r.provider.as_deref().unwrap_or("?")
    );
    let _ = writeln!(
        s,
        "{}: {} → {} entries ({} added, {} removed); {} dropped as unsupported; {} given a source",
        rel(&r.memory_path),
        r.entries_before,
        r.entries_after,
        r.added.len(),
        r.removed.len(),
        r.dropped.len(),
        r.sourced.len()
    );
    for d in &r.dropped {
        let _ = writeln!(s, "  dropped: {} — {}", d.text, d.why);
    }
    if r.status == Status::DryRun {
        for a in &r.added {
            let _ = writeln!(s, "  + {a}");
        }
        for x in &r.removed {
            let _ = writeln!(s, "  - {x}");
        }
        if let Some(m) = &r.new_memory {
            let _ = write!(s, "\nThe new {} would be:\n\n{m}", rel(&r.memory_path));
        }
        return s;
    }
    if let Some(b) = &r.backup_path {
        let _ = writeln!(s, "previous MEMORY.md kept at {}", rel(b));
    }
    if let Some(d) = &r.diary_path {
        let _ = writeln!(s, "diary: {}", rel(d));
    }
    s
}
