//! The record's text form: front matter written in one canonical shape, read in any YAML shape.
//!
//! trail writes every front matter the same way (keys in spec order, strings JSON-quoted, which
//! YAML reads as double-quoted scalars), so it can read its own records with a line parser that
//! costs a few microseconds; rehydration reads hundreds per call. The same parser takes the
//! layout of the spec's own example (§3: quoted enum values, flow-style lists such as
//! `tags: ["a"]`), which other LedgerPulse writers copy: a stream they wrote costs no more to
//! resume. Anything else — other YAML shapes, hand-written `--stdin` input — goes through a full
//! YAML parser (a YAML parse costs about fifty line parses).

use std::borrow::Cow;

use serde_json::Value;

use super::record::{
    Confidence, Focus, Intent, ModelShift, Record, RecordError, RecordType, SCHEMA, Status,
};
use crate::time::Ts;

/// Front matter that could not be read. `line` and `column` are 1-based within the front matter
/// text handed to [`parse_front`] (callers add the offset of the front matter in their input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl ParseError {
    fn at(line: usize, column: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            column,
            message: message.into(),
        }
    }
}

fn q(s: &str) -> String {
    // serde_json string escapes are a subset of YAML's double-quoted escapes.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// Write the front matter lines (without the `---` fences) in canonical form.
pub fn write_front(r: &Record, out: &mut String) {
    use std::fmt::Write;
    let _ = writeln!(out, "schema: {SCHEMA}");
    let _ = writeln!(out, "ts: {}", r.ts);
    let _ = writeln!(out, "type: {}", r.kind);
    if !r.focus.is_empty() {
        out.push_str("focus:\n");
        for f in &r.focus {
            let _ = writeln!(out, "  - proj: {}", q(&f.proj));
            let _ = writeln!(out, "    topic: {}", q(&f.topic));
        }
    }
    if let Some(i) = &r.intent {
        let _ = writeln!(
            out,
            "intent:\n  primary: {}\n  summary: {}",
            q(&i.primary),
            q(&i.summary)
        );
    }
    if let Some(s) = &r.status {
        out.push_str("status:\n");
        if let Some(c) = s.confidence {
            let _ = writeln!(out, "  confidence: {}", c.as_str());
        }
        let _ = writeln!(out, "  blocked: {}", s.blocked);
    }
    for (key, items) in [
        ("next", &r.next),
        ("defer", &r.defer),
        ("files", &r.files),
        ("tags", &r.tags),
    ] {
        if !items.is_empty() {
            let _ = writeln!(out, "{key}:");
            for it in items {
                let _ = writeln!(out, "  - {}", q(it));
            }
        }
    }
    if let Some(m) = &r.model_shift {
        let _ = writeln!(
            out,
            "model_shift:\n  before: {}\n  after: {}",
            q(&m.before),
            q(&m.after)
        );
    }
    if let Some(a) = &r.archive {
        let _ = writeln!(out, "archive: {}", q(a));
    }
    if let Some(p) = &r.prev {
        let _ = writeln!(out, "prev: {p}");
    }
}

/// Parse front matter text (between the fences). Tries the canonical fast path first.
pub fn parse_front(text: &str) -> Result<Record, ParseError> {
    if let Some(r) = parse_canonical(text) {
        return Ok(r);
    }
    parse_yaml(text)
}

// ---------------------------------------------------------------------------------------------
// Fast path: exactly what `write_front` produces. Any surprise returns None (use the YAML path).

fn parse_canonical(text: &str) -> Option<Record> {
    let mut lines = text.lines().peekable();
    if lines.next()? != "schema: ledgerpulse/v1" {
        return None;
    }
    let ts = Ts::parse_strict(lines.next()?.strip_prefix("ts: ")?).ok()?;
    let kind = RecordType::parse(lines.next()?.strip_prefix("type: ")?)?;
    let mut r = Record::new(kind, ts);
    while let Some(line) = lines.next() {
        match line {
            "focus:" => {
                while let Some(l) = lines.next_if(|l| l.starts_with("  - proj: ")) {
                    let proj = jstr(&l[10..])?;
                    let topic = jstr(lines.next()?.strip_prefix("    topic: ")?)?;
                    r.focus.push(Focus { proj, topic });
                }
            }
            "intent:" => {
                let primary = jstr(lines.next()?.strip_prefix("  primary: ")?)?;
                let summary = jstr(lines.next()?.strip_prefix("  summary: ")?)?;
                r.intent = Some(Intent { primary, summary });
            }
            "status:" => {
                let mut l = lines.next()?;
                let mut confidence = None;
                if let Some(c) = l.strip_prefix("  confidence: ") {
                    // Bare as trail writes it, or quoted as the spec's example does.
                    let c = if c.starts_with('"') {
                        jstr(c)?
                    } else {
                        c.into()
                    };
                    confidence = Some(Confidence::parse(&c)?);
                    l = lines.next()?;
                }
                let blocked = match l.strip_prefix("  blocked: ")? {
                    "true" => true,
                    "false" => false,
                    _ => return None,
                };
                r.status = Some(Status {
                    confidence,
                    blocked,
                });
            }
            "next:" | "defer:" | "files:" | "tags:" => {
                let mut items = Vec::new();
                while let Some(l) = lines.next_if(|l| l.starts_with("  - ")) {
                    items.push(jstr(&l[4..])?);
                }
                match line {
                    "next:" => r.next = items,
                    "defer:" => r.defer = items,
                    "files:" => r.files = items,
                    _ => r.tags = items,
                }
            }
            "model_shift:" => {
                let before = jstr(lines.next()?.strip_prefix("  before: ")?)?;
                let after = jstr(lines.next()?.strip_prefix("  after: ")?)?;
                r.model_shift = Some(ModelShift { before, after });
            }
            _ => {
                if let Some(a) = line.strip_prefix("archive: ") {
                    r.archive = Some(jstr(a)?);
                } else if let Some(p) = line.strip_prefix("prev: ") {
                    if p.len() != 64 || !p.bytes().all(|b| b.is_ascii_hexdigit()) {
                        return None;
                    }
                    r.prev = Some(p.to_string());
                } else if let Some((key, items)) = flow_list_field(line.as_bytes()) {
                    let items = items.read()?.into_iter().map(Cow::into_owned).collect();
                    match key {
                        ListKey::Next => r.next = items,
                        ListKey::Defer => r.defer = items,
                        ListKey::Files => r.files = items,
                        ListKey::Tags => r.tags = items,
                    }
                } else {
                    return None;
                }
            }
        }
    }
    Some(r)
}

fn jstr(s: &str) -> Option<String> {
    if !s.starts_with('"') {
        return None;
    }
    if !s.contains('\\') && s.len() >= 2 && s.ends_with('"') && !s[1..s.len() - 1].contains('"') {
        return Some(s[1..s.len() - 1].to_string());
    }
    serde_json::from_str(s).ok()
}

/// What a glance at canonical front matter tells, without building a record: enough for
/// rehydration to decide whether a record can still add anything.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Glance<'a> {
    pub kind: Option<RecordType>,
    pub focus: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    pub intent: bool,
    pub status: bool,
    pub next: bool,
    pub defer: Vec<Cow<'a, str>>,
    pub files: Vec<Cow<'a, str>>,
    pub model_shift: bool,
}

