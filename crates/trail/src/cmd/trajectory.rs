//! `trail trajectory`: the reasoning journal, oldest entry first. Reads only.

use serde::Serialize;
use trail_core::config::Config;
use trail_core::text::one_line;
use trail_core::time::Ts;
use trail_core::trajectory::journal::{self, Place};
use trail_core::trajectory::{Body, Entry};

use crate::cli::TrajectoryArgs;
use crate::error::{CliError, CliResult};
use crate::output;

#[derive(Serialize)]
struct Listing<'a> {
    entries: Vec<&'a Entry>,
    /// Lines that are not entries (torn, hand-edited, from another version), skipped.
    unreadable: &'a [Place],
}

pub fn run(args: &TrajectoryArgs) -> CliResult {
    let since = args
        .since
        .as_deref()
        .map(|s| Ts::parse_loose(s).map_err(|e| CliError::usage(e.to_string())))
        .transpose()?;
    if let Some(p) = &args.phase
        && !Body::PHASES.contains(&p.as_str())
    {
        return Err(CliError::usage(format!(
            "unknown phase `{p}`: use one of {}",
            Body::PHASES.join(", ")
        )));
    }
    let root = Config::load()?.project_root.value;
    let read = journal::read(&root, since)?;
    let entries: Vec<&Entry> = read
        .items
        .iter()
        .map(|(_, e)| e)
        .filter(|e| args.phase.as_deref().is_none_or(|p| e.body.phase() == p))
        .collect();
    if !read.bad.is_empty() {
        let shown: Vec<String> = read.bad.iter().take(5).map(Place::to_string).collect();
        eprintln!(
            "trail: {} unreadable trajectory line{} skipped ({})",
            read.bad.len(),
            if read.bad.len() == 1 { "" } else { "s" },
            shown.join(", ")
        );
    }
    if args.json {
        return output::json(&Listing {
            entries,
            unreadable: &read.bad,
        });
    }
    let mut s = String::new();
    for e in &entries {
        s.push_str(&format!(
            "{}  {:<18} {}\n",
            e.ts,
            e.body.phase(),
            one_line(&summary(&e.body), 120)
        ));
    }
    if entries.is_empty() {
        s.push_str("no trajectory entries\n");
    }
    output::text(&s)
}

/// One line saying what an entry records.
fn summary(body: &Body) -> String {
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    match body {
        Body::Decision(d) => format!("{} ({})", d.title, plural(d.evidence.len(), "citation")),
        Body::Cite(c) => format!("{} [{}]", c.claim, c.grounding.as_str()),
        Body::SessionHandoff(h) => format!(
            "root span {}, grounding {}, next session {}",
            h.root_span_id,
            h.grounding_exact
                .clone()
                .unwrap_or_else(|| h.grounding_ratio.to_string()),
            if h.next_session_ready {
                "ready"
            } else {
                "not ready"
            }
        ),
        Body::DeltaSync(d) => format!(
            "{}, {}, {}",
            plural(d.decisions.len(), "decision"),
            plural(d.files.len(), "file"),
            plural(d.commands.len(), "command")
        ),
        Body::Pivot(p) if p.refined_hypothesis.is_empty() => format!(
            "`{}` gave {} results ({})",
            p.original_query, p.result_count, p.reason
        ),
        Body::Pivot(p) => format!(
            "`{}` gave {} results: {}",
            p.original_query, p.result_count, p.refined_hypothesis
        ),
        Body::Heal(h) => format!(
            "{} from {}{}",
            h.file,
            h.source,
            if h.healed { "" } else { " (not healed)" }
        ),
        Body::Checkpoint(c) => format!("{} ({})", c.verdict, plural(c.steps.len(), "step")),
        Body::NegativeGrounding(n) => {
            format!("{}: {} ({})", n.feature, n.classification, n.engine)
        }
        Body::ForkDetected(f) => format!(
            "{}: `{}` vs the journal's `{}`",
            f.kind, f.asserted, f.journal
        ),
    }
}
