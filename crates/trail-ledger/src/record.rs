//! The pulse record: every field of LedgerPulse §3 and §5–7, typed and validated.

use std::fmt;

use crate::project::Project;
use crate::time::Ts;

pub const SCHEMA: &str = "ledgerpulse/v1";

/// §5 pulse types, plus `alert` (written by trail itself when a writer waited on the lock).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordType {
    Pulse,
    Checkpoint,
    Tangent,
    Compaction,
    Handoff,
    Alert,
}

impl RecordType {
    pub const ALL: [RecordType; 6] = [
        RecordType::Pulse,
        RecordType::Checkpoint,
        RecordType::Tangent,
        RecordType::Compaction,
        RecordType::Handoff,
        RecordType::Alert,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RecordType::Pulse => "pulse",
            RecordType::Checkpoint => "checkpoint",
            RecordType::Tangent => "tangent",
            RecordType::Compaction => "compaction",
            RecordType::Handoff => "handoff",
            RecordType::Alert => "alert",
        }
    }

    pub fn parse(s: &str) -> Option<RecordType> {
        RecordType::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

impl fmt::Display for RecordType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    Low,
    Medium,
    High,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Low => "low",
            Confidence::Medium => "medium",
            Confidence::High => "high",
        }
    }
    pub fn parse(s: &str) -> Option<Confidence> {
        match s {
            "low" => Some(Confidence::Low),
            "medium" => Some(Confidence::Medium),
            "high" => Some(Confidence::High),
            _ => None,
        }
    }
}

/// One thread of attention: a project and a topic within it.
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Focus {
    pub proj: String,
    pub topic: String,
}

