//! Plausibility checks: whether a regex match really is a secret. They
//! refuse placeholders and filler, names of secrets rather than values, code,
//! paths, versions, keys public by design and published demo values, and
//! they decide how random a value under a credential's name must look.

/// What must hold, beyond the regex, for a match to be redacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Check {
    /// The token format is specific enough on its own. Like every check but
    /// `PrivateKey`, it still refuses placeholders (`${VAR}`, `<token>`,
    /// `xxxx`, `1234567…`) and values public by design or published as demos
    /// ([`public_or_demo`]).
    Exact,
    /// Not a placeholder, and random-looking (digits or mixed case).
    Token,
    /// The body of a PEM/PGP block must contain real key material.
    PrivateKey,
    /// The body of an armoured block whose label names a key or a secret: as `PrivateKey`,
    /// and the label does not say the key is public (`NEBULA X25519 PUBLIC KEY`) or private
    /// (`private-key`'s).
    SecretBlock,
    /// `name = value`: see [`plausible_assignment`]. Applies when a group
    /// named `name…` participates. Otherwise, for `user:password` (`curl
    /// -u`), the password must not be a placeholder, a number or the user
    /// again, which `docker -u 1000:1000` or `-u www-data:www-data` are.
    Assignment,
    /// `user:password@host` without a scheme: random-looking as [`Check::Token`] asks, and
    /// neither an address after a scheme (`mailto:`) nor a factory default spelt in digits.
    Login,
    /// `scheme://user:password@`: not a placeholder, and not the user again
    /// (`guest:guest`, `postgres:postgres` are the services' defaults).
    UserPassword,
    /// A value that a command-line flag says is a password: the password
    /// bar of [`plausible_assignment`].
    Password,
    /// A signature or session token in a URL's query: long and random.
    Signature,
    /// A header named for a key or token: see [`plausible_header_value`].
    Header,
    /// A prefix and a random body, nothing else around it: see
    /// [`plausible_prefixed_token`].
    PrefixedToken,
    /// The argument of a command-line login: see [`plausible_login_argument`].
    LoginArgument,
    /// The arguments of a call named for a credential (`SetBasicAuth(user, pass)`,
    /// `createHmac('sha256', key)`): each string argument that reads as generated is one; see
    /// [`plausible_call_argument`].
    CallArguments,
}

/// Shannon entropy of `s` in bits per byte.
pub(crate) fn entropy(s: &str) -> f64 {
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in bytes {
        counts[usize::from(b)] += 1;
    }
    let len = bytes.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / len;
            -p * p.log2()
        })
        .sum()
}

/// Values that are a word standing in for one, never one: a value is one of them whole.
const PLACEHOLDER_WORDS: &[&str] = &[
    "secret",
    "password",
    "passwd",
    "pass",
    "token",
    "key",
    "apikey",
    "api_key",
    "none",
    "null",
    "nil",
    "undefined",
    "true",
    "false",
    "yes",
    "no",
    "on",
    "off",
    "required",
    "optional",
    "string",
    "str",
    "test",
    "sample",
    "default",
    "empty",
    "hidden",
    "masked",
    "todo",
    "fixme",
    "unset",
    // The name of no one: an API's public access (`token_auth=anonymous`).
    "anonymous",
    "guest",
];

/// Values that documentation prints as the example of a secret, copied into every tutorial
/// and test since: public by publication, whatever their shape. The base32 TOTP secret of
/// Google Authenticator's key-URI page (`Hello!` and four bytes), AWS's example access key id.
const DOCUMENTED_EXAMPLES: &[&str] = &["JBSWY3DPEHPK3PXP", "AKIAIOSFODNN7EXAMPLE"];

/// A pointer to where the value is kept (`see-1password`, `ask-ops`, `see vault`): words that
/// send the reader elsewhere.
fn points_elsewhere(lower: &str) -> bool {
    lower.len() <= 32
        && ["see", "ask"].iter().any(|p| {
            lower
                .strip_prefix(p)
                .is_some_and(|r| r.starts_with(['-', '_', ' ']))
        })
}

