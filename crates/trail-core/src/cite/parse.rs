//! Finding citations in a document, and the quote each one carries (Lossless Ledger appendix A).
//!
//! A citation is `[${PROJECT_ROOT}/path:LINE]` or `[${PROJECT_ROOT}/path:START-END]`. Its quote
//! is the inline code span just before it on its line (a span may open on an earlier line of the
//! same paragraph), or else the fenced code block immediately above its line.
//!
//! What counts as a citation, and why:
//! - Any bracket whose text starts with `${PROJECT_ROOT}` is one; when it does not read as
//!   `path:LINE` or `path:START-END` it is malformed, so a typo is reported instead of skipped.
//! - A bracket holding `path:LINE` without the prefix (`[src/auth/jwt.ts:45]`, or an absolute
//!   `/home/…/jwt.ts:45`) is a citation written the way the protocol rejects: it is found so that
//!   it can be reported. The path must look like one (a `/` or a `.` in it, no spaces), so that
//!   `[12:30]`, `[x]` and `[ASSUMPTION: src/a.ts:45 not found]` are not citations.
//! - A bracket inside an inline code span is code (a quote, or the format being named), never a
//!   citation. Fenced blocks are searched: documentation shows its examples of citations there,
//!   and an agent's report nests fences (Loa's reviewer file closes an inner fence and cites
//!   right after it), so skipping fenced text would lose real citations.

use std::ops::Range;

/// The prefix every citation's path starts with.
pub const PROJECT_ROOT: &str = "${PROJECT_ROOT}";

/// How a citation's path was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Written {
    /// `${PROJECT_ROOT}/…`: the only form that survives a move of the project.
    Rooted,
    /// Absolute but without the prefix (`/home/user/project/src/a.ts`).
    Absolute,
    /// Relative (`src/a.ts`).
    Relative,
}

/// The file and lines a citation names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The path as written, after `${PROJECT_ROOT}/` when it has the prefix.
    pub path: String,
    /// First and last cited line, 1-based, `start <= end`.
    pub start: u32,
    pub end: u32,
    pub written: Written,
}

/// Why a citation's text does not name a file and lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Malformed {
    #[error("no line number: write `path:LINE` or `path:START-END`")]
    NoLine,
    #[error("the line is not a number: write `path:LINE` or `path:START-END`")]
    BadLine,
    #[error("lines are counted from 1")]
    LineZero,
    #[error("the range ends before it starts")]
    Reversed,
    #[error("no path")]
    NoPath,
    #[error("`${{PROJECT_ROOT}}` must be followed by `/`")]
    NoSlash,
}

/// Where a citation's quote came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuoteKind {
    /// No quote: only the range's existence can be checked.
    #[default]
    None,
    /// An inline code span before the citation.
    Inline,
    /// The fenced code block above the citation.
    Fenced,
}

/// A citation's quote: its lines as written (an inline span that crosses lines has several).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Quote {
    pub kind: QuoteKind,
    pub lines: Vec<String>,
}

impl Quote {
    pub fn none() -> Quote {
        Quote::default()
    }

    /// An inline quote (`code`), as `trail decide --evidence` or a trajectory entry gives one.
    pub fn inline(text: &str) -> Quote {
        Quote {
            kind: QuoteKind::Inline,
            lines: text.lines().map(String::from).collect(),
        }
    }
}

/// A citation found in a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The document line it is on, from 1.
    pub line: usize,
    /// The citation as written, brackets included.
    pub text: String,
    pub target: Result<Target, Malformed>,
    pub quote: Quote,
}

/// Parse the text inside a citation's brackets (or a bare identifier such as
/// `${PROJECT_ROOT}/src/a.rs:45-67`).
pub fn parse_target(text: &str) -> Result<Target, Malformed> {
    let t = text.trim();
    let (path, written) = match t.strip_prefix(PROJECT_ROOT) {
        Some(rest) => (
            rest.strip_prefix('/').ok_or(Malformed::NoSlash)?,
            Written::Rooted,
        ),
        None if t.starts_with('/') => (t, Written::Absolute),
        None => (t, Written::Relative),
    };
    let (path, lines) = path.rsplit_once(':').ok_or(Malformed::NoLine)?;
    // An en dash is how prose (and a model writing prose) often writes a range.
    let (start, end) = if let Some((a, b)) = lines.split_once(['-', '–']) {
        (line_number(a)?, line_number(b)?)
    } else {
        let n = line_number(lines)?;
        (n, n)
    };
    if path.trim_matches('/').is_empty() {
        return Err(Malformed::NoPath);
    }
    if end < start {
        return Err(Malformed::Reversed);
    }
    Ok(Target {
        path: path.to_string(),
        start,
        end,
        written,
    })
}

