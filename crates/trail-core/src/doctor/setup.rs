//! trail's own side: its configuration loads and every rule in it works, and its stream
//! verifies.

use crate::config::{Config, ConfigError};
use crate::ledger::verify::Report;

use super::Finding;

pub const CHECK_CONFIG: &str = "config";
pub const CHECK_STREAM: &str = "stream";

/// A configuration that does not load, a gate or secret rule that does not work, and settings
/// of an untrusted project file that are left out.
pub fn config(loaded: &Result<Config, ConfigError>) -> Vec<Finding> {
    let broken = |e: &ConfigError| {
        Finding::new(
            CHECK_CONFIG,
            format!("{e}"),
            "fix the setting named (`trail config --help` says what each takes); until then \
             every trail command and hook stops at it",
        )
    };
    let c = match loaded {
        Ok(c) => c,
        Err(e) => return vec![broken(e)],
    };
    let mut out: Vec<Finding> = [c.check_gate_rules(), c.check_secret_rules()]
        .iter()
        .filter_map(|r| r.as_ref().err().map(broken))
        .collect();
    if !c.refused.is_empty() {
        let keys: Vec<&str> = c.refused.iter().map(|r| r.key.name()).collect();
        out.push(Finding::new(
            CHECK_CONFIG,
            format!(
                "the project's .trail/config.toml sets {} but is not trusted: they are ignored",
                keys.join(", ")
            ),
            "run `trail trust` in the project to let them count (it shows them first)",
        ));
    }
    out
}

/// A stream that fails verification: damaged, truncated or rewritten.
pub fn stream(report: &Report) -> Option<Finding> {
    (!report.ok()).then(|| {
        Finding::new(
            CHECK_STREAM,
            format!(
                "the stream fails verification: {} problem(s) in {} records",
                report.findings.len(),
                report.records
            ),
            "run `trail verify` to see each problem and what to do",
        )
    })
}
