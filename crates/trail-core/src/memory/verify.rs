//! The no-fabrication verifier: every bullet of core memory must be supported by its sources.
//!
//! A bullet is supported when (1) its content words overlap one source line enough
//! ([`MIN_OVERLAP`]), and (2) every number, path, identifier and quoted string in it appears
//! verbatim in that line's file. Its `(src: memory/DATE.md#Lnn)` reference is checked; a bullet
//! without one is given the supporting line as its source. Source lines are found through an
//! inverted index, so the cost grows with the bullets, not with bullets × source lines.

#![expect(
    clippy::cast_possible_truncation,
    reason = "file, line and word ids are u32 to halve the index; core memory and its sources are capped far below 2^32 lines"
)]

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use serde::Serialize;

/// The share of a bullet's content words that one source line must contain.
pub const MIN_OVERLAP: f64 = 0.5;

/// Sorted: looked up by binary search, some 600 000 times a run.
const STOP: &[&str] = &[
    "all", "also", "and", "any", "are", "but", "can", "for", "from", "had", "has", "have", "into",
    "its", "more", "most", "must", "not", "off", "one", "only", "onto", "our", "out", "per",
    "should", "than", "that", "the", "their", "them", "then", "they", "this", "too", "two", "use",
    "used", "uses", "very", "via", "was", "were", "when", "will", "with", "you", "your",
];

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Supported by the line its reference names.
    Verified,
    /// Supported, but by another line than its reference (or it had none): the source is given.
    Sourced,
    /// Not supported: the reason says what is missing.
    Unsupported,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Check {
    /// 1-based line in MEMORY.md.
    pub line: usize,
    pub text: String,
    pub cited: Option<String>,
    /// The source that supports it (`memory/DATE.md#Lnn`).
    pub source: Option<String>,
    pub verdict: Verdict,
    pub why: Option<String>,
}

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric() && c != '_')
        .filter(|w| w.chars().count() >= 3)
        .map(str::to_lowercase)
        .filter(|w| STOP.binary_search(&w.as_str()).is_err())
        .collect()
}

/// The words the verifier compares (lowercase, 3+ characters, no stop words).
pub(crate) fn content_words(s: &str) -> Vec<String> {
    words(s)
}

/// Numbers, paths, identifiers and quoted strings: what must appear verbatim.
pub fn exact_items(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    // Quoted strings first (their insides are not split further).
    let mut rest = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if matches!(c, '"' | '`' | '“') {
            let close = if c == '“' { '”' } else { c };
            let inner: String = chars.by_ref().take_while(|&x| x != close).collect();
            if !inner.trim().is_empty() {
                out.push(inner);
            }
        } else {
            rest.push(c);
        }
    }
    for tok in rest.split(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '[' | ']' | '{' | '}')
    }) {
        let t = tok
            .trim_end_matches(['.', ':', '!', '?'])
            .trim_start_matches(['.', ':']);
        if t.is_empty() || t.starts_with("src:") {
            continue;
        }
        let has_digit = t.chars().any(|c| c.is_ascii_digit());
        let path = t.contains('/')
            || (t.contains('.')
                && t.chars().last().is_some_and(char::is_alphanumeric)
                && !t.ends_with('.'));
        let ident = t.contains('_')
            || t.contains("::")
            || (t.chars().next().is_some_and(char::is_lowercase)
                && t.chars().skip(1).any(char::is_uppercase));
        if has_digit || path || ident {
            out.push(t.to_string());
        }
    }
    out
}

/// Split `- text (src: ref)` into text and reference.
fn bullet(line: &str) -> Option<(String, Option<String>)> {
    let b = line.trim_start().strip_prefix("- ")?;
    if let Some(i) = b.rfind("(src:") {
        let reference = b[i + 5..].trim().trim_end_matches(')').trim().to_string();
        return Some((b[..i].trim().to_string(), Some(reference)));
    }
    Some((b.trim().to_string(), None))
}

/// A source file: its name as cited (`memory/2026-11-25.md`) and its text.
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// FxHash: the word interner hashes some 600 000 short words per run, and SipHash's protection
/// against chosen collisions buys nothing here but time (the texts are the project's own
/// memory files; the worst a crafted file can do is slow its own check down).
#[derive(Default, Clone, Copy)]
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
            self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Calls `f` with each content word of `s`, exactly as [`words`] yields them, without
