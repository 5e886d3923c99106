//! The secret half of a key pair, whatever it is called. A service that hands out a pair
//! (a public key and the secret that signs with it) has its users store both side by side,
//! and the second is named as each person likes: `FC_SALT`, `crumb`, `other_half`,
//! `signature_seed`. No name says "credential"; what gives it away is its neighbour. A
//! generated value in the same block of settings as a generated value named public (or one
//! with a `pub_` prefix) is the pair's other half, unless its own name says it is an id, a
//! digest, a signature or an address, which public material sits beside too (a Nostr event's
//! `sig`, a key's `fingerprint`).

use crate::plausible;
use crate::text;

/// At most this many lines apart, with no blank line between, make one block of settings.
const NEAR: usize = 4;

/// Words of a name that say its value is public, or derived from public material.
const NOT_SECRET: &[&str] = &[
    "id",
    "ids",
    "uuid",
    "kid",
    "fingerprint",
    "fp",
    "hash",
    "digest",
    "checksum",
    "sum",
    "sha",
    "sha1",
    "sha256",
    "md5",
    "crc",
    "etag",
    "version",
    "url",
    "uri",
    "host",
    "endpoint",
    "user",
    "username",
    "account",
    "name",
    "email",
    "region",
    "project",
    "tenant",
    "org",
    "station",
    "sig",
    "signature",
    "signed",
    "nonce",
    "iv",
    "cert",
    "certificate",
    "modulus",
    "exponent",
    "address",
    "addr",
    "commit",
    "build",
    "release",
    "integrity",
    "tag",
    "serial",
];

/// The spans of the secret halves of key pairs in `text`.
pub(crate) fn secret_halves(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text the hooks redact comes here: nearly all mention nothing public.
    if !crate::nearby::contains_any_case(text, b"pub") {
        return out;
    }
    // (line number, blank lines seen so far, name, value span)
    let mut entries: Vec<(usize, usize, &str, (usize, usize))> = Vec::new();
    let mut blanks = 0;
    let mut at = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let start = at;
        at += line.len();
        if line.trim().is_empty() {
            blanks += 1;
            continue;
        }
        for (name, (s, e)) in assignments(line) {
            entries.push((n, blanks, name, (start + s, start + e)));
        }
    }
    for (i, &(n, block, name, (s, e))) in entries.iter().enumerate() {
        if !public(name, &text[s..e]) {
            continue;
        }
        // Entries are in line order: only the few within reach are looked at.
        // (A line may set several: `{"publicId": "…", "seal": "…"}`.)
        for &(m, other_block, other, (os, oe)) in entries[i.saturating_sub(2 * NEAR)..]
            .iter()
            .take_while(|entry| entry.0 <= n + NEAR)
        {
            if m.abs_diff(n) > NEAR || other_block != block || (os, oe) == (s, e) {
                continue;
            }
            if other_half(other, &text[os..oe]) && !out.contains(&(os, oe)) {
                out.push((os, oe));
            }
        }
    }
    out
}

/// A public key: a generated value named public (`public_key`, `FC_PUB`, `publicKey`) or given
/// a `pub_` prefix. Its vendor's prefix (`lhpk_…`) is no part of what is judged generated.
fn public(name: &str, value: &str) -> bool {
    let named = text::words(name)
        .iter()
        .any(|w| matches!(w.as_str(), "pub" | "public" | "pubkey" | "publickey"));
    match value.strip_prefix("pub_").or(value.strip_prefix("pub-")) {
        Some(body) => generated(body) || drawn_hex(body),
        None if public_prefix(value) => {
            let body = unprefixed(value);
            generated(body) || drawn_hex(body)
        }
        None => named && generated(unprefixed(value)),
    }
}

/// A vendor's prefix that says public at its end (`mpub_…`, `gbpub_…`), as `pub_` does alone,
/// or in its second part (`pp_pub_…`, `ck-pub-…`): the vendor's name, then what kind of key.
pub(crate) fn public_prefix(value: &str) -> bool {
    // (A vendor's name may hold a digit: `i360pub_…`.)
    let lower = |p: &str| {
        p.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            && p.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
    };
    let Some(i) = value.find(['_', '-']) else {
        return false;
    };
    let first = &value[..i];
    if (4..=8).contains(&i) && first.ends_with("pub") && lower(first) {
        return true;
    }
    let rest = &value[i + 1..];
    (2..=8).contains(&i)
        && lower(first)
        && rest.find(['_', '-']).is_some_and(|j| {
            let second = &rest[..j];
            (3..=8).contains(&j) && second.ends_with("pub") && lower(second)
        })
}

/// A value without its vendor's prefix: one or two parts of a few lower-case letters, each
/// ended by `_` or `-` (`lhpk_`, `sk-`, `pk_live_`), as prefixed tokens start.
fn unprefixed(value: &str) -> &str {
    let strip = |v: &'_ str| -> Option<usize> {
        v.find(['_', '-'])
            .filter(|&i| (2..=8).contains(&i) && v[..i].bytes().all(|b| b.is_ascii_lowercase()))
    };
    let Some(first) = strip(value) else {
        return value;
    };
    let rest = &value[first + 1..];
    strip(rest).map_or(rest, |second| &rest[second + 1..])
}

