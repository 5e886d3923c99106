//! What word overlap cannot see: a bullet that shares a source line's words can still say the
//! opposite of it. The verifier ([`super::verify`]) asks these questions of the line it settled
//! on, and a conflict makes the bullet unsupported:
//!
//! - **Polarity.** "must not use 21 percent" against "use 21 percent": each clause of the bullet
//!   and the clause of the line it matches must agree on negation, and on outcome ("- `x` —
//!   failed" does not support "x passes"); a guess ("might be a race") does not support a bullet
//!   that states it, unless the bullet keeps it a guess.
//! - **Modality.** What was asked, planned or decided is not what was done: a line under an
//!   `### Asked` heading, or one that requests ("please", "can you", "TODO", a question), does
//!   not support a bullet that states the thing as fact; a line that records an intention
//!   ("decided to migrate") does not support a bullet that says it happened ("migrated").
//! - **Units.** "30 s" is not "30 ms": a number the bullet gives with a unit must appear in the
//!   source with the same unit (spelled any usual way), when the source gives it one.
//!
//! Each is a mechanism over function words, verb forms and unit spellings, not a list of the
//! cases it was tested on (`tests/data/labelled/memory-bullets.tsv`).

/// Why the line does not support the bullet, if it does not.
pub fn conflict(bullet: &str, line: &str, heading: Option<&str>, file: &str) -> Option<String> {
    polarity(bullet, line)
        .or_else(|| modality(bullet, line, heading))
        .or_else(|| units(bullet, file))
}

/// Whether any of `words` is one of `list`.
fn any_of(words: &[String], list: &[&str]) -> bool {
    words.iter().any(|w| list.contains(&w.as_str()))
}

/// Lowercase word tokens, keeping apostrophes inside words (`don't`).
fn tokens(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .map(|t| t.trim_matches(['\'', '’']).to_lowercase().replace('’', "'"))
        .filter(|t| !t.is_empty())
        .collect()
}

const NEGATIONS: &[&str] = &[
    "not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "without", "cannot", "non",
];

fn negated(words: &[String]) -> bool {
    words
        .iter()
        .any(|w| NEGATIONS.contains(&w.as_str()) || w.ends_with("n't"))
        || words.windows(2).any(|p| p[0] == "no" && p[1] == "longer")
}

/// The part of `line` (a clause: split at sentence marks, semicolons, commas, dashes and
/// "but") that shares most content words with `bullet`.
fn best_clause<'l>(bullet: &str, line: &'l str) -> &'l str {
    let want: Vec<String> = super::verify::content_words(bullet);
    let mut best = (0usize, line);
    for clause in clauses(line) {
        let have = super::verify::content_words(clause);
        let shared = want.iter().filter(|w| have.contains(w)).count();
        if shared > best.0 {
            best = (shared, clause);
        }
    }
    best.1
}

/// The clauses of a text: split at sentence marks, semicolons, commas, dashes and "but".
fn clauses(text: &str) -> impl Iterator<Item = &str> {
    text.split([';', '.', '!', '?', ',', '—', '–'])
        .flat_map(|c| c.split(" but "))
        .flat_map(|c| c.split(" - "))
        .filter(|c| !c.trim().is_empty())
}

/// Each clause of the bullet with the clause of the line that shares at least half its words:
/// only what the line speaks to is compared.
fn matched_clauses<'b, 'l>(bullet: &'b str, line: &'l str) -> Vec<(&'b str, &'l str)> {
    let single = clauses(bullet).count() == 1;
    clauses(bullet)
        .filter_map(|b| {
            let want = super::verify::content_words(b);
            let l = best_clause(b, line);
            let have = super::verify::content_words(l);
            let shared = want.iter().filter(|w| have.contains(w)).count();
            // A clause of one word ("In Loa") says too little to weigh against the line.
            ((want.len() >= 2 || single) && shared > 0 && shared * 2 >= want.len())
                .then_some((b, l))
        })
        .collect()
}

