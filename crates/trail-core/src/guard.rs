//! What a tool call may do, decided before it runs (Operator's Edge §3, §4).
//!
//! The PreToolUse hook of every host and `trail demo` ask the same [`Guard`] and only turn its
//! [`Outcome`] into words. A shell command goes through the gate; a junction meets the person's
//! grants; a file edit is judged by where it really lands (symlinks followed) and, for the
//! files trail cares about, by what it would change.
//!
//! Every text a junction carries (the action, the reason, the target class) is redacted
//! first: it is stored in trail's records, shown to the person and sent to the model. The
//! redaction is deterministic, so a retried action has the same fingerprint.

use std::path::Path;

use serde_json::Value;

use crate::gate::zones::{self, Zone};
use crate::gate::{self, Place, Places, Verdict, custom::UserRule};
use crate::host::Tool;
use crate::state::grants::Subject;
use crate::state::protocol::{self, Met};
use crate::state::schema::Junction;
use crate::state::{self, Mode, StateError, Store};
use crate::time::Ts;

/// The guard's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Nothing to say: the call runs (the host's own permission rules still apply).
    Allow,
    /// The call runs, with a warning for the agent.
    Warn(String),
    /// The call runs under a person's decision (`how` says which).
    Granted {
        rule: String,
        action: String,
        how: String,
    },
    /// The call never runs, whoever approves.
    Block { rule: String, reason: String },
    /// The call waits for a person: this junction is pending.
    Pending(Box<Junction>),
    /// The edit is refused (it would break trail's state file); the agent can fix and retry.
    Refuse(String),
    /// A person must decide, but the junction could not be recorded (so no approval is
    /// possible until the error is fixed).
    Unrecorded {
        rule: String,
        reason: String,
        error: String,
    },
}

/// Redaction of the texts a junction keeps (the caller stores the originals).
pub type Redact<'a> = &'a dyn Fn(&str) -> String;

/// One project's guard.
pub struct Guard<'a> {
    pub store: &'a Store,
    pub ctx: gate::Context,
    pub redact: Redact<'a>,
}

/// Rules whose targets are never covered by a dismissal.
const SENSITIVE_RULES: &[&str] = &[
    "agent-settings",
    "secret-store",
    "trail-home",
    "state-tamper",
    "trail-key",
];

