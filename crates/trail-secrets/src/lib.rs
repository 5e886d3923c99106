//! trail-secrets: secret detection and redaction (trail-core re-exports it as `secrets`).
//!
//! trail writes an append-only ledger of AI agent sessions, and nothing secret
//! may reach that ledger unredacted. [`Redactor::redact`] replaces every
//! secret in a text by a reference `${secret:<rule>-<8 hex>}`, where the hex is
//! the start of the SHA-256 of the value: the same value always gets the same
//! name, and a reference is never mistaken for a secret, so redacting twice
//! changes nothing. The originals are kept, outside the ledger, in a
//! private [`SecretStore`] (`~/.secrets/trail.env`) from which a reference can
//! be looked up again.
//!
//! Writers do not use the [`Redactor`] directly: they ask the [`Secrets`]
//! service (`service.rs`), which redacts and keeps the originals in one step,
//! so that no reference trail lets out is ever without its original.
//!
//! Detection follows gitleaks and atuin: a table of rules, each a regex with
//! a realistic example that must match it (a test walks the whole table).
//! The rules cover families rather than rows (issue 9), each with examples
//! that must and must not be redacted (`tests::FAMILIES`):
//! - vendor token formats (`ghp_`, `sk_live_`, `xoxb-`, `AKIA`, 64-byte
//!   base64 keys, …) and private-key blocks (PEM with any body, with or
//!   without an END line; PuTTY);
//! - secrets recognised by where they sit: `generic-assignment` (any name
//!   containing key, token, secret, pass, pwd, credential or auth; any
//!   operator from `=` to `===`, `?=`, `<-`; quoted values with spaces and
//!   symbols, bare values to whitespace), credentials in URLs and `-u
//!   user:password`, password flags of the tools that take them (`mysql
//!   -p…`, `sshpass -p`, `… login -p`, `redis-cli -a`), `Authorization`
//!   and key-named headers, `.netrc`, XML elements and attributes, bot
//!   tokens and URL signatures;
//! - values read by where they stand in any syntax, without a regex
//!   (`nearby.rs`): beside a word naming a credential, after a one-letter
//!   flag, as `user:password`, or alone when only a generator writes them;
//! - and what is *not* a secret, refused by the checks whatever rule
//!   matched: placeholders and filler (`${VAR}`, `<token>`, `xxxx`,
//!   `1234567…`, `…EXAMPLE…`), names of secrets rather than values
//!   (`SECRET_NAME = "MY-API-KEY"`, `kms_key_id`, code such as
//!   `get_password()`), keys public by design (publishable payment keys,
//!   Mapbox `pk.`, Firebase and Maps browser keys, anon JWTs, public and
//!   CSRF names) and published demo values (the jwt.io sample, Telegram's
//!   and Stripe's documentation tokens, `guest:guest` defaults).
//!
//! How well this holds on material the rules never saw is measured by
//! trail-core's `tests/core/redactor_labelled.rs` (per family, on a tune and a held-out set).
//!
//! # Why keywords gate the regexes
//!
//! `redact` runs on every ledger write, in a process that must start and
//! finish in about a millisecond. The regex crate needs tens to hundreds of
//! microseconds to compile each of these patterns, so compiling the table up
//! front would spend the whole budget before the first byte is scanned.
//! Instead each rule carries keywords (`ghp_`, `-----begin`, `token`, …), one
//! of which occurs in every match of the rule, as in gitleaks. A text is
//! lower-cased once and all keywords are looked for in a single pass; only
//! the rules whose keywords occur are compiled (once per process, in a
//! [`OnceLock`]) and run. A text without keywords, the common case, costs a
//! few microseconds and comes back as [`Cow::Borrowed`].
//!
//! Some keywords (`token`, `key`, `://`, `sk`) fill ordinary agent
//! transcripts, so the broad built-in rules add a hand-written shape check
//! before compiling: an operator followed by a long enough value, a URL with
//! `:` and `@`, an upper-case `SK`. Each check is a necessary condition of
//! its regex matching (a property test holds them to it), so it only saves
//! work.

// The floor, named as it was when this was trail-core's `secrets` module.
use trail_base::{fsutil, text};

mod fragment;
mod halves;
mod headers;
mod joined;
pub mod key;
mod logged_key;
pub mod machine;
mod nearby;
mod plausible;
mod positional;
pub mod private;
mod recovery;
mod referenced;
mod rules;
mod sections;
mod service;
mod shape;
mod store;
mod unmasked;

pub use service::{Pass, Secrets};
pub use store::SecretStore;

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use regex_automata::util::captures::Captures;
use regex_automata::util::syntax;
use regex_automata::{Input, MatchKind, PatternID, meta};
use sha2::{Digest, Sha256};

use plausible::Check;
use shape::Shape;

/// One detection rule a person adds (`[[secrets.rules]]` in the configuration). Rules are data.
///
/// If `regex` has a capture group whose name starts with `secret`, only that
/// group is replaced (the first such group that takes part in a match);
/// otherwise the whole match is. A rule with keywords only runs on texts that
/// contain one of them (ASCII case-insensitively); a rule without keywords
/// runs on every text.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct RuleSpec {
    pub name: String,
    pub regex: String,
    pub example: String,
    #[serde(default)]
    pub keywords: Vec<String>,
    /// The configuration file the rule was read from, so that a broken rule is reported where
    /// it can be fixed. Set by the configuration, never read from it.
    #[serde(skip)]
    pub file: Option<std::path::PathBuf>,
}

#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    #[error("secret rule `{name}`{}: invalid regex: {source}", written_in(file.as_deref()))]
    BadRegex {
        name: String,
        file: Option<std::path::PathBuf>,
        #[source]
        source: Box<meta::BuildError>,
    },
    #[error(
        "secret rule `{name}`{}: its example does not match its regex",
        written_in(file.as_deref())
    )]
    ExampleDoesNotMatch {
        name: String,
        file: Option<std::path::PathBuf>,
    },
    #[error("cannot store secrets in {path}: {source}")]
    Store {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// ` ([[secrets.rules]] in FILE)` when a rule's file is known.
fn written_in(file: Option<&std::path::Path>) -> String {
    file.map(|f| format!(" ([[secrets.rules]] in {})", f.display()))
        .unwrap_or_default()
}

/// A secret found in a text: the placeholder name and the original value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// `<rule>-<8 hex>`, as written inside `${secret:…}`.
    pub name: String,
    /// The rule that found it.
    pub rule: String,
    /// The original text that was replaced.
    pub value: String,
}

impl Found {
    /// The reference that replaced it in the text: `${secret:<name>}`.
    pub fn reference(&self) -> String {
        format!("{REFERENCE_PREFIX}{}}}", self.name)
    }
}

/// How a reference starts; also what [`SecretStore::lookup`] strips.
const REFERENCE_PREFIX: &str = "${secret:";

/// Replacing a secret can, in contrived texts, expose a match next to it that
/// the first pass could not see; a few more passes make `redact` idempotent.
const MAX_PASSES: usize = 4;

/// Texts up to this many bytes are searched by each rule's lean build ([`Compiled::new`]).
///
/// Most of a hook's redaction is compiling the rules a text opens, and half of a full build is
/// the reverse automaton and the literal prefilter, which pay off only on long texts. Measured
/// over the built-in rules (compile and search, one text): the lean build takes 0.55 of the
/// time at 434 bytes, 0.66 at 800 and 0.80 at 1,500, and 1.05 at 2,500; past that the lazy DFA
/// wins.
const SHORT_TEXT: usize = 1024;

/// A rule's regex, compiled on first use, with the capture groups the
/// redactor cares about.
struct Compiled {
    re: meta::Regex,
    /// Built lean: searched with a cache of its own, dropped after the text (below).
    lean: bool,
    secret_groups: Vec<usize>,
    /// Groups named `name…`: the first that participates names the value.
    name_groups: Vec<usize>,
    op_group: Option<usize>,
    user_group: Option<usize>,
}

impl Compiled {
    /// The regex as `regex::bytes` builds it; `lean`, without the lazy DFA, its reverse
    /// automaton, the one-pass DFA or the literal prefilter, for texts of at most
    /// [`SHORT_TEXT`] bytes (the bounded backtracker then finds every match). Both find the
    /// same matches: the engines differ, not the semantics.
    fn new(src: &str, lean: bool) -> Result<Compiled, Box<meta::BuildError>> {
        let mut config = meta::Config::new()
            .match_kind(MatchKind::LeftmostFirst)
            .utf8_empty(false)
            .nfa_size_limit(Some(10 << 20))
            .hybrid_cache_capacity(2 << 20);
        if lean {
            config = config.hybrid(false).onepass(false).auto_prefilter(false);
        }
        let re = meta::Builder::new()
            .configure(config)
            .syntax(syntax::Config::new().utf8(false))
            .build(src)
            .map_err(Box::new)?;
        let mut secret_groups = Vec::new();
        let mut name_groups = Vec::new();
        let mut op_group = None;
        let mut user_group = None;
        for (i, group) in re.group_info().pattern_names(PatternID::ZERO).enumerate() {
            match group {
                Some(g) if g.starts_with("secret") => secret_groups.push(i),
                Some(g) if g.starts_with("name") => name_groups.push(i),
                Some("op") => op_group = Some(i),
                Some("user") => user_group = Some(i),
                _ => {}
            }
        }
        Ok(Compiled {
            re,
            lean,
            secret_groups,
            name_groups,
            op_group,
            user_group,
        })
    }