/// The block an indented line of front matter belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    /// Before any block, or after a one-line field: an indented line here is not ours.
    Top,
    Focus,
    /// `intent:`, `status:`, `model_shift:`: their lines change nothing a glance reports.
    Fields,
    /// `next:` or `tags:` items: counted at the key, not read.
    Items,
    Defer,
    Files,
}

/// Glance at front matter in the shapes the line parser reads (see the module docs); `None` for
/// anything else, which the caller must then parse. A glance that misread a record would let
/// rehydration skip one that mattered, so any line it does not recognise ends it. Works on
/// bytes and borrows what it can: it runs for every record a resume reads.
pub fn glance(text: &[u8]) -> Option<Glance<'_>> {
    let mut start = 0;
    let mut lines = memchr::memchr_iter(b'\n', text)
        .chain(std::iter::once(text.len()))
        .map(move |end| {
            let line = &text[start.min(end)..end];
            start = end + 1;
            line
        });
    if lines.next()? != b"schema: ledgerpulse/v1" {
        return None;
    }
    lines.next()?.strip_prefix(b"ts: ")?;
    let kind = std::str::from_utf8(lines.next()?.strip_prefix(b"type: ")?).ok()?;
    let mut g = Glance {
        kind: Some(RecordType::parse(kind)?),
        ..Glance::default()
    };
    let mut block = Block::Top;
    for line in lines {
        if line.is_empty() {
            // The end of the text, or a blank line, which YAML passes over.
            continue;
        }
        if line.first() == Some(&b' ') {
            match block {
                Block::Focus => {
                    if let Some(p) = line.strip_prefix(b"  - proj: ") {
                        g.focus.push((quoted(p)?, Cow::Borrowed("")));
                    } else {
                        g.focus.last_mut()?.1 = quoted(line.strip_prefix(b"    topic: ")?)?;
                    }
                }
                Block::Fields => {}
                Block::Items => {
                    line.strip_prefix(b"  - ")?;
                }
                Block::Defer => g.defer.push(quoted(line.strip_prefix(b"  - ")?)?),
                Block::Files => g.files.push(quoted(line.strip_prefix(b"  - ")?)?),
                Block::Top => return None,
            }
            continue;
        }
        block = match line {
            b"focus:" => Block::Focus,
            b"intent:" => {
                g.intent = true;
                Block::Fields
            }
            b"status:" => {
                g.status = true;
                Block::Fields
            }
            b"model_shift:" => {
                g.model_shift = true;
                Block::Fields
            }
            b"next:" => {
                g.next = true;
                Block::Items
            }
            b"tags:" => Block::Items,
            b"defer:" => Block::Defer,
            b"files:" => Block::Files,
            _ if line.starts_with(b"archive: ") || line.starts_with(b"prev: ") => Block::Top,
            _ => {
                let (key, items) = flow_list_field(line)?;
                match key {
                    ListKey::Next => g.next = items.count > 0,
                    ListKey::Defer => g.defer = items.read()?,
                    ListKey::Files => g.files = items.read()?,
                    ListKey::Tags => {}
                }
                Block::Top
            }
        };
    }
    Some(g)
}