impl Guard<'_> {
    /// A new guard over `places` with the configured extra gate rules.
    pub fn new<'a>(
        store: &'a Store,
        places: Places,
        rules: Vec<UserRule>,
        redact: Redact<'a>,
    ) -> Guard<'a> {
        let mut ctx = gate::Context::new(places);
        ctx.extra = rules;
        Guard { store, ctx, redact }
    }

    fn places(&self) -> &Places {
        &self.ctx.places
    }

    /// A shell command (`tool` names the host's tool: Bash, shell, Monitor…).
    pub fn command(&self, tool: &str, command: &str) -> Outcome {
        self.decided(tool, command, gate::evaluate(command, &self.ctx))
    }

    /// A PowerShell command (Claude Code's `PowerShell` tool), judged by the same families.
    pub fn powershell(&self, command: &str) -> Outcome {
        self.decided(
            "PowerShell",
            command,
            gate::powershell::evaluate(command, &self.ctx),
        )
    }

    fn decided(&self, tool: &str, command: &str, d: gate::Decision) -> Outcome {
        let rule = d.rule.clone().unwrap_or_else(|| "gate".into());
        match d.verdict {
            Verdict::Allow => Outcome::Allow,
            Verdict::Block => Outcome::Block {
                rule,
                reason: (self.redact)(&d.reason),
            },
            Verdict::Junction => {
                let (scope, mut sensitive) = self.places().target_class(&d.targets);
                if SENSITIVE_RULES.contains(&rule.as_str()) {
                    sensitive = sensitive.or(Some("trail's own records or the agent's settings"));
                }
                self.junction(Subject {
                    kind: gate::rules::kind_of(&rule).as_str().into(),
                    reason: (self.redact)(&d.reason),
                    rule,
                    tool: tool.into(),
                    action: (self.redact)(command.trim()),
                    scope: (self.redact)(&scope),
                    sensitive: sensitive.map(String::from),
                })
            }
        }
    }

    /// Any other tool: its input may not carry a person's decision for later delivery. A
    /// `ScheduleWakeup` or `CronCreate` whose prompt is `/edge approve` comes back to the hook as
    /// a prompt no field marks as the agent's own (found with Claude Code 2.1.328).
    pub fn other(&self, input: &Value) -> Outcome {
        if carries_decision(input, 0) {
            return Outcome::Block {
                rule: "self-approval".into(),
                reason: "this tool call carries an `/edge` decision to be delivered as a prompt later; approvals are typed by a person, never scheduled or sent by the agent".into(),
            };
        }
        Outcome::Allow
    }

    /// A risky action: through on a person's allowance or dismissal, else the pending junction.
    pub fn junction(&self, subject: Subject) -> Outcome {
        match protocol::meet(self.store, &subject, Ts::now()) {
            Ok(Met::Allowed { allowance }) => Outcome::Granted {
                rule: subject.rule,
                action: subject.action,
                how: format!("a person's one-time approval ({allowance})"),
            },
            Ok(Met::Dismissed { until }) => Outcome::Granted {
                rule: subject.rule.clone(),
                action: subject.action,
                how: format!("a person's dismissal of [{}] (until {until})", subject.rule),
            },
            Ok(Met::Pending { junction }) => Outcome::Pending(junction),
            Err(e) => Outcome::Unrecorded {
                rule: subject.rule,
                reason: subject.reason,
                error: (self.redact)(&e.to_string()),
            },
        }
    }

    /// A file edit (Edit, MultiEdit, Write, NotebookEdit, apply_patch): judged by where each
    /// file really lands and, for trail's files and the hosts' settings, by what changes.
    pub fn edit(&self, tool: &Tool, input: &Value) -> Outcome {
        let targets: Vec<String> = match (tool, input.get("command").and_then(Value::as_str)) {
            (Tool::ApplyPatch, Some(patch)) => crate::host::codex::patch_paths(patch),
            _ => ["file_path", "notebook_path", "path"]
                .iter()
                .find_map(|k| input.get(*k).and_then(Value::as_str))
                .map(|p| vec![p.to_string()])
                .unwrap_or_default(),
        };
        let tool_name = tool_name(tool);
        let mut outside: Option<(String, Option<&'static str>)> = None;
        let mut settings: Option<String> = None;
        for raw in &targets {
            let Some(lexical) = self.places().resolve(raw) else {
                outside.get_or_insert((raw.clone(), Some("a path only the shell can resolve")));
                continue;
            };
            let real = zones::real(&lexical);
            let zone = self.places().zone(&real).or(self.places().zone(&lexical));
            match zone {
                Some(Zone::Key) => {
                    return Outcome::Block {
                        rule: "trail-key".into(),
                        reason: "the person's key proves an approval came from a person: the agent may not change it".into(),
                    };
                }
                Some(Zone::TrailState) => {
                    return Outcome::Block {
                        rule: "state-tamper".into(),
                        reason: ".trail/state holds trail's grants journal, pending junction and hashes; they are not the agent's to change".into(),
                    };
                }
                Some(Zone::StateView) if real == lexical => {
                    if let Some(o) = self.state_edit(tool, input, raw) {
                        return o;
                    }
                }
                Some(Zone::AgentSettings) => {
                    if let Some(o) = hooks_off(tool, input, &real, raw) {
                        return o;
                    }
                    settings.get_or_insert(real.to_string_lossy().into_owned());
                }
                Some(Zone::SecretStore | Zone::TrailHome) => {
                    outside.get_or_insert((
                        real.to_string_lossy().into_owned(),
                        Some("trail's own records"),
                    ));
                }
                _ => {
                    let place = self.places().classify(&real.to_string_lossy());
                    if matches!(
                        place,
                        Place::Outside | Place::Home | Place::System | Place::Root | Place::Unknown
                    ) {
                        outside.get_or_insert((
                            real.to_string_lossy().into_owned(),
                            self.places().sensitive(&real),
                        ));
                    }
                }
            }
        }
        if let Some(path) = settings {
            return self.junction(Subject {
                kind: "irreversible".into(),
                reason: "this edit changes trail's configuration or the agent host's hook settings, which decide whether trail runs".into(),
                rule: "agent-settings".into(),
                tool: tool_name,
                action: (self.redact)(&path),
                scope: (self.redact)(&path),
                sensitive: Some("the agent's or trail's settings".into()),
            });
        }
        if let Some((path, sensitive)) = outside {
            let scope = Path::new(&path)
                .parent()
                .map_or(path.clone(), |p| p.to_string_lossy().into_owned());
            return self.junction(Subject {
                kind: "irreversible".into(),
                reason: "this edit writes outside the project".into(),
                rule: "write-outside-project".into(),
                tool: tool_name,
                action: (self.redact)(&path),
                scope: (self.redact)(&scope),
                sensitive: sensitive.map(String::from),
            });
        }
        self.mode_warning()
    }

    /// §3: in active mode an edit without a plan is allowed, with a warning.
    fn mode_warning(&self) -> Outcome {
        let Ok(l) = self.store.load() else {
            return Outcome::Allow;
        };
        if l.exists && l.state.mode() == Some(Mode::Active) && l.state.plan.is_empty() {
            return Outcome::Warn("trail: warning: active mode has no plan. Add steps to `plan:` in active_context.yaml (or go back to planning with /edge plan).".into());
        }
        Outcome::Allow
    }

    /// The agent may edit the objective and the plan; never grants, the pending junction, or
    /// anything that would leave the file unreadable or invalid.
    fn state_edit(&self, tool: &Tool, input: &Value, raw: &str) -> Option<Outcome> {
        let path = self.store.path();
        let current = crate::fsutil::read_string_in(self.store.project_root(), &path, STATE_CAP)
            .unwrap_or_default();
        let proposed = match tool {
            Tool::ApplyPatch => {
                let patch = input.get("command")?.as_str()?;
                apply_patch_to(&current, patch, raw)?
            }
            _ => proposed_text(tool, input, &current)?,
        };
        let before = state::parse(&path, current.as_bytes()).unwrap_or_default();
        let after = match state::parse(&path, proposed.as_bytes()) {
            Ok(s) => s,
            Err(StateError::Parse { message, .. }) => {
                return Some(Outcome::Refuse(format!(
                    "trail refused this edit: it would leave active_context.yaml unreadable ({message}). Keep it valid YAML."
                )));
            }
            Err(_) => return None,
        };
        let added = protocol::grants_added(&before, &after);
        if !added.is_empty() {
            return Some(Outcome::Block {
                rule: "self-approval".into(),
                reason: format!(
                    "it would grant {} — approvals are a person's act (`/edge approve` or `trail approve`), never the agent's",
                    added.join(", ")
                ),
            });
        }
        if before.junction != after.junction {
            return Some(Outcome::Block {
                rule: "state-tamper".into(),
                reason: "the pending junction in active_context.yaml is trail's record of what the person decides on; the agent may not change it".into(),
            });
        }
        let problems: Vec<String> = after
            .problems()
            .into_iter()
            .filter(|p| !p.contains("schema_version") || before.is_v4())
            .collect();
        if !problems.is_empty() {
            return Some(Outcome::Refuse(format!(
                "trail refused this edit: active_context.yaml would break its rules: {}",
                problems.join("; ")
            )));
        }
        None
    }
}

