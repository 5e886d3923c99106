//! Code handed to a shell, `eval`, `source` or an interpreter: from `-c`, a here-document, a
//! pipe, a process substitution, a file this line fetched, or a script on disk. Code fetched
//! from the network or decoded is blocked whatever it says (nobody read it, and hiding is
//! itself the signal); code the gate can read is handed back to the walk as a command line.

use super::parse::{Arg, Simple};
use super::rules::{is_shell, runs_person_act};
use super::{Context, Decision, Findings, Keep, Verdict, block, code, feed, junction};
use crate::RuleId;

/// Whether `name` runs code handed to it: a shell, `eval`, `source`, or an interpreter that
/// reads its program from stdin.
pub(crate) fn runs_code(name: &str) -> bool {
    is_shell(name) || matches!(name, "eval" | "source" | ".") || STDIN_RUNNERS.contains(&name)
}

/// Programs that run code read from their standard input when no script is named.
const STDIN_RUNNERS: &[&str] = &[
    "python",
    "python3",
    "python2",
    "pypy3",
    "node",
    "perl",
    "ruby",
    "php",
    "deno",
    "bun",
    "lua",
    "luajit",
    "tclsh",
    "osascript",
    "pwsh",
    "powershell",
    "iex",
    "Invoke-Expression",
    "at",
    "batch",
    // (R's script runner reads one from stdin the same way: `… | Rscript -`.)
    "Rscript",
];

/// Whether `name` is a program that only fetches: what it gets is printed or saved, and runs
/// only when something else runs it (`| sh`, judged there).
pub(crate) fn fetcher(name: &str) -> bool {
    FETCHERS.contains(&name)
}

/// Programs that fetch from the network: their output piped or substituted into a shell is
/// code nobody has read.
const FETCHERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "http",
    "https",
    "xh",
    "aria2c",
    "lynx",
    "links",
    "w3m",
    "irm",
    "iwr",
    "Invoke-WebRequest",
    "Invoke-RestMethod",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "gh",
    "ftp",
    "tftp",
    "scp",
    "ssh",
    // libwww-perl's clients, and curl's and wget's successors.
    "lwp-request",
    "lwp-download",
    "lwp-mirror",
    "wget2",
    "curlie",
    // A terminal's raw connection: what the other end types comes out of it.
    "telnet",
];

/// A program nobody models that is told to read from another machine (`mosquitto_sub -h
/// broker.lan …`, `acme-cli get https://…`): what it prints came over the network.
fn reaches_network(p: &Simple) -> bool {
    if p.name()
        .is_none_or(|n| super::known::tier(n) != super::known::Tier::Unknown)
    {
        return false;
    }
    let words: Vec<&str> = p
        .argv
        .iter()
        .skip(1)
        .filter_map(|a| a.text.as_deref())
        .collect();
    let local = |v: &str| loopback(v.split("://").nth(1).unwrap_or(v));
    words.iter().enumerate().any(|(i, w)| {
        let url = w.split_once("://").is_some_and(|(s, rest)| {
            !rest.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric())
        });
        let host_flag = matches!(
            *w,
            "-h" | "--host" | "-H" | "--server" | "--broker" | "--url" | "--endpoint"
        ) && words
            .get(i + 1)
            .is_some_and(|v| !v.starts_with('-') && v.contains('.'));
        (url && !local(w))
            || host_flag && !words.get(i + 1).is_some_and(|v| local(v))
            || host_port(w.split_once('=').map_or(*w, |(_, v)| v))
    })
}

