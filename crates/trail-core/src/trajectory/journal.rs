//! Appending to the trajectory, and reading it (and other JSONL journals) back.
//!
//! An append is one redacted line, written with one `write` and synced
//! ([`fsutil::append_in`], as the proof log does): concurrent hooks'
//! lines never interleave, and an acknowledged entry survives a crash. The file is the entry's
//! UTC day, so a day's reasoning is one file and nothing is ever rewritten.
//!
//! Reading never trusts the file: a line that is not an entry (torn by a crash, written by hand,
//! from a later version, longer than [`MAX_LINE`]) is skipped and reported with its place, so
//! that whoever counts (the grounding ratio) can refuse to call an incomplete count a pass.

use std::fmt;
use std::io::{self, BufRead, BufReader, Read as _};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::Entry;
use crate::file_error::{At, FileError};
use crate::fsutil;
use crate::layout::Layout;
use crate::secrets::{Pass, Secrets};
use crate::time::Ts;

/// The longest line read; longer ones are skipped as bad.
pub const MAX_LINE: usize = 1 << 20;
/// The most characters of one text field written (a quote, a command, a rationale).
pub const MAX_FIELD: usize = 64 << 10;
/// How many lines an object written over several lines may take (Loa's agents wrote some
/// pretty-printed).
const MAX_JOINED_LINES: usize = 400;

/// `YYYY-MM-DD` of an instant, in UTC.
pub fn day(ts: Ts) -> String {
    jiff::Timestamp::from_microsecond(ts.as_micros()).map_or_else(
        |_| "0000-00-00".into(),
        |t| t.strftime("%Y-%m-%d").to_string(),
    )
}

/// The file an entry of `ts` goes to.
pub fn file_for(layout: &Layout, ts: Ts) -> PathBuf {
    layout.trajectory_dir().join(format!("{}.jsonl", day(ts)))
}

/// The line an entry is written as: every text field redacted and capped, one JSON object,
/// without its newline.
pub fn line(entry: &Entry, p: &mut Pass<'_>) -> Result<String, serde_json::Error> {
    let mut v = serde_json::to_value(entry)?;
    p.redact_json(&mut v);
    cap(&mut v);
    // `serde_json` escapes every control character in strings: the line cannot break.
    serde_json::to_string(&v)
}

/// Every string cut to [`MAX_FIELD`] characters (after redaction, so no secret is cut into a
/// part that is no longer found).
fn cap(v: &mut Value) {
    match v {
        Value::String(s) if s.chars().count() > MAX_FIELD => {
            *s = crate::text::clip(s, MAX_FIELD);
        }
        Value::Array(items) => items.iter_mut().for_each(cap),
        Value::Object(map) => map.values_mut().for_each(cap),
        _ => {}
    }
}

/// Append `entry` to its day's file under `root`: redacted first, the originals of the secrets
/// found kept by `secrets` before anything is written.
pub fn append(root: &Path, entry: &Entry, secrets: &Secrets) -> Result<(), FileError> {
    let file = file_for(&Layout::new(root), entry.ts);
    let mut text = secrets
        .pass(|p| line(entry, p))
        .map_err(io::Error::other)
        .and_then(|r| r.map_err(io::Error::other))
        .at("redact a line for", &file)?;
    text.push('\n');
    fsutil::append_in(root, &file, text.as_bytes()).at("append to", &file)
}

/// A line of a journal: its file's name and its number from 1.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Place {
    pub file: String,
    pub line: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// What a journal held: its items with their places, and the lines that were not items.
#[derive(Debug)]
pub struct Lines<T> {
    pub items: Vec<(Place, T)>,
    pub bad: Vec<Place>,
}

impl<T> Default for Lines<T> {
    fn default() -> Self {
        Lines {
            items: Vec::new(),
            bad: Vec::new(),
        }
    }
}

/// Every entry of the trajectory under `root`, oldest file first, at or after `since`.
pub fn read(root: &Path, since: Option<Ts>) -> Result<Lines<Entry>, FileError> {
    let dir = Layout::new(root).trajectory_dir();
    let from_day = since.map(day);
    let mut out = Lines::default();
    for (name, path) in jsonl_files(root, &dir)? {
        // `YYYY-MM-DD.jsonl` sorts by day: a whole file before the bound's day is skipped.
        if let Some(d) = &from_day
            && name.len() == "YYYY-MM-DD.jsonl".len()
            && name.as_str() < d.as_str()
        {
            continue;
        }
        let objects = read_objects(root, &path, &name, false)?;
        let mut bad = objects.bad;
        for (place, v) in objects.items {
            match entry(v) {
                Ok(e) if since.is_none_or(|s| e.ts >= s) => out.items.push((place, e)),
                Ok(_) => {}
                Err(_) => bad.push(place),
            }
        }
        bad.sort_by_key(|p| p.line);
        out.bad.extend(bad);
    }
    Ok(out)
}

