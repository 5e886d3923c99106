//! What `trail search` looks for: words and "quoted phrases", each compiled to one matcher.
//!
//! Words are literal (nothing in them is a regex) and match at the start of a word, so `test`
//! finds `tests` and `testing` but not `latest`. Smart case, as in ripgrep: a word in lower case
//! matches any case, one with a capital matches exactly. A phrase matches its words separated by
//! any run of whitespace, line breaks included. With `--regex`, the whole query is one regex.

use memchr::memmem;
use regex::bytes::{Regex, RegexBuilder};

/// More words than this is not a query but a paste; each word costs one pass over the bytes.
pub const MAX_TERMS: usize = 16;

/// A compiled regex may use this much memory; hostile patterns fail to compile instead.
const REGEX_SIZE_LIMIT: usize = 8 << 20;

/// One thing to find.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The words, as typed (a phrase has several).
    pub words: Vec<String>,
}

impl Term {
    /// The term as one string (a phrase's words joined by one space).
    pub fn text(&self) -> String {
        self.words.join(" ")
    }

    /// Smart case: a term with a capital letter matches exactly.
    fn case_sensitive(&self) -> bool {
        self.words.iter().any(|w| w.chars().any(char::is_uppercase))
    }
}

/// Why a query cannot be searched for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QueryError {
    #[error("the query is empty: give a word to search for")]
    Empty,
    #[error("the query has {0} words; at most {MAX_TERMS} are searched for")]
    TooManyTerms(usize),
    #[error("the regex does not compile: {0}")]
    BadRegex(String),
    #[error(
        "the regex matches the empty string, so it matches everywhere: give it something to find"
    )]
    MatchesEmpty,
}

/// Split a query into terms: words separated by whitespace, and "quoted phrases" (an unclosed
/// quote runs to the end). Repeated terms count once.
pub fn parse(query: &str) -> Result<Vec<Term>, QueryError> {
    let mut terms: Vec<Term> = Vec::new();
    let mut rest = query;
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        rest = &rest[start..];
        let (chunk, phrase, next) = if let Some(inner) = rest.strip_prefix('"') {
            match inner.find('"') {
                Some(end) => (&inner[..end], true, &inner[end + 1..]),
                None => (inner, true, ""),
            }
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (&rest[..end], false, &rest[end..])
        };
        rest = next;
        let words: Vec<String> = if phrase {
            chunk.split_whitespace().map(String::from).collect()
        } else {
            vec![chunk.to_string()]
        };
        if words.is_empty() {
            continue;
        }
        let term = Term { words };
        if !terms.iter().any(|t| same_term(t, &term)) {
            terms.push(term);
        }
    }
    match terms.len() {
        0 => Err(QueryError::Empty),
        n if n > MAX_TERMS => Err(QueryError::TooManyTerms(n)),
        _ => Ok(terms),
    }
}

fn same_term(a: &Term, b: &Term) -> bool {
    if a.case_sensitive() || b.case_sensitive() {
        a == b
    } else {
        a.text().to_lowercase() == b.text().to_lowercase()
    }
}

/// A parsed query: its terms and one matcher per term.
#[derive(Clone, Debug)]
pub struct Query {
    terms: Vec<Term>,
    matchers: Vec<Matcher>,
    regex: bool,
}

impl Query {
    /// Words and phrases (see the module documentation).
    pub fn lexical(query: &str) -> Result<Query, QueryError> {
        let terms = parse(query)?;
        let matchers = terms
            .iter()
            .map(term_matcher)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Query {
            terms,
            matchers,
            regex: false,
        })
    }

    /// The whole query as one regex (Rust syntax; case-sensitive unless it says `(?i)`).
    pub fn regex(pattern: &str) -> Result<Query, QueryError> {
        if pattern.is_empty() {
            return Err(QueryError::Empty);
        }
        let re = RegexBuilder::new(pattern)
            .size_limit(REGEX_SIZE_LIMIT)
            .build()
            .map_err(|e| QueryError::BadRegex(last_line(&e.to_string())))?;
        if re.is_match(b"") {
            return Err(QueryError::MatchesEmpty);
        }
        Ok(Query {
            terms: vec![Term {
                words: vec![pattern.to_string()],
            }],
            matchers: vec![Matcher {
                regex: re,
                literal: None,
            }],
            regex: true,
        })
    }

    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// One matcher per term, in the order of [`Query::terms`].
    pub fn matchers(&self) -> &[Matcher] {
        &self.matchers
    }

    pub fn is_regex(&self) -> bool {
        self.regex
    }
}