/// The other half: generated, and named neither public nor for public material.
fn other_half(name: &str, value: &str) -> bool {
    let words = text::words(name);
    // What a key is made from is the key (`signature_seed`).
    let seed = words.iter().any(|w| w == "seed");
    // (Nor a name or a value a `…pub` prefix marks public: Nostr's `npub`, `npub1…`.)
    !words.iter().any(|w| {
        matches!(w.as_str(), "public" | "pubkey" | "publickey")
            || w.ends_with("pub")
            || !seed && NOT_SECRET.contains(&w.as_str())
    }) && !value.starts_with("pub_")
        && !public_prefix(value)
        && !value.split_once('1').is_some_and(|(hrp, _)| {
            hrp.ends_with("pub") && hrp.bytes().all(|b| b.is_ascii_lowercase())
        })
        && value.len() >= 32
        && generated(unprefixed(value))
        && !plausible::is_uuid(value)
}

/// A shorter hex body than [`generated`] asks for (`pp_pub_0ece82dbad0f5be133b4a34f`): the
/// prefix that says public already says what it is, and twenty hex digits of a dozen
/// different ones are no word.
fn drawn_hex(body: &str) -> bool {
    let b = body.as_bytes();
    let mut seen = [false; 16];
    for c in b {
        if let Some(d) = char::from(*c).to_digit(16) {
            seen[d as usize] = true;
        }
    }
    b.len() >= 20
        && b.iter().all(u8::is_ascii_hexdigit)
        && seen.iter().filter(|&&x| x).count() >= 10
}

/// A value no one typed: a long run of one alphabet with many distinct characters, URL-safe
/// base64's `-` and `_` among them (`0WE16-jOmSTFvM3cMMdX…`, 32 random bytes: both cases,
/// where a trace's dashed hex, `7689bf79…-82928667…-1`, has one).
fn generated(value: &str) -> bool {
    value.len() >= 20
        && (crate::nearby::uniform_random(value)
            || value.contains(['-', '_'])
                && value.bytes().any(|b| b.is_ascii_uppercase())
                && value.bytes().any(|b| b.is_ascii_lowercase())
                // (A name's or a flag's start, `__init__`, `--dry-run`; but unpadded base64url
                // of 16, 32 or 64 bytes may open with either: `_J7WOKYV…`, 43 long.)
                && (!value.starts_with(['-', '_']) || matches!(value.len(), 22 | 43 | 86))
                && value
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                && crate::nearby::uniform_random(&value.replace(['-', '_'], "")))
}

/// Every setting of a line: one per separator that starts a value (a JSON object on one line
/// sets several), none inside another's value.
fn assignments(line: &str) -> Vec<(&str, (usize, usize))> {
    let mut out: Vec<(&str, (usize, usize))> = Vec::new();
    let mut from = 0;
    while let Some(found) = line[from..].find(['=', ':']) {
        let sep = from + found;
        from = sep + 1;
        if let Some((name, (s, e))) = assignment_at(line, sep) {
            out.push((name, (s, e)));
            from = from.max(e);
        }
    }
    out
}

/// The name and the value's span of a line that sets one (`NAME=value`, `name: "value"`,
/// `"name": "value",`, `name = value`, `name => 'value'`, `export NAME=value`), or `None`.
/// The separator is the one at byte `sep`; a name with its type (`MP_KEY: &str = "…"`, `key:
/// string = '…'`) is the name.
fn assignment_at(line: &str, sep: usize) -> Option<(&str, (usize, usize))> {
    let b = line.as_bytes();
    // A URL's scheme is no separator, nor the second byte of `==`, `:=` or `=>`'s first.
    if line[sep..].starts_with("://") || sep > 0 && matches!(b[sep - 1], b'=' | b':' | b'!') {
        return None;
    }
    let mut head = line[..sep].trim_end();
    if b[sep] == b'='
        && let Some((before, ty)) = head.rsplit_once(':')
        && !ty.contains(['"', '\'', ',', '{', '(', '='])
        && !ty.trim().is_empty()
    {
        head = before;
    }
    let name = head
        .trim_end()
        .trim_end_matches(['"', '\'', '?', '+', '!', ':'])
        .trim_end();
    let name_start = name
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = &name[name_start..];
    if name.is_empty() {
        return None;
    }
    let mut i = sep + 1;
    while i < b.len() && matches!(b[i], b'=' | b'>' | b' ' | b'\t') {
        i += 1;
    }
    let quote = b.get(i).copied().filter(|c| matches!(c, b'"' | b'\''));
    if quote.is_some() {
        i += 1;
    }
    let len = b[i..]
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
        .count();
    let end = i + len;
    // The value ends there: at its quote, the line's end, or a separator of the syntax.
    let ends = match quote {
        Some(q) => b.get(end) == Some(&q),
        None => b
            .get(end)
            .is_none_or(|c| c.is_ascii_whitespace() || matches!(c, b',' | b';' | b'}' | b')')),
    };
    (len > 0 && ends).then_some((name, (i, end)))
}
