//! `trail report`: what the agents did, gathered from every journal trail keeps into one
//! [`Report`] that the front ends render (the terminal's summary, the HTML file, the MCP
//! resource). Nothing here is worded for a terminal or marked up for a page.
//!
//! Where each fact comes from:
//!
//! | fact | journal |
//! |---|---|
//! | pulses, checkpoints, tangents, focus switches, compactions, handoffs, what the gate stopped | the pulse stream, every machine's ([`crate::ledger`]); a hook's record names its session in a `session:` tag |
//! | tool calls and how they ended | the project's proof log ([`crate::proof`]) |
//! | prompts, context fill, starts, `/clear`, compactions | the project's timeline ([`crate::timeline`]) |
//! | decisions and their grounding now | the trajectory ([`crate::trajectory`]), rechecked ([`crate::grounding::standing`]) |
//! | who approved or dismissed a junction, and when | the signed grants journal ([`crate::state::grants`]) |
//! | tokens trail injected | each session's injection journal ([`crate::injected`]) |
//!
//! The stream is global; the other journals are the project's own, so they are read for the
//! workspace's project only (its records in the stream are joined to them by session id).
//!
//! A ledger of 100 MB holds far more than a page can show. The whole stream is read once, one
//! record at a time, and folded into counts; of each session only the latest
//! [`Options::events`] events are kept (the rest are counted in `omitted`), and its fill chart
//! is thinned to [`FILL_POINTS`] points. Every count covers everything read.

mod gather;

use serde::Serialize;

use crate::attention::{Zone, Zones};
use crate::time::Ts;

pub use gather::{ReportError, gather};

/// At most this many points of a session's context fill are kept (evenly thinned, the first
/// and the last always kept).
pub const FILL_POINTS: usize = 240;

/// What to gather.
#[derive(Clone, Debug)]
pub struct Options {
    /// Only what happened at or after this time.
    pub since: Option<Ts>,
    /// Only this project (by the name the stream gives it).
    pub proj: Option<String>,
    /// The latest events kept per session; the others are counted.
    pub events: usize,
    /// The most recent sessions shown in detail per project; older ones are counted.
    pub sessions: usize,
    /// The attention zones each fill point is placed in.
    pub zones: Zones,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            since: None,
            proj: None,
            events: 200,
            sessions: 40,
            zones: Zones::DEFAULT,
        }
    }
}

/// Everything the report shows.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    #[serde(with = "crate::time::text")]
    pub generated: Ts,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proj: Option<String>,
    /// The workspace's project: the one whose own journals were read.
    pub here: String,
    /// The workspace's project root, where its decisions' citations point.
    pub root: String,
    /// Where the attention zones start, in tokens added since a session's start or its last
    /// compaction.
    pub zones: Zones,
    pub summary: Summary,
    /// Most recently active first.
    pub projects: Vec<ProjectPart>,
    /// Journals that could not be read whole, and why (what was read is still shown).
    pub problems: Vec<String>,
}

/// The header's figures, over everything read.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Summary {
    pub projects: usize,
    pub sessions: usize,
    /// Time inside sessions, from each one's first to its last event, in minutes.
    pub minutes: u64,
    pub records: u64,
    pub prompts: u64,
    /// Tool calls the proof log holds.
    pub commands: u64,
    pub failures: u64,
    pub blocked: u64,
    pub junctions: u64,
    pub approvals: u64,
    pub dismissals: u64,
    pub decisions: u64,
    pub compactions: u64,
    pub clears: u64,
    /// Tokens trail put into the sessions' context (estimated as it counts them).
    pub injected_tokens: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
}

/// One project.
#[derive(Clone, Debug, Serialize)]
pub struct ProjectPart {
    pub name: String,
    /// Whether its own journals (proof log, timeline, trajectory, grants) were read.
    pub journals: bool,
    pub counts: Counts,
    /// Most recent first; at most [`Options::sessions`].
    pub sessions: Vec<SessionPart>,
    /// Sessions left out of the detail (older than the ones shown).
    pub sessions_omitted: usize,
    pub decisions: Vec<DecisionRow>,
    pub stops: Vec<StopFamily>,
}