/// What finds one term: its regex, and for a single word that folds case in ASCII or not at
/// all (almost every word typed), a plain literal search that finds the same matches faster.
///
/// The regex engine checks every candidate its SIMD prefilter finds with an automaton, and
/// case-insensitive prefilters (Teddy over the case variants of a prefix) are several times
/// slower than `memmem` over one needle. A literal is searched with `memmem` instead: in the
/// block as it is, or in its ASCII-lower-cased copy (made once per block for every folding
/// term), with the word boundary checked by hand.
#[derive(Clone, Debug)]
pub struct Matcher {
    regex: Regex,
    literal: Option<Literal>,
}

#[derive(Clone, Debug)]
struct Literal {
    /// The word, lower-cased when it folds.
    finder: memmem::Finder<'static>,
    fold: bool,
    /// A word boundary is required before it (it starts with a word character).
    boundary: bool,
}

impl Matcher {
    /// The regex, for short texts (snippets).
    pub fn regex(&self) -> &Regex {
        &self.regex
    }

    pub fn is_match(&self, hay: &[u8]) -> bool {
        self.regex.is_match(hay)
    }

    /// Whether [`Matcher::each_end`] needs the haystack lower-cased.
    pub(crate) fn folds(&self) -> bool {
        self.literal.as_ref().is_some_and(|l| l.fold)
    }

    /// Call `f` with the end of every match in `hay`, leftmost first, not overlapping. `lower`
    /// is `hay` with ASCII lower-cased (same length) when [`Matcher::folds`], else unused.
    pub(crate) fn each_end(&self, hay: &[u8], lower: &[u8], mut f: impl FnMut(usize)) {
        let Some(lit) = &self.literal else {
            return each_regex_end(&self.regex, hay, f);
        };
        let searched = if lit.fold { lower } else { hay };
        let len = lit.finder.needle().len();
        let mut at = 0;
        while let Some(i) = searched.get(at..).and_then(|h| lit.finder.find(h)) {
            let start = at + i;
            if lit.boundary && start > 0 && is_word_byte(hay[start - 1]) {
                at = start + 1;
                continue;
            }
            f(start + len);
            at = start + len;
        }
    }

    /// The ends of every match in `hay` (tests and fuzzing compare the two paths with it).
    pub fn ends(&self, hay: &[u8]) -> Vec<usize> {
        let lower = hay.to_ascii_lowercase();
        let mut v = Vec::new();
        self.each_end(hay, &lower, |e| v.push(e));
        v
    }

    /// [`Matcher::ends`] through the regex alone.
    pub fn regex_ends(&self, hay: &[u8]) -> Vec<usize> {
        let mut v = Vec::new();
        each_regex_end(&self.regex, hay, |e| v.push(e));
        v
    }
}

/// The ends of `re`'s matches: the engine finds an end in one forward pass, a start would need a
/// second, backward one, and an end is enough to place a match in its document.
fn each_regex_end(re: &Regex, hay: &[u8], mut f: impl FnMut(usize)) {
    let mut at = 0;
    while at <= hay.len() {
        let Some(end) = re.shortest_match_at(hay, at) else {
            break;
        };
        f(end);
        // A match may be empty (`\b` alone): step past it.
        at = if end > at { end } else { end + 1 };
    }
}

/// ASCII word characters, as `(?-u:\b)` sees them.
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The matcher for one literal term.
fn term_matcher(term: &Term) -> Result<Matcher, QueryError> {
    let words: Vec<String> = term.words.iter().map(|w| regex::escape(w)).collect();
    let mut pattern = String::new();
    // A word boundary before a term that starts with a word character: `test` finds `tests`
    // but not `latest`. ASCII only, which keeps the regex on its fast (DFA) engines.
    let boundary = term.words[0].bytes().next().is_some_and(is_word_byte);
    if boundary {
        pattern.push_str(r"(?-u:\b)");
    }
    pattern.push_str(&words.join(r"\s+"));
    let ascii = term.words.iter().all(|w| w.is_ascii());
    let fold = !term.case_sensitive();
    let mut b = RegexBuilder::new(&pattern);
    b.case_insensitive(fold)
        // ASCII terms fold case in ASCII only: Unicode folding would also match, say, the
        // Kelvin sign for `k`, and cost the fast literal search.
        .unicode(!ascii)
        .size_limit(REGEX_SIZE_LIMIT);
    let regex = b.build().map_err(|e| QueryError::BadRegex(e.to_string()))?;
    let literal = (term.words.len() == 1 && (ascii || !fold)).then(|| {
        let word = &term.words[0];
        let needle = if fold {
            word.to_ascii_lowercase()
        } else {
            word.clone()
        };
        Literal {
            finder: memmem::Finder::new(needle.as_bytes()).into_owned(),
            // Digits and punctuation have no case: no lower-cased copy to search.
            fold: fold && needle.bytes().any(|b| b.is_ascii_alphabetic()),
            boundary,
        }
    });
    Ok(Matcher { regex, literal })
}