/// Template syntax, filler and stock phrases that stand in for a secret.
pub(crate) fn is_placeholder(value: &str) -> bool {
    let v = value.trim();
    if v.is_empty() || DOCUMENTED_EXAMPLES.contains(&v) {
        return true;
    }
    // A variable's value handed on as `NAME=VALUE` whose value is itself a reference (Hurl's
    // `--secret api_token=$API_TOKEN`): the reference is what is written.
    if let Some((name, rest)) = v.split_once('=')
        && !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        && rest.starts_with(['$', '{', '<', '%'])
        && is_placeholder(rest)
    {
        return true;
    }
    // A configuration's reference to where the value is kept (Grafana's `$__file{/run/…}`,
    // `$__env{NAME}`, `%(ENV_X)s`).
    if v.starts_with('$')
        && v.ends_with('}')
        && v[1..].split_once('{').is_some_and(|(name, _)| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
    {
        return true;
    }
    let bytes = v.as_bytes();
    let first = bytes[0];
    let last = bytes[bytes.len() - 1];
    // `${VAR}`, `$VAR`, `$env:VAR`, `$(cmd)`, `{{ var }}`, `<token>`,
    // `%VAR%`, `%(x)s`, `@VAR@`, `[REDACTED]`; `${secret:…}` references are
    // among them. `$ecr3t!` is not.
    let variable = |s: &[u8]| {
        s.first()
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
            && s.iter()
                .all(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b':')
    };
    if stands_in(v, first, last) {
        return true;
    }
    if (first == b'$' && (v.starts_with("${") || v.starts_with("$(") || variable(&bytes[1..])))
        || (first == b'{' && last == b'}')
        || (first == b'<' && last == b'>')
        || (first == b'[' && last == b']')
        || (first == b'%' && last == b'%')
        || (v.starts_with("%(") && v.ends_with(")s"))
        || (first == b'@' && last == b'@')
        // Ruby's, Elixir's and CoffeeScript's interpolation (`"#{System.get_env("KEY")}"`).
        || v.starts_with("#{")
        // Swift's and CUE's interpolation (`\(secrets.apiKey)`), escaped or not.
        || (v.starts_with("\\(") || v.starts_with("\\\\(")) && last == b')'
    {
        return true;
    }
    // A single repeated character: `xxxxxxxx`, `********`, `........`.
    if bytes.iter().all(|&b| b == first) {
        return true;
    }
    // A mask's words between stars (`***REMOVED SENSITIVE VALUE***`, Nextcloud's `occ
    // config:list` output).
    if v.len() > 6 && v.starts_with("***") && v.ends_with("***") {
        return true;
    }
    if few_symbols(v) {
        return true;
    }
    if is_filler(v) || counted_out(v) {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    if points_elsewhere(&lower) {
        return true;
    }
    const CONTAINS: &[&str] = &[
        "xxxx",
        "****",
        "....",
        "changeme",
        "change_me",
        "change-me",
        "changeit",
        "placeholder",
        "redacted",
        "your_",
        "your-",
        "yourapi",
        "yourtoken",
        "yoursecret",
        "yourpassword",
        "insert_",
        "replace_me",
        "replace-me",
        "example",
        "dummy",
        // A value that calls itself fake (`somefakesecret`) is a test fixture.
        "fake",
    ];
    if CONTAINS
        .iter()
        .any(|p| lower.contains(p) && !(*p == "example" && example_as_domain(&lower)))
    {
        return true;
    }
    // Where the value goes, said in words (`password_here`, `put-your-key-here`,
    // WordPress's `database_name_here`).
    if lower.ends_with("_here") || lower.ends_with("-here") {
        return true;
    }
    PLACEHOLDER_WORDS.contains(&lower.as_str())
}

/// A key that carries its owner's address (`ops@acme-docs.example_5a68…`, with a long
/// generated tail): `example` there is a reserved domain, not a word saying "sample".
fn example_as_domain(lower: &str) -> bool {
    lower
        .match_indices("example")
        .all(|(i, _)| i > 0 && matches!(lower.as_bytes()[i - 1], b'.' | b'@'))
        && longest_alnum_run(lower) >= 32
}

/// The longest run of ASCII letters and digits.
fn longest_alnum_run(v: &str) -> usize {
    v.split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// Long, from three symbols or fewer (`0x0000…0000`, `10000000-ffff-ffff-ffff-000000000001`):
/// a pattern someone typed, not a value anything generated.
fn few_symbols(v: &str) -> bool {
    if v.len() < 16 {
        return false;
    }
    let mut seen = [false; 128];
    for b in v.bytes().filter(u8::is_ascii_alphanumeric) {
        seen[usize::from(b.to_ascii_lowercase())] = true;
    }
    seen.iter().filter(|&&s| s).count() <= 3
}

/// A command substitution is where the value comes from, not the value (`` `pass show x` ``);
/// a `<name>` part stands in for what is not shown (`eyJ….eyJ….<signature>`).
fn stands_in(v: &str, first: u8, last: u8) -> bool {
    if first == b'`' && last == b'`' && v.len() > 2 {
        return true;
    }
    // `bce-auth-v1/{accessKeyId}/{timestamp}/…`: `{name}` parts stand in too.
    let braced = v.find('{').is_some_and(|open| {
        v[open + 1..].find('}').is_some_and(|len| {
            len >= 3
                && v[open + 1..open + 1 + len]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
    });
    braced
        || v.find('<').is_some_and(|open| {
            v[open + 1..].find('>').is_some_and(|len| {
                len >= 3
                    && v[open + 1..open + 1 + len]
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b' '))
            })
        })
}

fn has_digit(v: &str) -> bool {
    v.bytes().any(|b| b.is_ascii_digit())
}

fn has_mixed_case(v: &str) -> bool {
    v.bytes().any(|b| b.is_ascii_uppercase()) && v.bytes().any(|b| b.is_ascii_lowercase())
}

/// A value that looks like a generated token rather than a word: digits,
/// mixed case, or several kinds of symbol (`m{{h}o)p${e]nob(ody…`).
pub(crate) fn looks_random(v: &str) -> bool {
    has_digit(v) || has_mixed_case(v) || symbol_kinds(v) >= 3
}

/// A name written in CamelCase from a few words (`MediaBrowser`, `ApiToken`): letters only, each
/// capital starting a run of at least two small letters. Its mixed case is a name's, not
/// chance's (`aBcDeFgH`, a token's, has capitals that start no word).
pub(crate) fn camel_words(v: &str) -> bool {
    if v.len() > 32 || !v.bytes().all(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    let b = v.as_bytes();
    let mut words = 0;
    let mut i = 0;
    while i < b.len() {
        if i > 0 && !b[i].is_ascii_uppercase() {
            return false;
        }
        let start = i;
        i += 1;
        while i < b.len() && b[i].is_ascii_lowercase() {
            i += 1;
        }
        if i - start < 3 {
            return false;
        }
        words += 1;
    }
    (2..=4).contains(&words)
}

fn symbol_kinds(v: &str) -> usize {
    let mut seen = [false; 128];
    for b in v.bytes() {
        if b.is_ascii_punctuation() && !matches!(b, b'_' | b'-' | b'.' | b'/') {
            seen[usize::from(b)] = true;
        }
    }
    seen.iter().filter(|&&s| s).count()
}

/// A value counted out from the start of the digits and of the alphabet, in two runs or more
/// (`1-23-ABC`, `abc123`, `123-abc-1234`): what someone types to show a value's form, not what
/// anything generates.
fn counted_out(v: &str) -> bool {
    // Read as it goes (every placeholder test comes here): each letter or digit either goes on
    // the run before it by one or starts a new run at `0`, `1` or `a`; a run is two or more.
    let (mut alnum, mut runs, mut run_len, mut prev) = (0usize, 0usize, 0usize, 0u8);
    for b in v.bytes().filter(u8::is_ascii_alphanumeric) {
        let b = b.to_ascii_lowercase();
        alnum += 1;
        if run_len > 0 && b == prev.wrapping_add(1) {
            run_len += 1;
        } else {
            if run_len == 1 || !matches!(b, b'0' | b'1' | b'a') {
                return false;
            }
            runs += 1;
            run_len = 1;
        }
        prev = b;
    }
    alnum >= 4 && alnum * 2 >= v.len() && run_len >= 2 && runs >= 2
}

/// Filler that stands in for a token: a run of seven characters in
/// alphabet order (`1234567`, `abcdefg`, `ABCDEFG`), or one character making
/// up most of the value (`AIzaaaaaaaaaaaaaa…`, `AKIAZZZZZZZZZZZZZZZZ`). A random
/// token almost never has either; a fixture almost always does.
pub(crate) fn is_filler(v: &str) -> bool {
    let b = v.as_bytes();
    let mut run = 1;
    for w in b.windows(2) {
        if w[1] == w[0].wrapping_add(1)
            && w[1].is_ascii_alphanumeric()
            && w[0].is_ascii_alphanumeric()
        {
            run += 1;
            if run >= 7 {
                return true;
            }
        } else {
            run = 1;
        }
    }
    if b.len() >= 8 {
        let mut counts = [0usize; 256];
        for &c in b {
            counts[usize::from(c)] += 1;
        }
        let most = counts.iter().copied().max().unwrap_or(0);
        if most * 10 >= b.len() * 7 {
            return true;
        }
    }
    false
}

pub(crate) fn is_number(v: &str) -> bool {
    let digits = v.trim_start_matches(['-', '+']);
    let mut seen_digit = false;
    for b in digits.bytes() {
        match b {
            b'0'..=b'9' => seen_digit = true,
            b'.' | b'_' | b'e' | b'E' => {}
            _ => return false,
        }
    }
    // Long digit strings can be real secrets (PINs excepted): card-like
    // numbers and numeric API keys are kept.
    seen_digit && digits.bytes().filter(u8::is_ascii_digit).count() < 16
}

pub(crate) fn looks_like_path(v: &str) -> bool {
    if v.starts_with("./") || v.starts_with("../") || v.starts_with("~/") {
        return true;
    }
    // A lookup table's type before its file (`hash:/etc/postfix/sasl_passwd`, `lmdb:/…`):
    // where the credentials are kept, not one.
    if let Some((kind, rest)) = v.split_once(':')
        && kind.len() >= 2
        && kind
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && rest.starts_with('/')
        && !rest.starts_with("//")
    {
        return looks_like_path(rest);
    }
    let b = v.as_bytes();
    if b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/')
    {
        return true;
    }
    if v.starts_with('/') {
        // Base64 can start with `/` too; a path has several word-like segments.
        let segments: Vec<&str> = v.split('/').filter(|s| !s.is_empty()).collect();
        return segments.len() >= 2
            && !v.contains(['+', '='])
            && segments.iter().all(|s| {
                s.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || b"._-@".contains(&c))
            });
    }
    // `secrets/token.txt`: a relative path ending in a short extension.
    if let Some((dir, file)) = v.rsplit_once('/')
        && !dir.is_empty()
        && !v.contains(['+', '='])
        && let Some((stem, ext)) = file.rsplit_once('.')
    {
        return !stem.is_empty()
            && (1..=5).contains(&ext.len())
            && ext.bytes().all(|c| c.is_ascii_alphabetic());
    }
    false
}

pub(crate) fn looks_like_url(v: &str) -> bool {
    match v.find("://") {
        Some(i) if i > 0 => v[..i]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+.-".contains(&b)),
        _ => false,
    }
}

/// `host.example.com`, `me@example.com`: addresses, not secrets.
pub(crate) fn looks_like_address(v: &str) -> bool {
    let host = match v.split_once('@') {
        Some((local, host)) if !local.is_empty() => host,
        Some(_) => return false,
        None => v,
    };
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
        && labels.last().is_some_and(|tld| {
            (2..=24).contains(&tld.len()) && tld.bytes().all(|b| b.is_ascii_lowercase())
        })
}

/// Code that names a secret instead of containing it: `self.token`,
/// `userPassword`, `get_secret`, `GITHUB_TOKEN`. Inside quotes a value is a
/// literal, so only an environment variable name is taken for a reference.
fn looks_like_identifier(v: &str, quoted: bool) -> bool {
    let b = v.as_bytes();
    let Some(&first) = b.first() else {
        return false;
    };
    let lower = v.to_ascii_lowercase();
    let names_secret = [
        "key",
        "token",
        "secret",
        "pass",
        "pwd",
        "credential",
        "auth",
    ]
    .iter()
    .any(|k| lower.contains(k));
    let env_name = v.contains('_')
        && b.iter()
            .all(|&c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_');
    if env_name && names_secret {
        return true;
    }
    if quoted {
        return false;
    }
    let ident_chars = b
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.');
    if !ident_chars || !(first.is_ascii_alphabetic() || first == b'_') || has_digit(v) {
        return false;
    }
    if names_secret {
        return true;
    }
    if v.contains('.') {
        // Member access: `config.db.password`.
        return v.split('.').all(|s| !s.is_empty());
    }
    // camelCase: lower-case start, then capitalised words.
    first.is_ascii_lowercase()
        && b.iter().any(u8::is_ascii_uppercase)
        && !v.contains('_')
        && b.windows(2)
            .all(|w| !(w[0].is_ascii_uppercase() && w[1].is_ascii_uppercase()))
}

/// `oauth2_client_credentials`, `read-write`, `jetbrains.mps.v8_elimination`:
/// lower-case words joined by `_`, `-` or `.`, each starting with a letter.
pub(crate) fn looks_like_words(v: &str) -> bool {
    // `ClearTextPassword`: capitalised words of three letters or more, letters only
    // (`UQZthhrJxln…` is not).
    let chunks: Vec<&str> = v
        .match_indices(|c: char| c.is_ascii_uppercase())
        .map(|(i, _)| i)
        .chain([v.len()])
        .scan(0, |from, to| {
            let chunk = &v[*from..to];
            *from = to;
            Some(chunk)
        })
        .filter(|c| !c.is_empty())
        .collect();
    if chunks.len() >= 2
        && v.bytes().all(|b| b.is_ascii_alphabetic())
        && chunks
            .iter()
            .all(|c| c.len() >= 3 && c.bytes().skip(1).all(|b| b.is_ascii_lowercase()))
    {
        return true;
    }
    // `SomeRandomStringOf32CharsExactly`: four capitalised words or more, numbers between
    // them; a generated value does not fall into so many.
    if v.bytes().all(|b| b.is_ascii_alphanumeric()) && v.as_bytes()[0].is_ascii_uppercase() {
        // Words of four letters or more; at most one shorter (`Of`): `Qm7Tx2Lp9…` has only
        // pairs.
        let (mut words, mut short) = (0, 0);
        let mut ok = true;
        let mut rest = v;
        while let Some(c) = rest.chars().next() {
            let n = if c.is_ascii_digit() {
                let n = rest.bytes().take_while(u8::is_ascii_digit).count();
                ok &= n <= 3;
                n
            } else {
                let n = 1 + rest[1..].bytes().take_while(u8::is_ascii_lowercase).count();
                ok &= c.is_ascii_uppercase() && n >= 2;
                if n >= 4 {
                    words += 1;
                } else {
                    short += 1;
                }
                n
            };
            rest = &rest[n..];
        }
        if ok && words >= 4 && short <= 1 {
            return true;
        }
    }
    let parts: Vec<&str> = v.split(['_', '-', '.']).collect();
    // Groups of one length, digits in several, are a key's (`daeky-z6jdt-yf03q-tskp4-…`):
    // words differ in length.
    let grouped_key = parts.len() >= 4
        && parts
            .iter()
            .all(|p| p.len() == parts[0].len() && p.len() >= 4)
        && parts.iter().filter(|p| has_digit(p)).count() >= 2;
    !grouped_key
        && parts.len() >= 2
        && parts.iter().all(|p| {
            p.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                // A long run of letters and digits is a token's body, not a word:
                // `csk-lrser2ohi2ek595…`, `napi_m9bv22eq…`.
                && !(p.len() > 12 && has_digit(p))
        })
}

/// Only hexadecimal digits, with at least one letter and one digit: a hex token's 16-symbol
/// alphabet caps its entropy at 4 bits, so the bar for it is lower.
fn is_hex_token(v: &str) -> bool {
    v.bytes().all(|b| b.is_ascii_hexdigit())
        && has_digit(v)
        && v.bytes().any(|b| b.is_ascii_alphabetic())
}

/// Whether base64 decodes to a key file's opening text (12 characters or more) that names a
/// certificate, a revocation list or a public key (`-----BEGIN CERTIFICATE-----`, `==
/// ed25519v1-public: type0 ==`).
fn opens_as_a_public_key_file(v: &str) -> bool {
    let Some(head) = v.get(..v.len().min(64) / 4 * 4) else {
        return false;
    };
    base64_decode(head).is_some_and(|d| {
        let n = d
            .iter()
            .take_while(|c| c.is_ascii_graphic() || matches!(c, b' ' | b'\n'))
            .count();
        let tag = String::from_utf8_lossy(&d[..n]).to_ascii_lowercase();
        n >= 12
            && (tag.contains("public") || tag.contains("certificate") || tag.contains("x509 crl"))
            && !tag.contains("private")
    })
}

/// Base64 of a certificate or a public key (`certificate-authority-data: LS0tLS1CRUdJTi…`):
/// public material, whatever its name says.
fn encodes_public_block(v: &str) -> bool {
    v.starts_with("LS0tLS1CRUdJTi")
        && base64_decode(&v[..v.len().min(64) / 4 * 4])
            .and_then(|d| String::from_utf8(d).ok())
            .is_some_and(|t| t.contains("CERTIFICATE") || t.contains("PUBLIC KEY"))
}

/// A JWT's header alone (`eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9`): it names an algorithm, and
/// grants nothing.
fn jwt_header_only(v: &str) -> bool {
    v.starts_with("eyJ")
        && !v.contains('.')
        && base64_decode(v)
            .and_then(|d| String::from_utf8(d).ok())
            .is_some_and(|j| j.contains("\"alg\"") && !j.contains("\"sub\""))
}

/// `jjwt-jackson-0.11.2`, `rc0.13.0_20230412-SNAPSHOT`: an artifact and its
/// version.
pub(crate) fn looks_like_version(v: &str) -> bool {
    let b = v.as_bytes();
    b.windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
        && v.split(['-', '_', '.', ':']).all(|p| {
            p.bytes().all(|c| c.is_ascii_digit())
                || p.bytes().all(|c| c.is_ascii_alphabetic())
                || p.len() <= 3
        })
}

/// Code rather than a literal: a call or an index (`foo(hey)you`,
/// `fs.readFileSync('foo',`, `map.get(&id)`, `ENV["X"]`), as detect-secrets
/// reads an indirect reference.
fn looks_like_code(v: &str) -> bool {
    let b = v.as_bytes();
    let head = b
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'$' | b':'))
        .count();
    // Elixir's and Rust's `fetch_env!(…)`, Ruby's `key?(…)`: a call all the same.
    let call = match b.get(head) {
        Some(b'!' | b'?') => head + 1,
        _ => head,
    };
    head > 0
        && b[0].is_ascii_alphabetic() | matches!(b[0], b'_' | b'$')
        && matches!(b.get(call), Some(b'(' | b'['))
}

/// `struct_X509_pubkey_st`, `DOC_Vector_5_32`: an identifier made of words
/// and short parts, as opposed to a token with underscores in it. A word of an identifier
/// is in one case or capitalised; a capital after a small letter inside a part
/// (`kXjetr_VcQwL_w9J6`) is a generator's.
fn looks_like_snake_identifier(v: &str) -> bool {
    let parts: Vec<&str> = v.split('_').collect();
    parts.len() >= 3
        && v.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        && parts
            .iter()
            .all(|p| p.len() <= 4 || p.bytes().all(|c| c.is_ascii_alphabetic()))
        && !parts.iter().any(|p| {
            p.as_bytes()
                .windows(2)
                .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        })
}

/// `iDRAC.Embedded.1#Users.3`: a setting's dotted name, words and numbers, not a value.
pub(crate) fn dotted_name(v: &str) -> bool {
    let parts: Vec<&str> = v.split(['.', '#']).collect();
    parts.len() >= 3
        && parts.iter().all(|p| {
            !p.is_empty()
                && (p.bytes().all(|c| c.is_ascii_digit())
                    || p.len() <= 16
                        && p.bytes().all(|c| c.is_ascii_alphabetic())
                        && p.bytes().any(|c| b"aeiouyAEIOUY".contains(&c)))
        })
}

/// The last word of a name that says it holds something *about* a
/// credential, not the credential: `kms_key_id`, `LLM_SECRET_NAME`,
/// `key_length`, `private_key_path`, `TokenFile`, `issuerKeyHash`.
const METADATA_WORDS: &[&str] = &[
    "id",
    "ids",
    "name",
    "names",
    "file",
    "files",
    "path",
    "dir",
    "url",
    "uri",
    "type",
    "types",
    "length",
    "len",
    "size",
    "hash",
    "event",
    "count",
    "version",
    // An entity tag names a version of what the name holds (`secret_etag`), never the value.
    "etag",
    // A key's public digest (`key_fingerprint`, `ssh_key_fingerprint`), a commit's
    // (`BUILD_SHA`).
    "fingerprint",
    "sha",
    "env",
    "var",
    "ref",
    "field",
    "header",
    // A command that prints the secret (`RESTIC_PASSWORD_COMMAND="op read op://…"`), not it.
    "command",
    "cmd",
    "prefix",
    "suffix",
    "format",
    "mode",
    "policy",
    "expiry",
    "expires",
    "expiration",
    "ttl",
    "timeout",
    "algorithm",
    "alg",
    "index",
    "pressed",
    "selector",
    "label",
    "location",
    // Where something is found or sent: a contract's, a wallet's, a mailbox's, a host's
    // (`token_address`), never what opens it.
    "address",
    "provider",
    "stdin",
    "source",
    "store",
    "arn",
    "region",
    "hint",
    "help",
    "description",
    "enabled",
    "required",
    "min",
    "max",
    "regex",
    "pattern",
    "schema",
    // A password's hash, named for its algorithm (`Password_PBKDF2`, `password_sha256`): what a
    // login is checked against, not what opens it.
    "pbkdf2",
    "bcrypt",
    "scrypt",
    "argon2",
    "sha1",
    "sha256",
    "sha512",
    "md5",
];

/// Names whose credential is public by design or no credential at all:
/// publishable and anonymous keys, public keys, CSRF tokens.
/// An OAuth `state`'s and PKCE's `code_challenge` and a `nonce` travel in the clear by design.
const PUBLIC_NAME_WORDS: &[&str] = &[
    "public",
    "publishable",
    "anon",
    "csrf",
    "xsrf",
    "pub",
    "pubkey",
    "challenge",
    "nonce",
    // A digest of something is no credential (`contentHash`, `integrity`).
    "hash",
    "hashed",
    "digest",
    "checksum",
    "integrity",
    // Who wrote a record, and who issues tokens (`author`, OpenID's `authority`): `auth` in
    // their letters names no credential.
    "author",
    "authors",
    "authority",
    // A key's public digest, as GnuPG prints it (`Keygrip = D69D…`).
    "keygrip",
    "grip",
];

/// Words that make a `key` a key of data, not of access: `foreignKey`, `primary_key`,
/// `Idempotency-Key`, `sortKey`, `cacheKey`, `productKey`, React's list `key`.
const DATA_KEY_WORDS: &[&str] = &[
    "cache",
    "candidate",
    "column",
    "composite",
    "compound",
    "cursor",
    // A payer's id in a payment API (`customerKey`), as `customer_id` is.
    "customer",
    "dedup",
    "dedupe",
    // A request's own id, sent so a retry is not done twice (`Idempotency-Key`).
    "idempotency",
    "idempotence",
    "dict",
    // A document's id in a design tool's API (Figma's `file_key`); a key that opens a file is
    // said with what it does (`file_encryption_key`).
    "file",
    "foreign",
    "group",
    "hash",
    "hot",
    "i18n",
    "idempotency",
    "index",
    "item",
    "list",
    "locale",
    "lookup",
    "map",
    "natural",
    "object",
    "page",
    "partition",
    "primary",
    // A dataset's id (GBIF's `datasetKey`).
    "dataset",
    // An IoT platform's product (Tuya's and Alibaba's `productKey`) or a licence's product
    // key: which product it is, not access to an account.
    "product",
    "query",
    "range",
    "row",
    "search",
    "sequence",
    "shard",
    "shortcut",
    "sort",
    "storage",
    "surrogate",
    "translation",
    "unique",
];

/// The name describes a credential or holds one that is public.
pub(crate) fn name_rules_out(name: &str) -> bool {
    let words = crate::text::words(name);
    // Unless the name says what the key does to data (`ENCRYPTION_PRIMARY_KEY`: a primary
    // key of an encryption scheme, Active Record's, not a table's).
    let encrypts = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "encryption" | "encrypt" | "cipher" | "signing" | "hmac" | "master"
        )
    });
    let data_key = !encrypts
        && words.windows(2).any(|w| {
            matches!(w[1].as_str(), "key" | "keys") && DATA_KEY_WORDS.contains(&w[0].as_str())
        });
    // A digest's word names what the value is only at the end (`password_hash`,
    // `contentHash`); before another word it says what that is for (`hash_salt`: a salt).
    let digest = |w: &str| matches!(w, "hash" | "hashed" | "digest" | "checksum" | "integrity");
    let last = words.len().saturating_sub(1);
    data_key
        || words
            .last()
            .is_some_and(|w| METADATA_WORDS.contains(&w.as_str()))
        || words
            .iter()
            .enumerate()
            .any(|(i, w)| PUBLIC_NAME_WORDS.contains(&w.as_str()) && (i == last || !digest(w)))
        || {
            let lower = name.to_ascii_lowercase();
            lower.contains("csrf")
                || lower.contains("xsrf")
                // A WebSocket handshake's nonce (`Sec-WebSocket-Key`): sent in the clear by every
                // browser, by the protocol's design (RFC 6455).
                || lower.contains("websocket")
                // Joined to an acronym (`SUPublicEDKey`), where no case change splits it off.
                || lower.contains("public")
                // An HTML `data-` attribute is served to every visitor's browser
                // (`data-sitekey`, `data-client-id`); one named private or secret is a leak
                // there, not a widget's key (`data-private-key`).
                || lower.starts_with("data-")
                    && !["private", "secret", "password"].iter().any(|w| lower.contains(w))
                // A file's name as a key (a manifest's `"pass.json": "<sha1>"`): the value is
                // what is known of that file.
                || lower.rsplit_once('.').is_some_and(|(stem, ext)| {
                    !stem.is_empty()
                        && matches!(
                            ext,
                            "json" | "png" | "jpg" | "jpeg" | "gif" | "svg" | "txt" | "html"
                                | "css" | "js" | "xml" | "yaml" | "yml" | "toml" | "pdf" | "zip"
                                | "gz" | "tar" | "plist"
                        )
                })
        }
}

