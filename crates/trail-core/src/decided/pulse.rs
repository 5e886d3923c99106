//! A decision as a pulse record, and back.
//!
//! The record is an ordinary pulse focused on the project (so rehydration shows it as a fact of
//! the project's thread) and tagged `decided` and `decision:<id>`. Its body holds the fact a
//! person reads, then the decision itself as one line of JSON in a fenced block marked
//! `trail-decision`, which is what [`from_record`] reads: the stream alone is enough to write
//! the Decision Log again ([`crate::notes::rebuild`]).

use serde::{Deserialize, Serialize};

use crate::ledger::record::{Focus, Record, RecordType, facts_body};
use crate::project::Project;
use crate::time::Ts;
use crate::trajectory::Decision;

/// The tag every decision record has.
pub const TAG: &str = "decided";
/// Marks the fenced block that carries the decision in a record's body.
const FENCE: &str = "```json trail-decision";

/// What the fenced block holds: the decision and when it was made (the record's own `ts` is
/// the time it reached the stream).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Carried {
    #[serde(with = "crate::time::text")]
    pub ts: Ts,
    #[serde(flatten)]
    pub decision: Decision,
}

/// The record for `decision`, made at `ts`, in `project`. Its text is redacted when appended,
/// as every record's is (and the decision was redacted before this).
pub fn record(project: &Project, ts: Ts, decision: &Decision) -> Record {
    let mut r = Record::new(RecordType::Pulse, ts);
    r.focus = vec![Focus {
        proj: project.name.clone(),
        topic: String::new(),
    }];
    r.tags = [
        TAG.to_string(),
        format!("decision:{}", tag_safe(&decision.id)),
    ]
    .into_iter()
    .chain(project.tags())
    .collect();
    let fact = format!(
        "decided: {} — {}",
        one_line(&decision.title),
        one_line(&decision.decision)
    );
    let carried = Carried {
        ts,
        decision: decision.clone(),
    };
    // `serde_json` escapes every control character: the JSON is one line, whatever it holds.
    let json = serde_json::to_string(&carried).unwrap_or_default();
    r.body = format!("{}\n{FENCE}\n{json}\n```\n", facts_body(&[fact]));
    r
}

/// The decision a record carries, when it is a decision record of `project_id` (or of any
/// project when `project_id` is `None`).
pub fn from_record(r: &Record, project_id: Option<&str>) -> Option<Carried> {
    if !r.tags.iter().any(|t| t == TAG) {
        return None;
    }
    if let Some(id) = project_id
        && crate::project::tagged_id(&r.tags).is_some_and(|t| t != id)
    {
        return None;
    }
    let start = r.body.find(FENCE)? + FENCE.len();
    let rest = r.body[start..].trim_start_matches(['\r', '\n']);
    let line = rest.lines().next()?;
    serde_json::from_str(line).ok()
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A tag is one line without spaces.
fn tag_safe(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_whitespace() { '-' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trajectory::Evidence;

    #[test]
    fn a_decision_survives_the_record_whatever_its_text() {
        let project = Project {
            name: "shop".into(),
            id: "0123456789ab".into(),
            root: "/shop".into(),
            branch: Some("main".into()),
        };
        let d = Decision {
            id: "d-1".into(),
            title: "Use JWT\n```\n---\nschema: x".into(),
            decision: "a\r\nb".into(),
            rationale: "\"quoted\" and \\".into(),
            evidence: vec![Evidence {
                citation: "[${PROJECT_ROOT}/a.rs:1]".into(),
                quote: Some("fn a() {\n}".into()),
                status: Some(crate::cite::Status::Verified),
            }],
            tests: vec!["happy".into()],
            bead: None,
        };
        let ts = Ts::parse_strict("2026-01-02T03:04:05.000006Z").unwrap();
        let r = record(&project, ts, &d);
        assert!(r.validate().is_ok());
        assert_eq!(r.facts(), ["decided: Use JWT ``` --- schema: x — a b"]);
        let back = from_record(&r, Some("0123456789ab")).unwrap();
        assert_eq!((back.ts, &back.decision), (ts, &d));
        assert!(from_record(&r, Some("ffffffffffff")).is_none());
        // It reads back after a trip through the stream's own format too.
        let (bytes, _) = crate::ledger::frame::encode(&r);
        let again = crate::ledger::frame::Frame::split(0, &bytes)
            .parse()
            .unwrap();
        assert_eq!(from_record(&again, None).unwrap().decision, d);
    }
}