fn polarity(bullet: &str, line: &str) -> Option<String> {
    let whole = tokens(bullet);
    let supposes = hedged(&whole) || asking(&whole, bullet) || keeps_open(&whole);
    for (b, l) in matched_clauses(bullet, line) {
        let (bw, lw) = (tokens(b), tokens(l));
        let (bn, ln) = (negated(&bw), negated(&lw));
        if bn != ln {
            return Some(if bn {
                format!(
                    "the source states it (\"{}\"), the bullet negates it",
                    l.trim()
                )
            } else {
                format!(
                    "the source negates it (\"{}\"), the bullet states it",
                    l.trim()
                )
            });
        }
        // An outcome is a polarity too: `— failed` against "passes".
        // A command line says its outcome after a dash: the whole line's is the clause's.
        let line_outcome = outcome(&lw).or_else(|| outcome(&tokens(line)));
        if let (Some(x), Some(y)) = (outcome(&bw), line_outcome)
            && x != y
        {
            return Some(format!(
                "the source says it {} (\"{}\"), the bullet that it {}",
                if y { "worked" } else { "failed" },
                l.trim(),
                if x { "worked" } else { "failed" }
            ));
        }
        // A guess is not a finding (unless the bullet, anywhere, keeps it a guess or a
        // question).
        if hedged(&lw) && !supposes {
            return Some(format!(
                "the source only supposes it (\"{}\"), the bullet states it",
                l.trim()
            ));
        }
    }
    None
}

/// Words that say a thing worked, and that it did not.
const WORKED: &[&str] = &[
    "ok",
    "passed",
    "passes",
    "pass",
    "passing",
    "succeeded",
    "succeeds",
    "success",
    "successful",
    "successfully",
    "green",
    "works",
    "worked",
    "working",
];
const FAILED: &[&str] = &[
    "failed", "fails", "fail", "failing", "failure", "error", "errored", "errors", "broken",
    "crashed", "crashes", "red",
];

/// `Some(true)` when the words say it worked, `Some(false)` when they say it failed, `None`
/// when they say neither or both.
fn outcome(words: &[String]) -> Option<bool> {
    let worked = any_of(words, WORKED);
    let failed = any_of(words, FAILED);
    (worked != failed).then_some(worked)
}

/// Words that make a statement a supposition.
const HEDGES: &[&str] = &[
    "might",
    "may",
    "maybe",
    "perhaps",
    "possibly",
    "possible",
    "probably",
    "likely",
    "suspect",
    "suspected",
    "suspects",
    "guess",
    "seems",
    "appears",
    "unclear",
    "unconfirmed",
    "unverified",
    "assume",
    "assumed",
    "hypothesis",
    "risk",
];

fn hedged(words: &[String]) -> bool {
    any_of(words, HEDGES)
        || words
            .windows(2)
            .any(|p| (p[0] == "could" && p[1] == "be") || (p[0] == "not" && p[1] == "confirmed"))
}

/// Words that make a line a request, a question or a plan rather than a statement of fact.
const ASKING: &[&str] = &[
    "please",
    "todo",
    "plan",
    "plans",
    "planned",
    "planning",
    "want",
    "wants",
    "wanted",
    "would",
    "should",
    "shall",
    "could",
    "ask",
    "asks",
    "asked",
    "request",
    "requested",
    "requests",
    "let's",
    "propose",
    "proposed",
    "suggest",
    "suggested",
    "maybe",
    "consider",
    "pending",
    "wish",
    "hope",
    "intend",
    "intends",
    "idea",
];

/// Words that record an intention or a decision, not the deed.
const INTENDING: &[&str] = &[
    "decided", "decide", "decides", "decision", "will", "going", "agreed", "chose", "choose",
    "plan", "plans", "planned", "intend", "intends", "intended", "aim", "aims", "next",
];

