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

/// The values of credential headers configured as numbered pairs of fields, the header's name
/// in one and its value in the other (Grafana's `httpHeaderName1: X-Acme-ApiKey` with
/// `secureJsonData: httpHeaderValue1: "…"`; `header_name_2` / `header_value_2`): the field
/// named like the name's, with `value` for `name` and the same number, holds what is sent.
pub(crate) fn numbered_values(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !contains_any_case(text, b"name") || !contains_any_case(text, b"value") {
        return out;
    }
    let b = text.as_bytes();
    let lower = text.to_ascii_lowercase();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    for (at, _) in lower.match_indices("name") {
        let mut start = at;
        while start > 0 && word(b[start - 1]) {
            start -= 1;
        }
        let digits = b[at + 4..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let end = at + 4 + digits;
        // The name field's own name ends there, and something comes before `name`.
        if start == at || b.get(end).is_some_and(|&c| word(c)) {
            continue;
        }
        let Some((s, e)) = value_after(text, end) else {
            continue;
        };
        if !credential_header(&text[s..e]) {
            continue;
        }
        let partner = format!("{}value{}", &lower[start..at], &lower[at + 4..end]);
        for (p, _) in lower.match_indices(&partner) {
            let after = p + partner.len();
            if p > 0 && word(b[p - 1]) || b.get(after).is_some_and(|&c| word(c)) {
                continue;
            }
            if let Some((vs, ve)) = field_value(text, after) {
                out.extend(generated_words(text, vs, ve));
            }
        }
    }
    out
}

/// The value of the field whose name ends at `at`: past a closing quote, blanks and `:` or `=`,
/// a quoted string's content, or the rest of the line.
fn field_value(text: &str, at: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let i = past_separator(b, at, b"=:")?;
    match b.get(i) {
        Some(&q @ (b'"' | b'\'')) => {
            let s = i + 1;
            let e = s + b[s..].iter().position(|&c| c == q || c == b'\n')?;
            (b[e] == q).then_some((s, e))
        }
        Some(_) => {
            let e = i + b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .unwrap_or(b.len() - i);
            Some((i, e))
        }
        None => None,
    }
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
    // Written as a header is (`X-Auth-Token`, `Api-Key`, `Authorization`); a field's name
    // (`api_token`, `token_address`) is read by the other scanners. Checked first: it is cheap.
    let header =
        !name.contains('_') && (name.contains('-') || name.eq_ignore_ascii_case("authorization"));
    if !header {
        return false;
    }
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
    carries && !names_only
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

/// A key sent as the user beside a dummy password, as APIs that take their key by HTTP Basic
/// ask (`user = "<40 hex>", pass = "X"`, `UPSTREAM_USER=<key>" "UPSTREAM_PASS=x`,
/// `'Username', '<key>', 'Password', 'X'`): the user is the credential. A generated user beside
/// a real password, or a user that is a word, is a login's name.
pub(crate) fn keys_as_users(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !contains_any_case(text, b"user") || !contains_any_case(text, b"pass") {
        return out;
    }
    let b = text.as_bytes();
    let name_byte = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.');
    let mut i = 0;
    while i < b.len() {
        if !name_byte(b[i]) || (i > 0 && name_byte(b[i - 1])) {
            i += 1;
            continue;
        }
        let end = i + b[i..].iter().take_while(|&&c| name_byte(c)).count();
        // Only a name ending in one of the words (before any separators) can be split into
        // it: the bytes first.
        let name = text[i..end].trim_end_matches(['_', '-', '.']).as_bytes();
        let tail = |w: &[u8]| {
            name.len() >= w.len() && name[name.len() - w.len()..].eq_ignore_ascii_case(w)
        };
        let user = (tail(b"user") || tail(b"username") || tail(b"login"))
            && crate::text::words(&text[i..end])
                .last()
                .is_some_and(|w| matches!(w.as_str(), "user" | "username" | "login"));
        let at = end;
        i = end;
        if !user {
            continue;
        }
        let Some((s, e)) = value_after(text, at) else {
            continue;
        };
        let value = &text[s..e];
        if value.len() < 24 || plausible::is_uuid(value) || !generated(value) {
            continue;
        }
        let mut limit = (e + 160).min(text.len());
        while !text.is_char_boundary(limit) {
            limit -= 1;
        }
        let reach = &text[e..limit];
        if dummy_password(reach) {
            out.push((s, e));
        }
    }
    out
}

/// The span of the value after a name: its closing quote, blanks, one of `=`, `:`, `,`, blanks
/// and an opening quote may stand between; then a word of letters, digits, `_` and `-`.
fn value_after(text: &str, at: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let mut i = past_separator(b, at, b"=:,")?;
    if matches!(b.get(i), Some(b'"' | b'\'')) {
        i += 1;
    }
    let len = b[i..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
        .count();
    (len > 0).then_some((i, i + len))
}

/// Where a value starts after a name that ends at `at`: past the name's closing quote, blanks,
/// one of `separators` and blanks; `None` when no separator stands there.
fn past_separator(b: &[u8], at: usize, separators: &[u8]) -> Option<usize> {
    let mut i = at;
    if matches!(b.get(i), Some(b'"' | b'\'')) {
        i += 1;
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    if !b.get(i).is_some_and(|c| separators.contains(c)) {
        return None;
    }
    i += 1;
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    Some(i)
}

/// Whether a password named in `reach` is a dummy: empty or one character (`pass = "X"`).
fn dummy_password(reach: &str) -> bool {
    let b = reach.as_bytes();
    (0..b.len()).any(|i| {
        b[i..].len() >= 4
            && b[i..i + 4].eq_ignore_ascii_case(b"pass")
            && (i == 0 || !b[i - 1].is_ascii_alphabetic())
            && {
                let end = i + b[i..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_'))
                    .count();
                match value_after(reach, end) {
                    Some((s, e)) => e - s <= 1,
                    None => {
                        reach[end..]
                            .trim_start_matches(['"', '\'', ' '])
                            .starts_with(['=', ':'])
                            && reach[end..]
                                .trim_start_matches(['"', '\'', ' ', '=', ':'])
                                .starts_with(['"', '\''])
                    }
                }
            }
    })
}