/// The list fields of a record.
#[derive(Clone, Copy)]
enum ListKey {
    Next,
    Defer,
    Files,
    Tags,
}

/// A list field written on one line in flow style, as the spec's example writes `tags:`:
/// `key: ["a", "b"]`, every item JSON-quoted. `None` for anything else.
fn flow_list_field(line: &[u8]) -> Option<(ListKey, FlowList<'_>)> {
    let (key, rest) = [
        (ListKey::Next, &b"next: "[..]),
        (ListKey::Defer, b"defer: "),
        (ListKey::Files, b"files: "),
        (ListKey::Tags, b"tags: "),
    ]
    .into_iter()
    .find_map(|(key, prefix)| Some((key, line.strip_prefix(prefix)?)))?;
    let mut rest = spaces(rest.strip_prefix(b"[")?.strip_suffix(b"]")?);
    // Where each item is, found once; only the lists a glance needs are then unquoted.
    let mut items = Vec::new();
    while !rest.is_empty() {
        // An item runs to the first quote not escaped by a backslash.
        let body = rest.strip_prefix(b"\"")?;
        let mut end = 0;
        loop {
            end += memchr::memchr2(b'"', b'\\', body.get(end..)?)?;
            if body[end] == b'"' {
                break;
            }
            end += 2;
        }
        items.push(&rest[..end + 2]);
        rest = spaces(&rest[end + 2..]);
        if !rest.is_empty() {
            // A separator, and an item after it (YAML allows a trailing comma; leave that to it).
            rest = spaces(rest.strip_prefix(b",")?);
            if rest.is_empty() {
                return None;
            }
        }
    }
    Some((
        key,
        FlowList {
            count: items.len(),
            items,
        },
    ))
}

