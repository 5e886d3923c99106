//! trail-guard: what a tool call may do, decided before it runs (Operator's Edge §3, §4).
//!
//! The PreToolUse hook of every host and `trail demo` ask the same question, [`Guard::judge`]
//! (or [`judge_unplaced`] when there is no HOME to judge paths against), on the call's typed
//! input, and only turn its [`Outcome`] into words. A shell command goes through the gate; a
//! junction meets the person's grants; a file edit is judged by where it really lands (symlinks
//! followed) and, for the files trail cares about, by what it would change; any other tool by
//! what its input carries.
//!
//! Every text a junction carries (the action, the reason, the target class) is redacted
//! first: it is stored in trail's records, shown to the person and sent to the model. The
//! redaction is deterministic, so a retried action has the same fingerprint.
//!
//! A crate above the library and the gate, so that the library does not depend on the gate:
//! editing a gate rule rebuilds the gate, this crate and the binaries, not trail-core.

use std::path::{Path, PathBuf};

use serde_json::Value;

// The library's modules and the gate, named as they were when this was trail-core's `guard`.
use trail_core::{attention, fsutil, host, install, layout, state, text, time};
use trail_gate as gate;

use crate::gate::zones::{self, Zone};
use crate::gate::{Place, Places, Verdict, custom::UserRule};
use crate::host::{Replace, Tool, ToolInput};
use crate::state::grants::Subject;
use crate::state::protocol::{self, Met};
use crate::state::schema::Junction;
use crate::state::{Mode, StateError, Store};
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
    /// The call is refused as it stands (an edit that would break trail's state file, a command
    /// trail cannot read); the agent can fix and retry.
    Refuse(String),
    /// A person must decide, but the junction could not be recorded (so no approval is
    /// possible until the error is fixed).
    Unrecorded {
        rule: String,
        reason: String,
        error: String,
    },
}

/// The tag of a stopped call's record that names the fingerprint a person's approval of it
/// carries (its first 16 hex digits).
pub const GRANT_TAG: &str = "grant:";

/// A call the gate stopped, as the pulse stream keeps it: one fact (`gate blocked [rule]
/// Bash: rm -rf ~`) and its tags (`gate`, the verdict, `rule:<id>`, `kind:<kind>`, and
/// `junction:<id>` and [`GRANT_TAG`] for a pending junction). `trail report` reads them back, per rule, beside the
/// person's decisions. `None` for a call that runs.
pub struct Stopped {
    pub fact: String,
    pub tags: Vec<String>,
}

impl Outcome {
    /// What to record of this outcome for `tool` given `input`, its action redacted by
    /// `redact` (see [`Stopped`]).
    pub fn stopped(&self, tool: &Tool, input: &ToolInput, redact: Redact<'_>) -> Option<Stopped> {
        let (verdict, rule, junction) = match self {
            Outcome::Block { rule, .. } => ("blocked", rule.as_str(), None),
            Outcome::Pending(j) => ("junction", j.rule.as_deref().unwrap_or("gate"), Some(j)),
            Outcome::Unrecorded { rule, .. } => ("junction", rule.as_str(), None),
            Outcome::Refuse(_) => ("refused", "refused", None),
            Outcome::Allow | Outcome::Warn(_) | Outcome::Granted { .. } => return None,
        };
        let action = match input {
            ToolInput::Bash { command: Some(c) }
            | ToolInput::Monitor { command: Some(c) }
            | ToolInput::PowerShell { command: Some(c) } => c.trim().to_string(),
            _ => input.files().join(", "),
        };
        let action = redact(text::head(&action, 300)).replace(['\n', '\r'], " ");
        let mut tags = vec![
            "gate".to_string(),
            verdict.to_string(),
            format!("rule:{rule}"),
            // A refusal is about how the call was written, not a kind of harm.
            format!(
                "kind:{}",
                if verdict == "refused" {
                    "refused"
                } else {
                    gate::rules::kind_of(rule).as_str()
                }
            ),
        ];
        if let Some(j) = junction {
            tags.push(format!("junction:{}", j.id));
            // What the person's approval names in the grants journal: the report joins them.
            tags.push(format!("{GRANT_TAG}{}", text::head(&j.fingerprint, 16)));
        }
        Some(Stopped {
            fact: format!("gate {verdict} [{rule}] {tool}: {action}"),
            tags,
        })
    }
}

/// Redaction of the texts a junction keeps (the caller stores the originals).
pub type Redact<'a> = &'a dyn Fn(&str) -> String;

/// One project's guard.
pub struct Guard<'a> {
    pub store: &'a Store,
    pub ctx: gate::Context,
    pub redact: Redact<'a>,
    /// The session file (transcript or rollout) of the session asking: whose attention budget
    /// can hold its edits (`None`: nothing is held).
    pub session_file: Option<PathBuf>,
    /// NOTES.md where this project keeps it: a checkpoint may need it edited, so the attention
    /// budget's hold never covers it.
    pub notes: Option<PathBuf>,
    /// Whether grounding enforcement is strict now. A hold was saved with the enforcement of
    /// its measure; asked only when one stands, so that setting enforcement to warn lets edits
    /// through at once, as the hold's message says (`None`: the saved enforcement stands).
    pub strict_now: Option<&'a dyn Fn() -> bool>,
}

