//! `active_context.yaml`, schema v4 (Operator's Edge §1), as typed data.
//!
//! Every struct keeps the fields it does not know in `extra`, in their order: the file is the
//! user's, older schemas carry fields v4 dropped (`intent`, `risks`, `self_score`, …), and a
//! rewrite by trail must not lose them.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub const SCHEMA_VERSION: u64 = 4;

/// The only behavioural switch (§2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Plan,
    Active,
    Review,
    Done,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Plan, Mode::Active, Mode::Review, Mode::Done];

    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Plan => "plan",
            Mode::Active => "active",
            Mode::Review => "review",
            Mode::Done => "done",
        }
    }

    /// Case-insensitive: older files wrote `ACTIVE`.
    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL
            .into_iter()
            .find(|m| m.as_str().eq_ignore_ascii_case(s.trim()))
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One plan step.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Step {
    #[serde(default)]
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<Value>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Step {
    pub fn status_is(&self, s: &str) -> bool {
        self.status
            .as_deref()
            .is_some_and(|x| x.trim().eq_ignore_ascii_case(s))
    }
}

pub const STEP_STATUSES: [&str; 4] = ["pending", "in_progress", "completed", "blocked"];

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Session {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_hash: Option<String>,
    /// Whether the session ended through Stop/SessionEnd (trail's addition: how the next start
    /// knows the previous exit was unclean).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Junction types (§4).
pub const JUNCTION_TYPES: [&str; 4] = ["irreversible", "external", "ambiguous", "quality_gate"];

/// The pending decision (at most one).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Junction {
    #[serde(default)]
    pub id: String,
    #[serde(rename = "type", default)]
    pub kind: String,
    #[serde(default)]
    pub reason: String,
    #[serde(default)]
    pub created_at: String,
    #[serde(default)]
    pub fingerprint: String,
    /// What the allowance will match once approved (trail's addition: the fingerprint is a
    /// hash, so a person needs these to see what they approve).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dismiss_fingerprint: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Allowance {
    #[serde(default)]
    pub fingerprint: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub granted_at: Option<String>,
    /// Required by invariant 4; `None` means the file lacks it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dismissal {
    #[serde(default)]
    pub fingerprint: String,
    /// Required by invariant 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dismissed_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Auto-captured progress (§5): what happened, from the proof log.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Observations {
    #[serde(default)]
    pub files_modified: Vec<String>,
    #[serde(default)]
    pub tools_used: Map<String, Value>,
    #[serde(default)]
    pub tests_run: bool,
    #[serde(default)]
    pub last_activity: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Observations {
    pub fn total_tools(&self) -> u64 {
        self.tools_used.values().filter_map(Value::as_u64).sum()
    }

    /// The files modified, for a sentence: `none` or a comma-separated list.
    pub fn files_text(&self) -> String {
        if self.files_modified.is_empty() {
            "none".into()
        } else {
            self.files_modified.join(", ")
        }
    }
}

/// Where trail keeps, in `session`, the proof log's length when the session started: its own
/// lines begin there.
const PROOF_OFFSET: &str = "proof_offset";

impl Session {
    pub fn proof_offset(&self) -> u64 {
        self.extra
            .get(PROOF_OFFSET)
            .and_then(Value::as_u64)
            .unwrap_or(0)
    }

    pub fn set_proof_offset(&mut self, offset: u64) {
        self.extra.insert(PROOF_OFFSET.into(), Value::from(offset));
    }

    /// Whether this session, the last one recorded, ended without a SessionEnd, as seen when
    /// session `next` starts (a session that starts again under its own id is resuming, not
    /// replacing it).
    pub fn ended_uncleanly_before(&self, next: Option<&str>) -> bool {
        self.id.is_some() && self.ended_at.is_none() && self.id.as_deref() != next
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_tool_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_edit_hash: Option<String>,
    #[serde(default)]
    pub tools_used: u64,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The whole file. Unknown top-level keys (older schemas' `intent`, `risks`, …) stay in
/// `extra` and are written back untouched.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema_version: Option<Value>,
    /// Kept as text: a file may hold a mode v4 does not know (`complete`), which is reported,
    /// not silently replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<String>,
    #[serde(default)]
    pub plan: Vec<Step>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_step: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<Session>,
    #[serde(default)]
    pub junction: Option<Junction>,
    #[serde(default)]
    pub allowances: Vec<Allowance>,
    #[serde(default)]
    pub dismissals: Vec<Dismissal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observations: Option<Observations>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Value>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl State {
    /// A fresh v4 state (plan mode is the default on session start, §2).
    pub fn new() -> State {
        State {
            schema_version: Some(Value::from(SCHEMA_VERSION)),
            mode: Some(Mode::Plan.as_str().into()),
            ..State::default()
        }
    }

    /// The mode, when the file names a valid one; plan when it names none.
    pub fn mode(&self) -> Option<Mode> {
        match &self.mode {
            None => Some(Mode::Plan),
            Some(m) => Mode::parse(m),
        }
    }

    /// Where this session's proof lines start (0: the whole log).
    pub fn proof_offset(&self) -> u64 {
        self.session.as_ref().map_or(0, Session::proof_offset)
    }

    pub fn has_objective(&self) -> bool {
        self.objective
            .as_deref()
            .is_some_and(|o| !o.trim().is_empty())
    }

    /// The plan step in flight, from 0: the one `in_progress`, else the one `current_step`
    /// names (from 1), when it is in the plan.
    pub fn step_in_flight(&self) -> Option<usize> {
        self.plan
            .iter()
            .position(|p| p.status_is("in_progress"))
            .or_else(|| {
                let n = crate::fsutil::to_usize(self.current_step.as_ref()?.as_u64()?);
                (1..=self.plan.len()).contains(&n).then(|| n - 1)
            })
    }

    pub fn is_v4(&self) -> bool {
        self.schema_version.as_ref().and_then(Value::as_u64) == Some(SCHEMA_VERSION)
    }

    /// The invariants of §9, as problems a person can fix (empty when the state is valid).
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        match &self.schema_version {
            None => out.push(Problem::NoSchemaVersion),
            Some(v) if v.as_u64() != Some(SCHEMA_VERSION) => {
                out.push(Problem::SchemaVersion(v.to_string()));
            }
            _ => {}
        }
        if let Some(m) = &self.mode
            && Mode::parse(m).is_none()
        {
            out.push(Problem::Mode(m.clone()));
        }
        for (i, s) in self.plan.iter().enumerate() {
            if let Some(st) = &s.status
                && !STEP_STATUSES
                    .iter()
                    .any(|x| st.trim().eq_ignore_ascii_case(x))
            {
                out.push(Problem::StepStatus {
                    step: i + 1,
                    status: st.clone(),
                });
            }
        }
        if let Some(j) = &self.junction {
            if j.fingerprint.is_empty() {
                out.push(Problem::JunctionFingerprint);
            }
            if !JUNCTION_TYPES.contains(&j.kind.as_str()) {
                out.push(Problem::JunctionType {
                    kind: j.kind.clone(),
                });
            }
        }
        for (i, a) in self.allowances.iter().enumerate() {
            if a.fingerprint.is_empty() || a.consumed.is_none() {
                out.push(Problem::Allowance(i + 1));
            }
        }
        for (i, d) in self.dismissals.iter().enumerate() {
            if d.fingerprint.is_empty() || d.expires_at.is_none() {
                out.push(Problem::Dismissal(i + 1));
            }
        }
        out
    }
}

/// An invariant of §9 the state breaks, in the file's own terms (how to change the mode from a
/// terminal is the binary's to say).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("schema_version is missing (trail writes schema_version: {SCHEMA_VERSION})")]
    NoSchemaVersion,
    #[error("schema_version is {0}; trail reads and writes version {SCHEMA_VERSION}")]
    SchemaVersion(String),
    #[error("mode `{0}` is not one of plan, active, review, done")]
    Mode(String),
    #[error(
        "plan step {step} has status `{status}`; use pending, in_progress, completed or blocked"
    )]
    StepStatus { step: usize, status: String },
    #[error("the pending junction has no fingerprint")]
    JunctionFingerprint,
    #[error("the pending junction's type `{kind}` is not one of {}", JUNCTION_TYPES.join(", "))]
    JunctionType { kind: String },
    #[error("allowance {0} needs both `fingerprint` and `consumed`")]
    Allowance(usize),
    #[error("dismissal {0} needs both `fingerprint` and `expires_at`")]
    Dismissal(usize),
}

impl Problem {
    /// About the schema version, which an older file trail has not rewritten yet may lack.
    pub fn is_schema_version(&self) -> bool {
        matches!(self, Problem::NoSchemaVersion | Problem::SchemaVersion(_))
    }
}
