//! Negative grounding (Lossless Ledger FR-7): a claim that a feature does *not* exist (a ghost
//! feature: documented, never built) is checked as carefully as a claim that it does.
//!
//! Each ghost gets two different queries over the project tree, from two angles (Loa's
//! protocol: the feature as the docs describe it, then its technical names):
//!
//! ```text
//! query 1  prose        the name and each synonym as a phrase, each word cut to its stem
//!                       ("rate limit" finds "rate limiting" and "Rate limits")
//! query 2  identifiers  the name and every synonym as code writes them: rate_limit, rate-limit,
//!                       ratelimit, rateLimit, RateLimiter, RATE_LIMIT, limit_the_rate: each
//!                       word's stem starts a part of one identifier, in any order
//! query 3  nearby       only when both found no code: a code line with every word of a name
//!                       (or all but one of three or four, close together)
//! ```
//!
//! with trail's own lexical search (`search::locate` over the tree as ripgrep walks it:
//! `.gitignore` respected, hidden files left out), or with `ck` when it is installed (semantic:
//! a match counts at a similarity of at least the threshold, 0.4). The answer names the engine
//! that ran.
//!
//! A match in a documentation file (Markdown, reStructuredText, plain text, a README) is a doc
//! mention; anywhere else it is code. The line that lists the ghost is not a mention of it.
//!
//! ```text
//! code matches  doc mentions          verdict
//! 1+            any                   [NOT A GHOST]: the feature exists; the docs need aligning
//! 0, query 3 1+ any                   [HIGH AMBIGUITY]: a line names its words; a person reads
//! 0             under `mentions`      [CONFIRMED GHOST]
//! 0             `mentions` or more    [HIGH AMBIGUITY]: for a human; absence is never asserted
//! ```
//!
//! Measured on features of published crates, present and absent (`tests/core/checks_labelled.rs`).
//!
//! A ghost that could not be checked this way — a search failed, or the two queries would be
//! the same (a one-word name with no synonym) — is `[UNVERIFIED GHOST]`. No ghost ever counts
//! as a grounded claim: a confirmed ghost is a verified absence, not evidence of anything.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::layout::Layout;
use crate::search::{self, Filters, Located, Mode, Places, Request, Source};
use crate::secrets::Redactor;

/// A ghost feature: what the docs promise and the code may lack.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ghost {
    pub name: String,
    /// Other names for it (`(also: throttling, backoff)`): more angles for the second query.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// Where it is listed (`${PROJECT_ROOT}/NOTES.md`, line), when it came from a file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listed: Option<Listed>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Listed {
    /// As search names files: `${PROJECT_ROOT}/NOTES.md`.
    pub file: String,
    pub line: u32,
}

impl Ghost {
    /// A ghost as written on a command line or a list item: `Name (also: a, b)`.
    pub fn parse(text: &str) -> Option<Ghost> {
        let text = text.trim();
        let (name, also) = match find_ci(text, "(also:") {
            Some(i) => {
                let rest = &text[i + "(also:".len()..];
                let inner = rest.split(')').next().unwrap_or(rest);
                let also = inner
                    .split([',', ';'])
                    .map(|s| clean(s).to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
                (text[..i].trim(), also)
            }
            None => (text, Vec::new()),
        };
        let name = clean(name);
        (!name.is_empty()).then(|| Ghost {
            name: name.to_string(),
            also,
            listed: None,
        })
    }
}

/// `text` without Markdown emphasis and code marks around it.
fn clean(s: &str) -> &str {
    s.trim().trim_matches(['*', '_', '`', '"', '\'']).trim()
}

fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    hay.to_ascii_lowercase().find(needle)
}