/// `45`, or `L45` as GitHub and Loa's own templates write it.
fn line_number(s: &str) -> Result<u32, Malformed> {
    let s = s.trim();
    let digits = s.strip_prefix('L').unwrap_or(s);
    if digits.is_empty() {
        return Err(if s.is_empty() {
            Malformed::NoLine
        } else {
            Malformed::BadLine
        });
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Malformed::BadLine);
    }
    match digits.parse::<u32>() {
        Ok(0) => Err(Malformed::LineZero),
        Ok(n) => Ok(n),
        Err(_) => Err(Malformed::BadLine),
    }
}

/// Every citation in `doc`, in order, each with its quote.
pub fn find(doc: &str) -> Vec<Found> {
    let lines: Vec<&str> = doc
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if is_blank(lines[i]) || fence(lines[i]).is_some() {
            i += 1;
            continue;
        }
        // A paragraph: the lines a code span may cross.
        let first = i;
        while i < lines.len() && !is_blank(lines[i]) && fence(lines[i]).is_none() {
            i += 1;
        }
        in_paragraph(&lines, first..i, &mut out);
    }
    out
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// The citations of one paragraph (lines `para`).
fn in_paragraph(lines: &[&str], para: Range<usize>, out: &mut Vec<Found>) {
    let text = lines[para.clone()].join("\n");
    // Where each line starts in `text`.
    let mut starts = Vec::with_capacity(para.len());
    let mut at = 0;
    for l in &lines[para.clone()] {
        starts.push(at);
        at += l.len() + 1;
    }
    let line_of = |offset: usize| starts.partition_point(|&s| s <= offset) - 1;
    let spans = code_spans(&text);
    let mut after = 0; // the end of the previous citation: a quote starts after it
    for bracket in brackets(&text, &spans) {
        let inner = &text[bracket.start + 1..bracket.end - 1];
        let Some(target) = candidate(inner) else {
            continue;
        };
        let line = line_of(bracket.start);
        let quote = spans
            .iter()
            .rev()
            .find(|s| s.outer.end <= bracket.start && s.outer.start >= after)
            .filter(|s| line_of(s.outer.end - 1) == line)
            .map(|s| Quote {
                kind: QuoteKind::Inline,
                lines: text[s.inner.clone()]
                    .split('\n')
                    .map(String::from)
                    .collect(),
            })
            .or_else(|| {
                (line == 0)
                    .then(|| fenced_above(lines, para.start))
                    .flatten()
            })
            .unwrap_or_default();
        out.push(Found {
            line: para.start + line + 1,
            text: text[bracket.clone()].to_string(),
            target,
            quote,
        });
        after = bracket.end;
    }
}

/// The bracket text as a citation: `None` when it is not one at all.
fn candidate(inner: &str) -> Option<Result<Target, Malformed>> {
    let t = inner.trim();
    if t.starts_with(PROJECT_ROOT) {
        return Some(parse_target(t));
    }
    let (path, lines) = t.rsplit_once(':')?;
    let looks_like_path = !path.is_empty()
        && (path.contains('/') || path.contains('.'))
        && !path.contains("://")
        && !path.chars().any(|c| {
            c.is_whitespace() || matches!(c, '[' | ']' | '`' | '"' | '\'' | '(' | ')' | '<' | '>')
        })
        && !path.chars().all(|c| c.is_ascii_digit() || c == '.');
    let looks_like_lines = !lines.is_empty()
        && lines.split(['-', '–']).all(|n| {
            !n.is_empty()
                && n.trim_start_matches('L')
                    .bytes()
                    .all(|b| b.is_ascii_digit())
        });
    (looks_like_path && looks_like_lines).then(|| parse_target(t))
}

/// An inline code span: the backticks included (`outer`) and its content (`inner`).
#[derive(Clone, Debug)]
struct Span {
    outer: Range<usize>,
    inner: Range<usize>,
}

/// The code spans of a paragraph, CommonMark's way: a run of N backticks opens a span that the
/// next run of exactly N closes; a run with no closer is literal; a backslash escapes a backtick
/// outside spans. One space is stripped from each side when both have one.
fn code_spans(text: &str) -> Vec<Span> {
    let b = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'`' => {
                let n = run_len(b, i);
                let mut j = i + n;
                let mut close = None;
                while j < b.len() {
                    if b[j] == b'`' {
                        let m = run_len(b, j);
                        if m == n {
                            close = Some(j);
                            break;
                        }
                        j += m;
                    } else {
                        j += 1;
                    }
                }
                match close {
                    Some(c) => {
                        let mut inner = i + n..c;
                        let s = &b[inner.clone()];
                        if s.len() >= 2
                            && s[0] == b' '
                            && s[s.len() - 1] == b' '
                            && s.iter().any(|&x| x != b' ')
                        {
                            inner = inner.start + 1..inner.end - 1;
                        }
                        spans.push(Span {
                            outer: i..c + n,
                            inner,
                        });
                        i = c + n;
                    }
                    None => i += n,
                }
            }
            _ => i += 1,
        }
    }
    spans
}

