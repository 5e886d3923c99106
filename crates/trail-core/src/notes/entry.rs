//! A decision as its Decision Log entry (FR-10's shape), and its rows of the identifiers table.
//!
//! ```text
//! #### 2026-01-15T14:30:00Z - Use rotating refresh tokens
//! <!-- trail:decision d-1a2b3c4d -->
//! **Decision**: Use rotating refresh tokens
//! **Rationale**: Prevents token theft replay attacks
//! **Evidence**: `export async function rotateRefreshToken()` [${PROJECT_ROOT}/src/auth/refresh.ts:12]
//! **Test Scenarios**: 1) happy: … 2) edge: … 3) error: …
//! ```
//!
//! Every value is on one line (a newline an agent put in a rationale cannot start a heading
//! that would end the log); a quote of several lines is the fenced block above its citation,
//! as a reader of citations expects. The entry is rendered from the journal's record, so the
//! same decision always reads the same, whether appended now or rebuilt later.

use crate::cite::Status;
use crate::time::Ts;
use crate::trajectory::{Decision, Evidence};

use super::continuity::one_line;

/// `2026-01-15T14:30:00Z`: the instant to the second.
pub fn stamp(ts: Ts) -> String {
    let s = ts.to_string();
    format!("{}Z", &s[..19.min(s.len())])
}

/// `14:30:00Z`, as the Lightweight Identifiers table writes when an identifier was verified.
pub fn clock(ts: Ts) -> String {
    let s = stamp(ts);
    s[11..].to_string()
}

/// The marker naming the decision's id inside its entry (a Markdown comment: not shown).
pub fn id_marker(id: &str) -> String {
    format!("<!-- trail:decision {id} -->")
}

/// The entry, ending with a line break.
pub fn render(ts: Ts, d: &Decision) -> String {
    let mut s = format!("#### {} - {}\n", stamp(ts), one_line(&d.title));
    s.push_str(&id_marker(&one_line(&d.id)));
    s.push('\n');
    s.push_str(&format!("**Decision**: {}\n", one_line(&d.decision)));
    s.push_str(&format!("**Rationale**: {}\n", one_line(&d.rationale)));
    match d.evidence.as_slice() {
        [] => s.push_str("**Evidence**: none given\n"),
        [one] if !multi_line(one) => {
            s.push_str(&format!("**Evidence**: {}\n", evidence(one)));
        }
        many => {
            s.push_str("**Evidence**:\n");
            for e in many {
                if multi_line(e) {
                    s.push_str(&fenced(e));
                } else {
                    s.push_str(&format!("- {}\n", evidence(e)));
                }
            }
        }
    }
    if d.tests.is_empty() {
        s.push_str("**Test Scenarios**: none recorded\n");
    } else {
        let t: Vec<String> = d
            .tests
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{}) {}", i + 1, one_line(t)))
            .collect();
        s.push_str(&format!("**Test Scenarios**: {}\n", t.join(" ")));
    }
    if let Some(b) = &d.bead {
        s.push_str(&format!("**Bead**: {}\n", one_line(b)));
    }
    s
}

fn multi_line(e: &Evidence) -> bool {
    e.quote.as_deref().is_some_and(|q| q.contains('\n'))
}

/// `` `quote` [citation] `` on one line, with what the check said when it was not verified.
fn evidence(e: &Evidence) -> String {
    let cite = one_line(&e.citation);
    let status = status_note(e.status);
    match e.quote.as_deref().filter(|q| !q.trim().is_empty()) {
        Some(q) => format!("{} {cite}{status}", code_span(q)),
        None => format!("{cite}{status}"),
    }
}

/// A quote of several lines: a fence of a character no line of the quote opens a fence with
/// (a reader takes the nearest fence above the citation as the opener), the citation on the
/// line after it. A quote with fence lines of both kinds is written inline instead, its lines
/// joined by ` ... ` (which a check reads as parts from different lines).
fn fenced(e: &Evidence) -> String {
    let q = e.quote.as_deref().unwrap_or_default();
    let body: Vec<&str> = q.lines().collect();
    let opens = |c: u8| {
        body.iter()
            .any(|l| super::markdown::fence_of(l).is_some_and(|(f, _)| f == c))
    };
    let fence = match (opens(b'`'), opens(b'~')) {
        (false, _) => "```",
        (true, false) => "~~~",
        (true, true) => {
            let joined = body
                .iter()
                .map(|l| l.trim())
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" ... ");
            let inline = Evidence {
                quote: Some(joined),
                ..e.clone()
            };
            return format!("- {}\n", evidence(&inline));
        }
    };
    format!(
        "{fence}\n{}\n{fence}\n{}{}\n",
        body.join("\n"),
        one_line(&e.citation),
        status_note(e.status)
    )
}