/// An entry from a line of the trajectory, as any version of trail wrote it.
///
/// Lines written before lineage have no `trace_id` or `span_id`: both are derived from the line
/// (the session's trace when it names a session), so they read the same every time. A pivot
/// that search logged before it wrote through [`append`] named its fields `query` and `results`
/// (with `result_count` beside it).
pub fn entry(mut v: Value) -> Result<Entry, serde_json::Error> {
    if let Value::Object(map) = &mut v {
        if map.get("phase").and_then(Value::as_str) == Some("pivot") {
            if !map.contains_key("original_query")
                && let Some(q) = map.remove("query")
            {
                map.insert("original_query".into(), q);
            }
            match map.remove("results") {
                Some(n) if !map.contains_key("result_count") => {
                    map.insert("result_count".into(), n);
                }
                _ => {}
            }
        }
        if !map.contains_key("trace_id") || !map.contains_key("span_id") {
            let text = serde_json::to_string(&map)?;
            let session = map.get("session_id").and_then(Value::as_str);
            let trace = super::TraceId::for_line(session, text.as_bytes()).to_string();
            let span = super::SpanId::for_line(text.as_bytes()).to_string();
            map.entry("trace_id").or_insert(trace.into());
            map.entry("span_id").or_insert(span.into());
        }
    }
    serde_json::from_value(v)
}

/// The `*.jsonl` files of `dir` (under `root`, reached without symlinks), sorted by name. A
/// missing directory has none.
pub fn jsonl_files(root: &Path, dir: &Path) -> Result<Vec<(String, PathBuf)>, FileError> {
    const LIST: &str = "list the directory";
    fsutil::check_dirs(root, dir).at(LIST, dir)?;
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(FileError::new(LIST, dir, e)),
    };
    let mut files = Vec::new();
    for e in entries {
        let e = e.at(LIST, dir)?;
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".jsonl") && !name.starts_with('.') {
            files.push((name, e.path()));
        }
    }
    files.sort();
    Ok(files)
}

/// Every JSON object of a journal file, one a line. With `join`, a line that does not hold a
/// whole object may start one spread over the next lines, which are then read together.
pub fn read_objects(
    root: &Path,
    path: &Path,
    name: &str,
    join: bool,
) -> Result<Lines<Value>, FileError> {
    let file = fsutil::open_in(root, path, fsutil::Access::Read).at("open", path)?;
    let lines = capped_lines(BufReader::new(file)).at("read", path)?;
    let mut out = Lines::default();
    let place = |i: usize| Place {
        file: name.to_string(),
        line: i + 1,
    };
    let mut i = 0;
    while i < lines.len() {
        let Some(text) = &lines[i] else {
            out.bad.push(place(i));
            i += 1;
            continue;
        };
        if text.trim().is_empty() {
            i += 1;
            continue;
        }
        if let Some(v) = object(text) {
            out.items.push((place(i), v));
            i += 1;
            continue;
        }
        if let Some((v, next)) = join.then(|| joined(&lines, i)).flatten() {
            out.items.push((place(i), v));
            i = next;
        } else if let Some(v) = after_torn(text) {
            // The line a crash tore is lost (it was never acknowledged); the whole line
            // appended after it, which had to share its line, is read.
            out.bad.push(place(i));
            out.items.push((place(i), v));
            i += 1;
        } else {
            out.bad.push(place(i));
            i += 1;
        }
    }
    Ok(out)
}

/// The object that ends `text` after a torn start: a writer that died mid-append left part of
/// a line without its newline, and the next append went on the same line. Tries the first few
/// places after the line's start where an object can start (`{"`), longest first.
fn after_torn(text: &str) -> Option<Value> {
    const TRIES: usize = 8;
    text.match_indices("{\"")
        .map(|(k, _)| k)
        .filter(|&k| k > 0)
        .take(TRIES)
        .find_map(|k| object(&text[k..]))
}

fn object(text: &str) -> Option<Value> {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Some(v),
        _ => None,
    }
}

/// An object that starts on line `i` and ends on a later one: it and the line after it.
fn joined(lines: &[Option<String>], i: usize) -> Option<(Value, usize)> {
    if !lines[i].as_deref()?.trim_start().starts_with('{') {
        return None;
    }
    let mut text = String::new();
    for (k, l) in lines.iter().enumerate().skip(i).take(MAX_JOINED_LINES) {
        text.push_str(l.as_deref()?);
        text.push('\n');
        if text.len() > MAX_LINE {
            return None;
        }
        if k > i
            && let Some(v) = object(&text)
        {
            return Some((v, k + 1));
        }
    }
    None
}