/// Words that claim a thing is finished.
const DONE: &[&str] = &[
    "done",
    "completed",
    "complete",
    "finished",
    "shipped",
    "merged",
    "deployed",
    "released",
    "landed",
    "fixed",
    "implemented",
    "migrated",
    "resolved",
    "closed",
    "installed",
    "upgraded",
    "removed",
    "added",
    "switched",
    "moved",
    "replaced",
    "rewrote",
    "rewritten",
    "now",
];

fn asking(words: &[String], text: &str) -> bool {
    text.trim_end().ends_with('?')
        || any_of(words, ASKING)
        || words.windows(2).any(|p| {
            matches!(
                (p[0].as_str(), p[1].as_str()),
                ("can" | "could" | "would", "you") | ("to", "do")
            )
        })
}

/// Words by which a bullet keeps a thing open: still to do, a question, what comes next.
const KEPT_OPEN: &[&str] = &[
    "needs",
    "need",
    "needed",
    "still",
    "next",
    "question",
    "open",
    "before",
    "remains",
    "remaining",
    "missing",
    "yet",
    "unless",
];

fn keeps_open(words: &[String]) -> bool {
    any_of(words, KEPT_OPEN)
}

fn modality(bullet: &str, line: &str, heading: Option<&str>) -> Option<String> {
    let b = tokens(bullet);
    let l = tokens(line);
    let bullet_asks = asking(&b, bullet) || keeps_open(&b);
    let under_asked = heading.is_some_and(|h| {
        let h = h.to_lowercase();
        [
            "asked", "request", "todo", "to do", "open", "question", "plan", "idea", "wish",
        ]
        .iter()
        .any(|k| h.contains(k))
    });
    // A bullet that repeats the request as a request (`Fix the rounding bug`, the line's own
    // imperative) claims nothing more than the line.
    let mirrors = first_word(&b) == first_word(&without_asking(&l));
    if (under_asked || asking(&l, line)) && !bullet_asks && !intends(&b) && !mirrors {
        return Some(format!(
            "the source asks or plans it (\"{}\"), the bullet states it as fact",
            line.trim().trim_start_matches("- ")
        ));
    }
    // An intention does not support a deed: the bullet claims completion (a finishing word, or
    // the past form of the verb the source intends) that the source line does not.
    if intends(&l) && !l.iter().any(|w| DONE.contains(&w.as_str()) && w != "now") && !intends(&b) {
        let verbs = intended_verbs(&l);
        let claims = b.iter().any(|w| {
            (DONE.contains(&w.as_str()) && !l.contains(w))
                || verbs.iter().any(|v| past_forms(v).contains(w))
        });
        if claims {
            return Some(format!(
                "the source records an intention (\"{}\"), the bullet says it was done",
                line.trim().trim_start_matches("- ")
            ));
        }
    }
    None
}

fn first_word(words: &[String]) -> Option<&str> {
    words.first().map(String::as_str)
}

/// The words of a request without its asking words in front (`please`, `can you`, `todo`).
fn without_asking(words: &[String]) -> Vec<String> {
    let mut rest = words;
    loop {
        match rest {
            [a, b, tail @ ..] if matches!(a.as_str(), "can" | "could" | "would") && b == "you" => {
                rest = tail;
            }
            [a, tail @ ..] if matches!(a.as_str(), "please" | "todo" | "let's" | "asked") => {
                rest = tail;
            }
            _ => return rest.to_vec(),
        }
    }
}

fn intends(words: &[String]) -> bool {
    any_of(words, INTENDING)
}

/// The verbs an intention names: the word after `to`, `will` or an intending word (`decided to
/// migrate`, `Decided: migrate` → `migrate`).
fn intended_verbs(words: &[String]) -> Vec<&str> {
    words
        .windows(2)
        .filter(|p| {
            matches!(p[0].as_str(), "to" | "will" | "gonna") || INTENDING.contains(&p[0].as_str())
        })
        .map(|p| p[1].as_str())
        .filter(|v| v.len() >= 3 && !matches!(*v, "be" | "the" | "use" | "do"))
        .collect()
}

