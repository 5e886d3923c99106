//! PreToolUse: asks the core's [`Guard`] what the tool call may do and answers the host in its
//! own words. No policy lives here.

use serde_json::Value;
use trail_core::confine::{self, bwrap, shell};
use trail_core::host::render::Response;
use trail_core::host::{Tool, ToolInput};
use trail_core::ledger::record::RecordType;
use trail_core::state::schema::Junction;
use trail_core::zones::Places;
use trail_guard::{self as guard, Guard, Outcome};

use super::Cx;

pub(super) fn handle(cx: &Cx<'_>, tool: &Tool, input: &ToolInput, sent: &Value) -> Response {
    // Decided once: the gate relaxes what the OS will hold, and the rewrite makes it hold.
    let confining = confining(cx, tool);
    let response = judged(cx, tool, input, confining);
    if confining {
        confined(cx, sent, response)
    } else {
        response
    }
}

/// A shell command the guard lets run, rewritten to run confined by the OS
/// (`trail_core::confine`): what the gate's judgement missed, the confinement still stops.
fn confined(cx: &Cx<'_>, sent: &Value, response: Response) -> Response {
    let context = match &response {
        Response::Silent => None,
        Response::Context { text, .. } => Some(text.clone()),
        _ => return response,
    };
    let Some(command) = sent.get("command").and_then(Value::as_str) else {
        return response;
    };
    let Ok(trail) = std::env::current_exe() else {
        return Response::Deny {
            reason: "trail cannot name its own binary to confine this command, so it is \
                     refused; tell the user to run `trail doctor`"
                .into(),
        };
    };
    let mut input = sent.clone();
    input["command"] = Value::String(shell::rewrite(&trail, cx.root(), command));
    Response::Rewrite { input, context }
}

/// Whether this call's command will run confined: a shell tool, and bubblewrap to run it
/// (or `confine.mode = "require"`, under which `trail confine` refuses rather than run it
/// unconfined).
fn confining(cx: &Cx<'_>, tool: &Tool) -> bool {
    let mode = cx.config.confine_mode.value;
    matches!(tool, Tool::Bash | Tool::Monitor)
        && match mode {
            confine::Mode::Off => false,
            confine::Mode::Require => true,
            confine::Mode::Auto => bwrap::find().is_some(),
        }
}

/// The guard's verdict on the call, in the host's terms.
fn judged(cx: &Cx<'_>, tool: &Tool, input: &ToolInput, confining: bool) -> Response {
    let Some(places) = places(cx) else {
        return respond(cx, guard::judge_unplaced(input));
    };
    // Whatever a junction keeps is redacted, and the originals go to the secret store. The
    // service is built on first use (an allowed command never needs it); a user rule that does
    // not compile is reported once and must not switch the built-in rules off, and a junction
    // is recorded even when an original cannot be kept (it says so).
    let redact = |text: &str| -> String {
        cx.secrets()
            .redact_anyway(text, &mut |e| super::report::error(&e))
            .into_owned()
    };
    let store = cx.store();
    let strict_now = || trail_core::grounding::strict_at(cx.config, cx.root());
    let mut guard = Guard::new(&store, places, cx.config.gate_rules(), &redact);
    guard.strict_now = Some(&strict_now);
    guard.ctx.trusted_installers = cx.config.trusted_installers();
    guard.ctx.confined = confining;
    if tool.edits_files() {
        // The attention budget's hold (FR-4) is this session's, and never covers NOTES.md.
        guard.session_file.clone_from(&cx.envelope.transcript_path);
        guard.notes = trail_core::workspace::notes_in(cx.config, cx.root())
            .ok()
            .map(|l| l.path);
    }
    let outcome = guard.judge(tool, input);
    record_stop(cx, tool, input, &outcome, &redact);
    respond(cx, outcome)
}

/// A call the gate stopped, kept in the pulse stream ([`guard::Stopped`]) so that `trail
/// report` can say what was stopped, per rule, beside the person's decisions. Only a stop
/// writes: an allowed call stays on the hot path.
fn record_stop(
    cx: &Cx<'_>,
    tool: &Tool,
    input: &ToolInput,
    outcome: &Outcome,
    redact: &dyn Fn(&str) -> String,
) {
    if let Some(s) = outcome.stopped(tool, input, redact) {
        let tags: Vec<&str> = s.tags.iter().map(String::as_str).collect();
        cx.pulse(RecordType::Checkpoint, &[s.fact], &[], &tags);
    }
}

/// The places a path is judged against: this project, this call's working directory, and
/// where trail keeps its personal records.
fn places(cx: &Cx<'_>) -> Option<Places> {
    let cwd = cx
        .envelope
        .cwd
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| cx.root().to_path_buf());
    let mut p = Places::from_env(cx.root().to_path_buf(), cwd)?;
    p.trail_home = Some(cx.config.home.value.clone());
    p.secrets_dir = Some(cx.config.secrets_dir.value.clone());
    Some(p)
}

/// The guard's outcome in the host's terms.
pub(crate) fn respond(cx: &Cx<'_>, outcome: Outcome) -> Response {
    match outcome {
        Outcome::Allow => Response::Silent,
        Outcome::Warn(text) => Response::Context {
            event: "PreToolUse",
            text,
        },
        Outcome::Granted { action, how, .. } => {
            cx.pulse(
                RecordType::Checkpoint,
                &[format!("ran under {how}: {action}")],
                &[],
                &["decision", "irreversible"],
            );
            Response::Silent
        }
        Outcome::Block { rule, reason } => Response::Deny {
            reason: blocked(&rule, &reason),
        },
        Outcome::Pending(j) => Response::Deny {
            reason: pending_reason(&j),
        },
        Outcome::Refuse(reason) => Response::Deny { reason },
        Outcome::Unrecorded {
            rule,
            reason,
            error,
        } => Response::Deny {
            reason: format!(
                "trail stopped this for a person's decision [{rule}]: {reason}. It cannot record the junction ({error}), so no approval is possible until that is fixed; tell the user."
            ),
        },
    }
}

/// The deny reason for a blocked call.
fn blocked(rule: &str, reason: &str) -> String {
    format!("trail blocked this [{rule}]: {reason}. It will not run, whoever approves.")
}

/// The deny reason for a pending junction: what was stopped, why, and the person's options.
pub fn pending_reason(j: &Junction) -> String {
    let dismiss = if j.dismiss_fingerprint.is_some() {
        format!(
            "`/edge dismiss` (stops asking about [{}] on the same target for 60 minutes), ",
            j.rule.as_deref().unwrap_or("gate")
        )
    } else {
        String::new()
    };
    format!(
        "trail stopped this for a person's decision [{rule}]: {reason}. Junction {id} is pending. \
Do not retry or work around it. Tell the user what you want to run and why, and ask them to decide: \
they type `/edge approve` (runs this exact action once), {dismiss}or `/edge skip` (drop it) as their next prompt, \
or run `trail approve` in their own terminal. Retry only after they approved.",
        rule = j.rule.as_deref().unwrap_or("gate"),
        reason = j.reason,
        id = j.id,
    )
}