/// The ghosts a NOTES.md lists: every item of a section whose heading names ghosts
/// (`## Ghost Features`), as a bullet (`- **OAuth login**: sign-in with GitHub (also: oidc)`)
/// or a table row (its first cell). The name is the bold part, else the text before ` — `,
/// ` - ` or `: `. A checked item (`- [x]`) is resolved and left out; so are placeholders
/// (`[Placeholder]`) and comments.
pub fn in_notes(text: &str, file: &str) -> Vec<Ghost> {
    let mut out: Vec<Ghost> = Vec::new();
    let mut section: Option<usize> = None;
    let mut fence: Option<&str> = None;
    let mut header_seen = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if let Some(f) = fence {
            if line.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if line.starts_with("```") || line.starts_with("~~~") {
            fence = Some(&line[..3]);
            continue;
        }
        if let Some(level) = heading_level(line) {
            let title = line[level..].trim().to_ascii_lowercase();
            if section.is_some_and(|s| level > s) {
                continue;
            }
            section = title.contains("ghost").then_some(level);
            header_seen = false;
            continue;
        }
        if section.is_none() || line.is_empty() || line.starts_with("<!--") {
            continue;
        }
        let item = if let Some(row) = line.strip_prefix('|') {
            let first = row.split('|').next().unwrap_or("").trim();
            // The header row, then its `---` rule: not features.
            if !header_seen || first.chars().all(|c| matches!(c, '-' | ':' | ' ')) {
                header_seen = true;
                continue;
            }
            first
        } else if let Some(rest) = bullet(line) {
            rest
        } else {
            continue;
        };
        let item = match item.strip_prefix("[ ]") {
            Some(open) => open.trim(),
            None if item.starts_with("[x]") || item.starts_with("[X]") => continue,
            None => item,
        };
        if item.starts_with('[') && item.ends_with(']') {
            continue;
        }
        let Some(mut g) = Ghost::parse(&name_part(item)) else {
            continue;
        };
        g.listed = Some(Listed {
            file: file.to_string(),
            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
        });
        if !out.iter().any(|o| o.name.eq_ignore_ascii_case(&g.name)) {
            out.push(g);
        }
    }
    out
}

fn heading_level(line: &str) -> Option<usize> {
    let n = line.bytes().take_while(|&b| b == b'#').count();
    (n > 0 && n <= 6 && line[n..].starts_with(' ')).then_some(n)
}

fn bullet(line: &str) -> Option<&str> {
    for p in ["- ", "* ", "+ "] {
        if let Some(r) = line.strip_prefix(p) {
            return Some(r.trim());
        }
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        return line[digits..]
            .strip_prefix(". ")
            .or_else(|| line[digits..].strip_prefix(") "))
            .map(str::trim);
    }
    None
}

/// The feature's name and its `(also: …)`, without the description after it.
fn name_part(item: &str) -> String {
    let (rest, also) = match find_ci(item, "(also:") {
        Some(i) => {
            let tail = &item[i..];
            let end = tail.find(')').map_or(tail.len(), |e| e + 1);
            let without = format!("{}{}", &item[..i], &tail[end..]);
            (without, Some(tail[..end].to_string()))
        }
        None => (item.to_string(), None),
    };
    let name = if let Some(bold) = rest.strip_prefix("**") {
        bold.split("**").next().unwrap_or(bold).to_string()
    } else {
        let cut = [" — ", " – ", " - ", ": "]
            .iter()
            .filter_map(|sep| rest.find(sep))
            .min()
            .unwrap_or(rest.len());
        rest[..cut].to_string()
    };
    match also {
        Some(a) => format!("{} {a}", name.trim()),
        None => name.trim().to_string(),
    }
}

/// The search that ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// trail's own lexical search.
    Lexical,
    /// ck's semantic search.
    Ck,
}

impl Engine {
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::Lexical => "lexical",
            Engine::Ck => "ck",
        }
    }
}

/// The verdict on one ghost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    ConfirmedGhost,
    HighAmbiguity,
    NotGhost,
    Unverified,
}

