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