/// Rules whose targets are never covered by a dismissal.
const SENSITIVE_RULES: &[&str] = &[
    "agent-settings",
    "secret-store",
    "trail-home",
    "state-tamper",
    "journal-tamper",
    "memory-tamper",
    "trail-key",
    "git-internals",
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
        Guard {
            store,
            ctx,
            redact,
            session_file: None,
            notes: None,
            strict_now: None,
        }
    }

    fn places(&self) -> &Places {
        &self.ctx.places
    }

    /// What `tool` may do with `input`: the question every PreToolUse asks.
    pub fn judge(&self, tool: &Tool, input: &ToolInput) -> Outcome {
        match input {
            ToolInput::Bash { command } | ToolInput::Monitor { command } => match command {
                Some(c) => self.command(&tool.name(), c),
                None => unreadable_command(),
            },
            ToolInput::PowerShell { command } => match command {
                Some(c) => self.powershell(c),
                None => unreadable_command(),
            },
            ToolInput::ApplyPatch { patch } => match unreadable_patch(patch.as_deref()) {
                Some(refused) => refused,
                None => self.edit(tool, input),
            },
            ToolInput::Edit { .. }
            | ToolInput::MultiEdit { .. }
            | ToolInput::Write { .. }
            | ToolInput::NotebookEdit { .. } => self.edit(tool, input),
            ToolInput::Read { .. } | ToolInput::Other(_) => match unscheduled(input) {
                Outcome::Allow => self.reads(tool, input),
                o => o,
            },
        }
    }

    /// A call that reads files (Read, Grep, Glob, LS, NotebookRead, an MCP tool naming a
    /// path): judged by the zones it reaches, as a shell command reading them is. A search
    /// reaches every zone beneath its directory: a Grep of `~` reads the key.
    fn reads(&self, tool: &Tool, input: &ToolInput) -> Outcome {
        let mut reached = Vec::new();
        let mut targets = Vec::new();
        for r in input.reaches(tool) {
            let mut zones = self.places().zones_of_word(r.path);
            if r.beneath
                && let Some(dir) = self.places().resolve(r.path)
            {
                zones.extend(self.places().zones_beneath(&dir, r.filter));
            }
            if !zones.is_empty() {
                targets.push(r.path.to_string());
            }
            for z in zones {
                if !reached.contains(&(z, zones::Access::Read)) {
                    reached.push((z, zones::Access::Read));
                }
            }
        }
        if reached.is_empty() {
            return Outcome::Allow;
        }
        let name = tool.name();
        let action = format!("{name} {}", targets.join(" "));
        let d = gate::evaluate_reach(&reached, &targets, &action, &self.ctx);
        self.decided(&name, &action, d)
    }

    /// A shell command (`tool` names the host's tool: Bash, Monitor).
    fn command(&self, tool: &str, command: &str) -> Outcome {
        let d = gate::evaluate(command, &self.ctx);
        if d.verdict != Verdict::Block
            && let Some(h) = self.shell_edit_hold(command)
        {
            return Outcome::Refuse(held(&h, self.redact));
        }
        self.decided(tool, command, d)
    }

    /// FR-4 for the shell: at a strict red budget, a command that edits the project's files
    /// (`sed -i`, `> file`, `cp`, `git apply`: [`gate::edits`]) is held as an Edit is. Writes
    /// to NOTES.md, the state view and git-ignored output are not: the checkpoint may need the
    /// first two, and builds write the last. The hold's file is read only for a command that
    /// edits, and git is asked only when a hold is in force.
    fn shell_edit_hold(&self, command: &str) -> Option<crate::attention::Hold> {
        let edits = gate::edits::project_edits(command, &self.ctx);
        if edits.is_empty() {
            return None;
        }
        let h = self.attention_hold()?;
        let root = &self.places().project_root;
        let view = crate::layout::Layout::new(root).state_view();
        edits
            .iter()
            .any(|p| {
                let real = zones::real(p);
                real != view
                    && self.notes.as_deref() != Some(&*real)
                    && (p == root || !(self.ctx.ignored)(self.places(), p))
            })
            .then_some(h)
    }

    /// A PowerShell command (Claude Code's `PowerShell` tool), judged by the same families.
    fn powershell(&self, command: &str) -> Outcome {
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
    fn edit(&self, tool: &Tool, input: &ToolInput) -> Outcome {
        let tool_name = tool.name().into_owned();
        let mut outside: Option<(String, Option<&'static str>)> = None;
        let mut settings: Option<String> = None;
        let mut memory: Option<String> = None;
        let mut git: Option<String> = None;
        let files = input.files();
        // Whether every file lies where a synthesis checkpoint may need an edit.
        let mut synthesis = !files.is_empty();
        for raw in files {
            let Some(lexical) = self.places().resolve(raw) else {
                outside.get_or_insert((raw.into(), Some("a path only the shell can resolve")));
                synthesis = false;
                continue;
            };
            let real = zones::real(&lexical);
            let zone = self.places().zone(&real).or(self.places().zone(&lexical));
            // Reached directly: not through a symlink, not even a dangling one (`real` cannot
            // follow those, and a write through one creates its target).
            synthesis &= real == lexical
                && !std::fs::symlink_metadata(&lexical).is_ok_and(|m| m.file_type().is_symlink())
                && (zone == Some(Zone::StateView) || self.notes.as_deref() == Some(&*real));
            if let Some(block) = zone.and_then(never_edited) {
                return block;
            }
            match zone {
                Some(Zone::Memory) => {
                    memory.get_or_insert(real.to_string_lossy().into_owned());
                }
                Some(Zone::StateView) if real == lexical => {
                    if let Some(o) = self.state_edit(input, raw) {
                        return o;
                    }
                }
                Some(Zone::AgentSettings) => {
                    if let Some(o) = hooks_off(input, &real, raw) {
                        return o;
                    }
                    settings.get_or_insert(real.to_string_lossy().into_owned());
                }
                Some(Zone::GitInternals) => {
                    git.get_or_insert(real.to_string_lossy().into_owned());
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
        if !synthesis && let Some(h) = self.attention_hold() {
            return Outcome::Refuse(held(&h, self.redact));
        }
        let change = Change {
            tool: tool_name,
            text: input.change(),
        };
        if let Some(path) = settings {
            let why = "the agent's or trail's settings";
            return self.edit_junction(&change, "agent-settings", &path, &path, Some(why));
        }
        if let Some(path) = git {
            let why = "git's own configuration (it names commands git runs)";
            return self.edit_junction(&change, "git-internals", &path, &path, Some(why));
        }
        if let Some(path) = memory {
            let why = "trail's memory";
            return self.edit_junction(&change, "memory-tamper", &path, &path, Some(why));
        }
        if let Some((path, sensitive)) = outside {
            let scope = Path::new(&path)
                .parent()
                .map_or(path.clone(), |p| p.to_string_lossy().into_owned());
            let rule = "write-outside-project";
            return self.edit_junction(&change, rule, &path, &scope, sensitive);
        }
        self.mode_warning()
    }

    /// The junction of an edit of `path` under `rule` ([`EDIT_RULES`] says why), its
    /// dismissals scoped to `scope`; `sensitive` says why no dismissal covers it.
    ///
    /// Its action is the path, the change as the person reads it (redacted, shortened), and
    /// the hash of the whole change: the allowance's fingerprint covers that exact change, so
    /// approving a harmless edit of a file lets no other edit of it run.
    fn edit_junction(
        &self,
        change: &Change,
        rule: &'static str,
        path: &str,
        scope: &str,
        sensitive: Option<&str>,
    ) -> Outcome {
        let reason = EDIT_RULES
            .iter()
            .find(|(r, _)| *r == rule)
            .map_or("", |(_, why)| why);
        let action = match &change.text {
            Some(text) => format!(
                "{path}\n{}\n(change sha256:{})",
                shown(text),
                &crate::text::sha256_hex(text.as_bytes())[..16]
            ),
            None => format!("{path}\n(a change trail cannot read)"),
        };
        self.junction(Subject {
            kind: "irreversible".into(),
            reason: reason.into(),
            rule: rule.into(),
            tool: change.tool.clone(),
            action: (self.redact)(&action),
            scope: (self.redact)(scope),
            sensitive: sensitive.map(String::from),
        })
    }

    /// FR-4: a red attention budget under strict enforcement holds new edits until a
    /// checkpoint passes. Reads, commands, `trail checkpoint` and the files a checkpoint asks
    /// to be brought up to date (NOTES.md, the state view) are never held: a hold the
    /// checkpoint could not get past would trap the session.
    fn attention_hold(&self) -> Option<crate::attention::Hold> {
        crate::attention::hold(self.store.project_root(), self.session_file.as_deref())
            .filter(|_| self.strict_now.is_none_or(|strict| strict()))
    }

    /// §2, §3: an edit runs in every mode, with a warning in active mode without a plan, and
    /// in review mode, which verifies finished work: there the warning also names the proof
    /// done still lacks.
    fn mode_warning(&self) -> Outcome {
        let Ok(l) = self.store.load() else {
            return Outcome::Allow;
        };
        if !l.exists {
            return Outcome::Allow;
        }
        match l.state.mode() {
            Some(Mode::Active) if l.state.plan.is_empty() => Outcome::Warn("trail: warning: active mode has no plan. Add steps to `plan:` in active_context.yaml (or go back to planning with /edge plan).".into()),
            Some(Mode::Review) => Outcome::Warn(self.review_warning(&l.state)),
            _ => Outcome::Allow,
        }
    }

    fn review_warning(&self, state: &state::State) -> String {
        let mut text = "trail: warning: review mode is for verifying finished work, and this edit changes it. Say in your review what it fixes (or go back to building with /edge active), then run the tests again so the proof log shows the change works.".to_string();
        match protocol::proof_missing(self.store, state) {
            Ok(missing) if missing.is_empty() => {}
            Ok(missing) => text.push_str(&format!(
                " Still missing before /edge done: {}.",
                missing.join("; ")
            )),
            Err(e) => text.push_str(&format!(
                " (trail could not read the proof log to say what is still missing: {})",
                (self.redact)(&e.to_string())
            )),
        }
        text
    }

    /// The agent may edit the objective and the plan; never grants, the pending junction, or
    /// anything that would leave the file unreadable or invalid.
    fn state_edit(&self, input: &ToolInput, raw: &str) -> Option<Outcome> {
        let path = self.store.path();
        let current = crate::fsutil::read_string_in(self.store.project_root(), &path, STATE_CAP)
            .unwrap_or_default();
        let proposed = match input {
            ToolInput::ApplyPatch { patch } => apply_patch_to(&current, patch.as_deref()?, raw)?,
            _ => proposed_text(input, &current)?,
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
            .iter()
            .filter(|p| !p.is_schema_version() || before.is_v4())
            .map(ToString::to_string)
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

/// An edit tool's call: its name and the whole change it makes.
struct Change {
    tool: String,
    text: Option<String>,
}

/// A change as a person reads it in a junction: its first lines, each shortened, and how much
/// more there is.
fn shown(text: &str) -> String {
    const LINES: usize = 12;
    const WIDTH: usize = 160;
    let mut out: Vec<String> = text
        .lines()
        .take(LINES)
        .map(|l| match l.char_indices().nth(WIDTH) {
            Some((i, _)) => format!("{}…", &l[..i]),
            None => l.to_string(),
        })
        .collect();
    let more = text.lines().count().saturating_sub(LINES);
    if more > 0 {
        out.push(format!("… ({more} more lines)"));
    }
    out.join("\n")
}

/// The rules an edit tool's junction is raised under, and why.
const EDIT_RULES: &[(&str, &str)] = &[
    (
        "agent-settings",
        "this edit changes trail's configuration or the agent host's hook settings, which decide whether trail runs",
    ),
    (
        "git-internals",
        "this edit changes git's own configuration (.git/config, .git/hooks), which names programs git runs (fsmonitor, hooks, filters, pagers): a person decides, as for the same change made in the shell",
    ),
    (
        "memory-tamper",
        "this edit changes trail's memory, which is distilled from what happened and verified against it: a line the agent writes would later read as a verified memory (`trail remember` records a note with its source)",
    ),
    (
        "write-outside-project",
        "this edit writes outside the project",
    ),
];

/// A Codex patch trail cannot read the way Codex will ([`parse_patch`]), or none at all: refused
/// rather than let through, since the files it writes cannot be known.
///
/// [`parse_patch`]: crate::host::codex::parse_patch
fn unreadable_patch(patch: Option<&str>) -> Option<Outcome> {
    let why = match patch.map(crate::host::codex::parse_patch) {
        Some(Ok(_)) => return None,
        Some(Err(why)) => why,
        None => "its patch is missing or not text".into(),
    };
    Some(Outcome::Refuse(format!(
        "trail refused this apply_patch: {why}. Send the patch in Codex's format (`*** Begin Patch`, a header per file, `*** End Patch`) so trail can see every file it writes."
    )))
}

/// The places no edit of the agent's may change, whoever approves.
fn never_edited(zone: Zone) -> Option<Outcome> {
    let (rule, reason) = match zone {
        Zone::Key => (
            "trail-key",
            "the person's key proves an approval came from a person: the agent may not change it",
        ),
        Zone::TrailState => (
            "state-tamper",
            ".trail/state holds trail's grants journal, pending junction and hashes; they are not the agent's to change",
        ),
        Zone::Journal => (
            "journal-tamper",
            "trail's journals (.trail/trajectory/, .proof/) are the evidence of what happened: an entry the agent writes would be a forged checkpoint or tool run. `trail decide` and `trail checkpoint` write the trajectory",
        ),
        _ => return None,
    };
    Some(Outcome::Block {
        rule: rule.into(),
        reason: reason.into(),
    })
}

/// The state file is small; a larger one is not read into the hook.
const STATE_CAP: u64 = 4 << 20;

/// An edit of the hosts' settings that would switch trail off: `disableAllHooks`, or fewer
/// events run by trail's hooks as `trail init` installs them than before. Blocked, not asked:
/// a person who wants trail off runs `trail uninstall`.
fn hooks_off(input: &ToolInput, real: &Path, raw: &str) -> Option<Outcome> {
    let current = crate::fsutil::read_text_capped(real, STATE_CAP).unwrap_or_default();
    let proposed = match input {
        // A patch that does not apply counts as emptying the file (Codex refuses it anyway).
        ToolInput::ApplyPatch { patch } => {
            apply_patch_to(&current, patch.as_deref()?, raw).unwrap_or_default()
        }
        _ => proposed_text(input, &current)?,
    };
    // trail's hooks counted by what they run, their matcher and their fail-closed switch: a
    // hook that keeps the text `trail hook` but runs something else is switched off.
    let host = crate::install::claude::host_of_file(real);
    let count = |t: &str| crate::install::claude::enforced_in(t, host);
    let disables = serde_json::from_str::<Value>(&proposed)
        .ok()
        .and_then(|v| v.get("disableAllHooks").and_then(Value::as_bool))
        == Some(true);
    (disables || count(&proposed) < count(&current)).then(|| Outcome::Block {
        rule: "hooks-off".into(),
        reason: "this edit would switch trail's hooks off or weaken them (a hook that does not run trail itself, a narrower matcher, PreToolUse no longer failing closed); a person who wants that runs `trail uninstall`".into(),
    })
}

/// The file as it would be after an Edit, MultiEdit or Write, or `None` when the edit cannot
/// apply (the tool itself will then fail, and nothing changes).
fn proposed_text(input: &ToolInput, current: &str) -> Option<String> {
    match input {
        ToolInput::Write { content, .. } => content.clone(),
        ToolInput::Edit { replace, .. } => apply(current, replace.as_ref()?),
        ToolInput::MultiEdit { edits, .. } => {
            let mut text = current.to_string();
            for e in edits.as_ref()? {
                text = apply(&text, e)?;
            }
            Some(text)
        }
        _ => None,
    }
}

fn apply(text: &str, edit: &Replace) -> Option<String> {
    let (old, new) = (edit.old.as_str(), edit.new.as_str());
    if old.is_empty() || !text.contains(old) {
        return None;
    }
    if edit.all {
        Some(text.replace(old, new))
    } else {
        Some(text.replacen(old, new, 1))
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

/// The answer when the places paths are judged against are unknown (HOME is not set): a call
/// that names no path is judged on its input alone, any other is refused.
pub fn judge_unplaced(input: &ToolInput) -> Outcome {
    match input {
        ToolInput::Bash { command: None }
        | ToolInput::Monitor { command: None }
        | ToolInput::PowerShell { command: None } => unreadable_command(),
        ToolInput::Read { .. } | ToolInput::Other(_) => unscheduled(input),
        _ => Outcome::Refuse(
            "HOME is not set, so trail cannot judge paths; the command is refused to be safe"
                .into(),
        ),
    }
}

/// A command tool whose command cannot be read: nothing can be judged, so it does not run.
/// Why an edit waits for a checkpoint, and how it stops waiting.
fn held(h: &crate::attention::Hold, redact: Redact<'_>) -> String {
    let since = match h.basis {
        crate::attention::Basis::SessionStart => "the session started",
        crate::attention::Basis::Checkpoint => "the last checkpoint",
        crate::attention::Basis::Compaction => "the last compaction",
    };
    let mut s = format!(
        "trail: the attention budget is red ({} tokens added to the context since {since}; red \
         since {}) and grounding enforcement is strict, so new edits wait until a synthesis \
         checkpoint passes. Start no new work: record your decisions (`trail decide`), run \
         `trail checkpoint` and fix what it reports (reads, NOTES.md, active_context.yaml and \
         the checkpoint itself are not held), then ask the user to /clear; trail gives the \
         state back after it. Setting grounding enforcement to warn lets edits through.",
        h.added, h.red_since
    );
    if let Some(e) = &h.unreadable {
        s.push_str(&format!(
            " The trajectory cannot be read ({}), so a checkpoint that passed cannot be seen.",
            redact(e)
        ));
    }
    s
}

fn unreadable_command() -> Outcome {
    Outcome::Refuse(
        "trail could not find the command in this shell tool call (it reads `command`, a \
         string), so it is refused to be safe: send the command line as one string"
            .into(),
    )
}

/// Any other tool: its input may not carry a person's decision for later delivery. A
/// `ScheduleWakeup` or `CronCreate` whose prompt is `/edge approve` comes back to the hook as a
/// prompt no field marks as the agent's own (found with Claude Code 2.1.328).
fn unscheduled(input: &ToolInput) -> Outcome {
    let carries = match input {
        ToolInput::Other(v) => carries_decision(v, 0),
        ToolInput::Read { path } => path
            .as_deref()
            .is_some_and(crate::gate::rules::is_edge_decision),
        _ => false,
    };
    if carries {
        return Outcome::Block {
            rule: "self-approval".into(),
            reason: "this tool call carries an `/edge` decision to be delivered as a prompt later; approvals are typed by a person, never scheduled or sent by the agent".into(),
        };
    }
    Outcome::Allow
}

/// Whether any text in a tool's input is an `/edge` decision (approve, dismiss, skip).
fn carries_decision(v: &Value, depth: usize) -> bool {
    match v {
        Value::String(s) => crate::gate::rules::is_edge_decision(s),
        Value::Array(a) if depth < 16 => a.iter().any(|x| carries_decision(x, depth + 1)),
        Value::Object(m) if depth < 16 => m.values().any(|x| carries_decision(x, depth + 1)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::state::protocol;

    /// What `trail report` reads of a stopped call: its verdict, rule and kind as tags, the
    /// action on one line, redacted; nothing for a call that runs.
    #[test]
    fn a_stop_is_recorded_with_its_rule_and_kind_and_a_run_is_not() {
        let bash = |c: &str| ToolInput::Bash {
            command: Some(c.into()),
        };
        let redact = |t: &str| t.replace("hunter2", "${secret:pw}");
        let block = Outcome::Block {
            rule: "rm-recursive-critical".into(),
            reason: "r".into(),
        };
        let s = block
            .stopped(&Tool::Bash, &bash("rm -rf ~ \n# hunter2"), &redact)
            .unwrap();
        assert_eq!(
            s.tags,
            [
                "gate",
                "blocked",
                "rule:rm-recursive-critical",
                "kind:irreversible"
            ]
        );
        assert_eq!(
            s.fact,
            "gate blocked [rm-recursive-critical] Bash: rm -rf ~  # ${secret:pw}"
        );
        let refused = Outcome::Refuse("unreadable".into());
        let s = refused.stopped(&Tool::Bash, &bash("x"), &redact).unwrap();
        assert!(s.tags.contains(&"kind:refused".to_string()), "{:?}", s.tags);
        for runs in [Outcome::Allow, Outcome::Warn("w".into())] {
            assert!(runs.stopped(&Tool::Bash, &bash("ls"), &redact).is_none());
        }
    }

    /// A project in active mode with an objective and no plan, and a home beside it.
    fn project() -> (tempfile::TempDir, Store, Places) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("project");
        std::fs::create_dir_all(&root).unwrap();
        let store = Store::new(&root).with_secrets_dir(dir.path().join(".secrets"));
        protocol::set_mode(&store, Mode::Active, Some("Fix the totals"), Ts::now()).unwrap();
        let places = Places {
            project_root: root.clone(),
            home: dir.path().join("home"),
            cwd: root,
            tmpdir: None,
            trail_home: None,
            secrets_dir: None,
        };
        (dir, store, places)
    }

    fn judge(store: &Store, places: &Places, tool: &str, input: serde_json::Value) -> Outcome {
        let keep = |t: &str| t.to_string();
        let mut guard = Guard::new(store, places.clone(), Vec::new(), &keep);
        guard.ctx.ignored = |_, _| false;
        let tool = Tool::from_name(tool);
        guard.judge(&tool, &ToolInput::decode(&tool, input))
    }

    /// A Codex patch replacing `old` by `new` in the state file.
    fn state_patch(store: &Store, old: &str, new: &str) -> serde_json::Value {
        let current = std::fs::read_to_string(store.path()).unwrap();
        assert!(current.contains(old), "{current}");
        let minus: String = old.lines().flat_map(|l| ["-", l, "\n"]).collect();
        let plus: String = new.lines().flat_map(|l| ["+", l, "\n"]).collect();
        json!({"command": format!(
            "*** Begin Patch\n*** Update File: active_context.yaml\n@@\n{minus}{plus}*** End Patch\n"
        )})
    }

    /// FR-4: a strict red budget holds edits, except to the files a checkpoint asks to be
    /// brought up to date, and not through a symlink that only looks like one of them.
    #[test]
    fn a_strict_red_budget_holds_edits_but_never_notes_reached_directly() {
        let (_d, store, places) = project();
        let root = places.project_root.clone();
        let t = root.join("session.jsonl");
        let answer = |n: u64| {
            format!(
                "{}\n",
                json!({"type":"assistant","message":{"id":format!("m{n}"),"usage":{"input_tokens":n,"output_tokens":1}}})
            )
        };
        std::fs::write(&t, answer(20_000)).unwrap();
        let setup = crate::attention::Setup {
            zones: crate::attention::Zones::DEFAULT,
            window: 200_000,
            window_set: true,
            strict: true,
        };
        let save = |now: Ts| {
            let m = crate::attention::measure(&root, &t, setup, now)
                .unwrap()
                .unwrap();
            crate::attention::save_mark(&root, &m.mark).unwrap();
        };
        save(Ts::now());
        std::fs::write(&t, answer(20_000) + &answer(40_000)).unwrap();
        save(Ts::now());
        let notes = root.join("NOTES.md");
        std::fs::write(&notes, "# notes\n").unwrap();
        std::os::unix::fs::symlink(root.join("src.rs"), root.join("LINK.md")).unwrap();
        let judge_in = |notes_at: &Path, file: &Path| {
            let keep = |t: &str| t.to_string();
            let mut guard = Guard::new(&store, places.clone(), Vec::new(), &keep);
            guard.ctx.ignored = |_, _| false;
            guard.session_file = Some(t.clone());
            guard.notes = Some(notes_at.to_path_buf());
            let tool = Tool::from_name("Edit");
            let input = json!({"file_path": file, "old_string": "a", "new_string": "b"});
            guard.judge(&tool, &ToolInput::decode(&tool, input))
        };
        let held =
            |o: &Outcome| matches!(o, Outcome::Refuse(r) if r.contains("attention budget is red"));
        assert!(held(&judge_in(&notes, &root.join("src.rs"))));
        assert!(!held(&judge_in(&notes, &notes)));
        assert!(!held(&judge_in(&notes, &store.path())));
        // NOTES.md configured as a symlink to code: the edit lands in the code, so it is held.
        assert!(held(&judge_in(
            &root.join("LINK.md"),
            &root.join("LINK.md")
        )));
        // Found in review: the shell wrote what the Edit tool could not. Shell edits of the
        // project are held too; builds, reads and NOTES.md are not.
        std::fs::write(root.join("src.rs"), "fn a() {}\n").unwrap();
        let shell = |command: &str| {
            let keep = |t: &str| t.to_string();
            let mut guard = Guard::new(&store, places.clone(), Vec::new(), &keep);
            guard.ctx.ignored = |_, _| false;
            guard.session_file = Some(t.clone());
            guard.notes = Some(notes.clone());
            let tool = Tool::from_name("Bash");
            guard.judge(
                &tool,
                &ToolInput::decode(&tool, json!({"command": command})),
            )
        };
        for c in [
            "sed -i 's/a/b/' src.rs",
            "cat > src.rs <<'EOF'\nfn b() {}\nEOF",
            "cp /tmp/other.rs src.rs",
            "git apply /tmp/fix.diff",
        ] {
            assert!(held(&shell(c)), "{c}: {:?}", shell(c));
        }
        for c in [
            "cargo test",
            "grep -n a src.rs",
            "echo '- step' >> NOTES.md",
            "echo x > /tmp/scratch",
            "trail checkpoint",
        ] {
            assert!(!held(&shell(c)), "{c}: {:?}", shell(c));
        }
    }

    /// Issue 10: the patch guard once refused any patch whose added lines named a grant field,
    /// so a plan step merely mentioning "consumed" was refused. It now reads the YAML.
    #[test]
    fn a_patch_adding_a_plan_step_that_mentions_consumed_is_not_refused() {
        let (_d, store, places) = project();
        let step = "plan:\n  - description: \"check the allowance shows consumed: false, then true\"\n    status: pending";
        let patch = state_patch(&store, "plan: []", step);
        let outcome = judge(&store, &places, "apply_patch", patch);
        assert!(
            matches!(outcome, Outcome::Allow | Outcome::Warn(_)),
            "{outcome:?}"
        );
    }

    #[test]
    fn a_patch_or_an_edit_that_adds_an_allowance_is_blocked() {
        let (_d, store, places) = project();
        let grant = "allowances:\n  - fingerprint: \"00\"\n    consumed: false";
        let patch = state_patch(&store, "allowances: []", grant);
        let edit =
            json!({"file_path": store.path(), "old_string": "allowances: []", "new_string": grant});
        for (tool, input) in [("apply_patch", patch), ("Edit", edit)] {
            let outcome = judge(&store, &places, tool, input);
            assert!(
                matches!(&outcome, Outcome::Block { rule, .. } if rule == "self-approval"),
                "{tool}: {outcome:?}"
            );
        }
    }

    /// Issue 11, item 12: review mode let edits through silently, as active mode with a plan.
    #[test]
    fn in_review_mode_an_edit_runs_with_a_warning_naming_the_missing_proof() {
        let (_d, store, places) = project();
        protocol::set_mode(&store, Mode::Review, None, Ts::now()).unwrap();
        let file = places.project_root.join("src/a.rs");
        let edit = json!({"file_path": file, "old_string": "a", "new_string": "b"});
        let outcome = judge(&store, &places, "Edit", edit.clone());
        let Outcome::Warn(text) = outcome else {
            panic!("{outcome:?}");
        };
        assert!(
            text.contains("review mode") && text.contains("No test run observed this session"),
            "{text}"
        );
        protocol::set_mode(&store, Mode::Plan, None, Ts::now()).unwrap();
        assert_eq!(judge(&store, &places, "Edit", edit), Outcome::Allow);
    }

    #[test]
    fn an_edit_that_would_break_the_state_file_is_refused() {
        let (_d, store, places) = project();
        let write = json!({"file_path": store.path(), "content": "schema_version: 4\nplan: [\n"});
        let outcome = judge(&store, &places, "Write", write);
        assert!(
            matches!(&outcome, Outcome::Refuse(r) if r.contains("unreadable")),
            "{outcome:?}"
        );
    }

    #[test]
    fn the_schema_version_binds_an_edit_only_once_the_file_has_it() {
        let (_d, store, places) = project();
        let without = |objective: &str| json!({"file_path": store.path(), "content": format!("mode: active\nobjective: {objective}\n")});
        let outcome = judge(&store, &places, "Write", without("Fix the totals"));
        assert!(
            matches!(&outcome, Outcome::Refuse(r) if r.contains("schema_version is missing")),
            "{outcome:?}"
        );
        // An older file may be edited as it is: trail migrates it when it next writes it.
        std::fs::write(store.path(), "mode: active\nobjective: Fix the totals\n").unwrap();
        let outcome = judge(
            &store,
            &places,
            "Write",
            without("Fix the totals, then ship"),
        );
        assert!(!matches!(outcome, Outcome::Refuse(_)), "{outcome:?}");
    }

    #[test]
    fn a_command_tool_without_a_readable_command_is_refused() {
        let (_d, store, places) = project();
        for (tool, input) in [
            ("Bash", json!({"command": ["rm", "-rf", "/"]})),
            ("shell", json!({})),
            ("Monitor", json!({"cmd": "ls"})),
            ("PowerShell", serde_json::Value::Null),
        ] {
            let outcome = judge(&store, &places, tool, input.clone());
            assert!(
                matches!(&outcome, Outcome::Refuse(r) if r.contains("could not find the command")),
                "{tool} {input}: {outcome:?}"
            );
            let typed = ToolInput::decode(&Tool::from_name(tool), input);
            assert_eq!(judge_unplaced(&typed), outcome, "{tool}");
        }
    }

    #[test]
    fn commands_go_through_the_gate_under_their_tools_name() {
        let (_d, store, places) = project();
        for tool in ["Bash", "Monitor"] {
            let outcome = judge(&store, &places, tool, json!({"command": "rm -rf ~"}));
            assert!(
                matches!(outcome, Outcome::Block { .. }),
                "{tool}: {outcome:?}"
            );
            let outcome = judge(
                &store,
                &places,
                tool,
                json!({"command": "git push origin main"}),
            );
            let Outcome::Pending(j) = outcome else {
                panic!("{tool}: {outcome:?}");
            };
            assert_eq!(j.tool.as_deref(), Some(tool));
        }
        let outcome = judge(&store, &places, "Bash", json!({"command": "ls"}));
        assert_eq!(outcome, Outcome::Allow);
    }

    #[test]
    fn a_scheduled_edge_decision_is_blocked_with_or_without_home() {
        let (_d, store, places) = project();
        let wakeup = json!({"delaySeconds": 60, "prompt": "/edge  approve", "reason": "x"});
        let outcome = judge(&store, &places, "ScheduleWakeup", wakeup.clone());
        assert!(
            matches!(&outcome, Outcome::Block { rule, .. } if rule == "self-approval"),
            "{outcome:?}"
        );
        let typed = ToolInput::decode(&Tool::from_name("ScheduleWakeup"), wakeup);
        assert_eq!(judge_unplaced(&typed), outcome);
        let grep = json!({"pattern": "an /edge approve is typed by a person"});
        assert_eq!(judge(&store, &places, "Grep", grep), Outcome::Allow);
    }

    #[test]
    fn without_home_only_calls_that_name_no_path_are_judged() {
        let edit = ToolInput::decode(&Tool::Write, json!({"file_path": "/p/a", "content": ""}));
        let bash = ToolInput::decode(&Tool::Bash, json!({"command": "ls"}));
        for input in [edit, bash] {
            assert!(
                matches!(judge_unplaced(&input), Outcome::Refuse(r) if r.contains("HOME is not set")),
                "{input:?}"
            );
        }
        let read = ToolInput::decode(&Tool::Read, json!({"file_path": "/etc/hosts"}));
        assert_eq!(judge_unplaced(&read), Outcome::Allow);
    }

    /// Found in review: nothing kept the agent from appending a passing `checkpoint` entry to
    /// the trajectory, which lifts the strict-red and PreCompact holds, or a line to the proof
    /// log, which is the evidence of a test run. Edits of trail's journals are blocked; edits
    /// of its memory wait for a person; reading either is free.
    #[test]
    fn the_journals_are_not_the_agents_to_write_and_memory_needs_a_person() {
        let (_dir, store, places) = project();
        let root = places.project_root.clone();
        let layout = crate::layout::Layout::new(&root);
        std::fs::create_dir_all(layout.trajectory_dir()).unwrap();
        let day = layout.trajectory_dir().join("2026-11-27.jsonl");
        std::fs::write(&day, "{}\n").unwrap();
        let forged = r#"{"phase":"checkpoint","verdict":"pass"}"#;
        for (tool, input) in [
            ("Write", json!({"file_path": day, "content": forged})),
            (
                "Edit",
                json!({"file_path": day, "old_string": "{}", "new_string": forged}),
            ),
            (
                "Write",
                json!({"file_path": root.join(".proof/session_log.jsonl"), "content": "{}"}),
            ),
            // Reached through `..` from inside the project, as written.
            (
                "Write",
                json!({"file_path": root.join("src/../.trail/trajectory/new.jsonl"), "content": forged}),
            ),
        ] {
            let o = judge(&store, &places, tool, input);
            assert!(
                matches!(&o, Outcome::Block { rule, .. } if rule == "journal-tamper"),
                "{tool}: {o:?}"
            );
        }
        let memory = judge(
            &store,
            &places,
            "Write",
            json!({"file_path": layout.core_memory(), "content": "- the tests pass\n"}),
        );
        assert!(
            matches!(&memory, Outcome::Pending(j) if j.rule.as_deref() == Some("memory-tamper")),
            "{memory:?}"
        );
        let read = judge(&store, &places, "Read", json!({"file_path": day}));
        assert_eq!(read, Outcome::Allow);
        let tail = judge(
            &store,
            &places,
            "Bash",
            json!({"command": "tail -n 3 .trail/trajectory/2026-11-27.jsonl"}),
        );
        assert_eq!(tail, Outcome::Allow);
    }
}
