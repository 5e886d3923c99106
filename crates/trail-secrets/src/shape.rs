//! Shape pre-filters: hand-written tests, run after a rule's keywords matched
//! and before its regex is compiled, that a match is possible at all. Broad
//! keywords (`token`, `key`, `://`, `sk`) fill ordinary agent transcripts;
//! an assignment of a long value or a URL with a password rarely does, and
//! compiling a regex costs more than the whole scan of a clean text.

use memchr::arch::all::memchr::One;

/// A hand-written test, run after the keywords matched and before the regex
/// is compiled, that some match is possible at all. Each is a necessary
/// condition for its rule (a property test checks this), so it can only save
/// work, never miss a secret. Broad keywords such as `token` or `://` are in
/// most agent transcripts, but an assignment of a long value or a URL with a
/// password rarely is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Keywords are enough.
    Any,
    /// One of these occurs with this exact case (keywords are compared
    /// case-insensitively, so `task` opens the gate for `SK…`).
    Literal(&'static [&'static str]),
    /// A name keyword followed by an operator and an 8-byte value.
    Assignment,
    /// `authorization` followed by `:`/`=`, or `bearer` and a space.
    Authorization,
    /// `://` followed, in the same token, by `:` and then `@`.
    UrlCredentials,
    /// `user:value@host` in one token with no `://` in it: a login without a scheme.
    Userinfo,
    /// `-u`/`--user` or a `--…password…` style flag.
    Cli,
    /// A short password flag (` -p`, ` -a` in either case, with a blank or a tab before), or
    /// lftp's bare `-u user,password` with a digit in the password.
    PasswordFlag,
    /// Markup that can hold a value: `</`, `value=` or `name=`.
    Markup,
    /// `==` right after 86 base64 characters.
    Base64Key,
    /// A run of 20 token characters (`[A-Za-z0-9_-]`) after a blank or a quote, with a
    /// letter and a digit in it.
    LongToken,
    /// A lower-case word of 2 to 12 characters, `_` or `-`, then 20 or more token
    /// characters with a digit among them: what a prefixed token needs (one pass, no regex).
    PrefixedToken,
    /// `-H`/`--header` then a header name with `token`, `key`, `secret` or
    /// `api` in it, then `:`. `curl -H 'Authorization: …'` is the usual
    /// header flag, and the authorization rule's.
    HeaderFlag,
    /// A line of two words, the first naming a key, token or secret (`LicenseKey hQZY…`).
    NameLine,
    /// A line of five `:`-separated fields without a blank, the second a port or `*`: a
    /// `.pgpass` line.
    ColonFields,
    /// `-----BEGIN` and a label that says `SECRET` or `Static key`.
    SecretLabel,
    /// `is` or `was` between blanks, with a word naming a secret at most 52 bytes before it
    /// (`the password is …`, `login is admin / …`).
    Prose,
    /// A quote that opens a call's argument: after `(` or `,` and blanks, or after `auth ` or
    /// `new ` (Ruby's calls without brackets).
    CallString,
}

impl Shape {
    /// `lowered` is `text` in ASCII lower case (same length and offsets).
    pub(crate) fn admits(self, text: &str, lowered: &[u8]) -> bool {
        match self {
            Shape::Any => true,
            Shape::Literal(literals) => literals
                .iter()
                .any(|l| find_all(text.as_bytes(), l.as_bytes()).next().is_some()),
            Shape::Assignment => assignment_shape(lowered),
            Shape::Authorization => authorization_shape(lowered),
            Shape::UrlCredentials => url_credentials_shape(lowered),
            Shape::Userinfo => userinfo_shape(lowered),
            Shape::Cli => cli_shape(lowered),
            Shape::PasswordFlag => password_flag_shape(lowered),
            Shape::HeaderFlag => header_flag_shape(lowered),
            Shape::NameLine => name_line_shape(lowered),
            Shape::Prose => prose_shape(lowered),
            Shape::CallString => call_string_shape(lowered),
            Shape::PrefixedToken => prefixed_token_shape(text.as_bytes()),
            Shape::LongToken => long_token_shape(text.as_bytes()),
            Shape::Base64Key => find_all(lowered, b"==").any(|at| {
                at >= 86
                    && lowered[at - 86..at]
                        .iter()
                        .all(|&c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/')
            }),
            Shape::ColonFields => text.split('\n').any(pgpass_line_shape),
            Shape::SecretLabel => find_all(text.as_bytes(), b"-----BEGIN").any(|at| {
                let rest = &text.as_bytes()[at + 10..];
                let label = &rest[..rest
                    .iter()
                    .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b' ' | b'_' | b'-'))
                    .count()];
                let has = |k: &[u8]| label.windows(k.len()).any(|w| w.eq_ignore_ascii_case(k));
                (has(b"SECRET") || has(b"SEED") || has(b"KEY"))
                    && !has(b"PUBLIC")
                    && !has(b"PRIVATE")
            }),
            // (`key=` too: an element's `key="…_token"` attribute before its text, found by
            // the shape property test.)
            Shape::Markup => [&b"</"[..], b"value=", b"name=", b"key="]
                .iter()
                .any(|k| find_all(lowered, k).next().is_some()),
        }
    }
}

