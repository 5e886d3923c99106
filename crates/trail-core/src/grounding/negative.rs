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
//!                       ratelimit, rateLimit, RateLimiter, RATE_LIMIT
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
//! 0             under `mentions`      [CONFIRMED GHOST]
//! 0             `mentions` or more    [HIGH AMBIGUITY]: for a human; absence is never asserted
//! ```
//!
//! A ghost that could not be checked this way — a search failed, or the two queries would be
//! the same (a one-word name with no synonym) — is `[UNVERIFIED GHOST]`. No ghost ever counts
//! as a grounded claim: a confirmed ghost is a verified absence, not evidence of anything.

use std::io;
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
    let name_words = words(&g.name);
    let mut alternatives: Vec<Vec<String>> = vec![name_words.clone()];
    for a in &g.also {
        let w = words(a);
        if !w.is_empty() && !alternatives.contains(&w) {
            alternatives.push(w);
        }
    }
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

/// The name's words, lower-cased, punctuation dropped (`OAuth-login` → `oauth`, `login`).
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// A word cut to a stem every form of it starts with (`limiting` → `limit`, `caches` →
/// `cach`), never shorter than four letters.
fn stem(w: &str) -> String {
    const SUFFIXES: [&str; 12] = [
        "ations", "ation", "ings", "ing", "ers", "er", "ies", "ied", "ed", "es", "s", "e",
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

/// A regex for the words as code names them: joined by `_`, `-` or nothing, in any case, at
/// the start of an identifier or a camel-case part of one.
fn identifier_pattern(ws: &[String]) -> String {
    let stems: Vec<String> = ws.iter().map(|w| regex::escape(&stem(w))).collect();
    let caps: Vec<String> = ws
        .iter()
        .map(|w| regex::escape(&capitalised(&stem(w))))
        .collect();
    format!(
        "(?i:(?:(?m:^)|[^a-z0-9]){})|{}",
        stems.join("[_-]?"),
        caps.join("[_-]?")
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
    let mut mentions: Vec<(String, Option<u32>)> = Vec::new();
    let mut failed = None;
    for (q, regex) in [(&q1, false), (&q2, true)] {
        let mode = match (engine, regex) {
            (Engine::Ck, _) => Mode::Semantic,
            (Engine::Lexical, false) => Mode::Lexical,
            (Engine::Lexical, true) => Mode::Regex,
        };
        let req = Request {
            query: q.clone(),
            mode,
            filters: Filters {
                types: vec![Source::Code.as_str().into()],
                ..Filters::default()
            },
            limit: 50,
            code: true,
        };
        let found = match search::locate(places, &req, redactor) {
            Ok((found, _, _)) => found,
            Err(e) => {
                failed = Some(format!("query `{q}` failed: {e}"));
                break;
            }
        };
        if found.len() > MAX_MATCHES {
            failed = Some(format!("query `{q}` matched more than {MAX_MATCHES} lines"));
            break;
        }
        let mut run = Run {
            query: q.clone(),
            code: 0,
            docs: 0,
            examples: Vec::new(),
        };
        for m in relevant(found, g, engine, opts) {
            if is_doc(&m.file) {
                run.docs += 1;
                let key = (m.file.clone(), m.line);
                if !mentions.contains(&key) {
                    mentions.push(key);
                }
            } else {
                run.code += 1;
                if run.examples.len() < 3 {
                    let at = m.line.map(|l| format!(":{l}")).unwrap_or_default();
                    run.examples.push(format!("{}{at}", m.file));
                }
            }
        }
        runs.push(run);
    }
    let code: u64 = runs.iter().map(|r| r.code).sum();
    let doc_mentions = mentions.len() as u64;
    let same = q1 == q2 || (g.also.is_empty() && words(&g.name).len() < 2);
    let (class, why) = if let Some(f) = failed {
        (Class::Unverified, f)
    } else if code > 0 {
        (
            Class::NotGhost,
            "the code has it: the feature exists; align the docs that call it missing".into(),
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
) -> io::Result<()> {
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