/// `migrate` → `migrated`; `fix` → `fixed`; `copy` → `copied`; `stop` → `stopped`.
fn past_forms(verb: &str) -> Vec<String> {
    let mut out = vec![format!("{verb}ed"), format!("{verb}d")];
    if let Some(stem) = verb.strip_suffix('y') {
        out.push(format!("{stem}ied"));
    }
    if let Some(last) = verb.chars().last()
        && !"aeiouwxy".contains(last)
    {
        out.push(format!("{verb}{last}ed"));
    }
    out
}

/// A unit's usual spellings, normalised: `None` for a word that is not a unit.
fn unit(word: &str) -> Option<&'static str> {
    let w = word.to_lowercase();
    Some(match w.as_str() {
        "ns" | "nanosecond" | "nanoseconds" => "ns",
        "us" | "µs" | "microsecond" | "microseconds" => "us",
        "ms" | "msec" | "msecs" | "millisecond" | "milliseconds" => "ms",
        "s" | "sec" | "secs" | "second" | "seconds" => "s",
        "m" | "min" | "mins" | "minute" | "minutes" => "min",
        "h" | "hr" | "hrs" | "hour" | "hours" => "h",
        "d" | "day" | "days" => "d",
        "w" | "wk" | "week" | "weeks" => "w",
        "%" | "percent" | "pct" | "per cent" => "%",
        "pp" | "points" | "point" => "pp",
        "b" | "byte" | "bytes" => "B",
        "kb" | "kib" | "k" | "kilobyte" | "kilobytes" => "KB",
        "mb" | "mib" | "megabyte" | "megabytes" => "MB",
        "gb" | "gib" | "gigabyte" | "gigabytes" => "GB",
        "tb" | "tib" | "terabyte" | "terabytes" => "TB",
        "px" | "pixel" | "pixels" => "px",
        "x" | "times" => "x",
        "rps" | "qps" => "per-second",
        _ => return None,
    })
}

/// Every number in `text` with the unit right after it, if one: `30ms`, `30 ms`, `5%`,
/// `5 percent`.
fn quantities(text: &str) -> Vec<(String, Option<&'static str>)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '.'));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len()
            && (chars[j].is_ascii_digit()
                || (matches!(chars[j], '.' | ',')
                    && chars.get(j + 1).is_some_and(char::is_ascii_digit)))
        {
            j += 1;
        }
        let number: String = chars[i..j].iter().filter(|c| **c != ',').collect();
        // The unit: glued on (`30ms`, `5%`) or the next word.
        let mut k = j;
        if k < chars.len() && chars[k] == ' ' {
            k += 1;
        }
        let mut e = k;
        while e < chars.len() && (chars[e].is_alphabetic() || chars[e] == '%' || chars[e] == 'µ') {
            e += 1;
            if chars[e - 1] == '%' {
                break;
            }
        }
        // A unit stands alone: `x1f` in `0x1f` is not `x`.
        if e < chars.len() && chars[e].is_alphanumeric() {
            e = k;
        }
        let word: String = chars[k..e].iter().collect();
        let per_cent = word.eq_ignore_ascii_case("per")
            && chars[e..]
                .iter()
                .collect::<String>()
                .trim_start()
                .to_lowercase()
                .starts_with("cent");
        let u = if per_cent { Some("%") } else { unit(&word) };
        // A letter glued on that is not a unit (`v2`, `3rd`, `0x1f`) is not a quantity.
        let glued = j < chars.len() && chars[j].is_alphabetic();
        if !(glued && u.is_none()) {
            out.push((number, u));
        }
        i = j.max(i + 1);
    }
    out
}

