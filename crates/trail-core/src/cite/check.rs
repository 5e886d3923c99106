//! A citation against the file it cites: its status, in the precedence of issue 12.
//!
//! Lines are compared whitespace-normalised (runs of spaces, tabs and other Unicode spaces
//! become one space, ends trimmed), so a quote keeps its meaning whatever the indentation, tabs
//! or line endings of either side. A quoted line is found on a file line that contains it: a
//! quote may be the interesting part of a line (`validateToken(token)` out of
//! `export function validateToken(token: string) {`). An inline quote may stand for several
//! lines: `...` (or `…`) inside it separates parts quoted from different lines, as Loa's protocol
//! writes truncation, and a part found on no single line may still run across a few lines.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::parse::{Malformed, Quote, QuoteKind, Target, Written};
use super::resolve::{Landing, resolve};
use crate::fsutil;

/// A citation's verdict, in order of precedence: the first that applies is the one given.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Not `path:LINE` or `path:START-END`.
    Malformed,
    /// Without the `${PROJECT_ROOT}` prefix.
    RelativePath,
    /// Resolves above the project root (`..`, or a symlink leaving it).
    OutsideRoot,
    /// No such file (or not a regular file).
    MissingFile,
    /// Some of the cited range lies past the end of the file.
    OutOfRange,
    /// Every quoted line lies within the range (or there is no quote and the range exists).
    Verified,
    /// Some quoted lines lie within the range, the rest elsewhere.
    Partial,
    /// The whole quote is in the file, outside the range.
    Drifted,
    /// The quote is not in the file.
    QuoteNotFound,
}

impl Status {
    pub const ALL: [Status; 9] = [
        Status::Malformed,
        Status::RelativePath,
        Status::OutsideRoot,
        Status::MissingFile,
        Status::OutOfRange,
        Status::Verified,
        Status::Partial,
        Status::Drifted,
        Status::QuoteNotFound,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Malformed => "malformed",
            Status::RelativePath => "relative-path",
            Status::OutsideRoot => "outside-root",
            Status::MissingFile => "missing-file",
            Status::OutOfRange => "out-of-range",
            Status::Verified => "verified",
            Status::Partial => "partial",
            Status::Drifted => "drifted",
            Status::QuoteNotFound => "quote-not-found",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|st| st.as_str() == s)
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What checking one citation found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub status: Status,
    /// Drifted: where the quote is now. Partial: where the quoted lines outside the range are.
    pub found_at: Vec<usize>,
    /// Why, when the status alone does not say (a citation without a quote, a binary file…).
    pub note: Option<String>,
}

impl Outcome {
    fn of(status: Status) -> Outcome {
        Outcome {
            status,
            found_at: Vec::new(),
            note: None,
        }
    }

    fn note(mut self, note: impl Into<String>) -> Outcome {
        self.note = Some(note.into());
        self
    }
}

/// What a citation that verifies without a quote says of itself.
pub const RANGE_ONLY: &str = "no quote: only that the cited lines exist was checked";

/// The most lines a quoted part may run across when it is on no single line.
const MAX_JOINED: usize = 8;
/// The most places a drifted quote is reported at.
const MAX_FOUND: usize = 20;

/// A file as the checker sees it.
enum Loaded {
    Text { text: Text, binary: bool },
    Outside,
    Missing(Option<String>),
    Loop,
    TooLarge(u64),
}

/// Checks citations under one project root, reading each cited file once.
pub struct Checker {
    root: PathBuf,
    files: HashMap<String, Rc<Loaded>>,
}