/// Whether `line` can be a `.pgpass` line (`host:port:database:user:password`, blanks only
/// around it): JSON's and a URL's colons are not.
fn pgpass_line_shape(line: &str) -> bool {
    let t = line
        .trim_start_matches([' ', '\t'])
        .trim_end_matches([' ', '\t', '\r']);
    if t.bytes().any(|c| c.is_ascii_whitespace()) {
        return false;
    }
    let mut fields = t.split(':');
    let (Some(host), Some(port)) = (fields.next(), fields.next()) else {
        return false;
    };
    !host.is_empty()
        && (port == "*"
            || (1..=5).contains(&port.len()) && port.bytes().all(|c| c.is_ascii_digit()))
        && fields.count() >= 3
}

/// Start offsets of `needle` in `haystack`.
///
/// This uses `memchr`'s portable word-at-a-time search on the first byte,
/// then a comparison. The SIMD entry points detect CPU features on first
/// use, which costs tens of microseconds where `cpuid` traps to a
/// hypervisor: too much for a process that lives one millisecond and, most
/// of the time, needs a single pass over a few kilobytes.
pub(crate) fn find_all<'a>(
    haystack: &'a [u8],
    needle: &'a [u8],
) -> impl Iterator<Item = usize> + 'a {
    let finder = needle.first().map(|&b| One::new(b));
    let mut pos = 0;
    std::iter::from_fn(move || {
        let finder = finder.as_ref()?;
        loop {
            let at = pos + finder.find(haystack.get(pos..)?)?;
            pos = at + 1;
            if haystack[at..].starts_with(needle) {
                return Some(at);
            }
        }
    })
}

fn is_name_byte(b: u8) -> bool {
    // A byte of a letter outside ASCII too (`hasło`, `пароль`): names are written in any
    // language.
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-' || b >= 0x80
}

fn is_space_or_quote(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'"' || b == b'\'' || b == b'`'
}

/// Some operator (`:`, `=`, `!`, `?`, `<`, `,`) or opening quote has, before
/// it, a name containing a name keyword (then an optional `[]`, closing quote
/// and blanks) and, after it, a value of at least 8 bytes: the least that
/// `generic-assignment` (and `aws-secret-access-key`) can accept. A quoted
/// value runs to its closing quote (it may hold spaces), a bare one to
/// whitespace or a quote.
fn assignment_shape(lowered: &[u8]) -> bool {
    const fn table() -> [bool; 256] {
        let mut t = [false; 256];
        let ops = b":=!?<,\"'-";
        let mut i = 0;
        while i < ops.len() {
            t[ops[i] as usize] = true;
            i += 1;
        }
        t
    }
    static OPERATORS: [bool; 256] = table();
    lowered.iter().enumerate().any(|(op, &c)| {
        OPERATORS[usize::from(c)]
            // `-` only as Scala's pair arrow `->`.
            && (c != b'-' || lowered.get(op + 1) == Some(&b'>'))
            && value_after(lowered, op)
            && secret_name_before(lowered, op)
    })
}

/// Whether a secret's name ends at `end`: bare, or inside a lookup's closing bracket.
fn named_at(b: &[u8], end: usize) -> bool {
    if names_secret(b, end) {
        return true;
    }
    // `env["NAME"] = …`: a subscript's closing bracket; `get('NAME') !== …`: a lookup's;
    // Perl's hash subscript (`$ENV{NAME} = …`); the name quoted inside it (`("app_key"): T
    // @"…"`), as the regex reads.
    if end > 0 && matches!(b[end - 1], b']' | b')' | b'}') {
        if names_secret(b, end - 1) {
            return true;
        }
        if end > 1 && matches!(b[end - 2], b'"' | b'\'' | b'`') && names_secret(b, end - 2) {
            return true;
        }
    }
    // A form body's subscript, percent-encoded (`f%5Bauth%5D=…`).
    end >= 3 && &b[end - 3..end] == b"%5d" && names_secret(b, end - 3)
}

