//! `trail heal [--check-only]`: the state zone (NOTES.md, active_context.yaml, .trail/MEMORY.md,
//! the trajectory, .beads/) brought back from git, the journals or a template. Exit 0 when
//! nothing is missing (after healing), 1 when something is (with `--check-only`: would need
//! healing), 2 on bad usage. `--check-only` writes nothing at all (Loa's created files).

use serde::Serialize;
use trail_core::heal::{self, Finding, Problem, Report};

use crate::cli::HealArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

#[derive(Serialize)]
struct HealJson<'a> {
    /// `healthy`, `needs_healing` (check only), `healed`, or `incomplete`.
    status: &'static str,
    check_only: bool,
    root: String,
    #[serde(flatten)]
    report: &'a Report,
}

pub fn run(ctx: &Context, args: &HealArgs) -> CliResult {
    let root = &ctx.config.project_root.value;
    let opts = heal::Options::of(&ctx.config, root);
    let report = if args.check_only {
        heal::check(root, &opts)
    } else {
        let report = heal::heal(root, &opts);
        log(ctx, &report)?;
        report
    };
    let status = match (
        args.check_only,
        report.findings.is_empty(),
        report.needs_healing(),
    ) {
        (_, true, _) => "healthy",
        (true, false, _) => "needs_healing",
        (false, false, false) => "healed",
        (false, false, true) => "incomplete",
    };
    // What is shown quotes the project's files, which still hold it: the bare engine.
    let redactor = ctx.secrets.redactor()?;
    let redact = |s: &str| redactor.redact(s, &mut Vec::new()).into_owned();
    if args.json {
        let mut shown = report.clone();
        for f in &mut shown.findings {
            f.file = redact(&f.file);
            f.detail = f.detail.as_deref().map(redact);
            if let Problem::Blocked(why) = &mut f.problem {
                *why = redact(why);
            }
        }
        output::json(&HealJson {
            status,
            check_only: args.check_only,
            root: redact(&root.display().to_string()),
            report: &shown,
        })?;
    } else {
        output::text(&redact(&render(&report, args.check_only)))?;
    }
    if report.needs_healing() {
        return Err(CliError::CheckFailed);
    }
    Ok(())
}

/// Every heal goes to the trajectory; a heal that cannot be logged is still a heal, but the
/// person hears of it.
fn log(ctx: &Context, report: &Report) -> CliResult {
    heal::log(&ctx.config.project_root.value, report, None, &ctx.secrets).map_err(|e| {
        CliError::failed(format!("healed, but cannot log it to the trajectory: {e}")).with_source(e)
    })
}

fn render(report: &Report, check_only: bool) -> String {
    if report.findings.is_empty() {
        return "healthy: NOTES.md, active_context.yaml, .trail/MEMORY.md, the trajectory and .beads/ \
                are all there (or were never kept here)\n"
            .into();
    }
    let mut s = String::new();
    for f in &report.findings {
        s.push_str(&line(f, check_only));
        s.push('\n');
    }
    if !report.git {
        s.push_str("(no git repository here: only the journals and templates can heal)\n");
    }
    if check_only && report.needs_healing() {
        s.push_str("nothing was written; `trail heal` restores what has a source\n");
    }
    s
}

fn line(f: &Finding, check_only: bool) -> String {
    let was = match &f.problem {
        Problem::Missing => "missing".to_string(),
        Problem::Blank => "whitespace only".to_string(),
        Problem::Blocked(why) => return format!("cannot heal {}: {why}", f.file),
    };
    match (f.source, f.healed, check_only) {
        (Some(src), true, _) => format!("healed {} ({was}) from {}", f.file, src.describe()),
        (Some(src), false, true) => {
            format!("{}: {was}; would come back from {}", f.file, src.describe())
        }
        (Some(src), false, false) => format!(
            "could not heal {} ({was}) from {}: {}",
            f.file,
            src.describe(),
            f.detail.as_deref().unwrap_or("unknown error")
        ),
        (None, _, _) => format!("{}: {was}, and nothing to restore it from", f.file),
    }
}
