//! `trail pulse`: write one record.

use std::io::Read;

use clap::ArgMatches;
use serde::Serialize;
use trail_core::ledger::frame::{Frame, starts};
use trail_core::ledger::record::{
    Confidence, Focus, Intent, ModelShift, Record, RecordType, Status, facts_body,
};
use trail_core::time::Ts;

use crate::cli::PulseArgs;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

#[derive(Serialize)]
struct PulseJson<'a> {
    ts: String,
    offset: u64,
    digest: String,
    redacted: &'a [String],
    replayed: usize,
    torn_saved: Vec<String>,
    rotated: Option<String>,
    /// The time a record given on stdin named, when it was appended at a later one.
    #[serde(skip_serializing_if = "Option::is_none")]
    restamped_from: Option<String>,
}

pub fn run(ctx: &Context, args: &PulseArgs, m: &ArgMatches) -> CliResult {
    let record = if args.stdin {
        from_stdin()?
    } else {
        from_flags(ctx, args, m)?
    };
    if record.is_empty() {
        return Err(CliError::usage(
            "the record says nothing: give at least one of --summary, --next, --defer, --fact, --file or --blocked",
        ));
    }
    let asked = args.stdin.then_some(record.ts);
    let done = ctx.ledger.append(record)?;
    // The stream is in time order, so a record older than its newest is appended at the next
    // instant after it. A record handed in whole named its own time: say that it moved
    // (issue 21: it was restamped without a word).
    let restamped = asked.filter(|&t| t != done.ts);
    if let Some(t) = restamped {
        eprintln!(
            "trail: the record's ts {t} is not after the stream's newest record, so it was \
             appended at {} (the stream keeps time order; `trail import` keeps another tool's \
             history with its own times)",
            done.ts
        );
    }
    if let Some(why) = &done.unanchored {
        eprintln!("trail: warning: {why}; `trail verify` shows where");
    }
    if !done.redacted.is_empty() {
        eprintln!(
            "trail: redacted {} secret(s) ({}); originals are in {}",
            done.redacted.len(),
            done.redacted.join(", "),
            ctx.secrets.store_path().display()
        );
    }
    let r = &done.recovery;
    for p in &r.torn_saved {
        eprintln!(
            "trail: repaired a torn tail left by a crash; its bytes are kept in {}",
            p.display()
        );
    }
    if r.replayed > 0 {
        eprintln!(
            "trail: appended {} record(s) left behind by crashed writers",
            r.replayed
        );
    }
    if r.finished_rotation {
        eprintln!("trail: finished a rotation interrupted by a crash");
    }
    if let Some(a) = &done.rotated {
        eprintln!(
            "trail: the stream passed its size threshold and was archived to {}",
            a.display()
        );
    }
    if args.json {
        return output::json(&PulseJson {
            ts: done.ts.to_string(),
            restamped_from: restamped.map(|t| t.to_string()),
            offset: done.offset,
            digest: trail_core::ledger::frame::hex(&done.digest),
            redacted: &done.redacted,
            replayed: r.replayed,
            torn_saved: r
                .torn_saved
                .iter()
                .map(|p| p.display().to_string())
                .collect(),
            rotated: done.rotated.as_ref().map(|p| p.display().to_string()),
        });
    }
    output::text(&format!("{}\n", done.ts))
}

fn from_flags(ctx: &Context, args: &PulseArgs, m: &ArgMatches) -> CliResult<Record> {
    let kind = RecordType::parse(&args.kind).filter(|k| *k != RecordType::Alert).ok_or_else(|| {
        CliError::usage(format!(
            "--type `{}` is not a pulse type: use pulse, checkpoint, tangent, compaction or handoff",
            args.kind
        ))
    })?;
    let mut r = Record::new(kind, Ts::now());
    r.focus = pair_focus(args, m)?;
    r.intent = match (&args.intent, &args.summary) {
        (Some(p), s) => Some(Intent {
            primary: p.clone(),
            summary: s.clone().unwrap_or_default(),
        }),
        (None, Some(s)) => {
            // A summary alone keeps the intent in force; a tangent must not change it anyway.
            let primary = ctx
                .ledger
                .current_intent()?
                .map_or_else(|| "continue".into(), |i| i.primary);
            Some(Intent {
                primary,
                summary: s.clone(),
            })
        }
        (None, None) => None,
    };
    if args.confidence.is_some() || args.blocked {
        let confidence = match &args.confidence {
            None => None,
            Some(c) => Some(Confidence::parse(&c.to_ascii_lowercase()).ok_or_else(|| {
                CliError::usage(format!("--confidence `{c}`: use low, medium or high"))
            })?),
        };
        r.status = Some(Status {
            confidence,
            blocked: args.blocked,
        });
    }
    r.next.clone_from(&args.next);
    r.defer.clone_from(&args.defer);
    r.files.clone_from(&args.file);
    refuse_reserved(&args.tag)?;
    r.tags.clone_from(&args.tag);
    // Queued by the agent inside its confinement and run by a hook: it stays the agent's words.
    if std::env::var(crate::confined::ORIGIN_VAR).as_deref() == Ok("agent") {
        r.tags.push(crate::confined::AGENT_TAG.to_string());
    }
    // A pulse about this project is placed in it as the hooks' are (by id and branch), so a
    // same-named repository's threads stay apart from its own.
    let project = trail_core::project::Project::discover(&ctx.config.project_root.value);
    if r.focus.iter().any(|f| f.proj == project.name) {
        r.tags.extend(project.tags());
    }
    if let (Some(b), Some(a)) = (&args.shift_before, &args.shift_after) {
        r.model_shift = Some(ModelShift {
            before: b.clone(),
            after: a.clone(),
        });
    }
    r.body = facts_body(&args.fact);
    Ok(r)
}

