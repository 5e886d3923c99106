//! The tools, stated once: name, what it does, its input schema, its annotations and the
//! function that runs it. `tools/list` and `tools/call` both walk [`TOOLS`].
//!
//! Progressive disclosure, as claude-mem does it: `search` answers with one line per hit (id,
//! time, source, the best line), `timeline` shows what surrounds one hit, `get` returns whole
//! records; the model pays for detail only where it looks. The schemas are written by hand,
//! as small as they can be and still say what each argument is: every client sends all of them
//! to its model with every request (their cost is a test in `tests/schemas.rs` and a line of
//! the README). Results are JSON objects, as structured content and as text.
//!
//! `decide`, `checkpoint` and `show` are `trail decide`, `trail checkpoint` and `trail show`,
//! each through the same core function, so a decision, a checkpoint's journal entries and what
//! an identifier shows do not depend on which front-end the agent used.
//!
//! Not here: anything that approves, dismisses, skips or allows a junction, grants, or changes
//! the mode (those are the person's; `trail approve` checks for a person at a terminal). The
//! checkpoint runs its checks and journals the result, nothing more: a passing checkpoint is
//! what the red zone waits for, and the agent can run `trail checkpoint` in its shell anyway.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use trail_core::checkpoint;
use trail_core::decision;
use trail_core::ledger::query::Found;
use trail_core::ledger::rehydrate::{self, Level};
use trail_core::search::retrieve::{self, Id, RetrieveError};
use trail_core::search::{Filters, Mode, Request};
use trail_core::time::Ts;
use trail_core::{host, show};

use crate::context::Ctx;
use crate::error::ToolError;

/// What a tool does to the world, as MCP's annotations say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effects {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
}

/// Reads trail's journals and views, changes nothing a person would see as a change. (Search
/// appends a trajectory `pivot` after a query with more than 50 results, as `trail search`
/// does: the journal of the agent's own reasoning, not a change to the work.)
const READS: Effects = Effects {
    read_only: true,
    destructive: false,
    idempotent: true,
};

/// Appends to a journal: nothing is overwritten, and a repeat appends again.
const APPENDS: Effects = Effects {
    read_only: false,
    destructive: false,
    idempotent: false,
};

pub struct Tool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// The input schema, as JSON.
    pub schema: &'static str,
    pub effects: Effects,
    pub run: fn(&Ctx, Value) -> Result<Value, ToolError>,
    /// Whether `args` fit the arguments `run` takes (a test holds every schema to it).
    pub accepts: fn(Value) -> Result<(), String>,
}