fn secret_name_before(b: &[u8], op: usize) -> bool {
    let mut end = op;
    // A compound assignment's `=` (`secret ||= '…'`, `&&=`, `??=`): the name is before it.
    if b.get(op) == Some(&b'=') && op >= 2 && matches!(&b[op - 2..op], b"||" | b"&&" | b"??") {
        end -= 2;
    }
    // A quote that opens the value may be escaped (`--token \"…\"`), and C#'s `name @"…"`
    // puts an `@` before it.
    if matches!(b.get(op), Some(b'"' | b'\'')) {
        if end > 0 && b[end - 1] == b'\\' {
            end -= 1;
        }
        if end > 0 && b[end - 1] == b'@' {
            end -= 1;
        }
    }
    while end > 0 && matches!(b[end - 1], b' ' | b'\t') {
        end -= 1;
    }
    if named_at(b, end) {
        return true;
    }
    // `name: &str = …`, `name: String = …`, Visual Basic's `name As String = …`: a type between
    // the name and the operator (the regex allows it before any operator, so this does too).
    // A type may hold `:` itself (`std::string::String`, or a type ending in one before the
    // operator): any `:` inside such a run may be the one after the name.
    let mut run = end;
    while run > 0
        && (is_name_byte(b[run - 1]) || matches!(b[run - 1], b'&' | b'\'' | b'<' | b'>' | b':'))
    {
        run -= 1;
    }
    if (run..end).any(|p| b[p] == b':' && named_at(b, p)) {
        return true;
    }
    // A type before the operator, then the name and its `:`. (Or a type that ends in `:`
    // itself, `X-Api-Key: user:: …`, found by the shape property test: the regex reads
    // `user:` as the type.)
    typed_name_before(b, end, false) || typed_name_before(b, end, true)
}

/// Whether `name: Type` (`as Type`) ends at `end` with a secret's name, the type's bytes
/// including `:` when `colons`.
fn typed_name_before(b: &[u8], end: usize, colons: bool) -> bool {
    let mut t = end;
    while t > 0
        && (is_name_byte(b[t - 1])
            || matches!(b[t - 1], b'&' | b'\'' | b'<' | b'>')
            || colons && b[t - 1] == b':')
    {
        t -= 1;
    }
    while t > 0 && matches!(b[t - 1], b' ' | b'\t') {
        t -= 1;
    }
    if t == end || t == 0 {
        return false;
    }
    let said_as = t >= 3 && &b[t - 2..t] == b"as" && matches!(b[t - 3], b' ' | b'\t');
    let mut name_end = match b[t - 1] {
        b':' => t - 1,
        _ if said_as => t - 3,
        _ => return false,
    };
    while name_end > 0 && matches!(b[name_end - 1], b' ' | b'\t') {
        name_end -= 1;
    }
    names_secret(b, name_end)
}

/// Whether the name ending at `end` (after a quote, `\\` and `[]`) holds a secret's keyword.
fn names_secret(b: &[u8], end: usize) -> bool {
    const NAMES: &[&[u8]] = &[
        b"key",
        b"token",
        b"secret",
        b"pass",
        b"pwd",
        b"psk",
        b"seed",
        b"mnemonic",
        b"credential",
        b"creds",
        b"auth",
        b"license",
        b"licence",
    ];
    let mut end = end;
    // R quotes a name with backticks (`` `X-API-Key` = "…" ``).
    if end > 0 && matches!(b[end - 1], b'"' | b'\'' | b'`') {
        end -= 1;
    }
    if end > 0 && b[end - 1] == b'\\' {
        end -= 1;
    }
    if end > 1 && &b[end - 2..end] == b"[]" {
        end -= 2;
    }
    let mut start = end;
    while start > 0 && is_name_byte(b[start - 1]) {
        start -= 1;
    }
    let name = &b[start..end];
    let has = |k: &[u8]| name.windows(k.len()).any(|w| w == k);
    NAMES.iter().any(|k| has(k))
        || crate::plausible::PASSWORD_ELSEWHERE
            .iter()
            .any(|k| has(k.as_bytes()))
        // `pw`, `pat` and `cred` ending a part of the name (`pw`, `DB_PW`, `SHIPBOB_PAT`, a
        // camelCase `…Pw` or `ACREd`, which lower case hides): generic-assignment's regex
        // matches them only there, and its check reads the words back. Found by the proptest
        // below.
        || name
            .split(|&c| matches!(c, b'_' | b'-' | b'.'))
            .any(|w| w.ends_with(b"pw") || w.ends_with(b"pat") || w.ends_with(b"cred"))
}