fn status_note(s: Option<Status>) -> String {
    match s {
        Some(Status::Verified) | None => String::new(),
        Some(s) => format!(" (not verified when recorded: {s})"),
    }
}

/// An inline code span holding `q` exactly (CommonMark: a run of backticks longer than any in
/// `q`, padded with a space when `q` starts or ends with a backtick).
fn code_span(q: &str) -> String {
    let q = one_line(q);
    let ticks = "`".repeat(crate::text::longest_run(&q, '`') + 1);
    let pad = if q.starts_with('`') || q.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{q}{pad}{ticks}")
}

/// A decision's verified citations, as rows of the Lightweight Identifiers table.
pub fn identifiers(ts: Ts, d: &Decision) -> Vec<super::continuity::Identifier> {
    d.evidence
        .iter()
        .filter(|e| e.status == Some(Status::Verified))
        .map(|e| super::continuity::Identifier {
            id: e
                .citation
                .trim()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_string(),
            purpose: d.title.clone(),
            verified: clock(ts),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cite::parse;

    fn decision(evidence: Vec<Evidence>) -> Decision {
        Decision {
            id: "d-1".into(),
            title: "Use JWT\n## not a heading".into(),
            decision: "JWT".into(),
            rationale: "line one\nline two".into(),
            evidence,
            tests: vec!["happy: ok".into(), "edge: expiry".into()],
            bead: Some("bd-7".into()),
        }
    }

    fn ev(cite: &str, quote: Option<&str>, status: Status) -> Evidence {
        Evidence {
            citation: cite.into(),
            quote: quote.map(String::from),
            status: Some(status),
        }
    }

    #[test]
    fn an_entry_reads_back_with_its_citations_and_their_quotes() {
        let ts = Ts::parse_strict("2026-01-15T14:30:00.123456Z").unwrap();
        let d = decision(vec![
            ev(
                "[${PROJECT_ROOT}/a.rs:1]",
                Some("let `x` = 1;"),
                Status::Verified,
            ),
            ev(
                "[${PROJECT_ROOT}/a.rs:2-3]",
                Some("fn a() {\n```\n}"),
                Status::Drifted,
            ),
            ev("[${PROJECT_ROOT}/b.rs:9]", None, Status::MissingFile),
        ]);
        let text = render(ts, &d);
        assert!(text.starts_with(
            "#### 2026-01-15T14:30:00Z - Use JWT ## not a heading\n<!-- trail:decision d-1 -->\n"
        ));
        assert!(text.contains("**Rationale**: line one line two\n"));
        assert!(text.contains("**Test Scenarios**: 1) happy: ok 2) edge: expiry\n"));
        assert!(text.contains(" (not verified when recorded: missing-file)\n"));
        let found = parse::find(&text);
        assert_eq!(found.len(), 3, "{text}");
        assert_eq!(found[0].quote.lines, ["let `x` = 1;"]);
        assert_eq!(found[1].quote.lines, ["fn a() {", "```", "}"]);
        let both = render(
            ts,
            &decision(vec![ev(
                "[${PROJECT_ROOT}/a.rs:2-4]",
                Some("```\n~~~\nx"),
                Status::Verified,
            )]),
        );
        assert_eq!(
            parse::find(&both)[0].quote.lines,
            ["``` ... ~~~ ... x"],
            "{both}"
        );
        assert!(found[2].quote.lines.is_empty());
        // One heading: the entry's own.
        let headings = crate::notes::markdown::lines(&text)
            .into_iter()
            .filter(|l| l.heading.is_some())
            .count();
        assert_eq!(headings, 1);
        let one = render(
            ts,
            &decision(vec![ev(
                "[${PROJECT_ROOT}/a.rs:1]",
                Some("`x`"),
                Status::Verified,
            )]),
        );
        assert!(
            one.contains("**Evidence**: `` `x` `` [${PROJECT_ROOT}/a.rs:1]\n"),
            "{one}"
        );
        assert_eq!(parse::find(&one)[0].quote.lines, ["`x`"]);
    }

    #[test]
    fn identifiers_say_when_they_were_verified() {
        assert_eq!(
            clock(Ts::parse_loose("2026-01-15T14:30:00Z").unwrap()),
            "14:30:00Z"
        );
    }
}
