//! Sync by itself, off the hook path's critical work: a session's end, or a prompt once
//! `sync.every` has passed since the last try, starts `trail sync --background`, detached. It
//! never runs on PreToolUse, and a failed sync is a line in `trail status`, never a blocked
//! call. Costs one `stat` when no remote is set.

use std::time::{Duration, SystemTime};

use super::Cx;

/// Start a background sync when a remote is set and the last try is older than `sync.every`
/// (`always`: at a session's end, whatever the time).
pub(super) fn maybe_start(cx: &Cx<'_>, always: bool) {
    let every = cx.config.sync_every.value;
    if every.is_zero() {
        return;
    }
    let dir = trail_sync::dir_of(&cx.config.home.value);
    if !dir.join("remote").exists() {
        return;
    }
    let last = std::fs::metadata(dir.join("status.json"))
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .unwrap_or(Duration::MAX);
    if !always && last < every {
        return;
    }
    // Touched first, so that the prompts right after this one do not start more.
    let _ = std::fs::File::options()
        .append(true)
        .open(dir.join("status.json"))
        .and_then(|f| f.set_modified(SystemTime::now()));
    let started = crate::detached::trail(&["sync", "--background"]).and_then(|mut c| {
        c.current_dir(cx.root());
        crate::detached::start(c, std::process::Stdio::null())
    });
    if let Err(e) = started {
        super::report::failed("could not start trail sync in the background", &e);
    }
}