/// The state file is small; a larger one is not read into the hook.
const STATE_CAP: u64 = 4 << 20;

/// An edit of the hosts' settings that would switch trail off: `disableAllHooks`, or fewer of
/// trail's hook commands than before. Blocked, not asked: a person who wants trail off runs
/// `trail uninstall`.
fn hooks_off(tool: &Tool, input: &Value, real: &Path, raw: &str) -> Option<Outcome> {
    let current = crate::fsutil::read_text_capped(real, STATE_CAP).unwrap_or_default();
    let proposed = match tool {
        Tool::ApplyPatch => {
            let patch = input.get("command")?.as_str()?;
            apply_patch_to(&current, patch, raw).unwrap_or_default()
        }
        _ => proposed_text(tool, input, &current)?,
    };
    let count = |t: &str| t.matches("trail hook").count();
    let disables = serde_json::from_str::<Value>(&proposed)
        .ok()
        .and_then(|v| v.get("disableAllHooks").and_then(Value::as_bool))
        == Some(true);
    (disables || count(&proposed) < count(&current)).then(|| Outcome::Block {
        rule: "hooks-off".into(),
        reason: "this edit would switch trail's hooks off; a person who wants that runs `trail uninstall`".into(),
    })
}

/// The file as it would be after an Edit, MultiEdit or Write, or `None` when the edit cannot
/// apply (the tool itself will then fail, and nothing changes).
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

