//! PreToolUse: the gate for shell commands, the guard on file edits, junctions met by a
//! person's allowances and dismissals, and the mode's warnings (§3).

use serde_json::Value;
use trail_core::gate::{self, Place, Places, Verdict};
use trail_core::host::Tool;
use trail_core::host::render::Response;
use trail_core::ledger::record::RecordType;
use trail_core::state::grants::{Subject, kind_of_rule};
use trail_core::state::protocol::{self, Met};
use trail_core::state::schema::Junction;
use trail_core::state::{self, Mode, StateError, Store};
use trail_core::time::Ts;

use super::Cx;

pub(super) fn handle(cx: &Cx<'_>, tool: &Tool, input: &Value) -> Response {
    match tool {
        Tool::Bash => {
            let Some(command) = input.get("command").and_then(|c| c.as_str()) else {
                return Response::Deny {
                    reason: "trail could not find the command in this Bash call, so it is refused to be safe".into(),
                };
            };
            bash(cx, command)
        }
        t if t.edits_files() => edit(cx, t, input),
        _ => Response::Silent,
    }
}

fn places(cx: &Cx<'_>) -> Option<Places> {
    let cwd = cx
        .envelope
        .cwd
        .clone()
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| cx.root().to_path_buf());
    Places::from_env(cx.root().to_path_buf(), cwd)
}

const NO_HOME: &str =
    "HOME is not set, so trail cannot judge paths; the command is refused to be safe";

fn bash(cx: &Cx<'_>, command: &str) -> Response {
    let Some(places) = places(cx) else {
        return Response::Deny {
            reason: NO_HOME.into(),
        };
    };
    let mut ctx = gate::Context::new(places);
    ctx.extra = cx.config.gate_rules();
    let d = gate::evaluate(command, &ctx);
    let rule = d.rule.clone().unwrap_or_else(|| "gate".into());
    match d.verdict {
        Verdict::Allow => Response::Silent,
        Verdict::Block => Response::Deny {
            reason: format!(
                "trail blocked this command [{rule}]: {}. It will not run, whoever approves.",
                d.reason
            ),
        },
        Verdict::Junction => junction(
            cx,
            Subject {
                kind: kind_of_rule(&rule),
                reason: d.reason.clone(),
                rule,
                tool: "Bash".into(),
                action: command.trim().to_string(),
            },
        ),
    }
}

/// A risky action: let it through on a person's allowance or dismissal, else make it the
/// pending junction and tell the agent exactly what the person must do.
fn junction(cx: &Cx<'_>, subject: Subject) -> Response {
    let store = cx.store();
    match protocol::meet(&store, &subject, Ts::now()) {
        Ok(Met::Allowed { allowance }) => {
            cx.pulse(
                RecordType::Checkpoint,
                &[format!(
                    "ran under a person's one-time approval ({allowance}): {}",
                    subject.action
                )],
                &[],
                &["decision", "irreversible"],
            );
            Response::Silent
        }
        Ok(Met::Dismissed { until }) => {
            cx.pulse(
                RecordType::Checkpoint,
                &[format!(
                    "ran under a person's dismissal of [{}] (until {until}): {}",
                    subject.rule, subject.action
                )],
                &[],
                &["decision", "irreversible"],
            );
            Response::Silent
        }
        Ok(Met::Pending { junction }) => Response::Deny {
            reason: pending_reason(&junction),
        },
        Err(e) => Response::Deny {
            reason: format!(
                "trail stopped this for a person's decision [{}]: {}. It cannot record the junction ({e}), so no approval is possible until that is fixed; tell the user.",
                subject.rule, subject.reason
            ),
        },
    }
}

/// The deny reason for a pending junction: what was stopped, why, and the person's options.
pub(crate) fn pending_reason(j: &Junction) -> String {
    format!(
        "trail stopped this for a person's decision [{rule}]: {reason}. Junction {id} is pending. \
Do not retry or work around it. Tell the user what you want to run and why, and ask them to decide: \
they type `/edge approve` (runs this exact action once), `/edge dismiss` (stops asking about [{rule}] for 60 minutes) \
or `/edge skip` (drop it) as their next prompt, or run `trail approve` in their own terminal. \
Retry only after they approved.",
        rule = j.rule.as_deref().unwrap_or("gate"),
        reason = j.reason,
        id = j.id,
    )
}

