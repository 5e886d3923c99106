//! Crash injection for tests.
//!
//! `TRAIL_FAILPOINT=<name>` makes the process abort at the named point, leaving the files exactly
//! as a crash would. It is honoured only in debug builds (the ones the test suite runs): a release
//! binary never reads the variable, so users cannot trip it by accident.

/// Abort here if `TRAIL_FAILPOINT` names this point (debug builds only).
#[inline]
pub fn hit(name: &str) {
    #[cfg(debug_assertions)]
    {
        if let Some(want) = std::env::var_os("TRAIL_FAILPOINT")
            && want == name
        {
            // abort() skips destructors and buffered flushes, like SIGKILL would.
            std::process::abort();
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = name;
}

/// Hang here forever if `TRAIL_FAILPOINT` names this point (debug builds only): how tests make
/// a process block the way a FIFO or a stuck lock once did.
#[inline]
pub fn stall(name: &str) {
    #[cfg(debug_assertions)]
    {
        if let Some(want) = std::env::var_os("TRAIL_FAILPOINT")
            && want == name
        {
            loop {
                std::thread::sleep(std::time::Duration::from_hours(1));
            }
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = name;
}

/// Wait here if `TRAIL_FAILPOINT` names this point (debug builds only): create the file
/// `<gate>.reached`, then wait until `<gate>` exists, where `TRAIL_FAILPOINT_GATE` names `<gate>`.
/// How tests hold one process at a point of a protocol (the group commit's leader about to
/// fsync), start others against it, and then kill it or let it go on.
#[inline]
pub fn pause(name: &str) {
    #[cfg(debug_assertions)]
    {
        if std::env::var_os("TRAIL_FAILPOINT").is_some_and(|w| w == name)
            && let Some(gate) = std::env::var_os("TRAIL_FAILPOINT_GATE")
        {
            let gate = std::path::PathBuf::from(gate);
            let mut reached = gate.clone().into_os_string();
            reached.push(".reached");
            let _ = std::fs::write(&reached, std::process::id().to_string());
            while !gate.exists() {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = name;
}

/// Append `line()` and a newline to the file `TRAIL_TRACE` names (debug builds only), with one
/// `O_APPEND` write: concurrent processes' lines land whole and in the order they happened. How
/// tests check the group commit's promise that no writer is acknowledged before an fsync that
/// covers its record has completed.
#[inline]
pub fn trace(line: impl FnOnce() -> String) {
    #[cfg(debug_assertions)]
    {
        if let Some(path) = std::env::var_os("TRAIL_TRACE") {
            use std::io::Write;
            let mut l = line();
            l.push('\n');
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                let _ = f.write_all(l.as_bytes());
            }
        }
    }
    #[cfg(not(debug_assertions))]
    let _ = line;
}

/// Every failpoint the ledger defines, for tests that walk them all.
pub const LEDGER_POINTS: &[&str] = &[
    "append-after-intent",
    "append-after-lock",
    "append-after-repair",
    "append-mid-write",
    "append-after-write",
    "append-after-fsync",
    "rotate-after-compaction",
    "rotate-after-new-stream",
    "rotate-after-archive",
    "rotate-after-swap",
    "atomic-write-before-rename",
];

/// The state file's failpoints (with `atomic-write-before-rename`, which its writes pass too).
pub const STATE_POINTS: &[&str] = &["atomic-write-before-rename", "state-after-write"];