/// The items of a flow-style list, still quoted.
struct FlowList<'a> {
    items: Vec<&'a [u8]>,
    count: usize,
}

impl<'a> FlowList<'a> {
    /// The items unquoted; `None` if one is not a valid JSON string.
    fn read(self) -> Option<Vec<Cow<'a, str>>> {
        self.items.into_iter().map(quoted).collect()
    }
}

/// `b` without its leading spaces (not tabs: YAML treats those differently).
fn spaces(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|&&c| c == b' ').count();
    &b[n..]
}

/// A JSON-quoted value, borrowed when it has no escapes.
fn quoted(b: &[u8]) -> Option<Cow<'_, str>> {
    let inner = b.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
    if memchr::memchr2(b'\\', b'"', inner).is_some() {
        jstr(std::str::from_utf8(b).ok()?).map(Cow::Owned)
    } else {
        std::str::from_utf8(inner).ok().map(Cow::Borrowed)
    }
}

// ---------------------------------------------------------------------------------------------
// General path: any YAML the spec allows, with errors that point at a line and column.

/// The general YAML path alone (tests and fuzzing compare it with the fast path).
#[doc(hidden)]
pub fn parse_front_yaml(text: &str) -> Result<Record, ParseError> {
    parse_yaml(text)
}

fn parse_yaml(text: &str) -> Result<Record, ParseError> {
    let map = yaml_mapping(text)?;
    check_schema(map.get("schema")).map_err(|e| e.place(text, "schema"))?;
    let ts = required_ts(map.get("ts")).map_err(|e| e.place(text, "ts"))?;
    let kind = required_type(map.get("type")).map_err(|e| e.place(text, "type"))?;
    let mut r = Record::new(kind, ts);
    for (key, v) in &map {
        let key = key.as_str();
        let err = |message: String| at_key(text, key, message);
        match key {
            "schema" | "ts" | "type" => {}
            "focus" => r.focus = focus(v).map_err(err)?,
            "intent" => r.intent = intent(v).map_err(err)?,
            "status" => r.status = status(v).map_err(err)?,
            "next" | "defer" | "files" | "tags" => {
                let items =
                    string_list(v).ok_or_else(|| err(format!("`{key}` must be a list of text")))?;
                match key {
                    "next" => r.next = items,
                    "defer" => r.defer = items,
                    "files" => r.files = items,
                    _ => r.tags = items,
                }
            }
            "model_shift" => r.model_shift = model_shift(v).map_err(err)?,
            "archive" => r.archive = scalar(Some(v)),
            "prev" => r.prev = Some(prev(v).map_err(err)?),
            // Fields from newer writers are kept on disk (the seal covers them) and ignored here.
            _ => {}
        }
    }
    Ok(r)
}

/// The front matter as a YAML mapping, or where the YAML breaks.
fn yaml_mapping(text: &str) -> Result<serde_json::Map<String, Value>, ParseError> {
    let value: Value = serde_saphyr::from_str(text).map_err(|e| {
        let (line, column) = e.location().map_or((1, 1), |l| {
            (
                crate::fsutil::to_usize(l.line()),
                crate::fsutil::to_usize(l.column()),
            )
        });
        ParseError::at(
            line.max(1),
            column.max(1),
            trail_base::text::parser_message(&e.to_string()),
        )
    })?;
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(ParseError::at(
            1,
            1,
            "front matter must be a YAML mapping of fields",
        )),
    }
}

/// A required field that is wrong: missing (reported at the start) or with a bad value
/// (reported at its key).
enum Required {
    Missing(String),
    Bad(String),
}

impl Required {
    fn place(self, text: &str, key: &str) -> ParseError {
        match self {
            Required::Missing(m) => ParseError::at(1, 1, m),
            Required::Bad(m) => at_key(text, key, m),
        }
    }
}