impl Class {
    /// As the trajectory writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::ConfirmedGhost => "confirmed_ghost",
            Class::HighAmbiguity => "high_ambiguity",
            Class::NotGhost => "not_ghost",
            Class::Unverified => "unverified",
        }
    }

    /// The flag a person reads.
    pub fn flag(self) -> &'static str {
        match self {
            Class::ConfirmedGhost => "[CONFIRMED GHOST]",
            Class::HighAmbiguity => "[HIGH AMBIGUITY]",
            Class::NotGhost => "[NOT A GHOST]",
            Class::Unverified => "[UNVERIFIED GHOST]",
        }
    }

    /// Whether the ghost needs a person: it was not verified, or it is ambiguous.
    pub fn needs_attention(self) -> bool {
        matches!(self, Class::Unverified | Class::HighAmbiguity)
    }
}

/// One query and what it matched.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Run {
    pub query: String,
    /// Matches in code.
    pub code: u64,
    /// Matches in documentation (the listing line left out).
    pub docs: u64,
    /// Up to three code matches, as `${PROJECT_ROOT}/path:LINE`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<String>,
}

/// A ghost checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Checked {
    pub feature: String,
    pub class: Class,
    pub flag: &'static str,
    pub engine: Engine,
    pub queries: Vec<Run>,
    /// Documentation lines either query matched (each line once).
    pub doc_mentions: u64,
    /// Why the ghost is unverified, or what to do.
    pub why: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub listed: Option<Listed>,
}

/// How ghosts are checked.
#[derive(Clone, Debug)]
pub struct Options {
    /// No code match and at least this many doc mentions is `[HIGH AMBIGUITY]` (Loa: 3).
    pub ambiguous_at: u64,
    /// ck's similarity a match needs (0.4).
    pub similarity: f64,
    /// ck, when installed and wanted.
    pub ck: Option<PathBuf>,
}

impl Options {
    /// The defaults, with ck when it is on PATH.
    pub fn with_ck(ambiguous_at: u64, similarity: f64) -> Options {
        Options {
            ambiguous_at,
            similarity,
            ck: search::ck::find(),
        }
    }

    /// As `config` sets them (`grounding.ghost_mentions`, `grounding.ghost_similarity`), with
    /// ck when it is on PATH.
    pub fn of(config: &crate::config::Config) -> Options {
        let (n, d) = config.ghost_similarity.value.fraction();
        Options::with_ck(u64::from(config.ghost_mentions.value), n as f64 / d as f64)
    }

    /// The search these options run.
    pub fn engine(&self) -> Engine {
        if self.ck.is_some() {
            Engine::Ck
        } else {
            Engine::Lexical
        }
    }
}

/// The two queries for `g` in `engine`'s terms, and whether they differ.
pub fn queries(g: &Ghost, engine: Engine) -> (String, String) {
    let alternatives = alternatives(g);
    let name_words = alternatives[0].clone();
    match engine {
        Engine::Lexical => {
            let q1 = alternatives
                .iter()
                .map(|ws| {
                    let stems: Vec<String> = ws.iter().map(|w| stem(w)).collect();
                    format!("\"{}\"", stems.join(" "))
                })
                .collect::<Vec<_>>()
                .join(" ");
            let q2 = alternatives
                .iter()
                .map(|ws| identifier_pattern(ws))
                .collect::<Vec<_>>()
                .join("|");
            (q1, q2)
        }
        Engine::Ck => {
            let q1 = g.name.clone();
            let mut q2: Vec<String> = alternatives[1..].iter().map(|w| w.join(" ")).collect();
            q2.push(name_words.join("_"));
            if name_words.len() > 1 {
                q2.push(camel(&name_words));
            }
            (q1, q2.join(" "))
        }
    }
}

/// The words of the name, then of each other name that differs.
fn alternatives(g: &Ghost) -> Vec<Vec<String>> {
    let mut alternatives: Vec<Vec<String>> = vec![words(&g.name)];
    for a in &g.also {
        let w = words(a);
        if !w.is_empty() && !alternatives.contains(&w) {
            alternatives.push(w);
        }
    }
    alternatives
}

/// The queries as shown and journalled: the lexical identifier regex is described.
fn shown_queries(g: &Ghost, engine: Engine, q1: &str, q2: &str) -> [String; 2] {
    match engine {
        Engine::Lexical => [q1.to_string(), identifier_description(&alternatives(g))],
        Engine::Ck => [q1.to_string(), q2.to_string()],
    }
}

