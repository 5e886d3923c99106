//! The resources: what a client can attach to a conversation by name. Each is read fresh; the
//! server redacts what they return (`server.rs`), like every other output.

use serde_json::Value;
use trail_core::fsutil;
use trail_core::time::Local;

use crate::context::Ctx;
use crate::error::ToolError;

/// A fixed resource.
pub struct Fixed {
    pub uri: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub mime: &'static str,
    pub read: fn(&Ctx) -> Result<String, ToolError>,
}

pub const FIXED: &[Fixed] = &[
    Fixed {
        uri: "trail://resume",
        name: "resume",
        description: "Where the work stands, rebuilt from the ledger (resume level 2)",
        mime: "text/markdown",
        read: |ctx| crate::tools::resume_text(ctx, 2, None),
    },
    Fixed {
        uri: "trail://notes",
        name: "notes",
        description: "The project's NOTES.md",
        mime: "text/markdown",
        read: notes,
    },
    Fixed {
        uri: "trail://memory",
        name: "memory",
        description: "Core memory (.trail/MEMORY.md) and today's daily memory",
        mime: "text/markdown",
        read: memory,
    },
    Fixed {
        uri: "trail://report",
        name: "report",
        description: "What the agents did (trail report): sessions, hours, commands, failures, \
                      what the gate stopped per rule with the person's decisions, decisions and \
                      their grounding; per session its counts, no events",
        mime: "application/json",
        read: report,
    },
];

/// One session's record: `trail://session/{id}`.
pub const SESSION_PREFIX: &str = "trail://session/";
pub const SESSION_TEMPLATE: &str = "trail://session/{id}";

/// How many recent sessions `resources/list` names.
pub const RECENT_SESSIONS: usize = 10;

/// What `uri` names: its text and its MIME type. `None` for a URI that names no resource.
pub fn read(ctx: &Ctx, uri: &str) -> Option<Result<(String, &'static str), ToolError>> {
    if let Some(f) = FIXED.iter().find(|f| f.uri == uri) {
        return Some((f.read)(ctx).map(|t| (t, f.mime)));
    }
    let id = uri.strip_prefix(SESSION_PREFIX)?;
    if id.is_empty() || id.len() > 200 {
        return None;
    }
    Some(crate::session::read(ctx, id).map(|v: Value| (v.to_string(), "application/json")))
}

/// A project file's text, or what stands in for a missing one.
fn project_text(ctx: &Ctx, path: &std::path::Path) -> Result<Option<String>, ToolError> {
    match fsutil::read_string_in(&ctx.root, path, fsutil::MAX_PROJECT_FILE) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.into()),
    }
}

fn notes(ctx: &Ctx) -> Result<String, ToolError> {
    let path = ctx.layout().notes();
    Ok(project_text(ctx, &path)?.unwrap_or_else(|| "(this project has no NOTES.md)\n".into()))
}

/// As `trail memory show` prints it.
fn memory(ctx: &Ctx) -> Result<String, ToolError> {
    let layout = ctx.layout();
    let mut s = project_text(ctx, &layout.core_memory())?.unwrap_or_else(|| {
        "(no core memory yet: .trail/MEMORY.md is written by `trail dream`)\n".into()
    });
    let (today, _) = Local::now().day_and_minute();
    let daily = layout.memory_dir().join(format!("{today}.md"));
    if let Some(t) = project_text(ctx, &daily)? {
        s.push('\n');
        s.push_str(&t);
    }
    Ok(s)
}

/// `trail report --json`'s summary: every count, each session's counts and span, the gate's
/// stops and the decisions, without the events (a client asks `trail://session/{id}` for one).
fn report(ctx: &Ctx) -> Result<String, ToolError> {
    let opts = trail_core::report::Options {
        events: 0,
        zones: trail_core::attention::Zones::configured(&ctx.config)
            .unwrap_or(trail_core::attention::Zones::DEFAULT),
        ..trail_core::report::Options::default()
    };
    let mut r = trail_core::report::gather(ctx, &opts).map_err(|e| match e {
        trail_core::report::ReportError::Ledger(e) => ToolError::Ledger(e),
        trail_core::report::ReportError::Secrets(e) => ToolError::Secrets(e),
    })?;
    for p in &mut r.projects {
        for s in &mut p.sessions {
            s.fill.clear();
        }
    }
    serde_json::to_string(&r).map_err(|e| ToolError::Io(std::io::Error::other(e)))
}