/// An error about the value of top-level `key`, placed at the key.
fn at_key(text: &str, key: &str, message: String) -> ParseError {
    let (line, column) = locate_key(text, key);
    ParseError::at(line, column, message)
}

fn check_schema(v: Option<&Value>) -> Result<(), Required> {
    match v {
        Some(Value::String(s)) if s == SCHEMA => Ok(()),
        Some(other) => Err(Required::Bad(format!(
            "`schema` must be `{SCHEMA}`, found {}",
            short(other)
        ))),
        None => Err(Required::Missing(format!("missing `schema: {SCHEMA}`"))),
    }
}

fn required_ts(v: Option<&Value>) -> Result<Ts, Required> {
    match v {
        Some(Value::String(s)) => {
            Ts::parse_strict(s).map_err(|e| Required::Bad(format!("`ts`: {e}")))
        }
        Some(other) => Err(Required::Bad(format!(
            "`ts` must be a timestamp, found {}",
            short(other)
        ))),
        None => Err(Required::Missing("missing `ts`".into())),
    }
}

fn required_type(v: Option<&Value>) -> Result<RecordType, Required> {
    match v {
        Some(Value::String(s)) => RecordType::parse(s).ok_or_else(|| {
            Required::Bad(format!(
                "unknown type `{s}`: use pulse, checkpoint, tangent, compaction or handoff"
            ))
        }),
        Some(other) => Err(Required::Bad(format!(
            "`type` must be a word, found {}",
            short(other)
        ))),
        None => Err(Required::Missing("missing `type`".into())),
    }
}

/// `focus`: a list of `{proj, topic}`, or a single one.
fn focus(v: &Value) -> Result<Vec<Focus>, String> {
    let items = match v {
        Value::Array(a) => a.as_slice(),
        Value::Object(_) => std::slice::from_ref(v),
        Value::Null => &[],
        _ => return Err("`focus` must be a list of {proj, topic}".into()),
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Value::Object(m) = item else {
            return Err(format!(
                "`focus[{i}]` must be a mapping with `proj` and `topic`"
            ));
        };
        let proj =
            scalar(m.get("proj")).ok_or_else(|| format!("`focus[{i}].proj` must be text"))?;
        let topic = optional_text(m.get("topic"))
            .ok_or_else(|| format!("`focus[{i}].topic` must be text"))?;
        out.push(Focus { proj, topic });
    }
    Ok(out)
}

/// `intent`: `{primary, summary}`, or the primary alone.
fn intent(v: &Value) -> Result<Option<Intent>, String> {
    match v {
        Value::Object(m) => {
            let primary =
                scalar(m.get("primary")).ok_or("`intent.primary` must be text".to_string())?;
            let summary = optional_text(m.get("summary"))
                .ok_or("`intent.summary` must be text".to_string())?;
            Ok(Some(Intent { primary, summary }))
        }
        Value::String(s) => Ok(Some(Intent {
            primary: s.clone(),
            summary: String::new(),
        })),
        Value::Null => Ok(None),
        _ => Err("`intent` must be {primary, summary}".into()),
    }
}

/// `status`: `{confidence, blocked}`, both optional.
fn status(v: &Value) -> Result<Option<Status>, String> {
    let m = match v {
        Value::Object(m) => m,
        Value::Null => return Ok(None),
        _ => return Err("`status` must be {confidence, blocked}".into()),
    };
    let confidence = match m.get("confidence") {
        None | Some(Value::Null) => None,
        Some(Value::String(c)) => Some(
            Confidence::parse(c)
                .ok_or_else(|| format!("`status.confidence` is `{c}`: use low, medium or high"))?,
        ),
        Some(o) => {
            return Err(format!(
                "`status.confidence` must be low, medium or high, found {}",
                short(o)
            ));
        }
    };
    let blocked = match m.get("blocked") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(o) => {
            return Err(format!(
                "`status.blocked` must be true or false, found {}",
                short(o)
            ));
        }
    };
    Ok(Some(Status {
        confidence,
        blocked,
    }))
}