fn edit(cx: &Cx<'_>, tool: &Tool, input: &Value) -> Response {
    // Codex names its files inside the patch; the other tools in a path field.
    let targets: Vec<String> = match (tool, input.get("command").and_then(Value::as_str)) {
        (Tool::ApplyPatch, Some(patch)) => trail_core::host::codex::patch_paths(patch),
        _ => ["file_path", "notebook_path", "path"]
            .iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str))
            .map(|p| vec![p.to_string()])
            .unwrap_or_default(),
    };
    if targets.is_empty() {
        return Response::Silent;
    }
    let Some(places) = places(cx) else {
        return Response::Deny {
            reason: NO_HOME.into(),
        };
    };
    let root = cx.root();
    let store = cx.store();
    let mut outside = None;
    for raw in &targets {
        let Some(path) = places.resolve(raw) else {
            outside.get_or_insert_with(|| raw.clone());
            continue;
        };
        if path.starts_with(root.join(".trail").join("state")) {
            return Response::Deny {
                reason: "trail blocked this edit [state-tamper]: .trail/state holds trail's grants journal and hashes; they are not the agent's to change. It will not run, whoever approves.".into(),
            };
        }
        if path == store.path() {
            let deny = match tool {
                Tool::ApplyPatch => patch_grants(input, raw),
                _ => state_edit(&store, tool, input),
            };
            if let Some(deny) = deny {
                return deny;
            }
        } else if matches!(
            places.classify(raw),
            Place::Outside | Place::Home | Place::System | Place::Root | Place::Unknown
        ) {
            outside.get_or_insert_with(|| path.to_string_lossy().into_owned());
        }
    }
    if let Some(action) = outside {
        return junction(
            cx,
            Subject {
                kind: "irreversible",
                reason: "this edit writes outside the project".into(),
                rule: "write-outside-project".into(),
                tool: format!("{tool:?}"),
                action,
            },
        );
    }
    mode_warning(&store)
}

/// A patch cannot be applied here without Codex's rules, so its added lines are judged: any
/// that would write a grant's fields into the state file is refused.
fn patch_grants(input: &Value, file: &str) -> Option<Response> {
    let patch = input.get("command")?.as_str()?;
    let grants = trail_core::host::codex::added_lines(patch, file)
        .into_iter()
        .any(|l| {
            [
                "fingerprint",
                "consumed",
                "expires_at",
                "allowances",
                "dismissals",
            ]
            .iter()
            .any(|k| l.contains(k))
        });
    grants.then(|| Response::Deny {
        reason: "trail blocked this edit [self-approval]: the patch writes allowances or dismissals into active_context.yaml — approvals are a person's act (`/edge approve` or `trail approve`), never the agent's. It will not run, whoever approves.".into(),
    })
}

/// §3: in active mode an edit without a plan is allowed, with a warning.
fn mode_warning(store: &Store) -> Response {
    let Ok(l) = store.load() else {
        return Response::Silent;
    };
    if l.exists && l.state.mode() == Some(Mode::Active) && l.state.plan.is_empty() {
        return Response::Context {
            event: "PreToolUse",
            text: "trail: warning: active mode has no plan. Add steps to `plan:` in active_context.yaml (or go back to planning with /edge plan).".into(),
        };
    }
    Response::Silent
}

/// The agent may edit the objective and the plan, never its own grants; and an edit that would
/// leave the file unreadable or invalid is refused before it breaks every later junction.
fn state_edit(store: &Store, tool: &Tool, input: &Value) -> Option<Response> {
    let path = store.path();
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    let proposed = proposed_text(tool, input, &current)?;
    let before = state::parse(&path, current.as_bytes()).unwrap_or_default();
    let after = match state::parse(&path, proposed.as_bytes()) {
        Ok(s) => s,
        Err(StateError::Parse { message, .. }) => {
            return Some(Response::Deny {
                reason: format!(
                    "trail refused this edit: it would leave active_context.yaml unreadable ({message}). Keep it valid YAML."
                ),
            });
        }
        Err(_) => return None,
    };
    let added = protocol::grants_added(&before, &after);
    if !added.is_empty() {
        return Some(Response::Deny {
            reason: format!(
                "trail blocked this edit [self-approval]: it would grant {} — approvals are a person's act (`/edge approve` or `trail approve`), never the agent's. It will not run, whoever approves.",
                added.join(", ")
            ),
        });
    }
    let problems: Vec<String> = after
        .problems()
        .into_iter()
        .filter(|p| !p.contains("schema_version") || before.is_v4())
        .collect();
    if !problems.is_empty() {
        return Some(Response::Deny {
            reason: format!(
                "trail refused this edit: active_context.yaml would break its rules: {}",
                problems.join("; ")
            ),
        });
    }
    None
}

/// The file as it would be after the edit, or `None` when the edit cannot apply (the tool
/// itself will then fail, and nothing changes).
fn proposed_text(tool: &Tool, input: &Value, current: &str) -> Option<String> {
    let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(String::from);
    match tool {
        Tool::Write => s(input, "content"),
        Tool::Edit => apply(current, input),
        Tool::MultiEdit => {
            let mut text = current.to_string();
            for e in input.get("edits")?.as_array()? {
                text = apply(&text, e)?;
            }
            Some(text)
        }
        _ => None,
    }
}

fn apply(text: &str, edit: &Value) -> Option<String> {
    let old = edit.get("old_string")?.as_str()?;
    let new = edit.get("new_string")?.as_str()?;
    if old.is_empty() || !text.contains(old) {
        return None;
    }
    if edit.get("replace_all").and_then(Value::as_bool) == Some(true) {
        Some(text.replace(old, new))
    } else {
        Some(text.replacen(old, new, 1))
    }
}
