//! Citations (Lossless Ledger FR-5, FR-6, appendix A): `` `quote` [${PROJECT_ROOT}/path:LINE] ``
//! found in a document and checked against the project's files.
//!
//! - [`parse`]: finding citations and their quotes in text (no I/O).
//! - [`resolve`]: where a cited path lands under the root (no escape through `..` or symlinks).
//! - [`check`]: the verdict on one citation, [`Status`], in the issue's order of precedence.
//!
//! ```
//! use trail_core::cite::{check_document, Status};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("a.rs"), "fn main() {\n    run();\n}\n")?;
//! let report = check_document("Starts here: `fn main() {` [${PROJECT_ROOT}/a.rs:1]", dir.path())?;
//! assert_eq!(report.citations[0].status, Status::Verified);
//! # Ok::<(), std::io::Error>(())
//! ```

pub mod check;
pub mod parse;
pub mod resolve;

use std::path::{Path, PathBuf};

pub use check::{Checker, Outcome, RANGE_ONLY, Status};
pub use parse::{Found, Malformed, PROJECT_ROOT, Quote, QuoteKind, Target, Written};

/// Where `${PROJECT_ROOT}` points for the project at `project`: `$PROJECT_ROOT` when set (as
/// Loa's scripts set it), else the project's root.
pub fn root_of(project: &Path) -> PathBuf {
    match std::env::var_os("PROJECT_ROOT").filter(|r| !r.is_empty()) {
        Some(r) => PathBuf::from(r),
        None => project.to_path_buf(),
    }
}

/// One citation of a document, checked: the shape `trail cite check --json` prints.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Checked {
    /// The document line it is on, from 1.
    pub line: usize,
    /// As written, brackets included.
    pub citation: String,
    /// The path as written after `${PROJECT_ROOT}/` (`None` when malformed).
    pub path: Option<String>,
    pub start: Option<u32>,
    pub end: Option<u32>,
    pub status: Status,
    /// Drifted: the lines where the quote now starts. Partial: where the quoted lines outside
    /// the range are.
    pub found_at: Vec<usize>,
    /// Where the quote came from; `none` means only the range's existence was checked.
    pub quote: QuoteKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// How many citations have each status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts([usize; Status::ALL.len()]);

impl Counts {
    pub fn add(&mut self, s: Status) {
        self.0[s as usize] += 1;
    }

    pub fn get(&self, s: Status) -> usize {
        self.0[s as usize]
    }

    pub fn total(&self) -> usize {
        self.0.iter().sum()
    }
}

/// Every status, in precedence order, with its count (zeros included, so a reader can index).
impl serde::Serialize for Counts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(Status::ALL.len()))?;
        for st in Status::ALL {
            m.serialize_entry(st.as_str(), &self.get(st))?;
        }
        m.end()
    }
}

/// Every citation of a document, checked.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Report {
    pub citations: Vec<Checked>,
    pub counts: Counts,
}

impl Report {
    /// Whether every citation is verified (a document without citations has nothing wrong).
    pub fn all_verified(&self) -> bool {
        self.counts.get(Status::Verified) == self.counts.total()
    }
}

/// Check every citation of `doc` against the files under `root`.
pub fn check_document(doc: &str, root: &Path) -> Result<Report, crate::file_error::FileError> {
    let mut checker = Checker::new(root)?;
    let mut report = Report {
        citations: Vec::new(),
        counts: Counts::default(),
    };
    for found in parse::find(doc) {
        let outcome = checker.check(&found.target, &found.quote)?;
        report.counts.add(outcome.status);
        let t = found.target.as_ref().ok();
        report.citations.push(Checked {
            line: found.line,
            citation: found.text,
            path: t.map(|t| t.path.clone()),
            start: t.map(|t| t.start),
            end: t.map(|t| t.end),
            status: outcome.status,
            found_at: outcome.found_at,
            quote: found.quote.kind,
            note: outcome.note,
        });
    }
    Ok(report)
}

/// The citations in one piece of evidence, as `trail decide --evidence` takes it: a quote and
/// a citation as a document writes them, or a bare `${PROJECT_ROOT}/path:LINE`.
pub fn parse_evidence(text: &str) -> Vec<Found> {
    let found = parse::find(text);
    if !found.is_empty() {
        return found;
    }
    let t = text.trim();
    if t.starts_with(PROJECT_ROOT) {
        return vec![Found {
            line: 1,
            text: t.to_string(),
            target: parse::parse_target(t),
            quote: Quote::none(),
        }];
    }
    Vec::new()
}

/// Checks that what the parser and the checker report of `doc`, against a file holding `file`,
/// is consistent, and panics if not: citations on lines of the document that read back the same,
/// ranges from 1 in order, `found_at` inside the file, and every part of a verified quote in its
/// range. The fuzz target (`fuzz/fuzz_targets/citations.rs`) and the property test share it.
#[doc(hidden)]
pub fn assert_consistent(doc: &str, file: &str) {
    let lines = check::text_lines(file);
    let doc_lines = doc.split('\n').count();
    for found in parse::find(doc) {
        assert!(found.line >= 1 && found.line <= doc_lines, "{found:?}");
        assert!(
            found.text.starts_with('[') && found.text.ends_with(']'),
            "{found:?}"
        );
        let inner = &found.text[1..found.text.len() - 1];
        assert_eq!(parse::parse_target(inner), found.target, "{found:?}");
        let Ok(t) = &found.target else { continue };
        assert!(t.start >= 1 && t.start <= t.end, "{t:?}");
        if t.end as usize > lines.len() {
            continue;
        }
        let outcome = check::compare(&lines, t, &found.quote);
        for &at in &outcome.found_at {
            assert!(at >= 1 && at <= lines.len(), "{outcome:?}");
        }
        if outcome.status == Status::Verified {
            let range = check::normalise(&lines[t.start as usize - 1..t.end as usize].join(" "));
            for part in check::quoted_parts(&found.quote) {
                assert!(
                    range.contains(&part),
                    "verified, but {part:?} is not in lines {}-{}",
                    t.start,
                    t.end
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// Text made of the pieces citations are made of, so that most inputs hold some.
    fn text(pieces: &'static [&'static str]) -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(pieces).prop_map(String::from),
                "[a-z ./]{0,6}",
                "[0-9]{1,3}",
                any::<String>(),
            ],
            0..40,
        )
        .prop_map(|v| v.concat())
    }

    const DOC: &[&str] = &[
        "[",
        "]",
        "`",
        "``",
        "```",
        "~~~",
        "\n",
        "\r\n",
        "${PROJECT_ROOT}/",
        "${PROJECT_ROOT}",
        ":",
        "-",
        "–",
        "L",
        "\\",
        "...",
        "…",
        "a.rs",
        "/",
        "..",
        " ",
    ];
    const FILE: &[&str] = &[
        "\n",
        "\r\n",
        "}",
        "{",
        "a.rs",
        "fn a() {}",
        "...",
        "\t",
        " ",
    ];

    proptest! {
        #[test]
        fn what_the_parser_and_checker_report_is_consistent(doc in text(DOC), file in text(FILE)) {
            super::assert_consistent(&doc, &file);
        }
    }
}