/// `model_shift`: `{before, after}`, both or neither.
fn model_shift(v: &Value) -> Result<Option<ModelShift>, String> {
    match v {
        Value::Object(m) => match (scalar(m.get("before")), scalar(m.get("after"))) {
            (Some(before), Some(after)) => Ok(Some(ModelShift { before, after })),
            _ => Err(RecordError::HalfModelShift.to_string()),
        },
        Value::Null => Ok(None),
        _ => Err("`model_shift` must be {before, after}".into()),
    }
}

/// `prev`: a sha256 digest in hex, kept in lower case.
fn prev(v: &Value) -> Result<String, String> {
    let p = scalar(Some(v)).unwrap_or_default();
    if p.len() != 64 || !p.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err("`prev` must be a 64-digit sha256 hex digest".into());
    }
    Ok(p.to_ascii_lowercase())
}

/// Text that may be left out (empty then); `None` when it is something other than text.
fn optional_text(v: Option<&Value>) -> Option<String> {
    match v {
        None | Some(Value::Null) => Some(String::new()),
        t => scalar(t),
    }
}

fn scalar(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn string_list(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::Null => Some(Vec::new()),
        Value::Array(a) => a.iter().map(|x| scalar(Some(x))).collect(),
        other => scalar(Some(other)).map(|s| vec![s]),
    }
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 40 {
        format!("{}…", &s[..s.floor_char_boundary(40)])
    } else {
        s
    }
}

