//! "Before `/clear`" made real on the host (Lossless Ledger FR-2):
//!
//! - PreCompact, strict enforcement: compaction is held (the host's block) while decisions
//!   stand without a passing checkpoint after them. Claude Code 2.1.328 honours a PreCompact
//!   hook's exit 2 (its `blockedBy`, shown to the person as "Compaction blocked by PreCompact
//!   hook"), for `/compact` and for auto-compaction, except the reactive compaction it runs
//!   when a request cannot go out at all: that one proceeds despite the block, so a session is
//!   never wedged. The block ends as soon as `trail checkpoint` passes; under warn or disabled
//!   enforcement nothing is held.
//! - SessionStart after `/clear` with such decisions: a `checkpoint` entry with verdict
//!   `missing` goes to the trajectory, and the context says which decisions were left
//!   unverified and what to run.
//!
//! Both read the trajectory only when they need to (a PreCompact outside strict mode reads
//! nothing), and a trajectory that cannot be read holds nothing (the person is told on stderr).

use trail_core::checkpoint::{Gap, since_last_decision};
use trail_core::host::SessionSource;
use trail_core::host::render::Response;
use trail_core::time::Ts;
use trail_core::trajectory::{self, Body, Entry, SpanId, TraceId};

use super::{Cx, report};

/// PreCompact: the block, when strict enforcement holds compaction.
pub(super) fn before_compact(cx: &Cx<'_>) -> Option<Response> {
    if !trail_core::grounding::strict_at(cx.config, cx.root()) {
        return None;
    }
    let gap = match since_last_decision(cx.root()) {
        Ok(g) => g?,
        Err(e) => {
            report::error(&format_args!("{e}; compaction is not held"));
            return None;
        }
    };
    Some(Response::Veto {
        reason: format!(
            "trail holds compaction until a synthesis checkpoint passes (grounding enforcement \
             is strict): {} since the last one that passed, the latest \"{}\" ({}). Run `trail \
             checkpoint`, fix what it reports, then compact again. Setting grounding \
             enforcement to warn lets compaction through.",
            decisions(&gap),
            gap.last.title,
            gap.last.id
        ),
    })
}

/// SessionStart: after `/clear`, what was left without a checkpoint, journalled and said.
pub(super) fn after_clear(cx: &Cx<'_>, source: &SessionSource) -> Option<String> {
    if *source != SessionSource::Clear {
        return None;
    }
    let gap = match since_last_decision(cx.root()) {
        Ok(g) => g?,
        Err(e) => {
            report::error(&format_args!("{e}"));
            return None;
        }
    };
    note_missing(cx, &gap);
    // The trajectory holds it redacted already; redacted again, as everything injected is.
    let title = cx
        .secrets()
        .redact_anyway(&gap.last.title, &mut |e| report::error(&e))
        .into_owned();
    Some(format!(
        "trail: /clear came after {} with no synthesis checkpoint since (the latest \"{}\", {}, \
         at {}). They are in the journals and in NOTES.md's Decision Log, but their citations \
         and test scenarios were not checked before the context was cleared: run `trail \
         checkpoint` now and fix what it reports before building on them.",
        decisions(&gap),
        trail_core::text::one_line(&title, 120),
        gap.last.id,
        gap.last.ts
    ))
}

fn decisions(gap: &Gap) -> String {
    match gap.decisions {
        1 => "1 decision".into(),
        n => format!("{n} decisions"),
    }
}

/// The trajectory's record of a `/clear` without a checkpoint.
fn note_missing(cx: &Cx<'_>, gap: &Gap) {
    let session = cx.envelope.session_id.as_deref();
    let entry = Entry {
        ts: Ts::now(),
        body: Body::Checkpoint(trajectory::Checkpoint {
            verdict: "missing".into(),
            steps: vec![trajectory::Step {
                name: "before_clear".into(),
                verdict: "missing".into(),
                remedy: Some(format!(
                    "{} since the last passing checkpoint; run trail checkpoint",
                    decisions(gap)
                )),
            }],
            reasoning: None,
        }),
        session_id: session.map(str::to_string),
        trace_id: session.map_or_else(TraceId::random, TraceId::for_session),
        span_id: SpanId::random(),
        parent_span_id: session.map(SpanId::root_of_session),
    };
    if let Err(e) = trajectory::journal::append(cx.root(), &entry, cx.secrets()) {
        report::failed("cannot write the trajectory", &e);
    }
}
