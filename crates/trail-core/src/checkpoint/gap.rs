//! Decisions made since the last checkpoint that passed: what the PreCompact hook holds
//! compaction for in strict mode, and what SessionStart after `/clear` says was left
//! unsynthesised. And when a checkpoint last passed after a given time: what lifts the
//! attention budget's strict red hold and starts its count of added tokens again.

use std::path::Path;

use super::steps::{DecisionRef, Journal, Unreadable, dref};
use crate::file_error::FileError;
use crate::time::Ts;
use crate::trajectory::{Body, journal};

/// Decisions recorded after the last passing checkpoint (or with none passed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    /// The most recent of them.
    pub last: DecisionRef,
    /// How many.
    pub decisions: usize,
    /// When the last checkpoint passed, if one ever did.
    pub last_pass: Option<crate::time::Ts>,
}

/// The gap, or `None` when every decision is covered by a passing checkpoint (or there is no
/// decision). `Err` when the trajectory cannot be read: the caller chooses what that means.
pub fn since_last_decision(root: &Path) -> Result<Option<Gap>, Unreadable> {
    let j = Journal::read(root);
    j.error.clone()?;
    let last_pass = j.last_pass();
    let after: Vec<_> = j
        .entries
        .iter()
        .filter(|e| last_pass.is_none_or(|p| e.ts > p))
        .filter_map(|e| Some(dref(e, e.decision()?)))
        .collect();
    Ok(after.iter().max_by_key(|d| d.ts).cloned().map(|last| Gap {
        last,
        decisions: after.len(),
        last_pass,
    }))
}

/// The latest checkpoint that passed after `since`, from the trajectory (the journal the
/// checkpoint writes its verdict to: no second record of it is kept). Only the files of
/// `since`'s day and later are read, so the cost is a day's entries, not the project's history.
/// A line that cannot be read is skipped: it cannot be a pass.
pub fn passed_after(root: &Path, since: Ts) -> Result<Option<Ts>, FileError> {
    let lines = journal::read(root, Some(since))?;
    Ok(lines
        .items
        .iter()
        .filter(|(_, e)| e.ts > since && matches!(&e.body, Body::Checkpoint(c) if c.passed()))
        .map(|(_, e)| e.ts)
        .max())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Layout;

    /// A trajectory line that is not an entry makes the gap unknowable, and the error names the
    /// line instead of passing on what was left.
    #[test]
    fn a_torn_trajectory_line_is_named_not_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let traj = Layout::new(dir.path()).trajectory_dir();
        std::fs::create_dir_all(&traj).unwrap();
        std::fs::write(traj.join("2026-11-30.jsonl"), "{\"ts\":\n").unwrap();
        let e = since_last_decision(dir.path()).unwrap_err();
        assert!(matches!(&e, Unreadable::Lines(places) if places.len() == 1));
        assert_eq!(
            e.to_string(),
            "1 line(s) of the trajectory cannot be read (2026-11-30.jsonl:1)"
        );
    }
}