/// Pair each --topic with the --proj given just before it on the command line.
fn pair_focus(args: &PulseArgs, m: &ArgMatches) -> CliResult<Vec<Focus>> {
    let proj_idx: Vec<usize> = m
        .indices_of("proj")
        .map(Iterator::collect)
        .unwrap_or_default();
    let topic_idx: Vec<usize> = m
        .indices_of("topic")
        .map(Iterator::collect)
        .unwrap_or_default();
    let mut focus: Vec<Focus> = args
        .proj
        .iter()
        .map(|p| Focus {
            proj: p.clone(),
            topic: String::new(),
        })
        .collect();
    for (t, &ti) in args.topic.iter().zip(&topic_idx) {
        let owner = proj_idx.iter().rposition(|&pi| pi < ti).ok_or_else(|| {
            CliError::usage(format!(
                "--topic `{t}` comes before any --proj: write --proj P --topic T"
            ))
        })?;
        if !focus[owner].topic.is_empty() {
            return Err(CliError::usage(format!(
                "--proj `{}` has two topics (`{}` and `{t}`): repeat --proj for each topic",
                focus[owner].proj, focus[owner].topic
            )));
        }
        focus[owner].topic.clone_from(t);
    }
    Ok(focus)
}

/// `trail-hook` marks what trail's hooks observed; a pulse written by hand (or by the agent),
/// from flags or on stdin, may not claim it, or its words would be injected as trail's
/// findings.
fn refuse_reserved(tags: &[String]) -> CliResult<()> {
    if tags
        .iter()
        .any(|t| t.trim().eq_ignore_ascii_case("trail-hook"))
    {
        return Err(CliError::usage(
            "the tag trail-hook is reserved for what trail's hooks observe; choose another tag",
        ));
    }
    Ok(())
}

/// One record in the spec's Markdown form: `---`, front matter, `---`, optional body.
fn from_stdin() -> CliResult<Record> {
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input)?;
    let text = String::from_utf8(input).map_err(|e| {
        CliError::usage(format!(
            "stdin is not UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let body_start = text.len() - text.trim_start().len();
    let trimmed = &text[body_start..];
    let lead_lines = text[..body_start].matches('\n').count();
    if !trimmed.starts_with("---") {
        return Err(CliError::usage(format!(
            "stdin line {}, column 1: a record starts with a `---` line, then `schema: ledgerpulse/v1`",
            lead_lines + 1
        )));
    }
    // `ts` may be left out: the writer stamps the current time.
    let (owned, added_ts) = with_ts(trimmed);
    let bytes = owned.as_bytes();
    let found = starts(bytes);
    if found.first() != Some(&0) {
        return Err(CliError::usage(format!(
            "stdin line {}, column 1: the line after `---` must be `schema: ledgerpulse/v1`",
            lead_lines + 2
        )));
    }
    if found.len() > 1 {
        return Err(CliError::usage(
            "stdin holds more than one record: send one at a time",
        ));
    }
    let frame = Frame::split(0, bytes);
    let mut rec = frame.parse().map_err(|e| {
        let line = if added_ts && e.line > 2 {
            e.line - 1
        } else {
            e.line
        };
        CliError::usage(format!(
            "stdin line {}, column {}: {}",
            line + lead_lines,
            e.column,
            e.message
        ))
    })?;
    if rec.kind == RecordType::Alert {
        return Err(CliError::usage("`type: alert` is written by trail itself"));
    }
    refuse_reserved(&rec.tags)?;
    if !rec.body.is_empty() && !rec.body.ends_with('\n') {
        rec.body.push('\n');
    }
    // The writer stamps the chain; a `prev` from outside would be meaningless here.
    rec.prev = None;
    Ok(rec)
}

/// Insert `ts: <now>` after the schema line when the front matter has no `ts`.
fn with_ts(text: &str) -> (String, bool) {
    let mut lines = text.split_inclusive('\n');
    let mut front_has_ts = false;
    let mut fences = 0;
    for l in lines.by_ref() {
        let t = l.trim_end();
        if t == "---" {
            fences += 1;
            if fences == 2 {
                break;
            }
        } else if fences == 1 && t.starts_with("ts:") {
            front_has_ts = true;
        }
    }
    if front_has_ts {
        return (text.to_string(), false);
    }
    let mut out = String::with_capacity(text.len() + 40);
    let mut done = false;
    for l in text.split_inclusive('\n') {
        out.push_str(l);
        if !done && l.trim_start().starts_with("schema:") {
            out.push_str(&format!("ts: {}\n", Ts::now()));
            done = true;
        }
    }
    (out, done)
}
