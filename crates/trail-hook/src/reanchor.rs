//! SessionStart after `/clear`, a compaction or a resume: the re-anchor packet (issue 12 item
//! 13, [`trail_core::reanchor`]), and PostCompact's summary journalled.
//!
//! The packet is read from the journals and the host's transcript, redacted, fitted to
//! `context.reanchor_tokens`, and given once per context: a resumed conversation (which still
//! holds what it was given) gets only the parts that changed, and the chain's journal
//! (`.trail/state/reanchor/`) records what went in. Each source that cannot be read leaves its
//! part out and says why on stderr; the packet is never the reason a session fails to start.

use trail_core::decision::recent;
use trail_core::host::SessionSource;
use trail_core::ledger::rehydrate::Level;
use trail_core::ledger::scope::Scoped;
use trail_core::reanchor::{self, Sources, given, said, standing};
use trail_core::time::Ts;

use super::{Cx, report};

/// How many of the last decisions, prompts and tool calls the packet names.
const DECISIONS: usize = 5;
const PROMPTS: usize = 3;
const CALLS: usize = 5;

/// What SessionStart read of the Operator's Edge state, for the packet.
pub(super) struct Edge<'a> {
    pub mode: Option<&'a str>,
    pub junction: Option<&'a str>,
}

/// Whether this start gives a packet: after a clear, a compaction or a resume (a fork is a
/// resume to the host), unless `context.reanchor_tokens` is 0.
pub(super) fn wanted(cx: &Cx<'_>, source: &SessionSource) -> bool {
    matches!(
        source,
        SessionSource::Clear | SessionSource::Compact | SessionSource::Resume
    ) && cx.config.context_reanchor_tokens.value > 0
}

/// The packet, or the line saying this conversation holds it already.
pub(super) fn packet(
    cx: &Cx<'_>,
    source: &SessionSource,
    edge: &Edge<'_>,
    scoped: Option<&Scoped>,
    memory: &[String],
) -> Option<String> {
    let root = cx.root();
    let project = cx.project();
    let state = cx.store().load().ok().filter(|l| l.exists).map(|l| l.state);
    let notes = trail_core::notes::active_of(cx.config, root);
    // The threads are a part of their own, framed as the agent's words: the state part says
    // only what the state file and NOTES.md say.
    let brief = trail_core::recovery::brief(state.as_ref(), &notes, None, &[]);
    let decisions = match recent::recent(
        &cx.ledger(),
        Some(&project),
        DECISIONS,
        cx.config.max_records.value as usize,
    ) {
        Ok(d) => d,
        Err(e) => {
            report::failed("cannot read the last decisions", &e);
            Vec::new()
        }
    };
    let standings =
        standing::recheck(root, decisions.iter().map(|c| &c.decision)).unwrap_or_else(|e| {
            report::failed("cannot check the decisions' citations", &e);
            Vec::new()
        });
    let mut forks: Vec<trail_core::fork::Fork> = state
        .as_ref()
        .and_then(|s| trail_core::fork::active_context(&notes, s))
        .into_iter()
        .collect();
    forks.extend(trail_core::fork::drifted(&standings));
    let said = conversation(cx, source);
    let thread = scoped.map(|s| {
        s.render(
            Level::Standard,
            cx.config.resume_other_projects.value as usize,
        )
    });
    let thread_title = format!(
        "this project's ({}) working state from the pulse stream, other projects a line each; \
         pulses tagged trail-hook were observed by trail's hooks, the others",
        project.name
    );
    let mut packet = reanchor::assemble(&Sources {
        mode: edge.mode,
        brief: Some(&brief),
        junction: edge.junction.map(str::to_string),
        decisions: &standings,
        notes: Some(&notes),
        said: said.as_ref(),
        thread: thread
            .as_deref()
            .filter(|t| !t.trim().is_empty())
            .map(|t| (thread_title.as_str(), t)),
        memory,
        // A drifted citation is said on its decision's line; the forks part holds the rest.
        forks: &forks
            .iter()
            .filter(|f| f.kind != trail_core::fork::Kind::Citation)
            .cloned()
            .collect::<Vec<_>>(),
    });
    // Nothing reaches the agent unredacted: without every rule working, no packet.
    if let Err(e) = cx.secrets().pass(|p| packet.redact(p)) {
        report::failed("re-anchor packet not given", &e);
        return None;
    }
    let given = give(cx, source, packet)?;
    // Journalled when said (on the forks part or the decisions' lines): once per context, as
    // the packet is.
    if (given.parts.contains(&"forks") || given.parts.contains(&"decisions"))
        && let Err(e) = trail_core::fork::log(
            cx.root(),
            &forks,
            cx.envelope.session_id.as_deref(),
            cx.secrets(),
        )
    {
        report::failed("cannot journal the forks", &e);
    }
    Some(given.text)
}