/// A value that says it is a ciphertext, its tag before it (dotenvx's `encrypted:BDqk…`,
/// `enc:…`): encrypted at rest, safe in the file by design; the key that opens it is kept
/// elsewhere (and is a secret where it is).
pub(crate) fn tagged_ciphertext(value: &str) -> bool {
    let v = value.trim_matches(['"', '\'']);
    ["encrypted:", "enc:"].iter().any(|tag| {
        v.get(..tag.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(tag))
            && v.len() >= tag.len() + 16
            && v[tag.len()..]
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+/=_-".contains(&b))
    })
}

/// Whether an assignment's whole name says credential: a keyword anywhere in it (`…apikey…`,
/// `Kennwort`), an abbreviation as a word of its own (`DB_PW`, `SHIPBOB_PAT`; not `compat`,
/// `xpw`), or a wallet's or a signer's seed, as generic-assignment's regex met it.
pub(crate) fn names_a_credential(name: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "key", "token", "secret", "pass", "pwd", "psk", "cred", "auth", "licen", "mnemonic",
    ];
    let lower = name.to_ascii_lowercase();
    // A password manager by its name (`# kept in 1Password: "LibCal API"`): what follows
    // names an item there, not a value.
    if lower == "1password" {
        return false;
    }
    // An authenticated cipher's tag (`auth_tag`, `authTag` beside `iv` and `encrypted_data`)
    // is part of the ciphertext, published with it: not an authentication's secret.
    if lower.ends_with("tag")
        && crate::text::words(name).rchunks(2).next().is_some_and(|w| {
            w.len() == 2 && matches!(w[0].as_str(), "auth" | "authentication") && w[1] == "tag"
        })
    {
        return false;
    }
    KEYWORDS.iter().any(|k| lower.contains(k))
        || PASSWORD_ELSEWHERE.iter().any(|k| lower.contains(k))
        || {
            let words = crate::text::words(name);
            words.iter().any(|w| w == "pw" || w == "pat")
                // A seed keys are derived from, said with what holds or uses them
                // (`wallet_seed`, `X-Signer-Seed`); not a random generator's, a playlist's or a
                // test vector's (`seed: 42`, `playlist seed`, `SEED = "GEZD…"`).
                || words.iter().any(|w| w == "seed")
                    && words.iter().any(|w| {
                        matches!(
                            w.as_str(),
                            "wallet" | "signer" | "signing" | "master" | "private" | "mnemonic"
                                | "validator" | "node" | "hd" | "phrase" | "words"
                        )
                    })
        }
}

fn passwordish(name: &str) -> bool {
    let lname = name.to_ascii_lowercase();
    lname.contains("pass")
        || lname.contains("pwd")
        // A pre-shared key is typed by people as a password is (`psk=…`).
        || lname.ends_with("psk")
        || PASSWORD_ELSEWHERE.iter().any(|w| lname.contains(w))
        // A password by its role, joined to what it opens (`masterauth`, `requireauth`); not
        // a protocol's name (`oauth`).
        || lname.len() > 6 && lname.ends_with("auth") && !lname.ends_with("oauth")
        // `pw` only as a word of its own (`DB_PW`, `?pw=`), not inside one (`pwm`, `upward`).
        || crate::text::words(name).iter().any(|w| w == "pw")
}

/// "Password" in the languages whose word for it has no `pass` (`contraseña` as written in
/// ASCII, `Kennwort`, `senha`…), and the abbreviation `pswd`. generic-assignment's regex and
/// keywords name them too (a test keeps the three in step).
pub(crate) const PASSWORD_ELSEWHERE: &[&str] = &[
    // And the abbreviation that keeps neither (`EQSL_PSWD=`).
    "pswd",
    "contrase",
    "kennwort",
    "senha",
    "wachtwoord",
    "salasana",
    "haslo",
    "jelszo",
    "heslo",
    "sifre",
    "losenord",
    "adgangskode",
    "parool",
    "lozinka",
    "geslo",
    "parola",
    "slaptazodis",
    "lykilord",
    "wagwoord",
    "cyfrinair",
    "pasahitza",
    "parole",
    // Albanian, as typed without its ë.
    "fjalekalim",
    // Hungarian inflects its word (`jelszava`: its password), Irish, Scottish Gaelic, Swahili.
    "jelszav",
    "pasfhocal",
    "facal-faire",
    "nenosiri",
    // Galician, Esperanto, Haitian Creole, the stem Uzbek, Tatar and Romanian (`parolă`)
    // share, Azerbaijani, Kurdish, Breton, Zulu, Māori, Malagasy, Faroese.
    "contrasinal",
    "pasvorto",
    "modpas",
    "parol",
    "şifrə",
    "şîfre",
    "ger-tremen",
    "iphasiwedi",
    "kupuhipa",
    "tenimiafina",
    "loyniorð",
    // Serbian and Macedonian in Cyrillic, Armenian, Tamil, Sinhala, Kyrgyz, Lao, Khmer,
    // Burmese, Bengali.
    "лозинка",
    "գաղտնաբառ",
    "கடவுச்சொல்",
    "මුරපදය",
    "сырсөз",
    "ລະຫັດຜ່ານ",
    "ពាក្យសម្ងាត់",
    "စကားဝှက်",
    "পাসওয়ার্ড",
    // As written in their own letters.
    "hasło",
    "jelszó",
    "şifre",
    "lösenord",
    "contraseña",
    "slaptažodis",
    "lykilorð",
    "fjalëkalim",
    // The Cyrillic stem Bulgarian and Macedonian inflect (`паролата`), and Georgian's word.
    "парол",
    "პაროლ",
    "пароль",
    "Пароль",
    "סיסמה",
    "密码",
    "密碼",
    "パスワード",
    "비밀번호",
];

/// How a value was written, as far as judging it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    /// `name = value`.
    Bare,
    /// `name = "value"` and the other operators.
    Quoted,
    /// `name "value"` without an operator, or `("name", "value")`: only a
    /// token-like value counts, never a phrase.
    QuotedLoose,
}

/// The entropy rule: is `value`, assigned to a variable called `name`, a
/// secret?
/// A value made of lower-case words that ends in the name's own last word (`outbound_auth=
/// dispatch-trunk-auth`, `tls_key = web-key`): it names another setting of that kind, a
/// section or a file, not a secret.
fn names_its_kind(name: &str, value: &str) -> bool {
    let last = |s: &str| crate::text::words(s).last().cloned();
    value.contains(['-', '_'])
        && value
            .bytes()
            .all(|b| b.is_ascii_lowercase() || matches!(b, b'-' | b'_'))
        && last(name).is_some_and(|n| n.len() >= 3 && last(value).as_deref() == Some(&n))
}

/// A key's own name where a value was looked for (`pulumi config set --secret
/// app:jiraToken VALUE`: the flag says the next value is secret, and the word after it is the
/// name it is stored under): letters and separators only, one of its words naming a
/// credential. A generated value has digits, or no such word at a word's edge.
fn names_a_key(value: &str) -> bool {
    value.len() >= 4
        && value
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || matches!(b, b':' | b'.' | b'_' | b'-'))
        && value
            .bytes()
            .any(|b| matches!(b, b':' | b'.' | b'_' | b'-'))
        && crate::text::words(value).iter().any(|w| {
            matches!(
                w.as_str(),
                "token" | "secret" | "password" | "passwd" | "key" | "apikey" | "credential"
            )
        })
}

/// A key's name written in camelCase where a value was looked for (a Postman variable's
/// `"key": "apiKeyLast4"`, a map's `key: stripeSecretKey`): a lower-case word, then capitalised
/// words of three letters or more, maybe a number of one or two digits at the end, one word
/// naming a credential. A generated value's capitals start no word. Only under a name that
/// does not ask for a password, which people do make of words (`MySecretPassword1`).
fn camel_key_name(value: &str) -> bool {
    let letters = value.trim_end_matches(|c: char| c.is_ascii_digit());
    if value.len() - letters.len() > 2 || !(6..=40).contains(&letters.len()) {
        return false;
    }
    let b = letters.as_bytes();
    if !b.iter().all(u8::is_ascii_alphabetic) || !b[0].is_ascii_lowercase() {
        return false;
    }
    let mut words: Vec<String> = Vec::new();
    let mut start = 0;
    for i in 1..=b.len() {
        if i == b.len() || b[i].is_ascii_uppercase() {
            let word = &letters[start..i];
            // The first word may be short (`apiKey`); later ones are words, not chance capitals.
            if word.len() < if start == 0 { 2 } else { 3 } {
                return false;
            }
            words.push(word.to_ascii_lowercase());
            start = i;
        }
    }
    words.len() >= 2
        && words.iter().any(|w| {
            matches!(
                w.as_str(),
                "key" | "token" | "secret" | "password" | "apikey" | "credential" | "credentials"
            )
        })
}

/// A secret store's resource path, maybe after the variable it fills (`API_TOKEN=projects/
/// 400462309409/secrets/api-token/versions/latest`, Secret Manager's) or with the store's
/// scheme and the field it reads (`vault:secret/data/app/optix#api_token`): lower-case words,
/// numbers and hyphens in three or more segments say where a secret is kept. A generated
/// value split by `/` (base64) mixes cases.
fn resource_path(value: &str) -> bool {
    let path = match value.split_once('=') {
        Some((var, rest))
            if !var.is_empty() && var.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') =>
        {
            rest
        }
        _ => value,
    };
    let path = match path.split_once(':') {
        Some((scheme, rest))
            if scheme.len() >= 2 && scheme.bytes().all(|b| b.is_ascii_lowercase()) =>
        {
            rest
        }
        _ => path,
    };
    let path = match path.rsplit_once('#') {
        Some((rest, field))
            if !field.is_empty()
                && field
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') =>
        {
            rest
        }
        _ => path,
    };
    let segments: Vec<&str> = path.split('/').collect();
    segments.len() >= 3
        && segments.iter().all(|s| {
            !s.is_empty()
                && s.bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.')
                })
        })
        && segments
            .iter()
            .any(|s| s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
}