/// Whether a word names another host by address and port (`kafka-prod-1:9092`,
/// `203.0.113.5:4444`), or is an IPv4 address of another host: a program given one talks to
/// that host. A name must hold a letter or a dot (`12:30` is a time), the port only digits
/// (`%user:key` is no address), and neither is this machine.
pub(crate) fn host_port(w: &str) -> bool {
    let ipv4 = |h: &str| {
        let parts: Vec<&str> = h.split('.').collect();
        parts.len() == 4
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let named = |h: &str| {
        !h.is_empty()
            && h.bytes().any(|b| b.is_ascii_alphabetic() || b == b'.')
            && h.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
            && !h.starts_with(['-', '.'])
    };
    let host = match w.rsplit_once(':') {
        Some((h, port))
            if (1..=5).contains(&port.len()) && port.bytes().all(|b| b.is_ascii_digit()) =>
        {
            h
        }
        _ if ipv4(w) => w,
        _ => return false,
    };
    (ipv4(host) || named(host)) && !loopback(host) && host != "0.0.0.0"
}

/// Whether a word spells its text in escapes: hex (`\x72`), three octal ones or more
/// (`\162\155\040`; one alone is more often a colour, `\033[1m`), or code points
/// (`\u0072\u006d`, bash's `printf '%b'` and `$'…'` read them).
fn escaped(raw: &str) -> bool {
    let b = raw.as_bytes();
    let octal = b
        .windows(4)
        .filter(|w| w[0] == b'\\' && w[1..].iter().all(|b| (b'0'..=b'7').contains(b)))
        .count();
    let code_points = b
        .windows(6)
        .filter(|w| {
            w[0] == b'\\' && matches!(w[1], b'u' | b'U') && w[2..].iter().all(u8::is_ascii_hexdigit)
        })
        .count();
    raw.contains("\\x") || octal >= 3 || code_points >= 3
}

/// Programs whose output is code the gate cannot read: decoders and scramblers.
pub(crate) fn decodes(p: &Simple) -> bool {
    let words: Vec<&str> = p.argv.iter().filter_map(|a| a.text.as_deref()).collect();
    let has = |w: &str| words.contains(&w);
    match p.name() {
        Some("base64" | "base32" | "basenc") => has("-d") || has("--decode") || has("-D"),
        Some("xxd") => words.iter().any(|w| w.starts_with("-r")),
        Some("openssl") => has("-d") || has("enc") && has("-base64"),
        Some(
            "rev" | "tr" | "gunzip" | "zcat" | "uudecode" | "gzip" | "bzip2" | "xz" | "unxz"
            | "zstd" | "brotli" | "rot13" | "caesar",
        ) => true,
        // dc printing numbers as the bytes they are (`dc -e '16i 726D…P'`).
        Some("dc") => {
            words.iter().any(|w| w.contains('P'))
                || p.heredoc.as_deref().is_some_and(|h| h.contains('P'))
        }
        // Decrypted text is decoded text: what it runs nobody here has read (`age -d
        // x.sh.age | sh`, `ccrypt -c x.cpt | bash`, `gpg --decrypt … | sh`).
        Some(name)
            if has("--decrypt")
                || has("decrypt")
                || (name.contains("crypt")
                    || matches!(name, "age" | "rage" | "gpg" | "gpg2" | "sops"))
                    && (has("-d") || has("-c")) =>
        {
            true
        }
        Some("printf") => p.argv.iter().any(|a| escaped(&a.raw)),
        // A language's one-liner that decodes (`python3 -c "…codecs.decode(s, 'rot13')…"`),
        // or its library's decoder run as a program (`python3 -m base64 -d`, `-m gzip -d`).
        Some(name) if STDIN_RUNNERS.contains(&name) => {
            p.argv
                .iter()
                .any(|a| DECODING_CALLS.iter().any(|d| a.raw.contains(d)))
                // Or it is given text spelled in an encoding, whatever it calls to turn it
                // back (`ruby -e 'print ARGV[0].unpack1("m0")' cm0g…`).
                || p.argv.iter().any(|a| crate::encoded::carries_encoded_text(&a.raw))
                || words
                    .windows(2)
                    .any(|w| w[0] == "-m" && DECODING_MODULES.contains(&w[1]))
                    && words
                        .iter()
                        .any(|w| matches!(*w, "-d" | "-D" | "--decode" | "--decompress"))
        }
        Some("echo") => has("-e") && p.argv.iter().any(|a| escaped(&a.raw)),
        _ => false,
    }
}

/// Python's modules that decode when run as programs with `-d` (`python3 -m base64 -d`).
const DECODING_MODULES: &[&str] = &["base64", "gzip", "bz2", "lzma", "uu", "quopri", "zlib"];

/// What a language's one-liner calls to turn hex, base64, base32 or a rotation back into text
/// (`perl -pe 's/(..)/chr hex $1/ge'`, `python3 -c '…fromhex…'`, `node -e '…atob(…)'`,
/// `codecs.decode(s, 'rot13')`).
const DECODING_CALLS: &[&str] = &[
    // Perl's uudecode, Python's and JavaScript's code points listed (`unpack("u", …)`,
    // `"".join(map(chr,[114,109,…]))`, `String.fromCharCode(114,109,…)`).
    "unpack(\"u",
    "unpack('u",
    "map(chr",
    "fromCharCode",
    "chr hex",
    "chr(hex",
    "pack(\"H",
    "pack('H",
    "pack \"H",
    "pack 'H",
    "unhexlify",
    "b64decode",
    "b32decode",
    "b85decode",
    "a85decode",
    "fromhex",
    "from_hex",
    "b16decode",
    "a2b_hex",
    "a2b_base64",
    // Percent-encoded text turned back (`urllib.parse.unquote("%72%6D…")`, JavaScript's
    // `decodeURIComponent`).
    "unquote(",
    "unquote_to_bytes",
    "decodeURIComponent",
    "decodeURI(",
    "decode_base64",
    "atob(",
    "'rot13'",
    "\"rot13\"",
    // A string turned round (`perl -e 'print scalar reverse shift'`, `s[::-1]`).
    "scalar reverse",
    "[::-1]",
    ".reverse()",
    ".reverse.join",
    ".chomp.reverse",
    ".strip.reverse",
    "'rot_13'",
    "\"rot_13\"",
    // Bits, hex and base64 turned into bytes by other languages (Perl's `pack("B*", …)`,
    // PHP's `hex2bin`, Node's `Buffer.from(…, "base64url")`, Lua's `string.char(…)`).
    "pack(\"B",
    "pack('B",
    "hex2bin(",
    "\"base64url\"",
    "'base64url'",
    "\"base64\").toString",
    "'base64').toString",
    "string.char(",
    "utf8.char(",
    // Python's bytes from their codes, its base32 variants, PHP's rotation.
    "bytes([",
    "b32hexdecode",
    "b32decode",
    "str_rot13(",
];

/// Whether raw shell text fetches (`$(curl …)`) or decodes (`$(… | base64 -d)`) what it runs.
fn hidden_code(raw: &str) -> Option<&'static str> {
    if !(raw.contains("$(") || raw.contains('`') || raw.contains("<(")) {
        return None;
    }
    let fetch = FETCHERS.iter().take(12).any(|f| {
        raw.match_indices(f).any(|(i, _)| {
            let before = raw[..i].chars().next_back();
            let after = raw[i + f.len()..].chars().next();
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
    });
    if fetch || substitution_reaches(raw) || substitution_fetches(raw) {
        return Some("remote");
    }
    let decode = [
        "base64 -d",
        "base64 --decode",
        "base64 -D",
        "base32 -d",
        "base32 --decode",
        "basenc -d",
        "basenc --decode",
        "xxd -r",
        "openssl enc -d",
        "-m base64 -d",
        "-m base64 --decode",
        "-m gzip -d",
        "-m gzip --decompress",
        "-m bz2 -d",
        "-m lzma -d",
        "-m uu -d",
    ]
    .iter()
    .any(|d| raw.contains(d))
        || escaped(raw)
        // Reversed text turned round (`"$(rev <<< 'jorp/krow/ fr- mr')"`, `… | rev`).
        || ["$(rev ", "| rev", "|rev"].iter().any(|r| {
            raw.match_indices(r)
                .any(|(i, _)| !raw[i + r.len()..].starts_with(|c: char| c.is_ascii_alphanumeric()))
        })
        || rotated(raw)
        || char_codes(raw)
        // jq's decoders (`jq -rn '"cm0g…" | @base64d'`).
        || raw.contains("@base64d")
        || raw.contains("@base32d")
        // dc printing numbers as the bytes they are (`$(dc -e '16i 726D…P')`).
        || raw.match_indices("$(dc ").any(|(i, _)| {
            let inner = &raw[i + 5..];
            inner[..inner.find(')').unwrap_or(inner.len())].contains('P')
        })
        // Or an interpreter's one-liner that turns hex or base64 back into text (`perl -pe
        // 's/(..)/chr hex $1/ge'`, `python3 -c '…fromhex…'`, `node -e '…atob(…)'`).
        || DECODING_CALLS.iter().any(|d| raw.contains(d));
    decode.then_some("decoded")
}

/// Characters listed by their codes and printed with `%c` (`awk 'BEGIN{printf "%c%c…", 114,
/// 109, …}'`) or packed (Ruby's `[114, …].pack("U*")`): text spelled in numbers, as
/// `String.fromCharCode(114, …)` spells it.
fn char_codes(raw: &str) -> bool {
    ["%c", ".pack(", "[char]", "implode("]
        .iter()
        .any(|m| raw.contains(m))
        && raw
            .split(',')
            .filter(|p| {
                let p = p.trim_matches(|c: char| {
                    c.is_ascii_whitespace() || matches!(c, '(' | ')' | '[' | ']' | '}' | '\'' | '"')
                });
                !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit())
            })
            .count()
            >= 4
}

/// Letters turned round by `tr` (`$(tr 'a-z' 'n-za-m' <<< '…')`, `| tr A-Za-z N-ZA-Mn-za-m`):
/// a rotation's second set starts a range at another letter than the alphabet's first. Case
/// changed (`tr a-z A-Z`) or characters deleted (`tr -d`) decode nothing.
fn rotated(raw: &str) -> bool {
    // sed's `y/SET/SET/` whose second set starts at another letter than the first (`sed
    // 'y/abc…/nop…/'`): a rotation spelled out.
    let sed_rotation = raw.match_indices("y/").any(|(i, _)| {
        let mut sets = raw[i + 2..].split('/');
        let (Some(from), Some(to)) = (sets.next(), sets.next()) else {
            return false;
        };
        from.len() >= 13
            && from.len() == to.len()
            && from.bytes().all(|b| b.is_ascii_alphabetic())
            && from.bytes().next() != to.bytes().next()
    });
    sed_rotation
        || ["$(tr ", "| tr ", "|tr "].iter().any(|t| {
            raw.match_indices(t).any(|(i, _)| {
                let mut sets = raw[i + t.len()..]
                    .split_whitespace()
                    .map(|w| w.trim_matches(['"', '\'', ')']));
                let (Some(from), Some(to)) = (sets.next(), sets.next()) else {
                    return false;
                };
                let ranges = |s: &str| {
                    s.as_bytes()
                        .windows(3)
                        .filter(|w| {
                            w[1] == b'-' && w[0].is_ascii_alphabetic() && w[2].is_ascii_alphabetic()
                        })
                        .map(|w| w[0])
                        .collect::<Vec<u8>>()
                };
                !from.starts_with('-')
                    && (!ranges(from).is_empty()
                        && ranges(to).iter().any(|c| !matches!(c, b'a' | b'A'))
                        || shuffled(from, to))
            })
        })
}

/// Whether `tr`'s second set is its first in another order (`tr '!-~' 'P-~!-O'`, rot47): a
/// cipher over those characters, whatever they are. Case changed (`a-z` to `A-Z`) maps a set
/// onto another one, and decodes nothing.
fn shuffled(from: &str, to: &str) -> bool {
    let (Some(mut a), Some(mut b)) = (tr_set(from), tr_set(to)) else {
        return false;
    };
    if a.len() < 10 || a == b {
        return false;
    }
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// The characters a `tr` set names, its ranges spelled out (`'!-~'`), or `None` for classes
/// and escapes it does not read (`[:alpha:]`, `\n`).
fn tr_set(set: &str) -> Option<Vec<u8>> {
    let b = set.as_bytes();
    if b.contains(&b'\\') || b.contains(&b'[') {
        return None;
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if i + 2 < b.len() && b[i + 1] == b'-' && b[i] <= b[i + 2] {
            out.extend(b[i]..=b[i + 2]);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Some(out)
}

/// Whether a command substitution in `raw` is told by its own words to fetch or download what
/// it prints (`<(tokheim-fcc fetch-script --stdout)`, `$(acme download-hook)`): whatever
/// program it is, what it prints came over the network.
fn substitution_fetches(raw: &str) -> bool {
    ["$(", "<("].iter().any(|open| {
        raw.match_indices(open).any(|(i, _)| {
            let inner = &raw[i + 2..];
            let inner = &inner[..inner.find(')').unwrap_or(inner.len())];
            let words: Vec<&str> = inner
                .split_whitespace()
                .skip(1)
                .filter(|w| !w.starts_with('-'))
                .collect();
            asks_for_kept_code(&words)
        })
    })
}

/// Whether a program's words (options left out) ask it for code kept elsewhere: a fetch, a
/// download or a pull, or a script, a plugin or an app got from a service (`macro pull
/// nightly`, `apps get --id x`, `remote get-script`): what it prints came from there.
fn asks_for_kept_code(words: &[&str]) -> bool {
    let has = |w: &str, set: &[&str]| w.split(['-', '_']).any(|p| set.contains(&p));
    let script = |w: &str| {
        has(
            w,
            &[
                "script",
                "scripts",
                "code",
                "payload",
                "snippet",
                "snippets",
                "plugin",
                "plugins",
                "macro",
                "macros",
                "app",
                "apps",
                "installer",
                "installers",
            ],
        )
    };
    let get = |w: &str| has(w, &["get", "pull"]);
    // Pulled is fetched from where it is kept (`$(acme macro pull nightly --raw)`).
    words.iter().any(|w| has(w, &["fetch", "download", "pull"]))
        // Or a script asked of a service by its own verb, in one word or two either way
        // round (`campaign get-script --raw`, `script get --name post-pass`): its text
        // is kept where the service is, not here.
        || words.iter().any(|w| get(w) && script(w))
        || words
            .windows(2)
            .any(|p| script(p[0]) && get(p[1]) || get(p[0]) && script(p[1]))
        // Or got from the remote side (`remote get-script --name cleanup`).
        || words
            .iter()
            .position(|w| has(w, &["remote"]))
            .is_some_and(|at| words[at + 1..].iter().any(|w| get(w)))
}

/// Whether a command substitution in `raw` names a URL of another host, of any scheme (`$(websocat
/// -n1 wss://relay.example.org/cmd)`): whatever program it runs, what it prints came over the
/// network.
fn substitution_reaches(raw: &str) -> bool {
    raw.match_indices("$(").any(|(i, _)| {
        let inner = &raw[i + 2..];
        let inner = &inner[..inner.find(')').unwrap_or(inner.len())];
        inner.split_whitespace().any(|w| {
            let w = w.trim_matches(['"', '\'']);
            w.split_once("://").is_some_and(|(scheme, _)| {
                !scheme.is_empty() && scheme.bytes().all(|b| b.is_ascii_lowercase() || b == b'+')
            }) && !w.starts_with("file://")
                && url_host(w).is_some_and(|h| !h.is_empty() && !loopback(&h))
        })
    })
}

/// The host a fetching command reads from (`curl -fsSL https://sh.rustup.rs` → `sh.rustup.rs`).
/// Whether a producer prints what it fetched from the network: a fetcher, a program nobody
/// models that reaches a URL, or either behind a wrapper (`xargs curl -fsSL`, `timeout 5 wget
/// -qO- …`).
pub(super) fn fetches(p: &Simple) -> bool {
    if p.name().is_some_and(|n| FETCHERS.contains(&n)) || reaches_network(p) {
        return true;
    }
    super::wrappers::unwrap(&p.argv).is_some_and(|start| {
        start > 0
            && fetches(&Simple {
                argv: p.argv[start..].to_vec(),
                ..Simple::default()
            })
    })
}

fn fetch_host(p: &Simple) -> Option<String> {
    p.argv
        .iter()
        .filter_map(|a| a.text.as_deref())
        .filter(|w| w.starts_with("https://") || w.starts_with("http://"))
        .find_map(url_host)
}

/// The host of a URL of any scheme, in lower case, without its user or port
/// (`git+https://git@host:22/x` → `host`).
pub(super) fn url_host(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit('@').next()?.split(':').next()?;
    Some(host.to_ascii_lowercase())
}

/// Whether `w` is an http(s) URL of another host than this one.
pub(super) fn web_url_elsewhere(w: &str) -> bool {
    (w.starts_with("https://") || w.starts_with("http://"))
        && url_host(w).is_some_and(|h| !loopback(&h))
}

/// Whether a host (or what follows a URL's `://`) is this machine: a service here is not the
/// network.
pub(super) fn loopback(host: &str) -> bool {
    ["localhost", "127.", "[::1]", "::1"]
        .iter()
        .any(|l| host.starts_with(l))
}

pub(super) fn trusted(ctx: &Context, host: Option<&str>) -> bool {
    host.is_some_and(|h| {
        ctx.trusted_installers.iter().any(|t| {
            let t = t.trim().to_ascii_lowercase();
            !t.is_empty() && (h == t || h.ends_with(&format!(".{t}")))
        })
    })
}

/// What a block for unknowable code says: why, and how a person allows an installer they trust.
pub(super) const REMOTE_REASON: &str = "code fetched from the network is run without anyone reading it (the usual path from a prompt injection to a compromised machine): it is never run. To allow an installer you trust, a person adds its host to `gate.trusted_installers` in ~/.config/trail/config.toml (e.g. trusted_installers = [\"sh.rustup.rs\"]); it then becomes a junction a person approves";

/// The largest script file the gate reads to see what it runs.
const SCRIPT_CAP: u64 = 256 * 1024;

/// A script file this command runs (`bash x.sh`, `source x.sh`, `./x.sh`, `python3 x.py`):
/// if it runs a person's act (`trail approve`…), the command is blocked as the act would be.
pub(super) fn script_file(name: &str, argv: &[Arg], ctx: &Context, raw: &str) -> Option<Decision> {
    const RUNNERS: &[&str] = &[
        "sh",
        "bash",
        "zsh",
        "dash",
        "ksh",
        "fish",
        "source",
        ".",
        "python",
        "python3",
        "node",
        "perl",
        "ruby",
        "php",
        "deno",
        "bun",
        "tclsh",
        "expect",
        "osascript",
        "awk",
    ];
    let first = argv.first()?.text.as_deref()?;
    let file = if first.contains('/') && !RUNNERS.contains(&name) {
        first.to_string()
    } else if RUNNERS.contains(&name) {
        argv[1..]
            .iter()
            .filter_map(|a| a.text.as_deref())
            .find(|w| !w.starts_with('-'))?
            .to_string()
    } else {
        return None;
    };
    let path = ctx.places.resolve(&file)?;
    let text = crate::fsutil::read_text_capped(&path, SCRIPT_CAP).ok()?;
    runs_person_act(&text).then(|| Decision {
        verdict: Verdict::Block,
        rule: Some(RuleId::SelfApproval.into()),
        reason: format!(
            "the script {file} runs trail's approve, dismiss or trust, which are a person's acts, never the agent's"
        ),
        command: Some(raw.to_string()),
        targets: vec![file.clone()],
    })
}

/// Whether a one-letter switch is among a shell's leading options, alone or in a cluster
/// (`-s`, `-xs`; not a long option, and not after `--`).
fn leading_switch(words: &[Arg], switch: char) -> bool {
    words
        .iter()
        .map_while(|a| {
            a.text
                .as_deref()
                .filter(|t| t.starts_with('-') && *t != "--")
        })
        .any(|t| !t.starts_with("--") && t[1..].contains(switch))
}

/// The code `name` (running `argv`) runs, when it runs any: a shell's, an interpreter's, or
/// the stdin of a user's shell a wrapper starts (`sudo -s <<< "…"`, `echo … | su`).
pub(super) fn code_run(
    name: &str,
    argv: &[Arg],
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    if runs_code(name) {
        shell_code(name, argv, cmd, producers, ctx, raw, out);
    } else if super::wrappers::shell_on_stdin(name, argv) {
        shell_code("sh", &argv[..1], cmd, producers, ctx, raw, out);
    }
}

/// Code a shell, `eval`, `source` or an interpreter (`name`, running `argv`) runs: from `-c`,
/// a here-document, a pipe, a process substitution or a file this line fetched.
pub(super) fn shell_code(
    name: &str,
    argv: &[Arg],
    cmd: &Simple,
    producers: &[&Simple],
    ctx: &Context,
    raw: &str,
    out: &mut Findings,
) {
    let shell = is_shell(name) || matches!(name, "eval" | "source" | ".");
    let words = argv.get(1..).unwrap_or_default();
    // Told to read its commands without running them (`bash -n script.sh`, `sh -n <<'EOF'`):
    // a syntax check, nothing runs.
    if is_shell(name) && leading_switch(words, 'n') {
        return;
    }
    hidden_in_words(words, ctx, raw, out);
    let runs_named = if shell {
        // `-s` (alone or in a cluster, `-xs`): the shell reads its commands from stdin, and
        // the words after are the script's arguments (`curl … | bash -s -- --flag x`).
        !leading_switch(words, 's')
            && words
                .iter()
                .find(|a| {
                    !a.text
                        .as_deref()
                        .is_some_and(|t| t.starts_with('-') || t.starts_with('+'))
                })
                // Its stdin named as the script (`. /dev/stdin <<< "$(curl …)"`) is what it is fed.
                .is_some_and(|a| !a.text.as_deref().is_some_and(names_stdin))
    } else {
        code::names_script(name, words)
    };
    if runs_named {
        // A job read from a file (`at -f job.sh now + 1 hour`) is scheduled as one fed is.
        if matches!(name, "at" | "batch") {
            out.push(code::scheduled(raw));
        }
        named(name, shell, words, raw, out);
        // A script this line wrote (`printf 'rm -rf ~' > build/c.sh && bash build/c.sh`): no
        // person read it between, so its text is the code run.
        if let Some(text) = planted_script(words, ctx) {
            code::judge_code(name, text, ctx, raw, out);
        }
        return;
    }
    if !producers.is_empty() {
        piped_in(name, producers, ctx, raw, out);
    }
    fed(name, cmd, ctx, raw, out);
}

/// A path that is the process's own standard input.
fn names_stdin(path: &str) -> bool {
    matches!(path, "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// The text this line wrote into the script a shell or an interpreter is told to run: its
/// first operand, when a redirection or `tee` earlier on the line wrote that file.
fn planted_script<'a>(words: &[Arg], ctx: &'a Context) -> Option<&'a str> {
    if ctx.line.planted.is_empty() {
        return None;
    }
    let first = words
        .iter()
        .find(|a| a.text.as_deref().is_none_or(|t| !t.starts_with('-')))?;
    let path = ctx.resolve(&ctx.arg_text(first))?;
    ctx.line
        .planted
        .iter()
        .rev()
        .find(|(f, _)| *f == path)
        .map(|(_, text)| text.as_str())
}

/// Whether a word, as written, is what a download printed (`"$(curl …)"`), as
/// [`hidden_in_words`] reads a shell's words.
pub(super) fn fetched_in_words(words: &[Arg]) -> bool {
    words.iter().any(|a| hidden_code(&a.raw) == Some("remote"))
}

/// Anything the words run that was fetched or decoded (`bash -c "$(curl …)"`, a file this line
/// downloaded): blocked, whatever else is true.
pub(super) fn hidden_in_words(words: &[Arg], ctx: &Context, raw: &str, out: &mut Findings) {
    for a in words {
        let seen = if a.text.is_none() && !ctx.line.vars.is_empty() {
            ctx.expand_line_vars(&a.raw)
        } else {
            a.raw.clone()
        };
        if let Some(kind) = hidden_code(&seen) {
            out.push(block(
                if kind == "remote" { RuleId::RemoteCode } else { RuleId::DecodedCode },
                if kind == "remote" {
                    REMOTE_REASON.into()
                } else {
                    "decoded or escaped text is run as code: what it does is hidden, and hiding is itself the signal; it is never run".into()
                },
                raw,
            ));
        }
        if let Some(p) = a.text.as_deref().and_then(|t| ctx.resolve(t))
            && ctx.fetched_holds(&p)
        {
            out.push(block(RuleId::RemoteCode, REMOTE_REASON.into(), raw));
        }
    }
}

/// Code piped into a program that runs its stdin: a download is blocked (a junction when a
/// person trusts the installer's host), decoded text is blocked, static text is judged,
/// anything else is a junction.
fn piped_in(name: &str, producers: &[&Simple], ctx: &Context, raw: &str, out: &mut Findings) {
    let fetched: Vec<&&Simple> = producers.iter().filter(|p| fetches(p)).collect();
    if !fetched.is_empty() {
        let all_trusted = fetched
            .iter()
            .all(|p| trusted(ctx, fetch_host(p).as_deref()));
        if all_trusted {
            out.push(junction(
                RuleId::PipeToShell,
                "a trusted installer's script is run: a person decides",
                raw,
            ));
        } else {
            out.push(block(RuleId::RemoteCode, REMOTE_REASON.into(), raw));
        }
    } else if producers.iter().any(|p| decodes(p)) {
        out.push(block(
            RuleId::DecodedCode,
            "decoded or scrambled text is piped into a shell: what it runs is hidden, and hiding is itself the signal; it is never run".into(),
            raw,
        ));
    } else if let Some(text) = feed::piped_text(producers) {
        code::judge_code(name, &text, ctx, raw, out);
    } else if let Some(lines) = feed::piped_lines(producers) {
        // Static text through filters the gate can apply (`printf … | sed 's/^/…/' | sh`).
        code::judge_code(name, &lines.join("\n"), ctx, raw, out);
    } else if scrambled_upstream(producers) {
        out.push(block(
            RuleId::DecodedCode,
            "text that reads as no command is turned into one on its way to a shell: what it runs is hidden, and hiding is itself the signal; it is never run".into(),
            raw,
        ));
    } else if let Some((from, why)) = producers.iter().find_map(|p| Some((p, from_outside(p)?))) {
        out.push(block(
            RuleId::PipeToShell,
            format!(
                "output of `{}` is run as code, and it comes from {why}: nobody has read it; it is never run",
                from.name().unwrap_or("a program")
            ),
            raw,
        ));
    } else {
        // Text printed upstream, passed through programs the gate cannot read (`printf … |
        // acme-bar | sh`): what reaches the shell is made of it, so what it would block
        // counts.
        for p in producers {
            if let Some(lines) = feed::printed(p) {
                for line in lines.iter().flat_map(|l| l.lines()) {
                    out.runs(line, Keep::Blocks);
                }
            }
        }
        let from: Vec<&str> = producers.iter().filter_map(|p| p.name()).collect();
        out.push(junction(
            RuleId::PipeToShell,
            &format!("output of `{}` is run as code", from.join(" | ")),
            raw,
        ));
    }
}

/// Static text printed upstream that reads as no command (its first word no program the gate
/// knows: `echo 'up -ui /ydu/…'`, `echo 'E<FT@+7)F…'`), turned by a program after it into
/// what a shell runs: a Caesar shift, uuencoding or any other code, undone on the way.
fn scrambled_upstream(producers: &[&Simple]) -> bool {
    let Some((first, rest)) = producers.split_first() else {
        return false;
    };
    // (Turned by a language's code; a template filled by `envsubst` or `m4` keeps its words.)
    if !rest
        .iter()
        .any(|p| p.name().is_some_and(|n| STDIN_RUNNERS.contains(&n)))
    {
        return false;
    }
    let Some(lines) = feed::printed(first) else {
        return false;
    };
    let words: Vec<&str> = lines
        .iter()
        .flat_map(|l| l.lines())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    !words.is_empty()
        && words.iter().all(|w| {
            let w = w.rsplit('/').next().unwrap_or(w);
            !crate::known::is_program(w)
                && !w.contains('=')
                && !matches!(
                    w,
                    "cd" | "export"
                        | "if"
                        | "for"
                        | "while"
                        | "set"
                        | "source"
                        | "."
                        | "exec"
                        | "{"
                        | "("
                        | "#"
                        | "#!/bin/sh"
                        | "#!/bin/bash"
                )
                && !w.starts_with('#')
                && !w.starts_with('$')
        })
}

/// Where the output of a program nobody models comes from, when that is outside this
/// machine's files and this line: another host (`acme-cat -b kafka-prod-1:9092`), a radio, a
/// camera or a serial line (`acme-modem --rx 1200`, `acme-scan /dev/video0`), a file from
/// the download directory it decodes (`acme-qr ~/Downloads/x.png`), or a language model
/// answering a prompt in prose (`acme-llm 'write a bash one-liner that …'`). Piped into a
/// shell, such text is code nobody has read.
fn from_outside(p: &Simple) -> Option<&'static str> {
    let name = p.name()?;
    if super::known::tier(name) != super::known::Tier::Unknown {
        return None;
    }
    if reaches_network(p) {
        return Some("another machine");
    }
    let words: Vec<&str> = p.args().iter().filter_map(|a| a.text.as_deref()).collect();
    let verbs: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !w.starts_with('-'))
        .collect();
    if asks_for_kept_code(&verbs) {
        return Some("where the program keeps or fetches it");
    }
    const CAPTURE: &[&str] = &[
        "/dev/video",
        "/dev/tty",
        "/dev/snd",
        "/dev/rfcomm",
        "/dev/hidraw",
        "/dev/input",
    ];
    const RECEIVES: &[&str] = &["rx", "receive", "recv", "listen", "subscribe", "consume"];
    if words.iter().any(|w| {
        CAPTURE.iter().any(|d| w.starts_with(d))
            || super::text::words(w.trim_start_matches('-'))
                .iter()
                .any(|part| RECEIVES.contains(&part.as_str()))
    }) {
        return Some("a device or a channel it receives on");
    }
    if p.args().iter().any(|a| a.raw.contains("Downloads")) {
        return Some("a downloaded file");
    }
    // Five words or more, nearly all of them words of a language: a prompt, not code.
    let prose = |t: &str| {
        let ws: Vec<&str> = t.split_whitespace().collect();
        ws.len() >= 5
            && ws
                .iter()
                .filter(|w| {
                    w.trim_end_matches([',', '.', '?', '!', ':'])
                        .bytes()
                        .all(|b| b.is_ascii_alphabetic() || b == b'\'')
                })
                .count()
                * 5
                >= ws.len() * 4
    };
    words
        .iter()
        .any(|w| prose(w))
        .then_some("a language model's answer to a prompt")
}

/// Code named on the command line: `eval CODE`, `bash -c CODE`. (A script a shell runs is
/// read by [`script_file`]; an interpreter's one-liner is judged by [`code`].)
fn named(name: &str, shell: bool, words: &[Arg], raw: &str, out: &mut Findings) {
    if name == "eval" {
        match words
            .iter()
            .map(|a| a.text.as_deref())
            .collect::<Option<Vec<_>>>()
        {
            Some(v) => out.runs(&v.join(" "), Keep::All),
            None => out.push(junction(
                RuleId::Unverifiable,
                "the code handed to eval is only known when it runs",
                raw,
            )),
        }
        return;
    }
    // The script is an address on the network (`deno run -A https://…/migrate.ts`, `ruby
    // https://…`): code fetched and run at once, as `curl … | sh` is. (Only the script's own
    // place; a URL after it is the script's argument.)
    let script = words
        .iter()
        .filter_map(|a| a.text.as_deref())
        .filter(|t| !t.starts_with('-'))
        .find(|t| !(matches!(name, "deno" | "bun") && matches!(*t, "run" | "x")));
    if script.is_some_and(|t| t.starts_with("https://") || t.starts_with("http://")) {
        out.push(block(RuleId::RemoteCode, REMOTE_REASON.into(), raw));
        return;
    }
    if !shell {
        return;
    }
    // The script is what a program nobody models prints (`bash <(acme render-script)`): its
    // output run as code, as `acme render-script | bash` is. (A fetch or a decode there is
    // blocked by `hidden_in_words`; a known program's print is judged where it runs.)
    if let Some(inner) = words
        .iter()
        .find(|a| !a.raw.starts_with('-'))
        .and_then(|a| a.raw.strip_prefix("<("))
        && let Some(program) = inner.split_whitespace().next()
        && super::known::tier(program) == super::known::Tier::Unknown
    {
        out.push(junction(
            RuleId::PipeToShell,
            &format!("output of `{program}` is run as code"),
            raw,
        ));
    }
    let c_flag = words.iter().position(|a| {
        a.text
            .as_deref()
            .is_some_and(|t| t.starts_with('-') && !t.starts_with("--") && t.contains('c'))
    });
    if let Some(i) = c_flag {
        match words.get(i + 1).and_then(|a| a.text.as_deref()) {
            Some(s) => out.runs(s, Keep::All),
            // What a static printer prints (`sh -c "$(printf 'acme clear --dir %s\n' /a /b)"`):
            // those lines.
            None if let Some(lines) = words
                .get(i + 1)
                .and_then(|a| feed::substitution_printed(&a.raw)) =>
            {
                out.runs(&lines.join("\n").replace("\\n", "\n"), Keep::All);
            }
            None => out.push(junction(
                RuleId::Unverifiable,
                "the code handed to the shell is only known when it runs",
                raw,
            )),
        }
    }
}

/// Code fed on stdin other than by a pipe: a here-document is judged; stdin only known when it
/// runs is a junction.
fn fed(name: &str, cmd: &Simple, ctx: &Context, raw: &str, out: &mut Findings) {
    match (&cmd.heredoc, cmd.dynamic_stdin) {
        (Some(h), _) => code::judge_code(name, h, ctx, raw, out),
        (None, true) => out.push(junction(
            RuleId::Unverifiable,
            "the code fed to this program is only known when it runs",
            raw,
        )),
        (None, false) => {}
    }
}
