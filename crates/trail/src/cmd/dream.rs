//! `trail dream`: consolidate daily memory into MEMORY.md (see `trail_core::memory::dream`).

use std::fmt::Write as _;

use trail_core::config::{Config, ProcessEnv};
use trail_core::llm::Settings;
use trail_core::memory::dream::{self, Options, Report, Status};
use trail_core::memory::schedule::{self, DreamLock};
use trail_core::time::{Local, Ts};

use crate::cli::DreamArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, args: &DreamArgs) -> CliResult {
    let config = Config::load()?;
    let root = &config.project_root.value;
    if args.background {
        return background(ctx, &config);
    }
    let lookback = dream::clamp_lookback(args.lookback);
    if i64::from(lookback) != args.lookback {
        eprintln!(
            "note: --lookback {} is outside {}–{}; using {lookback}",
            args.lookback,
            dream::MIN_LOOKBACK,
            dream::MAX_LOOKBACK
        );
    }
    // Checked before anything is read or sent: a missing key or model is reported first.
    let settings = Settings::from_config(&config, &ProcessEnv);
    let provider = trail_llm::dream_provider(&settings)?;
    // One dream at a time: one a session's end started may be running. A dry run writes nothing.
    let mut lock = None;
    if !args.dry_run {
        let mut held = DreamLock::try_take(root)?.ok_or_else(|| {
            CliError::failed("another dream is running in this project (a session's end started it)")
                .with_hint(
                    "run `trail dream` again when it has finished; `trail memory show` shows what it wrote",
                )
        })?;
        held.begin(Ts::now())?;
        lock = Some(held);
    }
    // Taking a loss is a person's decision: asked at the terminal, never of an agent.
    if args.accept_loss {
        crate::person::require_terminal(crate::person::AT_YOUR_TERMINAL)
            .map_err(CliError::usage)?;
    }
    let ask = |lost: &[String], proposed: &str| -> bool {
        let mut what = format!(
            "This rewrite of MEMORY.md loses {} supported entr{}:\n",
            lost.len(),
            if lost.len() == 1 { "y" } else { "ies" }
        );
        for l in lost {
            let _ = writeln!(what, "  - {l}");
        }
        let _ = write!(what, "It would become:\n\n{proposed}\nWrite it anyway?");
        crate::person::confirm(&what, "yes").is_ok()
    };
    let report = dream::dream(
        root,
        &Options {
            lookback,
            force: args.force,
            dry_run: args.dry_run,
            now: Local::now(),
            secrets: &ctx.secrets,
            accept_loss: args.accept_loss.then_some(&ask as &dream::AcceptLoss),
        },
        provider.as_ref(),
        &mut |line| eprintln!("{line}"),
    )?;
    drop(lock);
    if args.json {
        return output::json(&report);
    }
    output::text(&describe(&report, root))
}

/// `trail dream --background`, started detached by a hook: nothing to print to (its output goes
/// nowhere), so what happened is left as news for the next SessionStart instead. Returns without
/// dreaming when another dream holds the lock or none is due any more (another just ran).
fn background(ctx: &Context, config: &Config) -> CliResult {
    let root = &config.project_root.value;
    let Some(mut lock) = DreamLock::try_take(root)? else {
        return Ok(());
    };
    let now = Local::now();
    if !schedule::due(root, config.dream_every.value, &now) {
        return Ok(());
    }
    lock.begin(now.ts())?;
    let outcome = trail_llm::dream_provider(&Settings::from_config(config, &ProcessEnv))
        .map_err(dream::DreamError::from)
        .and_then(|provider| {
            dream::dream(
                root,
                &Options {
                    lookback: dream::DEFAULT_LOOKBACK,
                    force: false,
                    dry_run: false,
                    now: now.clone(),
                    secrets: &ctx.secrets,
                    accept_loss: None,
                },
                provider.as_ref(),
                &mut |_| {},
            )
        });
    if let Some(line) = schedule::news(&outcome, &now, root) {
        schedule::leave_news(root, &ctx.secrets.redact(&line)?)?;
    }
    Ok(())
}

/// The report as a person reads it.
pub fn describe(r: &Report, root: &std::path::Path) -> String {
    let rel = |p: &std::path::Path| {
        p.strip_prefix(root)
            .map_or_else(|_| p.display().to_string(), |x| x.display().to_string())
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
    for l in &r.loss_accepted {
        let _ = writeln!(s, "  let go, as you accepted: {l}");
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
