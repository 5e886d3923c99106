//! The trajectory (Lossless Ledger FR-8): what the agent's reasoning did, one JSON object a line
//! in `.trail/trajectory/YYYY-MM-DD.jsonl`, append-only and redacted.
//!
//! Every entry has a phase ([`Body`]), a time, and W3C-style lineage: a [`TraceId`] that spans a
//! chain of sessions (a `/clear` or a resume continues the trace) and a [`SpanId`] of its own,
//! with the span it continues. A `session_handoff` names the root span of the session handed
//! off, so the next session can pick its thread up from the journal rather than from memory.
//!
//! Loa wrote the same journal as bash `echo`s, and a value with a newline in it broke the line
//! it was on. Here a line is always `serde_json`'s serialization of a typed [`Entry`]: strings
//! are escaped, so whatever an agent or a tool put in a field, the line holds one object
//! ([`journal`]'s property test feeds it hostile text).

pub mod journal;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cite::Status;
use crate::time::Ts;

/// One line of the trajectory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    #[serde(with = "crate::time::text")]
    pub ts: Ts,
    /// The phase and what it records (`"phase": "decision"`, …).
    #[serde(flatten)]
    pub body: Body,
    /// The session it was written in (a `session_handoff` always names it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    pub trace_id: TraceId,
    pub span_id: SpanId,
    /// The span this one continues (the session's root span, or the previous session's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_span_id: Option<SpanId>,
}

impl Entry {
    /// An entry written now: in the trace of `session` (every hook of a session names the same
    /// one), or a trace of its own when no session is known (a person's command), with a span
    /// of its own.
    pub fn now(body: Body, session: Option<&str>) -> Entry {
        Entry {
            ts: Ts::now(),
            body,
            session_id: session.map(String::from),
            trace_id: session.map_or_else(TraceId::random, TraceId::for_session),
            span_id: SpanId::random(),
            parent_span_id: None,
        }
    }

    /// The decision it records, when it is a `decision` entry.
    pub fn decision(&self) -> Option<&Decision> {
        match &self.body {
            Body::Decision(d) => Some(d),
            _ => None,
        }
    }
}

/// What an entry records, by phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Body {
    /// A claim and the evidence it rests on (Loa's `cite` phase).
    Cite(Cite),
    /// A decision (`trail decide`): the unit the grounding ratio counts.
    Decision(Decision),
    /// A session handed off (before `/clear`, or at its end).
    SessionHandoff(Handoff),
    /// Delta-synthesis at the yellow zone: what trail knows, persisted before it is lost.
    DeltaSync(DeltaSync),
    /// A search that returned too much (more than 50 results) and the narrower one that followed.
    Pivot(Pivot),
    /// A view or journal brought back, and from where.
    Heal(Heal),
    /// A synthesis checkpoint and each step's verdict.
    Checkpoint(Checkpoint),
    /// A ghost feature's two queries and their verdict.
    NegativeGrounding(NegativeGrounding),
    /// What the agent asserted disagreed with the journals (the journals win).
    ForkDetected(ForkDetected),
}

impl Body {
    /// The phase names, as entries and `trail trajectory --phase` write them.
    pub const PHASES: [&'static str; 9] = [
        "cite",
        "decision",
        "session_handoff",
        "delta_sync",
        "pivot",
        "heal",
        "checkpoint",
        "negative_grounding",
        "fork_detected",
    ];

    pub fn phase(&self) -> &'static str {
        Self::PHASES[match self {
            Body::Cite(_) => 0,
            Body::Decision(_) => 1,
            Body::SessionHandoff(_) => 2,
            Body::DeltaSync(_) => 3,
            Body::Pivot(_) => 4,
            Body::Heal(_) => 5,
            Body::Checkpoint(_) => 6,
            Body::NegativeGrounding(_) => 7,
            Body::ForkDetected(_) => 8,
        }]
    }
}

/// One piece of evidence: a citation and its quote, as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// `[${PROJECT_ROOT}/path:LINE]` or `:START-END`.
    pub citation: String,
    /// The word-for-word quote, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quote: Option<String>,
    /// What the check said when the evidence was recorded (it is checked again when counted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
}

/// The kinds of grounding Loa's trajectory gives a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grounding {
    /// A word-for-word quote with its path and line.
    Citation,
    /// A path and line without a quote.
    CodeReference,
    /// The user's explicit request.
    UserInput,
    /// Nothing: flagged `[ASSUMPTION]`.
    Assumption,
}

