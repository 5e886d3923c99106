//! How many tokens a text costs a model, estimated without a tokenizer.
//!
//! The hook path cannot load one (DESIGN, principle 4: a BPE table is megabytes), yet resume
//! levels and injected packets have budgets in tokens. So trail estimates, on the side of
//! caution, by the way byte-pair tokenizers of the GPT-4o / Claude family cut text before they
//! merge it: a word is at least one token, and a long word several; a run of digits is a
//! token per three digits, and not joined to the space before it; letters and digits mixed (a
//! hash, a key) are close to random text; a run of punctuation is a token per two characters;
//! indentation and line breaks are tokens; every character outside ASCII is a token (two outside
//! the Basic Multilingual Plane: emoji); and one token of slack per text.
//!
//! How close: trail-core's `tests/core/tokens.rs` counts the same texts with the real o200k tokenizer
//! (`tiktoken-rs`, a dev-dependency only): prose, identifiers, paths, hashes, JSON, the corpus
//! NOTES.md files and what `trail resume` prints. The estimate is never below the real count on
//! any of them; on the corpus NOTES.md files (mostly prose) it is 1.4× the real count, so a
//! budget filled by the estimate holds about 70 % of what it could.

/// The estimated token count of `s` (never less than the real count on the texts tested).
pub fn estimate(s: &str) -> usize {
    let b = s.as_bytes();
    let mut n = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphanumeric() {
            let start = i;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            n += alnum(&b[start..i]);
        } else if c == b'\n' || c == b'\r' {
            while i < b.len() && (b[i] == b'\n' || b[i] == b'\r') {
                i += 1;
            }
            n += 1;
        } else if c == b' ' || c == b'\t' {
            let start = i;
            while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                i += 1;
            }
            // One space joins the word after it, but not a number; indentation is tokens of
            // its own.
            n += (i - start - 1).div_ceil(4);
            if i - start == 1 && i < b.len() && b[i].is_ascii_digit() {
                n += 1;
            }
        } else if c.is_ascii() {
            let start = i;
            while i < b.len() && b[i].is_ascii_punctuation() {
                i += 1;
            }
            n += (i - start).max(1).div_ceil(2);
        } else {
            let ch = s[i..].chars().next().unwrap_or(' ');
            i += ch.len_utf8();
            n += if (ch as u32) > 0xFFFF { 2 } else { 1 };
        }
    }
    // A rare short word splits where the rules above count one: a token of slack per text.
    if n > 0 { n + 1 } else { 0 }
}

/// Tokens of a run of ASCII letters and digits.
fn alnum(run: &[u8]) -> usize {
    let letters = run.iter().filter(|c| c.is_ascii_alphabetic()).count();
    if letters == 0 {
        // Digits are cut in threes.
        return run.len().div_ceil(3);
    }
    if letters < run.len() {
        // Letters and digits mixed (hashes, keys, ids): close to random text.
        return (run.len() * 4).div_ceil(5);
    }
    // Words: split where camel case starts a new part.
    let mut n = 0;
    let mut part = 0;
    let mut upper_run = 0;
    for (k, &c) in run.iter().enumerate() {
        let new_part = k > 0 && c.is_ascii_uppercase() && run[k - 1].is_ascii_lowercase();
        if new_part {
            n += word(part, upper_run);
            part = 0;
            upper_run = 0;
        }
        part += 1;
        if c.is_ascii_uppercase() {
            upper_run += 1;
        }
    }
    n + word(part, upper_run)
}

/// Tokens of a word of `len` letters, `upper` of them capitals: common words of up to five
/// letters are one token; longer ones split, rarer ones more; capitals run short.
fn word(len: usize, upper: usize) -> usize {
    if upper >= 4 {
        return len.div_ceil(2);
    }
    match len {
        0 => 0,
        1..=5 => 1,
        6..=8 => 2,
        _ => len.div_ceil(3),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_each_count_as_described() {
        assert_eq!(estimate(""), 0);
        // Each count below, plus the one token of slack.
        assert_eq!(estimate("the cat sat"), 3 + 1);
        assert_eq!(estimate("RateLimiter"), 1 + 2 + 1);
        assert_eq!(estimate("1234567"), 3 + 1);
        assert_eq!(estimate("a 12"), 1 + 1 + 1 + 1);
        assert_eq!(estimate("a\n\n\nb"), 3 + 1);
        assert_eq!(estimate("        x"), 2 + 1 + 1);
        assert_eq!(estimate("4bf92f35"), 7 + 1);
        assert_eq!(estimate("${PROJECT_ROOT}/x"), 1 + 4 + 1 + 2 + 1 + 1 + 1);
        assert_eq!(estimate("日本"), 2 + 1);
        assert_eq!(estimate("🦀"), 2 + 1);
    }
}
