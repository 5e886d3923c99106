//! Text spelled in an encoding, recognised by its shape rather than by the call that decodes
//! it: a program whose output a shell runs, given such text, is running what nobody can read
//! on the line (`python3 -c '…' =72=6D=20… | sh`), whichever decoder it calls.

/// Whether `raw` (a word or a line) carries text written in an encoding a program turns back
/// into text: quoted-printable (`=72=6D`), character references (`&#114;&#109;`),
/// percent-escapes (`%72%6D`), character codes listed (`114,109,32`), or base64 or hex whose
/// bytes are readable text.
pub(crate) fn carries_encoded_text(raw: &str) -> bool {
    escapes(raw, b'=') >= 4
        || escapes(raw, b'%') >= 4
        || references(raw) >= 4
        || listed_codes(raw)
        || raw
            .split(|c: char| {
                !(c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '_' | '-'))
            })
            .any(|w| base64_text(w) || hex_text(w))
}

/// The most escapes (`sigil` and two hexadecimal digits) in one word made mostly of them: a
/// URL's few `%20`s are no payload, `%72%6D%20%2D…` is.
fn escapes(raw: &str, sigil: u8) -> usize {
    raw.split(|c: char| c.is_whitespace() || matches!(c, '\'' | '"' | '(' | ')' | ','))
        .map(|word| {
            let n = word
                .as_bytes()
                .windows(3)
                .filter(|w| w[0] == sigil && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit())
                .count();
            if n * 3 * 10 >= word.len() * 6 { n } else { 0 }
        })
        .max()
        .unwrap_or(0)
}

/// How many numeric character references (`&#114;`, `&#x72;`) the text holds.
fn references(raw: &str) -> usize {
    raw.match_indices("&#")
        .filter(|(i, _)| {
            let rest = &raw[i + 2..];
            let rest = rest.strip_prefix(['x', 'X']).unwrap_or(rest);
            let digits = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
            digits > 0 && rest[digits..].starts_with(';')
        })
        .count()
}

/// Six or more numbers in a row, separated by commas, that are the codes of printable
/// characters, most of them letters or a space (`chr for 114,109,32,45,…`).
fn listed_codes(raw: &str) -> bool {
    let mut run = 0;
    let mut letters = 0;
    for piece in raw.split(',') {
        let n = piece.trim().trim_start_matches(['(', '[', '{']);
        let n = n.trim_end_matches([')', ']', '}', '\'', '"']);
        match n.parse::<u8>() {
            Ok(code) if !n.is_empty() && n.len() <= 3 && (9..=126).contains(&code) => {
                run += 1;
                if code == b' ' || code.is_ascii_alphabetic() {
                    letters += 1;
                }
                if run >= 6 && letters * 2 >= run {
                    return true;
                }
            }
            // The list's first number may follow a word (`chr for 114`).
            _ => {
                let last = piece
                    .rsplit(|c: char| !c.is_ascii_digit())
                    .next()
                    .unwrap_or("");
                let first = last.parse::<u8>().ok().filter(|c| (9..=126).contains(c));
                run = usize::from(first.is_some());
                letters = usize::from(first.is_some_and(|c| c == b' ' || c.is_ascii_alphabetic()));
            }
        }
    }
    false
}

/// Whether bytes are a line of text: printable, with a space or a slash, mostly letters.
fn readable(bytes: &[u8]) -> bool {
    bytes.len() >= 6
        && bytes
            .iter()
            .all(|b| b.is_ascii_graphic() || matches!(b, b' ' | b'\t' | b'\n'))
        && bytes.iter().any(|b| matches!(b, b' ' | b'/'))
        && bytes.iter().filter(|b| b.is_ascii_alphabetic()).count() * 2 >= bytes.len()
}

/// A word of base64 (either alphabet) whose bytes are readable text.
fn base64_text(word: &str) -> bool {
    let body = word.trim_end_matches('=');
    if body.len() < 12 || body.len() % 4 == 1 {
        return false;
    }
    if !body
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'/' | b'_'))
    {
        return false;
    }
    trail_base::text::base64_decode(body).is_some_and(|bytes| readable(&bytes))
}

/// A word of hexadecimal digits whose bytes are readable text.
fn hex_text(word: &str) -> bool {
    if word.len() < 12 || word.len() % 2 == 1 || !word.bytes().all(|b| b.is_ascii_hexdigit()) {
        return false;
    }
    let bytes: Vec<u8> = word
        .as_bytes()
        .chunks(2)
        .filter_map(|p| u8::from_str_radix(std::str::from_utf8(p).ok()?, 16).ok())
        .collect();
    readable(&bytes)
}

#[cfg(test)]
mod tests {
    use super::carries_encoded_text as enc;

    #[test]
    fn encodings_of_a_line_are_recognised() {
        // `rm -rf /usr/share/alsa` in each encoding.
        assert!(enc("=72=6D=20=2D=72=66=20=2F=75=73=72"));
        assert!(enc("'&#114;&#109;&#32;&#45;&#114;&#102;&#32;&#47;'"));
        assert!(enc("&#x72;&#x6d;&#x20;&#x2d;"));
        assert!(enc("%72%6D%20%2D%72%66"));
        assert!(enc("print chr for 114,109,32,45,114,102,32,47,117,115,114"));
        assert!(enc("cm0gLXJmIC91c3Ivc2hhcmUvYWxzYQ=="));
        assert!(enc("726d202d7266202f7573722f7368617265"));
    }

    #[test]
    fn ordinary_words_are_not_encoded_text() {
        for w in [
            "print(1)",
            "ls -la build",
            "a=1,b=2",
            "--ports 80,443,8080,8443,9000,9090",
            "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "deadbeefcafebabe0123456789abcdef",
            "dist/app-1.2.3-linux-x86_64.tar.gz",
            "https://example.com/a%20b",
            "curl 'https://example.com/search?q=a%20b%20c%20d%20e&lang=en-GB&page=2'",
            "ZWNobyBvaw",
            "abcdefghijklmnop",
        ] {
            assert!(!enc(w), "{w}");
        }
    }
}
