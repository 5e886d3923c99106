//! Rules a project or person adds in configuration (`[[gate.rules]]`), as the configuration
//! holds them. What they match, and the check of their examples, is the gate's
//! (`trail_gate::custom`).

use serde::{Deserialize, Serialize};

use crate::Verdict;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserRule {
    pub id: String,
    pub verdict: UserVerdict,
    pub reason: String,
    /// The program's name (its basename: `/usr/bin/terraform` is `terraform`).
    pub command: String,
    /// The first operand, when it must be this (`apply` in `terraform apply`).
    #[serde(default)]
    pub subcommand: Option<String>,
    /// Matches only when some argument contains one of these (case-insensitive).
    #[serde(default)]
    pub args_any: Vec<String>,
    pub must_match: Vec<String>,
    #[serde(default)]
    pub must_not_match: Vec<String>,
}

/// Why a configured rule was refused: it is incomplete, or its own examples disagree with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleCheckError {
    /// No `id` or no `command`.
    Incomplete,
    /// No `must_match` example, so nothing shows the rule catches anything.
    NoExample { id: String },
    /// A `must_match` example the rule does not catch.
    Missed { id: String, example: String },
    /// A `must_not_match` example the rule catches.
    Caught { id: String, example: String },
}

impl std::fmt::Display for RuleCheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RuleCheckError::Incomplete => f.write_str("a gate rule needs an `id` and a `command`"),
            RuleCheckError::NoExample { id } => write!(
                f,
                "gate rule `{id}` has no `must_match` example: give at least one command it must \
                 catch"
            ),
            RuleCheckError::Missed { id, example } => write!(
                f,
                "gate rule `{id}` does not match its must_match example `{example}`"
            ),
            RuleCheckError::Caught { id, example } => write!(
                f,
                "gate rule `{id}` matches its must_not_match example `{example}`"
            ),
        }
    }
}

impl std::error::Error for RuleCheckError {}

/// A configured rule can only tighten.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UserVerdict {
    Block,
    Junction,
}

impl UserRule {
    pub fn verdict(&self) -> Verdict {
        match self.verdict {
            UserVerdict::Block => Verdict::Block,
            UserVerdict::Junction => Verdict::Junction,
        }
    }
}