/// How many of each thing.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Counts {
    pub records: u64,
    pub prompts: u64,
    pub tools: u64,
    pub failures: u64,
    pub blocked: u64,
    pub junctions: u64,
    pub approvals: u64,
    pub dismissals: u64,
    pub checkpoints: u64,
    pub tangents: u64,
    pub switches: u64,
    pub compactions: u64,
    pub clears: u64,
    pub injected_tokens: u64,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.records += o.records;
        self.prompts += o.prompts;
        self.tools += o.tools;
        self.failures += o.failures;
        self.blocked += o.blocked;
        self.junctions += o.junctions;
        self.approvals += o.approvals;
        self.dismissals += o.dismissals;
        self.checkpoints += o.checkpoints;
        self.tangents += o.tangents;
        self.switches += o.switches;
        self.compactions += o.compactions;
        self.clears += o.clears;
        self.injected_tokens += o.injected_tokens;
    }
}

/// One session (or, with no id, what happened in the project outside any session trail knows).
#[derive(Clone, Debug, Serialize)]
pub struct SessionPart {
    pub id: Option<String>,
    #[serde(with = "crate::time::text")]
    pub start: Ts,
    #[serde(with = "crate::time::text")]
    pub end: Ts,
    pub counts: Counts,
    /// Oldest first: the latest [`Options::events`].
    pub events: Vec<Event>,
    /// Events older than those kept.
    pub omitted: u64,
    /// Oldest first, thinned to [`FILL_POINTS`].
    pub fill: Vec<FillPoint>,
}

/// What one event was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    Start,
    Prompt,
    Tool,
    Blocked,
    Junction,
    Refused,
    Approved,
    Dismissed,
    Pulse,
    Checkpoint,
    Tangent,
    Switch,
    Compaction,
    Clear,
    Handoff,
    Decision,
    Alert,
}

impl EventKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Start => "start",
            EventKind::Prompt => "prompt",
            EventKind::Tool => "tool",
            EventKind::Blocked => "blocked",
            EventKind::Junction => "junction",
            EventKind::Refused => "refused",
            EventKind::Approved => "approved",
            EventKind::Dismissed => "dismissed",
            EventKind::Pulse => "pulse",
            EventKind::Checkpoint => "checkpoint",
            EventKind::Tangent => "tangent",
            EventKind::Switch => "switch",
            EventKind::Compaction => "compaction",
            EventKind::Clear => "clear",
            EventKind::Handoff => "handoff",
            EventKind::Decision => "decision",
            EventKind::Alert => "alert",
        }
    }
}

/// One event of a session's timeline. Every text is redacted (each journal is written
/// redacted, and the gatherer redacts again what it shows).
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    #[serde(with = "crate::time::text")]
    pub at: Ts,
    pub kind: EventKind,
    /// One line: the prompt, the command, the pulse's intent.
    pub text: String,
    /// A tool call's outcome.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    /// More: a tool's error, the person who decided, a record's facts.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// The context window's fill at one time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FillPoint {
    #[serde(with = "crate::time::text")]
    pub at: Ts,
    pub context: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<u64>,
    /// The attention zone of the tokens added since the session's start or its last
    /// compaction (the budget's own baseline also moves at a passing checkpoint, which this
    /// chart does not see).
    pub zone: Zone,
}

/// A decision and how its grounding stands now.
#[derive(Clone, Debug, Serialize)]
pub struct DecisionRow {
    pub id: String,
    pub title: String,
    pub decision: String,
    #[serde(with = "crate::time::text")]
    pub at: Ts,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// `verified`, `1/2 verified; …`, `no citation`.
    pub grounding: String,
    pub citations: Vec<CitationRow>,
}

/// One citation, where it points, and what the check says now.
#[derive(Clone, Debug, Serialize)]
pub struct CitationRow {
    pub citation: String,
    /// The file under the project root, when the citation names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// `verified`, `drifted`, `missing_file`, … (the check's word).
    pub status: String,
}

/// What the gate stopped, for one kind of harm (`irreversible`, `external`, `ambiguous`,
/// `refused`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct StopFamily {
    pub kind: String,
    pub rules: Vec<StopRule>,
}

/// What one rule stopped, and what people decided.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct StopRule {
    pub rule: String,
    pub blocked: u64,
    pub junctions: u64,
    pub approved: u64,
    pub dismissed: u64,
    /// The latest few actions it stopped.
    pub examples: Vec<String>,
}