/// What [`give`] gave: the text, and the parts in it whole.
struct Given {
    text: String,
    parts: Vec<&'static str>,
}

/// The packet fitted and given (the parts this context holds already left out), journalled.
fn give(cx: &Cx<'_>, source: &SessionSource, packet: reanchor::Packet) -> Option<Given> {
    let session = cx.envelope.session_id.as_deref().unwrap_or("unknown");
    // A compaction or a clear empties the context: what it was given before is gone.
    let window = matches!(source, SessionSource::Clear | SessionSource::Compact);
    let known = if window {
        given::Window::default()
    } else {
        given::in_window(cx.root(), session).unwrap_or_else(|e| {
            report::failed("cannot read which packets this session was given", &e);
            given::Window::default()
        })
    };
    let (packet, unchanged) = packet.without(&known.parts);
    let after = source_words(source);
    if packet.is_empty() {
        return (!unchanged.is_empty()).then(|| Given {
            text: format!(
                "trail: re-anchor packet after {after}: unchanged since it was given{} ({}); \
                 this conversation holds it already. `trail resume --level 2` gives the state \
                 again.",
                known.last.map(|t| format!(" at {t}")).unwrap_or_default(),
                unchanged.join(", ")
            ),
            parts: Vec::new(),
        });
    }
    let mut head = format!(
        "trail: re-anchor packet after {after}: what the journals hold of this work, most \
         important first. The journals are the truth: where this disagrees with what you \
         remember, they win."
    );
    if !unchanged.is_empty() {
        head.push_str(&format!(
            " Unchanged since given in this conversation, left out: {}.",
            unchanged.join(", ")
        ));
    }
    let rendered = packet.render(&head, cx.config.context_reanchor_tokens.value as usize);
    let whole: Vec<&reanchor::Part> = packet
        .parts
        .iter()
        .filter(|p| !p.items.is_empty() && !rendered.cut.contains(&p.name))
        .collect();
    let record = given::Given {
        at: Ts::now().to_string(),
        source: after.into(),
        window,
        parts: whole
            .iter()
            .map(|p| (p.name.to_string(), p.hash()))
            .collect(),
    };
    if let Err(e) = given::record(cx.root(), session, &record) {
        report::failed("cannot journal the re-anchor packet", &e);
    }
    Some(Given {
        text: rendered.text.trim_end().to_string(),
        parts: whole.iter().map(|p| p.name).collect(),
    })
}

fn source_words(source: &SessionSource) -> &'static str {
    match source {
        SessionSource::Clear => "/clear",
        SessionSource::Compact => "compaction",
        SessionSource::Resume => "resume",
        _ => "session start",
    }
}

/// The end of the conversation: this session's transcript, or after `/clear` (a new, empty
/// transcript) the one that was cleared.
fn conversation(cx: &Cx<'_>, source: &SessionSource) -> Option<said::Said> {
    let path = cx.envelope.transcript_path.as_deref()?;
    let read = |p: &std::path::Path| match said::read(p, PROMPTS, CALLS) {
        Ok(s) => Some(s),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            report::error(&format_args!("cannot read {}: {e}", p.display()));
            None
        }
    };
    let here = read(path).filter(|s| !s.is_empty());
    if here.is_some() || *source != SessionSource::Clear {
        return here;
    }
    said::previous(path).and_then(|p| read(&p))
}

/// PostCompact: the summary the host wrote for the conversation, journalled in the pulse stream
/// (redacted, as every record is), so that what compaction kept can be read later beside what
/// the journals hold.
pub(super) fn compacted(cx: &Cx<'_>, trigger: &str, summary: Option<&str>) {
    let Some(summary) = summary else {
        return;
    };
    let mut r = trail_core::ledger::record::observed_record(
        &cx.project(),
        trail_core::ledger::record::RecordType::Checkpoint,
        &[format!(
            "context compacted ({trigger}); the host's summary ({} characters) is below",
            summary.chars().count()
        )],
        &[],
        &["compaction", "compact-summary"],
    );
    r.body.push_str(&trail_core::ledger::record::quoted_block(
        "compact-summary",
        &trail_core::text::clip(summary, SUMMARY_CHARS),
    ));
    if let Err(e) = cx.ledger().append(r) {
        report::failed("cannot journal the compact summary", &e);
    }
}

/// The most of a compact summary journalled.
const SUMMARY_CHARS: usize = 32 << 10;