/// allocating for the common (ASCII, lowercase) case.
fn for_each_word(s: &str, buf: &mut String, mut f: impl FnMut(&str)) {
    for tok in s.split(|c: char| !c.is_alphanumeric() && c != '_') {
        // Three characters take at least three bytes.
        if tok.len() < 3 {
            continue;
        }
        let ascii = tok.is_ascii();
        if !ascii && tok.chars().count() < 3 {
            continue;
        }
        let w: &str = if !ascii {
            *buf = tok.to_lowercase();
            buf
        } else if tok.bytes().any(|b| b.is_ascii_uppercase()) {
            buf.clear();
            buf.extend(tok.bytes().map(|b| char::from(b.to_ascii_lowercase())));
            buf
        } else {
            tok
        };
        if STOP.binary_search(&w).is_err() {
            f(w);
        }
    }
}

/// Check every bullet of `memory` against `sources`.
pub fn verify(memory: &str, sources: &[Source<'_>]) -> Vec<Check> {
    let index = SourceIndex::build(sources);
    let mut ranker = Ranker::new(&index);
    check_bullets(memory, sources, &index.lines, |bullet| ranker.rank(bullet))
}

/// A source line: (file, line), both counted from 0.
type Pos = (u32, u32);

/// What a ranking needs to know of a bullet.
struct Bullet<'b> {
    /// Its number, from 1: distinct per bullet (see [`Ranker`]).
    epoch: u32,
    words: &'b HashSet<String>,
    /// The line its reference names, when the reference names a file of `sources`.
    cited: Option<Pos>,
}

/// The steps every bullet goes through, whatever ranks the lines: read it, rank the lines that
/// could support it, settle on one. The test oracle ranks its own way and shares the rest.
fn check_bullets(
    memory: &str,
    sources: &[Source<'_>],
    lines: &[Vec<&str>],
    mut rank: impl FnMut(&Bullet<'_>) -> Vec<(Pos, f64)>,
) -> Vec<Check> {
    let mut out = Vec::new();
    for (n, line) in memory.lines().enumerate() {
        let Some((text, cited)) = bullet(line) else {
            continue;
        };
        let words: HashSet<String> = words(&text).into_iter().collect();
        let cited_pos = cited_position(cited.as_deref(), sources);
        let mut check = Check {
            line: n + 1,
            text,
            cited,
            source: None,
            verdict: Verdict::Unsupported,
            why: None,
        };
        if words.is_empty() {
            check.why = Some("no content words to check".into());
        } else {
            let ranked = rank(&Bullet {
                epoch: n as u32 + 1,
                words: &words,
                cited: cited_pos,
            });
            settle(&mut check, ranked, cited_pos, sources, lines);
        }
        out.push(check);
    }
    out
}

/// The line a `memory/DATE.md#Lnn` reference names, if its file is among `sources`.
fn cited_position(cited: Option<&str>, sources: &[Source<'_>]) -> Option<Pos> {
    let (file, l) = cited?.rsplit_once("#L")?;
    let f = sources.iter().position(|s| s.name == file)?;
    Some((f as u32, l.parse::<u32>().ok()?.checked_sub(1)?))
}

/// Settles `check` on the first of the eight best-ranked lines that shares enough of its words
/// and whose file holds its exact items verbatim; failing that, says why the last one fell short.
fn settle(
    check: &mut Check,
    ranked: Vec<(Pos, f64)>,
    cited: Option<Pos>,
    sources: &[Source<'_>],
    lines: &[Vec<&str>],
) {
    let items = exact_items(&check.text);
    let mut reason = format!(
        "no source line shares {:.0} % of its words",
        MIN_OVERLAP * 100.0
    );
    for (pos, s) in ranked.into_iter().take(8) {
        if s < MIN_OVERLAP {
            continue;
        }
        let file = sources[pos.0 as usize].text;
        let line = lines[pos.0 as usize]
            .get(pos.1 as usize)
            .copied()
            .unwrap_or("");
        let missing = missing_items(&items, line, file);
        // Words and items can all be there and the meaning still reversed: negated, asked
        // for rather than done, intended rather than done, or another unit.
        let heading = heading_above(&lines[pos.0 as usize], pos.1 as usize);
        if missing.is_empty()
            && let Some(why) = super::meaning::conflict(&check.text, line, heading, file)
        {
            reason = why;
            continue;
        }
        if !missing.is_empty() {
            reason = format!(
                "not in the sources verbatim: {}",
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            continue;
        }
        check.source = Some(format!("{}#L{}", sources[pos.0 as usize].name, pos.1 + 1));
        check.verdict = if Some(pos) == cited {
            Verdict::Verified
        } else {
            Verdict::Sourced
        };
        return;
    }
    check.why = Some(reason);
}

/// The nearest Markdown heading above line `at` of a file (`### Asked`), if any.
pub(crate) fn heading_above<'l>(lines: &[&'l str], at: usize) -> Option<&'l str> {
    lines[..at.min(lines.len())]
        .iter()
        .rev()
        .find(|l| l.starts_with('#'))
        .copied()
}

/// The exact items found neither in the supporting `line` nor anywhere else in its `file`.
fn missing_items<'i>(items: &'i [String], line: &str, file: &str) -> Vec<&'i String> {
    // The supporting line first (cheap); the rest of its file with a SIMD search.
    items
        .iter()
        .filter(|i| {
            !line.contains(i.as_str())
                && memchr::memmem::find(file.as_bytes(), i.as_bytes()).is_none()
        })
        .collect()
}