/// At least 8 value bytes after an operator or opening quote at `op`.
fn value_after(b: &[u8], op: usize) -> bool {
    let at = |j: usize| b.get(j).copied().unwrap_or(0);
    let rest = b.get(op..).unwrap_or_default();
    // The longest operator, as the regex's alternation prefers it; a quote
    // at `op` is the value's own.
    let op_len = [
        &b"==="[..],
        b"!==",
        // A fallback's (`KEY ?? "…"`, found by the shape property test) and the compound
        // assignments', as the regex has them.
        b"??=",
        b"||=",
        b"&&=",
        b"??",
        b":=",
        b"!=",
        b"==",
        b"?=",
        b"=>",
        b"->",
        b"<-",
        b"=",
        b":",
        b",",
    ]
    .iter()
    .find(|o| rest.starts_with(o))
    .map_or(0, |o| o.len());
    let mut j = op + op_len;
    while matches!(at(j), b' ' | b'\t') {
        j += 1;
    }
    // C#'s `@"…"`: the `@` before a quote. Before anything else it may be the value's own
    // first byte (`password :@=aa-=0A`, found by the shape property test), as the regex's
    // optional `@?` lets it be.
    if at(j) == b'@' && matches!(at(j + 1), b'"' | b'\'' | b'\\') {
        j += 1;
    } else if at(j) == b'{' && b.get(op) != Some(&b',') {
        // A one-element list around a double-quoted value (Go's `{"…"}`), as the regex has it.
        let mut k = j + 1;
        while matches!(at(k), b' ' | b'\t') {
            k += 1;
        }
        if at(k) == b'"' {
            j = k;
        }
    } else if let Some(n) = (1..=2).find(|&n| {
        (0..n).all(|i| matches!(at(j + i), b'b' | b'r' | b'u'))
            && matches!(at(j + n), b'"' | b'\'' | b'\\')
    }) {
        // A string's prefix letters (`b"…"`, `r'…'`), as the regex skips them.
        j += n;
    }
    if at(j) == b'\\' {
        j += 1;
    }
    let rest = b.get(j + 1..).unwrap_or_default();
    let comma = b.get(op) == Some(&b',');
    // Counting stops at 8 except where the closing quote must be found, so
    // that a text full of quotes stays linear.
    let cap = if comma { usize::MAX } else { 8 };
    let run = match at(j) {
        q @ (b'"' | b'\'' | b'`') => rest
            .iter()
            .take_while(|&&c| c != q && c != b'\n')
            .take(cap)
            .count(),
        0 => 0,
        _ => {
            1 + rest
                .iter()
                .take_while(|&&c| !is_space_or_quote(c))
                .take(7)
                .count()
        }
    };
    if run >= 8 && comma {
        // `getenv("name", "value")`: the value is quoted and closes the call.
        let after = j + 2 + run;
        let blanks = b
            .get(after..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| matches!(c, b' ' | b'\t'))
            .count();
        return matches!(at(j), b'"' | b'\'') && at(after + blanks) == b')';
    }
    run >= 8
}

