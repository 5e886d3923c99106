//! `trail report`: the report the core gathers ([`trail_core::report`]), as a summary on the
//! terminal, one JSON document, or a self-contained HTML file ([`html`]).

mod html;

use std::fmt::Write as _;

use trail_core::report::{self, Options, ProjectPart, Report, SessionPart};
use trail_core::time::Ts;

use crate::cli::ReportArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, args: &ReportArgs) -> CliResult {
    let since = match &args.since {
        Some(s) => Some(Ts::parse_loose(s).map_err(|e| CliError::usage(format!("--since: {e}")))?),
        None => None,
    };
    let zones = trail_core::attention::Zones::configured(&ctx.config).unwrap_or(
        // The same fallback the prompt hook uses (and reports there).
        trail_core::attention::Zones::DEFAULT,
    );
    let opts = Options {
        since,
        proj: args.proj.clone(),
        events: args.events,
        sessions: args.sessions,
        zones,
    };
    let r = report::gather(ctx, &opts).map_err(|e| match e {
        report::ReportError::Ledger(e) => CliError::from(e),
        report::ReportError::Secrets(e) => CliError::from(e),
    })?;
    if args.json {
        return output::json(&r);
    }
    let mut text = summary(&r);
    if let Some(path) = &args.html {
        let page = html::render(&r);
        trail_core::fsutil::atomic_write(path, page.as_bytes()).map_err(|e| {
            CliError::failed(format!("cannot write {}: {e}", path.display()))
                .with_hint("name a file in a directory you can write, e.g. --html report.html")
        })?;
        let _ = writeln!(
            text,
            "\nwrote {} ({}); open it in a browser, it needs no network",
            path.display(),
            size(page.len())
        );
    }
    output::text(&text)
}

/// The page for `r` (the demo writes one too).
pub(crate) fn html_page(r: &Report) -> String {
    html::render(r)
}

/// The terminal's summary of `r` (the demo shows it too).
pub(crate) fn summary_text(r: &Report) -> String {
    summary(r)
}

fn size(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MB", bytes as f64 / f64::from(1u32 << 20))
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

/// `2026-11-30 08:53` (UTC).
pub(crate) fn minute(t: Ts) -> String {
    minute_of(&t.to_string())
}

/// [`minute`] of a time already written as RFC 3339 text (a journal's, a note's).
pub(crate) fn minute_of(t: &str) -> String {
    t.get(..16).unwrap_or(t).replace('T', " ")
}

pub(crate) fn duration(minutes: u64) -> String {
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

/// The terminal's summary: the header's figures, then a few lines per project.
fn summary(r: &Report) -> String {
    let s = &r.summary;
    let mut out = String::new();
    let span = match (&s.first, &s.last) {
        (Some(a), Some(b)) => format!(
            ", {} → {}",
            a.get(..10).unwrap_or(a),
            b.get(..10).unwrap_or(b)
        ),
        _ => String::new(),
    };
    let _ = writeln!(
        out,
        "trail report: {} project(s), {} session(s), {} in sessions{span}",
        s.projects,
        s.sessions,
        duration(s.minutes)
    );
    let _ = writeln!(
        out,
        "  {} prompt(s) · {} command(s), {} failed · the gate stopped {} ({} blocked, {} junction(s)) · {} approval(s), {} dismissal(s)",
        s.prompts,
        s.commands,
        s.failures,
        s.blocked + s.junctions,
        s.blocked,
        s.junctions,
        s.approvals,
        s.dismissals,
    );
    let _ = writeln!(
        out,
        "  {} decision(s) · {} compaction(s) · {} /clear · ~{} token(s) injected by trail · {} record(s)",
        s.decisions, s.compactions, s.clears, s.injected_tokens, s.records
    );
    if r.projects.is_empty() {
        out.push_str("\nnothing recorded yet");
        if r.since.is_some() || r.proj.is_some() {
            out.push_str(" that matches --since / --proj");
        }
        out.push('\n');
    }
    for p in &r.projects {
        project(&mut out, p, p.name == r.here);
    }
    if !r.problems.is_empty() {
        out.push_str("\nnot read whole:\n");
        for x in &r.problems {
            let _ = writeln!(out, "  {x}");
        }
    }
    out
}

fn project(out: &mut String, p: &ProjectPart, here: bool) {
    let c = &p.counts;
    let _ = writeln!(
        out,
        "\n{}{}: {} session(s) · {} command(s), {} failed · {} blocked · {} junction(s)",
        p.name,
        if here { " (this project)" } else { "" },
        p.sessions.iter().filter(|s| s.id.is_some()).count() + p.sessions_omitted,
        c.tools,
        c.failures,
        c.blocked,
        c.junctions
    );
    for s in p.sessions.iter().take(5) {
        session_line(out, s);
    }
    if p.sessions.len() > 5 {
        let _ = writeln!(
            out,
            "  … {} older session(s)",
            p.sessions.len() - 5 + p.sessions_omitted
        );
    }
    for f in &p.stops {
        for rule in &f.rules {
            let _ = writeln!(
                out,
                "  stopped [{}] ({}): {} blocked, {} junction(s), {} approved, {} dismissed{}",
                rule.rule,
                f.kind,
                rule.blocked,
                rule.junctions,
                rule.approved,
                rule.dismissed,
                rule.examples
                    .first()
                    .map(|e| format!(" — latest: {e}"))
                    .unwrap_or_default()
            );
        }
    }
    for d in p.decisions.iter().take(5) {
        let _ = writeln!(out, "  decision {} {}: {}", d.id, d.title, d.grounding);
    }
}

fn session_line(out: &mut String, s: &SessionPart) {
    let c = &s.counts;
    let minutes =
        u64::try_from((s.end.as_micros() - s.start.as_micros()) / 60_000_000).unwrap_or(0);
    let name = s.id.as_deref().map_or_else(
        || "outside a session".to_string(),
        |id| format!("session {}", short(id)),
    );
    let _ = writeln!(
        out,
        "  {name}  {} ({}): {} prompt(s), {} command(s){}{}{}",
        minute(s.start),
        duration(minutes),
        c.prompts,
        c.tools,
        if c.failures > 0 {
            format!(", {} failed", c.failures)
        } else {
            String::new()
        },
        if c.blocked + c.junctions > 0 {
            format!(", {} stopped", c.blocked + c.junctions)
        } else {
            String::new()
        },
        if c.records > 0 {
            format!(", {} record(s)", c.records)
        } else {
            String::new()
        },
    );
}

/// The first 8 characters of an id: enough to tell sessions apart on a line.
pub(crate) fn short(id: &str) -> &str {
    match id.char_indices().nth(8) {
        Some((i, _)) => &id[..i],
        None => id,
    }
}