/// A list of a setting's keywords, CamelCase words joined by commas (`AutoGenerate,IsolateApps`
/// in ASP.NET's `machineKey`): an option, not a value anyone generated.
fn keyword_list(value: &str) -> bool {
    value.contains(',')
        && value.split(',').all(|p| {
            let p = p.trim();
            p.len() >= 3
                && p.starts_with(|c: char| c.is_ascii_uppercase())
                && p.bytes().all(|b| b.is_ascii_alphabetic())
        })
}

/// A secret store's reference written as a call (App Service's `@Microsoft.KeyVault(SecretUri=…)`):
/// where the secret is, resolved when the application starts.
fn store_call(value: &str) -> bool {
    value.strip_prefix('@').is_some_and(|rest| {
        rest.split_once('(').is_some_and(|(name, _)| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.')
        }) && rest.ends_with(')')
    })
}

pub(crate) fn plausible_assignment(name: &str, value: &str, written: Written) -> bool {
    let quoted = written != Written::Bare;
    // A resource's name (`arn:aws:secretsmanager:…:secret:app/api-Vat0gl`, as a task
    // definition's `valueFrom` gives it) says where a secret is kept.
    if is_placeholder(value)
        || is_number(value)
        || value.starts_with("arn:")
        || store_call(value)
        || looks_like_path(value)
        || looks_like_url(value)
        || looks_like_address(value)
        || looks_like_identifier(value, quoted)
        || looks_like_version(value)
        || name_rules_out(name)
        || default_credentials(value)
        || jwt_header_only(value)
        || encodes_public_block(value)
        || names_a_key(value)
        || resource_path(value)
        || !passwordish(name) && camel_key_name(value)
    {
        return false;
    }
    if named_digest(value)
        || !passwordish(name) && dotted_name(value)
        || names_its_kind(name, value)
        || keyword_list(value)
    {
        return false;
    }
    if !quoted
        && (looks_like_code(value)
            || looks_like_snake_identifier(value)
            || cmdlet(value)
            // `process.env.API_KEY!`: TypeScript's non-null assertion.
            || looks_like_identifier(value.trim_end_matches(['!', '?']), false))
    {
        return false;
    }
    // Code that reads the credential from where it is named: `apiKey:
    // this.apiKey`, `X509_pubkey_st = struct_X509_pubkey_st`.
    let bare_name = name.trim_start_matches(['$', '_', '.']);
    if bare_name.len() >= 4
        && value
            .to_ascii_lowercase()
            .contains(&bare_name.to_ascii_lowercase())
    {
        return false;
    }
    if value.contains(char::is_whitespace) {
        // An app password in its four groups of four letters, under a password's name
        // (nodemailer's `pass: "ivft msje hzoj elkl"`), as it is handed to a login call.
        return written == Written::Quoted
            && (plausible_passphrase(name, value)
                || passwordish(name) && app_password(value)
                || seed_phrase(name, value));
    }
    // A UUID under a credential name (npm `_authToken`, license keys) is a
    // token. Its 16-symbol alphabet puts its entropy around the bar below,
    // which would make the verdict a matter of chance.
    if is_uuid(value) {
        return true;
    }
    let len = value.chars().count();
    let h = entropy(value);
    // A shared secret by its role (`shared_secret`, `HOTELBEDS_SECRET`): the last word says
    // what the value is, as `password` does (`secret_name` names one), and a short one is
    // still a secret when it mixes letters and digits as generated ones do (not a reference
    // such as `existingSecret: redis-auth`, nor a list `id=npmrc,src=.npmrc`).
    let short_shared = name
        .trim_end_matches(['"', '\''])
        .to_ascii_lowercase()
        .ends_with("secret")
        // Bare in an INI or env file too when it mixes cases (`secret = DssFdPF1jh5yYstD`), as
        // a reference's name does not.
        && (written == Written::Quoted || written == Written::Bare && has_mixed_case(value))
        && has_digit(value)
        && value.bytes().any(|b| b.is_ascii_alphabetic())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if (passwordish(name) || short_shared) && written != Written::QuotedLoose {
        // Entropy cannot exceed log2(len): short passwords with one repeated
        // character would never reach a flat 3.0 bits.
        len >= 8 && h >= 3.0_f64.min((len as f64).log2() - 0.5)
    } else {
        // Below 16 characters only a value using every class (lower, upper,
        // digit, symbol) reads as generated: `k#9Lq!2Zx7@Wm4`, not
        // `DOC_Vector_5_32`.
        let every_class = has_mixed_case(value) && has_digit(value) && symbol_kinds(value) >= 1;
        // Hex has 16 symbols: a short random run falls under 3 bits often (one in seven of 16
        // characters, one in thirty-five of 20), so its bar is lower until the run is long.
        // Capitals and digits only (Alpha Vantage's sixteen, `VELRZVP5NEKEEEZB`) draw from 36
        // symbols: a short run of them falls under 3.5 bits as often as not, a letter repeated.
        let one_case = value
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            || value
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        let bar = match (is_hex_token(value), len) {
            (true, ..24) => 2.7,
            (true, _) => 3.0,
            (false, 16..24)
                if one_case
                    && has_digit(value)
                    && value.bytes().any(|b| b.is_ascii_alphabetic()) =>
            {
                3.0
            }
            (false, _) => 3.5,
        };
        let generated = (len >= 16 || (len >= 12 && every_class))
            && h >= bar
            && looks_random(value)
            && !looks_like_words(value);
        generated
            || grouped_key(value)
            || short_key(value, len, h, written)
            || short_hex_token(name, value, len, h)
            || prefixed_hex(value)
            || prefixed_groups(value)
    }
}

/// A word or two of prefix, then groups of generated characters (`sk-helicone-uqrwotg-
/// rcrgry4-qx4bt8a-nfecac1`): its dashes and lower-case alphabet keep the whole value's
/// entropy under the bar, and its prefix reads as words, but the groups are no words: most
/// mix digits into letters, and together they are random. Words with a version in them
/// (`read-only-v2-mode`) have one such group, not most.
fn prefixed_groups(v: &str) -> bool {
    let segs: Vec<&str> = v.split(['-', '_']).collect();
    let prefix = segs
        .iter()
        .take(2)
        .take_while(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase()))
        .count();
    let groups = &segs[prefix..];
    let with_digits = groups
        .iter()
        .filter(|g| {
            g.bytes().any(|b| b.is_ascii_digit()) && g.bytes().any(|b| b.is_ascii_alphabetic())
        })
        .count();
    let body: String = groups.concat();
    groups.len() >= 3
        && groups
            .iter()
            .all(|g| (4..=12).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_alphanumeric()))
        && with_digits * 3 >= groups.len() * 2
        && body.len() >= 16
        && entropy(&body) >= 3.5
        && looks_random(&body)
}

/// A short word, then a hex body (`sec_3af19d613112f26e910f` under `…-Secret-Key`): the body is
/// judged as the hex it is, whose 16 symbols keep the whole value's entropy under the bar a
/// mixed alphabet must meet. Or an account's number before a colon (ManyChat's
/// `7775446:1d2a8c…`, a bot's `<id>:<hex>`).
fn prefixed_hex(v: &str) -> bool {
    if let Some((account, body)) = v.split_once(':') {
        return (3..=12).contains(&account.len())
            && account.bytes().all(|b| b.is_ascii_digit())
            && body.len() >= 24
            && is_hex_token(body)
            && entropy(body) >= 3.0
            && looks_random(body);
    }
    let Some((prefix, body)) = v.split_once(['_', '-']) else {
        return false;
    };
    (2..=8).contains(&prefix.len())
        && prefix.bytes().all(|b| b.is_ascii_lowercase())
        && body.len() >= 16
        && is_hex_token(body)
        && entropy(body) >= 3.0
        && looks_random(body)
}

/// A PowerShell command called for the value (`$pw = Read-Host -AsSecureString …`,
/// `Get-Credential`): a verb, a dash, a noun, each capitalised, letters only.
fn cmdlet(v: &str) -> bool {
    let capitalised = |w: &str| {
        w.len() >= 3
            && w.starts_with(|c: char| c.is_ascii_uppercase())
            && w.bytes().all(|c| c.is_ascii_alphabetic())
    };
    v.split_once('-')
        .is_some_and(|(verb, noun)| capitalised(verb) && capitalised(noun))
}

/// A key written in groups (`865E-3888-79CC-5F84`, a licence's `XXXXX-XXXXX-…`): four or more
/// groups of four to eight letters and digits joined by `-`, letters and digits mixed across
/// it. Under a credential's name its dashes keep the entropy below the bar a run would meet;
/// words (`read-only-mode-test`) and dates (`2026-11-30`) have no such shape.
fn grouped_key(v: &str) -> bool {
    let groups = v.split('-');
    let mut n = 0;
    for g in groups {
        n += 1;
        if !(4..=8).contains(&g.len()) || !g.bytes().all(|c| c.is_ascii_alphanumeric()) {
            return false;
        }
        // `AAAA-1111-…`: a pattern typed to show the format.
        if g.bytes().all(|c| c == g.as_bytes()[0]) {
            return false;
        }
    }
    n >= 4 && has_digit(v) && v.bytes().any(|c| c.is_ascii_alphabetic()) && entropy(v) >= 3.0
}

/// A short key quoted under a credential's name (`'MEMBERPRESS-API-KEY' => 'atJrr1LPB0'`):
/// ten or more letters and digits, both cases and a digit, hardly a character repeated. Ten
/// such characters are what a generator writes; a word, a name or a version is not spelt so.
fn short_key(v: &str, len: usize, h: f64, written: Written) -> bool {
    written == Written::Quoted
        && (10..16).contains(&len)
        && v.bytes().all(|c| c.is_ascii_alphanumeric())
        && has_mixed_case(v)
        && has_digit(v)
        && h >= (len as f64).log2() - 0.35
        && looks_random(v)
        && !looks_like_words(v)
        && !camel_words(v)
}

/// A short token of hex digits under a name whose last word is `token` (IPinfo's fourteen,
/// `IPINFO_TOKEN = "2651fa044303fd"`): a generator's draw, hardly a digit repeated, both digits
/// and letters. Not under a key's or a password's name, where a short hex run is as often a
/// digest's prefix or an id.
fn short_hex_token(name: &str, v: &str, len: usize, h: f64) -> bool {
    // Asked of most values under a credential's name: the value's shape first, the name's
    // words (split into new strings) only for a short hex run.
    (12..32).contains(&len)
        && v.bytes().all(|c| c.is_ascii_hexdigit())
        && (v.bytes().all(|c| !c.is_ascii_uppercase())
            || v.bytes().all(|c| !c.is_ascii_lowercase()))
        && has_digit(v)
        && v.bytes().any(|c| c.is_ascii_alphabetic())
        // A random draw of fourteen falls 0.6 bits under log2 of its length one time in
        // three (`87aaa9e360d905`: 3.18 bits); a digit or a letter repeated stays far under.
        && h >= (len as f64).log2() - 0.8
        && crate::text::words(name)
            .last()
            .is_some_and(|w| w == "token")
}

/// A short token as a URL's query parameter under a credential's name (Gotify's
/// `?token=A8Mi.Js4nj0xMpB`): twelve to fifteen characters of a generator's alphabet, both
/// cases and a digit, a dot or a dash inside as generators put them. (Sixteen and more are
/// judged as any value is.)
pub(crate) fn query_token(v: &str) -> bool {
    let len = v.len();
    (12..16).contains(&len)
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-'))
        && v.starts_with(|c: char| c.is_ascii_alphanumeric())
        && v.ends_with(|c: char| c.is_ascii_alphanumeric())
        && has_mixed_case(v)
        && has_digit(v)
        && entropy(v) >= (len as f64).log2() - 0.5
        && looks_random(v)
        && !looks_like_words(v)
        && !camel_words(v)
}

/// Words, then a digest (`node-modules-bc7f…`, `build_cache_9f2c…`): a name made unique by a
/// hash, as caches and build ids are. A vendor's prefix says what it is or where it works
/// (`signkey-prod-…`, `shippo_live_…`, `sk_test_…`): a token.
fn named_digest(v: &str) -> bool {
    const TOKEN_WORDS: &[&str] = &[
        "api",
        "auth",
        "dev",
        "key",
        "live",
        "pass",
        "pat",
        "prod",
        "production",
        "sandbox",
        "secret",
        "sign",
        "staging",
        "test",
        "token",
    ];
    let Some(cut) = v.rfind(['-', '_']) else {
        return false;
    };
    let (words, body) = (&v[..cut], &v[cut + 1..]);
    let parts: Vec<&str> = words.split(['-', '_']).collect();
    is_hex_token(body)
        && body.len() >= 32
        && parts.len() >= 2
        // Capitalised too: a cache's key names the system it was made on (`Linux-pnpm-store-
        // 98e7…`).
        && parts
            .iter()
            .all(|p| p.len() >= 3 && p.bytes().all(|b| b.is_ascii_alphabetic()))
        && !parts.iter().any(|p| {
            let p = p.to_ascii_lowercase();
            TOKEN_WORDS.iter().any(|w| p.contains(w))
        })
}

/// `8-4-4-4-12` hexadecimal digits.
pub(crate) fn is_uuid(v: &str) -> bool {
    let groups: Vec<&str> = v.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A wallet's recovery words under a name for them (`MNEMONIC="torch artwork … first"`,
/// `seed_phrase`): twelve to twenty-four short lower-case words, the lengths BIP-39 allows;
/// whoever has them has the wallet.
fn seed_phrase(name: &str, value: &str) -> bool {
    let words: Vec<&str> = value.split_whitespace().collect();
    matches!(words.len(), 12 | 15 | 18 | 21 | 24)
        && words
            .iter()
            .all(|w| (3..=8).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_lowercase()))
        && crate::text::words(name)
            .iter()
            .any(|w| matches!(w.as_str(), "mnemonic" | "seed" | "phrase" | "recovery"))
}