/// Every source line's words, interned once. Source lines are numbered globally (file after
/// file); each keeps its sorted, distinct word ids in one flat array, and an inverted index maps
/// a word id to the lines holding it.
struct SourceIndex<'s> {
    lines: Vec<Vec<&'s str>>,
    /// The global number of each file's first line, and one past the last file's last.
    file_start: Vec<u32>,
    ids: HashMap<Box<str>, u32, BuildHasherDefault<Fx>>,
    /// Word id → the global numbers of the lines holding it, ascending.
    postings: Vec<Vec<u32>>,
    /// Line `g`'s word ids are `flat[starts[g]..starts[g + 1]]`.
    flat: Vec<u32>,
    starts: Vec<u32>,
}

impl<'s> SourceIndex<'s> {
    fn build(sources: &[Source<'s>]) -> Self {
        let lines: Vec<Vec<&str>> = sources.iter().map(|s| s.text.lines().collect()).collect();
        let mut index = SourceIndex {
            lines: Vec::new(),
            file_start: Vec::with_capacity(lines.len() + 1),
            ids: HashMap::default(),
            postings: Vec::new(),
            flat: Vec::new(),
            starts: vec![0],
        };
        let mut buf = String::new();
        let mut tmp: Vec<u32> = Vec::new();
        let mut g: u32 = 0;
        for ls in &lines {
            index.file_start.push(g);
            for l in ls {
                tmp.clear();
                for_each_word(l, &mut buf, |w| tmp.push(index.intern(w)));
                tmp.sort_unstable();
                tmp.dedup();
                for &id in &tmp {
                    index.postings[id as usize].push(g);
                }
                index.flat.extend_from_slice(&tmp);
                index.starts.push(index.flat.len() as u32);
                g += 1;
            }
        }
        index.file_start.push(g);
        index.lines = lines;
        index
    }

    fn intern(&mut self, w: &str) -> u32 {
        if let Some(&id) = self.ids.get(w) {
            return id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(w.into(), id);
        self.postings.push(Vec::new());
        id
    }

    /// The global number of a line, if it exists.
    fn global(&self, pos: Pos) -> Option<u32> {
        let f = pos.0 as usize;
        let first = *self.file_start.get(f)?;
        let end = *self.file_start.get(f + 1)?;
        (first + pos.1 < end).then_some(first + pos.1)
    }

    fn local(&self, g: u32) -> Pos {
        let f = self.file_start.partition_point(|&s| s <= g) - 1;
        (f as u32, g - self.file_start[f])
    }

    fn word_ids(&self, g: u32) -> &[u32] {
        &self.flat[self.starts[g as usize] as usize..self.starts[g as usize + 1] as usize]
    }

    /// The lines holding one of the rarest three `known` words (at most 4096 of each): common
    /// words would make every line a candidate (and the cost bullets × lines).
    fn candidates(&self, known: &[u32]) -> Vec<u32> {
        let mut by_rarity: Vec<&Vec<u32>> = known
            .iter()
            .map(|&id| &self.postings[id as usize])
            .collect();
        by_rarity.sort_by_key(|p| p.len());
        let mut candidates: Vec<u32> = Vec::new();
        for p in by_rarity.iter().take(3) {
            candidates.extend(p.iter().take(4096).copied());
        }
        candidates.sort_unstable();
        candidates.dedup();
        candidates
    }
}

/// Ranks source lines by how many of a bullet's words they share. A bullet's word ids are
/// marked with its epoch, so a line's overlap is one pass over its few ids, with no set built
/// per bullet.
struct Ranker<'i, 's> {
    index: &'i SourceIndex<'s>,
    marks: Vec<u32>,
}

impl<'i, 's> Ranker<'i, 's> {
    fn new(index: &'i SourceIndex<'s>) -> Self {
        Ranker {
            index,
            marks: vec![0; index.ids.len()],
        }
    }

    /// The candidate lines, best first (ties to the earlier line), behind the cited line if any.
    fn rank(&mut self, bullet: &Bullet<'_>) -> Vec<(Pos, f64)> {
        let index = self.index;
        // Bullet words unknown to every source can never be matched; they still count.
        let mut known: Vec<u32> = bullet
            .words
            .iter()
            .filter_map(|w| index.ids.get(w.as_str()).copied())
            .collect();
        // Words are taken rarest first, ties by word id: never by the order of a HashSet, so a
        // bullet gets the same candidates (and the same verdict and reason) on every run.
        known.sort_unstable();
        for &id in &known {
            self.marks[id as usize] = bullet.epoch;
        }
        let marks = &self.marks;
        let overlap = |g: u32| {
            index
                .word_ids(g)
                .iter()
                .filter(|&&id| marks[id as usize] == bullet.epoch)
                .count()
        };
        let score = |shared: usize| shared as f64 / bullet.words.len() as f64;
        // Global line order is (file, line) order: ties go to the earlier line, as before.
        let mut best: Vec<(Pos, f64)> = index
            .candidates(&known)
            .iter()
            .map(|&g| (index.local(g), score(overlap(g))))
            .collect();
        best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        if let Some(c) = bullet.cited {
            // The cited line may not be among the candidates: it is counted directly.
            best.insert(0, (c, index.global(c).map_or(0.0, |g| score(overlap(g)))));
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{HashMap, HashSet};

    /// The verifier's ranking as first written (a HashMap per bullet, binary searches): the
    /// optimised one must give the same checks. Reading and settling bullets are shared.
    fn reference_verify(memory: &str, sources: &[Source<'_>]) -> Vec<Check> {
        // Words are interned once; each source line keeps its sorted word ids, and an inverted
        // index maps a word id to the lines holding it.
        let lines: Vec<Vec<&str>> = sources.iter().map(|s| s.text.lines().collect()).collect();
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut index: Vec<Vec<(u32, u32)>> = Vec::new();
        let mut line_ids: Vec<Vec<Vec<u32>>> = Vec::with_capacity(lines.len());
        for (f, ls) in lines.iter().enumerate() {
            let mut per_file = Vec::with_capacity(ls.len());
            for (i, l) in ls.iter().enumerate() {
                let mut v: Vec<u32> = words(l)
                    .into_iter()
                    .map(|w| {
                        let next = ids.len() as u32;
                        *ids.entry(w).or_insert(next)
                    })
                    .collect();
                v.sort_unstable();
                v.dedup();
                for &id in &v {
                    if index.len() <= id as usize {
                        index.resize(id as usize + 1, Vec::new());
                    }
                    index[id as usize].push((f as u32, i as u32));
                }
                per_file.push(v);
            }
            line_ids.push(per_file);
        }
        check_bullets(memory, sources, &lines, |bullet| {
            // Bullet words unknown to every source can never be matched; they still count.
            let mut known: Vec<u32> = bullet
                .words
                .iter()
                .filter_map(|w| ids.get(w).copied())
                .collect();
            // As in `verify`: ties between equally rare words broken by word id.
            known.sort_unstable();
            let mut by_rarity: Vec<&Vec<(u32, u32)>> =
                known.iter().map(|&id| &index[id as usize]).collect();
            by_rarity.sort_by_key(|p| p.len());
            let mut candidates: HashSet<(u32, u32)> = HashSet::new();
            for postings in by_rarity.iter().take(3) {
                candidates.extend(postings.iter().take(4096).copied());
            }
            let overlap = |pos: (u32, u32)| {
                line_ids
                    .get(pos.0 as usize)
                    .and_then(|f| f.get(pos.1 as usize))
                    .map_or(0, |l| {
                        known
                            .iter()
                            .filter(|id| l.binary_search(id).is_ok())
                            .count()
                    })
            };
            let shared: HashMap<(u32, u32), usize> =
                candidates.into_iter().map(|p| (p, overlap(p))).collect();
            // The cited line may not be among the candidates: it is counted directly.
            let score = |pos: &(u32, u32)| {
                shared.get(pos).copied().unwrap_or_else(|| overlap(*pos)) as f64
                    / bullet.words.len() as f64
            };
            let mut best: Vec<((u32, u32), f64)> = shared.keys().map(|p| (*p, score(p))).collect();
            best.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            if let Some(c) = bullet.cited {
                best.insert(0, (c, score(&c)));
            }
            best
        })
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP.windows(2).all(|w| w[0] < w[1]), "{STOP:?}");
    }

    #[test]
    fn the_word_walker_matches_words() {
        for s in [
            "The Staging DB, port 5433!",
            "ÉCOLE naïve İstanbul ŉŉ ab_c x_y",
            "",
            "a b c dd",
        ] {
            let mut got = Vec::new();
            for_each_word(s, &mut String::new(), |w| got.push(w.to_string()));
            assert_eq!(got, words(s), "{s}");
        }
    }

    fn arb_text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("port".to_string()),
                Just("5433".to_string()),
                Just("Staging".to_string()),
                Just("src/a.rs".to_string()),
                Just("the".to_string()),
                Just("`cargo test`".to_string()),
                Just("\n- ".to_string()),
                Just("\n".to_string()),
                Just("(src: memory/d1.md#L2)".to_string()),
                Just("(src: memory/d2.md#L1)".to_string()),
                Just("(src: memory/d1.md#L99)".to_string()),
                "[a-zA-Zé_ ]{1,8}",
            ],
            0..40,
        )
        .prop_map(|v| v.join(" "))
    }

    proptest! {
        #[test]
        fn the_fast_verifier_agrees_with_the_reference(
            memory in arb_text(),
            d1 in arb_text(),
            d2 in arb_text(),
        ) {
            let memory = format!("- {memory}");
            let sources = [
                Source { name: "memory/d1.md", text: &d1 },
                Source { name: "memory/d2.md", text: &d2 },
            ];
            prop_assert_eq!(verify(&memory, &sources), reference_verify(&memory, &sources));
        }
    }

    const DAY: &str = "# Daily Memory: 2026-11-25\n\n## Session a (10:00)\n- The staging database listens on port 5433\n- Tests run with `cargo nextest run` in src/checkout/total.rs\n- Rounding happens per line instead of per order\n";

    fn src() -> Vec<Source<'static>> {
        vec![Source {
            name: "memory/2026-11-25.md",
            text: DAY,
        }]
    }

