//! What `trail search` looks for: words and "quoted phrases", each compiled to one matcher.
//!
//! Words are literal (nothing in them is a regex) and match at the start of a word, so `test`
//! finds `tests` and `testing` but not `latest`. Smart case, as in ripgrep: a word in lower case
//! matches any case, one with a capital matches exactly. A phrase matches its words separated by
//! any run of whitespace, line breaks included. With `--regex`, the whole query is one regex.

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
        let (chunk, phrase, next) = match rest.strip_prefix('"') {
            Some(inner) => match inner.find('"') {
                Some(end) => (&inner[..end], true, &inner[end + 1..]),
                None => (inner, true, ""),
            },
            None => {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                (&rest[..end], false, &rest[end..])
            }
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
    matchers: Vec<Regex>,
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
            matchers: vec![re],
            regex: true,
        })
    }

    pub fn terms(&self) -> &[Term] {
        &self.terms
    }

    /// One matcher per term, in the order of [`Query::terms`].
    pub fn matchers(&self) -> &[Regex] {
        &self.matchers
    }

    pub fn is_regex(&self) -> bool {
        self.regex
    }
}

/// The regex for one literal term.
fn term_matcher(term: &Term) -> Result<Regex, QueryError> {
    let words: Vec<String> = term.words.iter().map(|w| regex::escape(w)).collect();
    let mut pattern = String::new();
    // A word boundary before a term that starts with a word character: `test` finds `tests`
    // but not `latest`. ASCII only, which keeps the regex on its fast (DFA) engines.
    if term.words[0]
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        pattern.push_str(r"(?-u:\b)");
    }
    pattern.push_str(&words.join(r"\s+"));
    let ascii = term.words.iter().all(|w| w.is_ascii());
    let mut b = RegexBuilder::new(&pattern);
    b.case_insensitive(!term.case_sensitive())
        // ASCII terms fold case in ASCII only: Unicode folding would also match, say, the
        // Kelvin sign for `k`, and cost the fast literal search.
        .unicode(!ascii)
        .size_limit(REGEX_SIZE_LIMIT);
    b.build().map_err(|e| QueryError::BadRegex(e.to_string()))
}

fn last_line(s: &str) -> String {
    // The regex crate's errors draw the pattern over several lines; the CLI prints one.
    s.lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
        .to_string()
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
    fn a_regex_is_checked() {
        assert!(Query::regex(r"ts: 20\d\d").is_ok());
        assert!(
            matches!(Query::regex("(unclosed"), Err(QueryError::BadRegex(m)) if !m.contains('\n'))
        );
        assert_eq!(Query::regex("x*").unwrap_err(), QueryError::MatchesEmpty);
        assert_eq!(Query::regex("").unwrap_err(), QueryError::Empty);
    }
}
