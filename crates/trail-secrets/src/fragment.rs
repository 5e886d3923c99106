//! Keys in a URL's fragment: the part after `#` never reaches the server, so a service that
//! encrypts in the browser puts the key there (PrivateBin's `…/?ID#KEY`, Excalidraw's
//! `#json=ID,KEY`, an OAuth implicit grant's `#access_token=…`). Whoever holds the link reads
//! what it opens. A fragment is otherwise a page's anchor (`#install`, `#L10-L20`), a route
//! (`#/settings`), an id (hex, a UUID) or a download's digest (`#sha256=…`), none of which a
//! generator writes in both cases with digits.

use crate::plausible;

/// Names a fragment gives a digest of the file the URL points at (`#sha256=…`, `#md5=…`).
const DIGESTS: &[&str] = &["sha1", "sha256", "sha384", "sha512", "md5", "integrity"];

/// The spans of generated keys in the fragments of the URLs in `text`.
pub(crate) fn keys(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text the hooks redact comes here: most hold no URL.
    if !text.contains("://") {
        return out;
    }
    for (at, _) in text.match_indices("://") {
        let rest = &text[at + 3..];
        let url_len = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`' | ')'))
            .unwrap_or(rest.len());
        let url = &rest[..url_len];
        let Some(hash) = url.find('#') else {
            continue;
        };
        let fragment = &url[hash + 1..];
        if fragment.starts_with('/') {
            continue;
        }
        let base = at + 3 + hash + 1;
        let mut key: Option<&str> = None;
        let mut offset = 0;
        for piece in fragment.split_inclusive(['=', ',', '&', ';']) {
            let sep = piece.ends_with(['=', ',', '&', ';']);
            let word = if sep {
                &piece[..piece.len() - 1]
            } else {
                piece
            };
            let after_digest =
                key.is_some_and(|k| DIGESTS.contains(&k.to_ascii_lowercase().as_str()));
            if !after_digest && generated(word) {
                out.push((base + offset, base + offset + word.len()));
            }
            key = piece.ends_with('=').then_some(word);
            offset += piece.len();
        }
    }
    out
}

/// A word only a generator writes: twenty or more letters and digits (with `-` or `_`), both
/// cases and a digit among them, with a random draw's entropy, and no words in it (an app's
/// name, `FieldInspections-2070903`).
fn generated(word: &str) -> bool {
    word.len() >= 20
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
        && word.bytes().any(|b| b.is_ascii_lowercase())
        && word.bytes().any(|b| b.is_ascii_uppercase())
        && word.bytes().any(|b| b.is_ascii_digit())
        && plausible::entropy(word) >= 3.8
        && plausible::looks_random(word)
        && !word.split(['-', '_']).any(|part| {
            part.len() >= 8 && (plausible::looks_like_words(part) || plausible::camel_words(part))
        })
}