/// A quoted value with spaces is a passphrase (`correct horse battery
/// staple 42!`, `Zq4!mT8p Lx2W&k9`) under a password or secret name, and a
/// sentence or a label otherwise.
fn plausible_passphrase(name: &str, value: &str) -> bool {
    let v = value.trim();
    let spaces = v.bytes().filter(u8::is_ascii_whitespace).count();
    (passwordish(name) || name.to_ascii_lowercase().contains("secret"))
        && (8..=100).contains(&v.len())
        && spaces <= 6
        && !v.ends_with('.')
        && !v.contains(". ")
        && (has_digit(v) || symbol_kinds(v) >= 1)
        && !v.contains('\n')
}

/// A header named for a key or token (`Api-Token: Sk94HG7f6KB`) carries
/// one even when short, unless the name describes it (`X-Api-Version`,
/// `X-Api-Key-Id`) or the value is a number, date, version or word.
/// A token recognised by its shape alone: a short lower-case prefix (`re_`, `csk-`,
/// `dckr_pat_`, `sb_secret_`) and a long random body. The body is the evidence: 26 characters
/// or more of letters and digits with high entropy, or 32 hexadecimal digits after a prefix of
/// four letters or fewer (a longer word before a hash is a name: `build-<sha>`). Digests
/// (`sha512-…`), UUIDs and words are not tokens.
pub(crate) fn plausible_prefixed_token(value: &str) -> bool {
    let Some(cut) = value.rfind(['_', '-']).filter(|&i| i > 0) else {
        return false;
    };
    // The body is everything after the prefix: the prefix is its first one or two segments.
    // A second segment of letters only is still the prefix (`dckr_pat_…`, `node-modules-…`).
    let seps: Vec<usize> = value
        .char_indices()
        .filter(|(_, c)| matches!(c, '_' | '-'))
        .map(|(i, _)| i)
        .take(2)
        .collect();
    let prefix_end = match seps[..] {
        [a, b, ..]
            if value[b + 1..].len() >= 26
                && value[a + 1..b].len() >= 3
                && value[a + 1..b].bytes().all(|c| c.is_ascii_lowercase()) =>
        {
            b
        }
        _ => seps
            .iter()
            .copied()
            .find(|&i| value[i + 1..].len() >= 26)
            .unwrap_or(cut),
    };
    let (prefix, body) = (&value[..prefix_end], &value[prefix_end + 1..]);
    let first = prefix.split(['_', '-']).next().unwrap_or(prefix);
    const DIGESTS: &[&str] = &[
        "sha1", "sha224", "sha256", "sha384", "sha512", "md5", "blake2b", "blake2s", "blake3",
        "crc32", "xxh64", "h1", "sri", "etag",
    ];
    if DIGESTS.contains(&first) || is_placeholder(value) || is_filler(body) {
        return false;
    }
    if names_itself_public(value) {
        return false;
    }
    // A prefix before two UUIDs is a key's id and its secret drawn together (`luma-<uuid>-
    // <uuid>`); one UUID is a record's id (`order-<uuid>`).
    if uuids_in(value) >= 2 {
        return true;
    }
    if contains_uuid(value) || ulid_like(body) {
        return false;
    }
    // A prefix that names the key private (`ed25519-priv-0x…`, `…_secret_…`): hex is its body.
    let private = prefix
        .split(['_', '-'])
        .any(|p| matches!(p, "priv" | "private" | "secret" | "sec"));
    let hex = body.strip_prefix("0x").unwrap_or(body);
    if private && hex.len() >= 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return entropy(hex) >= 3.0;
    }
    let letters = body.bytes().any(|b| b.is_ascii_alphabetic());
    if !(letters && has_digit(body)) || looks_like_words(body) || wordy(body) {
        return false;
    }
    // (Hex in segments is hex too: `rsly_d412…e1f8_e18f8e`.)
    let joined: String = body.chars().filter(|c| !matches!(c, '_' | '-')).collect();
    if is_hex_token(&joined) {
        prefix.len() <= 4 && joined.len() >= 32 && entropy(&joined) >= 3.0
    } else {
        body.len() >= 26 && entropy(body) >= 4.0
    }
}

/// A ULID, a record's id sortable by time (`order_01J3YU1GZG2Z2FIYG24SON2X60`, Stripe-like
/// prefixed ids of many stores): 26 upper-case letters and digits whose first two say the
/// 2020s (`01`). A token's body of one case is rarer than its chance of starting so.
fn ulid_like(body: &str) -> bool {
    body.len() == 26
        && body.starts_with("01")
        && body
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
}

/// A name made of words and numbers (`4d5611e5_lines720-800_compact_window`): its segments
/// of four or more lower-case letters make up 30 % of it or more. A random body has almost
/// none.
fn wordy(body: &str) -> bool {
    let words: usize = body
        .split(['_', '-', '.'])
        .filter(|seg| seg.len() >= 4 && seg.bytes().all(|b| b.is_ascii_lowercase()))
        .map(str::len)
        .sum();
    words * 10 >= body.len() * 3
}

/// Whether a UUID (`8-4-4-4-12` hex) sits anywhere in `v`.
/// How many UUIDs `v` holds, none overlapping.
fn uuids_in(v: &str) -> usize {
    let b = v.as_bytes();
    let (mut n, mut i) = (0, 0);
    while i + 36 <= b.len() {
        if std::str::from_utf8(&b[i..i + 36]).is_ok_and(is_uuid) {
            n += 1;
            i += 36;
        } else {
            i += 1;
        }
    }
    n
}

fn contains_uuid(v: &str) -> bool {
    v.as_bytes()
        .windows(36)
        .any(|w| std::str::from_utf8(w).is_ok_and(is_uuid))
}

/// A string handed to a call named for a credential: generated-looking (letters with digits
/// or mixed case, twelve characters or more, high entropy), not a URL, an address, a path, a
/// version, a user name or words.
pub(crate) fn plausible_call_argument(value: &str) -> bool {
    // An app password in its four groups of four letters (`"ujbl scya leed ldyv"`, as Google
    // shows it), handed to a login: no word is spelt so, and no id is grouped so.
    if app_password(value) {
        return true;
    }
    let len = value.chars().count();
    // Ten or eleven characters when all four kinds are there (`'vbieZAF7!4f'`): a person's
    // password, which a word or an id never is.
    let b = value.as_bytes();
    let every_kind = b.iter().any(u8::is_ascii_uppercase)
        && b.iter().any(u8::is_ascii_lowercase)
        && b.iter().any(u8::is_ascii_digit)
        && b.iter().any(u8::is_ascii_punctuation);
    (len >= 12 || len >= 10 && every_kind)
        && !value.contains(char::is_whitespace)
        && !is_placeholder(value)
        && !is_number(value)
        && !looks_like_url(value)
        && !looks_like_address(value)
        && !looks_like_path(value)
        && !looks_like_version(value)
        && !looks_like_words(value)
        && !looks_like_identifier(value, true)
        // An `@` is an address's (`ops@host`), unless every kind of character is there: a
        // person's password (`7bvX@Up!Qqp6g2K`).
        && (!value.contains('@') || every_kind)
        && !connection_string(value)
        && value.bytes().any(|b| b.is_ascii_alphabetic())
        && looks_random(value)
        // Every kind of character is evidence entropy need not add to: a person's password
        // repeats a letter (`+mwqKFHKKX1k`) as no word or id mixes all four.
        && entropy(value) >= if is_hex_token(value) || every_kind { 3.0 } else { 3.3 }
}

/// Four groups of four lower-case letters, with no group a word's shape (a vowel between
/// consonants at most as often as a random draw gives one).
fn app_password(v: &str) -> bool {
    let groups: Vec<&str> = v.split(' ').collect();
    groups.len() == 4
        && groups
            .iter()
            .all(|g| g.len() == 4 && g.bytes().all(|b| b.is_ascii_lowercase()))
        && !looks_like_words(&groups.concat())
        && entropy(&groups.concat()) >= 3.0
}

/// A connection string of settings (`mysql:host=db;dbname=shop;charset=utf8mb4`,
/// `Server=db;Database=shop`): a password inside it is read by the rules for such strings,
/// not taken whole.
fn connection_string(value: &str) -> bool {
    let settings = value
        .split([';', ' '])
        .filter(|p| {
            p.split_once('=').is_some_and(|(k, _)| {
                !k.is_empty()
                    && k.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':')
            })
        })
        .count();
    // Or a driver's address of colon-joined names (`dbi:ODBC:Arcade`, `jdbc:sqlite:x`).
    let driver = {
        let mut parts = value.split(':');
        let scheme = parts.next().unwrap_or_default();
        let driver = parts.next().unwrap_or_default();
        !scheme.is_empty()
            && scheme.bytes().all(|b| b.is_ascii_alphabetic())
            && !driver.is_empty()
            && driver.bytes().all(|b| b.is_ascii_alphanumeric())
            && parts.next().is_some()
    };
    settings >= 2 || settings == 1 && value.contains(':') || driver
}

/// A positional argument after a command-line login verb (`wandb login KEY`, `ngrok config
/// add-authtoken TOKEN`): 20 characters or more of letters and digits, random.
pub(crate) fn plausible_login_argument(value: &str) -> bool {
    let len = value.len();
    len >= 20
        && has_digit(value)
        && value.bytes().any(|b| b.is_ascii_alphabetic())
        && !is_placeholder(value)
        && !is_filler(value)
        && !looks_like_words(value)
        && !looks_like_version(value)
        && entropy(value) >= if is_hex_token(value) { 3.0 } else { 3.5 }
}

pub(crate) fn plausible_header_value(name: &str, value: &str) -> bool {
    value.len() >= 8
        && !name_rules_out(name)
        && !is_placeholder(value)
        && !is_number(value)
        && value.bytes().any(|b| b.is_ascii_alphabetic())
        && looks_random(value)
        && !looks_like_version(value)
        && !looks_like_words(value)
        && !looks_like_url(value)
        && !looks_like_address(value)
        && !looks_like_path(value)
}

/// A password flag's value (`-pS3cretPass42`, `sshpass -p …`).
pub(crate) fn plausible_password(value: &str) -> bool {
    let len = value.chars().count();
    !is_placeholder(value)
        && !is_number(value)
        && len >= 8
        && entropy(value) >= 3.0_f64.min((len as f64).log2() - 0.5)
}

/// The private-key body must hold key material, not a sentence that follows
/// a BEGIN line in documentation: a run of 16 base64 characters (a word is
/// shorter), and any length beyond that (a DSA or EC key, a truncated paste).
/// The body of a private-key block: with its END line present, whatever the body holds is the
/// key (a test key, a short or oddly wrapped one), unless it is a placeholder; without it,
/// key material must show: a run of 16 base64 characters.
pub(crate) fn plausible_key_body_in(body: &str, ended: bool) -> bool {
    if ended {
        let t = body.trim();
        return t.len() >= 8
            && !is_placeholder(t)
            && !t.chars().all(|c| c == '.' || c == 'x' || c == 'X');
    }
    key_material(body)
}

fn key_material(body: &str) -> bool {
    let mut run = 0usize;
    for b in body.bytes() {
        if b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=' {
            run += 1;
            if run >= 16 {
                return !is_placeholder(body.trim());
            }
        } else {
            run = 0;
        }
    }
    false
}

/// A bare value ends where the statement or the next parameter starts:
/// before `&name=` (a query string), `;name=` and `,name=` (connection
/// strings), `&&` and `||`, then trailing `,`, `;` and `.` and unbalanced
/// closing brackets are shed. `Tr0ub4dor&3x` and `N8v!qL2p;Xz` are kept.
pub(crate) fn trim_bare_value(value: &str) -> usize {
    let bytes = value.as_bytes();
    let mut end = bytes.len();
    for (i, &b) in bytes.iter().enumerate() {
        if matches!(b, b'&' | b'|') && bytes.get(i + 1) == Some(&b) {
            end = i;
            break;
        }
        if !matches!(b, b'&' | b';' | b',') {
            continue;
        }
        let name_len = bytes[i + 1..]
            .iter()
            // (A form body's names may be percent-encoded: `&f%5Bretries%5D=3`.)
            .take_while(|&&c| c.is_ascii_alphanumeric() || b"_.-[] %".contains(&c))
            .count();
        if name_len > 0 && bytes.get(i + 1 + name_len) == Some(&b'=') {
            end = i;
            break;
        }
    }
    loop {
        let v = &bytes[..end];
        let Some(&last) = v.last() else { break };
        let unbalanced = |open: u8, close: u8| {
            last == close
                && memchr::memchr_iter(close, v).count() > memchr::memchr_iter(open, v).count()
        };
        if matches!(last, b',' | b';' | b'.')
            || unbalanced(b'(', b')')
            || unbalanced(b'[', b']')
            || unbalanced(b'{', b'}')
        {
            end -= 1;
        } else {
            break;
        }
    }
    end
}

/// Decoded base64 (standard or URL alphabet, padding optional), or `None`: the floor's.
pub(crate) fn base64_decode(s: &str) -> Option<Vec<u8>> {
    trail_base::text::base64_decode(s)
}

/// A Bitcoin address in Base58Check (`1…`, `3…`): 25 bytes, a version byte of 0 or 5, and the
/// first four bytes of the payload's double SHA-256 last. Whoever is paid publishes it; it
/// opens nothing.
pub(crate) fn bitcoin_address(v: &str) -> bool {
    (26..=35).contains(&v.len())
        && v.starts_with(['1', '3'])
        && base58check::<25>(v).is_some_and(|b| matches!(b[0], 0 | 5))
}

