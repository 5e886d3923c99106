//! Keys written in pieces: a literal split across lines and joined with `+` (`const apiKey =
//! 'cur_live_MZy…' +\n  'hOTt4u…';`), as a formatter wraps a long string or a hand does to
//! keep a line short. No piece alone is a key's whole shape, so each is judged joined, as the
//! value assigned to the name before it, and every piece is redacted.

use crate::plausible::{self, Written};

/// The spans of the pieces of keys joined from literals in `text`.
pub(crate) fn keys(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text the hooks redact comes here: most join no literals.
    if !text.contains('+') {
        return out;
    }
    let b = text.as_bytes();
    for (eq, _) in text.match_indices('=') {
        // An assignment, not a comparison or an arrow (`==`, `=>`, `!=`, `<=`).
        if b.get(eq + 1).is_some_and(|&c| matches!(c, b'=' | b'>'))
            || eq > 0 && matches!(b[eq - 1], b'=' | b'!' | b'<' | b'>')
        {
            continue;
        }
        let name = text[..eq]
            .trim_end()
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or_default();
        if name.is_empty() || !plausible::names_a_credential(name) {
            continue;
        }
        let pieces = chain(text, eq + 1);
        if pieces.len() < 2 {
            continue;
        }
        let joined: String = pieces.iter().map(|&(s, e)| &text[s..e]).collect();
        if plausible::plausible_assignment(name, &joined, Written::Quoted) {
            out.extend(pieces);
        }
    }
    out
}

/// The insides of the quoted literals that follow `from`, joined by `+` (blanks and line
/// breaks between), as spans; empty unless the chain starts right there.
fn chain(text: &str, from: usize) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = from;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let Some(&q) = b.get(i).filter(|&&c| matches!(c, b'"' | b'\'' | b'`')) else {
            break;
        };
        let start = i + 1;
        let Some(len) = text[start..].find([q as char, '\n', '\\']) else {
            break;
        };
        if b[start + len] != q {
            break;
        }
        out.push((start, start + len));
        i = start + len + 1;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b.get(i) != Some(&b'+') {
            break;
        }
        i += 1;
    }
    out
}
