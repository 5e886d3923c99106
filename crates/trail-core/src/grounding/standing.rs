//! Where each recent decision stands now: its citations checked against the project as it is at
//! this moment ([`crate::cite`]), beside what the check said when the decision was recorded. A
//! decision is named by its identifier, never pasted; what changed since is said.

use std::path::Path;

use serde::Serialize;

use super::Cited;
use crate::cite::{Checker, Status};
use crate::trajectory::Decision;

/// One citation of a decision, then and now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Now {
    /// As written, brackets included.
    pub citation: String,
    /// What the check said when the decision was recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<Status>,
    pub now: Status,
    /// Drifted or partial: where the quote is now.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub found_at: Vec<usize>,
}

impl Now {
    /// Verified when recorded, and no longer: the code moved or changed under the decision.
    pub fn lost(&self) -> bool {
        self.recorded == Some(Status::Verified) && self.now != Status::Verified
    }
}

/// A decision and its citations now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    pub id: String,
    pub title: String,
    pub citations: Vec<Now>,
}

impl Standing {
    /// How it stands, in a few words: `verified`, `no citation`, `1/2 verified`, and each
    /// citation that is not verified now with what it is (where a drifted quote went).
    pub fn status(&self) -> String {
        if self.citations.is_empty() {
            return "no citation".into();
        }
        let verified = self
            .citations
            .iter()
            .filter(|c| c.now == Status::Verified)
            .count();
        let mut s = if verified == self.citations.len() {
            "verified".to_string()
        } else {
            format!("{verified}/{} verified", self.citations.len())
        };
        for c in self.citations.iter().filter(|c| c.now != Status::Verified) {
            s.push_str(&format!("; {} {}", c.citation, c.now));
            if !c.found_at.is_empty() {
                let at: Vec<String> = c.found_at.iter().take(3).map(ToString::to_string).collect();
                s.push_str(&format!(" (now at line {})", at.join(", ")));
            }
            if c.lost() {
                s.push_str(", verified when recorded: a fork, the code wins");
            }
        }
        s
    }

    /// The citations verified when recorded that are not now.
    pub fn lost(&self) -> impl Iterator<Item = &Now> {
        self.citations.iter().filter(|c| c.lost())
    }
}

/// Each decision's citations checked now under `root`, each cited file read once. An error is a
/// failure to read what is there, never a verdict.
pub fn recheck<'a>(
    root: &Path,
    decisions: impl IntoIterator<Item = &'a Decision>,
) -> Result<Vec<Standing>, crate::file_error::FileError> {
    let mut checker = None;
    let mut out = Vec::new();
    for d in decisions {
        let mut citations = Vec::with_capacity(d.evidence.len());
        for e in &d.evidence {
            let cited = Cited::from_evidence(e);
            let checker = match &mut checker {
                Some(k) => k,
                None => checker.insert(Checker::new(root)?),
            };
            let o = checker.check(&cited.target, &cited.quote)?;
            citations.push(Now {
                citation: e.citation.clone(),
                recorded: e.status,
                now: o.status,
                found_at: o.found_at,
            });
        }
        out.push(Standing {
            id: d.id.clone(),
            title: d.title.clone(),
            citations,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trajectory::Evidence;

    fn carried(evidence: Vec<Evidence>) -> Decision {
        Decision {
            id: "d-1".into(),
            title: "Parse with serde".into(),
            decision: "d".into(),
            rationale: "r".into(),
            evidence,
            tests: Vec::new(),
            bead: None,
        }
    }

    fn ev(citation: &str, quote: &str) -> Evidence {
        Evidence {
            citation: citation.into(),
            quote: Some(quote.into()),
            status: Some(Status::Verified),
        }
    }

    #[test]
    fn a_citation_that_moved_since_it_was_recorded_is_said_with_where_it_went() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.rs"), "fn a() {}\nfn b() {}\n").unwrap();
        let d = carried(vec![
            ev("[${PROJECT_ROOT}/a.rs:1]", "fn a() {}"),
            ev("[${PROJECT_ROOT}/a.rs:2]", "fn b() {}"),
        ]);
        let s = &recheck(dir.path(), [&d]).unwrap()[0];
        assert_eq!(s.status(), "verified");
        assert_eq!(s.lost().count(), 0);
        // A line inserted above: both quotes are one line further down.
        std::fs::write(dir.path().join("a.rs"), "// new\nfn a() {}\nfn b() {}\n").unwrap();
        let s = &recheck(dir.path(), [&d]).unwrap()[0];
        assert_eq!(
            s.status(),
            "0/2 verified; [${PROJECT_ROOT}/a.rs:1] drifted (now at line 2), verified when \
             recorded: a fork, the code wins; [${PROJECT_ROOT}/a.rs:2] drifted (now at line 3), \
             verified when recorded: a fork, the code wins"
        );
        assert_eq!(s.lost().count(), 2);
        let none = &recheck(dir.path(), [&carried(Vec::new())]).unwrap()[0];
        assert_eq!(none.status(), "no citation");
    }

    #[test]
    fn a_citation_unverified_when_recorded_is_not_lost_now() {
        let dir = tempfile::tempdir().unwrap();
        let mut e = ev("[${PROJECT_ROOT}/gone.rs:1]", "x");
        e.status = Some(Status::MissingFile);
        let s = &recheck(dir.path(), [&carried(vec![e])]).unwrap()[0];
        assert_eq!(s.citations[0].now, Status::MissingFile);
        assert_eq!(s.lost().count(), 0);
        assert!(!s.status().contains("verified when recorded"));
    }
}