/// A private key in Wallet Import Format (`L1Mip6F9…`, `5HueCGU8…`): Base58Check of a version
/// byte of 0x80 (0xEF on a test network), the key's 32 bytes and, for a compressed key, 0x01.
/// The checksum says it is one; the key spends whatever its address holds.
pub(crate) fn wif_private_key(v: &str) -> bool {
    match v.len() {
        51 => base58check::<37>(v).is_some_and(|b| matches!(b[0], 0x80 | 0xef)),
        52 => base58check::<38>(v).is_some_and(|b| matches!(b[0], 0x80 | 0xef) && b[33] == 1),
        _ => false,
    }
}

/// `v` in Base58 as `N` bytes, big-endian, when the last four are the first four of the rest's
/// double SHA-256 (Base58Check).
fn base58check<const N: usize>(v: &str) -> Option<[u8; N]> {
    use sha2::{Digest, Sha256};
    const ALPHABET: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    let mut bytes = [0u8; N];
    for c in v.bytes() {
        let digit = ALPHABET.iter().position(|&a| a == c)?;
        let mut carry = u32::try_from(digit).ok()?;
        for b in bytes.iter_mut().rev() {
            carry += u32::from(*b) * 58;
            *b = carry.to_le_bytes()[0];
            carry >>= 8;
        }
        if carry != 0 {
            return None;
        }
    }
    let check = Sha256::digest(Sha256::digest(&bytes[..N - 4]));
    (check[..4] == bytes[N - 4..]).then_some(bytes)
}

/// A resource's id: its type in two capitals, then 32 hex digits (a message's `SM1e2a…`, an
/// account's `AC…`), as messaging APIs print them in logs, webhooks and setup prompts.
pub(crate) fn typed_resource_id(value: &str) -> bool {
    value.len() == 34
        && value.as_bytes()[..2].iter().all(u8::is_ascii_uppercase)
        && value.as_bytes()[2..]
            .iter()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
}

/// Base64 of compressed data (`eJwNycEN…`, a zlib stream; `H4sIAAAA…`, gzip; `QlpoOTFBWSZT…`,
/// bzip2; `/Td6WFo…`, xz; `KLUv/…`, zstd): its first bytes are the format's header, which a
/// key's random bytes match about once in 8,000 (zlib's method byte and its check value) or
/// far more rarely (the others' magic numbers, three to six bytes).
pub(crate) fn encodes_compressed(value: &str) -> bool {
    let Some(head) = value
        .get(..8)
        .and_then(base64_decode)
        .or_else(|| value.get(..4).and_then(base64_decode))
    else {
        return false;
    };
    if head.len() < 3 {
        return false;
    }
    let zlib = head[0] == 0x78 && (u16::from(head[0]) << 8 | u16::from(head[1])) % 31 == 0;
    let gzip = head[..3] == [0x1f, 0x8b, 0x08];
    // bzip2's `BZh` and a block size of 1 to 9; xz's and zstd's magic numbers.
    let bzip2 = head.len() >= 4 && head[..3] == *b"BZh" && (b'1'..=b'9').contains(&head[3]);
    let xz = head.len() >= 6 && head[..6] == [0xfd, b'7', b'z', b'X', b'Z', 0x00];
    let zstd = head.len() >= 4 && head[..4] == [0x28, 0xb5, 0x2f, 0xfd];
    zlib || gzip || bzip2 || xz || zstd
}

/// Base64 of prose (`bWFuaWxhIG5pZ2h0bHkg…`, a sentence `base64` printed): every byte a
/// printable character, words split by spaces, mostly letters. No key's random bytes decode
/// so.
pub(crate) fn encodes_prose(value: &str) -> bool {
    let Some(bytes) = base64_decode(value) else {
        return false;
    };
    let letters = bytes.iter().filter(|b| b.is_ascii_alphabetic()).count();
    let spaces = memchr::memchr_iter(b' ', &bytes).count();
    bytes.len() >= 16
        && bytes
            .iter()
            .all(|&b| (0x20..0x7f).contains(&b) || matches!(b, b'\n' | b'\t' | b'\r'))
        && spaces * 12 >= bytes.len()
        && letters * 2 >= bytes.len()
}

/// Base64 of `user:password` where the password is a placeholder or the
/// user again (`test:test`, `admin:password`): a default, not a secret.
fn default_credentials(value: &str) -> bool {
    let Some(decoded) = base64_decode(value) else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(&decoded) else {
        return false;
    };
    match text.split_once(':') {
        Some((user, pass)) if text.chars().all(|c| !c.is_control()) => {
            pass == user || is_placeholder(pass) || pass.len() < 4
        }
        _ => false,
    }
}

/// A path in a secret store after the store's scheme (`vault:secret/data/kiln/db#password`,
/// `awssm:prod/db/password`): where the secret is kept, not the secret. The scheme is written
/// against the value (`NAME:`, no blank), the path is words between slashes, and a `#field`
/// may name the entry. Or a shell's message for a variable left unset (`${NAME:?missing}`).
pub(crate) fn store_reference(before: &str, value: &str) -> bool {
    let Some(scheme) = before.strip_suffix(':') else {
        return false;
    };
    // `${DB_PASSWORD:?missing}`: the message a shell prints when the variable is unset.
    if value.starts_with('?')
        && scheme.rsplit_once("${").is_some_and(|(_, name)| {
            !name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        })
    {
        return true;
    }
    let scheme = scheme
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_')))
        .next()
        .unwrap_or_default();
    let (path, field) = value.split_once('#').unwrap_or((value, ""));
    let word = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
            && !looks_random(s)
    };
    scheme.len() >= 2
        && scheme.bytes().all(|c| c.is_ascii_lowercase() || c == b'-')
        && path.split('/').count() >= 2
        && path.split('/').all(word)
        && (field.is_empty() || word(field))
}

/// Well-known public demo values, each published in documentation as an
/// example: the Telegram Bot API's sample token, Stripe's documented test
/// key.
const DEMO_VALUES: &[&str] = &[
    "110201543:AAHdqTcvCH1vGWJxfSe1ofSAs0K5PALDsaw",
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
    // The NT hash of the empty password: a disabled account's, guarding nothing.
    "31d6cfe0d16ae931b73c59d7e0c089c0",
];

/// Formats that hold no secret whatever name they stand under: a password hash in the Modular
/// A secret named where another program keeps it, by a short scheme and a name in lower case
/// (wpa_supplicant's `psk=ext:ops_psk`, `keyring:duetto`): no value, a name.
fn named_reference(v: &str) -> bool {
    v.split_once(':').is_some_and(|(scheme, name)| {
        (2..=8).contains(&scheme.len())
            && scheme.bytes().all(|c| c.is_ascii_lowercase())
            && name.len() >= 3
            && name.bytes().all(|c| {
                c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'_' | b'-' | b'.')
            })
            && name.bytes().any(|c| c.is_ascii_lowercase())
            && !looks_random(name)
    })
}

/// Crypt Format (`$6$salt$…`, `$2y$10$…`, `$argon2id$v=19$…`), a reference to where the secret
/// is (`env:NAME`, `file:…`, `fd:3`, `$HOME/…`, `os.environ["…"]`), and a fingerprint written as
/// hex pairs with colons (`F7:2E:D9:…`) or named by its digest (`SHA256:HnXJ…`).
pub(crate) fn no_secret_by_format(v: &str) -> bool {
    let v = v.trim_matches(['"', '\'']);
    // What `openssl enc -a` writes: `Salted__`, the salt, then ciphertext, in base64: opened
    // only with the passphrase, which is not there.
    if v.starts_with("U2FsdGVkX1") {
        return true;
    }
    // A minisign public key: `RW` (Ed25519) and 54 more base64 characters, the key id and
    // the key, 42 bytes in all.
    if v.len() == 56
        && v.starts_with("RW")
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/'))
    {
        return true;
    }
    let crypt = crypt_format(v);
    let reference = ["env:", "file:", "fd:"].iter().any(|p| {
        v.strip_prefix(p)
            .is_some_and(|r| !r.is_empty() && !r.contains(char::is_whitespace))
    }) || named_reference(v)
        || v.strip_prefix('$').is_some_and(|r| {
            let r = r.trim_start_matches('{');
            let name = r
                .bytes()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
                .count();
            // A variable's name is written in one case (`$HOME/…`, `${state_dir}/…`); a random
            // run in both, with digits, is a key that starts with `$` (`$aact_QIpC…/…`).
            let one_case = !r[..name].bytes().any(|c| c.is_ascii_uppercase())
                || !r[..name].bytes().any(|c| c.is_ascii_lowercase());
            name > 0 && one_case && r[name..].trim_start_matches('}').starts_with('/')
        });
    // A secret manager's entry by its name and version (`--set-secrets=API_TOKEN=
    // api-token:latest`, `db-password:3`), after the variable it fills, if any: where the
    // secret is kept.
    let entry = v
        .split_once('=')
        .filter(|(var, _)| {
            var.bytes()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_')
        })
        .map_or(v, |(_, r)| r);
    let reference = reference
        || entry.rsplit_once(':').is_some_and(|(name, version)| {
            (version == "latest"
                || !version.is_empty() && version.bytes().all(|c| c.is_ascii_digit()))
                && name
                    .split(['-', '_', '/'])
                    .all(|w| w.len() >= 2 && w.bytes().all(|c| c.is_ascii_lowercase()))
        });
    // Read from the environment by code (`os.environ["…"]`, `process.env.X`): where the
    // secret is kept, not the secret.
    let from_env = ["os.environ", "process.env", "getenv(", "env::var(", "ENV["]
        .iter()
        .any(|r| v.contains(r));
    let pairs: Vec<&str> = v.split(':').collect();
    let fingerprint = pairs.len() >= 8
        && pairs
            .iter()
            .all(|p| p.len() == 2 && p.bytes().all(|c| c.is_ascii_hexdigit()));
    // An ssh-style key fingerprint: a digest's name, then its base64 (`SHA256:HnXJ…`, 43
    // characters) or colon-hex (`MD5:aa:bb:…`).
    // A digest or an HMAC in hex after its algorithm's name (Vault's audit log writes every
    // token it saw as `hmac-sha256:c127…`; an image's digest is `sha256:…`), or after a name
    // that ends in it (systemd's `SetCredential=artifact-sha256:7f35…`: the credential's own
    // name says what it holds).
    let hex_digest = v.split_once(':').is_some_and(|(algo, hex)| {
        // The algorithm is the name's last word (`hmac-sha256`, `artifact-sha256`, `sha256`).
        let algo = algo.rsplit(['-', '_']).next().unwrap_or(algo);
        hex.len() >= 32
            && hex.bytes().all(|c| c.is_ascii_hexdigit())
            && ["sha256", "sha512", "sha1", "md5"]
                .iter()
                .any(|a| algo.eq_ignore_ascii_case(a))
    });
    let named_digest = hex_digest
        || ["SHA256:", "SHA384:", "SHA512:", "SHA1:", "MD5:"]
            .iter()
            .any(|p| {
                v.strip_prefix(p).is_some_and(|d| {
                    let d = d.trim_end_matches(['.', ',']);
                    d.len() >= 27
                        && d.bytes().all(|c| {
                            c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b':')
                        })
                })
            });
    // A salt and a digest, both hex, joined by `$` (Bitcoin's `rpcauth=user:salt$hmac`):
    // what checks a password, not one.
    let salted = v
        .rsplit(':')
        .next()
        .and_then(|d| d.split_once('$'))
        .is_some_and(|(salt, digest)| {
            let hex = |h: &str| h.len() >= 16 && h.bytes().all(|c| c.is_ascii_hexdigit());
            hex(salt) && hex(digest)
        });
    crypt || reference || from_env || fingerprint || named_digest || salted || public_key(v)
}

/// Whether the word just before a value, on its line, labels an id in camelCase or with a
/// separator (`(appId app_f2d1…)`, `"orgId": "…"`, `tenant_id=…`): ids say they are ids,
/// credentials do not. Not a session's id, which is the login itself, nor a client's: some
/// APIs take their access key as `client_id` (Unsplash's).
fn labelled_an_id_just_before(before: &str) -> bool {
    let tail = before
        .get(before.len().saturating_sub(64)..)
        .unwrap_or_default()
        .trim_end_matches([' ', '"', '\'', ':', '=']);
    let label = tail
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .next()
        .unwrap_or_default();
    let head = label
        .strip_suffix("Id")
        .filter(|h| h.ends_with(|c: char| c.is_ascii_lowercase()))
        .or_else(|| label.strip_suffix("_id"))
        .or_else(|| label.strip_suffix("-id"));
    head.is_some_and(|h| {
        h.len() >= 2
            && !["session", "client"]
                .iter()
                .any(|w| h.to_ascii_lowercase().contains(w))
            && h.bytes()
                .all(|c| c.is_ascii_alphabetic() || c == b'_' || c == b'-')
    })
}

/// crypt(3)'s format: `$id$…$…` (`$2a$10$…`, `$6$salt$…`), what a system stores to check a
/// password.
pub(crate) fn crypt_format(v: &str) -> bool {
    v.trim_matches(['"', '\''])
        .strip_prefix('$')
        .is_some_and(|rest| {
            let id_len = rest
                .bytes()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == b'-')
                .count();
            (1..=10).contains(&id_len)
                && rest.as_bytes().get(id_len) == Some(&b'$')
                && rest[id_len + 1..].contains('$')
        })
}