    fn group<'t>(g: Option<usize>, locs: &Locs, text: &'t str) -> Option<&'t str> {
        g.and_then(|g| locs.get(g))
            .and_then(|(s, e)| text.get(s..e))
    }
}

/// One match's capture groups, as byte offsets.
struct Locs(Captures);

impl Locs {
    fn get(&self, group: usize) -> Option<(usize, usize)> {
        self.0.get_group(group).map(|span| (span.start, span.end))
    }
}

struct Rule {
    name: Cow<'static, str>,
    regex: Cow<'static, str>,
    example: Cow<'static, str>,
    keywords: Keywords,
    check: Check,
    shape: Shape,
    lowered: bool,
    compiled: OnceLock<Option<Compiled>>,
    /// The lean build, for short texts.
    lean: OnceLock<Option<Compiled>>,
}

/// A rule's keywords, lower case: borrowed from the built-in table so that
/// setting up the built-in rules allocates almost nothing.
enum Keywords {
    Static(&'static [&'static str]),
    Owned(Vec<String>),
}

impl Rule {
    fn builtin(b: &'static rules::Builtin) -> Rule {
        Rule {
            name: Cow::Borrowed(b.name),
            regex: Cow::Borrowed(b.regex),
            example: Cow::Borrowed(b.example),
            keywords: Keywords::Static(b.keywords),
            check: b.check,
            shape: b.shape,
            lowered: b.lowered,
            compiled: OnceLock::new(),
            lean: OnceLock::new(),
        }
    }

    /// The build for a text of `len` bytes. `None` only for a broken built-in regex, which
    /// the table test rules out; user rules are compiled eagerly by [`Redactor::with_extra`].
    fn compiled(&self, len: usize) -> Option<&Compiled> {
        let (cell, lean) = if len <= SHORT_TEXT {
            (&self.lean, true)
        } else {
            (&self.compiled, false)
        };
        cell.get_or_init(|| Compiled::new(&self.regex, lean).ok())
            .as_ref()
    }
}

/// Where generic-assignment stands in the built-in table: its keywords are every word that
/// names a credential, which the scanners want to know of.
fn generic_assignment_index() -> usize {
    static AT: OnceLock<usize> = OnceLock::new();
    *AT.get_or_init(|| {
        rules::BUILTIN
            .iter()
            .position(|b| b.name == rules::GENERIC_ASSIGNMENT)
            .unwrap_or(usize::MAX)
    })
}

/// The built-in rules, shared by every [`Redactor`] so that a regex compiled
/// for one is compiled for all.
fn builtin_rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| rules::BUILTIN.iter().map(Rule::builtin).collect())
}

/// Finds and replaces secrets: the built-in rules plus any user rules.
pub struct Redactor {
    builtin: &'static [Rule],
    extra: Vec<Rule>,
    keywords: KeywordSet,
    /// Rule `r` (built-in first, then extra) has the keywords
    /// `gate_keywords[gate_starts[r]..gate_starts[r + 1]]`, as indices into
    /// `keywords`; a rule without keywords always runs.
    gate_starts: Vec<usize>,
    gate_keywords: Vec<usize>,
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Redactor")
            .field(
                "rules",
                &self.all_rules().map(|r| &r.name).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// The distinct keywords of all rules, found in one pass over a text.
///
/// One `memmem` finder per keyword would cost tens of microseconds to build
/// in every process, then one pass per keyword. Instead, a small bitmap of
/// the keywords' (hashed) first three bytes lets a single pass skip almost
/// every position of ordinary text.
struct KeywordSet {
    /// Grouped by first byte, in byte order, so that keywords sharing a first
    /// byte are adjacent.
    keywords: Vec<Cow<'static, [u8]>>,
    /// Bit `trigram_hash(a, b, c)` is set when a keyword starts with `abc`.
    trigrams: Vec<u64>,
    /// `keywords[first[a]..first[a + 1]]` start with byte `a`.
    first: Vec<usize>,
    /// Keywords shorter than three bytes, which the bitmap cannot see.
    short: Vec<usize>,
}

const TRIGRAM_BITS: u32 = 12;

fn trigram_hash(a: u8, b: u8, c: u8) -> usize {
    let packed = (u32::from(a) << 16) | (u32::from(b) << 8) | u32::from(c);
    (packed.wrapping_mul(0x9E37_79B1) >> (32 - TRIGRAM_BITS)) as usize
}

impl KeywordSet {
    fn new(keywords: Vec<Cow<'static, [u8]>>) -> KeywordSet {
        let mut trigrams = vec![0u64; 1 << (TRIGRAM_BITS - 6)];
        let mut first = vec![0usize; 257];
        let mut short = Vec::new();
        for (i, k) in keywords.iter().enumerate() {
            if let Some(&a) = k.first() {
                first[usize::from(a) + 1] += 1;
            }
            match **k {
                [a, b, c, ..] => {
                    let h = trigram_hash(a, b, c);
                    trigrams[h >> 6] |= 1 << (h & 63);
                }
                _ => short.push(i),
            }
        }
        for a in 0..256 {
            first[a + 1] += first[a];
        }
        KeywordSet {
            keywords,
            trigrams,
            first,
            short,
        }
    }

    /// Which keywords occur in `lowered`, by index.
    fn present(&self, lowered: &[u8]) -> Vec<bool> {
        let mut present = vec![false; self.keywords.len()];
        // Short keywords are few (`sk`, `-u`): plain searches.
        for &i in &self.short {
            present[i] = shape::find_all(lowered, &self.keywords[i]).next().is_some();
        }
        for (at, w) in lowered.windows(3).enumerate() {
            let h = trigram_hash(w[0], w[1], w[2]);
            if self.trigrams[h >> 6] & (1 << (h & 63)) == 0 {
                continue;
            }
            let a = usize::from(w[0]);
            let same_first = self.first[a]..self.first[a + 1];
            for (seen, keyword) in present[same_first.clone()]
                .iter_mut()
                .zip(&self.keywords[same_first])
            {
                if !*seen && lowered[at..].starts_with(keyword) {
                    *seen = true;
                }
            }
        }
        present
    }
}

/// A span to replace, and the rule that found it.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    start: usize,
    end: usize,
    rule: usize,
}

/// Whether a line is a DNS record of a zone's public key: its type, `DNSKEY` or `CDNSKEY`, as
/// a word of its own, followed by the flags, the protocol and the algorithm.
fn dns_key_record(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().enumerate().any(|(i, w)| {
        matches!(*w, "DNSKEY" | "CDNSKEY")
            && words.get(i + 1..i + 4).is_some_and(|n| {
                n.iter()
                    .all(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit()))
            })
    })
}

/// Whether `start..end` is the password of a URL's user information (`scheme://user:…@host`).
fn in_url_userinfo(text: &str, start: usize, end: usize) -> bool {
    let before = &text[..start];
    text[end..].starts_with('@')
        && before.ends_with(':')
        && before
            .rsplit(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '='))
            .next()
            .is_some_and(|word| word.contains("://"))
}