impl Focus {
    /// `proj/topic`, or just `proj` when there is no topic.
    pub fn label(&self) -> String {
        if self.topic.is_empty() {
            self.proj.clone()
        } else {
            format!("{}/{}", self.proj, self.topic)
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Intent {
    pub primary: String,
    pub summary: String,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Status {
    pub confidence: Option<Confidence>,
    pub blocked: bool,
}

/// §7: an assumption that materially changed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ModelShift {
    pub before: String,
    pub after: String,
}

/// A pulse record. `ts` and `prev` are stamped by the writer under the stream lock.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Record {
    pub ts: Ts,
    #[serde(rename = "type")]
    pub kind: RecordType,
    pub focus: Vec<Focus>,
    pub intent: Option<Intent>,
    pub status: Option<Status>,
    pub next: Vec<String>,
    pub defer: Vec<String>,
    pub files: Vec<String>,
    pub tags: Vec<String>,
    pub model_shift: Option<ModelShift>,
    /// On a compaction record that opens a rotated stream: the archive it continues.
    pub archive: Option<String>,
    /// The digest of the previous record (the hash chain); absent on the very first record.
    pub prev: Option<String>,
    /// Free Markdown after the front matter. Facts live here as a `facts:` list.
    pub body: String,
}

/// A record that breaks a rule of the spec. Messages say what is wrong in the record's own terms
/// (fields, not flags); the binary says which flag or line to change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("focus entry {index} has an empty `proj`: name the project")]
    EmptyProject { index: usize },
    #[error("`intent.primary` is empty: say what the intent is (e.g. continue, switch, pause)")]
    EmptyIntent,
    #[error(
        "a tangent must not change intent (current intent is `{current}`, the tangent says `{given}`)"
    )]
    TangentChangesIntent { current: String, given: String },
    #[error("`model_shift` needs both `before` and `after`")]
    HalfModelShift,
    #[error("{field} contains an empty entry")]
    EmptyEntry { field: &'static str },
    #[error("{field} contains a line break: one line per entry")]
    Multiline { field: &'static str },
}

impl Record {
    /// A new record of the given type at `ts`, every other field empty.
    pub fn new(kind: RecordType, ts: Ts) -> Record {
        Record {
            ts,
            kind,
            focus: Vec::new(),
            intent: None,
            status: None,
            next: Vec::new(),
            defer: Vec::new(),
            files: Vec::new(),
            tags: Vec::new(),
            model_shift: None,
            archive: None,
            prev: None,
            body: String::new(),
        }
    }

    /// The facts listed in the body (`facts:` followed by `- ` items).
    pub fn facts(&self) -> Vec<String> {
        body_facts(&self.body)
    }

    /// Check the rules that hold for a record on its own (the tangent rule needs the stream and
    /// lives in [`check_tangent`]).
    pub fn validate(&self) -> Result<(), RecordError> {
        for (index, f) in self.focus.iter().enumerate() {
            if f.proj.trim().is_empty() {
                return Err(RecordError::EmptyProject { index });
            }
        }
        if let Some(intent) = &self.intent
            && intent.primary.trim().is_empty()
        {
            return Err(RecordError::EmptyIntent);
        }
        if let Some(ms) = &self.model_shift
            && (ms.before.trim().is_empty() || ms.after.trim().is_empty())
        {
            return Err(RecordError::HalfModelShift);
        }
        for (field, items) in [
            ("next", &self.next),
            ("defer", &self.defer),
            ("files", &self.files),
            ("tags", &self.tags),
        ] {
            if items.iter().any(|s| s.trim().is_empty()) {
                return Err(RecordError::EmptyEntry { field });
            }
            if items.iter().any(|s| s.contains(['\n', '\r'])) {
                return Err(RecordError::Multiline { field });
            }
        }
        Ok(())
    }

    /// Whether the record carries any content worth writing.
    pub fn is_empty(&self) -> bool {
        self.intent.is_none()
            && self.next.is_empty()
            && self.defer.is_empty()
            && self.files.is_empty()
            && self.model_shift.is_none()
            && self.body.trim().is_empty()
            && self.status.is_none()
    }

    /// Every free-text field, mutably: the one place redaction walks so no field is missed.
    pub fn text_fields_mut(&mut self) -> Vec<&mut String> {
        let mut out: Vec<&mut String> = Vec::new();
        for f in &mut self.focus {
            out.push(&mut f.proj);
            out.push(&mut f.topic);
        }
        if let Some(i) = &mut self.intent {
            out.push(&mut i.primary);
            out.push(&mut i.summary);
        }
        out.extend(self.next.iter_mut());
        out.extend(self.defer.iter_mut());
        out.extend(self.files.iter_mut());
        out.extend(self.tags.iter_mut());
        if let Some(m) = &mut self.model_shift {
            out.push(&mut m.before);
            out.push(&mut m.after);
        }
        if let Some(a) = &mut self.archive {
            out.push(a);
        }
        out.push(&mut self.body);
        out
    }
}

/// §6: a tangent may not change the intent in force. `current` is the intent of the latest
/// non-tangent record.
pub fn check_tangent(record: &Record, current: Option<&Intent>) -> Result<(), RecordError> {
    if record.kind != RecordType::Tangent {
        return Ok(());
    }
    match (&record.intent, current) {
        (Some(given), Some(cur)) if given.primary != cur.primary => {
            Err(RecordError::TangentChangesIntent {
                current: cur.primary.clone(),
                given: given.primary.clone(),
            })
        }
        (Some(given), None) => Err(RecordError::TangentChangesIntent {
            current: "(none)".into(),
            given: given.primary.clone(),
        }),
        _ => Ok(()),
    }
}

/// Render facts as the body's `facts:` list (JSON-quoted so any text survives).
pub fn facts_body(facts: &[String]) -> String {
    if facts.is_empty() {
        return String::new();
    }
    let mut s = String::from("facts:\n");
    for f in facts {
        s.push_str("- ");
        s.push_str(&serde_json::to_string(f).unwrap_or_default());
        s.push('\n');
    }
    s
}

/// `text` as a fenced block labelled `label`, for a record's body: the fence is longer than any
/// run of backticks in the text, so the text cannot end it (the framing escapes what could end
/// the record).
pub fn quoted_block(label: &str, text: &str) -> String {
    let fence = "`".repeat(crate::text::longest_run(text, '`').max(2) + 1);
    format!("{fence}text {label}\n{}\n{fence}\n", text.trim_end())
}

/// A record of something trail observed (not the agent's words): one fact a line, tagged
/// `trail-hook`, focused on the project without a topic, and placed in it by id and branch
/// ([`Project::tags`]).
pub fn observed_record(
    project: &Project,
    kind: RecordType,
    facts: &[String],
    next: &[String],
    tags: &[&str],
) -> Record {
    let mut r = Record::new(kind, Ts::now());
    r.focus = vec![Focus {
        proj: project.name.clone(),
        topic: String::new(),
    }];
    r.next = next.to_vec();
    r.tags = std::iter::once("trail-hook")
        .chain(tags.iter().copied())
        .map(String::from)
        .chain(project.tags())
        .collect();
    let facts: Vec<String> = facts.iter().map(|f| f.replace('\n', " ")).collect();
    r.body = facts_body(&facts);
    r
}

/// Read the `facts:` list from a body. Items may be JSON-quoted, single-quoted or plain.
pub fn body_facts(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_facts = false;
    for line in body.lines() {
        let line = line.trim_end_matches('\r');
        if line.trim_end() == "facts:" {
            in_facts = true;
            continue;
        }
        if !in_facts {
            continue;
        }
        let t = line.trim_start();
        if let Some(item) = t.strip_prefix("- ").or_else(|| (t == "-").then_some("")) {
            let v = unquote(item.trim());
            if !v.is_empty() {
                out.push(v);
            }
        } else if !t.is_empty() {
            in_facts = false;
        }
    }
    out
}

fn unquote(s: &str) -> String {
    if s.starts_with('"')
        && let Ok(v) = serde_json::from_str::<String>(s)
    {
        return v;
    }
    if s.len() >= 2 && s.starts_with('\'') && s.ends_with('\'') {
        return s[1..s.len() - 1].replace("''", "'");
    }
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_round_trip_through_the_body() {
        let facts = vec!["curl -v shows \"unknown CA\"".to_string(), "a: b".into()];
        assert_eq!(body_facts(&facts_body(&facts)), facts);
    }

    #[test]
    fn reads_the_spec_example_body() {
        let body = "facts:\n- \"curl -v shows unknown CA error\"\n";
        assert_eq!(body_facts(body), vec!["curl -v shows unknown CA error"]);
    }

    #[test]
    fn a_tangent_keeps_the_intent() {
        let mut r = Record::new(RecordType::Tangent, Ts::from_micros(1));
        let cur = Intent {
            primary: "continue".into(),
            summary: String::new(),
        };
        assert!(check_tangent(&r, Some(&cur)).is_ok());
        r.intent = Some(Intent {
            primary: "switch".into(),
            summary: String::new(),
        });
        let err = check_tangent(&r, Some(&cur)).unwrap_err();
        assert!(err.to_string().contains("must not change intent"));
        r.intent.as_mut().unwrap().primary = "continue".into();
        assert!(check_tangent(&r, Some(&cur)).is_ok());
    }

    #[test]
    fn an_observed_record_is_one_fact_a_line_tagged_as_trails_own() {
        let project = Project {
            name: "shop".into(),
            id: "0123456789ab".into(),
            root: "/work/shop".into(),
            branch: Some("main".into()),
        };
        let r = observed_record(
            &project,
            RecordType::Checkpoint,
            &["ran under approval:\ngit push".into()],
            &["tell the user".into()],
            &["decision"],
        );
        assert_eq!(r.focus[0].proj, "shop");
        assert!(r.focus[0].topic.is_empty());
        assert_eq!(
            r.tags,
            [
                "trail-hook",
                "decision",
                "project:0123456789ab",
                "branch:main"
            ]
        );
        assert_eq!(r.facts(), ["ran under approval: git push"]);
        assert_eq!(r.next, ["tell the user"]);
        assert!(r.validate().is_ok(), "{:?}", r.validate());
    }
}