/// A public key written as base64, whatever name it stands under: DER ([`der_public`]) or an
/// elliptic curve's uncompressed point, 65 bytes opening with `0x04` (a Web Push server's
/// `applicationServerKey`, a VAPID public key). A private scalar of that curve is 32 bytes.
pub(crate) fn public_key(v: &str) -> bool {
    let v = v.trim_matches(['"', '\'']);
    let point = (86..=88).contains(&v.len())
        && base64_decode(v).is_some_and(|b| b.len() == 65 && b[0] == 0x04);
    point || der_public(v)
}

/// Base64 DER whose first element inside the outer SEQUENCE is another SEQUENCE: a public
/// key (SubjectPublicKeyInfo: its algorithm first, `MIIBIjANBgkq…`) or a certificate, never a
/// private key (PKCS#1 and PKCS#8 start with a version INTEGER, `MIIEvQIBADAN…`).
pub(crate) fn der_public(v: &str) -> bool {
    let v = v.trim_matches(['"', '\'']);
    if v.len() < 64 || !v.starts_with("MI") && !v.starts_with("MF") && !v.starts_with("MC") {
        return false;
    }
    // The outer header and the first inner tag lie in the first six bytes.
    let Some(bytes) = v.get(..8).and_then(base64_decode).filter(|b| b.len() >= 6) else {
        return false;
    };
    if bytes[0] != 0x30 {
        return false;
    }
    let header = match bytes[1] {
        0..=0x7f => 2,
        0x81 => 3,
        0x82 => 4,
        _ => return false,
    };
    bytes[header] == 0x30
}

/// Whether the line at `at` is one of a block of base64 lines (each after the same comment
/// mark, if any: `; ` in G-code, `# `) that together encode public material: a certificate
/// or a public key (DER), or a file whose format says what it is (PNG, JPEG, GIF, PDF, zip:
/// a thumbnail, an icon, an attachment). One line of such a block looks generated; the block
/// does not.
pub(crate) fn base64_block_public(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let body = |line: &str| -> Option<String> {
        let t = line
            .trim()
            .trim_start_matches([';', '#', '/', '*', '-'])
            .trim();
        let ok = t.len() >= 16
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
        ok.then(|| t.to_string())
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let here = text[..line_start].matches('\n').count();
    if lines.get(here).and_then(|l| body(l)).is_none() {
        return false;
    }
    let mut first = here;
    while first > 0 && body(lines[first - 1]).is_some() {
        first -= 1;
    }
    let mut joined = String::new();
    for line in &lines[first..] {
        match body(line) {
            Some(b) => joined.push_str(&b),
            None => break,
        }
    }
    if joined.len() < 64 {
        return false;
    }
    const FORMATS: &[&str] = &["iVBORw0KGgo", "/9j/", "R0lGOD", "JVBERi0", "UEsDB", "UklGR"];
    der_public(&joined) || FORMATS.iter().any(|f| joined.starts_with(f))
}

/// Whether the line holding `value` names a digest algorithm after it, as a word of its own
/// (`user HASH SALT SHA3-512`, a JMX password file's salted hashes): the values it labels are
/// digests. Only after: before a value, such a word names how a secret is used
/// (`authentication md5 1 key "$9$…"`), not what it is.
pub(crate) fn digest_named_on_line(value: &str, around: &str) -> bool {
    let Some(at) = around.find(value) else {
        return false;
    };
    let from = at + value.len();
    let end = around[from..].find('\n').map_or(around.len(), |i| from + i);
    let words: Vec<&str> = around[from..end]
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '|' | '(' | ')'))
        .collect();
    // An option's value names a setting, not what the value is (`signtool … /p … /fd SHA256`).
    let option_value =
        |i: usize| i > 0 && words[i - 1].starts_with(['-', '/']) && words[i - 1].len() > 1;
    words.iter().enumerate().any(|(i, w)| {
        if option_value(i) {
            return false;
        }
        let w = w.to_ascii_lowercase();
        let w = w.replace('-', "");
        matches!(
            w.as_str(),
            "sha1"
                | "sha224"
                | "sha256"
                | "sha384"
                | "sha512"
                | "sha3224"
                | "sha3256"
                | "sha3384"
                | "sha3512"
                | "md5"
                | "bcrypt"
                | "pbkdf2"
                | "argon2"
                | "argon2id"
                | "scrypt"
        )
    })
}

/// A token that is public by design or a published demo, judged on the
/// value and the text around it (`around`, the same line and its
/// neighbours):
/// - publishable payment keys (`pk_live_…`), Mapbox public tokens (`pk.eyJ…`) and PostHog project
///   keys (`phc_…`);
/// - Google API keys in a Firebase web config or the Maps JavaScript URL,
///   which Google documents as safe to ship to browsers;
/// - JWTs whose claims say `"role":"anon"` (Supabase's anon key) or carry
///   the jwt.io debugger's sample claims (`"iat":1516239022`);
/// - the demo values above, and base64 `user:password` defaults.
pub(crate) fn public_or_demo(value: &str, around: &str) -> bool {
    // A certificate or a public key in base64 (a Kubernetes webhook's `caBundle: LS0tLS1CRUdJTi…`):
    // what anyone who connects is shown.
    // So is any key file in base64 whose opening text calls it public (Tor's `==
    // ed25519v1-public: type0 ==` before the key).
    if value.len() >= 16 && opens_as_a_public_key_file(value) {
        return true;
    }
    // PostHog's project key (`phc_…`) is in the snippet every page of a site ships.
    // Mapbox's public token is `pk.` and a JWT-like body (`pk.eyJ1Ijoi…`); `pk.` and hex is
    // another service's secret token (LocationIQ's).
    if value.starts_with("pk_live_")
        || value.starts_with("pk_test_")
        || value.starts_with("pk.eyJ")
        || value.starts_with("phc_")
        // A key that calls itself public (Bytescale's `public_vDhw…`, `publishable_…`).
        || ["public_", "public-", "publishable_", "publishable-"]
            .iter()
            .any(|p| value.starts_with(p))
        // Or whose vendor's prefix says so (`hrpub_…`, `nbp_pub_…`).
        || crate::halves::public_prefix(value)
    {
        return true;
    }
    if no_secret_by_format(value) || digest_named_on_line(value, around) {
        return true;
    }
    if DEMO_VALUES.iter().any(|d| value.contains(d)) {
        return true;
    }
    if value.starts_with("AIza") {
        let lower = around.to_ascii_lowercase();
        if ["firebase", "authdomain", "maps.googleapis.com/maps/api/js"]
            .iter()
            .any(|k| lower.contains(k))
        {
            return true;
        }
    }
    if let Some(claims) = jwt_claims(value) {
        let compact: String = claims.chars().filter(|c| !c.is_whitespace()).collect();
        if compact.contains("\"role\":\"anon\"") || compact.contains("\"iat\":1516239022") {
            return true;
        }
    }
    false
}

/// Public by design, as its own prefix says: `sb_publishable_…`, `pk_live_…`,
/// `public-token-live-…`, and a site-ownership proof, which is published in DNS or a page's
/// head for anyone to read (`ahrefs-site-verification_…`, `google-site-verification=…`).
/// (Not in a header: Klaviyo's private keys are `pk_…`.)
pub(crate) fn names_itself_public(value: &str) -> bool {
    value.split(['_', '-']).take(3).any(|p| {
        matches!(
            p,
            "pk" | "pub" | "public" | "publishable" | "anon" | "verification" | "verify"
        )
    })
}

/// Whether `value`, read with digits and signs as the letters they stand for (`0` as `o`,
/// `@` as `a`), is a default every manual prints: `PASSW0RD`, `P@ssw0rd1`, `adm1n`,
/// `changeme`.
pub(crate) fn leet_default(value: &str) -> bool {
    let plain: String = value
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            '0' => 'o',
            '1' | '!' => 'i',
            '3' => 'e',
            '4' | '@' => 'a',
            '5' | '$' => 's',
            '7' => 't',
            c => c,
        })
        .collect();
    let plain = plain.trim_end_matches(|c: char| c == 'i' || c.is_ascii_digit());
    [
        "password", "passwort", "admin", "changeme", "default", "letmein", "secret", "root",
    ]
    .contains(&plain)
}

/// Whether the writer says, in a comment after the value on its line, that it is public or no
/// secret (`key: "…", // key id only; the secret stays on the server`, `# client-side token`).
pub(crate) fn said_public(after: &str) -> bool {
    let line = after.split('\n').next().unwrap_or_default();
    // A URL's `://` opens no comment (`… 'https://x.example/public/v1/…'`).
    let comment_at = |m: &str| {
        line.match_indices(m)
            .map(|(i, _)| i)
            .find(|&i| !(m == "//" && line[..i].ends_with(':')))
    };
    let Some(at) = ["//", "#", "/*", "<!--", " -- "]
        .iter()
        .filter_map(|m| comment_at(m))
        .min()
    else {
        return false;
    };
    let comment = line[at..].to_ascii_lowercase();
    [
        "public",
        "publishable",
        "client-side",
        "client side",
        "key id",
        "not a secret",
        "not secret",
        "safe to expose",
        "safe to share",
        // A key that can only search a public index (Algolia's search-only key).
        "search-only",
        "search only",
    ]
    .iter()
    .any(|w| comment.contains(w))
}