impl Redactor {
    /// The built-in rules, shared and built on first use (no regex is
    /// compiled until a text needs it).
    pub fn builtin() -> &'static Redactor {
        static REDACTOR: OnceLock<Redactor> = OnceLock::new();
        REDACTOR.get_or_init(|| Redactor::build(builtin_rules(), Vec::new()))
    }

    /// The built-in rules plus `extra`. Each extra rule's regex is compiled
    /// now, and its example must match it and contain one of its keywords
    /// (otherwise the rule could never fire on its own example). Rule names
    /// are lower-cased and anything outside `[a-z0-9_-]` becomes `-`, so that
    /// a reference stays one token.
    pub fn with_extra(extra: &[RuleSpec]) -> Result<Redactor, SecretsError> {
        let mut rules = Vec::with_capacity(extra.len());
        for spec in extra {
            let compiled =
                Compiled::new(&spec.regex, false).map_err(|e| SecretsError::BadRegex {
                    name: spec.name.clone(),
                    file: spec.file.clone(),
                    source: e,
                })?;
            let keywords: Vec<String> = spec
                .keywords
                .iter()
                .map(|k| k.trim().to_ascii_lowercase())
                .filter(|k| !k.is_empty())
                .collect();
            let lowered_example = spec.example.to_ascii_lowercase();
            let gated_in = keywords.is_empty()
                || keywords
                    .iter()
                    .any(|k| lowered_example.contains(k.as_str()));
            if !gated_in || !compiled.re.is_match(spec.example.as_bytes()) {
                return Err(SecretsError::ExampleDoesNotMatch {
                    name: spec.name.clone(),
                    file: spec.file.clone(),
                });
            }
            rules.push(Rule {
                name: Cow::Owned(sanitize_rule_name(&spec.name)),
                regex: Cow::Owned(spec.regex.clone()),
                example: Cow::Owned(spec.example.clone()),
                keywords: Keywords::Owned(keywords),
                check: Check::Exact,
                shape: Shape::Any,
                lowered: false,
                compiled: OnceLock::from(Some(compiled)),
                lean: OnceLock::new(),
            });
        }
        Ok(Redactor::build(builtin_rules(), rules))
    }

    /// Every process that redacts builds this once, whether or not a text holds a keyword, so
    /// it sorts nothing: the keywords are grouped by first byte (all [`KeywordSet`] needs) with
    /// a counting pass, equal ones found within their group, and each rule's list is written in
    /// rule order. Sorting the (keyword, rule) pairs instead cost 64,000 of the 280,000
    /// instructions of a PostToolUse that redacts a clean proof line.
    fn build(builtin: &'static [Rule], extra: Vec<Rule>) -> Redactor {
        let rules = builtin.len() + extra.len();
        // Each rule's keywords, rule by rule (the built-in ones borrowed from the table). A rule
        // with an empty keyword runs on every text (every text contains it), as a rule without
        // keywords does, so it gets none.
        let mut mentions: Vec<(usize, Cow<'static, [u8]>)> = Vec::new();
        for (index, rule) in builtin.iter().enumerate() {
            if let Keywords::Static(ks) = rule.keywords
                && ks.iter().all(|k| !k.is_empty())
            {
                mentions.extend(ks.iter().map(|k| (index, Cow::Borrowed(k.as_bytes()))));
            }
        }
        for (index, rule) in extra.iter().enumerate() {
            if let Keywords::Owned(ks) = &rule.keywords
                && ks.iter().all(|k| !k.is_empty())
            {
                let index = builtin.len() + index;
                mentions.extend(
                    ks.iter()
                        .map(|k| (index, Cow::Owned(k.as_bytes().to_vec()))),
                );
            }
        }
        // The mentions in order of their first byte (a counting sort, stable).
        let mut starts = vec![0usize; 257];
        for (_, k) in &mentions {
            starts[usize::from(k[0]) + 1] += 1;
        }
        for b in 0..256 {
            starts[b + 1] += starts[b];
        }
        let mut by_first = vec![0usize; mentions.len()];
        let mut next = starts.clone();
        for (m, (_, k)) in mentions.iter().enumerate() {
            let slot = &mut next[usize::from(k[0])];
            by_first[*slot] = m;
            *slot += 1;
        }
        // Distinct keywords, group by group; each mention gets its keyword's index.
        let mut keywords: Vec<Cow<'static, [u8]>> = Vec::new();
        let mut keyword_of = vec![0usize; mentions.len()];
        for b in 0..256 {
            let group_start = keywords.len();
            for &m in &by_first[starts[b]..starts[b + 1]] {
                let k = &mentions[m].1;
                keyword_of[m] = if let Some(i) = keywords[group_start..].iter().position(|x| x == k)
                {
                    group_start + i
                } else {
                    keywords.push(k.clone());
                    keywords.len() - 1
                };
            }
        }
        let mut gate_starts = vec![0usize; rules + 1];
        for (rule, _) in &mentions {
            gate_starts[rule + 1] += 1;
        }
        for r in 1..gate_starts.len() {
            gate_starts[r] += gate_starts[r - 1];
        }
        Redactor {
            builtin,
            extra,
            keywords: KeywordSet::new(keywords),
            gate_starts,
            gate_keywords: keyword_of,
        }
    }

    fn all_rules(&self) -> impl Iterator<Item = &Rule> {
        self.builtin.iter().chain(self.extra.iter())
    }

    /// The name of rule `index`: built-in, then extra, then the scanners.
    fn rule_name(&self, index: usize) -> Option<&str> {
        match index.checked_sub(self.builtin.len()) {
            None => self.builtin.get(index).map(|r| r.name.as_ref()),
            Some(i) => match i.checked_sub(self.extra.len()) {
                None => self.extra.get(i).map(|r| r.name.as_ref()),
                Some(k) => nearby::SCANNERS.get(k).map(|(name, _)| *name),
            },
        }
    }

    /// `(name, example)` for every rule: the built-in table, the scanners that read a value
    /// by where it stands, then the person's rules.
    pub fn rules(&self) -> impl Iterator<Item = (&str, &str)> {
        let named = |r: &'static Rule| (r.name.as_ref(), r.example.as_ref());
        self.builtin
            .iter()
            .map(named)
            .chain(nearby::SCANNERS.iter().copied())
            .chain(
                self.extra
                    .iter()
                    .map(|r| (r.name.as_ref(), r.example.as_ref())),
            )
    }

    /// Replace every secret in `text` by `${secret:<rule>-<8 hex of
    /// sha256(value)>}` and report what was replaced: one [`Found`] per name
    /// not already in `found`.
    ///
    /// Only the secret is replaced, never the key name or quotes around it.
    /// Overlapping matches are merged into one replacement named after the
    /// longest of them. A text with nothing to replace comes back borrowed. A span the person
    /// marked `<private>…</private>` becomes `[private]` first ([`private`]).
    pub fn redact<'a>(&self, text: &'a str, found: &mut Vec<Found>) -> Cow<'a, str> {
        // What the person marked private goes first, whatever the rules would find in it.
        let mut out = private::strip(text);
        for _ in 0..MAX_PASSES {
            match self.redact_once(&out, found) {
                Some(next) => out = Cow::Owned(next),
                None => break,
            }
        }
        out
    }

    /// Values some rule matched but left because they are placeholders (`${API_KEY}`,
    /// `<token>`, `xxxx…`, `your-api-key-here`): kept as written, and worth telling the
    /// person, who may have meant a real key (`trail redact`, `trail remember` say so).
    pub fn placeholders(&self, text: &str) -> Vec<String> {
        let mut kept = Vec::new();
        if !text.is_empty() {
            self.scan(text, Some(&mut kept));
        }
        kept
    }

    /// Every span some rule accepts in `text`, and the definitions of values a secret's place
    /// names by reference ([`referenced`]); what a rule rejects as a placeholder goes to
    /// `kept` when asked for.
    fn scan(&self, text: &str, kept: Option<&mut Vec<String>>) -> Vec<Candidate> {
        let mut candidates = self.scan_written(text, kept);
        if text.contains("{{") {
            self.referenced(text, &mut candidates);
        }
        if text.contains("uth]") {
            self.basic_auth_sections(text, &mut candidates);
        }
        candidates
    }

    /// The rule that finds `value` where it stands in `line` (at byte `at`): what a value
    /// written elsewhere would be, written here.
    fn judged_in(&self, line: &str, at: usize, value: &str) -> Option<usize> {
        self.scan_written(line, None)
            .into_iter()
            .find(|c| c.start <= at && at + value.len() <= c.end)
            .map(|c| c.rule)
    }

    /// The pairs under a Basic-auth section's heading ([`sections`]), each judged as the URL
    /// that carries the same pair (`https://user:password@…`).
    fn basic_auth_sections(&self, text: &str, candidates: &mut Vec<Candidate>) {
        for ((us, ue), (ps, pe)) in sections::basic_auth_pairs(text) {
            if candidates.iter().any(|c| c.start < pe && ps < c.end) {
                continue;
            }
            let (user, password) = (&text[us..ue], &text[ps..pe]);
            let url = format!("https://{user}:{password}@host.invalid/");
            if let Some(rule) = self.judged_in(&url, "https://".len() + user.len() + 1, password) {
                candidates.push(Candidate {
                    start: ps,
                    end: pe,
                    rule,
                });
            }
        }
    }

    /// A value defined once and used by `{{name}}`: the line that uses it is judged with the
    /// value in its place, and a secret found there is one where the value is defined.
    fn referenced(&self, text: &str, candidates: &mut Vec<Candidate>) {
        // Each name looked up once, and a bounded number of them: a template of thousands of
        // references (`{{ item.name }}`) stays linear.
        let mut looked_up: Vec<&str> = Vec::new();
        for used in referenced::uses(text) {
            if looked_up.contains(&used.name) {
                continue;
            }
            if looked_up.len() == 32 {
                break;
            }
            looked_up.push(used.name);
            let Some((vs, ve)) = referenced::definition(text, used.name) else {
                continue;
            };
            if candidates.iter().any(|c| c.start < ve && vs < c.end) {
                continue;
            }
            let ((ls, le), (rs, re)) = (used.line, used.reference);
            let value = &text[vs..ve];
            let line = format!("{}{value}{}", &text[ls..rs], &text[re..le]);
            if let Some(rule) = self.judged_in(&line, rs - ls, value) {
                candidates.push(Candidate {
                    start: vs,
                    end: ve,
                    rule,
                });
            }
        }
    }

    /// Every span some rule accepts in `text` as it is written.
    fn scan_written(&self, text: &str, mut kept: Option<&mut Vec<String>>) -> Vec<Candidate> {
        let (references, lowered) = prepare(text);
        let present = self.keywords.present(&lowered);
        // For rules that match in lower case; unlike `lowered`, references
        // are not masked, so these rules see what the others see.
        let mut lower_case: Option<Vec<u8>> = None;
        let mut candidates = Vec::new();
        // Whether a credential's word may be in the text, for the scanners (`nearby`).
        let mut named = false;
        for (index, rule) in self.all_rules().enumerate() {
            let gate = self
                .gate_starts
                .get(index..=index + 1)
                .and_then(|r| self.gate_keywords.get(r[0]..r[1]))
                .unwrap_or_default();
            let open = gate.is_empty() || gate.iter().any(|&k| present[k]);
            if index == generic_assignment_index() {
                named = open;
            }
            if !open || !rule.shape.admits(text, &lowered) {
                continue;
            }
            let Some(compiled) = rule.compiled(text.len()) else {
                continue;
            };
            let haystack = if rule.lowered {
                lower_case.get_or_insert_with(|| text.as_bytes().to_ascii_lowercase())
            } else {
                text.as_bytes()
            };
            collect(
                index,
                rule.check,
                compiled,
                text,
                haystack,
                &references,
                &mut candidates,
                kept.as_deref_mut(),
            );
        }
        // The scanners that read a value by where it stands, in any syntax (`nearby`).
        let first = self.builtin.len() + self.extra.len();
        let mut spans = Vec::new();
        nearby::find(text, named, &mut spans);
        for (start, end, scanner) in spans {
            // A signed link's digest is named for its algorithm (nginx's secure links,
            // `?md5=…&expires=…`): the signature, not a published checksum.
            let signed_link = nearby::signs_a_link(scanner);
            if !references.iter().any(|&(s, e)| start < e && s < end)
                && !(said_or_known_public(text, start, end)
                    && !(signed_link && digest_named_before(text, start)))
                && !plausible::served_to_browsers(text, start)
                && !plausible::unsigned_jwt(&text[start..end])
            {
                candidates.push(Candidate {
                    start,
                    end,
                    rule: first + scanner,
                });
            }
        }
        // A rule's match that is the header of a JWT with no signature (`token
        // eyJhbGciOiJub25lIn0.eyJ….`): the whole token grants nothing.
        if text.contains("eyJ") {
            candidates.retain(|c| !plausible::starts_unsigned_jwt(text, c.start));
        }
        // A zone's public key records (`example.net. 3600 IN DNSKEY 257 3 13 waHf…`, `CDNSKEY`):
        // what resolvers check signatures with, published in the DNS.
        if text.contains("DNSKEY") {
            candidates.retain(|c| !dns_key_record(nearby::line_around(text, c.start)));
        }
        // A value a store is told to keep under a name that says what it is, and that is no
        // credential (`Set-Secret -Name STATUS_BUILD_SHA -Secret '…'`, `… | wrangler secret
        // put INSTANCE_UUID`, `aws ssm put-parameter --name …_build_sha`): a hash, an id or an
        // address kept there is still one.
        if !candidates.is_empty()
            && (nearby::contains_any_case(text, b"secret")
                || text.contains("put")
                || text.contains("set"))
        {
            // (Not a URL's password: an address that carries one is a credential whatever it
            // is kept as, `set $upload_url "ftpes://user:…@host/"`.)
            candidates.retain(|c| {
                in_url_userinfo(text, c.start, c.end)
                    || !nearby::stored_under_a_public_name(nearby::line_around(text, c.start))
            });
        }
        candidates
    }

    fn redact_once(&self, text: &str, found: &mut Vec<Found>) -> Option<String> {
        if text.is_empty() {
            return None;
        }
        let mut candidates = self.scan(text, None);
        if candidates.is_empty() {
            return None;
        }
        echoes(text, &mut candidates);

        // Merge overlapping spans, so that no part of any match survives;
        // the longest member (then the earliest rule) names the merged span.
        candidates.sort_unstable_by(|a, b| {
            a.start
                .cmp(&b.start)
                .then(b.end.cmp(&a.end))
                .then(a.rule.cmp(&b.rule))
        });
        let mut merged: Vec<(Candidate, usize)> = Vec::new();
        for c in candidates {
            if let Some((group, best_len)) = merged.last_mut()
                && c.start < group.end
            {
                group.end = group.end.max(c.end);
                let len = c.end - c.start;
                if len > *best_len || (len == *best_len && c.rule < group.rule) {
                    group.rule = c.rule;
                    *best_len = len;
                }
                continue;
            }
            merged.push((c, c.end - c.start));
        }

        let mut out = String::with_capacity(text.len() + 32 * merged.len());
        let mut last = 0;
        for (group, _) in merged {
            let (Some(before), Some(value), Some(rule)) = (
                text.get(last..group.start),
                text.get(group.start..group.end),
                self.rule_name(group.rule),
            ) else {
                continue;
            };
            let name = reference_name(rule, value);
            out.push_str(before);
            out.push_str(REFERENCE_PREFIX);
            out.push_str(&name);
            out.push('}');
            if !found.iter().any(|f| f.name == name) {
                found.push(Found {
                    name,
                    rule: rule.to_string(),
                    value: value.to_string(),
                });
            }
            last = group.end;
        }
        out.push_str(text.get(last..).unwrap_or_default());
        Some(out)
    }
}

