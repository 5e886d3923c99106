//! A credential header's value written apart from a header line: the header's name as one
//! string and its value as the next, in whatever syntax holds the pair (Kotlin's `mapOf("X-Api-
//! Key" to "…")`, EDN's `{"Authorization" "…"}`, Erlang's `{<<"X-Access-Token">>, <<"…">>}`,
//! MATLAB's `{'Authorization' '…'}`, an XML-RPC struct's `<string>X-Auth-Token</string>` then
//! the next `<string>`). Whatever the syntax, a header named for a credential is followed by the
//! value it sends; the generated words of that value are the credential.

use crate::nearby::contains_any_case;
use crate::plausible;

/// The spans of generated words in the values of credential headers named apart from them.
pub(crate) fn values(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text comes here: most name no such header.
    if !["authorization", "token", "key", "secret"]
        .iter()
        .any(|n| contains_any_case(text, n.as_bytes()))
    {
        return out;
    }
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        // A name opens after a quote or an element's `>`.
        if !matches!(b[i], b'"' | b'\'' | b'>') {
            i += 1;
            continue;
        }
        let start = i + 1;
        let len = b[start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_'))
            .count();
        let end = start + len;
        i = end.max(i + 1);
        if len < 3 || !closes(b, i - len - 1, end) || !credential_header(&text[start..end]) {
            continue;
        }
        if let Some((s, e)) = next_string(text, end) {
            out.extend(generated_words(text, s, e));
        }
    }
    out
}

/// Whether the name that opened at `open` (a quote or `>`) is closed right after it: the same
/// quote, or `<` for an element's text.
fn closes(b: &[u8], open: usize, end: usize) -> bool {
    match (b.get(open), b.get(end)) {
        (Some(b'>'), Some(b'<')) => true,
        (Some(&q), Some(&c)) => q == c && matches!(q, b'"' | b'\''),
        _ => false,
    }
}

/// Whether a name is a header that carries a credential (`Authorization`, `X-Auth-Token`,
/// `X-inFakt-ApiKey`), not one that only names a key (`Idempotency-Key`, `Cache-Key`).
fn credential_header(name: &str) -> bool {
    let words = crate::text::words(name);
    let carries = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "authorization" | "token" | "apikey" | "secret" | "auth"
        )
    }) || words.windows(2).any(|w| w[0] == "api" && w[1] == "key");
    let names_only = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "idempotency" | "idempotence" | "cache" | "public" | "publishable" | "request" | "id"
        )
    });
    // Written as a header is (`X-Auth-Token`, `Api-Key`, `Authorization`); a field's name
    // (`api_token`, `token_address`) is read by the other scanners.
    let header =
        !name.contains('_') && (name.contains('-') || name.eq_ignore_ascii_case("authorization"));
    carries && !names_only && header
}

/// The next string after a name, within a short reach: a quoted string (`"…"`, `'…'`,
/// Erlang's `<<"…">>`) or an element's text (`<string>…</string>`), across the syntax
/// between (`, `, ` to `, `>>, <<`, `</string></value></member> <member>…`). Its content's
/// span.
fn next_string(text: &str, from: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    // An attribute's name, then the element's text (`<gw:Header name="Authorization">…<`).
    // (Erlang's binary closes with `>>`: its value is the next string.)
    if matches!(b.get(from), Some(b'"' | b'\''))
        && b.get(from + 1) == Some(&b'>')
        && b.get(from + 2) != Some(&b'>')
    {
        let s = from + 2;
        let e = s + text[s..].find(['<', '\n'])?;
        return (b.get(e) == Some(&b'<')).then_some((s, e));
    }
    // Past the name's own closing quote or element end.
    let mut i = from + 1;
    let limit = (from + 240).min(b.len());
    while i < limit {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                let s = i + 1;
                let e = s + b[s..].iter().position(|&c| c == q || c == b'\n')?;
                return (b[e] == q).then_some((s, e));
            }
            b'<' if text[i..].starts_with("<string>") => {
                let s = i + "<string>".len();
                let e = s + text[s..].find('<')?;
                return Some((s, e));
            }
            // Another statement or entry begins: the name had no value here.
            b';' | b'\n' if !text[from..i].contains('<') => return None,
            _ => i += 1,
        }
    }
    None
}

/// The generated words of a header's value (`chave_api 762n… aplicacao 678f…`, `acct-12:
/// 21e2…`): long random words, split at blanks and colons; a variable's reference
/// (`${KEY}`, `\(secrets.key)`) is none.
fn generated_words(text: &str, s: usize, e: usize) -> Vec<(usize, usize)> {
    let value = &text[s..e];
    if value.contains("${") || value.contains("\\(") || value.contains("{{") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut at = 0;
    for word in value.split([' ', ':']) {
        let w = word.trim_matches([',', ';']);
        if generated(w) && !plausible::is_placeholder(w) {
            let off = s + at + word.find(w).unwrap_or(0);
            out.push((off, off + w.len()));
        }
        at += word.len() + 1;
    }
    out
}

/// A generated word: sixteen or more characters of letters and digits (hex, or mixed), or a
/// UUID.
fn generated(w: &str) -> bool {
    let b = w.as_bytes();
    if plausible::is_uuid(w) {
        return true;
    }
    b.len() >= 16
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'+' | b'/' | b'='))
        && b.iter().filter(|c| c.is_ascii_digit()).count() >= 3
        && b.iter().filter(|c| c.is_ascii_alphabetic()).count() >= 3
}
