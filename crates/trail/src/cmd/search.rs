//! `trail search`: ranked hits from the stream, the journals, memory and notes (and the code).

use std::path::PathBuf;
use std::process::Stdio;

use trail_core::ledger::record::RecordType;
use trail_core::lookup;
use trail_core::search::{self, Cache, Filters, Hit, Mode, Request, Results, Source};
use trail_core::time::Ts;

use crate::cli::SearchArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;
use trail_hook::detached;

/// The hidden command a search starts to build the cache (cli.rs).
const BUILDER: &str = "build-search-cache";

pub fn run(ctx: &Context, args: &SearchArgs) -> CliResult {
    let request = request(args)?;
    let began = Ts::now();
    let session = trail_core::host::session_from_env();
    let found = lookup::search(ctx, &request, !args.no_cache, session.as_deref())?;
    let results = &found.results;
    for s in &results.skipped {
        eprintln!("trail: not searched: {}: {}", s.file, s.why);
    }
    if let Some(e) = &found.pivot_error {
        eprintln!("trail: the trajectory's pivot was not logged: {e}");
    }
    let shown = if args.json {
        output::json(results)
    } else {
        output::text(&render(results, args))
    };
    // After the answer: the builder's start never delays it.
    if results.missing_parts > 0
        && let Some(cache) = &found.places.cache
    {
        start_builder(cache, began);
    }
    shown
}

/// The stream's chain, then the history `trail import` brought in, then the records kept on
/// this machine only (a project that opted out of sync).
fn segments(ctx: &Context) -> CliResult<Vec<PathBuf>> {
    let mut segments = ctx.ledger.segments()?;
    segments.extend(ctx.ledger.imported_segments()?);
    if let Some(local) = ctx.ledger.local() {
        segments.extend(local.segments()?);
        segments.extend(local.imported_segments()?);
    }
    Ok(segments)
}

/// Start the builder for the parts a search that began at `began` found missing, unless one
/// is running or should not start yet (trail-core's `search/build.rs` says when), handing it
/// the lock. Silent: the answer is given, and a builder that cannot start leaves the next
/// search as fast as this one, no slower.
fn start_builder(cache: &Cache, began: Ts) {
    let Ok(Some(lock)) = cache.claim_build(began) else {
        return;
    };
    if let Ok(c) = detached::trail(&[BUILDER]) {
        let _ = detached::start(c, Stdio::from(lock.into_file()));
    }
}

/// What `trail build-search-cache` did.
#[derive(serde::Serialize)]
struct BuildReport {
    /// Another builder holds the lock: this one did nothing.
    running: bool,
    #[serde(flatten)]
    built: Option<search::Built>,
}

/// `trail build-search-cache`: build the missing parts, holding the builder's lock — the one
/// the search handed over as stdin, or else one taken now.
pub fn build_cache(ctx: &Context, json: bool) -> CliResult {
    let cache = Cache::of_home(ctx.ledger.root());
    let inherited = {
        use std::os::fd::AsFd;
        std::io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .ok()
            .map(std::fs::File::from)
    };
    let report = match cache.builder_lock(inherited)? {
        Some(lock) => BuildReport {
            running: false,
            built: Some(search::build_missing(&cache, &segments(ctx)?, &lock)?),
        },
        None => BuildReport {
            running: true,
            built: None,
        },
    };
    if json {
        return output::json(&report);
    }
    output::text(&match &report.built {
        None => "a search cache builder is already running: nothing to do\n".to_string(),
        Some(b) if b.stopped => {
            "the search cache was deleted while it was built: stopped (the next search starts \
             a builder again)\n"
                .to_string()
        }
        Some(b) => format!(
            "search cache: {} part{} written, {} kept, {} removed ({}){}\n",
            b.built,
            if b.built == 1 { "" } else { "s" },
            b.kept,
            b.swept,
            cache.dir.display(),
            if b.open > 0 {
                "; the newest window is built once a record follows it"
            } else {
                ""
            }
        ),
    })
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
    for t in &args.kind {
        let t = t.trim();
        if !t.is_empty() && !known_type(t) {
            return Err(CliError::usage(format!("--type {t}: no source or kind is called that"))
                .with_hint(format!(
                    "sources: {}; record types: {}; trajectory phases: {}; memory: daily, core; \
                     or a tool's name (Bash, Edit, apply_patch, mcp__SERVER__TOOL, …)",
                    Source::ALL.map(Source::as_str).join(", "),
                    RecordType::ALL.map(RecordType::as_str).join(", "),
                    trail_core::trajectory::Body::PHASES.join(", ")
                )));
        }
    }
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

/// The tools the hosts name in their tool calls (Claude Code's, then Codex's): a `--type` may
/// name any of them, and an MCP tool by its `mcp__SERVER__TOOL` name.
const HOST_TOOLS: &[&str] = &[
    "Agent",
    "Bash",
    "BashOutput",
    "Edit",
    "ExitPlanMode",
    "Glob",
    "Grep",
    "KillShell",
    "LS",
    "Monitor",
    "MultiEdit",
    "NotebookEdit",
    "PowerShell",
    "Read",
    "SlashCommand",
    "Task",
    "TodoWrite",
    "WebFetch",
    "WebSearch",
    "Write",
    "apply_patch",
    "exec_command",
    "local_shell",
    "shell",
    "update_plan",
    "view_image",
    "write_stdin",
];

/// Whether `--type t` names something search can filter by (issue 22: `--type bogus` quietly
/// matched nothing).
fn known_type(t: &str) -> bool {
    let lower = t.to_ascii_lowercase();
    Source::ALL
        .iter()
        .any(|s| s.as_str().eq_ignore_ascii_case(t))
        || RecordType::parse(&lower).is_some()
        || trail_core::trajectory::Body::PHASES.contains(&lower.as_str())
        || matches!(lower.as_str(), "daily" | "core")
        || HOST_TOOLS.iter().any(|h| h.eq_ignore_ascii_case(t))
        || lower.starts_with("mcp__")
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