    #[test]
    fn supported_bullets_pass_and_fabricated_ones_are_named() {
        let memory = "## Infra\n- The staging database listens on port 5433 (src: memory/2026-11-25.md#L4)\n- Staging database listens on port 5432\n- Rounding happens per line instead of per order\n- The CEO approved a rewrite in Go\n- Tests run with `cargo test --all` (src: memory/2026-11-25.md#L5)\n";
        let c = verify(memory, &src());
        assert_eq!(c.len(), 5);
        assert_eq!(c[0].verdict, Verdict::Verified);
        assert_eq!(
            c[1].verdict,
            Verdict::Unsupported,
            "a changed number is a fabrication"
        );
        assert!(c[1].why.as_ref().unwrap().contains("5432"));
        assert_eq!(c[2].verdict, Verdict::Sourced);
        assert_eq!(c[2].source.as_deref(), Some("memory/2026-11-25.md#L6"));
        assert_eq!(c[3].verdict, Verdict::Unsupported);
        assert_eq!(
            c[4].verdict,
            Verdict::Unsupported,
            "a changed quoted command is a fabrication"
        );
    }

    #[test]
    fn exact_items_are_numbers_paths_identifiers_and_quotes() {
        let items =
            exact_items("Set `max_records` to 500 in src/config.rs via parseSize (not \"600\").");
        for want in ["max_records", "500", "src/config.rs", "parseSize", "600"] {
            assert!(
                items.iter().any(|i| i == want),
                "{want} missing from {items:?}"
            );
        }
        assert!(!items.iter().any(|i| i == "Set" || i == "via"));
    }
}
