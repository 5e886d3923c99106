//! Host CLIs newer than the versions trail was tested with: their hook payloads or settings may
//! have changed under trail.

use super::Finding;

pub const CHECK: &str = "host-versions";

/// The host CLIs trail's end-to-end tests run (pinned in `.ci/run`): (program, version).
pub const TESTED: &[(&str, &str)] = &[("claude", "2.1.328"), ("codex", "0.169.0")];

/// The first `N.N.N` in a `--version` output.
pub fn parse(text: &str) -> Option<Vec<u64>> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|w| w.contains('.'))
        .map(|w| w.trim_matches('.'))
        .find_map(|w| w.split('.').map(|n| n.parse().ok()).collect())
}

/// A finding when `program`'s reported version is newer than `tested`.
pub fn newer(program: &str, tested: &str, reported: &str) -> Option<Finding> {
    let (have, want) = (parse(reported)?, parse(tested)?);
    (have > want).then(|| {
        Finding::new(
            CHECK,
            format!(
                "{program} {} is newer than {tested}, the version trail was tested with",
                have.iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(".")
            ),
            format!(
                "check that trail's hooks still fire (`trail status` after a tool call), or \
                 install {program} {tested}"
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_newer_version_is_a_finding() {
        assert_eq!(parse("2.1.328 (Claude Code)"), Some(vec![2, 1, 328]));
        assert_eq!(parse("codex-cli 0.169.0"), Some(vec![0, 169, 0]));
        assert!(newer("claude", "2.1.328", "2.1.328 (Claude Code)").is_none());
        assert!(newer("claude", "2.1.328", "2.1.99 (Claude Code)").is_none());
        assert!(newer("codex", "0.169.0", "codex-cli 0.170.1").is_some());
        assert!(newer("claude", "2.1.328", "2.10.0").is_some());
        assert!(newer("claude", "2.1.328", "unknown").is_none());
    }
}