/// A value shorter than this is not looked for elsewhere in the text: a short one could be
/// part of an ordinary word.
const ECHO_MIN: usize = 8;

/// Every other place in `text` where a value the rules found is written again, as a candidate
/// of the same rule. A secret recognised where it stands (`password=…`) is a secret wherever it
/// is repeated (an echo in a log, a second command line), where no rule would see it on its own.
fn echoes(text: &str, candidates: &mut Vec<Candidate>) {
    let mut values: Vec<(&str, usize)> = candidates
        .iter()
        .filter(|c| c.end - c.start >= ECHO_MIN)
        .filter_map(|c| Some((text.get(c.start..c.end)?, c.rule)))
        .collect();
    values.sort_unstable();
    values.dedup_by(|a, b| a.0 == b.0);
    let references = reference_spans(text);
    for (value, rule) in values {
        for start in shape::find_all(text.as_bytes(), value.as_bytes()) {
            let end = start + value.len();
            let known = candidates.iter().any(|c| c.start == start && c.end == end);
            let in_reference = references.iter().any(|&(s, e)| start < e && s < end);
            if !known && !in_reference {
                candidates.push(Candidate { start, end, rule });
            }
        }
    }
}

/// The references already in `text`, and `text` in ASCII lower case with
/// those references masked, for keyword and shape tests: a reference can
/// never be redacted again, yet `${secret:aws-secret-access-key-…}` is full
/// of keywords and even looks like an assignment (`secret:…`).
fn prepare(text: &str) -> (Vec<(usize, usize)>, Vec<u8>) {
    let references = reference_spans(text);
    let mut lowered = text.as_bytes().to_ascii_lowercase();
    for &(start, end) in &references {
        // A quote ends names, values and URLs in every shape test.
        lowered[start..end].fill(b'"');
    }
    (references, lowered)
}