/// Where a top-level key sits in the text, for messages about its value.
fn locate_key(text: &str, key: &str) -> (usize, usize) {
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix(key)
            && rest.trim_start().starts_with(':')
        {
            return (
                i + 1,
                key.len() + 2 + (rest.len() - rest.trim_start().len()),
            );
        }
    }
    (1, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_yaml_error_is_placed_once() {
        let e = parse_front_yaml("schema: ledgerpulse/v1\ntype: pulse\nfocus: [unclosed\n")
            .unwrap_err();
        assert_eq!((e.line, e.column), (3, 8));
        assert!(
            !e.message.starts_with("error") && !e.message.contains("line 3"),
            "{}",
            e.message
        );
    }

    fn sample() -> Record {
        let mut r = Record::new(
            RecordType::Pulse,
            Ts::parse_strict("2026-11-26T03:34:39.525123Z").unwrap(),
        );
        r.focus = vec![
            Focus {
                proj: "A".into(),
                topic: "TLS investigation".into(),
            },
            Focus {
                proj: "B".into(),
                topic: "System \"prompt\" design: v2".into(),
            },
        ];
        r.intent = Some(Intent {
            primary: "continue".into(),
            summary: "Investigate TLS chain in A".into(),
        });
        r.status = Some(Status {
            confidence: Some(Confidence::Medium),
            blocked: false,
        });
        r.next = vec!["Run openssl s_client".into(), "- dash: colon # hash".into()];
        r.tags = vec!["context-switch".into()];
        r.model_shift = Some(ModelShift {
            before: "CA missing".into(),
            after: "proxy rewrites chain".into(),
        });
        r.prev = Some("ab".repeat(32));
        r
    }

    #[test]
    fn canonical_front_matter_reads_back_by_both_parsers() {
        let r = sample();
        let mut s = String::new();
        write_front(&r, &mut s);
        assert_eq!(parse_canonical(&s).unwrap(), r);
        assert_eq!(parse_yaml(&s).unwrap(), r);
    }

    #[test]
    fn reads_the_spec_example_in_plain_yaml() {
        let text = "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\nfocus:\n  - proj: \"A\"\n    topic: \"TLS investigation\"\n  - proj: \"B\"\n    topic: \"System prompt design\"\nintent:\n  primary: \"continue\"\n  summary: \"Investigate TLS chain in A; then return to prompt work in B.\"\nstatus:\n  confidence: \"medium\"\n  blocked: false\nnext:\n  - \"Run openssl s_client and capture full chain\"\nfiles:\n  - \"C:/normalized/path/file.txt\"\ntags: [\"context-switch\"]\n";
        let r = parse_front(text).unwrap();
        assert_eq!(r.focus.len(), 2);
        assert_eq!(r.tags, vec!["context-switch"]);
        assert_eq!(r.status.unwrap().confidence, Some(Confidence::Medium));
        assert_eq!(r.files, vec!["C:/normalized/path/file.txt"]);
    }

    #[test]
    fn malformed_yaml_reports_line_and_column() {
        let text =
            "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\nfocus: [unclosed\n";
        let e = parse_front(text).unwrap_err();
        assert!(e.line >= 4, "{e}");
    }

    #[test]
    fn each_field_error_is_placed_at_its_key() {
        const HEAD: &str = "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\n";
        // (front matter after the head, a fragment of the message): each placed at the value of
        // its key, on line 4 after `key:`, never at the start of the front matter.
        let cases = [
            ("focus: 5\n", "`focus` must be a list"),
            ("focus:\n  - 5\n", "`focus[0]` must be a mapping"),
            ("focus:\n  - proj: p\n    topic: [x]\n", "`focus[0].topic`"),
            ("intent: [x]\n", "`intent` must be"),
            ("intent:\n  summary: s\n", "`intent.primary`"),
            ("status:\n  confidence: sure\n", "use low, medium or high"),
            ("status: 3\n", "`status` must be"),
            ("tags: {a: 1}\n", "`tags` must be a list of text"),
            ("model_shift:\n  before: a\n", "model_shift"),
            ("prev: abc\n", "64-digit"),
        ];
        for (rest, fragment) in cases {
            let e = parse_front(&format!("{HEAD}{rest}")).unwrap_err();
            assert!(e.line == 4 && e.column > 1, "{rest:?}: {e}");
            assert!(e.message.contains(fragment), "{rest:?}: {e}");
        }
        let required = [
            (
                "ts: 2025-12-22T21:18:12.483Z\ntype: pulse\n",
                1,
                "missing `schema",
            ),
            (
                "schema: other/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\n",
                1,
                "`schema` must be",
            ),
            ("schema: ledgerpulse/v1\ntype: pulse\n", 1, "missing `ts`"),
            (
                "schema: ledgerpulse/v1\nts: yesterday\ntype: pulse\n",
                2,
                "`ts`",
            ),
            (
                "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\n",
                1,
                "missing `type`",
            ),
            (
                "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: [a]\n",
                3,
                "a word",
            ),
        ];
        for (text, line, fragment) in required {
            let e = parse_front(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(fragment), "{text:?}: {e}");
        }
    }

    #[test]
    fn the_yaml_path_reads_the_short_and_empty_shapes() {
        let text = "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\n\
                    focus: {proj: p}\nintent: just the primary\nstatus: ~\nnext: one\n\
                    model_shift: ~\nprev: ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789\n\
                    later_field: kept on disk, ignored here\n";
        let r = parse_front(text).unwrap();
        assert_eq!(
            r.focus,
            vec![Focus {
                proj: "p".into(),
                topic: String::new()
            }]
        );
        let intent = r.intent.unwrap();
        assert_eq!(
            (intent.primary.as_str(), intent.summary.as_str()),
            ("just the primary", "")
        );
        assert!(r.status.is_none() && r.model_shift.is_none());
        assert_eq!(r.next, vec!["one".to_string()]);
        assert_eq!(r.prev.unwrap(), "abcdef0123456789".repeat(4));
    }

    #[test]
    fn wrong_field_types_name_the_field_and_its_line() {
        let text = "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: pulse\nstatus:\n  blocked: maybe\n";
        let e = parse_front(text).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("status.blocked"), "{e}");
        let text = "schema: ledgerpulse/v1\nts: 2025-12-22T21:18:12.483Z\ntype: gossip\n";
        let e = parse_front(text).unwrap_err();
        assert_eq!(e.line, 3);
    }
}