impl Checker {
    /// A checker for citations under `root` (which must exist: it is the project).
    pub fn new(root: &Path) -> Result<Checker, crate::file_error::FileError> {
        let root = std::fs::canonicalize(root)
            .map_err(|e| crate::file_error::FileError::new("resolve the project root", root, e))?;
        Ok(Checker {
            root,
            files: HashMap::new(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Check one citation. An error is a failure to read what is there (permissions, I/O), never
    /// a verdict.
    pub fn check(
        &mut self,
        target: &Result<Target, Malformed>,
        quote: &Quote,
    ) -> Result<Outcome, crate::file_error::FileError> {
        let t = match target {
            Err(why) => return Ok(Outcome::of(Status::Malformed).note(why.to_string())),
            Ok(t) => t,
        };
        match t.written {
            Written::Rooted => {}
            Written::Absolute => {
                return Ok(Outcome::of(Status::RelativePath).note(
                    "an absolute path without ${PROJECT_ROOT}: it breaks when the project moves; \
                     write [${PROJECT_ROOT}/path:LINE]",
                ));
            }
            Written::Relative => {
                return Ok(Outcome::of(Status::RelativePath)
                    .note("no ${PROJECT_ROOT} prefix: write [${PROJECT_ROOT}/path:LINE]"));
            }
        }
        let file = self.load(&t.path)?;
        Ok(match &*file {
            Loaded::Outside => Outcome::of(Status::OutsideRoot),
            Loaded::Missing(note) => Outcome {
                note: note.clone(),
                ..Outcome::of(Status::MissingFile)
            },
            Loaded::Loop => Outcome::of(Status::MissingFile).note("a loop of symlinks"),
            Loaded::TooLarge(max) => Outcome::of(Status::QuoteNotFound)
                .note(format!("not read: larger than {} MB", max >> 20)),
            Loaded::Text { text, .. } if t.end as usize > text.count() => {
                Outcome::of(Status::OutOfRange).note(match text.count() {
                    0 => "the file is empty".to_string(),
                    1 => "the file has 1 line".to_string(),
                    n => format!("the file has {n} lines"),
                })
            }
            Loaded::Text { binary: true, .. } => {
                Outcome::of(Status::QuoteNotFound).note("a binary file: there is no text to quote")
            }
            Loaded::Text { text, .. } => compare_in(text, t, quote),
        })
    }

    fn load(&mut self, rel: &str) -> Result<Rc<Loaded>, crate::file_error::FileError> {
        if let Some(f) = self.files.get(rel) {
            return Ok(f.clone());
        }
        let loaded = Rc::new(self.read(rel)?);
        self.files.insert(rel.to_string(), loaded.clone());
        Ok(loaded)
    }

    fn read(&self, rel: &str) -> Result<Loaded, crate::file_error::FileError> {
        let path = match resolve(&self.root, rel)? {
            Landing::Inside(p) => p,
            Landing::Outside => return Ok(Loaded::Outside),
            Landing::Missing => return Ok(Loaded::Missing(None)),
            Landing::Loop => return Ok(Loaded::Loop),
        };
        let bytes = match fsutil::read_in(&self.root, &path, fsutil::MAX_PROJECT_FILE) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Loaded::Missing(None)),
            Err(e) => match fsutil::refusal(&e).map(|r| r.found) {
                Some(fsutil::Found::TooLarge(max)) => return Ok(Loaded::TooLarge(max)),
                Some(fsutil::Found::Directory) => {
                    return Ok(Loaded::Missing(Some("a directory, not a file".into())));
                }
                // Swapped for a symlink since the walk, or a FIFO, socket or device.
                Some(_) => return Ok(Loaded::Missing(Some(e.to_string()))),
                None => return Err(e),
            },
        };
        let binary = bytes[..bytes.len().min(8192)].contains(&0);
        // `from_utf8` checks ASCII a word at a time; the lossy decoder goes char by char.
        let raw = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        Ok(Loaded::Text {
            text: Text::new(raw),
            binary,
        })
    }
}

/// A cited file's text, each line normalised only when a citation needs it.
///
/// Normalising every line of every cited file was a third of the instructions of `trail
/// ground` over 1,000 decisions (`bench/run.sh ground`), though most citations verify, which
/// only their range decides. A quote looked for in the whole file (a citation that did not
/// verify) is first looked for in the raw text: normalising only changes whitespace, so a line
/// (or a few joined) can hold a quoted part only if its raw text holds the part's longest word.
/// Only those lines are normalised and compared.
struct Text {
    raw: String,
    /// Each line's bytes in `raw`, without its `\n`, as [`text_lines`] splits them.
    spans: Vec<(usize, usize)>,
    normal: Vec<OnceCell<String>>,
}

impl Text {
    fn new(raw: String) -> Text {
        let mut spans = Vec::new();
        if !raw.is_empty() {
            let body = raw.strip_suffix('\n').unwrap_or(&raw);
            let mut start = 0;
            for end in memchr::memchr_iter(b'\n', body.as_bytes()) {
                spans.push((start, end));
                start = end + 1;
            }
            spans.push((start, body.len()));
        }
        let normal = spans.iter().map(|_| OnceCell::new()).collect();
        Text { raw, spans, normal }
    }

    /// Line `i` as [`text_lines`] gives it.
    fn line(&self, i: usize) -> &str {
        self.normal[i].get_or_init(|| {
            let (a, b) = self.spans[i];
            normalise(&self.raw[a..b])
        })
    }

    /// The lines within `within` whose raw text holds `word`, in order.
    fn holding(&self, word: &str, within: &std::ops::Range<usize>) -> Vec<usize> {
        if within.is_empty() {
            return Vec::new();
        }
        let from = self.spans[within.start].0;
        let to = self.spans[within.end - 1].1;
        let mut out: Vec<usize> = Vec::new();
        for at in memchr::memmem::find_iter(&self.raw.as_bytes()[from..to], word.as_bytes()) {
            // The line whose span holds the match (a word has no newline in it).
            let i = self.spans.partition_point(|&(_, end)| end < from + at);
            if out.last() != Some(&i) {
                out.push(i);
            }
        }
        out
    }
}

impl Lines for Text {
    fn count(&self) -> usize {
        self.spans.len()
    }

    /// [`places`] on [`text_lines`], comparing only the lines that hold the part's longest word.
    fn places(&self, part: &str, within: std::ops::Range<usize>) -> Vec<(usize, usize)> {
        let Some(word) = part.split(' ').max_by_key(|w| w.len()) else {
            return Vec::new();
        };
        let candidates = self.holding(word, &within);
        let finder = memchr::memmem::Finder::new(part);
        let single: Vec<(usize, usize)> = candidates
            .iter()
            .filter(|&&i| finder.find(self.line(i).as_bytes()).is_some())
            .map(|&i| (i, i))
            .collect();
        if !single.is_empty() || !part.contains(' ') {
            return single;
        }
        let mut joined = Vec::new();
        for k in 2..=MAX_JOINED.min(within.len()) {
            // The windows of k lines holding a candidate, in order.
            let mut firsts: Vec<usize> = candidates
                .iter()
                .flat_map(|&c| (c + 1).saturating_sub(k).max(within.start)..=c.min(within.end - k))
                .collect();
            firsts.sort_unstable();
            firsts.dedup();
            for first in firsts {
                let text: Vec<&str> = (first..first + k).map(|i| self.line(i)).collect();
                if normalise(&text.join(" ")).contains(part) {
                    joined.push((first, first + k - 1));
                }
            }
            if !joined.is_empty() {
                break;
            }
        }
        joined
    }
}

/// The lines [`compare`] reads: how many, and where a quoted part is among them.
trait Lines {
    fn count(&self) -> usize;
    fn places(&self, part: &str, within: std::ops::Range<usize>) -> Vec<(usize, usize)>;
}

impl Lines for [String] {
    fn count(&self) -> usize {
        self.len()
    }

    fn places(&self, part: &str, within: std::ops::Range<usize>) -> Vec<(usize, usize)> {
        places(part, self, within)
    }
}

/// A file's lines, whitespace-normalised, as [`compare`] takes them. A final newline ends the
/// last line rather than starting another; `\r\n` ends a line like `\n`.
pub fn text_lines(text: &str) -> Vec<String> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    body.split('\n').map(normalise).collect()
}

/// Runs of whitespace become one space; the ends are trimmed.
pub fn normalise(s: &str) -> String {
    let t = s.trim();
    // Most lines of code are ASCII with single spaces once their indentation is trimmed: they
    // are already normal. (`trim` and `split_whitespace` agree on what whitespace is; outside
    // ASCII there is more of it, so such a line takes the long way.)
    let mut after_space = false;
    let plain = t.bytes().all(|b| {
        let doubled = after_space && b == b' ';
        after_space = b == b' ';
        b.is_ascii() && !matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r') && !doubled
    });
    if plain {
        return t.to_string();
    }
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// What must be found of a quote: its non-blank lines, normalised, without the lines that only
/// mark an omission (`...`, `# ...`, `// …`). An inline quote's `...` also separates parts.
pub fn quoted_parts(quote: &Quote) -> Vec<String> {
    let mut parts = Vec::new();
    for line in &quote.lines {
        let n = normalise(line);
        if is_ellipsis(&n) {
            continue;
        }
        match quote.kind {
            QuoteKind::Inline => parts.extend(
                n.split("...")
                    .flat_map(|p| p.split('…'))
                    .map(normalise)
                    .filter(|p| !p.is_empty()),
            ),
            _ if !n.is_empty() => parts.push(n),
            _ => {}
        }
    }
    parts
}

fn is_ellipsis(n: &str) -> bool {
    let t = n
        .trim_start_matches(['#', '/', '*', '-', ';', ' '])
        .trim_end_matches(['*', '/', ' ']);
    matches!(t, "..." | "…")
}

/// Where a quoted part is, as (first, last) line indexes from 0: on one line, or else across
/// a few consecutive ones. `within` limits the search to a range of lines.
///
/// The plain way, every line and every window looked at: `Text::places` does the same on the
/// lines that hold the part's longest word, and is held to this one by a property test (and
/// `cite::assert_consistent`, the fuzz target's check, goes through here), so the two are kept
/// apart on purpose rather than sharing the windowing.
fn places(part: &str, lines: &[String], within: std::ops::Range<usize>) -> Vec<(usize, usize)> {
    // One searcher for every line (`str::contains` builds one per line).
    let finder = memchr::memmem::Finder::new(part);
    let single: Vec<(usize, usize)> = (within.clone())
        .filter(|&i| lines[i].len() >= part.len() && finder.find(lines[i].as_bytes()).is_some())
        .map(|i| (i, i))
        .collect();
    if !single.is_empty() || !part.contains(' ') {
        return single;
    }
    let mut joined = Vec::new();
    for k in 2..=MAX_JOINED.min(within.len()) {
        for first in within.start..=within.end - k {
            let text = lines[first..first + k].join(" ");
            if normalise(&text).contains(part) {
                joined.push((first, first + k - 1));
            }
        }
        if !joined.is_empty() {
            break;
        }
    }
    joined
}

/// The quote against the cited lines of a text file whose length covers the range.
///
/// A quoted line lies where the quote is: when the whole quote is found together, in order,
/// outside the range, a line of it that also happens to be in the range (`enabled: true`, `}`)
/// does not make the citation partial: the quote drifted.
pub fn compare(lines: &[String], t: &Target, quote: &Quote) -> Outcome {
    compare_in(lines, t, quote)
}

/// [`compare`], on lines however they are kept.
fn compare_in<L: Lines + ?Sized>(lines: &L, t: &Target, quote: &Quote) -> Outcome {
    let parts = quoted_parts(quote);
    if parts.is_empty() {
        return Outcome::of(Status::Verified).note(RANGE_ONLY);
    }
    let range = t.start as usize - 1..t.end as usize;
    let in_range: Vec<bool> = parts
        .iter()
        .map(|p| !lines.places(p, range.clone()).is_empty())
        .collect();
    let inside = in_range.iter().filter(|&&b| b).count();
    if inside == parts.len() {
        return Outcome::of(Status::Verified);
    }
    // A line of nothing but brackets and punctuation (`}`, `});`) is in most ranges: on its
    // own it is no sign that any of the quote is there.
    let telling = |p: &String| p.chars().any(char::is_alphanumeric);
    let any_telling = parts.iter().any(telling);
    let inside_telling = parts
        .iter()
        .zip(&in_range)
        .filter(|(p, inr)| **inr && (telling(p) || !any_telling))
        .count();
    let everywhere: Vec<Vec<(usize, usize)>> = parts
        .iter()
        .map(|p| lines.places(p, 0..lines.count()))
        .collect();
    let moved = whole_quote_outside(&everywhere, &range);
    if !moved.is_empty() {
        return Outcome {
            found_at: moved,
            ..Outcome::of(Status::Drifted)
        };
    }
    if inside_telling > 0 {
        let mut found_at: Vec<usize> = everywhere
            .iter()
            .zip(&in_range)
            .filter(|(_, inr)| !**inr)
            .filter_map(|(at, _)| at.first().map(|&(f, _)| f + 1))
            .collect();
        found_at.sort_unstable();
        found_at.dedup();
        return Outcome {
            found_at,
            ..Outcome::of(Status::Partial).note(format!(
                "{inside} of {} quoted lines are in the range",
                parts.len()
            ))
        };
    }
    if everywhere.iter().any(Vec::is_empty) {
        return Outcome::of(Status::QuoteNotFound);
    }
    // Every part is somewhere, none in the range, but not together: report where each is.
    let mut firsts: Vec<usize> = everywhere.iter().map(|at| at[0].0 + 1).collect();
    firsts.sort_unstable();
    firsts.dedup();
    Outcome {
        found_at: firsts,
        ..Outcome::of(Status::Drifted).note("the quoted lines are in the file, but apart")
    }
}

/// Where the whole quote is found together outside `range` (lines from 1): from each place of
/// its first part, every next part in order, close by (blank lines, comments and a short
/// omission between them), none of them in the range.
fn whole_quote_outside(
    everywhere: &[Vec<(usize, usize)>],
    range: &std::ops::Range<usize>,
) -> Vec<usize> {
    let outside = |&(f, l): &(usize, usize)| l < range.start || f >= range.end;
    let reach = everywhere.len() * 3 + MAX_JOINED;
    everywhere[0]
        .iter()
        .filter(|p| outside(p))
        .map(|&(start, _)| start)
        .filter(|&start| {
            let mut pos = start;
            everywhere[1..].iter().all(|at| {
                match at
                    .iter()
                    .find(|p| p.0 >= pos && p.0 <= start + reach && outside(p))
                {
                    Some(&(f, _)) => {
                        pos = f;
                        true
                    }
                    None => false,
                }
            })
        })
        .map(|f| f + 1)
        .take(MAX_FOUND)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cite::parse::parse_target;

    fn lines(text: &str) -> Vec<String> {
        text_lines(text)
    }

    fn status(file: &str, cite: &str, quote: Quote) -> Outcome {
        let t = parse_target(cite).unwrap();
        let l = lines(file);
        assert!(t.end as usize <= l.len());
        compare(&l, &t, &quote)
    }

    const FILE: &str = "use x;\n\nexport function validateToken(token: string) {\n  return ok(token);\n}\n\nconst A = 1;\n";

    #[test]
    fn verified_partial_drifted_and_not_found() {
        let q = Quote::inline("export function validateToken(token: string)");
        assert_eq!(
            status(FILE, "${PROJECT_ROOT}/a:3", q.clone()).status,
            Status::Verified
        );
        let o = status(FILE, "${PROJECT_ROOT}/a:6-7", q.clone());
        assert_eq!((o.status, o.found_at), (Status::Drifted, vec![3]));
        let o = status(
            FILE,
            "${PROJECT_ROOT}/a:1",
            Quote::inline("nothing like it"),
        );
        assert_eq!(o.status, Status::QuoteNotFound);
        let fenced = Quote {
            kind: QuoteKind::Fenced,
            lines: vec!["  return ok(token);".into(), "const A = 1;".into()],
        };
        let o = status(FILE, "${PROJECT_ROOT}/a:3-5", fenced);
        assert_eq!((o.status, o.found_at), (Status::Partial, vec![7]));
    }

    #[test]
    fn a_common_line_in_the_range_does_not_hide_a_drift() {
        let file = "a:\n  enabled: true\nb:\n  x: 1\n\ngrounding:\n  threshold: 0.95\n  # c\n  enabled: true\n";
        let q = Quote {
            kind: QuoteKind::Fenced,
            lines: vec![
                "grounding:".into(),
                "  threshold: 0.95".into(),
                "  enabled: true".into(),
            ],
        };
        let o = status(file, "${PROJECT_ROOT}/a:1-4", q.clone());
        assert_eq!((o.status, o.found_at), (Status::Drifted, vec![6]));
        // Not together outside: one line in the range makes it partial.
        let q = Quote {
            kind: QuoteKind::Fenced,
            lines: vec!["threshold: 0.95".into(), "x: 1".into()],
        };
        let o = status(file, "${PROJECT_ROOT}/a:1-4", q);
        assert_eq!((o.status, o.found_at), (Status::Partial, vec![7]));
    }

    #[test]
    fn a_closing_brace_in_the_range_is_no_evidence() {
        let q = Quote {
            kind: QuoteKind::Fenced,
            lines: vec!["function madeUp() {".into(), "}".into()],
        };
        let o = status(FILE, "${PROJECT_ROOT}/a:3-5", q);
        assert_eq!(o.status, Status::QuoteNotFound);
        // A quote of nothing but punctuation is still compared as it is.
        let q = Quote::inline("}");
        assert_eq!(
            status(FILE, "${PROJECT_ROOT}/a:5", q).status,
            Status::Verified
        );
    }

    #[test]
    fn whitespace_tabs_and_crlf_do_not_matter() {
        let file = "fn\tmain()  {\r\n    let  x = 1;\r\n}\r\n";
        let q = Quote::inline("fn main() {");
        assert_eq!(
            status(file, "${PROJECT_ROOT}/a:1", q).status,
            Status::Verified
        );
        let q = Quote {
            kind: QuoteKind::Fenced,
            lines: vec!["let x = 1;".into(), String::new(), "   ".into()],
        };
        assert_eq!(
            status(file, "${PROJECT_ROOT}/a:2", q).status,
            Status::Verified
        );
    }

    #[test]
    fn ellipsis_separates_parts_and_marks_omissions() {
        let q =
            Quote::inline("export function validateToken(token: string) { ... return ok(token);");
        assert_eq!(
            status(FILE, "${PROJECT_ROOT}/a:3-4", q.clone()).status,
            Status::Verified
        );
        assert_eq!(
            status(FILE, "${PROJECT_ROOT}/a:3", q).status,
            Status::Partial
        );
        let q = Quote {
            kind: QuoteKind::Fenced,
            lines: vec!["use x;".into(), "# ...".into(), "const A = 1;".into()],
        };
        assert_eq!(
            status(FILE, "${PROJECT_ROOT}/a:1-7", q).status,
            Status::Verified
        );
    }

    #[test]
    fn a_part_may_run_across_lines() {
        let q = Quote::inline("{ return ok(token); }");
        assert_eq!(
            status(FILE, "${PROJECT_ROOT}/a:3-5", q.clone()).status,
            Status::Verified
        );
        let o = status(FILE, "${PROJECT_ROOT}/a:7", q);
        assert_eq!((o.status, o.found_at), (Status::Drifted, vec![3]));
    }

    #[test]
    fn no_quote_checks_only_the_range() {
        let o = status(FILE, "${PROJECT_ROOT}/a:1-7", Quote::none());
        assert_eq!(o.status, Status::Verified);
        assert_eq!(o.note.as_deref(), Some(RANGE_ONLY));
        // A quote of nothing but an ellipsis is no quote.
        let o = status(FILE, "${PROJECT_ROOT}/a:1", Quote::inline("..."));
        assert_eq!(o.note.as_deref(), Some(RANGE_ONLY));
    }

    /// What `normalise` did before its shortcut for plain lines.
    fn normalised_the_long_way(s: &str) -> String {
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    fn normalised_count(text: &Text) -> usize {
        text.normal.iter().filter(|c| c.get().is_some()).count()
    }

    proptest::proptest! {
        #[test]
        fn the_plain_line_shortcut_normalises_the_same(
            s in "[ a\t\r\u{0b}\u{0c}\u{a0}\u{3000}\u{85}é{}]{0,12}"
        ) {
            proptest::prop_assert_eq!(normalise(&s), normalised_the_long_way(&s));
        }

        /// Two citations of one file, checked in turn on its text normalised as needed, are what
        /// `compare` says on all its lines normalised.
        #[test]
        fn a_file_normalised_as_needed_gives_the_same_outcomes(
            file in "(fn a\\(\\) \\{|return ok\\(x\\);|\\}|  x  = 1;|\t\\}|\u{a0}|é|\r|\n|\n|\n| ){0,30}",
            cited in proptest::collection::vec((1u32..10, 0u32..5), 2),
            quote in "(fn a\\(\\) \\{|return|ok\\(x\\);|\\}|x = 1;|\\.\\.\\.|é|;| ){0,5}",
            fenced: bool,
        ) {
            let all = lines(&file);
            let quote = if fenced {
                Quote { kind: QuoteKind::Fenced, lines: quote.split(';').map(String::from).collect() }
            } else {
                Quote::inline(&quote)
            };
            let text = Text::new(file.clone());
            proptest::prop_assert_eq!(text.count(), all.len());
            for (start, len) in cited {
                let t = crate::cite::parse::parse_target(
                    &format!("${{PROJECT_ROOT}}/a:{start}-{}", start + len),
                ).unwrap();
                if t.end as usize > all.len() {
                    continue;
                }
                proptest::prop_assert_eq!(compare_in(&text, &t, &quote), compare(&all, &t, &quote));
            }
        }
    }

    #[test]
    fn a_file_normalised_as_needed_keeps_every_status() {
        let t = |c: &str| parse_target(c).unwrap();
        let q = Quote::inline("export function validateToken(token: string)");
        let text = Text::new(FILE.to_string());
        // Verified from its range alone.
        assert_eq!(
            compare_in(&text, &t("${PROJECT_ROOT}/a:3"), &q).status,
            Status::Verified
        );
        assert_eq!(normalised_count(&text), 1);
        // Drifted: of the range and the file, only line 3 holds the quote's longest word, and it
        // is normalised already.
        let o = compare_in(&text, &t("${PROJECT_ROOT}/a:6-7"), &q);
        assert_eq!((o.status, o.found_at), (Status::Drifted, vec![3]));
        assert_eq!(normalised_count(&text), 1);
        // Across lines, and not found.
        let across = Quote::inline("{ return ok(token); }");
        let o = compare_in(&text, &t("${PROJECT_ROOT}/a:7"), &across);
        assert_eq!((o.status, o.found_at), (Status::Drifted, vec![3]));
        let o = compare_in(
            &text,
            &t("${PROJECT_ROOT}/a:1"),
            &Quote::inline("nothing like it"),
        );
        assert_eq!(o.status, Status::QuoteNotFound);
        assert_eq!(
            compare_in(&text, &t("${PROJECT_ROOT}/a:1"), &Quote::none())
                .note
                .as_deref(),
            Some(RANGE_ONLY)
        );
    }

    #[test]
    fn line_counting() {
        assert_eq!(lines("").len(), 0);
        assert_eq!(lines("\n").len(), 1);
        assert_eq!(lines("a").len(), 1);
        assert_eq!(lines("a\nb\n").len(), 2);
        assert_eq!(lines("a\r\nb").len(), 2);
    }

    #[test]
    fn status_names_round_trip_in_precedence_order() {
        for (i, s) in Status::ALL.iter().enumerate() {
            assert_eq!(Status::parse(s.as_str()), Some(*s));
            assert_eq!(
                serde_json::to_value(s).unwrap(),
                serde_json::Value::String(s.as_str().into())
            );
            if i > 0 {
                assert!(Status::ALL[i - 1] < *s);
            }
        }
    }
}