fn run_len(b: &[u8], at: usize) -> usize {
    b[at..].iter().take_while(|&&c| c == b'`').count()
}

/// The brackets of `text` outside code spans: `[` … its matching `]` on the same line.
fn brackets(text: &str, spans: &[Span]) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let in_span = |i: usize| spans.iter().any(|s| s.outer.contains(&i));
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'[' || in_span(i) || (i > 0 && b[i - 1] == b'\\') {
            i += 1;
            continue;
        }
        let mut depth = 0usize;
        let mut end = None;
        for (j, &c) in b.iter().enumerate().skip(i) {
            match c {
                b'\n' => break,
                b'[' => depth += 1,
                b']' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(j + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        // Nested brackets are looked at too: `[see [${PROJECT_ROOT}/a.rs:1]]`.
        if let Some(e) = end {
            out.push(i..e);
        }
        i += 1;
    }
    out
}

/// A fence line (```` ``` ```` or `~~~`, any indentation): its character, its length and
/// whether it carries an info string (then it can only open a block).
fn fence(line: &str) -> Option<(u8, usize, bool)> {
    let t = line.trim_start();
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|&x| x == c).count();
    if n < 3 {
        return None;
    }
    let info = t[n..].trim();
    if c == b'`' && info.contains('`') {
        return None;
    }
    Some((c, n, !info.is_empty()))
}

/// How far up a fenced quote is looked for.
const MAX_FENCE_LINES: usize = 1000;