fn header_flag_shape(lowered: &[u8]) -> bool {
    let at = |j: usize| lowered.get(j).copied().unwrap_or(0);
    find_all(lowered, b"-h")
        .map(|i| i + 2)
        .chain(find_all(lowered, b"--header").map(|i| i + 8))
        .any(|mut j| {
            while matches!(at(j), b' ' | b'\t' | b'=' | b'\\' | b'"' | b'\'') {
                j += 1;
            }
            let name_len = lowered
                .get(j..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
                .count();
            let name = &lowered[j..j + name_len];
            at(j + name_len) == b':'
                && [&b"token"[..], b"key", b"secret", b"api", b"session"]
                    .iter()
                    .any(|k| find_all(name, k).next().is_some())
        })
}

fn authorization_shape(lowered: &[u8]) -> bool {
    let header = find_all(lowered, b"authorization").any(|at| {
        let mut j = at + "authorization".len();
        let at = |j: usize| lowered.get(j).copied().unwrap_or(0);
        if at(j) == b'\\' {
            j += 1;
        }
        if matches!(at(j), b'"' | b'\'') {
            j += 1;
        }
        while matches!(at(j), b' ' | b'\t') {
            j += 1;
        }
        // Or a server's directive: blanks, a quote, then the Basic scheme.
        let directive = || {
            let k = j + usize::from(matches!(at(j), b'"' | b'\''));
            lowered.get(k..k + 6) == Some(b"basic ")
        };
        // A comma and a quote: the name and the value as two arguments of a call.
        let argument = || {
            let mut k = j + 1;
            while matches!(at(k), b' ' | b'\t') {
                k += 1;
            }
            matches!(at(k), b'"' | b'\'' | b'\\')
        };
        matches!(at(j), b':' | b'=') || at(j) == b',' && argument() || directive()
    });
    header
        || find_all(lowered, b"bearer").any(|at| {
            matches!(
                lowered.get(at + "bearer".len()),
                Some(b' ' | b'\t' | b'"' | b'\'' | b',' | b':' | b'=')
            )
        })
        || find_all(lowered, b"basic ").any(|at| at > 0 && matches!(lowered[at - 1], b'"' | b'\''))
}

fn url_credentials_shape(lowered: &[u8]) -> bool {
    find_all(lowered, b"://").any(|at| {
        let rest = lowered.get(at + 3..).unwrap_or_default();
        let token_len = rest
            .iter()
            .take_while(|&&c| !c.is_ascii_whitespace() && !b"\"'<>".contains(&c))
            .count();
        let token = &rest[..token_len];
        token
            .iter()
            .position(|&c| c == b':')
            .is_some_and(|colon| token[colon..].contains(&b'@'))
    })
}

/// Some `@` whose token (back to a blank, a quote or `=`) holds a `:` and no `://`: only then
/// is the scheme-less login rule's regex compiled (a URL's login is the URL rule's, and most
/// `@`s are addresses and decorators).
fn userinfo_shape(lowered: &[u8]) -> bool {
    find_all(lowered, b"@").any(|at| {
        let start = lowered[..at]
            .iter()
            .rposition(|c| c.is_ascii_whitespace() || b"\"'<>".contains(c))
            .map_or(0, |p| p + 1);
        let token = &lowered[start..at];
        // The user starts the token or follows an `=`; the password may hold `=` itself
        // (`sessionid=q8v2…:AAeyJ=@SK`, found by shape_checks_are_necessary_conditions).
        std::iter::once(0)
            .chain(
                token
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| **c == b'=')
                    .map(|(i, _)| i + 1),
            )
            .any(|from| {
                let rest = &token[from..];
                rest.contains(&b':') && !rest.windows(3).any(|w| w == b"://")
            })
    })
}

fn password_flag_shape(lowered: &[u8]) -> bool {
    let blank = |at: usize| at > 0 && matches!(lowered[at - 1], b' ' | b'\t');
    find_all(lowered, b"-p").any(blank)
        || find_all(lowered, b"-a").any(blank)
        || find_all(lowered, b"-u").any(|at| {
            let Some(rest) = lowered[at + 2..].strip_prefix(b" ") else {
                return false;
            };
            let rest = &rest[rest
                .iter()
                .take_while(|&&c| c == b' ' || c == b'\t')
                .count()..];
            let word = rest.iter().take_while(|c| !c.is_ascii_whitespace()).count();
            let word = &rest[..word];
            blank(at)
                && word.iter().position(|&c| c == b',').is_some_and(|comma| {
                    comma > 0 && word[comma + 1..].iter().any(u8::is_ascii_digit)
                })
        })
}