impl Grounding {
    pub fn as_str(self) -> &'static str {
        match self {
            Grounding::Citation => "citation",
            Grounding::CodeReference => "code_reference",
            Grounding::UserInput => "user_input",
            Grounding::Assumption => "assumption",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cite {
    pub claim: String,
    pub grounding: Grounding,
    #[serde(default)]
    pub evidence: Vec<Evidence>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// Stable within the project (the Decision Log and the pulse stream name it too).
    pub id: String,
    pub title: String,
    pub decision: String,
    pub rationale: String,
    #[serde(default)]
    pub evidence: Vec<Evidence>,
    /// Test scenarios (FR-2's EDD: happy path, edge case, error).
    #[serde(default)]
    pub tests: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bead: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Handoff {
    /// The root span of the session handed off: the next session's parent.
    pub root_span_id: SpanId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bead_id: Option<String>,
    /// Where in NOTES.md the state handed over is (`NOTES.md:68-92`).
    #[serde(default)]
    pub notes_refs: Vec<NotesRef>,
    /// Whether every decision has its test scenarios.
    pub edd_verified: bool,
    /// The grounding ratio at handoff, rounded down to three places (see `ratio_exact`).
    pub grounding_ratio: f64,
    /// The same ratio exactly (`18/19`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grounding_exact: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test_scenarios: Option<u32>,
    pub next_session_ready: bool,
}

/// A span of NOTES.md lines: `NOTES.md:68-92` (or the file's path in the project).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotesRef {
    pub path: String,
    pub start: u32,
    pub end: u32,
}

impl NotesRef {
    pub fn parse(s: &str) -> Option<NotesRef> {
        let t = crate::cite::parse::parse_target(s).ok()?;
        (t.written == crate::cite::Written::Relative).then_some(NotesRef {
            path: t.path,
            start: t.start,
            end: t.end,
        })
    }
}

impl fmt::Display for NotesRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}-{}", self.path, self.start, self.end)
    }
}

impl Serialize for NotesRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for NotesRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        NotesRef::parse(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{s}` is not a NOTES.md reference (NOTES.md:START-END)"
            ))
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeltaSync {
    /// The attention zone that triggered it (`yellow`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// Tokens added since the last checkpoint.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u64>,
    /// Recent decisions, as identifiers.
    #[serde(default)]
    pub decisions: Vec<String>,
    /// How many of them NOTES.md's Decision Log holds after the sync (the PRD's
    /// `decisions_persisted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decisions_persisted: Option<u64>,
    #[serde(default)]
    pub files: Vec<String>,
    #[serde(default)]
    pub commands: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pivot {
    pub reason: String,
    pub original_query: String,
    pub result_count: u64,
    /// Why the hypothesis behind the query failed, and what replaced it: the agent's to say
    /// (Loa's protocol); a pivot trail logs for a broad search knows neither.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hypothesis_failure: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub refined_hypothesis: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_query: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heal {
    /// The file, relative to the project root.
    pub file: String,
    /// Where it came back from: `git_show`, `git_checkout`, `journals`, `template`.
    pub source: String,
    pub healed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// `pass`, `blocked` or `error`.
    pub verdict: String,
    #[serde(default)]
    pub steps: Vec<Step>,
    /// Where the reasoning stood, in the agent's words (NOTES.md's Reasoning State).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
}

impl Checkpoint {
    /// Whether this checkpoint passed: what the PreCompact hold and the attention budget's
    /// strict red hold wait for.
    pub fn passed(&self) -> bool {
        self.verdict == "pass"
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub name: String,
    pub verdict: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remedy: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NegativeGrounding {
    pub feature: String,
    pub query1: String,
    pub results1: u64,
    pub query2: String,
    pub results2: u64,
    pub doc_mentions: u64,
    /// `confirmed_ghost`, `high_ambiguity` or `not_ghost`.
    pub classification: String,
    /// The search that ran: `lexical` (trail's own) or `ck`.
    pub engine: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForkDetected {
    /// What disagreed: `decision`, `active_context`, `citation`, …
    pub kind: String,
    /// What the agent asserted.
    pub asserted: String,
    /// What the journals hold (and what wins).
    pub journal: String,
}

/// A W3C trace id: 16 random bytes, 32 lower-case hex digits, never all zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TraceId([u8; 16]);

/// A W3C span id: 8 random bytes, 16 lower-case hex digits, never all zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SpanId([u8; 8]);

/// An id derived from `data` under `label`: the same for the same input, never all zero.
fn derived<const N: usize>(label: &[u8], data: &[u8]) -> [u8; N] {
    use sha2::{Digest, Sha256};
    let digest = Sha256::new()
        .chain_update(label)
        .chain_update(data)
        .finalize();
    let mut b = [0u8; N];
    b.copy_from_slice(&digest[..N]);
    nonzero(b)
}

impl TraceId {
    pub fn random() -> TraceId {
        TraceId(random_bytes())
    }

    /// The trace of a host session chain, derived from its id, so that every hook process of
    /// a session names the same trace without keeping any state.
    pub fn for_session(session_id: &str) -> TraceId {
        TraceId(derived(b"trail trace\0", session_id.as_bytes()))
    }

    pub fn parse(s: &str) -> Option<TraceId> {
        unhex(s).map(TraceId)
    }

    /// The trace of a line written without one (a version before lineage): the session's
    /// trace when it names one, else one of its own, the same at every read.
    pub fn for_line(session_id: Option<&str>, line: &[u8]) -> TraceId {
        match session_id {
            Some(s) => TraceId::for_session(s),
            None => TraceId(derived(b"trail trace of a line\0", line)),
        }
    }
}

impl SpanId {
    /// The span of a line written without one, the same at every read.
    pub fn for_line(line: &[u8]) -> SpanId {
        SpanId(derived(b"trail span of a line\0", line))
    }

    pub fn random() -> SpanId {
        SpanId(random_bytes())
    }

    /// The root span of a host session, derived from its id: every process of the session
    /// (hooks, `trail decide`, `trail checkpoint`) names the same one without keeping state,
    /// and a handoff names it for the next session to continue.
    pub fn root_of_session(session_id: &str) -> SpanId {
        SpanId(derived(b"trail root span\0", session_id.as_bytes()))
    }

    pub fn parse(s: &str) -> Option<SpanId> {
        unhex(s).map(SpanId)
    }
}

/// From the OS's random source; if that cannot be read, from the clock, the process and a
/// counter (ids must differ, they need not be secret).
fn random_bytes<const N: usize>() -> [u8; N] {
    use std::io::Read;
    let mut b = [0u8; N];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut b));
    if read.is_err() {
        use sha2::{Digest, Sha256};
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let seed = format!(
            "{}\0{}\0{}",
            Ts::now().as_micros(),
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        b.copy_from_slice(&Sha256::digest(seed.as_bytes())[..N]);
    }
    nonzero(b)
}

fn nonzero<const N: usize>(mut b: [u8; N]) -> [u8; N] {
    if b.iter().all(|&x| x == 0) {
        b[N - 1] = 1;
    }
    b
}

fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    if s.len() != N * 2 || !s.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let mut b = [0u8; N];
    for (i, byte) in b.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&s[i * 2..i * 2 + 2], 16).ok()?;
    }
    (b.iter().any(|&x| x != 0)).then_some(b)
}