pub const TOOLS: &[Tool] = &[
    Tool {
        name: "search",
        title: "Search trail",
        description: "Ranked search of the session ledger, tool-call log, trajectory, NOTES.md and memory (code=true: the project tree). One line per hit; pass an id to timeline or get for more.",
        schema: r#"{"type":"object","properties":{"query":{"type":"string","description":"words, \"a phrase\", or a regex with regex=true"},"regex":{"type":"boolean"},"type":{"type":"string","description":"only these sources or kinds, comma-separated: stream, proof, trajectory, notes, memory, code, or a record type"},"since":{"type":"string","description":"RFC 3339 or YYYY-MM-DD"},"code":{"type":"boolean"},"limit":{"type":"integer","minimum":1,"maximum":50}},"required":["query"],"additionalProperties":false}"#,
        effects: READS,
        run: search,
        accepts: accepts::<SearchArgs>,
    },
    Tool {
        name: "timeline",
        title: "What surrounds a hit",
        description: "The records before and after a search hit's id in the ledger, or the lines around a PATH:LINE id.",
        schema: r#"{"type":"object","properties":{"id":{"type":"string"},"before":{"type":"integer","minimum":0,"maximum":20},"after":{"type":"integer","minimum":0,"maximum":20}},"required":["id"],"additionalProperties":false}"#,
        effects: READS,
        run: timeline,
        accepts: accepts::<TimelineArgs>,
    },
    Tool {
        name: "get",
        title: "Get records by id",
        description: "Whole records (or lines) for ids from search or timeline.",
        schema: r#"{"type":"object","properties":{"ids":{"type":"array","items":{"type":"string"},"maxItems":20}},"required":["ids"],"additionalProperties":false}"#,
        effects: READS,
        run: get,
        accepts: accepts::<GetArgs>,
    },
    Tool {
        name: "resume",
        title: "Resume",
        description: "The working state rebuilt from the ledger: threads, next steps, deferrals, facts. level 1 ≤100 tokens, 2 ≤500, 3 all.",
        schema: r#"{"type":"object","properties":{"level":{"type":"integer","minimum":1,"maximum":3},"proj":{"type":"string"}},"additionalProperties":false}"#,
        effects: READS,
        run: resume,
        accepts: accepts::<ResumeArgs>,
    },
    Tool {
        name: "decide",
        title: "Record a decision",
        description: "Record a decision (trajectory, ledger, NOTES.md). evidence: `quote` [${PROJECT_ROOT}/path:LINE], each checked; the answer says which verify.",
        schema: r#"{"type":"object","properties":{"title":{"type":"string"},"decision":{"type":"string"},"rationale":{"type":"string"},"evidence":{"type":"array","items":{"type":"string"}},"tests":{"type":"array","items":{"type":"string"},"description":"happy path, edge case, error"},"bead":{"type":"string"}},"required":["title","decision","rationale"],"additionalProperties":false}"#,
        effects: APPENDS,
        run: decide,
        accepts: accepts::<DecideArgs>,
    },
    Tool {
        name: "checkpoint",
        title: "Checkpoint before /clear",
        description: "Run the checks due before /clear (grounding, decision log, plan, handoff, identifiers, tests): each verdict with its remedy, journalled.",
        schema: r#"{"type":"object","properties":{"reasoning":{"type":"string","description":"where the reasoning stands, for NOTES.md"}},"additionalProperties":false}"#,
        effects: APPENDS,
        run: checkpoint,
        accepts: accepts::<CheckpointArgs>,
    },
    Tool {
        name: "show",
        title: "Show lines",
        description: "Lines of ${PROJECT_ROOT}/path:LINE or :START-END, numbered and redacted: retrieve code instead of keeping it in context. full_section: the enclosing function.",
        schema: r#"{"type":"object","properties":{"id":{"type":"string"},"full_section":{"type":"boolean"}},"required":["id"],"additionalProperties":false}"#,
        effects: READS,
        run: show,
        accepts: accepts::<ShowArgs>,
    },
    Tool {
        name: "remember",
        title: "Remember a note",
        description: "Append a note (redacted) to today's daily memory and the ledger (synced to the person's other machines); returns its source.",
        schema: r#"{"type":"object","properties":{"note":{"type":"string"}},"required":["note"],"additionalProperties":false}"#,
        effects: APPENDS,
        run: remember,
        accepts: accepts::<RememberArgs>,
    },
    Tool {
        name: "recall",
        title: "Recall from memory",
        description: "Lines of core and daily memory matching the query, then what the person's other machines recorded for this project, each with its source.",
        schema: r#"{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer","minimum":1,"maximum":50}},"required":["query"],"additionalProperties":false}"#,
        effects: READS,
        run: recall,
        accepts: accepts::<RecallArgs>,
    },
    Tool {
        name: "blame",
        title: "Blame a line or a commit",
        description: "Which session, prompt, tool call and approval produced a line or a commit (agent, person or unknown), each note checked.",
        schema: r#"{"type":"object","properties":{"target":{"type":"string","description":"FILE, FILE:LINE or a commit"}},"required":["target"],"additionalProperties":false}"#,
        effects: READS,
        run: blame,
        accepts: accepts::<BlameArgs>,
    },
    Tool {
        name: "status",
        title: "Status",
        description: "Mode, objective, plan, the pending junction (only the person decides it), grants and what the hooks observed.",
        schema: r#"{"type":"object","properties":{},"additionalProperties":false}"#,
        effects: READS,
        run: status,
        accepts: accepts::<StatusArgs>,
    },
];