fn units(bullet: &str, file: &str) -> Option<String> {
    let wanted: Vec<(String, &str)> = quantities(bullet)
        .into_iter()
        .filter_map(|(n, u)| u.map(|u| (n, u)))
        .collect();
    if wanted.is_empty() {
        return None;
    }
    let found = quantities(file);
    for (n, u) in wanted {
        let with: Vec<Option<&str>> = found
            .iter()
            .filter(|(m, _)| *m == n)
            .map(|(_, v)| *v)
            .collect();
        let same = with.contains(&Some(u));
        let other = with.iter().flatten().find(|v| **v != u);
        if let (false, Some(o)) = (same, other) {
            return Some(format!("the source gives {n} in {o}, the bullet in {u}"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Whatever the bullet, line and file hold, the questions are answered, never a panic.
        #[test]
        fn any_text_gets_an_answer(b in "\\PC{0,80}", l in "\\PC{0,80}", f in "\\PC{0,120}") {
            let _ = conflict(&b, &l, Some(&l), &f);
            let _ = quantities(&f);
        }
    }

    #[test]
    fn negation_must_agree_with_the_clause_the_bullet_matches() {
        assert!(conflict("must not use 21 percent", "- use 21 percent", None, "").is_some());
        assert!(conflict("use 21 percent", "- never use 21 percent", None, "").is_some());
        assert!(conflict("do not cache tokens", "- don't cache the tokens", None, "").is_none());
        // The line negates one thing and states another; the bullet keeps the stated one.
        assert!(
            conflict(
                "use the index",
                "- don't use the cache, use the index",
                None,
                ""
            )
            .is_none()
        );
        assert!(
            conflict(
                "use the cache",
                "- don't use the cache, use the index",
                None,
                ""
            )
            .is_some()
        );
    }

    #[test]
    fn what_was_asked_or_intended_is_not_what_was_done() {
        let asked = Some("### Asked");
        assert!(
            conflict(
                "the export runs nightly",
                "- make the export nightly",
                asked,
                ""
            )
            .is_some()
        );
        assert!(
            conflict(
                "asked for a nightly export",
                "- make the export nightly",
                asked,
                ""
            )
            .is_none()
        );
        // The request repeated as a request.
        assert!(
            conflict(
                "Make the export nightly",
                "- please make the export nightly",
                asked,
                ""
            )
            .is_none()
        );
        assert!(
            conflict(
                "the export runs nightly",
                "- can you make the export nightly?",
                None,
                ""
            )
            .is_some()
        );
        assert!(
            conflict(
                "migrated to Postgres",
                "- decided to migrate to Postgres",
                None,
                ""
            )
            .is_some()
        );
        assert!(
            conflict(
                "decided to migrate to Postgres",
                "- we will migrate to Postgres",
                None,
                ""
            )
            .is_none()
        );
        assert!(conflict("migrated to Postgres", "- migrated to Postgres", None, "").is_none());
    }

    #[test]
    fn a_number_keeps_its_unit_however_spelled() {
        let file = "- timeout 30 ms\n- disk 5% full\n";
        assert!(conflict("timeout 30 s", "- timeout 30 ms", None, file).is_some());
        assert!(conflict("timeout 30 milliseconds", "- timeout 30 ms", None, file).is_none());
        assert!(conflict("disk 5 percent full", "- disk 5% full", None, file).is_none());
        assert!(conflict("disk 5 GB full", "- disk 5% full", None, file).is_some());
        // The source gives no unit: nothing to compare.
        assert!(conflict("retry 3 times", "- retry 3", None, "- retry 3\n").is_none());
        assert_eq!(
            quantities("v2 of 3rd 0x1f"),
            Vec::<(String, Option<&str>)>::new()
        );
        assert_eq!(
            quantities("1,500ms and 2.5 GB, 7"),
            [
                ("1500".into(), Some("ms")),
                ("2.5".into(), Some("GB")),
                ("7".into(), None)
            ]
        );
    }
}
