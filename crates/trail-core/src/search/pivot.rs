//! The trajectory's `pivot` (Lossless Ledger PRD, FR-8, "Trajectory Pivot Protocol"): a search
//! with more than [`PIVOT_AFTER`] results was too broad, and the trajectory says so, so a
//! reviewer sees where an agent had to narrow its hypothesis.
//!
//! It is written through the trajectory's one writer ([`journal::append`]) as a typed
//! [`Pivot`], so every reader of the trajectory reads it back. (Until 2026-11 it was written
//! here as a line of its own shape, which the trajectory's reader rejected: one broad search
//! then stopped `trail ground` and the checkpoint for good. [`journal::entry`] still reads those
//! lines.)

use std::path::PathBuf;

use crate::layout::Layout;
use crate::secrets::Secrets;
use crate::time::Ts;
use crate::trajectory::{Body, Entry, Pivot, journal};

/// More results than this log a pivot.
pub const PIVOT_AFTER: usize = 50;

/// Append a `pivot` entry for `query` and its count of `results` to the trajectory, in the
/// trace of `session` when one is known. Writes nothing in a project trail does not keep (no
/// `.trail/`), and returns where it wrote otherwise.
pub fn log_pivot(
    layout: &Layout,
    query: &str,
    results: usize,
    now: Ts,
    session: Option<&str>,
    secrets: &Secrets,
) -> Result<Option<PathBuf>, crate::file_error::FileError> {
    if !layout.trail_dir().is_dir() {
        return Ok(None);
    }
    let mut entry = Entry::now(
        Body::Pivot(Pivot {
            reason: "query too broad".into(),
            original_query: query.into(),
            result_count: results as u64,
            hypothesis_failure: String::new(),
            refined_hypothesis: String::new(),
            new_query: None,
        }),
        session,
    );
    entry.ts = now;
    journal::append(layout.root(), &entry, secrets)?;
    Ok(Some(journal::file_for(layout, now)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pivot_is_one_redacted_line_in_a_trail_project_only() {
        let dir = tempfile::tempdir().unwrap();
        let layout = Layout::new(dir.path());
        let now = Ts::parse_strict("2026-11-26T10:00:00.000Z").unwrap();
        let secrets = Secrets::new(dir.path().join(".secrets"), Vec::new());
        assert_eq!(
            log_pivot(&layout, "x", 51, now, None, &secrets).unwrap(),
            None
        );
        std::fs::create_dir_all(layout.trail_dir()).unwrap();
        let query = "deploy\nghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ";
        let path = log_pivot(&layout, query, 127, now, Some("s1"), &secrets)
            .unwrap()
            .unwrap();
        assert!(path.ends_with(".trail/trajectory/2026-11-26.jsonl"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["phase"], "pivot");
        assert_eq!(v["result_count"], 127);
        assert_eq!(v["ts"], "2026-11-26T10:00:00.000000Z");
        assert!(!text.contains("ghp_R2d9"), "{text}");
        // The trajectory's reader reads it back, in the session's trace.
        let read = journal::read(dir.path(), None).unwrap();
        assert!(read.bad.is_empty(), "{:?}", read.bad);
        let [(_, e)] = &read.items[..] else {
            panic!("{:?}", read.items)
        };
        assert_eq!(e.session_id.as_deref(), Some("s1"));
        let Body::Pivot(p) = &e.body else {
            panic!("{e:?}")
        };
        assert_eq!(
            (p.result_count, p.reason.as_str()),
            (127, "query too broad")
        );
        let kept = std::fs::read_to_string(secrets.store_path()).unwrap();
        assert_eq!(kept.matches("ghp_R2d9").count(), 1);
    }
}

#[cfg(test)]
mod older_lines {
    use crate::trajectory::{Body, journal};

    /// Found by issue 21: the line search wrote before it went through the trajectory's writer
    /// (no lineage, `query` and `results`) is read as a pivot, not as a bad line that stops
    /// the grounding ratio.
    #[test]
    fn a_pivot_search_wrote_before_is_read() {
        let line = r#"{"ts":"2026-11-29T04:15:24.417012Z","phase":"pivot","reason":"query too broad","query":"token","results":60,"result_count":60}"#;
        let e = journal::entry(serde_json::from_str(line).unwrap()).unwrap();
        let Body::Pivot(p) = &e.body else {
            panic!("{e:?}")
        };
        assert_eq!((p.original_query.as_str(), p.result_count), ("token", 60));
        // The lineage it lacked is derived from the line: the same at every read.
        let again = journal::entry(serde_json::from_str(line).unwrap()).unwrap();
        assert_eq!((e.trace_id, e.span_id), (again.trace_id, again.span_id));
        // Only `results`: it is the count.
        let only = line.replace(r#","result_count":60"#, "");
        let e = journal::entry(serde_json::from_str(&only).unwrap()).unwrap();
        assert!(matches!(e.body, Body::Pivot(ref p) if p.result_count == 60));
    }
}