/// The name's words, lower-cased, punctuation dropped (`OAuth-login` → `oauth`, `login`).
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A word cut to a stem every form of it starts with (`limiting` → `limit`, `caches` →
/// `cach`, `rotation` → `rotat`), never shorter than four letters.
fn stem(w: &str) -> String {
    const SUFFIXES: [&str; 14] = [
        "ations", "ation", "ions", "ion", "ings", "ing", "ers", "er", "ies", "ied", "ed", "es",
        "s", "e",
    ];
    for s in SUFFIXES {
        if let Some(base) = w.strip_suffix(s)
            && base.chars().count() >= 4
        {
            return base.to_string();
        }
    }
    w.to_string()
}

fn capitalised(w: &str) -> String {
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn camel(ws: &[String]) -> String {
    ws.iter()
        .enumerate()
        .map(|(i, w)| if i == 0 { w.clone() } else { capitalised(w) })
        .collect()
}

/// Words a feature's name uses that no identifier needs: function words, and the nouns that
/// say "a feature" (`support for SSO login` is `sso_login`).
const FILLER: [&str; 21] = [
    "a",
    "an",
    "and",
    "by",
    "for",
    "from",
    "in",
    "into",
    "of",
    "on",
    "or",
    "the",
    "to",
    "with",
    "support",
    "supports",
    "feature",
    "features",
    "functionality",
    "ability",
    "capability",
];

/// The words an identifier for `ws` is made of: the fillers left out, unless nothing else is left.
fn identifier_words(ws: &[String]) -> Vec<String> {
    let kept: Vec<String> = ws
        .iter()
        .filter(|w| !FILLER.contains(&w.as_str()))
        .cloned()
        .collect();
    if kept.is_empty() { ws.to_vec() } else { kept }
}

/// A regex for one identifier made of the words, as code names things: each word's stem starts
/// a part of the identifier (after its start, a `_` or `-`, or a lower-case letter or digit
/// before a capital), other parts may stand between them, and the words may come in any order
/// (`token rotation` is `rotate_refresh_token`). Adjacent words may also be written as one part
/// (`ratelimit`, `rotaterefresh`). At most four words are tried in every order; more, as written.
///
/// Found by issue 21: the stems were joined by `[_-]?` alone, so a stem that is not the whole
/// word (`rotat`, `validat`, `compar`) never reached the next word, and `rotate_refresh_token`,
/// `validate_token` and `compare_digest` were reported ghosts in projects that define them.
fn identifier_pattern(ws: &[String]) -> String {
    let stems: Vec<String> = identifier_words(ws).iter().map(|w| stem(w)).collect();
    let orders = if stems.len() <= 4 {
        permutations(&stems)
    } else {
        vec![stems]
    };
    let alternatives: Vec<String> = orders.iter().map(|o| ordered_identifier(o)).collect();
    format!("(?m)(?:^|[^A-Za-z0-9_$])(?:{})", alternatives.join("|"))
}

/// One order of stems, from the start of an identifier.
fn ordered_identifier(stems: &[String]) -> String {
    const ID: &str = "[A-Za-z0-9_-]";
    let mut out = String::new();
    for (i, s) in stems.iter().enumerate() {
        let any_case = format!("(?i:{})", regex::escape(s));
        let capital = regex::escape(&capitalised(s));
        // The part starts where the identifier does, after a separator, or at a capital
        // after a lower-case letter or digit; later words may also follow the one before
        // straight on, after at most three more letters of it (`rotat` `e` `refresh`).
        let starts = if i == 0 {
            format!("{any_case}|{ID}*?[_-]{any_case}|{ID}*?[a-z0-9]{capital}")
        } else {
            format!("[A-Za-z]{{0,3}}{any_case}|{ID}*?[_-]{any_case}|{ID}*?[a-z0-9]{capital}")
        };
        out.push_str(&format!("(?:{starts})"));
    }
    out
}

fn permutations(items: &[String]) -> Vec<Vec<String>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first.clone());
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The second query as a person reads it: the identifier regex is long (every order of the
/// words), so what is shown and journalled says what it looks for.
fn identifier_description(alternatives: &[Vec<String>]) -> String {
    let each: Vec<String> = alternatives
        .iter()
        .map(|ws| {
            identifier_words(ws)
                .iter()
                .map(|w| format!("{}…", stem(w)))
                .collect::<Vec<_>>()
                .join(" + ")
        })
        .collect();
    format!(
        "identifiers made of {} (snake, camel or kebab case, any order)",
        each.join(" | ")
    )
}

/// Documentation, as the verdicts count it: prose formats and the usual prose files.
fn is_doc(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file);
    let lower = name.to_ascii_lowercase();
    const EXT: [&str; 11] = [
        ".md",
        ".markdown",
        ".mdx",
        ".rst",
        ".txt",
        ".adoc",
        ".asciidoc",
        ".org",
        ".rdoc",
        ".textile",
        ".wiki",
    ];
    const NAMES: [&str; 9] = [
        "readme",
        "changelog",
        "changes",
        "history",
        "news",
        "authors",
        "contributing",
        "license",
        "notice",
    ];
    EXT.iter().any(|e| lower.ends_with(e)) || NAMES.iter().any(|n| lower == *n)
}

/// Check every ghost under `root`. What comes back is redacted with `redactor`: the names and
/// queries are the project's text, and every caller shows or journals them.
pub fn check(root: &Path, ghosts: &[Ghost], opts: &Options, redactor: &Redactor) -> Vec<Checked> {
    let places = Places {
        segments: Vec::new(),
        stream_dir: PathBuf::new(),
        layout: Layout::new(root),
        project_name: String::new(),
        cache: None,
    };
    ghosts
        .iter()
        .map(|g| redacted(check_one(&places, g, opts, redactor), redactor))
        .collect()
}

/// `c` with every text in it redacted. The queries ran on the names as written; only what is
/// shown of them is redacted.
fn redacted(mut c: Checked, redactor: &Redactor) -> Checked {
    let r = |s: &mut String| {
        if let std::borrow::Cow::Owned(o) = redactor.redact(s, &mut Vec::new()) {
            *s = o;
        }
    };
    r(&mut c.feature);
    r(&mut c.why);
    for q in &mut c.queries {
        r(&mut q.query);
        q.examples.iter_mut().for_each(r);
    }
    if let Some(l) = &mut c.listed {
        r(&mut l.file);
    }
    c
}

/// How many matches of one query are looked at: past this many, a query is not a search for
/// one feature but for a common word.
const MAX_MATCHES: usize = 100_000;

fn check_one(places: &Places, g: &Ghost, opts: &Options, redactor: &Redactor) -> Checked {
    let engine = opts.engine();
    let (q1, q2) = queries(g, engine);
    let mut runs = Vec::new();
    let mut mentions: Vec<DocLine> = Vec::new();
    let mut failed = None;
    let shown = shown_queries(g, engine, &q1, &q2);
    for ((q, regex), shown) in [(&q1, false), (&q2, true)].into_iter().zip(&shown) {
        let mode = match (engine, regex) {
            (Engine::Ck, _) => Mode::Semantic,
            (Engine::Lexical, false) => Mode::Lexical,
            (Engine::Lexical, true) => Mode::Regex,
        };
        match run_query(places, g, opts, redactor, (q, shown, mode)) {
            Ok((run, found)) => {
                for key in found {
                    if !mentions.contains(&key) {
                        mentions.push(key);
                    }
                }
                runs.push(run);
            }
            Err(e) => {
                failed = Some(e);
                break;
            }
        }
    }
    // Neither query found it: before absence is asserted, a code line that holds every word of
    // a name (in any order, in comments or across identifiers) is looked for. Such a line does
    // not prove the feature, but it is not evidence of absence either: a person decides.
    let near = if failed.is_none() && engine == Engine::Lexical && runs.iter().all(|r| r.code == 0)
    {
        let names = alternatives(g);
        let q3 = nearby_pattern(&names);
        let shown = nearby_description(&names);
        match q3.map(|q| run_query(places, g, opts, redactor, (&q, &shown, Mode::Regex))) {
            Some(Ok((run, _))) => {
                let code = run.code;
                runs.push(run);
                code
            }
            Some(Err(e)) => {
                failed = Some(e);
                0
            }
            None => 0,
        }
    } else {
        0
    };
    let code: u64 = runs.iter().take(2).map(|r| r.code).sum();
    let doc_mentions = mentions.len() as u64;
    let same = q1 == q2 || (g.also.is_empty() && words(&g.name).len() < 2);
    let (class, why) = if let Some(f) = failed {
        (Class::Unverified, f.to_string())
    } else if code > 0 {
        (
            Class::NotGhost,
            "the code has it: the feature exists; align the docs that call it missing".into(),
        )
    } else if near > 0 {
        (
            Class::HighAmbiguity,
            format!(
                "no code names it, but {near} code line{} hold every word of it: a person reads \
                 them and decides whether it is missing",
                if near == 1 { "" } else { "s" }
            ),
        )
    } else if same {
        (
            Class::Unverified,
            "a one-word name with no synonym gives the same query twice; list other names for it \
             as `(also: …)` so the second query looks from another angle"
                .into(),
        )
    } else if doc_mentions >= opts.ambiguous_at {
        (
            Class::HighAmbiguity,
            format!(
                "no code has it, but {doc_mentions} documentation lines mention it: a person \
                 decides whether it is missing"
            ),
        )
    } else {
        (
            Class::ConfirmedGhost,
            "neither query finds it in the code: documented, not built".into(),
        )
    };
    Checked {
        feature: g.name.clone(),
        flag: class.flag(),
        class,
        engine,
        queries: runs,
        doc_mentions,
        why,
        listed: g.listed.clone(),
    }
}

/// Why a ghost's query could not say whether the code has it.
#[derive(Debug, thiserror::Error)]
enum QueryError {
    #[error("query `{query}` failed: {source}")]
    Failed {
        query: String,
        source: search::SearchError,
    },
    /// So many lines that the query says nothing about this feature.
    #[error("query `{query}` matched more than {MAX_MATCHES} lines")]
    TooMany { query: String },
}

/// A documentation line a query matched: its file and line.
type DocLine = (String, Option<u32>);

/// One query over the tree: what it matched in code (with up to three examples) and in
/// documentation (each doc line's place, for the mentions), or why it could not run.
fn run_query(
    places: &Places,
    g: &Ghost,
    opts: &Options,
    redactor: &Redactor,
    (q, shown, mode): (&str, &str, Mode),
) -> Result<(Run, Vec<DocLine>), QueryError> {
    let req = Request {
        query: q.to_string(),
        mode,
        filters: Filters {
            types: vec![Source::Code.as_str().into()],
            ..Filters::default()
        },
        limit: 50,
        code: true,
    };
    let found = search::locate(places, &req, redactor)
        .map_err(|source| QueryError::Failed {
            query: shown.into(),
            source,
        })?
        .0;
    if found.len() > MAX_MATCHES {
        return Err(QueryError::TooMany {
            query: shown.into(),
        });
    }
    let mut run = Run {
        query: shown.to_string(),
        code: 0,
        docs: 0,
        examples: Vec::new(),
    };
    let mut docs = Vec::new();
    for m in relevant(found, g, opts.engine(), opts) {
        if is_doc(&m.file) {
            run.docs += 1;
            docs.push((m.file.clone(), m.line));
        } else {
            run.code += 1;
            if run.examples.len() < 3 {
                let at = m.line.map(|l| format!(":{l}")).unwrap_or_default();
                run.examples.push(format!("{}{at}", m.file));
            }
        }
    }
    Ok((run, docs))
}

/// A regex for a line that holds every word of one of the names (each at a word start, any
/// case, any order), for names of two to four words; `None` when no name has that many.
fn nearby_pattern(alternatives: &[Vec<String>]) -> Option<String> {
    let each: Vec<String> = alternatives
        .iter()
        .map(|ws| identifier_words(ws))
        .filter(|ws| (2..=4).contains(&ws.len()))
        .flat_map(|ws| {
            let stems: Vec<String> = ws.iter().map(|w| stem(w)).collect();
            // Of three or four words, a line with all but one of them will do: a description
            // in a comment rarely repeats every word of a feature's name.
            let sets: Vec<Vec<String>> = if stems.len() >= 3 {
                (0..stems.len())
                    .map(|skip| {
                        let mut s = stems.clone();
                        s.remove(skip);
                        s
                    })
                    .collect()
            } else {
                vec![stems]
            };
            let whole = sets.len() == 1;
            sets.iter()
                .flat_map(|s| permutations(s))
                .map(|order| (order, whole))
                .collect::<Vec<_>>()
        })
        .map(|(order, whole)| {
            // Every word anywhere on the line; all but one only close together, as a phrase
            // with a word or two between.
            let gap = if whole { ".*" } else { ".{0,24}" };
            order
                .iter()
                .map(|s| word_start(s))
                .collect::<Vec<_>>()
                .join(gap)
        })
        .collect();
    (!each.is_empty()).then(|| each.join("|"))
}

/// A regex for `stem` at the start of a word, or of a part of a camel-case one.
fn word_start(stem: &str) -> String {
    let mut chars = stem.chars();
    let first: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    let rest = chars.as_str();
    format!(
        "(?:(?:^|[^A-Za-z0-9])(?i:{})|[a-z0-9]{}(?i:{}))",
        regex::escape(stem),
        regex::escape(&first),
        regex::escape(rest)
    )
}

/// The third query as a person reads it.
fn nearby_description(alternatives: &[Vec<String>]) -> String {
    let each: Vec<String> = alternatives
        .iter()
        .map(|ws| identifier_words(ws))
        .filter(|ws| (2..=4).contains(&ws.len()))
        .map(|ws| {
            ws.iter()
                .map(|w| format!("{}…", stem(w)))
                .collect::<Vec<_>>()
                .join(" + ")
        })
        .collect();
    format!(
        "code lines holding every word of {} (any order)",
        each.join(" | ")
    )
}

/// The matches that count: not the line listing the ghost, and with ck only those at least as
/// similar as the threshold.
fn relevant(
    found: Vec<Located>,
    g: &Ghost,
    engine: Engine,
    opts: &Options,
) -> impl Iterator<Item = Located> {
    let listed = g.listed.clone();
    let similarity = opts.similarity;
    found.into_iter().filter(move |m| {
        let listing = listed
            .as_ref()
            .is_some_and(|l| l.file == m.file && Some(l.line) == m.line);
        let similar = engine != Engine::Ck || m.score.is_some_and(|s| s >= similarity);
        m.source == Source::Code && !listing && similar
    })
}

/// Append a `negative_grounding` entry for each ghost checked, redacted.
pub fn log(
    root: &Path,
    checked: &[Checked],
    session: Option<&str>,
    secrets: &crate::secrets::Secrets,
) -> Result<(), crate::file_error::FileError> {
    use crate::trajectory::{Body, Entry, NegativeGrounding, journal};
    for c in checked {
        let q = |i: usize| c.queries.get(i);
        let body = Body::NegativeGrounding(NegativeGrounding {
            feature: c.feature.clone(),
            query1: q(0).map(|r| r.query.clone()).unwrap_or_default(),
            results1: q(0).map_or(0, |r| r.code),
            query2: q(1).map(|r| r.query.clone()).unwrap_or_default(),
            results2: q(1).map_or(0, |r| r.code),
            doc_mentions: c.doc_mentions,
            classification: c.class.as_str().into(),
            engine: c.engine.as_str().into(),
        });
        journal::append(root, &Entry::now(body, session), secrets)?;
    }
    Ok(())
}

pub mod project;

#[cfg(test)]
mod tests;
