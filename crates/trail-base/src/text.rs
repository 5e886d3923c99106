//! Small text helpers every module needs the same way: hex digests and cutting text to fit.

use sha2::{Digest as _, Sha256};

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

/// The `N` bytes that `2N` hex digits (either case) spell, or `None`.
pub fn unhex<const N: usize>(s: &str) -> Option<[u8; N]> {
    if s.len() != N * 2 {
        return None;
    }
    let mut out = [0u8; N];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(s.get(i * 2..i * 2 + 2)?, 16).ok()?;
    }
    Some(out)
}

/// Hex of the SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The first `max` characters of `s` (all of it when shorter), cut on a character boundary.
pub fn head(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// `s` cut to at most `max` characters in all, the last one `…` when anything was cut.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    format!("{}…", head(s, max.saturating_sub(1)))
}

/// The first `max` characters of `s`, and `…` after them when anything was cut.
pub fn cut(s: &str, max: usize) -> String {
    let kept = head(s, max);
    if kept.len() == s.len() {
        s.to_string()
    } else {
        format!("{kept}…")
    }
}

/// `s` on one line (runs of whitespace, newlines included, become one space), its first `max`
/// characters kept and `…` added when anything was cut.
pub fn one_line(s: &str, max: usize) -> String {
    cut(&s.split_whitespace().collect::<Vec<_>>().join(" "), max)
}

/// A parser's message as trail shows it after its own place: the first line only (the YAML
/// parser draws a frame of the input below it), without the parser's `error: ` and `line N
/// column M: ` leads, which the caller says in its own words. Found by the snapshots of
/// refusals (issue 23): "error: stdin line 4, column 8: error: line 4 column 8: unclosed
/// bracket".
pub fn parser_message(message: &str) -> String {
    let first = message.lines().next().unwrap_or("").trim();
    let rest = first.strip_prefix("error: ").unwrap_or(first);
    let placed = rest.strip_prefix("line ").and_then(|r| {
        let (line, r) = r.split_once(" column ")?;
        let (column, r) = r.split_once(": ")?;
        (line.bytes().all(|b| b.is_ascii_digit()) && column.bytes().all(|b| b.is_ascii_digit()))
            .then_some(r)
    });
    placed.unwrap_or(rest).to_string()
}

/// The longest run of `c` in `s` (what a Markdown fence or code span must be longer than).
pub fn longest_run(s: &str, c: char) -> usize {
    s.split(|x| x != c).map(str::len).max().unwrap_or(0) / c.len_utf8()
}

/// The words of a name, lower-cased: split at every character that is not a letter or a digit,
/// and where a lower-case letter or a digit meets an upper-case one (`StopUnit`,
/// `emptyOutDir`, `api_key`, `apps:destroy`; `HTTPServer` stays one word).
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for ch in name.chars() {
        if !ch.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if ch.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = ch.is_ascii_lowercase() || ch.is_ascii_digit();
        cur.push(ch.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Decoded base64 (standard or URL alphabet, padding optional), or `None`.
pub fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits).to_le_bytes()[0]); // the low byte: the bits above were emitted already
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parser_message_loses_its_own_leads_and_frame() {
        assert_eq!(
            parser_message("error: line 12 column 3: bad\n --> <input>:12:3\n  |"),
            "bad"
        );
        assert_eq!(
            parser_message("line one column two: x"),
            "line one column two: x"
        );
        assert_eq!(parser_message("unclosed"), "unclosed");
    }

    #[test]
    fn hex_and_cuts() {
        assert_eq!(hex(&[0, 15, 255]), "000fff");
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
        assert_eq!(one_line("a \n b\tc", 10), "a b c");
        assert_eq!(one_line("héllo wörld", 5), "héllo…");
        assert_eq!(head("héllo", 2), "hé");
        assert_eq!(head("hé", 5), "hé");
        assert_eq!(head("hé", 0), "");
        assert_eq!(clip("héllo", 1), "…");
        assert_eq!(clip("héllo", 0), "…");
        assert_eq!(cut("héllo", 4), "héll…");
        assert_eq!(cut("héllo", 5), "héllo");
        assert_eq!(cut("", 0), "");
        assert_eq!(longest_run("a``b```c", '`'), 3);
        assert_eq!(longest_run("abc", '`'), 0);
    }
}