/// The tool called `name`.
pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.name == name)
}

fn args<T: DeserializeOwned>(v: Value) -> Result<T, ToolError> {
    let v = if v.is_null() {
        Value::Object(Map::new())
    } else {
        v
    };
    serde_json::from_value(v).map_err(|e| ToolError::Args(e.to_string()))
}

fn accepts<T: DeserializeOwned>(v: Value) -> Result<(), String> {
    args::<T>(v).map(drop).map_err(|e| e.to_string())
}

/// `n`, or `default` when absent, within `1..=max` (or `0..=max`).
fn bounded(
    n: Option<u64>,
    default: u64,
    min: u64,
    max: u64,
    name: &str,
) -> Result<usize, ToolError> {
    let n = n.unwrap_or(default);
    if n < min || n > max {
        return Err(ToolError::Args(format!(
            "`{name}` is {n}; it goes from {min} to {max}"
        )));
    }
    Ok(n as usize)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    query: String,
    #[serde(default)]
    regex: bool,
    #[serde(rename = "type")]
    kind: Option<String>,
    since: Option<String>,
    #[serde(default)]
    code: bool,
    limit: Option<u64>,
}

fn search(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let a: SearchArgs = args(v)?;
    let since = a
        .since
        .as_deref()
        .map(|s| Ts::parse_loose(s).map_err(|e| ToolError::Args(format!("since: {e}"))))
        .transpose()?;
    let request = Request {
        query: a.query.clone(),
        mode: if a.regex { Mode::Regex } else { Mode::Lexical },
        filters: Filters {
            since,
            until: None,
            types: a
                .kind
                .iter()
                .flat_map(|t| t.split(','))
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
                .collect(),
            proj: None,
        },
        limit: bounded(a.limit, 10, 1, 50, "limit")?,
        code: a.code,
    };
    // As `trail search` does, pivot and all; a journal that cannot be written does not fail
    // the search.
    let session = host::session_from_env();
    let results = trail_core::lookup::search(ctx, &request, true, session.as_deref())?.results;
    let hits: Vec<Value> = results
        .hits
        .iter()
        .map(|h| {
            let source = match &h.kind {
                Some(k) => format!("{}/{k}", h.source.as_str()),
                None => h.source.as_str().to_string(),
            };
            let mut hit =
                json!({ "id": h.id, "source": source, "text": one_line(&h.snippet, 200) });
            // A record's id is its time already.
            if let Some(t) = h.time.as_ref().filter(|t| **t != h.id) {
                hit["time"] = Value::String(t.clone());
            }
            hit
        })
        .collect();
    let mut out = json!({ "hits": hits, "total": results.total });
    if let Some(why) = results.fallback {
        out["note"] = Value::String(why);
    }
    if !results.skipped.is_empty() {
        out["skipped"] = serde_json::to_value(&results.skipped).unwrap_or(Value::Null);
    }
    Ok(out)
}

/// `s` on one line, at most `max` characters.
fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let mut cut: String = flat.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimelineArgs {
    id: String,
    before: Option<u64>,
    after: Option<u64>,
}

