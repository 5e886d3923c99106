//! The gate's verdicts, held by the library (grants, junctions, configured rules) without the
//! gate itself.

use serde::Serialize;

/// The gate's verdicts, ordered: the worst wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Junction,
    Block,
}