/// The host's name for a tool, as a person reads it in a junction.
fn tool_name(t: &Tool) -> String {
    match t {
        Tool::Bash => "Bash".into(),
        Tool::Edit => "Edit".into(),
        Tool::MultiEdit => "MultiEdit".into(),
        Tool::Write => "Write".into(),
        Tool::NotebookEdit => "NotebookEdit".into(),
        Tool::ApplyPatch => "apply_patch".into(),
        Tool::Read => "Read".into(),
        Tool::Mcp { server, tool } => format!("mcp__{server}__{tool}"),
        Tool::Other(n) => n.clone(),
    }
}

/// `current` after the sections of a Codex patch for `file`: an added file is its `+` lines;
/// an update replaces each hunk's old lines (context and `-`) by its new ones (context and
/// `+`). `None` when a hunk does not apply (Codex will refuse the patch too).
fn apply_patch_to(current: &str, patch: &str, file: &str) -> Option<String> {
    let mut text = current.to_string();
    let mut section: Option<&str> = None;
    let mut hunk: (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    let flush = |text: &mut String, hunk: &mut (Vec<&str>, Vec<&str>)| -> Option<()> {
        if hunk.0.is_empty() && hunk.1.is_empty() {
            return Some(());
        }
        let old = hunk.0.join("\n");
        let new = hunk.1.join("\n");
        if old.is_empty() {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&new);
            text.push('\n');
        } else {
            let at = text.find(&old)?;
            text.replace_range(at..at + old.len(), &new);
        }
        hunk.0.clear();
        hunk.1.clear();
        Some(())
    };
    for line in patch.lines() {
        if let Some(rest) = line.strip_prefix("*** ") {
            flush(&mut text, &mut hunk)?;
            section = rest
                .split_once(": ")
                .filter(|(_, p)| p.trim() == file)
                .map(|(kind, _)| kind);
            if section == Some("Add File") {
                text.clear();
            }
            continue;
        }
        if section.is_none() {
            continue;
        }
        if line.starts_with("@@") {
            flush(&mut text, &mut hunk)?;
        } else if let Some(l) = line.strip_prefix('+') {
            hunk.1.push(l);
        } else if let Some(l) = line.strip_prefix('-') {
            hunk.0.push(l);
        } else {
            let l = line.strip_prefix(' ').unwrap_or(line);
            hunk.0.push(l);
            hunk.1.push(l);
        }
    }
    flush(&mut text, &mut hunk)?;
    Some(text)
}

/// Whether any text in a tool's input is an `/edge` decision (approve, dismiss, skip).
fn carries_decision(v: &Value, depth: usize) -> bool {
    match v {
        Value::String(s) => is_edge_decision(s),
        Value::Array(a) if depth < 16 => a.iter().any(|x| carries_decision(x, depth + 1)),
        Value::Object(m) if depth < 16 => m.values().any(|x| carries_decision(x, depth + 1)),
        _ => false,
    }
}

/// `/edge approve|dismiss|skip …` at the start of a text (as a prompt would be read).
pub fn is_edge_decision(text: &str) -> bool {
    let Some(rest) = text.trim_start().strip_prefix("/edge") else {
        return false;
    };
    let verb = rest.split_whitespace().next().unwrap_or("");
    rest.starts_with(char::is_whitespace) && matches!(verb, "approve" | "dismiss" | "skip")
}
