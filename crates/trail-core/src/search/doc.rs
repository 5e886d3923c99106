//! What a document says about itself: when it was written, what kind it is, which projects it
//! is about. Read only from documents that match, and as little of them as the answer needs.

use std::borrow::Cow;

use serde_json::Value;

use super::sources::Source;
use crate::ledger::frame::Frame;
use crate::time::Ts;

/// A document's time, kind and projects, as far as it tells them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Meta<'a> {
    pub time: Option<Ts>,
    /// A record's type, a trajectory entry's phase, a proof line's tool, `daily` or `core`.
    pub kind: Option<Cow<'a, str>>,
    /// The projects a record is focused on.
    pub proj: Vec<String>,
}

impl Meta<'_> {
    pub fn into_owned(self) -> Meta<'static> {
        Meta {
            time: self.time,
            kind: self.kind.map(|k| Cow::Owned(k.into_owned())),
            proj: self.proj,
        }
    }
}

/// A stream record's meta. trail writes front matter in one shape (`ledger/format.rs`), whose
/// first lines sit at fixed offsets and are read here without a parser (a search reads the
/// meta of every record that matches); anything else is parsed in full.
pub(crate) fn record(rec: &[u8], with_proj: bool) -> Meta<'_> {
    canonical(rec, with_proj).unwrap_or_else(|| parsed(rec))
}

/// `---`, the schema line and `ts: ` as trail writes them: the timestamp follows at a fixed place.
const HEAD: &[u8] = b"---\nschema: ledgerpulse/v1\nts: ";
const TS_LEN: usize = "2026-11-26T03:34:39.525123Z".len();

fn canonical(rec: &[u8], with_proj: bool) -> Option<Meta<'_>> {
    let rest = rec.strip_prefix(HEAD)?;
    let time = Ts::parse_canonical(rest.get(..TS_LEN)?)?;
    let rest = rest[TS_LEN..].strip_prefix(b"\ntype: ")?;
    let end = memchr::memchr(b'\n', rest)?;
    let kind = std::str::from_utf8(&rest[..end]).ok()?;
    let mut meta = Meta {
        time: Some(time),
        kind: Some(Cow::Borrowed(kind)),
        proj: Vec::new(),
    };
    if with_proj {
        let front = rest[end + 1..].split(|&b| b == b'\n');
        for line in front.take_while(|l| *l != b"---") {
            if let Some(p) = line.strip_prefix(b"  - proj: ") {
                meta.proj.push(serde_json::from_slice::<String>(p).ok()?);
            }
        }
    }
    Some(meta)
}

fn parsed(rec: &[u8]) -> Meta<'static> {
    match Frame::split_unhashed(0, rec).parse() {
        Ok(r) => Meta {
            time: Some(r.ts),
            kind: Some(Cow::Borrowed(r.kind.as_str())),
            proj: r.focus.into_iter().map(|f| f.proj).collect(),
        },
        Err(_) => Meta::default(),
    }
}

/// A JSON line's meta: the proof log's `timestamp` and `tool`, the trajectory's `ts` and `phase`.
pub(crate) fn json_line(line: &[u8], source: Source) -> Meta<'static> {
    let Ok(Value::Object(o)) = serde_json::from_slice::<Value>(line) else {
        return Meta::default();
    };
    let (time_key, kind_key) = match source {
        Source::Proof => ("timestamp", "tool"),
        _ => ("ts", "phase"),
    };
    let text = |k: &str| o.get(k).and_then(Value::as_str);
    Meta {
        time: text(time_key).and_then(|t| Ts::parse_loose(t).ok()),
        kind: text(kind_key).map(|k| Cow::Owned(k.to_string())),
        proj: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::frame::encode;
    use crate::ledger::record::{Focus, Record, RecordType};

    #[test]
    fn a_record_tells_its_time_type_and_projects_either_way() {
        let mut r = Record::new(RecordType::Handoff, Ts::from_micros(1_790_000_000_123_456));
        r.focus = vec![
            Focus {
                proj: "shop".into(),
                topic: "checkout".into(),
            },
            Focus {
                proj: "a \"quoted\" one".into(),
                topic: String::new(),
            },
        ];
        r.body = "facts:\n- \"x\"\n".into();
        let (bytes, _) = encode(&r);
        let fast = record(&bytes, true);
        assert_eq!(fast.time, Some(r.ts));
        assert_eq!(fast.kind.as_deref(), Some("handoff"));
        assert_eq!(fast.proj, ["shop", "a \"quoted\" one"]);
        assert_eq!(record(&bytes, false).proj, Vec::<String>::new());
        // The same record in another YAML shape goes through the parser.
        let text = String::from_utf8(bytes.clone()).unwrap();
        let other = text.replace("schema: ledgerpulse/v1", "schema: 'ledgerpulse/v1'");
        assert_eq!(record(other.as_bytes(), true), fast);
        assert_eq!(record(b"---\ngarbage", true), Meta::default());
    }

    #[test]
    fn json_lines_name_their_time_and_kind() {
        let p = json_line(
            br#"{"timestamp":"2026-11-26T10:00:00.000000Z","tool":"Bash"}"#,
            Source::Proof,
        );
        assert_eq!(p.kind.as_deref(), Some("Bash"));
        assert!(p.time.is_some());
        let t = json_line(
            br#"{"ts":"2026-11-26","phase":"pivot"}"#,
            Source::Trajectory,
        );
        assert_eq!(t.kind.as_deref(), Some("pivot"));
        assert!(t.time.is_some());
        assert_eq!(json_line(b"not json", Source::Proof), Meta::default());
    }
}