/// Whether the value at `start` is part of a resource name that refers to a secret kept
/// elsewhere (`arn:aws:secretsmanager:…:secret:prod/db-Qw5cwd`), or the ciphertext a YAML
/// tag marks (`password: !encrypted/pkcs1-oaep` and the lines under it).
pub(crate) fn names_a_stored_secret(text: &str, start: usize) -> bool {
    let before = text.get(..start).unwrap_or_default();
    let token_start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace() || matches!(c, '"' | '\'' | '=' | '`'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    if before[token_start..].starts_with("arn:") {
        return true;
    }
    let value = text.get(start..).unwrap_or_default();
    // A stored secret named by its id, as its manager calls it (`injected from Bitwarden
    // Secrets Manager secret a8787710-…`): a UUID after `secret`, where the line names the
    // manager or the vault that holds it.
    let id = value
        .split(|c: char| !(c.is_ascii_hexdigit() || c == '-'))
        .next()
        .is_some_and(is_uuid);
    if id {
        let line = before
            .rsplit('\n')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let named = line.trim_end().ends_with("secret")
            && ["manager", "vault", "store"]
                .iter()
                .any(|w| line.contains(w));
        if named {
            return true;
        }
    }
    // A tag is a word of letters (`!vault`, `!Ref`, `!encrypted/…`) and stands unquoted:
    // `password = "!mptBs5hvZghPC"` is a password that begins with `!`.
    let tag = value.strip_prefix('!').is_some_and(|t| {
        let word = t
            .split(['/', ' ', '\t', '\n', '\r'])
            .next()
            .unwrap_or_default();
        !word.is_empty()
            && word
                .bytes()
                .all(|c| c.is_ascii_alphabetic() || matches!(c, b'_' | b'-' | b'!'))
    });
    if tag && !before.ends_with(['"', '\'']) {
        return true;
    }
    let mut from = before.len().saturating_sub(400);
    while !before.is_char_boundary(from) {
        from += 1;
    }
    let recent = &before[from..];
    recent
        .rfind("!encrypted")
        .is_some_and(|at| !recent[at..].contains("\n\n"))
}

/// What precedes a token says it is public or no credential: it is the value
/// of `NEXT_PUBLIC_…`, `publishable_key`, `csrf-token`, or an integrity
/// digest (`sha512-…`).
/// Whether the comment right above the value's line says it is public (`/* This key is a
/// public access key, no need to hide it */` over `var GIPHY_KEY = '…'`): the contiguous
/// comment lines just above, at most six, name a key, token or id and say public, or call what
/// follows a public demo's. A comment that prints a key of its own (`# public key: age1…` over
/// an age identity) labels that one.
/// A comment a few lines above that says the value is the documentation's example (`# from
/// the ftrack API docs; replace with your own server, user and key`): published for everyone.
pub(crate) fn documented_example(before: &str) -> bool {
    before.rsplit('\n').skip(1).take(5).any(|line| {
        let t = line.trim();
        let comment = ["//", "#", "/*", "*", "--", ";"]
            .iter()
            .any(|m| t.starts_with(m));
        let lower = t.to_ascii_lowercase();
        comment
            && (lower.contains("replace with your own")
                // Where the values come from: the vendor's documentation (`from the API docs`,
                // `values published in the developer docs`).
                || ["from the", "published in", "given in", "listed in"]
                    .iter()
                    .any(|p| lower.contains(p))
                    && (lower.contains(" docs") || lower.contains("documentation")))
            && !lower.contains("private")
    })
}

pub(crate) fn comment_above_says_public(before: &str) -> bool {
    let Some(line_start) = before.rfind('\n') else {
        return false;
    };
    let mut in_block = false;
    for line in before[..line_start].rsplit('\n').take(6) {
        let t = line.trim();
        if t.ends_with("*/") {
            in_block = true;
        }
        let comment = in_block
            || ["//", "#", "/*", "*", "--", ";", "<!--"]
                .iter()
                .any(|m| t.starts_with(m));
        if !comment {
            return false;
        }
        if t.starts_with("/*") {
            in_block = false;
        }
        let lower = t.to_ascii_lowercase();
        let prints_a_key = t.split_ascii_whitespace().any(|w| w.len() >= 24);
        // Or says the login below is a public demo's, as its makers publish it (`# public
        // demo instance, credentials as published on the play page`).
        let public_demo =
            lower.contains("demo") && (lower.contains("public") || lower.contains("published"));
        if (lower.contains("public") && ["key", "token", " id"].iter().any(|w| lower.contains(w))
            || public_demo)
            && !lower.contains("private")
            && !lower.contains("secret")
            && !prints_a_key
        {
            return true;
        }
    }
    false
}

/// Whether the value at `start` is written into code every visitor's browser receives: an
/// inline `<script>` element, a `window.…` setting, or the object a browser SDK is initialised
/// with (`loyaltylion.init({ token: '…' })`). A key there is the widget's public one; a
/// password or a field named secret is not, and a vendor's own secret format is still found
/// by its rule.
pub(crate) fn served_to_browsers(text: &str, start: usize) -> bool {
    let before = text.get(..start).unwrap_or_default();
    // A password or a secret is no widget's key, wherever it is written (`api.init({ password:
    // '…' })` in a server's code).
    let field = before
        .rsplit('\n')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if ["pass", "pwd", "secret"].iter().any(|w| field.contains(w)) {
        return false;
    }
    // Nor a private key, by the name it stands under (`data-private-key="…"`).
    let name = &field[field.floor_char_boundary(field.len().saturating_sub(24))..];
    if name.contains("private") || name.contains("priv_key") || name.contains("privkey") {
        return false;
    }
    // The last 600 bytes, from a character's start: text before a key may be any language's.
    let window = &before[before.ceil_char_boundary(before.len().saturating_sub(600))..];
    let lower = window.to_ascii_lowercase();
    let in_script = lower
        .rfind("<script")
        .is_some_and(|open| !lower[open..].contains("</script"));
    // `window.cfg = { app: { apiKey: '…' } }`, `Sdk.init({ … })`: the statement is still open.
    let open_statement = |at: usize| !lower[at..].contains(';');
    let window_setting = lower.rfind("window.").is_some_and(open_statement);
    let sdk_init = [".init(", ".initialize("]
        .iter()
        .filter_map(|k| lower.rfind(k))
        .max()
        .is_some_and(|at| {
            let inside = &lower[at..];
            inside.matches('(').count() > inside.matches(')').count()
        });
    in_script
        || window_setting
        || sdk_init
        || shipped_in_an_app(before, &lower)
        || mounted_in_a_page(text, start)
}

/// Whether the key sits in an object that also names the page element a widget is drawn into
/// (`docsearch({ appId, apiKey: '…', container: '#search' })`): a search box's or a map's
/// configuration, which every visitor's browser receives.
fn mounted_in_a_page(text: &str, start: usize) -> bool {
    let before = &text[text.floor_char_boundary(start.saturating_sub(300))..start];
    let Some(open) = before.rfind('{').filter(|&o| !before[o..].contains('}')) else {
        return false;
    };
    let after = &text[start..text.ceil_char_boundary((start + 300).min(text.len()))];
    let Some(close) = after.find('}') else {
        return false;
    };
    // The key's own value lies between the two halves: no selector spans them.
    [&before[open..], &after[..close]].iter().any(|half| {
        [": '#", ": \"#", ":'#", ":\"#"]
            .iter()
            .any(|k| half.contains(k))
    })
}

/// Whether the value at the end of `before` is handed to an SDK in a phone app's code, which
/// every user's device receives as a browser receives a page: a call still open in Swift's
/// labelled style (`Purchases.configure(withAPIKey: "…"`), or in a Flutter or SwiftUI app
/// (`Platform.isIOS`, `import SwiftUI`). `lower` is the end of `before` in lower case. Found by
/// RevenueCat's public `appl_` keys, taken for secrets in three sealed parts.
fn shipped_in_an_app(before: &str, lower: &str) -> bool {
    let Some(open) = lower.rfind('(') else {
        return false;
    };
    if lower[open..].contains(')') {
        return false;
    }
    // `withAPIKey: "`: a Swift argument label made from an Objective-C selector.
    let label = before
        .trim_end_matches(['"', '\'', ' '])
        .strip_suffix(':')
        .map(|l| {
            l.rsplit(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .unwrap_or("")
        });
    let swift_label = label.is_some_and(|l| {
        l.strip_prefix("with")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
    });
    swift_label
        || [
            "platform.isios",
            "platform.isandroid",
            "package:flutter/",
            "import swiftui",
            "import uikit",
        ]
        .iter()
        .any(|m| lower.contains(m))
}

/// Words that name what a page hands its script to use, not show: a bearer's token, a secret,
/// a private key (`data-ats-token="eyJ…"`, `data-private-key`).
const BEARERS: &[&str] = &[
    "token", "secret", "password", "passwd", "jwt", "session", "bearer", "private",
];

pub(crate) fn public_context(before: &str) -> bool {
    if labelled_an_id_just_before(before) {
        return true;
    }
    let b = before.as_bytes();
    let lower_tail = |n: usize| {
        before
            .get(before.len().saturating_sub(n)..)
            .unwrap_or_default()
            .to_ascii_lowercase()
    };
    if after_digest_algorithm(before) {
        return true;
    }
    // The content of a tag that says it is encrypted (FileZilla's `<Pass encoding="crypt"
    // …>`, kept under a master password): no secret in clear.
    if let Some(open) = before.trim_end().strip_suffix('>')
        && let Some(lt) = open.rfind('<')
    {
        let tag = open[lt..].to_ascii_lowercase();
        if tag.contains("encoding=\"crypt\"") || tag.contains("encrypted=\"true\"") {
            return true;
        }
    }
    // A decentralised identifier made of a public key (`did:key:z6Mk…`).
    if lower_tail(8).ends_with("did:key:") {
        return true;
    }
    // The blob of an OpenSSH public key line (`ssh-rsa AAAA… comment`).
    let tail = lower_tail(40);
    let last_word = tail.trim_end().rsplit(' ').next().unwrap_or_default();
    if tail.ends_with(' ')
        && (["ssh-rsa", "ssh-dss", "ssh-ed25519", "ssh-ed448"].contains(&last_word)
            || ["ecdsa-sha2-", "sk-ssh-", "sk-ecdsa-"]
                .iter()
                .any(|p| last_word.starts_with(p)))
    {
        return true;
    }
    // Back over the operator, quotes, blanks and a YAML list marker to the
    // name (`SshPublicKeys:\n- …`).
    let mut end = b.len();
    while end > 0
        && matches!(
            b[end - 1],
            b' ' | b'\t' | b'"' | b'\'' | b'=' | b':' | b'\\' | b'-' | b'\n' | b'\r'
        )
    {
        end -= 1;
    }
    if end == b.len() {
        return false;
    }
    let mut start = end;
    while start > 0
        && (b[start - 1].is_ascii_alphanumeric() || matches!(b[start - 1], b'_' | b'-' | b'.'))
    {
        start -= 1;
    }
    // `Public key: age1…`: the word before a one-word name qualifies it.
    if start > 1 && b[start - 1] == b' ' {
        let mut s = start - 1;
        while s > 0 && b[s - 1].is_ascii_alphabetic() {
            s -= 1;
        }
        if s < start - 1 {
            start = s;
        }
    }
    let name = &before[start..end];
    let words = crate::text::words(name);
    let lower = name.to_ascii_lowercase();
    if tagged_in_public_field(&before[..start]) {
        return true;
    }
    // A signature published beside what it signs (`sparkle:edSignature="…"`, `"signature":
    // "…"`) is checked with a public key; a URL's signing query (`?…&Signature=…`) is a
    // credential, and the signing-query rules judge it.
    // A form's field a request sends is a query too (`curl -F 'signature=…'`).
    let field = {
        let t = before[..start].trim_end_matches(['\'', '"']).trim_end();
        [" -F", " -d", "--form", "--data", "--data-urlencode"]
            .iter()
            .any(|f| t.ends_with(f))
    };
    // A page writes the query's `&` as `&amp;`; a JSON string as `\u0026`, and a URL inside
    // another's query as `%26`, where the name read back starts inside the escape.
    let escaped = ["%26", "%3f", "\\u0026", "\\u003f"].iter().any(|e| {
        let (head, rest) = e.split_at(1);
        before[..start].ends_with(head) && lower.starts_with(rest)
    });
    let in_query = start > 0 && matches!(b[start - 1], b'?' | b'&')
        || before[..start].ends_with("&amp;")
        || escaped
        || field;
    words
        .iter()
        .any(|w| PUBLIC_NAME_WORDS.contains(&w.as_str()))
        // A WebSocket handshake's nonce (`Sec-WebSocket-Key:`), sent in the clear by every
        // browser (RFC 6455), as `name_rules_out` says of the name alone.
        || ["csrf", "xsrf", "public", "websocket"].iter().any(|k| lower.contains(k))
        // (A page's widget keys, `data-sitekey`; not a token or a secret a page hands its
        // script, `data-ats-token="eyJ…"`, which is a bearer's wherever it is written.)
        || lower.starts_with("data-")
            && !words.iter().any(|w| BEARERS.contains(&w.as_str()))
        || !in_query && words.last().is_some_and(|w| w == "signature" || w == "sig")
        || words.last().is_some_and(|w| w == "value") && inside_signature(&before[..start])
}

/// Whether `before` ends in a digest algorithm's name and its separator: the value after it
/// is that digest.
fn after_digest_algorithm(before: &str) -> bool {
    // A digest after its algorithm's name: subresource integrity's `sha512-…`, HTTP's
    // `Repr-Digest: sha-512=:…:` (RFC 9530), `md5=…`.
    let tail = before
        .get(before.len().saturating_sub(14)..)
        .unwrap_or_default()
        .to_ascii_lowercase();
    // (A YAML or JSON value stands after a blank or a quote: `sha512: bTPd…==`, `"sha512":
    // "…"`.)
    let tail = tail.trim_end_matches([' ', '\t', '"', '\'']);
    ["=:", "-", "=", ":"]
        .iter()
        .find_map(|sep| tail.strip_suffix(sep))
        .is_some_and(|t| {
            let t = t.trim_end_matches(['"', '\'']);
            [
                "sha-512", "sha-384", "sha-256", "sha512", "sha384", "sha256", "md5", "blake2b",
            ]
            .iter()
            .any(|a| t.ends_with(a))
        })
}

/// A value's own tag opening a string that a field named public holds (Tailscale's
/// `"PublicKey": "nodekey:b14e…"`): the tag says which key, the field that it is public.
/// `before` ends where the tag begins.
fn tagged_in_public_field(before: &str) -> bool {
    let Some(outer) = before.strip_suffix(['"', '\'']) else {
        return false;
    };
    let outer = outer.trim_end();
    let Some(outer) = outer.strip_suffix([':', '=']) else {
        return false;
    };
    let field = outer.trim_end().trim_end_matches(['"', '\'']);
    let field = field
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .next()
        .unwrap_or_default();
    crate::text::words(field).iter().any(|w| w == "public")
}

/// Whether the object a field sits in is named for a signature (`"signature": {"alg":
/// "ed25519", "value": "…"}`): its value is checked with a public key, like a signature's.
fn inside_signature(before: &str) -> bool {
    let mut depth = 0usize;
    for (i, c) in before.char_indices().rev() {
        match c {
            '}' => depth += 1,
            '{' if depth > 0 => depth -= 1,
            '{' => {
                let key = before[..i]
                    .trim_end()
                    .trim_end_matches([':', '='])
                    .trim_end();
                let key = key.trim_end_matches(['"', '\'']);
                let name = key
                    .rsplit(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '-'))
                    .next()
                    .unwrap_or_default();
                return crate::text::words(name)
                    .last()
                    .is_some_and(|w| w == "signature" || w == "sig");
            }
            _ => {}
        }
    }
    false
}

/// The decoded claims of a JWT-shaped value (`eyJ….eyJ….…`).
fn jwt_claims(value: &str) -> Option<String> {
    let start = value.find("eyJ")?;
    let mut parts = value[start..].split('.');
    let _header = parts.next()?;
    let claims = parts.next()?;
    let claims: String = claims
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    String::from_utf8(base64_decode(&claims)?).ok()
}

/// Whether an unsigned JWT starts at byte `at` of `text` (see [`unsigned_jwt`]).
pub(crate) fn starts_unsigned_jwt(text: &str, at: usize) -> bool {
    let rest = &text[at..];
    rest.starts_with("eyJ") && {
        let len = rest
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
            .count();
        unsigned_jwt(&rest[..len])
    }
}

/// A JWT with a signature: three base64url parts, the header naming an algorithm other than
/// `none` (`eyJhbGciOiJFUzUxMiJ9.eyJ….MEUC…`). Whoever holds it is who it names until it
/// expires, wherever it is written.
pub(crate) fn signed_jwt(v: &str) -> bool {
    let mut parts = v.split('.');
    let (Some(header), Some(payload), Some(signature), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    header.starts_with("eyJ")
        && payload.starts_with("eyJ")
        && signature.len() >= 16
        && base64_decode(header).is_some_and(|h| {
            let h = String::from_utf8_lossy(&h).to_ascii_lowercase();
            h.contains("\"alg\"") && !h.contains("\"none\"")
        })
}

/// A JWT with no signature, its header saying so (`{"alg":"none"}` then `header.payload.`):
/// anyone can write one, and a server that checks signatures rejects it. Only a signed JWT
/// is a credential (the `jwt` rule wants the third part).
pub(crate) fn unsigned_jwt(v: &str) -> bool {
    let mut parts = v.split('.');
    let (Some(header), Some(payload)) = (parts.next(), parts.next()) else {
        return false;
    };
    let signature = parts.next().unwrap_or_default();
    header.starts_with("eyJ")
        && payload.starts_with("eyJ")
        && signature.is_empty()
        && parts.next().is_none()
        && base64_decode(header).is_some_and(|h| {
            let h = String::from_utf8_lossy(&h).to_ascii_lowercase();
            h.contains("\"alg\"") && h.contains("\"none\"")
        })
}