fn cli_shape(lowered: &[u8]) -> bool {
    let starts_word =
        |at: usize| at == 0 || matches!(lowered[at - 1], b' ' | b'\t' | b'\n' | b'\r');
    // `-u`, `--user`, and `-auth`/`--auth` (Jenkins' CLI, HTTPie) before `user:password`.
    let user = find_all(lowered, b"-u")
        .chain(find_all(lowered, b"-auth"))
        .any(|at| {
            let flag_start = if at > 0 && lowered[at - 1] == b'-' {
                at - 1
            } else {
                at
            };
            let after =
                if lowered[at..].starts_with(b"-user") || lowered[at..].starts_with(b"-auth") {
                    at + 5
                } else {
                    at + 2
                };
            if !starts_word(flag_start) || !matches!(lowered.get(after), Some(b' ' | b'\t' | b'='))
            {
                return false;
            }
            // `user:password`: `git push -u origin main` has no colon.
            let rest = &lowered[after..];
            let blanks = rest
                .iter()
                .take_while(|&&c| matches!(c, b' ' | b'\t' | b'='))
                .count();
            let rest = &rest[blanks..];
            let rest = rest.strip_prefix(b"\\").unwrap_or(rest);
            let rest = rest
                .strip_prefix(b"\"")
                .or_else(|| rest.strip_prefix(b"'"))
                .unwrap_or(rest);
            let user_len = rest
                .iter()
                .take_while(|&&c| !c.is_ascii_whitespace() && !b":,\"'$%".contains(&c))
                .count();
            // The password may be quoted on its own (`kevin:'pRf7…'`); after a comma (lftp's
            // `-u user,'…'`) it must be.
            let password = rest.get(user_len + 1..).unwrap_or_default();
            let quoted = password.starts_with(b"\"") || password.starts_with(b"'");
            let password = password
                .strip_prefix(b"\"")
                .or_else(|| password.strip_prefix(b"'"))
                .unwrap_or(password);
            // Samba's tools join them with `%` (`smbclient -U user%password`).
            let first_ok = |p: &[u8]| {
                p.first()
                    .is_some_and(|&c| !c.is_ascii_whitespace() && !b"\"'$".contains(&c))
            };
            // The regex's user before a colon may hold commas and percent signs (`-u ,:x`).
            let colon_user = rest
                .iter()
                .take_while(|&&c| !c.is_ascii_whitespace() && !b":\"'$<".contains(&c))
                .count();
            let after_colon = rest.get(colon_user + 1..).unwrap_or_default();
            let after_colon = after_colon
                .strip_prefix(b"\"")
                .or_else(|| after_colon.strip_prefix(b"'"))
                .unwrap_or(after_colon);
            rest.get(colon_user) == Some(&b':') && (first_ok(after_colon) || colon_user >= 20)
                || (matches!(rest.get(user_len), Some(&b':' | &b'%'))
                    || rest.get(user_len) == Some(&b',') && quoted)
                    && (first_ok(password)
                        // A key as the user, with no password (`-u '<key>:'`).
                        || user_len >= 20)
        });
    user || find_all(lowered, b"--").any(|at| {
        let name_len = lowered[at + 2..]
            .iter()
            .take_while(|&&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
            .count();
        let name = &lowered[at + 2..at + 2 + name_len];
        starts_word(at)
            && matches!(lowered.get(at + 2 + name_len), Some(b' ' | b'\t' | b'='))
            && [
                "password",
                "passwd",
                "token",
                "secret",
                "api-key",
                "apikey",
                "access-key",
            ]
            .iter()
            .any(|k| find_all(name, k.as_bytes()).next().is_some())
            || name == b"pat" && matches!(lowered.get(at + 2 + name_len), Some(b' ' | b'\t' | b'='))
    })
}

/// A run of token characters (`[A-Za-z0-9_-]`) that starts with a lower-case letter, holds `_`
/// or `-` within its first 13 bytes, 26 bytes or more after that first separator, and a digit:
/// the shape of every `prefixed-token` match. The hosts' own ids (`toolu_01…`, `msg_01…`, 22 to
/// 24 characters after the prefix) fall short of it, so a hook's payload compiles nothing.
fn prefixed_token_shape(b: &[u8]) -> bool {
    let token = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    let mut i = 0;
    while i < b.len() {
        if !token(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let mut sep = None;
        let mut digit = false;
        while i < b.len() && token(b[i]) {
            if sep.is_none() && i - start <= 12 && matches!(b[i], b'_' | b'-') {
                sep = Some(i);
            }
            digit |= b[i].is_ascii_digit();
            i += 1;
        }
        // The rule's token may go on after a dot (`hf_…letters….4GDq…`): its digit may be
        // there.
        let mut j = i;
        while sep.is_some() && !digit && j < b.len() && b[j] == b'.' {
            j += 1;
            while j < b.len() && token(b[j]) {
                digit |= b[j].is_ascii_digit();
                j += 1;
            }
        }
        if let Some(s) = sep
            && i - s > 26
            && b[start].is_ascii_lowercase()
            && digit
        {
            return true;
        }
    }
    false
}

/// A run of 20 or more token characters right after a blank or a quote, holding a letter and a
/// digit: the shape of every `cli-login-token` value.
fn name_line_shape(lowered: &[u8]) -> bool {
    lowered.split(|&c| c == b'\n').any(|line| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let mut words = line
            .split(|c| matches!(c, b' ' | b'\t'))
            .filter(|w| !w.is_empty());
        let (Some(name), Some(_), None) = (words.next(), words.next(), words.next()) else {
            return false;
        };
        name.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
            && [&b"key"[..], b"token", b"secret"]
                .iter()
                .any(|k| name.windows(k.len()).any(|w| w == *k))
    })
}

/// The words a prose credential is named by (the `prose-credential` rule's names).
pub(crate) const PROSE_NAMES: &[&str] = &[
    "password",
    "passphrase",
    "passcode",
    "pwd",
    "key",
    "token",
    "secret",
    "login",
];

fn call_string_shape(b: &[u8]) -> bool {
    // Whether the last bracket before here opened a call's arguments: a comma inside them
    // parts arguments, a comma in JSON (`{"a":1,"auth":…}`) does not.
    let mut open = false;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' => open = true,
            // An argument's own empty call (`"…".to_owned()`) leaves the arguments open.
            b')' => open = i > 0 && b[i - 1] == b'(',
            b'"' | b'\'' => {
                let before = &b[..i];
                let prev = before
                    .iter()
                    .rev()
                    .find(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
                if prev == Some(&b'(')
                    || open && prev == Some(&b',')
                    || before.ends_with(b"auth ")
                    || before.ends_with(b"new ")
                {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

fn prose_shape(b: &[u8]) -> bool {
    let blank = |c: u8| c == b' ' || c == b'\t';
    (1..b.len()).any(|i| {
        let verb = if b[i..].starts_with(b"is") {
            2
        } else if b[i..].starts_with(b"was") {
            3
        } else {
            return false;
        };
        if !blank(b[i - 1]) || !b.get(i + verb).copied().is_some_and(blank) {
            return false;
        }
        let window = &b[i.saturating_sub(53)..i];
        PROSE_NAMES
            .iter()
            .any(|n| window.windows(n.len()).any(|w| w == n.as_bytes()))
            && long_value_after(&b[i + verb + 1..])
    })
}

/// Whether 8 or more non-blank bytes follow (after `now `, or after `user /`): the value a
/// prose credential's regex needs. `the token count is 1523` has none.
fn long_value_after(rest: &[u8]) -> bool {
    let blank = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let run = |r: &[u8]| r.iter().take_while(|c| !blank(c)).count();
    let rest = rest.strip_prefix(b"now ").unwrap_or(rest);
    let first = run(rest);
    if first >= 8 {
        return true;
    }
    // `admin / value`, `admin/ value`, `admin /value`: the value after the slash.
    let mut tail = &rest[first..];
    if !rest[..first].ends_with(b"/") {
        tail = tail.strip_prefix(b" ").unwrap_or(tail);
        let Some(t) = tail.strip_prefix(b"/") else {
            return false;
        };
        tail = t;
    }
    let tail = tail
        .strip_prefix(b" ")
        .or_else(|| tail.strip_prefix(b"\t"))
        .unwrap_or(tail);
    run(tail) >= 8
}

fn long_token_shape(b: &[u8]) -> bool {
    // An `authorize` key may hold base64's `+`, `/` and `=` (its regex lets them in, and a
    // digit may come only after one: `hf_sohd…/0`, found by `shape_checks_are_necessary_
    // conditions`).
    let token = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'+' | b'/' | b'=');
    let mut i = 0;
    while i < b.len() {
        // The regexes allow an escaping backslash before the token (`login \ghp_…`).
        let after_blank = i > 0 && matches!(b[i - 1], b' ' | b'\t' | b'"' | b'\'' | b'\\');
        if !(token(b[i]) && after_blank) {
            i += 1;
            continue;
        }
        let start = i;
        let (mut letter, mut digit) = (false, false);
        while i < b.len() && token(b[i]) {
            letter |= b[i].is_ascii_alphabetic();
            digit |= b[i].is_ascii_digit();
            i += 1;
        }
        if i - start >= 20 && letter && digit {
            return true;
        }
    }
    false
}