fn last_line(s: &str) -> String {
    // The regex crate's errors draw the pattern over several lines; the CLI prints one, and
    // without the crate's own `error: ` (the CLI's line already starts with one: "error: the
    // regex does not compile: error: unclosed group" was found by the refusals' snapshot).
    let line = s
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim();
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(q: &str) -> Vec<String> {
        parse(q).unwrap().iter().map(Term::text).collect()
    }

    #[test]
    fn words_phrases_and_repeats() {
        assert_eq!(texts("cargo  test"), ["cargo", "test"]);
        assert_eq!(
            texts(r#"deploy "staging  db" port"#),
            ["deploy", "staging db", "port"]
        );
        assert_eq!(texts(r#""unclosed phrase"#), ["unclosed phrase"]);
        assert_eq!(texts("Port port PORT"), ["Port", "port", "PORT"]);
        assert_eq!(texts("port port"), ["port"]);
        assert_eq!(texts(r#"a "" b"#), ["a", "b"]);
        assert_eq!(parse("  \t"), Err(QueryError::Empty));
        assert_eq!(parse(r#""  ""#), Err(QueryError::Empty));
        let many = vec!["w"; MAX_TERMS + 1]
            .iter()
            .enumerate()
            .map(|(i, w)| format!("{w}{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(parse(&many), Err(QueryError::TooManyTerms(MAX_TERMS + 1)));
    }

    fn finds(query: &str, hay: &str) -> bool {
        Query::lexical(query).unwrap().matchers()[0].is_match(hay.as_bytes())
    }

    #[test]
    fn a_word_matches_at_a_word_start_with_smart_case() {
        assert!(finds("test", "cargo tests pass"));
        assert!(finds("test", "Testing"));
        assert!(!finds("test", "the latest run"));
        assert!(finds("Test", "a Test"));
        assert!(!finds("Test", "a test"));
        assert!(finds("staging db", "the Staging\n  DB"));
        assert!(finds("a.b", "x a.b y"));
        assert!(!finds("a.b", "x acb y"), "words are literal, not regexes");
        assert!(finds(".rs", "main.rs"), "no boundary before punctuation");
        assert!(
            finds("éclair", "ÉCLAIR au chocolat"),
            "non-ASCII words fold case too"
        );
    }

    #[test]
    fn the_literal_search_finds_what_the_regex_finds() {
        let hay = b"Backlog xbacklog back-log BACKLOG_b backlogs a-a-a-a _backlog \xffbacklog";
        for q in [
            "backlog", "Backlog", "BACKLOG", "log", "a-a", "-log", "_backlog",
        ] {
            let m = Query::lexical(q).unwrap().matchers()[0].clone();
            assert!(m.literal.is_some(), "{q}");
            assert_eq!(m.ends(hay), m.regex_ends(hay), "{q}");
        }
        let phrase = Query::lexical("\"back log\"").unwrap().matchers()[0].clone();
        assert!(phrase.literal.is_none());
        assert_eq!(phrase.ends(b"a back\n log"), [11]);
    }

    #[test]
    fn a_regex_is_checked() {
        assert!(Query::regex(r"ts: 20\d\d").is_ok());
        assert!(
            matches!(Query::regex("(unclosed"), Err(QueryError::BadRegex(m)) if !m.contains('\n'))
        );
        assert_eq!(Query::regex("x*").unwrap_err(), QueryError::MatchesEmpty);
        assert_eq!(Query::regex("").unwrap_err(), QueryError::Empty);
    }
}
