//! `trail search`: ranked hits from the stream, the journals, memory and notes (and the code).

use trail_core::config::Config;
use trail_core::layout::Layout;
use trail_core::search::{self, Filters, Hit, Mode, Places, Request, Results, Source};
use trail_core::time::Ts;

use crate::cli::SearchArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, args: &SearchArgs) -> CliResult {
    let config = Config::load()?;
    let root = config.project_root.value;
    // The stream's chain, then the history `trail import` brought in.
    let mut segments = ctx.ledger.segments()?;
    segments.extend(ctx.ledger.imported_segments()?);
    let places = Places {
        segments,
        stream_dir: ctx.ledger.stream_dir(),
        layout: Layout::new(&root),
        project_name: trail_core::project::Project::discover(&root).name,
        cache: (!args.no_cache).then(|| search::Cache::of_home(ctx.ledger.root())),
    };
    let request = request(args)?;
    // Hits quote files that still hold what they quote: shown redacted, nothing kept.
    let results = search::search(&places, &request, ctx.secrets.redactor()?)?;
    for s in &results.skipped {
        eprintln!("trail: not searched: {}: {}", s.file, s.why);
    }
    if results.is_broad() {
        let logged = search::log_pivot(
            &places.layout,
            &args.query,
            results.total,
            Ts::now(),
            &ctx.secrets,
        );
        if let Err(e) = logged {
            eprintln!("trail: the trajectory's pivot was not logged: {e}");
        }
    }
    if args.json {
        return output::json(&results);
    }
    output::text(&render(&results, args))
}

fn request(args: &SearchArgs) -> CliResult<Request> {
    let time = |flag: &str, v: &Option<String>| -> CliResult<Option<Ts>> {
        v.as_deref()
            .map(|s| Ts::parse_loose(s).map_err(|e| CliError::usage(format!("{flag}: {e}"))))
            .transpose()
    };
    let mode = match (args.regex, args.semantic, args.hybrid) {
        (true, _, _) => Mode::Regex,
        (_, true, _) => Mode::Semantic,
        (_, _, true) => Mode::Hybrid,
        _ => Mode::Lexical,
    };
    Ok(Request {
        query: args.query.clone(),
        mode,
        filters: Filters {
            since: time("--since", &args.since)?,
            until: time("--until", &args.until)?,
            types: args
                .kind
                .iter()
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
                .collect(),
            proj: args.proj.clone(),
        },
        limit: args.limit,
        code: args.code,
    })
}

/// Each hit as its id, source and kind, then its snippet; a last line counts them.
fn render(results: &Results, args: &SearchArgs) -> String {
    let mut s = String::new();
    if let Some(why) = &results.fallback {
        s.push_str(&format!("note: {why}\n"));
    }
    for h in &results.hits {
        s.push_str(&heading(h));
        s.push_str(&format!("\n    {}\n", h.snippet));
    }
    if results.hits.is_empty() {
        s.push_str(&format!("nothing matches `{}`\n", args.query));
        return s;
    }
    s.push_str(&format!(
        "{} of {} result{} ({})",
        results.hits.len(),
        results.total,
        if results.total == 1 { "" } else { "s" },
        results.mode.as_str()
    ));
    if results.total > results.hits.len() {
        s.push_str("; --limit shows more, --type, --since or more words narrow them");
    }
    s.push('\n');
    s
}

fn heading(h: &Hit) -> String {
    let mut s = h.id.clone();
    s.push_str("  ");
    s.push_str(h.source.as_str());
    if let Some(k) = &h.kind {
        s.push('/');
        s.push_str(k);
    }
    if !h.proj.is_empty() {
        s.push_str(&format!("  [{}]", h.proj.join(", ")));
    }
    // A record's id is its time already.
    if let (Some(t), false) = (&h.time, h.source == Source::Stream) {
        s.push_str("  ");
        s.push_str(t);
    }
    s
}