/// The lines of a reader, each `None` when it is longer than [`MAX_LINE`] or not UTF-8.
fn capped_lines(mut r: impl BufRead) -> io::Result<Vec<Option<String>>> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = (&mut r)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if n == 0 {
            return Ok(out);
        }
        if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE {
            // Too long: skip to the end of the line.
            let mut rest = Vec::new();
            r.read_until(b'\n', &mut rest)?;
            out.push(None);
            continue;
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
        }
        out.push(String::from_utf8(std::mem::take(&mut buf)).ok());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trajectory::{Body, Cite, Decision, Evidence, Grounding, SpanId, TraceId};
    use proptest::prelude::*;

    fn entry(ts: Ts, title: &str) -> Entry {
        Entry {
            ts,
            body: Body::Decision(Decision {
                id: "d1".into(),
                title: title.into(),
                decision: "use X".into(),
                rationale: "because".into(),
                evidence: vec![Evidence {
                    citation: "[${PROJECT_ROOT}/a.rs:1]".into(),
                    quote: Some("fn a()".into()),
                    status: None,
                }],
                tests: vec!["happy".into()],
                bead: None,
            }),
            session_id: Some("s1".into()),
            trace_id: TraceId::for_session("s1"),
            span_id: SpanId::random(),
            parent_span_id: None,
        }
    }

    fn ts(s: &str) -> Ts {
        Ts::parse_strict(s).unwrap()
    }

    #[test]
    fn entries_go_to_their_day_and_come_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let a = entry(ts("2026-01-01T23:59:59.999999Z"), "first");
        let b = entry(ts("2026-01-02T00:00:00.000000Z"), "second");
        let secrets = Secrets::new(root.join(".secrets"), Vec::new());
        append(root, &b, &secrets).unwrap();
        append(root, &a, &secrets).unwrap();
        let dir = Layout::new(root).trajectory_dir();
        assert!(dir.join("2026-01-01.jsonl").is_file());
        assert!(dir.join("2026-01-02.jsonl").is_file());
        let all = read(root, None).unwrap();
        assert!(all.bad.is_empty());
        let titles: Vec<_> = all.items.iter().map(|(_, e)| e.clone()).collect();
        assert_eq!(titles, [a.clone(), b.clone()]);
        assert_eq!(all.items[1].0.to_string(), "2026-01-02.jsonl:1");
        let since = read(root, Some(ts("2026-01-02T00:00:00.000Z"))).unwrap();
        assert_eq!(since.items.len(), 1);
        assert_eq!(since.items[0].1, b);
    }

    #[test]
    fn secrets_are_redacted_before_writing_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let mut e = entry(ts("2026-01-01T00:00:00.000Z"), "t");
        e.body = Body::Cite(Cite {
            claim: "token=ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ in the env".into(),
            grounding: Grounding::Assumption,
            evidence: Vec::new(),
        });
        let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
        append(dir.path(), &e, &secrets).unwrap();
        let text = std::fs::read_to_string(file_for(&Layout::new(dir.path()), e.ts)).unwrap();
        assert!(!text.contains("ghp_"), "{text}");
        assert!(text.contains("${secret:"), "{text}");
        let kept = std::fs::read_to_string(secrets.store_path()).unwrap();
        assert_eq!(
            kept.matches("ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ")
                .count(),
            1
        );
    }

    #[test]
    fn bad_lines_are_skipped_and_counted() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let secrets = Secrets::new(root.join(".secrets"), Vec::new());
        let good = secrets
            .pass(|p| line(&entry(ts("2026-01-01T00:00:00.000Z"), "ok"), p))
            .unwrap()
            .unwrap();
        let long = format!("{{\"x\":\"{}\"}}", "a".repeat(MAX_LINE));
        let mut text = format!(
            "{good}\nnot json\n{{\"phase\":\"decision\"}}\n[1,2]\n\n{long}\n{{\"phase\":\"someday\",\"ts\":\"2026-01-01T00:00:00Z\"}}\n"
        )
        .into_bytes();
        text.extend_from_slice(b"\xff\n");
        text.extend_from_slice(format!("{good}\n{{\"torn\":").as_bytes());
        let path = Layout::new(root).trajectory_dir().join("2026-01-01.jsonl");
        fsutil::atomic_write_in(root, &path, &text).unwrap();
        let r = read(root, None).unwrap();
        assert_eq!(r.items.len(), 2);
        let bad: Vec<usize> = r.bad.iter().map(|p| p.line).collect();
        assert_eq!(bad, [2, 3, 4, 6, 7, 8, 10]);
    }

    /// A writer killed mid-append leaves the start of a line without its newline, and the next
    /// append lands on the same line. Cut at every offset of the last entry, then appended to:
    /// every acknowledged entry is read, the torn one is reported, and nothing else is.
    #[test]
    fn an_append_after_a_torn_line_is_read_at_every_offset() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let secrets = Secrets::new(root.join(".secrets"), Vec::new());
        let day = ts("2026-01-01T00:00:00.000Z");
        let line_of = |title: &str| {
            let mut l = secrets
                .pass(|p| line(&entry(day, title), p))
                .unwrap()
                .unwrap();
            l.push('\n');
            l
        };
        let (first, torn, after) = (line_of("first"), line_of("torn"), line_of("after"));
        let path = file_for(&Layout::new(root), day);
        for cut in 1..torn.len() - 1 {
            let text = format!("{first}{}{after}", &torn[..cut]);
            fsutil::atomic_write_in(root, &path, text.as_bytes()).unwrap();
            let r = read(root, None).unwrap();
            let titles: Vec<String> = r
                .items
                .iter()
                .map(|(_, e)| e.decision().map_or_else(String::new, |d| d.title.clone()))
                .collect();
            assert_eq!(titles, ["first", "after"], "cut at {cut}");
            let bad: Vec<usize> = r.bad.iter().map(|p| p.line).collect();
            assert_eq!(bad, [2], "cut at {cut}");
        }
    }

    #[test]
    fn loa_objects_written_over_several_lines_are_joined_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let path = root.join("t.jsonl");
        let text = "{\"phase\":\"cite\",\"a\":1}\n{\n  \"phase\": \"pivot\",\n  \"result_count\": 127\n}\n{ broken\n{\"phase\":\"cite\"}\n";
        std::fs::write(&path, text).unwrap();
        let plain = read_objects(root, &path, "t.jsonl", false).unwrap();
        assert_eq!((plain.items.len(), plain.bad.len()), (2, 5));
        let joined = read_objects(root, &path, "t.jsonl", true).unwrap();
        let lines: Vec<usize> = joined.items.iter().map(|(p, _)| p.line).collect();
        assert_eq!(lines, [1, 2, 7]);
        assert_eq!(joined.bad.iter().map(|p| p.line).collect::<Vec<_>>(), [6]);
        assert_eq!(joined.items[1].1["result_count"], 127);
    }

    /// Text as hostile as it comes: control characters, NUL, line and paragraph separators,
    /// quotes, backslashes, and invalid UTF-8 (lone surrogates included) turned into text the
    /// way trail turns any foreign bytes into text.
    fn hostile() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<String>(),
            proptest::collection::vec(any::<u8>(), 0..64)
                .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
            proptest::collection::vec(
                prop_oneof![
                    Just("\n".to_string()),
                    Just("\r\n".to_string()),
                    Just("\0".to_string()),
                    Just("\u{2028}\u{2029}".to_string()),
                    Just("\"}\n{\"phase\":\"decision\"".to_string()),
                    Just("\\".to_string()),
                    Just(String::from_utf8_lossy(b"\xed\xa0\x80").into_owned()),
                    "[a-z ]{0,8}",
                ],
                0..12
            )
            .prop_map(|v| v.concat()),
        ]
    }

    proptest! {
        #[test]
        fn every_line_is_one_json_object_whatever_the_input(
            title in hostile(),
            quote in hostile(),
            tests in proptest::collection::vec(hostile(), 0..4),
        ) {
            let mut e = entry(ts("2026-03-04T05:06:07.089Z"), &title);
            if let Body::Decision(d) = &mut e.body {
                d.evidence[0].quote = Some(quote);
                d.tests = tests;
                d.rationale = format!("{title}\n\n{title}");
            }
            let dir = tempfile::tempdir().unwrap();
            let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
            let (l, found) = secrets.pass(|p| (line(&e, p).unwrap(), p.names())).unwrap();
            prop_assert!(!l.contains('\n') && !l.contains('\r'), "{l}");
            let v: Value = serde_json::from_str(&l).unwrap();
            prop_assert!(v.is_object());
            // What comes back is the entry as written (redaction aside, which these strings do
            // not trigger when nothing was found).
            if found.is_empty() {
                let back: Entry = serde_json::from_value(v).unwrap();
                prop_assert_eq!(back, e);
            }
        }
    }
}
