//! `<private>…</private>`: what a person marks never to be kept. Every text trail writes, prints
//! or injects passes the redactor, so a span marked this way is replaced by `[private]` before
//! any rule looks at it, wherever it appears (a prompt, a fact, a tool's output, a note). The
//! marks are matched in any case; a `<private>` never closed hides everything after it, since
//! the person's intent was to keep it out, and a cut-off text must not leak its end.
//!
//! Nothing is kept in the secret store for it: unlike a secret, a private span is not wanted
//! back.

use std::borrow::Cow;

const OPEN: &[u8] = b"<private>";
const CLOSE: &[u8] = b"</private>";
/// What a private span becomes.
pub const REPLACEMENT: &str = "[private]";

/// `text` without its private spans (borrowed when it has none).
pub fn strip(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let Some(mut from) = find(bytes, OPEN, 0) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    loop {
        out.push_str(&text[at..from]);
        out.push_str(REPLACEMENT);
        let Some(close) = find(bytes, CLOSE, from + OPEN.len()) else {
            return Cow::Owned(out);
        };
        at = close + CLOSE.len();
        let Some(next) = find(bytes, OPEN, at) else {
            out.push_str(&text[at..]);
            return Cow::Owned(out);
        };
        from = next;
    }
}

/// The first `needle` (ASCII, any case) in `hay` at or after `from`. Both marks start with `<`,
/// so only the places a `<` stands are compared.
fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while at < hay.len() {
        let i = at + memchr::memchr(b'<', &hay[at..])?;
        if hay.len() - i >= needle.len() && hay[i..i + needle.len()].eq_ignore_ascii_case(needle) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_spans_are_never_kept() {
        assert_eq!(strip("no marks <b>here</b>"), "no marks <b>here</b>");
        assert!(matches!(strip("plain"), Cow::Borrowed(_)));
        assert_eq!(
            strip("host <private>10.0.0.5</private>, port 5433"),
            "host [private], port 5433"
        );
        assert_eq!(
            strip("<PRIVATE>a</Private> and <private>b\nc</private>!"),
            "[private] and [private]!"
        );
        assert_eq!(
            strip("keep this <private>but not the rest"),
            "keep this [private]"
        );
        assert_eq!(
            strip("</private> alone is text"),
            "</private> alone is text"
        );
        assert_eq!(strip("é<private>ü</private>ß"), "é[private]ß");
    }
}
