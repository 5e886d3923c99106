//! A test that cannot run here says so and is counted.
//!
//! libtest has no "skipped": a test that returns early passes. So a skip is three things: a loud
//! line on stderr, a row in this run's skip list (`target/tmp/skipped.tsv`: test, suite, reason;
//! `.ci/run` empties it before `cargo test` and prints it after), and a failure instead where
//! the run requires the suite (`TRAIL_REQUIRE=claude,codex,…` or `all`; `.ci/run` requires
//! what it installed).

use std::io::Write as _;
use std::path::Path;

/// Skip the running test: `skip!("claude", "the claude CLI is not installed")`, then return.
///
/// A macro, so that the list lands in the calling crate's `CARGO_TARGET_TMPDIR` (Cargo sets it
/// for integration tests only; a unit test's skip falls back to the system temp directory).
#[macro_export]
macro_rules! skip {
    ($suite:expr, $reason:expr $(,)?) => {
        $crate::skip::record(
            option_env!("CARGO_TARGET_TMPDIR").map(::std::path::Path::new),
            $suite,
            $reason,
        )
    };
}

/// What [`skip!`] does; `list_dir` is where `skipped.tsv` goes.
///
/// # Panics
/// When the run requires `suite` (`TRAIL_REQUIRE`): the test fails with the reason.
pub fn record(list_dir: Option<&Path>, suite: &str, reason: &str) {
    let test = std::thread::current()
        .name()
        .unwrap_or("an unnamed test")
        .to_string();
    assert!(
        !required(std::env::var("TRAIL_REQUIRE").ok().as_deref(), suite),
        "{test}: this run requires the {suite} suite (TRAIL_REQUIRE), but {reason}"
    );
    eprintln!("\n*** SKIP ({suite}): {reason} ***\n");
    let dir = list_dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("skipped.tsv"))
    {
        let _ = writeln!(f, "{test}\t{suite}\t{reason}");
    }
}

/// Whether `TRAIL_REQUIRE`'s value names `suite` (or `all`).
fn required(require: Option<&str>, suite: &str) -> bool {
    require.is_some_and(|r| r.split(',').any(|s| s.trim() == suite || s.trim() == "all"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_is_required_by_name_or_by_all() {
        assert!(required(Some("claude, codex"), "codex"));
        assert!(required(Some("all"), "bwrap"));
        assert!(!required(Some("claude"), "codex"));
        assert!(!required(Some(""), "codex"));
        assert!(!required(None, "codex"));
    }

    #[test]
    fn a_skip_is_written_to_the_list() {
        let dir = std::env::temp_dir().join(format!("trail-testkit-skip-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A suite no run names; only `TRAIL_REQUIRE=all` requires it, and there a skip must fail.
        if required(
            std::env::var("TRAIL_REQUIRE").ok().as_deref(),
            "testkit-self-check",
        ) {
            return;
        }
        record(Some(&dir), "testkit-self-check", "checking the list");
        let list = std::fs::read_to_string(dir.join("skipped.tsv")).unwrap();
        assert!(
            list.ends_with("\ttestkit-self-check\tchecking the list\n"),
            "{list}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