/// The fenced block closing just above line `at` (blank lines between allowed): the nearest
/// fence of the same character, no longer than the closing one, opens it. In a document whose
/// fences nest (an inner block shown inside an outer one) this is the innermost block.
fn fenced_above(lines: &[&str], at: usize) -> Option<Quote> {
    let mut close = at.checked_sub(1)?;
    while is_blank(lines[close]) {
        close = close.checked_sub(1)?;
    }
    let (c, n, info) = fence(lines[close])?;
    if info {
        return None;
    }
    let floor = close.saturating_sub(MAX_FENCE_LINES);
    let open = (floor..close)
        .rev()
        .find(|&k| matches!(fence(lines[k]), Some((c2, n2, _)) if c2 == c && n2 <= n))?;
    Some(Quote {
        kind: QuoteKind::Fenced,
        lines: lines[open + 1..close]
            .iter()
            .map(std::string::ToString::to_string)
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(doc: &str) -> Found {
        let f = find(doc);
        assert_eq!(f.len(), 1, "{f:#?}");
        f.into_iter().next().unwrap()
    }

    #[test]
    fn a_line_and_a_range_with_their_inline_quotes() {
        let f =
            one("Uses JWT: `export function validateToken()` [${PROJECT_ROOT}/src/auth/jwt.ts:45]");
        assert_eq!(f.line, 1);
        assert_eq!(f.text, "[${PROJECT_ROOT}/src/auth/jwt.ts:45]");
        let t = f.target.unwrap();
        assert_eq!(
            (t.path.as_str(), t.start, t.end),
            ("src/auth/jwt.ts", 45, 45)
        );
        assert_eq!(t.written, Written::Rooted);
        assert_eq!(f.quote, Quote::inline("export function validateToken()"));

        let f = one("x\n`a` and `b` [${PROJECT_ROOT}/a.rs:3-L5]");
        assert_eq!(f.line, 2);
        assert_eq!(
            (f.target.as_ref().unwrap().start, f.target.unwrap().end),
            (3, 5)
        );
        let t = parse_target("${PROJECT_ROOT}/a.rs:3–5").unwrap();
        assert_eq!((t.start, t.end), (3, 5));
        // The span nearest the citation is its quote.
        assert_eq!(f.quote.lines, ["b"]);
    }

    #[test]
    fn the_fenced_block_above_is_the_quote() {
        let doc = "text\n```rust\nfn main() {}\n```\n\n[${PROJECT_ROOT}/src/main.rs:1]\n";
        let f = one(doc);
        assert_eq!(f.line, 6);
        assert_eq!(f.quote.kind, QuoteKind::Fenced);
        assert_eq!(f.quote.lines, ["fn main() {}"]);
        // A fence with an info string opens a block: nothing above closes there.
        let f = one("```rust\n[${PROJECT_ROOT}/src/main.rs:1]");
        assert_eq!(f.quote, Quote::none());
        // Text between the fence and the citation's paragraph: not immediately above.
        let f = one("```\nfn a()\n```\nsee\n[${PROJECT_ROOT}/a.rs:1]");
        assert_eq!(f.quote, Quote::none());
    }

    #[test]
    fn nested_fences_give_the_innermost_block() {
        // Loa's reviewer file: an outer ```markdown block that is never closed, an inner one that
        // is, and the citation right after.
        let doc = "```markdown\n## Heading\n\n```\nSEQUENCE:\n1. bd ready\n...\n```\n[${PROJECT_ROOT}/ride.md:195-260]";
        let f = one(doc);
        assert_eq!(f.quote.lines, ["SEQUENCE:", "1. bd ready", "..."]);
    }

    #[test]
    fn a_code_span_may_cross_lines_of_its_paragraph() {
        let doc =
            "Login:\n`async function login() {\n  return x;\n}` [${PROJECT_ROOT}/login.ts:15-17]";
        let f = one(doc);
        assert_eq!(f.quote.kind, QuoteKind::Inline);
        assert_eq!(
            f.quote.lines,
            ["async function login() {", "  return x;", "}"]
        );
    }

    #[test]
    fn double_backticks_and_escapes() {
        let f = one("`` a `b` c `` [${PROJECT_ROOT}/a.rs:1]");
        assert_eq!(f.quote.lines, ["a `b` c"]);
        // An escaped backtick opens nothing.
        let f = one(r"\`not code` [${PROJECT_ROOT}/a.rs:1]");
        assert_eq!(f.quote, Quote::none());
        // An escaped bracket is not a citation.
        assert!(find(r"\[${PROJECT_ROOT}/a.rs:1]").is_empty());
    }

    #[test]
    fn brackets_inside_code_are_not_citations() {
        assert!(find("Write `[${PROJECT_ROOT}/path:LINE]` in reports.").is_empty());
        let f = find("`a` [${PROJECT_ROOT}/a.rs:1] then `b` [${PROJECT_ROOT}/b.rs:2]");
        assert_eq!(f.len(), 2);
        assert_eq!(f[1].quote.lines, ["b"]);
        // The second citation does not borrow the first one's quote.
        let f = find("`a` [${PROJECT_ROOT}/a.rs:1] and [${PROJECT_ROOT}/b.rs:2]");
        assert_eq!(f[1].quote, Quote::none());
    }

    #[test]
    fn what_is_not_a_citation() {
        for doc in [
            "- [x] done",
            "- [ ] todo",
            "at [12:30] we met",
            "[ASSUMPTION: src/auth/jwt.ts:45 not found, requires verification]",
            "[HIGH AMBIGUITY]",
            "[a link](https://example.com:443)",
            "see [https://example.com:8080]",
            "arr[i:5]",
            "[Makefile]",
            "`x` [src/auth/jwt.ts]",
        ] {
            assert!(find(doc).is_empty(), "{doc}: {:?}", find(doc));
        }
    }

    #[test]
    fn relative_and_absolute_paths_are_found_to_be_reported() {
        let f = one("\"The system uses JWT [src/auth/jwt.ts:45]\"");
        assert_eq!(f.target.unwrap().written, Written::Relative);
        let f = one("`x` [/home/user/project/src/auth/jwt.ts:45]");
        assert_eq!(f.target.unwrap().written, Written::Absolute);
    }

    #[test]
    fn malformed_citations() {
        for (doc, why) in [
            ("[${PROJECT_ROOT}/src/auth/jwt.ts]", Malformed::NoLine),
            ("[${PROJECT_ROOT}/src/a.ts:abc]", Malformed::BadLine),
            ("[${PROJECT_ROOT}/src/a.ts:0]", Malformed::LineZero),
            ("[${PROJECT_ROOT}/src/a.ts:9-3]", Malformed::Reversed),
            ("[${PROJECT_ROOT}/:3]", Malformed::NoPath),
            ("[${PROJECT_ROOT}src/a.ts:3]", Malformed::NoSlash),
            ("[${PROJECT_ROOT}/a.ts:3-]", Malformed::NoLine),
            ("[${PROJECT_ROOT}/a.ts:99999999999]", Malformed::BadLine),
            ("[${PROJECT_ROOT}/a.ts:3,5]", Malformed::BadLine),
            ("[src/a.ts:0]", Malformed::LineZero),
        ] {
            assert_eq!(one(doc).target, Err(why), "{doc}");
        }
    }

    #[test]
    fn crlf_and_positions() {
        let f = find("a\r\n`q` [${PROJECT_ROOT}/a.rs:2]\r\n\r\n`r` [${PROJECT_ROOT}/b.rs:3]\r\n");
        assert_eq!(f.len(), 2);
        assert_eq!((f[0].line, f[1].line), (2, 4));
        assert_eq!(f[0].quote.lines, ["q"]);
        assert!(!f[0].text.contains('\r'));
    }
}
