//! The trajectory's `pivot` (Lossless Ledger PRD, FR-8, "Trajectory Pivot Protocol"): a search
//! with more than [`PIVOT_AFTER`] results was too broad, and the trajectory says so, so a
//! reviewer sees where an agent had to narrow its hypothesis.
//!
//! [`log_pivot`] is the one place search writes to the trajectory; when the trajectory gets its
//! own writer (`trajectory.rs`), this is the call to switch to it.

use std::io;
use std::path::PathBuf;

use crate::layout::Layout;
use crate::secrets::Secrets;
use crate::time::Ts;

/// More results than this log a pivot.
pub const PIVOT_AFTER: usize = 50;

/// Append `{"ts","phase":"pivot","reason","query","results","result_count"}` to today's
/// trajectory file (`.trail/trajectory/YYYY-MM-DD.jsonl`), redacted, with one durable append.
/// `result_count` is the Loa spec's name for `results`; both are written so readers of either
/// find it. Writes nothing in a project trail does not keep (no `.trail/`), and returns where it
/// wrote otherwise.
pub fn log_pivot(
    layout: &Layout,
    query: &str,
    results: usize,
    now: Ts,
    secrets: &Secrets,
) -> io::Result<Option<PathBuf>> {
    if !layout.trail_dir().is_dir() {
        return Ok(None);
    }
    let query = secrets.redact(query).map_err(io::Error::other)?;
    let entry = serde_json::json!({
        "ts": now.to_string(),
        "phase": "pivot",
        "reason": "query too broad",
        "query": query,
        "results": results,
        "result_count": results,
    });
    // serde_json escapes every line break: one entry is always one line.
    let mut line = serde_json::to_string(&entry).map_err(io::Error::other)?;
    line.push('\n');
    let path = layout
        .trajectory_dir()
        .join(format!("{}.jsonl", &now.to_string()[..10]));
    crate::fsutil::append_in(layout.root(), &path, line.as_bytes())?;
    Ok(Some(path))
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
        assert_eq!(log_pivot(&layout, "x", 51, now, &secrets).unwrap(), None);
        std::fs::create_dir_all(layout.trail_dir()).unwrap();
        let query = "deploy\nghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ";
        let path = log_pivot(&layout, query, 127, now, &secrets)
            .unwrap()
            .unwrap();
        assert!(path.ends_with(".trail/trajectory/2026-11-26.jsonl"));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["phase"], "pivot");
        assert_eq!(v["results"], 127);
        assert_eq!(v["result_count"], 127);
        assert_eq!(v["ts"], "2026-11-26T10:00:00.000000Z");
        assert!(!text.contains("ghp_R2d9"), "{text}");
        let kept = std::fs::read_to_string(secrets.store_path()).unwrap();
        assert_eq!(kept.matches("ghp_R2d9").count(), 1);
    }
}
