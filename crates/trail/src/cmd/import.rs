//! `trail import claude-code|codex [DIR]`: history backfilled from the sessions the hosts keep
//! (see `trail_core::import`), with a progress bar on a terminal.

use std::path::{Path, PathBuf};

use trail_core::import::{self, Host, Options, ProjectFilter, Summary};
use trail_core::project::Project;
use trail_core::secrets::Redactor;
use trail_core::time::Ts;

use crate::cli::ImportArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, args: &ImportArgs) -> CliResult {
    let opts = options(ctx, args)?;
    let bar = progress_bar();
    let result = import::run(&ctx.ledger, &opts, &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let mut summary = result?;
    // What is printed passes the redactor too: paths can hold anything (shown, not written:
    // the paths still hold what they hold, so no original is kept).
    let redactor = ctx.secrets.redactor()?;
    redact_paths(&mut summary, redactor);
    if args.json {
        return output::json(&summary);
    }
    output::text(&describe(&summary, opts.host, &opts.dir, redactor))
}

fn options(ctx: &Context, args: &ImportArgs) -> CliResult<Options> {
    let host = Host::parse(&args.host)
        .ok_or_else(|| CliError::usage(format!("`{}`: use claude-code or codex", args.host)))?;
    let dir = if let Some(d) = &args.dir {
        d.clone()
    } else {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .ok_or_else(|| CliError::usage("HOME is not set: name the directory (DIR)"))?;
        let codex_home = std::env::var_os("CODEX_HOME").map(PathBuf::from);
        host.default_dir(&home, codex_home.as_deref())
    };
    let since = args
        .since
        .as_deref()
        .map(|s| Ts::parse_loose(s).map_err(|e| CliError::usage(format!("--since: {e}"))))
        .transpose()?;
    Ok(Options {
        host,
        dir,
        since,
        project: args.project.as_deref().map(project_filter),
        dry_run: args.dry_run,
        batch: ctx.config.import_batch.value as usize,
    })
}

/// A directory names a project by its id (its worktrees are the same project); anything else is
/// a name as the stream writes it.
fn project_filter(p: &str) -> ProjectFilter {
    let path = Path::new(p);
    if path.is_dir() {
        let dir = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        ProjectFilter::Id(Project::discover(&dir).id)
    } else {
        ProjectFilter::Name(p.to_string())
    }
}

/// A bar on stderr when it is a terminal; nothing otherwise.
fn progress_bar() -> indicatif::ProgressBar {
    if !output::stderr_is_tty() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(0),
        indicatif::ProgressDrawTarget::stderr_with_hz(10),
    );
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("importing {pos}/{len} sessions {wide_bar} {eta}")
    {
        bar.set_style(style);
    }
    bar
}

fn redact_paths(s: &mut Summary, redactor: &Redactor) {
    let red = |p: &mut PathBuf| {
        let text = p.to_string_lossy().into_owned();
        if let std::borrow::Cow::Owned(r) = redactor.redact(&text, &mut Vec::new()) {
            *p = PathBuf::from(r);
        }
    };
    s.projects.iter_mut().for_each(red);
    s.unreadable.iter_mut().for_each(red);
}

/// What was added, where, what was skipped and why.
fn describe(s: &Summary, host: Host, dir: &Path, redactor: &Redactor) -> String {
    let dir = redactor
        .redact(&dir.to_string_lossy(), &mut Vec::new())
        .into_owned();
    let mut out = String::new();
    let (verb, would) = if s.dry_run {
        ("would import", "would add")
    } else {
        ("imported", "added")
    };
    out.push_str(&format!(
        "{verb} {} session(s) of {} history from {dir}\n",
        s.sessions,
        host.title()
    ));
    if s.sessions > 0 {
        out.push_str(&format!(
            "  {would} {} record(s) to the stream{}, {} proof line(s) and {} daily-memory block(s) in {} project(s)\n",
            s.records,
            match s.segments.as_slice() {
                [] => String::new(),
                segs => format!(" (stream/{})", segs.join(", stream/")),
            },
            s.proof_lines,
            s.memory_blocks,
            s.projects.len()
        ));
    }
    let k = &s.skipped_because;
    let reasons: Vec<String> = [
        (k.already, "imported before"),
        (k.recorded_live, "recorded by trail's hooks"),
        (k.empty, "empty"),
        (k.filtered, "outside --since or --project"),
        (k.unreadable, "unreadable"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, why)| format!("{n} {why}"))
    .collect();
    if !reasons.is_empty() {
        out.push_str(&format!(
            "skipped {} session(s): {}\n",
            s.skipped,
            reasons.join(", ")
        ));
    }
    if s.without_project > 0 {
        out.push_str(&format!(
            "note: {} session(s) ran in a directory that is not on this machine: their records are in the stream, with no proof lines or daily memory\n",
            s.without_project
        ));
    }
    if s.finished > 0 {
        out.push_str(&format!(
            "note: finished {} batch(es) an interrupted import had left\n",
            s.finished
        ));
    }
    for p in s.unreadable.iter().take(10) {
        out.push_str(&format!("note: could not read {}\n", p.display()));
    }
    if s.dry_run {
        out.push_str("dry run: nothing was written\n");
    }
    out
}