/// Every accepted match of one rule in `text`, searched in `haystack`
/// (`text` itself or its lower-case copy).
#[expect(
    clippy::too_many_arguments,
    reason = "one rule's pass over one text: the rule, the text two ways, and what it yields"
)]
fn collect(
    index: usize,
    check: Check,
    compiled: &Compiled,
    text: &str,
    haystack: &[u8],
    references: &[(usize, usize)],
    out: &mut Vec<Candidate>,
    mut kept: Option<&mut Vec<String>>,
) {
    let mut locs = Locs(compiled.re.create_captures());
    // The backtracker's cache holds a bit per state and byte of the text (up to 256 KB). A
    // regex's own pool would keep one per rule for the life of the process; one made here is
    // freed before the next rule's, so a hook holds one at a time. A full build keeps its
    // pooled lazy-DFA cache, which long texts and long-lived processes reuse.
    let mut own_cache = compiled.lean.then(|| compiled.re.create_cache());
    let mut pos = 0;
    // A rejected match restarts the search at its value, which may hold an
    // assignment of its own (`auth_url: https://…?token=…`); the budget keeps
    // pathological inputs linear by falling back to plain iteration.
    let mut budget = text.len().saturating_mul(4).saturating_add(4096);
    while pos <= text.len() {
        let input = Input::new(haystack).range(pos..);
        match own_cache.as_mut() {
            Some(cache) => compiled.re.search_captures_with(cache, &input, &mut locs.0),
            None => compiled.re.search_captures(&input, &mut locs.0),
        }
        let Some(m) = locs.0.get_match() else {
            break;
        };
        let (match_start, match_end) = (m.start(), m.end());
        if check == Check::CallArguments {
            let (s, e) = compiled
                .secret_groups
                .iter()
                .find_map(|&g| locs.get(g))
                .unwrap_or((match_start, match_end));
            // A browser SDK is initialised with its public key (`filestack.init('…')`,
            // `LDClient.initialize("…")`); a client constructed from a value holds a secret.
            let callee = text
                .get(match_start..s)
                .unwrap_or_default()
                .to_ascii_lowercase();
            if callee.contains(".init(") || callee.contains(".initialize(") {
                pos = next_char_boundary(text, match_end.max(match_start + 1) - 1);
                continue;
            }
            for (vs, ve) in string_arguments(text, s, e) {
                let value = &text[vs..ve];
                if !references.iter().any(|&(rs, re)| vs < re && rs < ve)
                    && !plausible::public_or_demo(value, around(text, vs, ve))
                    && !plausible::names_itself_public(value)
                    // Or its comment says so (`// search-only API key`).
                    && !plausible::said_public(text.get(ve..).unwrap_or_default())
                    && !keyed_as_metadata(text, vs)
                    && plausible::plausible_call_argument(value)
                {
                    out.push(Candidate {
                        start: vs,
                        end: ve,
                        rule: index,
                    });
                }
            }
            pos = next_char_boundary(text, match_end.max(match_start + 1) - 1);
            continue;
        }
        let (start, mut end) = compiled
            .secret_groups
            .iter()
            .find_map(|&g| locs.get(g))
            .unwrap_or((match_start, match_end));
        let quoted = start > 0 && matches!(text.as_bytes()[start - 1], b'"' | b'\'' | b'`');
        if matches!(check, Check::Assignment | Check::Password) && !quoted {
            end = start + plausible::trim_bare_value(text.get(start..end).unwrap_or_default());
        }
        // `(?-u)` classes in user rules can split a character: such a span
        // is no valid value and is skipped rather than cut in two.
        let value = text.get(start..end).unwrap_or_default();
        // Nor a name inside a reference already made (`${secret:github-pat-1a2b3c4d}=…`,
        // Perl's `$ENV{…}` form): the reference names a rule, not this value.
        let accepted = !value.is_empty()
            && !references
                .iter()
                .any(|&(s, e)| start.min(match_start) < e && s < end)
            && accept(check, compiled, &locs, text, (start, end), quoted);
        if accepted {
            out.push(Candidate {
                start,
                end,
                rule: index,
            });
        } else if let Some(kept) = kept.as_deref_mut()
            // A separator a rule's value group reached (`","` between two JSON fields) is no
            // key anyone meant: only a value of some length is worth telling about.
            && value.len() >= 3
            && plausible::is_placeholder(value)
            && !kept.iter().any(|k| k == value)
        {
            kept.push(value.to_string());
        }
        budget = budget.saturating_sub(match_end.saturating_sub(pos).max(1));
        // After a secret, resume right behind it rather than behind the
        // match: a trimmed value may be followed by `&token=…`.
        let next = if accepted {
            end
        } else if budget == 0 {
            match_end
        } else {
            start
        };
        pos = if next > match_start {
            next
        } else {
            next_char_boundary(text, match_start)
        };
    }
}

/// A `key` or `name` attribute followed by a `value` one holds the setting's name, not its
/// value (`<add key="Billing:ApiKey" value="…" />`; `named-value-pair` reads the value).
/// `next` is the text after the value.
fn names_a_setting(text: &str, start: usize, next: &str) -> bool {
    let quote_closed = next.strip_prefix(['"', '\'']).unwrap_or(next);
    let rest_of = quote_closed.trim_start_matches([' ', '\t', ',']);
    (rest_of.starts_with("value=") || rest_of.starts_with("value:"))
        && text.get(..start).is_some_and(|before| {
            let before = before.trim_end_matches(['"', '\'']).trim_end();
            let before = before.strip_suffix(['=', ':']).unwrap_or(before).trim_end();
            ["key", "name"].iter().any(|w| {
                before.strip_suffix(w).is_some_and(|head| {
                    !head.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                })
            })
        })
}

