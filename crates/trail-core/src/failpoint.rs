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