macro_rules! hex_id {
    ($t:ident, $what:literal) => {
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&crate::text::hex(&self.0))
            }
        }
        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({self})", stringify!($t))
            }
        }
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                $t::parse(&s)
                    .ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not {}", $what)))
            }
        }
    };
}

hex_id!(
    TraceId,
    "a trace id (32 lower-case hex digits, not all zero)"
);
hex_id!(SpanId, "a span id (16 lower-case hex digits, not all zero)");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_w3c_shaped() {
        let t = TraceId::random();
        let s = SpanId::random();
        assert_eq!(t.to_string().len(), 32);
        assert_eq!(s.to_string().len(), 16);
        assert_ne!(SpanId::random(), s);
        assert_eq!(TraceId::parse(&t.to_string()), Some(t));
        assert_eq!(TraceId::for_session("s1"), TraceId::for_session("s1"));
        assert_ne!(TraceId::for_session("s1"), TraceId::for_session("s2"));
        for bad in [
            "0".repeat(32),
            "A".repeat(32),
            "a".repeat(31),
            "g".repeat(32),
        ] {
            assert_eq!(TraceId::parse(&bad), None, "{bad}");
        }
        assert_eq!(SpanId::parse(&"0".repeat(16)), None);
    }

    #[test]
    fn a_handoff_reads_as_the_prd_writes_it() {
        let line = r#"{"ts":"2024-01-15T14:30:00Z","phase":"session_handoff","session_id":"sess-002","root_span_id":"00f067aa0ba902b7","bead_id":"bd-x7y8","notes_refs":["NOTES.md:68-92"],"edd_verified":true,"grounding_ratio":0.97,"next_session_ready":true,"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","span_id":"b7ad6b7169203331"}"#;
        let e: Entry = serde_json::from_str(line).unwrap();
        assert_eq!(e.session_id.as_deref(), Some("sess-002"));
        let Body::SessionHandoff(h) = &e.body else {
            panic!("{e:?}")
        };
        assert_eq!(h.notes_refs[0].to_string(), "NOTES.md:68-92");
        assert_eq!(e.body.phase(), "session_handoff");
        let again: Entry = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
        assert_eq!(again, e);
        assert!(NotesRef::parse("${PROJECT_ROOT}/NOTES.md:1-2").is_none());
        assert!(NotesRef::parse("NOTES.md").is_none());
    }
}