/// A login's argument (`Check::LoginArgument`): long and random, and not the value of the last
/// flag before it when that flag names an identifier (`--service-key-id UUID`).
/// A signing query parameter's value: random; under a one-letter `s` (an image CDN's), only a
/// hex digest, as `s` is as often a size or a search.
fn url_signature(compiled: &Compiled, locs: &Locs, text: &str, value: &str) -> bool {
    let lone_s = compiled
        .name_groups
        .iter()
        .find_map(|&g| locs.get(g))
        .and_then(|(a, b)| text.get(a..b))
        .is_some_and(|n| n.eq_ignore_ascii_case("s"));
    !plausible::is_placeholder(value)
        && value.len() >= 16
        && plausible::looks_random(value)
        && (!lone_s
            || (32..=64).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn login_argument(compiled: &Compiled, locs: &Locs, text: &str, value: &str) -> bool {
    let flags = Compiled::group(compiled.name_groups.first().copied(), locs, text);
    let last_flag = flags.and_then(|f| f.split_whitespace().rfind(|w| w.starts_with('-')));
    // A UUID right after a flag that names no credential is what the flag names (`az login
    // --tenant 4af3…`: the directory signed in to), not the login's token; after the flag's
    // own value (`cargo login --registry NAME 5121d2fa-…`) it is the token.
    let right_after = flags
        .and_then(|f| f.split_whitespace().last())
        .is_some_and(|w| w.starts_with('-'));
    let id_flag =
        |f: &str| plausible::is_uuid(value) && right_after && !plausible::names_a_credential(f);
    plausible::plausible_login_argument(value)
        && !last_flag
            .is_some_and(|f| plausible::name_rules_out(f.trim_start_matches('-')) || id_flag(f))
}

fn accept(
    check: Check,
    compiled: &Compiled,
    locs: &Locs,
    text: &str,
    (start, end): (usize, usize),
    quoted: bool,
) -> bool {
    let value = text.get(start..end).unwrap_or_default();
    if check == Check::PrivateKey {
        let ended = text.get(end..).is_some_and(|rest| {
            rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\\' || c == 'n')
                .starts_with("-----END")
        });
        return plausible::plausible_key_body_in(value, ended);
    }
    if said_or_known_public(text, start, end) || url_port(text, start) {
        return false;
    }
    // A word followed by a template is a header's scheme (`Authorization: GenieKey $KEY`,
    // `Zoho-oauthtoken {{access_token}}`), and a word followed by `(` a call's name
    // (`new AuthenticationHeaderValue(…)`).
    let next = text.get(end..).unwrap_or_default();
    let after_blank = next.trim_start_matches([' ', '\t']);
    if next.starts_with('(')
        || after_blank.len() < next.len()
            && after_blank.starts_with(['$', '{', '[', '%'])
            && !value.bytes().any(|b| b.is_ascii_digit())
    {
        return false;
    }
    if names_a_setting(text, start, next) {
        return false;
    }
    // Inside a template's braces (`'{{resolve:secretsmanager:prod/db:SecretString:password}}'`)
    // a value is the template's, not a secret.
    let line_before = text
        .get(..start)
        .unwrap_or_default()
        .rsplit('\n')
        .next()
        .unwrap_or_default();
    if line_before
        .rfind("{{")
        .is_some_and(|open| line_before.rfind("}}").is_none_or(|close| close < open))
    {
        return false;
    }
    // A value that goes on into a placeholder is one (`eyJ….eyJ….<signature>`); a closing
    // tag (`</password>`) is markup around it.
    let rest = text.get(end..).unwrap_or_default();
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    if rest.starts_with('<')
        && rest[1..].starts_with(|c: char| c.is_ascii_alphabetic())
        && rest
            .get(..rest.len().min(48))
            .and_then(|r| r.find('>'))
            .is_some_and(|close| plausible::is_placeholder(&rest[..=close]))
    {
        return false;
    }
    if in_data_uri(text, start) || weak_entity_tag(text, start) {
        return false;
    }
    match check {
        Check::Exact | Check::PrivateKey => !plausible::is_placeholder(value),
        Check::SecretBlock => !plausible::is_placeholder(value) && !public_block(text, start),
        Check::Login => plausible_login(compiled, locs, text, value),
        Check::Token => plausible_token(compiled, locs, text, value),
        Check::Signature => url_signature(compiled, locs, text, value),
        Check::Password => plausible::plausible_password(value),
        Check::PrefixedToken => {
            plausible::plausible_prefixed_token(value)
                && !keyed_as_id(text, start)
                && !prefix_keyed_as_id(text, value)
                && !plausible::served_to_browsers(text, start)
        }
        Check::LoginArgument => login_argument(compiled, locs, text, value),
        // Judged per argument where the match is read (`string_arguments`).
        Check::CallArguments => false,
        Check::Header => plausible_header(compiled, locs, text, value),
        Check::UserPassword => {
            let user = Compiled::group(compiled.user_group, locs, text);
            !plausible::is_placeholder(value) && user != Some(value)
        }
        Check::Assignment => plausible_assigned(compiled, locs, text, value, quoted, start),
    }
}

/// An assignment's value judged by its name (`API_KEY=…`), or a `user:password` pair's.
fn plausible_assigned(
    compiled: &Compiled,
    locs: &Locs,
    text: &str,
    value: &str,
    quoted: bool,
    start: usize,
) -> bool {
    let name = compiled.name_groups.iter().find_map(|&g| locs.get(g));
    if let Some((name_start, name_end)) = name {
        let name = full_name(text, name_start, name_end);
        // A URI's scheme (`otpauth://totp/…?issuer=…`) names what the URI carries: a
        // credential in its query (`…?data=CjcKFNhk…`), if it holds one.
        if text[name_end..].starts_with("://") {
            let how = written(compiled, locs, text, quoted);
            return query_holds_credential(name, value, how);
        }
        if !plausible::names_a_credential(name)
            || plausible::served_to_browsers(text, start)
            || an_id_elsewhere(text, value)
            || plausible::tagged_ciphertext(value)
        {
            return false;
        }
        // A URL's query parameter (`…/message?token=A8Mi.Js4nj0xMpB`): `&` or the URL's
        // end closes it, so a shorter generated value counts.
        let in_query = name_start > 0
            && matches!(text.as_bytes()[name_start - 1], b'?' | b'&')
            && text[..name_start]
                .rsplit(char::is_whitespace)
                .next()
                .is_some_and(|t| t.contains("://"));
        !config_key_named(value)
            && (plausible::plausible_assignment(name, value, written(compiled, locs, text, quoted))
                || in_query && plausible::query_token(value))
    } else {
        let user = Compiled::group(compiled.user_group, locs, text);
        !plausible::is_placeholder(value)
            && !plausible::is_number(value)
            && user != Some(value)
            // `-u rediss://user@host`: an address, its scheme read as a user.
            && !value.starts_with("//")
    }
}

/// A configuration key's name in a project's namespace (`pulumi config set --secret
/// acme:apiToken`): what the secret is stored under, not the secret.
fn config_key_named(value: &str) -> bool {
    let Some((ns, key)) = value.split_once(':') else {
        return false;
    };
    !ns.is_empty()
        && ns
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_'))
        && key.starts_with(|c: char| c.is_ascii_lowercase())
        && key.bytes().all(|b| b.is_ascii_alphanumeric())
        && (plausible::camel_words(key) || plausible::names_a_credential(key))
}

/// Whether a URI's query holds a value its scheme's name would call a credential, judged with
/// its percent escapes undone (`Acme%20Co` is two words).
fn query_holds_credential(name: &str, uri: &str, how: plausible::Written) -> bool {
    let query = uri.split_once('?').map_or("", |(_, q)| q);
    query
        .split('&')
        .filter_map(|p| p.split_once('='))
        .any(|(_, v)| plausible::plausible_assignment(name, &unescaped(v), how))
}

/// A query value with its percent escapes undone (`%20` a space, `%2B` a `+`).
fn unescaped(v: &str) -> String {
    let b = v.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let byte = (b[i] == b'%')
            .then(|| v.get(i + 1..i + 3))
            .flatten()
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        if let Some(c) = byte {
            out.push(c);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether the value at `start` is a field named for an identifier (`"id": "job_e4b2…"`,
/// `customer_id=cus_7072…`, `"LocationId": "loc_…"`): a record's id carries a type prefix and
/// a random body as a token does, and is no secret. A key's own name says key or token.
fn keyed_as_id(text: &str, start: usize) -> bool {
    field_name_before(text, start)
        .or_else(|| label_before(text, start))
        .is_some_and(|name| {
            text::words(name)
                .last()
                .is_some_and(|w| matches!(w.as_str(), "id" | "ids" | "uuid" | "guid"))
        })
}

/// The one word a command's table or report prints before the value on its line, set apart
/// by a tab or a wider gap (`  id\t\tdpl_4E70…`, `ID:   …` is a field).
fn label_before(text: &str, start: usize) -> Option<&str> {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..start];
    let label = before.trim();
    let gap = &before[before.trim_end().len()..];
    let apart = gap.contains('\t') || gap.len() >= 2;
    (apart && !label.is_empty() && !label.contains(char::is_whitespace)).then_some(label)
}

/// Whether the text itself shows the token's prefix as an id's: another value with the same
/// prefix stands in a field named for an id (Insomnia's `"_id": "req_03e0…"` beside a template
/// that cites another request, `{% response 'body', 'req_40b2…' %}`). Vendors give records and
/// keys different prefixes, and a record's id is no secret wherever it is cited.
fn prefix_keyed_as_id(text: &str, value: &str) -> bool {
    let Some(sep) = value.find(['_', '-']) else {
        return false;
    };
    let prefix = &value[..=sep];
    text.match_indices(prefix).any(|(at, _)| {
        let standalone = at == 0 || !text.as_bytes()[at - 1].is_ascii_alphanumeric();
        standalone && keyed_as_id(text, at)
    })
}

/// Whether the value at `at` stands inside an object named for keys that
/// verify or are public (Matrix's `"verify_keys": {"ed25519:…": {"key": "…"}}`, `"public_keys":
/// {…}`): a key there is what others check a signature with. Two levels of nesting are looked
/// at, within a few hundred bytes.
fn inside_public_keys(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let floor = at.saturating_sub(400);
    let (mut depth, mut levels, mut i) = (0usize, 0, at);
    while i > floor && levels < 2 {
        i -= 1;
        match b[i] {
            b'}' => depth += 1,
            b'{' if depth > 0 => depth -= 1,
            b'{' => {
                levels += 1;
                if field_name_before(text, i).is_some_and(|name| {
                    let words = text::words(name);
                    let keys = words.iter().any(|w| matches!(w.as_str(), "key" | "keys"));
                    keys && words
                        .iter()
                        .any(|w| matches!(w.as_str(), "verify" | "verification" | "public" | "pub"))
                }) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// The name of the field whose value starts at `start` (`"x-api-key": "…`, `token=…`), back
/// over a quote, blanks and the `:` or `=` between: `None` when no operator stands there.
fn field_name_before(text: &str, start: usize) -> Option<&str> {
    let before = text.get(..start).unwrap_or_default();
    let before = before
        .trim_end_matches(['"', '\''])
        .trim_end_matches([' ', '\t']);
    let before = before.strip_suffix([':', '='])?;
    let before = before
        .trim_end_matches([' ', '\t'])
        .trim_end_matches(['"', '\'']);
    let b = before.as_bytes();
    let mut s = b.len();
    while s > 0 && (b[s - 1].is_ascii_alphanumeric() || matches!(b[s - 1], b'_' | b'-')) {
        s -= 1;
    }
    (s < b.len()).then(|| &before[s..])
}

/// A token rule's match: not an id its name's case calls one, not filler, random, no words.
fn plausible_token(compiled: &Compiled, locs: &Locs, text: &str, value: &str) -> bool {
    // A name read in lower case (`nsid`) that its own case splits into an `…Id`
    // (`nsId`): an id, not a session cookie's `sid`.
    let name = compiled
        .name_groups
        .iter()
        .find_map(|&g| locs.get(g))
        .and_then(|(s, e)| text.get(s..e));
    if name.is_some_and(|n| {
        let words = text::words(n);
        words.last().is_some_and(|w| w == "id") && !words.iter().any(|w| w.starts_with("sess"))
    }) {
        return false;
    }
    // `<bot id>:<token>`: a numeric id is no filler, whatever its digits.
    let token = match value.split_once(':') {
        Some((id, token)) if id.bytes().all(|b| b.is_ascii_digit()) => token,
        _ => value,
    };
    // A resource's id: its type in two capitals, then 32 hex digits (a message's `SM1e2a…`,
    // an account's `AC…`), as messaging APIs print them in logs and webhooks.
    let typed_id = plausible::typed_resource_id(value);
    // A code path (`ProcessInfo.processInfo.environment`): words joined by dots, each an
    // identifier, where the code reads the value from.
    let code_path = value.contains('.')
        && value
            .split('.')
            .all(|p| p.len() >= 2 && p.bytes().all(|b| b.is_ascii_alphabetic()));
    !plausible::is_placeholder(token)
        && !typed_id
        && !code_path
        && plausible::looks_random(value)
        && !plausible::camel_words(value)
        && !plausible::encodes_prose(value)
        && !plausible::encodes_compressed(value)
}

/// `user:password@host`'s password, unless the user is a scheme (`mailto:`), a property's name
/// before an identifier, or the password a factory default or a placeholder.
fn plausible_login(compiled: &Compiled, locs: &Locs, text: &str, value: &str) -> bool {
    let user = Compiled::group(compiled.user_group, locs, text);
    // A scheme before the address (`mailto:Jo.Doe@x`) is no login.
    let scheme = user.is_some_and(|u| {
        [
            "mailto", "sip", "sips", "tel", "xmpp", "acct", "urn", "news", "irc",
        ]
        .iter()
        .any(|s| u.eq_ignore_ascii_case(s))
    });
    // A property's name before a UUID made unique by a domain (an iCalendar `UID:…@host`,
    // a `Message-ID`) is an identifier, not a login.
    // So is one made of words and numbers (`UID:indico-event-1187@events.example`).
    let words_and_numbers = value.split(['-', '.', '_']).all(|p| {
        !p.is_empty()
            && (p.bytes().all(|b| b.is_ascii_lowercase()) || p.bytes().all(|b| b.is_ascii_digit()))
    }) && value
        .split(['-', '.', '_'])
        .any(|p| p.len() >= 3 && p.bytes().all(|b| b.is_ascii_lowercase()));
    let property_id = (plausible::is_uuid(value) || words_and_numbers)
        && user.is_some_and(|u| !u.bytes().any(|b| b.is_ascii_lowercase()));
    // An image's tag before its digest (`python:3.12-slim@sha256:07e9…`) is no password.
    let digest = compiled
        .secret_groups
        .iter()
        .find_map(|&g| locs.get(g))
        .is_some_and(|(_, end)| text.get(end..).is_some_and(|rest| rest.starts_with("@sha")));
    // A login's documented default spelt with digits for letters (`PASSW0RD`,
    // `P@ssw0rd`, `adm1n`) is the factory's, not a secret.
    !scheme
        && !property_id
        && !digest
        && !plausible::leet_default(value)
        && !plausible::is_placeholder(value)
        && plausible::looks_random(value)
}

/// Whether the value at `start` follows a digest algorithm's name as its parameter (`md5=`).
fn digest_named_before(text: &str, start: usize) -> bool {
    let before = text.get(..start).unwrap_or_default();
    let tail = before
        .get(before.len().saturating_sub(8)..)
        .unwrap_or_default();
    let tail = tail.to_ascii_lowercase();
    ["md5=", "sha1=", "sha256=", "hash=", "md5%3d"]
        .iter()
        .any(|n| tail.ends_with(n))
}

/// Whether the span `start..end` of `text` holds no secret by what surrounds it, for every
/// rule and scanner alike: public by design or a published demo, named public before it or
/// in a comment after it, or the name of a secret kept elsewhere.
fn said_or_known_public(text: &str, start: usize, end: usize) -> bool {
    let value = text.get(start..end).unwrap_or_default();
    // A value in crypt's format is a stored hash, except where a field named for a key or a
    // token sends it (`"x-api-key": "$2a$10$…"`: some services issue keys in that shape).
    // A hash in the PHC format states its parameters (`$argon2id$v=19$m=…`): never a key.
    let sent_as_key = || {
        plausible::crypt_format(value)
            && !value.contains('=')
            && field_name_before(text, start).is_some_and(|name| {
                text::words(name)
                    .last()
                    .is_some_and(|w| matches!(w.as_str(), "key" | "token" | "apikey"))
            })
    };
    (plausible::public_or_demo(value, around(text, start, end)) && !sent_as_key())
        || plausible::store_reference(text.get(..start).unwrap_or_default(), value)
        || plausible::public_context(text.get(..start).unwrap_or_default())
            && !signed_jwt_in_a_page(text, start, value)
            // (Nor a private key in base64 PEM, `data-tls-key="LS0tLS1CRUdJTiBFQyBQUklW…"`:
            // what it decodes to says what it is.)
            && !nearby::encodes_a_secret_key(value)
            && !named_private(text, start)
            // (Nor a key pair's secret half beside its public one, `data-chill-room="…"`
            // after `data-brand-stamp="nbp_pub_…"`: a page that ships it leaks it.)
            && !crate::halves::secret_halves(text).contains(&(start, end))
        || plausible::said_public(text.get(end..).unwrap_or_default())
        || plausible::comment_above_says_public(text.get(..start).unwrap_or_default())
        || plausible::documented_example(text.get(..start).unwrap_or_default())
        || plausible::names_a_stored_secret(text, start)
        || inside_public_keys(text, start)
        || nearby::tink_key_values(text, true).contains(&(start, end))
        || under_a_signature_comment(text, start)
        || under_encrypted_data(text, start)
        || digest_of_a_credential(text, start)
        || named_public_by_its_prefix(value)
        || printed_digest_file(text, start)
}

/// A key whose own prefix says it is public, in words (`k3.public.…`) or as a type tag before
/// the key's curve (`PUB_K1_7jgC…`, an EOS account's key): the format names itself, as a PEM
/// armour's `PUBLIC KEY` does. (A service's `pub_…` API key is its own brand, no such tag.)
fn named_public_by_its_prefix(value: &str) -> bool {
    // Bech32 whose part before its `1` ends in a public key's kind (`ed25519_pk1…`,
    // `acct_xvk1…`, `…_vkey1…`).
    if let Some((hrp, data)) = value.rsplit_once('1')
        && data.len() >= 20
        && hrp
            .rsplit(['_', '-'])
            .next()
            .is_some_and(|k| matches!(k, "pk" | "vk" | "xvk" | "pub" | "xpub" | "vkey"))
        && hrp.contains(['_', '-'])
    {
        return true;
    }
    let mut parts = value.split(['_', '.', '-']);
    let (Some(first), Some(second)) = (parts.next(), parts.next()) else {
        return false;
    };
    value.len() >= 20
        && !signed_claims(value)
        && (first.eq_ignore_ascii_case("public")
            || second.eq_ignore_ascii_case("public")
            || first == "PUB"
                && (1..=3).contains(&second.len())
                && second
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit()))
}

/// A token whose body is its claims followed by their signature (`v4.public.eyJpc3Mi…`, a
/// PASETO a server signed): "public" says how it is signed, and whoever holds it is who the
/// claims name. A public key's body is only the key (`k3.public.AhBd…`, 33 bytes).
fn signed_claims(value: &str) -> bool {
    value.split('.').any(|part| {
        part.len() > 100
            && plausible::base64_decode(part)
                .is_some_and(|b| b.starts_with(b"{\"") && b.len() > 64 + 8)
    })
}

/// Whether the value at `start` is what a command printed that names a digest (`$ cat
/// …/acme.1.15.0.nupkg.sha512`, `$ jq '….sha512' …`): the command is the nearest line above,
/// within five, that starts with a prompt; a package's checksum is published beside it.
fn printed_digest_file(text: &str, start: usize) -> bool {
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    if line_start == 0 {
        return false;
    }
    let Some(command) = text[..line_start - 1]
        .rsplit('\n')
        .take(5)
        .find(|l| l.starts_with("$ "))
    else {
        return false;
    };
    // (A field's name in camel case too: `jq -r .contentHash`, NuGet's package digest.)
    command
        .split(|c: char| !c.is_ascii_alphanumeric())
        .flat_map(text::words)
        .any(|w| {
            matches!(
                w.as_str(),
                "sha1"
                    | "sha256"
                    | "sha384"
                    | "sha512"
                    | "md5"
                    | "integrity"
                    | "checksum"
                    | "hash"
                    | "digest"
            )
        })
}

/// Whether the name the value at `start` follows says it is a digest of something (`sha256 of
/// new token: 05d9…`, `fingerprint of the key =`): a credential's hash is published to
/// check it against, not to use it.
fn digest_of_a_credential(text: &str, start: usize) -> bool {
    let before = text.get(..start).unwrap_or_default();
    let line = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
    let mut from = line.len().saturating_sub(64);
    while !line.is_char_boundary(from) {
        from += 1;
    }
    let tail = &line[from..];
    if !["sha", "md5", "fingerprint", "digest", "checksum", "hash"]
        .iter()
        .any(|w| nearby::contains_any_case(tail, w.as_bytes()))
    {
        return false;
    }
    let words: Vec<String> = tail
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let digest = |w: &str| {
        matches!(
            w.replace('-', "").as_str(),
            "sha1" | "sha256" | "sha512" | "md5" | "hash" | "digest" | "fingerprint" | "checksum"
        )
    };
    let last = words.len().saturating_sub(5);
    words
        .windows(2)
        .skip(last)
        .any(|w| w[1] == "of" && digest(&w[0]))
        // Or named so right before it (`token fingerprint (sha256): 4a68…`).
        || tail.trim_end().ends_with(':') && words.iter().rev().take(2).any(|w| digest(w))
}

/// Whether the value at `start` is a URL's port after its host (`…@db.deskpass.com:32010/app`):
/// a host whose name holds a credential's word (`deskpass`) is no key.
fn url_port(text: &str, start: usize) -> bool {
    let Some(before) = text.get(..start).and_then(|b| b.strip_suffix(':')) else {
        return false;
    };
    let host = before
        .rsplit(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '='))
        .next()
        .unwrap_or_default();
    let port = text[start..].bytes().take_while(u8::is_ascii_digit).count();
    (host.contains("://") || host.contains('@'))
        && (1..=5).contains(&port)
        && text[start + port..]
            .bytes()
            .next()
            .is_none_or(|c| matches!(c, b'/' | b'?' | b'"' | b'\'' | b' ' | b'\n'))
}

/// Whether a page's `data-` attribute the value stands in names it private or secret
/// (`data-private-key`, `data-secret`): a page that ships it leaks it.
fn named_private(text: &str, start: usize) -> bool {
    field_name_before(text, start).is_some_and(|name| {
        name.to_ascii_lowercase().starts_with("data-")
            && text::words(name).iter().any(|w| {
                matches!(
                    w.as_str(),
                    "private" | "priv" | "privkey" | "secret" | "password" | "passphrase"
                )
            })
    })
}

/// A signed JWT a page hands its script in a `data-` attribute (`data-src="eyJ…"`,
/// `data-auth`): a page's widget keys there are public, a bearer's token is not.
fn signed_jwt_in_a_page(text: &str, start: usize, value: &str) -> bool {
    plausible::signed_jwt(value)
        && field_name_before(text, start)
            .is_some_and(|name| name.to_ascii_lowercase().starts_with("data-"))
}

/// Whether the value at `at` is a setting of a mapping named for ciphertext (a Bitnami
/// `SealedSecret`'s `encryptedData:`, an `encrypted:` block): sealed with a public key, only the
/// cluster's controller opens it, so the value as written grants nothing.
fn under_encrypted_data(text: &str, at: usize) -> bool {
    if !nearby::contains_any_case(text, b"encrypted") {
        return false;
    }
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let indent = |line: &str| line.len() - line.trim_start_matches([' ', '\t']).len();
    let own = indent(&text[line_start..at]);
    // Up the lines above, to the first less indented: the mapping this setting is in.
    text[..line_start]
        .lines()
        .rev()
        .filter(|l| !l.trim().is_empty())
        .find(|l| indent(l) < own)
        .is_some_and(|parent| {
            let key = parent.trim().trim_end_matches(':').to_ascii_lowercase();
            parent.trim_end().ends_with(':')
                && (key.contains("encrypted") || key.contains("ciphertext"))
        })
}

/// A minisign or signify file's line under its comment (Tauri's updater `.sig`): after
/// `trusted comment:` the global signature, after an `untrusted comment:` that says
/// `signature` or `public key` a signature or a key others verify with. (After `untrusted
/// comment: minisign encrypted secret key` it is the secret key, and stays one.)
fn under_a_signature_comment(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    if line_start == 0 || text[line_start..at].trim() != "" {
        return false;
    }
    let before = text[..line_start - 1].trim_end_matches('\r');
    let comment = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
    let lower = comment.to_ascii_lowercase();
    lower.starts_with("trusted comment:")
        || lower.starts_with("untrusted comment:")
            && (lower.contains("signature") || lower.contains("public key"))
}

/// How an assignment's value was written.
fn written(compiled: &Compiled, locs: &Locs, text: &str, quoted: bool) -> plausible::Written {
    let op = Compiled::group(compiled.op_group, locs, text);
    if op.is_none() && compiled.op_group.is_some() {
        // Without its operator, an assignment is `name "value"` or
        // `getenv("name", "value")`. Markup, netrc and flag rules have no
        // operator group: their value sits where the format puts it.
        plausible::Written::QuotedLoose
    } else if quoted {
        plausible::Written::Quoted
    } else {
        plausible::Written::Bare
    }
}

/// Whether `value` is also given in the text as an id, a user or a name (`<user
/// id="gamecheck-ivr">` above `vm-password value="gamecheck-ivr"`): a default that repeats an
/// identifier everyone sees is no secret.
fn an_id_elsewhere(text: &str, value: &str) -> bool {
    value.len() >= 3
        && ["id=", "user=", "username=", "name=", "login="]
            .iter()
            .any(|k| {
                ['"', '\''].iter().any(|q| {
                    let needle = format!("{k}{q}{value}{q}");
                    text.match_indices(&needle).any(|(at, _)| {
                        at == 0
                            || !text.as_bytes()[at - 1].is_ascii_alphanumeric()
                                && text.as_bytes()[at - 1] != b'_'
                                && text.as_bytes()[at - 1] != b'-'
                    })
                })
            })
}

/// The whole name of an assignment: the regex's `name` group starts at its
/// keyword (`key` in `MyServiceApiKeyProd`), the judgement needs the rest.
fn full_name(text: &str, start: usize, end: usize) -> &str {
    let bytes = text.as_bytes();
    let mut s = start;
    while s > 0
        && (bytes[s - 1].is_ascii_alphanumeric()
            || matches!(bytes[s - 1], b'_' | b'.' | b'-' | b'$'))
    {
        s -= 1;
    }
    text.get(s..end).unwrap_or_default()
}

/// The text around a match that decides whether a token is public by
/// design: a few hundred bytes either side.
/// The spans of the quoted strings in `text[start..end]` (`'…'`, `"…"`; a backslash escapes).
fn string_arguments(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let end = end.min(b.len());
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        let q = b[i];
        if q == b'"' || q == b'\'' {
            let open = i + 1;
            let mut j = open;
            while j < end && b[j] != q && b[j] != b'\n' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            if j < end && b[j] == q && text.is_char_boundary(open) && text.is_char_boundary(j) {
                out.push((open, j));
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// Whether the string whose text starts at `at` is an entry's value under a key that says it
/// is no credential (`'CALENDAR_ASSET_HASH': '…'`, `release => '…'` among a secret's inputs).
fn keyed_as_metadata(text: &str, at: usize) -> bool {
    let before = text
        .get(..at.saturating_sub(1))
        .unwrap_or_default()
        .trim_end();
    let Some(before) = before
        .strip_suffix("=>")
        .or_else(|| before.strip_suffix(':'))
        .or_else(|| before.strip_suffix('='))
    else {
        return false;
    };
    let before = before.trim_end().trim_end_matches(['"', '\'']);
    let start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = &before[start..];
    !name.is_empty() && plausible::name_rules_out(name)
}

fn around(text: &str, start: usize, end: usize) -> &str {
    let mut s = start.saturating_sub(300);
    while !text.is_char_boundary(s) {
        s -= 1;
    }
    let mut e = (end + 300).min(text.len());
    while !text.is_char_boundary(e) {
        e += 1;
    }
    &text[s..e]
}

fn next_char_boundary(text: &str, i: usize) -> usize {
    (i + 1..=text.len())
        .find(|&j| text.is_char_boundary(j))
        .unwrap_or(text.len() + 1)
}

/// Whether `at` is inside the payload of a `data:` URI (`data:image/png;base64,…`): an asset (an
/// image, a font) in base64, whatever its length, and so is any run inside it.
pub(crate) fn in_data_uri(text: &str, at: usize) -> bool {
    let before = &text[..at];
    before.rfind(";base64,").is_some_and(|open| {
        before[open + 8..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
    })
}

/// Whether the value at `at` opens a weak entity tag (`ETag: W/"ef4e…"`): a validator the
/// server derives from the content and sends with every response.
fn weak_entity_tag(text: &str, at: usize) -> bool {
    let before = text.get(..at).unwrap_or_default();
    before.ends_with("W/\"") || before.ends_with("W/\\\"")
}

/// Spans of well-formed references already in `text`: `${secret:` + a name
/// ending in `-` and 8 lower-case hex digits + `}`. Nothing overlapping them
/// is redacted again.
fn reference_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    for start in shape::find_all(bytes, REFERENCE_PREFIX.as_bytes()) {
        let name_start = start + REFERENCE_PREFIX.len();
        let rest = &bytes[name_start..];
        let name_len = rest
            .iter()
            .take(129)
            .take_while(|&&b| {
                b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-'
            })
            .count();
        if rest.get(name_len) == Some(&b'}') && is_reference_name(&rest[..name_len]) {
            spans.push((start, name_start + name_len + 1));
        }
    }
    spans
}

fn is_reference_name(name: &[u8]) -> bool {
    name.len() >= 10
        && name[name.len() - 9] == b'-'
        && name[name.len() - 8..]
            .iter()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
}

/// `<rule>-<first 8 hex digits of sha256(value)>`.
fn reference_name(rule: &str, value: &str) -> String {
    let digest = Sha256::digest(value.as_bytes());
    let mut name = String::with_capacity(rule.len() + 9);
    name.push_str(rule);
    name.push('-');
    for byte in digest.iter().take(4) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        name.push(char::from(HEX[usize::from(byte >> 4)]));
        name.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    name
}

fn sanitize_rule_name(name: &str) -> String {
    let cleaned: String = name
        .trim()
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect();
    // Long names would make references unwieldy and, past the length that
    // `reference_spans` scans, unrecognisable.
    let cleaned: String = cleaned.trim_matches('-').chars().take(64).collect();
    let cleaned = cleaned.trim_end_matches('-');
    if cleaned.is_empty() {
        "custom".to_string()
    } else {
        cleaned.to_string()
    }
}

#[cfg(test)]
mod tests;

/// A header's value, judged by the header's name.
fn plausible_header(compiled: &Compiled, locs: &Locs, text: &str, value: &str) -> bool {
    compiled
        .name_groups
        .iter()
        .find_map(|&g| locs.get(g))
        .and_then(|(s, e)| text.get(s..e))
        .is_some_and(|name| plausible::plausible_header_value(name, value))
}

/// Whether the armoured block whose body starts at `start` has a label that says it is public
/// (`-----BEGIN NEBULA X25519 PUBLIC KEY-----`, `PGP PUBLIC KEY BLOCK`), or private, which
/// `private-key` reads.
fn public_block(text: &str, start: usize) -> bool {
    let before = text.get(..start).unwrap_or_default();
    before.rfind("-----BEGIN").is_some_and(|at| {
        let label = &before[at + 10..];
        let label = label.split("-----").next().unwrap_or(label);
        let label = label.to_ascii_uppercase();
        label.contains("PUBLIC") || label.contains("PRIVATE")
    })
}