fn timeline(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let a: TimelineArgs = args(v)?;
    let before = bounded(a.before, 3, 0, 20, "before")?;
    let after = bounded(a.after, 3, 0, 20, "after")?;
    match Id::parse(&a.id)? {
        Id::Record(ts) => {
            let around = ctx
                .ledger
                .around_any(ts, before, after)?
                .ok_or_else(|| RetrieveError::NoRecord { id: a.id.clone() })?;
            let line = |f: &Found, at: bool| {
                let mut v = record_line(f);
                if at {
                    v["hit"] = Value::Bool(true);
                }
                v
            };
            let records: Vec<Value> = around
                .before
                .iter()
                .map(|f| line(f, false))
                .chain(std::iter::once(line(&around.record, true)))
                .chain(around.after.iter().map(|f| line(f, false)))
                .collect();
            Ok(json!({ "id": a.id, "records": records }))
        }
        Id::Lines(target) => {
            let l = retrieve::lines(&ctx.zones()?, &target, before as u32, after as u32)?;
            Ok(json!({
                "id": a.id,
                "file": l.file,
                "first": l.first,
                "lines": l.text,
                "total": l.total,
            }))
        }
    }
}

/// A record in one line: id, type, focus and what it says.
fn record_line(f: &Found) -> Value {
    let r = &f.record;
    let text = r
        .intent
        .as_ref()
        .map(|i| i.summary.clone())
        .filter(|s| !s.is_empty())
        .or_else(|| r.next.first().map(|n| format!("next: {n}")))
        .or_else(|| r.facts().first().cloned())
        .unwrap_or_default();
    json!({
        "id": r.ts.to_string(),
        "type": r.kind.as_str(),
        "focus": r.focus.iter().map(|f| f.label()).collect::<Vec<_>>().join(", "),
        "text": one_line(&text, 160),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GetArgs {
    ids: Vec<String>,
}

fn get(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let a: GetArgs = args(v)?;
    if a.ids.is_empty() || a.ids.len() > 20 {
        return Err(ToolError::Args(format!(
            "`ids` holds {}; give 1 to 20",
            a.ids.len()
        )));
    }
    // One bad id does not cost the others: each item says what it found.
    let items: Vec<Value> = a
        .ids
        .iter()
        .map(|id| match get_one(ctx, id) {
            Ok(v) => v,
            Err(e) => json!({ "id": id, "error": e.to_string() }),
        })
        .collect();
    Ok(json!({ "items": items }))
}

fn get_one(ctx: &Ctx, id: &str) -> Result<Value, ToolError> {
    match Id::parse(id)? {
        Id::Record(ts) => {
            let around = ctx
                .ledger
                .around_any(ts, 0, 0)?
                .ok_or_else(|| RetrieveError::NoRecord { id: id.into() })?;
            let mut record = serde_json::to_value(&around.record.record)
                .map_err(|e| ToolError::Io(std::io::Error::other(e)))?;
            if let Value::Object(m) = &mut record {
                // The chain's link means nothing to a reader; the seal's check does.
                m.remove("prev");
                m.insert("sealed".into(), Value::Bool(around.record.sealed));
                m.insert(
                    "facts".into(),
                    serde_json::to_value(around.record.record.facts()).unwrap_or_default(),
                );
            }
            Ok(json!({ "id": id, "record": record }))
        }
        Id::Lines(target) => {
            let l = retrieve::lines(&ctx.zones()?, &target, 0, 0)?;
            Ok(json!({
                "id": id,
                "file": l.file,
                "first": l.first,
                "lines": l.text,
                "cut": l.cut,
            }))
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResumeArgs {
    level: Option<u64>,
    proj: Option<String>,
}

fn resume(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let a: ResumeArgs = args(v)?;
    let n = bounded(a.level, 2, 1, 3, "level")?;
    let text = resume_text(ctx, n as u8, a.proj)?;
    Ok(json!({
        "level": n,
        "tokens": rehydrate::estimate_tokens(&text),
        "text": text,
    }))
}

/// `trail resume`'s text ([`trail_core::resume`]): the brief, then with `proj` that project's
/// threads, else this project's threads first and the others a line each.
pub(crate) fn resume_text(ctx: &Ctx, level: u8, proj: Option<String>) -> Result<String, ToolError> {
    let done = trail_core::resume::resume(
        ctx,
        &trail_core::resume::Request {
            level: Level::from_number(level).unwrap_or(Level::Standard),
            proj,
            query: None,
            tangents: false,
        },
    )?;
    Ok(done.text)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecideArgs {
    title: String,
    decision: String,
    rationale: String,
    #[serde(default)]
    evidence: Vec<String>,
    #[serde(default)]
    tests: Vec<String>,
    bead: Option<String>,
}

/// `trail decide`: the same record, its citations checked as it is made.
fn decide(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let a: DecideArgs = args(v)?;
    let done = decision::decide(
        &ctx.ws,
        decision::Request {
            title: a.title,
            decision: a.decision,
            rationale: a.rationale,
            evidence: a.evidence,
            tests: a.tests,
            bead: a.bead,
        },
    )?;
    to_json(&done)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckpointArgs {
    reasoning: Option<String>,
}

/// `trail checkpoint`: the checks run and journalled; the verdict is in the answer (a blocked
/// or failed checkpoint is a result the model reads, not a failed call).
fn checkpoint(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let a: CheckpointArgs = args(v)?;
    let (report, policy) = checkpoint::in_workspace(&ctx.ws, a.reasoning)?;
    to_json(&checkpoint::words::answer(&report, &policy))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShowArgs {
    id: String,
    #[serde(default)]
    full_section: bool,
}

/// `trail show`: confined to the project, the gate's zones refused, redacted (here by the
/// bare redactor, as everything this server returns: the file still holds what is hidden).
fn show(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let a: ShowArgs = args(v)?;
    let mut places = ctx.zones()?;
    places.project_root = ctx.citation_root();
    let shown = show::show(&places, &a.id, a.full_section, ctx.redactor()?)?;
    to_json(&shown)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BlameArgs {
    target: String,
}

/// `trail blame`, without writing pending notes.
fn blame(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let a: BlameArgs = args(v)?;
    let target = trail_core::blame::Target::parse(&ctx.root, &a.target);
    let b = trail_core::blame::blame(
        &ctx.root,
        &ctx.config.secrets_dir.value,
        &ctx.ledger,
        &target,
        false,
    )
    .map_err(|e| match e {
        trail_core::blame::BlameError::Ledger(e) => ToolError::Ledger(e),
        other => ToolError::Args(other.to_string()),
    })?;
    to_json(&b)
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<Value, ToolError> {
    serde_json::to_value(v).map_err(|e| ToolError::Io(std::io::Error::other(e)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RememberArgs {
    note: String,
}

fn remember(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let a: RememberArgs = args(v)?;
    if a.note.trim().is_empty() {
        return Err(ToolError::Args("`note` is empty".into()));
    }
    let source = trail_core::lookup::remember(ctx, &a.note)?;
    Ok(json!({ "source": source }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecallArgs {
    query: String,
    limit: Option<u64>,
}

fn recall(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let a: RecallArgs = args(v)?;
    let limit = bounded(a.limit, 10, 1, 50, "limit")?;
    let hits = trail_core::lookup::recall(ctx, &a.query, limit)?;
    let hits: Vec<Value> = hits
        .iter()
        .map(|h| json!({ "source": h.source, "text": h.text }))
        .collect();
    Ok(json!({ "hits": hits }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StatusArgs {}

fn status(ctx: &Ctx, v: Value) -> Result<Value, ToolError> {
    let _: StatusArgs = args(v)?;
    crate::status::gather(ctx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_none_decides_a_junction() {
        let mut names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), TOOLS.len());
        for t in TOOLS {
            for word in [
                "approve", "dismiss", "skip", "allow", "grant", "mode", "trust",
            ] {
                assert!(!t.name.contains(word), "{} names {word}", t.name);
            }
        }
    }

    #[test]
    fn one_line_flattens_and_cuts() {
        assert_eq!(one_line("a\n  b\tc", 10), "a b c");
        assert_eq!(one_line("abcdefghij", 5), "abcd…");
    }
}
