//! `trail log`: records newest first, or how many there are.

use serde::Serialize;
use trail_core::ledger::handle::index_path_for;
use trail_core::ledger::index;
use trail_core::ledger::query::Query;
use trail_core::ledger::record::{Focus, Record, RecordType};
use trail_core::time::Ts;

use crate::cli::LogArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

#[derive(Serialize)]
struct Entry {
    file: String,
    offset: u64,
    sealed: bool,
    facts: Vec<String>,
    #[serde(flatten)]
    record: Record,
}

pub fn run(ctx: &Context, args: &LogArgs) -> CliResult {
    if args.count {
        return count(ctx, args);
    }
    let since = match &args.since {
        Some(s) => Some(Ts::parse_loose(s).map_err(|e| CliError::usage(format!("--since: {e}")))?),
        None => None,
    };
    let kind = match &args.kind {
        Some(k) => Some(RecordType::parse(k).ok_or_else(|| {
            CliError::usage(format!(
                "--type `{k}`: use pulse, checkpoint, tangent, compaction, handoff or alert"
            ))
        })?),
        None => None,
    };
    // Every machine's records (`trail sync`), one timeline.
    let found = ctx.ledger.query_all(&Query {
        since,
        limit: args.limit,
        kind,
        proj: args.proj.clone(),
        scan: false,
    })?;
    let stream_dir = ctx.ledger.stream_dir();
    let entries: Vec<Entry> = found
        .into_iter()
        .map(|f| Entry {
            file: f
                .segment
                .strip_prefix(&stream_dir)
                .or_else(|_| f.segment.strip_prefix(ctx.ledger.root()))
                .unwrap_or(&f.segment)
                .display()
                .to_string(),
            offset: f.offset,
            sealed: f.sealed,
            facts: f.record.facts(),
            record: f.record,
        })
        .collect();
    if args.json {
        return output::json(&entries);
    }
    let mut s = String::new();
    for e in &entries {
        s.push_str(&line(&e.record));
    }
    if entries.is_empty() {
        s.push_str("no records match\n");
    }
    output::text(&s)
}

fn line(r: &Record) -> String {
    let focus: Vec<String> = r.focus.iter().map(Focus::label).collect();
    let mut s = format!("{}  {:<10}  {}", r.ts, r.kind.as_str(), focus.join(", "));
    if let Some(i) = &r.intent {
        s.push_str(&format!("  {}", i.primary));
        if !i.summary.is_empty() {
            s.push_str(&format!(" — {}", i.summary));
        }
    }
    if r.status.as_ref().is_some_and(|st| st.blocked) {
        s.push_str("  [BLOCKED]");
    }
    s.push('\n');
    for n in &r.next {
        s.push_str(&format!("    next: {n}\n"));
    }
    for d in &r.defer {
        s.push_str(&format!("    deferred: {d}\n"));
    }
    if let Some(m) = &r.model_shift {
        s.push_str(&format!("    model shift: {} → {}\n", m.before, m.after));
    }
    for f in r.facts() {
        s.push_str(&format!("    fact: {f}\n"));
    }
    s
}

fn count(ctx: &Context, args: &LogArgs) -> CliResult {
    let mut total = 0usize;
    let mut segments = ctx.ledger.segments()?;
    if let Some(local) = ctx.ledger.local() {
        segments.extend(local.segments()?);
    }
    for path in segments {
        if !path.exists() {
            continue;
        }
        let (idx, uncovered) = index::refresh_counting(&path, &index_path_for(&path))?;
        total += idx.len() + uncovered;
    }
    if args.json {
        return output::json(&serde_json::json!({ "count": total }));
    }
    output::text(&format!("{total}\n"))
}
