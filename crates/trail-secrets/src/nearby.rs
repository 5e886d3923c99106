//! Secrets found by where they stand, in any syntax, without a regex:
//!
//! - **`credential-nearby`**: a value that reads as generated right after a word that names a
//!   credential, whatever separates them (`auth_pass gZYiyHVz`, `MqttPassword …;`, `PSK "…"`,
//!   `<AdministratorPassword><Value>…`, `set ::env(SMTP_PASSWORD) {…}`), with at most one
//!   word between (`sentinel auth-pass mymaster …`, `rootpw --plaintext …`).
//! - **`flag-argument`**: a value handed to a one-letter command-line flag (`ipmitool -P …`,
//!   `ldapsearch -w …`, `xfreerdp /p:…`, `smbclient -U user%…`) that could only be generated.
//! - **`table-column`**: a cell of a column whose header names a password (a password
//!   manager's CSV export, a Markdown table of accounts).
//! - **`printed-secret`**: the one-word line a command that names a credential printed after a
//!   shell prompt (`$ pass show …`, `% security find-generic-password … -w`), and each
//!   generated word of a credential file printed whole (`$ cat ~/.p4tickets`).
//! - **`user-slash-password`**: a login handed over as `user / value` in chat or prose.
//! - **`generated-token`**: a word standing alone that could only be generated: letters of
//!   both cases and digits, long, and random (a key pasted into a chat, a positional argument
//!   of a login nobody named), or three base64url parts whose first encodes a decimal id (a
//!   bot's token).
//! - **`typed-login`**, **`scripted-login`**, **`labelled-login`**: a login where it is put,
//!   with no credential word beside the password: typed by a window-driving script (a name
//!   then Tab, a value then Enter), written in an ftp client's script (`open HOST`, then
//!   `user NAME VALUE`), or handed over as two labelled lines in any language (a user's name,
//!   then a value with every kind of character).
//! - **`byte-array-key`**: a key written as an array or a list of bytes under a key's name (a
//!   C initialiser, a YAML or JSON list).
//! - **`worded-credential`**: a password handed over in words of any language: a word for it,
//!   then its label's value (`Mật khẩu: …`) or, a few words on, a value no language spells
//!   (`hasło do panelu … to …`).
//! - **`timed-url-token`**: a query value that begins with a moment in Unix time and goes on
//!   with a random part (`?sign=1765425409-rcsum878vx-0-6ffed7cc…`): the expiring token of a
//!   signed URL, whatever its parameter is called.
//! - **`unmasked-value`** ([`crate::unmasked`]): the value a failing test prints opposite the
//!   mask it expected (`Expected: "<masked>"`, `Received: "…"`; `{'k': '…'} == {'k':
//!   '<redacted>'}`), whatever its name.
//!
//! The bars rise with what is known: a name beside the value lets a short password through;
//! a flag needs a longer, fully mixed value; a word alone needs more still. Hex, UUIDs, paths,
//! URLs, versions, identifiers and words are never taken: digests and ids are hex or lower
//! case, generated credentials are not.
//!
//! Hand-written and one pass: these run on every text the ledger keeps, and a regex able to
//! say "any separator, at most one word between" would spend its compile time inside the
//! hook's budget.

use crate::plausible::{self, Written};
use crate::text;

/// The scanners' rule names and an example each must redact (the table test walks them).
pub(crate) static SCANNERS: &[(&str, &str)] = &[
    (
        "credential-nearby",
        "vrrp_instance VI_1 {\n    authentication {\n        auth_type PASS\n        auth_pass gZYiyHVz\n    }\n}",
    ),
    (
        "flag-argument",
        "ipmitool -I lanplus -H 10.20.0.15 -U ADMIN -P yVKzE~uHChpH_e9EdU^5 chassis power status",
    ),
    (
        "user-password",
        "# /etc/postfix/sasl_passwd\n[smtp.mailhub.example]:587 relay-acme:i7_D7.e663lKsJuuoe",
    ),
    (
        "table-column",
        "name,url,username,password,note\nshop-admin,https://shop.example/login,dev@shop.example,wee^WPQsLFoIH6Tu,",
    ),
    (
        "printed-secret",
        "$ pass show acme/vpn\nM7~WuVsf55K5Lrfa1d\nuser: dev",
    ),
    (
        "generated-token",
        "[10:14] priya: the old one expired, try this one: kKMd6Q1sSsilOYpsSbsrFi2gkRH1tfvCupv5kaYa",
    ),
    (
        "user-slash-password",
        "10:32 - Marco: no, changed it yesterday: admin / l71xLA~-W^f.",
    ),
    (
        "url-user-token",
        "Base URL: https://Kq7vR2mZ-9xWp4tLs@cgm-lena.example.net/api/v1/",
    ),
    (
        "login-handed-over",
        "[9:02] Ana: which login do I use for the portal?\n[9:03] Raj: ops@acme-dental.example\n[9:03] Raj: Tq4.mZr8Kw2x",
    ),
    (
        "typed-login",
        "SendInput \"lumen-glassworks{Tab}\"\nSendInput \"89TwFj.htQ0r7F{Enter}\"",
    ),
    (
        "labelled-login",
        "Kullanıcı adı: kus-sayimi-izmir\nŞifre: Qs%9yw:MGkVV\nLütfen değiştirmeyin.",
    ),
    (
        "scripted-login",
        "open ftp.reclaimhub.example\nuser northyard cTXKm_F8jfc6\nbinary\nput inventory.csv",
    ),
    (
        "byte-array-key",
        "static const uint8_t UPLINK_HMAC_KEY[16] = {\n    0x9f, 0xcd, 0x6f, 0x56, 0xfb, 0xc1, 0x07, 0x3e,\n    0x5a, 0x22, 0x91, 0xd4, 0x38, 0xe7, 0x0b, 0x6c\n};",
    ),
    (
        "worded-credential",
        "[19:42] Tomek: hasło do panelu na makiecie klubowej to b!sEkFnw3_8y, nie wrzucaj go",
    ),
    (
        "timed-url-token",
        // (Under `?sign=` the url-signature rule takes it first.)
        "https://dl.example.org/a.exe?lang=en&verify=1765229490-oXJ_agu-AIPuZz_Fdl4kCMFpIyKPv9L_-52r_w-HoF4",
    ),
    (
        "url-fragment-key",
        "Logs pasted here: https://privatebin.net/?2a25992de5eed2f6#9Tub94HsmvrpE2pAC75vmpjQjFPrTWDR2ySHAj1KHvBw",
    ),
    (
        "recovery-code",
        "Your recovery codes:\n3f9c2-8d1ab\n77e0d-c4a19\n0b6e5-a2f83\n9d41c-5e7b0\nKeep them somewhere safe.",
    ),
    (
        "joined-literal-key",
        "const currencyApiKey =\n  'cur_live_MZyKoDC4Td9PrdXJwM' +\n  'hOTt4uJFkChYeJZwZQEIsH';",
    ),
    (
        "basic-credentials",
        "127.0.0.1:6379> HSET upstream:acme url https://api.acme.example auth \"Basic YWNtZS1zeW5jOlRyNHFMOXdadjJLbTdQeFI=\" ttl 900",
    ),
    (
        "header-value",
        "    private val upstreamHeaders = mapOf(\"X-Acme-Token\" to \"acme-2127:21e249090666c6cedc2201f4e7c78c8e\", \"Accept\" to \"application/json\")",
    ),
    (
        "key-pair-half",
        "[fieldclimate]\npublic_key = cb66a25c663a0a3bf242dc48f784996fb92a3a456ef12eb6\ncrumb = e339b4fb6694a6a1d77806b8d49b2dd01fedbf4b",
    ),
    (
        "unmasked-value",
        "  ● client › sends the configured credential\n\n    Expected: \"<masked>\"\n    Received: \"IlO8jwbhzh5hPYdVXaDwCWYeT43lYo85fzc8ClvD2CfWbU0Y\"",
    ),
    (
        "logged-private-key",
        "#8 0.210 -----BEGIN OPENSSH PRIVATE KEY-----\n#8 0.211 b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n#8 0.212 OQAAACDo/9/77tt6HN8NzJV0FhQ1Gfm9CX3mjCVK9iSpLa\n#8 0.216 -----END OPENSSH PRIVATE KEY-----",
    ),
];

const NEARBY: usize = 0;
const FLAG: usize = 1;
const PAIR: usize = 2;
const TABLE: usize = 3;
const PRINTED: usize = 4;
const ALONE: usize = 5;
const SLASHED: usize = 6;
const TOKEN_USER: usize = 7;
const HANDED_OVER: usize = 8;
const TYPED: usize = 9;
const LABELLED: usize = 10;
const SCRIPTED: usize = 11;
const BYTES: usize = 12;
const WORDED: usize = 13;
const TIMED: usize = 14;
const FRAGMENT: usize = 15;
const RECOVERY: usize = 16;
const JOINED: usize = 17;
const BASIC: usize = 18;
const HEADER: usize = 19;
const HALF: usize = 20;
const UNMASKED: usize = 21;
const LOGGED_KEY: usize = 22;

/// Whether a scanner finds the digests that sign expiring links.
pub(crate) fn signs_a_link(scanner: usize) -> bool {
    scanner == TIMED
}

/// Every span the scanners accept in `text`, with the index of the scanner in [`SCANNERS`].
///
/// `named` says whether a word that names a credential may be in the text (generic-assignment's
/// keywords were found): the scanner that reads prose in any language runs only then.
pub(crate) fn find(text: &str, named: bool, out: &mut Vec<(usize, usize, usize)>) {
    let first = out.len();
    find_all(text, named, out);
    // A resource's typed id standing alone (`Account SID: AC1ac0…`) is public.
    if out[first..].iter().any(|&(_, _, k)| k == ALONE) {
        let mut found = out.split_off(first);
        found.retain(|&(s, e, k)| {
            k != ALONE || !text.get(s..e).is_some_and(plausible::typed_resource_id)
        });
        out.extend(found);
    }

    // Nothing inside a `data:` URI's base64 is a credential, whatever a run of it spells.
    // (Most texts hold none: then nothing is looked at again.)
    if text.contains(";base64,") {
        let mut found = out.split_off(first);
        found.retain(|&(start, _, _)| !crate::in_data_uri(text, start));
        out.extend(found);
    }
}

fn find_all(text: &str, named: bool, out: &mut Vec<(usize, usize, usize)>) {
    // A key's members whole, before a name's reading takes a piece of one.
    for span in xml_rsa_private(text) {
        push_new(out, span, NEARBY);
    }
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !is_name_byte(b[i]) || (i > 0 && is_name_byte(b[i - 1])) {
            i += 1;
            continue;
        }
        let end = i + b[i..].iter().take_while(|&&c| is_name_byte(c)).count();
        let word = &text[i..end];
        // A file's name at the end of a path (`"exec:/usr/local/sbin/ldap-bind-pass"`) names
        // no value on the next line (a Windows flag, ` /pass …`, and a file given its value
        // on the same line, `deploy/.htpasswd admin …`, still do); nor does a plist's `<key>`
        // element, whose content is the next value's name (`named-value-pair` reads those).
        let in_path = i > 1 && b[i - 1] == b'/' && !b[i - 2].is_ascii_whitespace();
        // Every word of every text comes here: the look ahead only after a path's slash.
        let line_ends = || {
            text[end..]
                .bytes()
                .take_while(|c| matches!(c, b' ' | b'\t' | b'"' | b'\'' | b'\r' | b'\n'))
                .any(|c| c == b'\n')
        };
        let tag = i > 0 && b[i - 1] == b'<' || i > 1 && b[i - 1] == b'/' && b[i - 2] == b'<';
        let names_nothing = in_path && line_ends()
            || tag && word == "key"
            || contains_any_case(word, b"passw") && file_of_password_program(text, i);
        let found = flag_value(text, i, end).map(|s| (s, FLAG)).or_else(|| {
            (!names_nothing)
                .then(|| named_value(text, word, end).map(|s| (s, NEARBY)))
                .flatten()
        });
        if let Some(((s, e), kind)) = found {
            push_new(out, (s, e), kind);
        }
        i = end.max(i + 1);
    }
    whole_text(text, named, out);
}

/// Whether the word at `i` is an argument of a program named for passwords (`htpasswd -b
/// FILE USER …`, `mosquitto_passwd FILE USER`): its password file, whose next word is the
/// user's name. The password, when the line gives it, is the batch rule's.
fn file_of_password_program(text: &str, i: usize) -> bool {
    let start = text[..i].rfind(['\n', ';', '|', '&']).map_or(0, |s| s + 1);
    let mut at = start;
    for w in text[start..i].split_inclusive([' ', '\t']) {
        let word = w.trim_end();
        at += w.len();
        if word.is_empty() || word == "$" || word == "sudo" || word.starts_with('-') {
            continue;
        }
        let program = word.rsplit('/').next().unwrap_or(word);
        return at <= i && contains_any_case(program, b"passwd");
    }
    false
}

/// The scanners that read the whole text rather than the words of names.
fn whole_text(text: &str, named: bool, out: &mut Vec<(usize, usize, usize)>) {
    for (spans, scanner) in [
        (table_cells(text), TABLE),
        (sql_values(text), TABLE),
        (printed(text), PRINTED),
        (headed_files(text), PRINTED),
        (inline_vpn_logins(text), LABELLED),
        (slashed(text), SLASHED),
        (handed_over(text), HANDED_OVER),
        (scripted_logins(text), SCRIPTED),
        (labelled_logins(text), LABELLED),
    ] {
        for span in spans {
            push_new(out, span, scanner);
        }
    }
    for span in typed_logins(text)
        .into_iter()
        .chain(filled_fields(text))
        .chain(shaped_call_arguments(text))
        .chain(call_credentials(text))
    {
        push_new(out, span, TYPED);
    }
    for span in byte_array_keys(text) {
        push_new(out, span, BYTES);
    }
    if named {
        for span in worded_credentials(text) {
            push_new(out, span, WORDED);
        }
    }
    for (spans, scanner) in [
        (unpaid(text, generated_in_prose(text)), ALONE),
        (id_secret_pairs(text), ALONE),
        (uuid_called_a_key(text), ALONE),
        (value_a_message_hands_over(text), ALONE),
        (timed_url_tokens(text), TIMED),
        (crate::fragment::keys(text), FRAGMENT),
        (crate::recovery::codes(text), RECOVERY),
        (crate::joined::keys(text), JOINED),
        (crate::unmasked::values(text), UNMASKED),
        (crate::halves::secret_halves(text), HALF),
        (crate::logged_key::bodies(text), LOGGED_KEY),
        (basic_credentials(text), BASIC),
        (crate::headers::values(text), HEADER),
        (crate::headers::numbered_values(text), HEADER),
        (crate::headers::keys_as_users(text), BASIC),
        (config_logins(text), BASIC),
        (crate::positional::values(text), TABLE),
    ] {
        for span in spans {
            push_new(out, span, scanner);
        }
    }
    for span in pairs(text) {
        if !inside_armour(text, span.0) {
            push_new(out, span, PAIR);
        }
    }
    for span in listed(text) {
        push_new(out, span, NEARBY);
    }
    for span in capability_urls(text)
        .into_iter()
        .chain(url_token_users(text))
        .chain(signed_urls(text))
        .chain(substituted_secrets(text))
        .chain(kubernetes_secret_values(text))
        .chain(cipher_keys(text))
        .chain(written_settings(text))
    {
        push_new(out, span, NEARBY);
    }
    for span in token_users(text) {
        push_new(out, span, TOKEN_USER);
    }
    for span in format_arguments(text) {
        push_new(out, span, NEARBY);
    }
    for span in generated_users(text) {
        push_new(out, span, FLAG);
    }
    for span in users_map(text) {
        push_new(out, span, PAIR);
    }
    for span in name_then_value(text)
        .into_iter()
        .chain(piped_password(text))
        .chain(echoed_into_credential_file(text))
        .chain(substituted_key_files(text))
        .chain(login_pair(text))
        .chain(url_user_value(text))
    {
        push_new(out, span, FLAG);
    }
    for span in id_tokens(text) {
        push_new(out, span, ALONE);
    }
    standalone(text, out);
}

/// The spans that are no Bitcoin address: one is published to be paid (`Donations: 1A1z…`).
fn unpaid(text: &str, spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    spans
        .into_iter()
        .filter(|&(s, e)| !plausible::bitcoin_address(&text[s..e]))
        .collect()
}

/// Generated words standing alone, neither assigned nor labelled as ids.
fn standalone(text: &str, out: &mut Vec<(usize, usize, usize)>) {
    let words = standalone_words(text);
    // Three words or more alone of one id's length (20 to 27) and letters and digits only
    // (`event SAWP3GKv… accepted` on each line): a list of records' ids, as nanoid, ULID and
    // KSUID make them; a key is pasted alone, not as a column.
    // (Nanoid's alphabet has `_` and `-` too: `3RT-D6eXIoYQi7NptxvUz`.)
    let id_like = |(s, e): (usize, usize)| {
        (20..=27).contains(&(e - s))
            && text.as_bytes()[s..e]
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
    };
    // (Counted once, by length, and only when a word alone reads as generated.)
    let by_length = std::cell::OnceCell::new();
    let listed_id = |(start, end): (usize, usize)| {
        id_like((start, end))
            && by_length.get_or_init(|| {
                let mut n = [0usize; 8];
                for &(s, e) in words.iter().filter(|&&w| id_like(w)) {
                    n[e - s - 20] += 1;
                }
                n
            })[end - start - 20]
                >= 3
    };
    // The cheap test on the word first: the other two look back through the text.
    for (start, end) in words.iter().copied() {
        if generated_alone(&text[start..end])
            && !listed_id((start, end))
            && !plausible::bitcoin_address(&text[start..end])
            && !assigned(text, start)
            && !labelled_an_id(text, start)
            && !named_a_record(text, start)
            && !headed_an_id(text, start)
            && !inside_armour(text, start)
            && !plausible::base64_block_public(text, start)
            && !after_key_type(text, start)
        {
            push_new(out, (start, end), ALONE);
        }
    }
}

/// A value labelled an identifier just before it on its line (`Registry Domain ID: 2d6f…-LROR`,
/// `Request-Id: …`, `traceId=…`): ids say they are ids, credentials do not.
fn labelled_an_id(text: &str, start: usize) -> bool {
    let line = &text[text[..start].rfind('\n').map_or(0, |i| i + 1)..start];
    // (A quoted value's opening quote too: `{ id: "rW9A…", name: "Ash" }`.)
    let label = line.trim_end().trim_end_matches(['"', '\'']).trim_end();
    let Some(label) = label.strip_suffix([':', '=']) else {
        return false;
    };
    let last = label
        .trim_end()
        .rsplit(|c: char| c.is_whitespace() || matches!(c, '-' | '_' | '.' | '"' | '\''))
        .next()
        .unwrap_or("");
    last.eq_ignore_ascii_case("id")
        || last.len() > 2
            && last.ends_with("Id")
            && last[..last.len() - 2]
                .bytes()
                .all(|b| b.is_ascii_alphabetic())
}

/// A value a sentence names a record by, the noun just before it (`order vWn1PfP3… shipped;
/// parcel XAYv2Fx…`): a record's id, which prose gives its kind, as it does not a key.
fn named_a_record(text: &str, start: usize) -> bool {
    const RECORDS: &[&str] = &[
        "order",
        "parcel",
        "package",
        "shipment",
        "consignment",
        "invoice",
        "booking",
        "reservation",
        "delivery",
        "tracking",
        "claim",
        "case",
        "item",
        "record",
        "batch",
    ];
    let Some(before) = text[..start].strip_suffix(' ') else {
        return false;
    };
    let noun = before
        .rsplit(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    RECORDS.contains(&noun.as_str())
}

/// A value in a table's column whose heading names an id (`SID`, `ID`, `Key ID`, `orderId`):
/// the heading is the nearest line above, in the same block, with a word starting in the same
/// column (`twilio phone-numbers:list` prints `SID` over `PNb04a…`).
fn headed_an_id(text: &str, start: usize) -> bool {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    if headed_by_field(text, line_start, start) {
        return true;
    }
    let column = start - line_start;
    let mut end = line_start;
    for _ in 0..50 {
        if end == 0 {
            return false;
        }
        let above_start = text[..end - 1].rfind('\n').map_or(0, |i| i + 1);
        let above = &text[above_start..end - 1];
        end = above_start;
        if above.trim().is_empty() {
            return false;
        }
        let b = above.as_bytes();
        if column >= b.len() || column > 0 && !b[column - 1].is_ascii_whitespace() {
            continue;
        }
        let word = above[column..]
            .split(char::is_whitespace)
            .next()
            .unwrap_or_default();
        if word.eq_ignore_ascii_case("id")
            || word.eq_ignore_ascii_case("sid")
            || word.eq_ignore_ascii_case("uuid")
            || word.len() > 2
                && (word.ends_with("Id") || word.ends_with("_id") || word.ends_with("ID"))
                && word[..word.len() - 2]
                    .bytes()
                    .all(|c| c.is_ascii_alphabetic() || c == b'_')
        {
            return true;
        }
    }
    false
}

/// Whether an id's word heads the value's field, counted by blanks, in the table's heading:
/// the first line of the block, all of its fields words (`health status index uuid pri …`
/// over `green open logs-2026.12.03 sqpPXeG_gOUq… 1 1`), when columns are not aligned.
fn headed_by_field(text: &str, line_start: usize, start: usize) -> bool {
    let field = text[line_start..start].split_whitespace().count();
    let block_start = text[..line_start]
        .trim_end_matches('\n')
        .rfind("\n\n")
        .map_or(0, |i| i + 2);
    if block_start >= line_start {
        return false;
    }
    // A command's prompt line before the table is not its heading (`$ curl …/_cat/indices`),
    // nor a line the tool says first (`Listing consumers in vhost /sync ...`): the heading is
    // the first line of words only.
    let wordy = |l: &&str| {
        let words: Vec<&str> = l.split_whitespace().collect();
        words.len() >= 3
            && words.iter().all(|w| {
                w.bytes()
                    .all(|c| c.is_ascii_alphabetic() || matches!(c, b'.' | b'_' | b'-'))
            })
    };
    let Some(heading) = text[block_start..line_start]
        .lines()
        .filter(|l| !l.trim_start().starts_with(['$', '#', '>']) && !l.trim().is_empty())
        .take(2)
        .find(wordy)
    else {
        return false;
    };
    // (Or a name or a tag a server gave it: `queue_name`, `consumer_tag`.)
    heading.split_whitespace().nth(field).is_some_and(|w| {
        w.eq_ignore_ascii_case("id")
            || w.eq_ignore_ascii_case("uuid")
            || w.eq_ignore_ascii_case("sid")
            || w.len() > 3
                && [".id", "_id", "_name", "_tag"]
                    .iter()
                    .any(|s| w.to_ascii_lowercase().ends_with(s))
    })
}

/// The user of `-u user:password` when it is itself generated (`curl -u "akTb640gHo9M…:5OUb…"`,
/// an API's key id and secret as HTTP Basic's pair): the pair is one credential, and the
/// password's rule takes only what follows the colon.
fn generated_users(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    // One pass for both spellings: `--user` holds `-u` one byte in.
    for u in crate::shape::find_all(b, b"-u") {
        let long = u > 0 && b[u - 1] == b'-' && b[u + 2..].starts_with(b"ser");
        let (at, len) = if long {
            (u - 1, "--user".len())
        } else {
            (u, 2)
        };
        let before_ok = at == 0 || matches!(b[at - 1], b' ' | b'\t' | b'\n');
        let Some(rest) = text[at + len..].strip_prefix([' ', '=']) else {
            continue;
        };
        let quoted = rest.starts_with(['"', '\'']);
        let body = if quoted { &rest[1..] } else { rest };
        let Some(colon) = body.find(':') else {
            continue;
        };
        let user = &body[..colon];
        if !before_ok || user.contains(|c: char| c.is_whitespace() || c == '"' || c == '\'') {
            continue;
        }
        if strongly_generated(user, 20) {
            let start = text.len() - body.len();
            out.push((start, start + colon));
        }
    }
    out
}

/// A credential put into a format string by position (`string.format("…&api_key=%s", sym,
/// "00dc…")`, `fmt.Sprintf("key=%s", "…")`, `String.format("token: %s", "…")`): the argument
/// filling a placeholder that follows a credential's name, when it is a literal that reads as
/// generated.
fn format_arguments(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // The cheap test first: most texts hold no placeholder after a name (`=%`, `: %`, `= %`,
    // `={}`).
    let b = text.as_bytes();
    let after_name = crate::shape::find_all(b, b"%").any(|i| {
        i > 0 && b[i - 1] == b'=' || i > 1 && b[i - 1] == b' ' && matches!(b[i - 2], b':' | b'=')
    });
    if !after_name && crate::shape::find_all(b, b"={}").next().is_none() {
        return out;
    }
    let mut i = 0;
    while i + 1 < b.len() {
        let q = b[i];
        if !matches!(q, b'"' | b'\'') {
            i += 1;
            continue;
        }
        // The literal: to its closing quote on the same line.
        let Some(len) = text[i + 1..].find([q as char, '\n']) else {
            break;
        };
        let close = i + 1 + len;
        if b.get(close) != Some(&q) {
            i = close + 1;
            continue;
        }
        if let Some(span) = filled_credential(text, &text[i + 1..close], close + 1) {
            out.push(span);
        }
        i = close + 1;
    }
    out
}

/// In the format `fmt`, the placeholder after a credential's name, and the argument after
/// `rest_at` that fills it, when that is a generated literal.
fn filled_credential(text: &str, fmt: &str, rest_at: usize) -> Option<(usize, usize)> {
    // The placeholders in order, and which of them follows a credential's name.
    let fb = fmt.as_bytes();
    let (mut n, mut wanted, mut name) = (0, None, String::new());
    let mut j = 0;
    while j < fb.len() {
        let placeholder = match fb[j] {
            b'%' if fb.get(j + 1) == Some(&b'%') => {
                j += 2;
                continue;
            }
            b'%' if fb.get(j + 1).is_some_and(|c| b"svqdx".contains(c)) => 2,
            b'{' if fb.get(j + 1) == Some(&b'}') => 2,
            _ => 0,
        };
        if placeholder == 0 {
            j += 1;
            continue;
        }
        let before = fmt[..j].trim_end_matches([' ', '=', ':']);
        let word = before
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-')))
            .next()
            .unwrap_or("");
        if wanted.is_none() && names_a_token(word) {
            wanted = Some(n);
            name = word.to_string();
        }
        n += 1;
        j += placeholder;
    }
    let k = wanted?;
    // The arguments after the format: comma-separated, to the call's closing parenthesis.
    let rest = &text[rest_at..];
    let mut args: Vec<(usize, usize)> = Vec::new();
    let (mut depth, mut start, mut quote) = (0i32, None::<usize>, None::<u8>);
    for (off, c) in rest.bytes().enumerate().take(600) {
        if let Some(qc) = quote {
            if c == qc {
                quote = None;
            }
            continue;
        }
        match c {
            b'"' | b'\'' => quote = Some(c),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => {
                if let Some(s) = start {
                    args.push((s, off));
                }
                break;
            }
            b')' | b']' | b'}' => depth -= 1,
            b',' if depth == 0 => {
                if let Some(s) = start {
                    args.push((s, off));
                }
                start = Some(off + 1);
                continue;
            }
            _ => {}
        }
        if start.is_none() && !c.is_ascii_whitespace() {
            // Text before the first comma belongs to the format's own expression.
            return None;
        }
    }
    let (s, e) = *args.get(k)?;
    let arg = rest[s..e].trim();
    let value = arg
        .strip_prefix(['"', '\''])
        .and_then(|v| v.strip_suffix(['"', '\'']))?;
    let at = rest_at + s + rest[s..e].find(value)?;
    generated_beside(&name, value, false, true).then_some((at, at + value.len()))
}

/// `span` for `scanner`, unless an earlier scanner took part of it.
fn push_new(out: &mut Vec<(usize, usize, usize)>, (start, end): (usize, usize), scanner: usize) {
    if !out.iter().any(|&(s, e, _)| s < end && start < e) {
        out.push((start, end, scanner));
    }
}

fn is_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')
}

/// Word parts that name a credential (`auth_pass`, `MqttPassword`, `keyMaterial`, `psk`).
const NAMES: &[&str] = &[
    "apikey",
    "cookie",
    // `cred` as a word of its own (`X-Relay-Cred`, a CSV's `cred` column).
    "cred",
    "credential",
    "credentials",
    "creds",
    "key",
    "macaroon",
    "pass",
    "passcode",
    "passphrase",
    "passwd",
    "password",
    "psk",
    "pwd",
    "secret",
    "token",
];

/// Whether `word` names a credential: one of its parts does, or it ends in one (`rootpw`,
/// `adminpass`), and it does not describe one (`key_id`, `password_hash`, `token_url`).
fn names_credential(word: &str) -> bool {
    // Most words name nothing: a look at their bytes before splitting them into parts.
    if !mentions_credential(word) {
        return false;
    }
    let parts = text::words(word);
    let named = parts.iter().any(|p| {
        NAMES.contains(&p.as_str())
            // Joined to what it guards (`masterauth`, `setcookie`, `rootpw`).
            || ["password", "passwd", "pass", "pwd", "pw", "auth", "cookie"]
                .iter()
                .any(|n| p.len() > n.len() && p.ends_with(n) && p.len() <= 12)
            || joined_token(p)
            // An extended private key's name (`xprv`, `tprv`, `LTC_XPRV`), as BIP 32 writes
            // the private half; the public one is `xpub`.
            || p.len() == 4 && p.ends_with("prv")
    });
    // A session's id is the login itself to whoever holds it (`SF_SESSION_ID`, `sessionId`),
    // where another thing's id names it only.
    let session = session_name(&parts);
    named && !plausible::name_rules_out(word) || session
}

/// A session's id, or a header that carries the session itself (`X-Metabase-Session`,
/// `X-ArchivesSpace-Session`): the login to whoever holds it, where another thing's id names
/// it only.
fn session_name(parts: &[String]) -> bool {
    parts
        .windows(2)
        .any(|w| w[0] == "session" && matches!(w[1].as_str(), "id" | "sid"))
        || session_header(parts)
}

/// `X-…-Session`: a header that carries the session itself.
fn session_header(parts: &[String]) -> bool {
    parts.len() >= 2 && parts[0] == "x" && parts.last().is_some_and(|p| p == "session")
}

/// A token or a secret joined to what it opens (`bugsnagtoken`, `githubtoken`,
/// `clientsecret`): a short word, so that a sentence run together is not read as one.
fn joined_token(part: &str) -> bool {
    ["token", "secret"]
        .iter()
        .any(|n| part.len() > n.len() + 2 && part.ends_with(n) && part.len() <= 16)
}

/// Whether a credential's name is written anywhere in `word`, joined or not (`preauthkeys`,
/// `find-generic-password`).
fn mentions_credential(word: &str) -> bool {
    [
        b"pass" as &[u8],
        b"pw",
        b"auth",
        b"cookie",
        b"secret",
        b"token",
        b"key",
        b"cred",
        b"psk",
        b"macaroon",
        b"session",
        b"prv",
    ]
    .into_iter()
    .any(|n| contains_any_case(word, n))
}

/// Whether `needle` (ASCII) occurs in `hay`, in any case.
pub(crate) fn contains_any_case(hay: &str, needle: &[u8]) -> bool {
    hay.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle))
}

/// The line of `text` that holds byte `at`.
pub(crate) fn line_around(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    &text[start..end]
}

/// Whether a line tells a secret store to keep a value under a name whose last word says it
/// is a hash, an id, a version or an address (`-Name STATUS_BUILD_SHA`, `secret put
/// INSTANCE_UUID`), and no word of it names a credential.
pub(crate) fn stored_under_a_public_name(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let stores = words.iter().any(|w| {
        let l = w.to_ascii_lowercase();
        l.contains("secret")
            || text::words(&l)
                .iter()
                .any(|p| matches!(p.as_str(), "put" | "set" | "store"))
    });
    if !stores {
        return false;
    }
    let name = words.windows(2).find_map(|w| {
        let flag = w[0].to_ascii_lowercase();
        (matches!(flag.as_str(), "-name" | "--name" | "put" | "set" | "add"))
            .then(|| w[1].trim_matches(['"', '\'']))
    });
    name.is_some_and(|n| {
        let ws = text::words(n);
        ws.len() > 1
            && ws.last().is_some_and(|l| {
                // A digest's algorithm with its size (`…_SHA256`, `…_MD5`, `…_BLAKE3`).
                matches!(
                    l.trim_end_matches(|c: char| c.is_ascii_digit()),
                    "sha"
                        | "md"
                        | "blake"
                        | "crc"
                        | "checksum"
                        | "fingerprint"
                        | "hash"
                        | "digest"
                        | "uuid"
                        | "id"
                        | "url"
                        | "uri"
                        | "host"
                        | "version"
                        | "commit"
                        | "endpoint"
                )
            })
            && !ws
                .iter()
                .any(|w| NAMES.contains(&w.as_str()) || w == "token" || w == "secret")
    })
}

/// An RSA key written as .NET writes it (`RSA.ToXmlString(true)`: `<RSAKeyValue><Modulus>…
/// <D>…</D></RSAKeyValue>`): with a private member among them (`P`, `Q`, `DP`, `DQ`,
/// `InverseQ`, `D`), the whole key between its tags, as a PEM block's body is taken whole; a
/// public key alone (`Modulus` and `Exponent`) stays.
fn xml_rsa_private(text: &str) -> Vec<(usize, usize)> {
    const OPEN: &str = "<RSAKeyValue>";
    let mut out = Vec::new();
    if !text.contains(OPEN) {
        return out;
    }
    for (start, _) in text.match_indices(OPEN) {
        let from = start + OPEN.len();
        let end = text[from..]
            .find("</RSAKeyValue>")
            .map_or(text.len(), |e| from + e);
        let block = &text[from..end];
        let private = ["P", "Q", "DP", "DQ", "InverseQ", "D"].iter().any(|tag| {
            let open = format!("<{tag}>");
            block.find(&open).is_some_and(|at| {
                let body = &block[at + open.len()..];
                let len = body.find('<').unwrap_or(body.len());
                len >= 16
                    && body[..len]
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
            })
        });
        if private {
            out.push((from, end));
        }
    }
    out
}

/// A login for a package source given to a configuration setter as `USER:PASSWORD` after the
/// source's host (`bundle config set --global gems.example.com user:…`, Bundler's form for
/// every private gem server): the part after the colon, when it is generated.
fn host_logins(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains("config") {
        return out;
    }
    for (start, line) in lines_at(text) {
        // Every line of a text that says `config` anywhere: split only the ones that do.
        if !line.contains("config") {
            continue;
        }
        let words = words_at(line);
        if !words.iter().any(|(_, w)| *w == "config") {
            continue;
        }
        for pair in words.windows(2) {
            let (_, host) = pair[0];
            let (at, login) = pair[1];
            let host_like = host.contains('.')
                && !host.contains(['/', ':', '='])
                && host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'))
                && host.bytes().any(|b| b.is_ascii_alphabetic());
            let Some((user, secret)) = login.split_once(':') else {
                continue;
            };
            let user_like = !user.is_empty()
                && user.len() <= 32
                && user
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'@'));
            if host_like && user_like && drawn(secret) {
                let s = start + at + user.len() + 1;
                out.push((s, s + secret.len()));
            }
        }
    }
    out
}

/// Keys and logins a tool's settings or its setters hold in their own forms: a JWK's private
/// members line by line, a login after a host or after an address, a `…basic` setting's two
/// words, pam_env's `DEFAULT=`, a signify or minisign secret key.
fn written_settings(text: &str) -> Vec<(usize, usize)> {
    let mut out = jwk_members_by_line(text);
    out.extend(jwk_members_by_name(text));
    out.extend(short_certificates(text));
    out.extend(host_logins(text));
    out.extend(keys_after_an_address(text));
    out.extend(set_credential_values(text));
    out.extend(credentials_by_address(text));
    out.extend(basic_auth_pairs(text));
    out.extend(pam_env_values(text));
    out.extend(signify_secret_keys(text));
    out.extend(encoded_key_files(text));
    out.extend(self_described_secrets(text));
    out.extend(wif_keys(text));
    out.extend(keypair_byte_lists(text));
    out.extend(tink_key_values(text, false));
    out.extend(sexp_private_keys(text));
    out.extend(keystore_ciphertexts(text));
    out.extend(algorithm_keys(text));
    out.extend(passphrase_arguments(text));
    out.extend(creds_flags(text));
    out
}

/// The password of a login handed to an option named for credentials, as `USER:PASSWORD`
/// (`skopeo copy --dest-creds ops:…`, `--src-creds`, `--creds`).
fn creds_flags(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (at, m) in text.match_indices("creds") {
        let after = at + m.len();
        let flag_start = text[..at]
            .rfind(|c: char| c.is_whitespace())
            .map_or(0, |i| past_char(text, i));
        if !text[flag_start..at].starts_with("--") {
            continue;
        }
        let Some(rest) = text[after..]
            .strip_prefix('=')
            .or_else(|| text[after..].strip_prefix(' '))
        else {
            continue;
        };
        let value = &rest[..rest.find(char::is_whitespace).unwrap_or(rest.len())];
        let value_at = text.len() - rest.len();
        let bare = value.trim_matches(['"', '\'']);
        let quote = value.len() - value.trim_start_matches(['"', '\'']).len();
        if let Some((user, pass)) = bare.split_once(':')
            && !user.is_empty()
            && pass.len() >= 8
            && printed_word(pass)
        {
            let s = value_at + quote + user.len() + 1;
            out.push((s, s + pass.len()));
        }
    }
    out
}

/// The byte just past the character that starts at `i` (a no-break space is two bytes).
fn past_char(s: &str, i: usize) -> usize {
    i + s[i..].chars().next().map_or(1, char::len_utf8)
}

/// The passphrase given last to a program named for making one into a key (`wpa_passphrase
/// SSID '…'`, as `… | tee -a wpa_supplicant.conf` keeps it): a drawn value only.
fn passphrase_arguments(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("passphrase ") {
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let program = text[line_start..at + "passphrase".len()]
            .rsplit(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        // The program's name, not a word in prose (`the passphrase is …`).
        let own_name = program.len() > "passphrase".len()
            && program
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'));
        if !own_name {
            continue;
        }
        let args_start = at + "passphrase ".len();
        // (Up to a redirection: `< /run/secrets/psk` feeds the passphrase on stdin.)
        let line_end = text[args_start..]
            .find(['\n', '|', ';', '&', '>', '<'])
            .map_or(text.len(), |i| args_start + i);
        let args = &text[args_start..line_end];
        // What the key is for comes first (`wpa_passphrase SSID [PASSPHRASE]`): one word
        // alone is that name, the passphrase read from stdin.
        let operands: Vec<&str> = args
            .split_whitespace()
            .filter(|w| !w.starts_with('-'))
            .collect();
        let [_, .., last] = operands[..] else {
            continue;
        };
        let value = last.trim_matches(['"', '\'']);
        if value.len() >= 12 && printed_word(value) {
            let offset = args_start + (last.as_ptr() as usize - args.as_ptr() as usize);
            let s = offset + (last.len() - last.trim_start_matches(['"', '\'']).len());
            out.push((s, s + value.len()));
        }
    }
    out
}

/// A signing key written as its algorithm, its id and its body on one line (Matrix's
/// `ed25519 a_PrlV ITxCRX…` in a `signing.key` file or under a `signing_key` setting): the
/// body, where the line names a signing, private or secret key and not a verifying or public
/// one.
fn algorithm_keys(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for algorithm in ["ed25519 ", "ed448 "] {
        for (at, _) in text.match_indices(algorithm) {
            // The algorithm as a word of its own: `ssh-ed25519 255 …` is a host key's
            // fingerprint.
            if text[..at]
                .bytes()
                .next_back()
                .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':'))
            {
                continue;
            }
            let rest = &text[at + algorithm.len()..];
            let word = |s: &str| {
                s.find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ',' | ';'))
                    .unwrap_or(s.len())
            };
            let id_len = word(rest);
            let id = &rest[..id_len];
            let id_like = (1..=16).contains(&id.len())
                && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            let (body_at, body) = match rest[id_len..].strip_prefix(' ') {
                Some(after) if id_like => {
                    let at_body = at + algorithm.len() + id_len + 1;
                    (at_body, &after[..word(after)])
                }
                _ => (at + algorithm.len(), id),
            };
            let line = line_around(text, at).to_ascii_lowercase();
            let secret_line = ["signing", "private", "secret"]
                .iter()
                .any(|n| line.contains(n))
                && !["verify", "public"].iter().any(|n| line.contains(n));
            let key_like = body.len() >= 40
                && body.bytes().all(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_' | b'-')
                });
            if secret_line && key_like && drawn(body) {
                out.push((body_at, body_at + body.len()));
            }
        }
    }
    out
}

/// The byte after a JSON key's closing quote, its colon and the value's opening quote, from
/// `at` up to `limit`, however the quotes are escaped (a string's `\"`, a CSV cell's `""`, a
/// page's `&quot;`).
fn past_json_separators(text: &str, mut at: usize, limit: usize) -> usize {
    let b = text.as_bytes();
    while at < limit {
        if text[at..].starts_with("&quot;") {
            at += "&quot;".len();
        } else if matches!(b[at], b'"' | b'\\' | b':' | b' ' | b'\'') {
            at += 1;
        } else {
            break;
        }
    }
    at.min(limit)
}

/// A private key written as an S-expression (gpg-agent's key files, libgcrypt's `(private-key
/// (ecc (curve Ed25519)(q #…#)(d #…#)))`): the secret members' values, `d` always, an RSA key's
/// primes and coefficient too (`p`, `q`, `u`; an elliptic curve's `q` is its public point).
fn sexp_private_keys(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("(private-key") {
        let end = text.floor_char_boundary((at + 8192).min(text.len()));
        let block = &text[at..end];
        let rsa = block.contains("(rsa");
        for member in ["(d ", "(p ", "(q ", "(u "] {
            if member != "(d " && !rsa {
                continue;
            }
            let Some(m) = block.find(member) else {
                continue;
            };
            let rest = &block[m + member.len()..];
            let Some(body) = rest.strip_prefix('#') else {
                continue;
            };
            let len = body.bytes().take_while(u8::is_ascii_hexdigit).count();
            if len >= 32 && body.as_bytes().get(len) == Some(&b'#') {
                let s = at + m + member.len() + 1;
                out.push((s, s + len));
            }
        }
    }
    out
}

/// An encrypted keystore's key (Ethereum's `{"crypto": {"cipher": …, "ciphertext": …, "kdf":
/// …}}`), however its JSON is escaped (a string's `\"`, a CSV cell's `""`, a page's `&quot;`):
/// the ciphertext is the private key, as open to a guessed password as its keystore's kdf is
/// weak.
fn keystore_ciphertexts(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains("ciphertext") || !text.contains("kdf") {
        return out;
    }
    let b = text.as_bytes();
    for (at, _) in text.match_indices("ciphertext") {
        let s = past_json_separators(text, at + "ciphertext".len(), text.len());
        let len = b[s..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
        if len >= 32 {
            out.push((s, s + len));
        }
    }
    out
}

/// A Tink keyset's key material (`"keyData": {"typeUrl": "…AesGcmKey", "value": "GiC…",
/// "keyMaterialType": "SYMMETRIC"}`), in JSON however its quotes are escaped (a string's `\"`,
/// a CSV cell's `""`): the value of a key whose material the keyset calls symmetric or
/// private. With `public`, the values it calls public (`ASYMMETRIC_PUBLIC`) or remote.
pub(crate) fn tink_key_values(text: &str, public: bool) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains("keyMaterialType") {
        return out;
    }
    for (at, _) in text.match_indices("keyMaterialType") {
        let kind = &text[at..text.len().min(at + 60)];
        let is_public = kind.contains("PUBLIC") || kind.contains("REMOTE");
        if is_public != public {
            continue;
        }
        let from = text.floor_char_boundary(at.saturating_sub(400));
        let Some(v) = text[from..at].rfind("value") else {
            continue;
        };
        let b = text.as_bytes();
        let s = past_json_separators(text, from + v + "value".len(), at);
        let len = b[s..at]
            .iter()
            .take_while(|c| {
                c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b'-' | b'_')
            })
            .count();
        if len >= 16 {
            out.push((s, s + len));
        }
    }
    out
}

/// Private keys in Wallet Import Format, wherever they stand (`wif = "L1Eu…"`, what
/// `dumpprivkey` prints, a log's `import failed for key L1Pe…`): a word of 51 or 52 Base58
/// characters whose checksum holds ([`plausible::wif_private_key`]).
fn wif_keys(text: &str) -> Vec<(usize, usize)> {
    runs(text, |c| c.is_ascii_alphanumeric())
        .filter(|&(s, e)| {
            (51..=52).contains(&(e - s))
                && matches!(text.as_bytes()[s], b'5' | b'K' | b'L' | b'9' | b'c')
                && plausible::wif_private_key(&text[s..e])
        })
        .collect()
}

/// The maximal runs of bytes `part` accepts, as spans.
fn runs(text: &str, part: impl Fn(u8) -> bool) -> impl Iterator<Item = (usize, usize)> {
    let b = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && !part(b[i]) {
            i += 1;
        }
        let start = i;
        while i < b.len() && part(b[i]) {
            i += 1;
        }
        (i > start).then_some((start, i))
    })
}

/// A key's raw bytes written as a list of 64 numbers from 0 to 255 (`[223,43,158,…]`, the
/// keypair file Solana's tools write and read, a secret half then a public half), drawn at
/// random (40 values or more of the 64 differ). Not one a line names as a signature, a hash or
/// a public key.
fn keypair_byte_lists(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains(',') {
        return out;
    }
    for (open, _) in text.match_indices('[') {
        let rest = &text[open + 1..];
        // A list of numbers opens with one, and 64 of them, however laid out, close within
        // 1,024 bytes: no other bracket costs a search to its end.
        if !rest.trim_start().starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let Some(close) = rest.as_bytes().iter().take(1024).position(|&c| c == b']') else {
            continue;
        };
        let body = &rest[..close];
        let values: Vec<Option<u8>> = body.split(',').map(|n| n.trim().parse().ok()).collect();
        if values.len() != 64 || values.iter().any(Option::is_none) {
            continue;
        }
        let mut seen = [false; 256];
        values
            .iter()
            .flatten()
            .for_each(|&v| seen[usize::from(v)] = true);
        let line = line_around(text, open).to_ascii_lowercase();
        let named_public = ["signature", "sig ", "hash", "digest", "public", "pubkey"]
            .iter()
            .any(|w| line.contains(w));
        if seen.iter().filter(|&&x| x).count() >= 40 && !named_public {
            out.push((open + 1, open + 1 + close));
        }
    }
    out
}

/// A key file carried in base64, under any name (`PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0…`,
/// Tor's `== ed25519v1-secret: type0 ==` and the key after it; `LS0tLS1CRUdJTiBPUEVOU1NI…`, a
/// PEM private key): the text its bytes start with says it holds a secret or a private key.
/// A public key's or a certificate's says so too, and stays.
/// Or a structured text carried in hex or base64 whose fields name a credential (a Filecoin
/// wallet export, `7b2254797065223a…`, is `{"Type":"secp256k1","PrivateKey":"…"}`; a service
/// account's JSON in base64): what the encoding hides, its fields say.
fn encoded_key_files(text: &str) -> Vec<(usize, usize)> {
    runs(text, |c| {
        c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=')
    })
    .filter_map(|(s, e)| {
        if e - s >= 64 && holds_a_secret_key(&text[s..s + 64]) {
            return Some((s, e));
        }
        // (A value after its key's `=`, which base64's alphabet takes in: `…export=7b22…`.)
        let s = text[s..e]
            .trim_end_matches('=')
            .rfind('=')
            .map_or(s, |i| s + i + 1);
        (e - s >= 64 && encodes_credential_fields(&text[s..e])).then_some((s, e))
    })
    .collect()
}

/// A token whose own prefix says it is a secret or a private key, a short tag, the word, then a
/// generated body (PASERK's `k3.secret.2ObV…`, `acme_private_Xq…`), wherever it stands: the
/// format names itself, as a PEM block's armour does.
fn self_described_secrets(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for word in ["secret", "private"] {
        for (at, _) in text.match_indices(word) {
            let b = text.as_bytes();
            let sep = |i: usize| b.get(i).is_some_and(|c| matches!(c, b'.' | b'_' | b'-'));
            if at == 0 || !sep(at - 1) || !sep(at + word.len()) {
                continue;
            }
            // The tag before it: one to eight letters and digits, after a boundary.
            let tag = text[..at - 1]
                .bytes()
                .rev()
                .take_while(u8::is_ascii_alphanumeric)
                .count();
            let start = at - 1 - tag;
            if !(1..=8).contains(&tag)
                || start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_')
            {
                continue;
            }
            let from = at + word.len() + 1;
            let body = text[from..]
                .bytes()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
                .count();
            let v = &text[from..from + body];
            if body >= 20 && (strongly_generated(v, 20) || uniform_random(v)) {
                out.push((start, from + body));
            }
        }
    }
    out
}

/// Whether `v`, hex or base64 of at most 8 KB, decodes to printable text with a field that
/// names a credential and holds a value of eight characters or more (`"PrivateKey":"…"`,
/// `password=…`).
fn encodes_credential_fields(v: &str) -> bool {
    if v.len() > 8192 {
        return false;
    }
    let bytes = if v.len().is_multiple_of(2) && is_hex(v) {
        (0..v.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&v[i..i + 2], 16).ok())
            .collect::<Option<Vec<u8>>>()
    } else {
        plausible::base64_decode(v)
    };
    let Some(Ok(decoded)) = bytes.map(String::from_utf8) else {
        return false;
    };
    if !decoded
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) || matches!(b, b'\n' | b'\r' | b'\t'))
    {
        return false;
    }
    fn token(t: &str) -> &str {
        t.trim_matches(|c: char| c.is_whitespace() || c == '"' || c == '\'')
    }
    decoded.match_indices([':', '=']).any(|(at, _)| {
        let key = token(
            decoded[..at]
                .rsplit([',', '{', '\n', ';', '&'])
                .next()
                .unwrap_or_default(),
        );
        let value = token(
            decoded[at + 1..]
                .split([',', '}', '\n', ';', '&'])
                .next()
                .unwrap_or_default(),
        );
        let words = text::words(key);
        let private = words.windows(2).any(|w| w[0] == "private" && w[1] == "key");
        key.len() <= 40
            && value.len() >= 8
            && !value.contains(char::is_whitespace)
            && (private || names_credential(key) && (passwordish(key) || names_a_token_word(key)))
    })
}

/// Whether 64 characters of base64 decode to a key file's opening text that names a private
/// or secret key: `private key`, `secret key`, or `secret` before binary bytes (a tagged
/// binary key file, not prose that says the word).
/// Whether `value`, base64, opens with a key file's text that names a private or secret key.
pub(crate) fn encodes_a_secret_key(value: &str) -> bool {
    value.len() >= 64 && value.is_char_boundary(64) && holds_a_secret_key(&value[..64])
}

fn holds_a_secret_key(head: &str) -> bool {
    let Some(bytes) = plausible::base64_decode(head) else {
        return false;
    };
    // Or a Windows CryptoAPI key blob that holds the private key: `PRIVATEKEYBLOB` (7),
    // version 2, then its algorithm and the private key's magic (`RSA2`, `DSS2`; a public
    // blob is `RSA1`).
    if bytes.len() >= 12 && bytes[..4] == [7, 2, 0, 0] && matches!(&bytes[8..12], b"RSA2" | b"DSS2")
    {
        return true;
    }
    // Or the `.pvk` file that wraps one, by its magic (`0xB0B5F11E`, `HvG1sA…`): a PVK file
    // holds a private key and nothing else.
    if bytes.len() >= 4 && bytes[..4] == [0x1e, 0xf1, 0xb5, 0xb0] {
        return true;
    }
    let text_len = bytes
        .iter()
        .take_while(|c| c.is_ascii_graphic() || **c == b' ' || **c == b'\n')
        .count();
    if text_len < 12 {
        return false;
    }
    let tag = String::from_utf8_lossy(&bytes[..text_len]).to_ascii_lowercase();
    !tag.contains("public")
        && (tag.contains("private key")
            || tag.contains("secret key")
            || tag.contains("secret") && text_len < bytes.len())
}

/// A value of 16 characters or more that only a generator writes: random letters and digits,
/// in dash-separated groups or not (`5SDO1G-SJ49SH-…`, `855f4f3e…`), or strongly generated.
fn drawn(v: &str) -> bool {
    // A prefix that names the issuer before the draw (`tkmax_n6emf5nri9…`) says nothing
    // against it: the body is judged.
    // (In one or two parts: `swpx_live_ecx0…`.)
    if let Some((prefix, body)) = v.rsplit_once('_')
        && prefix.split('_').count() <= 2
        && prefix
            .split('_')
            .all(|p| (2..=10).contains(&p.len()) && p.bytes().all(|c| c.is_ascii_alphanumeric()))
    {
        return drawn(body);
    }
    // A token in two to four dotted parts, one of them drawn (`atlco.9336….def2…`, `pcnv_51d2….
    // 35cc…`): a service's prefix and id around its secret.
    if v.contains('.') {
        let parts = v.split('.').count();
        return (2..=4).contains(&parts)
            && v.split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric()))
            && v.split('.').any(drawn);
    }
    // Where the value stands already says it is a credential: hex of 16 digits or more, drawn
    // (not a run), counts as one (`855f4f3ecd8029473bcfd56d`).
    let hex = v.bytes().all(|b| b.is_ascii_hexdigit()) && {
        let mut seen = [false; 128];
        v.bytes().for_each(|b| seen[usize::from(b)] = true);
        seen.iter().filter(|&&x| x).count() >= 8
    };
    v.len() >= 16
        && (uniform_random(&v.replace('-', ""))
            && !v.starts_with('-')
            && !v.ends_with('-')
            && !v.contains("--")
            || hex
            || strongly_generated(v, 16))
}

/// A setter told a key that names a credential and its value as two words (`pnpm config set
/// //registry.example.com/:_authToken 855f…`, `acme config set api.token …`): the key's last
/// part (after `:`, `/` or `.`) says what the value is.
/// So does a configuration made with its settings as pairs of words (`rclone config create
/// NAME webdav url=… user=… pass 097c…`).
fn set_credential_values(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains(" set ") && !text.contains(" config ") {
        return out;
    }
    for (start, line) in lines_at(text) {
        if !line.contains(" set ") && !line.contains(" config ") {
            continue;
        }
        let words = words_at(line);
        let made = words
            .windows(2)
            .any(|p| p[0].1 == "config" && matches!(p[1].1, "create" | "update" | "add" | "set"));
        for k in 0..words.len().saturating_sub(2) {
            // Or given by an option after the key (`glab variable set NAME --value '…'`).
            let by_option = (words[k].1 == "set")
                .then(|| {
                    words[k + 2..].iter().enumerate().find_map(|(j, &(at, w))| {
                        if let Some(v) = w.strip_prefix("--value=") {
                            Some((at + "--value=".len(), v))
                        } else {
                            (w == "--value")
                                .then(|| words.get(k + 3 + j).copied())
                                .flatten()
                        }
                    })
                })
                .flatten();
            let (key, (at, value)) = (words[k + 1].1, by_option.unwrap_or(words[k + 2]));
            let last = key.rsplit([':', '/', '.']).next().unwrap_or(key);
            let value = value.trim_matches(['"', '\'']);
            let quote = usize::from(
                words[k + 2].1.starts_with(['"', '\'']) && by_option.is_none()
                    || by_option.is_some_and(|(_, v)| v.starts_with(['"', '\''])),
            );
            if (words[k].1 == "set" || made && k >= 2)
                && !key.starts_with('-')
                && !key.contains('=')
                && plausible::names_a_credential(last)
                && !plausible::name_rules_out(last)
                && !plausible::is_placeholder(value)
                && !value.starts_with(['$', '<', '{', '-'])
                && (drawn(value)
                    || by_option.is_some()
                        && plausible::plausible_assignment(last, value, Written::Quoted))
            {
                let s = start + at + quote;
                out.push((s, s + value.len()));
            }
        }
    }
    out
}

/// A credentials file keyed by the address each credential is for (`~/.gem/credentials`'
/// `https://gems.example.com/: 5SDO…`, a JSON map of registries to tokens), in a text that
/// names such a file: the value of a line whose key is a URL.
fn credentials_by_address(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !contains_any_case(text, b"credentials") || !text.contains("://") {
        return out;
    }
    for (start, line) in lines_at(text) {
        let body = line.trim_start().trim_start_matches(['"', '\'', ':']);
        if !(body.starts_with("https://") || body.starts_with("http://")) {
            continue;
        }
        // The key ends at the `:` after the address's own (`https://…/gems: VALUE`).
        let Some(colon) = body[8..].find(": ").or_else(|| body[8..].find("\":")) else {
            continue;
        };
        let rest = &body[8 + colon + 1..];
        let rest = rest.trim_start_matches(['"', ':', ' ']);
        let value = rest.trim_end().trim_end_matches([',', '"', '\'']);
        if value.contains(char::is_whitespace) || plausible::is_placeholder(value) || !drawn(value)
        {
            continue;
        }
        let at = line.len() - rest.len();
        out.push((start + at, start + at + value.len()));
    }
    out
}

/// A variable's value in pam_env's form (`API_KEY  DEFAULT="…"`, `… OVERRIDE=…`): the name,
/// then which of its values, then the value, judged as `API_KEY="…"` is.
fn pam_env_values(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains("DEFAULT=") && !text.contains("OVERRIDE=") {
        return out;
    }
    for (start, line) in lines_at(text) {
        if !line.contains("DEFAULT=") && !line.contains("OVERRIDE=") {
            continue;
        }
        let words = words_at(line);
        let [(_, name), (at, setting), ..] = words.as_slice() else {
            continue;
        };
        let Some(raw) = setting
            .strip_prefix("DEFAULT=")
            .or_else(|| setting.strip_prefix("OVERRIDE="))
        else {
            continue;
        };
        let value = raw.trim_matches('"');
        let lead = setting.len() - raw.len() + usize::from(raw.starts_with('"'));
        if names_credential(name)
            && !value.is_empty()
            && !value.contains(['$', '@'])
            && plausible::plausible_assignment(name, value, Written::Quoted)
        {
            let s = start + at + lead;
            out.push((s, s + value.len()));
        }
    }
    out
}

/// A login given to a setting named for it as two words, the user then the password
/// (`poetry config http-basic.REPO USER PASSWORD`, `… credentials.REPO USER PASSWORD`): the
/// last word, when it is generated and ends the line.
fn basic_auth_pairs(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains("basic") && !text.contains("credentials") {
        return out;
    }
    for (start, line) in lines_at(text) {
        if !line.contains("basic") && !line.contains("credentials") {
            continue;
        }
        let words = words_at(line);
        let Some(k) = words.iter().position(|(_, w)| {
            w.split(['.', '-', '_'])
                .any(|p| matches!(p, "basic" | "credentials"))
                && !w.contains(['=', '/', ':'])
        }) else {
            continue;
        };
        if words.len() != k + 3 {
            continue;
        }
        let (at, secret) = words[k + 2];
        let plain = secret
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'+' | b'/' | b'.'));
        if plain && drawn(secret) {
            out.push((start + at, start + at + secret.len()));
        }
    }
    out
}

/// A signify or minisign secret key by its own bytes: base64 that opens with the key's
/// algorithm and its key-derivation tag (`RWRCSw…`: `EdBK`, signify's; `RWRTY0Iy…`: `EdSc B2`,
/// minisign's), wherever it is written; their public keys open otherwise (`RWQ…`, `RWS…`).
fn signify_secret_keys(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // (And minisign's with no password, its key derivation `\0\0`: `RWQAAEIy`.)
    for prefix in ["RWRCSw", "RWRTY0Iy", "RWQAAEIy"] {
        for (at, _) in text.match_indices(prefix) {
            // (Or after an escaped line end, in a JSON string: `…\nRWQAAEIy…`.)
            let before_ok = at == 0
                || !text.as_bytes()[at - 1].is_ascii_alphanumeric()
                    && text.as_bytes()[at - 1] != b'+'
                || text[..at].ends_with("\\n");
            let len = text[at..]
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
                .count();
            if before_ok && len >= 80 {
                out.push((at, at + len));
            }
        }
    }
    out
}

/// An alias or a remote registered with an address, then an access key and its secret
/// (`mc alias set NAME https://host ACCESS SECRET`, `… remote add NAME URL ID SECRET`): the
/// last word, when it is generated and the line's command sets, adds or logs in.
fn keys_after_an_address(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains("://") {
        return out;
    }
    for (start, line) in lines_at(text) {
        // A text with an address has many lines without one: split only the ones with it.
        if !line.contains("://") {
            continue;
        }
        let words = words_at(line);
        let Some(u) = words
            .iter()
            .position(|(_, w)| w.starts_with("https://") || w.starts_with("http://"))
        else {
            continue;
        };
        let acts = words[..u].iter().any(|(_, w)| {
            matches!(
                *w,
                "set" | "add" | "login" | "register" | "alias" | "config"
            )
        });
        // The pair ends the command, or its flags follow (`… ACCESS SECRET --api S3v4`).
        let ends = |i: usize| {
            words
                .get(i)
                .is_none_or(|(_, w)| w.starts_with('-') || matches!(*w, "&&" | "|" | ";"))
        };
        // Or one word of both, a setting keyed by the address (`bundle config set --global
        // https://gems.example.com/ USER:SECRET`).
        if acts
            && ends(u + 2)
            && let Some(&(at, pair)) = words.get(u + 1)
            && let Some((user, secret)) = pair.split_once(':')
            && !user.is_empty()
            && user.len() <= 40
            && !secret.contains([':', '/', '@'])
            && drawn(secret)
        {
            let s = start + at + user.len() + 1;
            out.push((s, s + secret.len()));
            continue;
        }
        if !acts || words.len() < u + 3 || !ends(u + 3) {
            continue;
        }
        let (_, access) = words[u + 1];
        let (at, secret) = words[u + 2];
        // (A base64 value keeps its padding: `…VFiY8=`.)
        let plain = |w: &str| {
            w.trim_end_matches('=')
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'/' | b'+'))
        };
        if plain(access) && plain(secret) && secret.len() >= 20 && drawn(secret) {
            out.push((start + at, start + at + secret.len()));
        }
    }
    out
}

/// A JSON Web Key written one member per line, as YAML or TOML hold it (`kty: "EC"`, then
/// `d: "2zIz…"`): its private members (`d`, RSA's `p`, `q`, `dp`, `dq`, `qi`, a symmetric
/// key's `k`), as the JSON rule takes them. Members are read until the key's block ends (a
/// line indented less than its `kty`).
fn jwk_members_by_line(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text comes here: nearly all name no key type.
    if !text.contains("kty") {
        return out;
    }
    // A line's indentation, its key, and where its value starts.
    fn key_of(line: &str) -> Option<(usize, &str, usize)> {
        let indent = line.len() - line.trim_start().len();
        let body = line.trim_start().trim_start_matches("- ");
        let at = body.find([':', '='])?;
        let key = body[..at].trim().trim_matches(['"', '\'']);
        Some((indent, key, line.len() - body.len() + at + 1))
    }
    let mut kty_indent: Option<usize> = None;
    for (start, line) in lines_at(text) {
        let Some((indent, key, after)) = key_of(line) else {
            continue;
        };
        if key == "kty" {
            kty_indent = Some(indent);
            continue;
        }
        let Some(block) = kty_indent else { continue };
        if indent < block {
            kty_indent = None;
            continue;
        }
        if !matches!(key, "d" | "p" | "q" | "dp" | "dq" | "qi" | "k") {
            continue;
        }
        let rest = &line[after..];
        let lead = rest.len() - rest.trim_start_matches([' ', '\t', '"', '\'']).len();
        let v = &rest[lead..];
        let len = v
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
            .count();
        if len >= 20 {
            out.push((start + after + lead, start + after + lead + len));
        }
    }
    out
}

/// A JSON Web Key's members spelled out as names of their own, as environment variables or
/// flat settings hold them (`SECUTIX_JWK_KTY=OKP` … `SECUTIX_JWK_D=…`, `jwk_kty = "OKP"` …
/// `jwk_d = "…"`, a log's `jwk_kty=OKP … jwk_d=…`): a name ending in `kty` or `crv` after a
/// separator gives the prefix, and the same prefix before a private member (`d`, `p`, `q`, `dp`, `dq`,
/// `qi`, `k`) names that member's value.
fn jwk_members_by_name(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text comes here: nearly all name no key type.
    if !["kty", "KTY", "Kty", "crv", "CRV", "Crv"]
        .iter()
        .any(|m| text.contains(m))
    {
        return out;
    }
    let lower = text.to_ascii_lowercase();
    let b = lower.as_bytes();
    let name_byte = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut prefixes: Vec<&str> = Vec::new();
    // (A key's type or its curve: a set without `kty` still names `crv`.)
    let marks = lower.match_indices("kty").chain(lower.match_indices("crv"));
    for (at, _) in marks {
        // After a separator, or a camel-case boundary (`RvmsAlertJwkKty`).
        let camel = at > 0
            && text.as_bytes()[at].is_ascii_uppercase()
            && text.as_bytes()[at - 1].is_ascii_lowercase();
        if at == 0
            || !(matches!(b[at - 1], b'_' | b'.' | b'-') || camel)
            || b.get(at + 3).is_some_and(|&c| name_byte(c))
        {
            continue;
        }
        let start = lower[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .map_or(0, |i| past_char(&lower, i));
        let prefix = &lower[start..at];
        if prefix.len() >= 2 && !prefixes.contains(&prefix) {
            prefixes.push(prefix);
        }
    }
    for prefix in prefixes {
        for (at, _) in lower.match_indices(prefix) {
            if at > 0 && (name_byte(b[at - 1]) || matches!(b[at - 1], b'.' | b'-')) {
                continue;
            }
            let after = at + prefix.len();
            let member = lower[after..]
                .bytes()
                .take_while(u8::is_ascii_alphanumeric)
                .count();
            if !matches!(
                &lower[after..after + member],
                "d" | "p" | "q" | "dp" | "dq" | "qi" | "k"
            ) {
                continue;
            }
            // `=` or `:` after the name, quotes and blanks around it; or blanks alone, as a
            // tool's listing aligns its columns (`lcr_jwk_d    PoOY…`).
            let rest = &lower[after + member..];
            let lead = rest.trim_start_matches(['"', '\'', ' ', '\t']);
            // (Make's `?=`, `:=`, `+=` too.)
            let lead = lead
                .strip_prefix(['?', ':', '+'])
                .filter(|l| l.starts_with('='))
                .unwrap_or(lead);
            // (An XML setting's `key="…_jwk_d" value="…"`: the name's attribute, then its value's.)
            let attribute = rest
                .starts_with(['"', '\''])
                .then(|| lead.strip_prefix("value="))
                .flatten();
            let Some(value) = lead
                .strip_prefix(['=', ':'])
                .or(attribute)
                .or((lead.len() < rest.len() && rest.starts_with([' ', '\t'])).then_some(lead))
            else {
                continue;
            };
            let value = value.trim_start_matches(['"', '\'', ' ', '\t']);
            let s = text.len() - value.len();
            let len = text[s..]
                .bytes()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
                .count();
            if len >= 20 {
                out.push((s, s + len));
            }
        }
    }
    out
}

/// A value named a certificate that is too short to be one (`hutp_rtc_app_cert = "71e1…"`,
/// `APP_CERTIFICATE=…`): a certificate is hundreds of bytes of DER, so 16 to 64 random
/// letters and digits under that name are a shared secret some services call so. A digest's
/// length in hex (40, 64) is a certificate's fingerprint, and stays.
fn short_certificates(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text comes here: nearly all name no certificate.
    if !text.contains("cert") && !text.contains("CERT") && !text.contains("Cert") {
        return out;
    }
    let lower = text.to_ascii_lowercase();
    for (at, m) in lower
        .match_indices("certificate")
        .chain(lower.match_indices("cert"))
    {
        let end = at + m.len();
        // The name's last word: nothing of a name after it (`cert_path`, `certs`).
        if lower[end..]
            .bytes()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
        {
            continue;
        }
        let rest = &lower[end..];
        let lead = rest.trim_start_matches(['"', '\'', ' ', '\t']);
        let Some(value) = lead.strip_prefix(['=', ':']) else {
            continue;
        };
        let value = value.trim_start_matches(['"', '\'', ' ', '\t']);
        let s = text.len() - value.len();
        let len = text[s..]
            .bytes()
            .take_while(u8::is_ascii_alphanumeric)
            .count();
        let v = &text[s..s + len];
        let hex = v.bytes().all(|c| c.is_ascii_hexdigit());
        let ends = text[s + len..]
            .bytes()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'/' | b'+' | b'.' | b'-')));
        if (16..=64).contains(&len) && ends && !(hex && matches!(len, 40 | 64)) && drawn(v) {
            out.push((s, s + len));
        }
    }
    out
}

/// A party named just before a value, words after a credential's name (`wg set wg0
/// private-key FILE peer fMRK…=`): the value is the peer's public key, not the name's secret.
fn after_a_party(text: &str, at: usize) -> bool {
    text[..at]
        .trim_end_matches(['"', '\''])
        .trim_end()
        .rsplit(char::is_whitespace)
        .next()
        .is_some_and(|w| matches!(w, "peer" | "pubkey" | "public-key" | "recipient"))
}

/// Whether `name` (at `at`) names a credential whose value follows: a drawn word is a value,
/// not a name, whatever its letters end in (an EC key's `x`, `…2yGWYpw`, read as ending in
/// `pw`); nor is a program's name run at a prompt (`$ wpa_passphrase SSID`: its operand is what
/// the program is given first, which rules of their own judge).
fn credential_named_here(text: &str, name: &str, at: usize) -> bool {
    name.len() >= 3
        && names_credential(name)
        && !(name.len() >= 20 && strongly_generated(name, 20))
        && !run_at_a_prompt(text, at)
}

/// Whether the word at `at` is the program of a command typed at a shell prompt: nothing
/// before it on its line but the prompt (`$ `, `# ` is a comment) and `sudo`.
fn run_at_a_prompt(text: &str, at: usize) -> bool {
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    let Some(rest) = line.trim_start().strip_prefix("$ ") else {
        return false;
    };
    let rest = rest.trim_start();
    rest.is_empty() || rest == "sudo "
}

/// A value after the credential's name that ends at `name_end`: separators, at most one
/// word between, then the value.
fn named_value(text: &str, name: &str, name_end: usize) -> Option<(usize, usize)> {
    if abbreviates_key(name) {
        return abbreviated_value(text, name, name_end);
    }
    let long_flag = name.starts_with("--");
    let name_start = name_end - name.len();
    let name = name.trim_matches(['-', '.']);
    if !credential_named_here(text, name, name_start) {
        return None;
    }
    if let Some(at) = markup_value(text, name_start, name_end) {
        let (s, e) = value_at(text, at)?;
        return generated_beside(name, &text[s..e], false, true).then_some((s, e));
    }
    let b = text.as_bytes();
    let mut i = skip_separators(b, name_end);
    let mut between = false;
    // One word may stand between: a master's name, `--plaintext`, a type, `<Value>`.
    if let Some(len) = between_word(b, i)
        && !value_at(text, i).is_some_and(|(s, e)| generated_beside(name, &text[s..e], false, true))
    {
        // A word followed by its own operator is a key (`valueFrom:`, `secure:`): what
        // follows is its value, not the credential's. Not pam_env's `DEFAULT=` and
        // `OVERRIDE=` (`API_KEY  DEFAULT="…"`), which say which of the name's values it is.
        let between_word = text[i..i + len].to_ascii_lowercase();
        // The key's name, id or label (`key name xrf95k.4RnmAh`, `token id …`): what follows
        // names the credential, it is not it.
        if matches!(
            between_word.trim_end_matches([':', '=']),
            "name" | "id" | "label" | "alias" | "fingerprint"
        ) {
            return None;
        }
        let value_key = matches!(between_word.as_str(), "default" | "override");
        if matches!(b.get(i + len), Some(b':' | b'=')) && b[i] != b'<' && !value_key {
            return None;
        }
        // On a line below, so is a word followed by blanks and its operator (an empty
        // `secret_key =` over `sha = 0749…`): the next line's setting, not this one's value.
        let own_operator = || {
            let after = &text[i + len..];
            matches!(
                after.trim_start_matches([' ', '\t']).as_bytes().first(),
                Some(b'=' | b':')
            )
        };
        // (A pair's `value =` under its `key = "…_API_KEY"` is this one's.)
        let value_word = text[i..i + len].eq_ignore_ascii_case("value");
        if text[name_end..i].contains('\n') && own_operator() && !value_word {
            return None;
        }
        // A call around the value (`JSON.stringify("…")`, `SecretStr("…")`) hands it over
        // as it is: no guess, unlike a word between.
        between = b[i + len - 1] != b'(' && !value_key;
        // (One dash: a long option's value is its own, `--query "VersionIdsToStages"`.)
        let flag = b[i] == b'-' && b.get(i + 1) != Some(&b'-');
        i = skip_separators(b, i + len);
        // A setter's flag before a quoted value (`defaults write D ApiKey -string '…'`,
        // `security add-generic-password -s NAME_API_KEY -w '…'`) says what kind of value
        // follows, not a word of a sentence: the value is the name's.
        if flag && i > 0 && matches!(b[i - 1], b'"' | b'\'') {
            between = false;
        }
        // A second short word, as a sentence's verb takes two in many languages (`ist
        // jetzt`, `is now`, `est maintenant`), when what follows the first is none.
        if between
            && !value_at(text, i)
                .is_some_and(|(s, e)| generated_beside(name, &text[s..e], true, false))
            && let Some(len) = short_word(b, i)
        {
            i = skip_separators(b, i + len);
        }
    }
    let (s, e) = value_at(text, i)?;
    if between && after_a_party(text, s) {
        return None;
    }
    // A value tagged with its encoding (`psk base64:j3Sg…=`, `key hex:9f2c…`): the tag is the
    // setting's syntax, the rest the value.
    let s = ["base64:", "hex:"]
        .iter()
        .find_map(|t| text[s..e].strip_prefix(t).map(|_| s + t.len()))
        .filter(|&at| at < e)
        .unwrap_or(s);
    // Base64 with slashes is taken on the name's own line only: under a line that ends in a
    // name (`untrusted comment: signature from minisign secret key`), it is a signature.
    // Nor, under a line that says it is a signature's, whatever its alphabet (minisign's
    // `untrusted comment: signature from minisign secret key` over the signature).
    let next_line = text[name_end..s].contains('\n');
    let signature_line = || {
        let line_start = text[..name_end].rfind('\n').map_or(0, |i| i + 1);
        contains_any_case(&text[line_start..name_end], b"signature")
    };
    if inside_armour(text, s) || next_line && (text[s..e].contains('/') || signature_line()) {
        return None;
    }
    // A template's variable (`{{umbracoDeliveryApiKey}}`, `${API_KEY}`) stands in for one.
    if text[..s].ends_with("{{") || text[..s].ends_with("${") {
        return None;
    }
    let quoted = matches!(b[s - 1], b'"' | b'\'' | b'`' | b'{');
    // A quoted word followed by `:` is the next field's key (`"LocationId": 1` after
    // `"PasswordSecretName": "…-password"`), not a value of this name.
    if quoted && key_follows(&text[e..]) {
        return None;
    }
    // A key handed to a long option (`--root-keys.app-key.key 200A…`, `--app-key …`) is the
    // option's `=` value written with a blank: 32 or more random hex digits are a key there,
    // as `--app-key=…` has them (a digest is not given to an option named for a key).
    let value = &text[s..e];
    // Forty hex digits are a SHA-1: a public key's fingerprint (`--encrypt-key AEE4…`).
    let name_words = text::words(name);
    let keyed_flag = long_flag
        && !between
        && (value.len() >= 32
            && !(value.len() == 40 && is_hex(value))
            && uniform_random(value)
            && name_words.iter().any(|w| w == "key" || w == "keys")
            // A UUID handed to a key's or a token's long option (`UiRobot connect --url …
            // --key de54…`): a robot's or a service's key, as one under a credential's name in
            // a file is.
            || plausible::is_uuid(value)
                && name_words
                    .last()
                    .is_some_and(|w| matches!(w.as_str(), "key" | "token" | "secret")));
    // A login's hash on a line commented out is a shipped configuration's example (cntlm's
    // own `# PassNT 77B9…`, the hash of `password`), not a setting in force.
    let example_hash = login_hash(name) && {
        let line_start = text[..s].rfind('\n').map_or(0, |i| i + 1);
        text[line_start..s].trim_start().starts_with('#')
    };
    let ok = (keyed_flag || generated_beside(name, value, between, quoted))
        && !goes_on(&text[e..])
        && !example_hash;
    ok.then_some((s, e))
}

/// Whether a name's last part is a key's abbreviation (`k`, `ak`, `sk`: `LODGIX_K`,
/// `-Dvendor.k`, `ak`, as an access key and a secret key are written in pairs).
fn abbreviates_key(name: &str) -> bool {
    let b = name.as_bytes();
    let last = b
        .iter()
        .rposition(|c| matches!(c, b'_' | b'.' | b'-'))
        .map_or(b, |at| &b[at + 1..]);
    matches!(
        last,
        [b'k' | b'K'] | [b'a' | b'A' | b's' | b'S', b'k' | b'K']
    )
    // Or a capital `K` closing a name in camel case (`EasybillK`, a plist's key).
    || last.len() >= 3 && last.ends_with(b"K") && last[last.len() - 2].is_ascii_lowercase()
}

/// Where the value of a name given in markup starts: the element's text after an attribute
/// that names it (Android's `<string name="X" translatable="false">VALUE</string>`, `key="X"`),
/// or the `<string>` after a plist's `<key>X</key>`.
fn markup_value(text: &str, name_start: usize, name_end: usize) -> Option<usize> {
    let b = text.as_bytes();
    let before = &text[..name_start];
    let quote = *b.get(name_end)?;
    if matches!(quote, b'"' | b'\'')
        && [b"name=", b"key=".as_slice()].iter().any(|k| {
            before
                .strip_suffix(quote as char)
                .is_some_and(|x| x.as_bytes().ends_with(k))
        })
    {
        let rest = &text[name_end + 1..];
        let close = rest.find('>')?;
        if rest[..close].contains(['<', '\n']) || rest[..close].ends_with('/') {
            return None;
        }
        let at = name_end + 1 + close + 1;
        return (!text[at..].starts_with('<')).then_some(at);
    }
    let rest = text[name_end..].strip_prefix("</key>")?;
    let lead = rest.len() - rest.trim_start().len();
    let at = name_end + "</key>".len() + lead;
    text[at..]
        .starts_with("<string>")
        .then_some(at + "<string>".len())
}

/// The value assigned to a name a key's abbreviation ends (`HOSTFULLY_K='…'`, `-Dvendor.k=…`):
/// one letter says little, so only a value set with `=` right after it, and a long random
/// one, as a token's name asks.
fn abbreviated_value(text: &str, name: &str, name_end: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    if let Some(at) = markup_value(text, name_end - name.len(), name_end) {
        let (s, e) = value_at(text, at)?;
        let value = &text[s..e];
        return (value.len() >= 20 && generated_beside("token", value, false, true))
            .then_some((s, e));
    }
    // Or the second item of a pair, the name quoted as the first (`define('X_K', '…')`).
    let pair = matches!(b.get(name_end), Some(b'"' | b'\''))
        && name_end > 0
        && b.get(name_end + 1) == Some(&b',')
        && name_end > name.len()
        && b[name_end - name.len() - 1] == b[name_end];
    let mut i = if pair {
        name_end + 2 + b[name_end + 2..].iter().take_while(|c| **c == b' ').count()
    } else if b.get(name_end) == Some(&b'=') && b.get(name_end + 1) != Some(&b'=') {
        name_end + 1
    } else {
        return None;
    };
    if matches!(b.get(i), Some(b'"' | b'\'')) {
        i += 1;
        // A string holding a quoted string (Gradle's `buildConfigField(…, "\"…\"")`).
        if b.get(i) == Some(&b'\\') && matches!(b.get(i + 1), Some(b'"')) {
            i += 2;
        }
    } else if pair {
        return None;
    }
    let (s, e) = value_at(text, i)?;
    let value = &text[s..e];
    let quoted = matches!(b[s - 1], b'"' | b'\'');
    (value.len() >= 20
        && generated_beside("token", value, false, quoted)
        && !goes_on(&text[e..])
        && !name.is_empty())
    .then_some((s, e))
}

/// Whether `at` is inside an armoured block (`-----BEGIN …-----` without its END yet) or an
/// `ENC[…]`/`ENC(…)` ciphertext: a certificate's, a public key's or a signature's base64 is
/// public, a private key's is the private-key rule's, and a ciphertext is safe at rest.
fn inside_armour(text: &str, at: usize) -> bool {
    let before = &text[..at];
    before
        .rfind("-----BEGIN")
        .is_some_and(|begin| !before[begin..].contains("-----END"))
        // An SSH public key in its RFC 4716 armour: public by design.
        || before
            .rfind("---- BEGIN SSH2 PUBLIC KEY")
            .is_some_and(|begin| !before[begin..].contains("---- END"))
        // A ciphertext marked as one (hiera-eyaml's and sops' `ENC[…]`, jasypt's `ENC(…)`):
        // encrypted at rest.
        || before
            .rfind("ENC[")
            .is_some_and(|open| !before[open..].contains(']'))
        || before
            .rfind("ENC(")
            .is_some_and(|open| !before[open..].contains(')'))
}

/// Whether a key's colon follows a closing quote (`": 1`), not a URL's (`://`) or a path's
/// (`::`).
fn key_follows(rest: &str) -> bool {
    let Some(rest) = rest.strip_prefix(['"', '\'']) else {
        return false;
    };
    let rest = rest.trim_start_matches([' ', '\t']);
    rest.starts_with(':') && !rest.starts_with("::") && !rest.starts_with(":/")
}

/// Whether `name` says password (`pass`, `pwd`, `pw`, any case).
fn passwordish(name: &str) -> bool {
    name.as_bytes()
        .windows(2)
        .any(|w| w.eq_ignore_ascii_case(b"pw"))
        || name
            .as_bytes()
            .windows(4)
            .any(|w| w.eq_ignore_ascii_case(b"pass"))
}

/// Whether a password's name says it holds the hash a login presents instead of the password
/// (NTLM's: `PassNT`, `PassLM`, `PassNTLMv2`, `nt_hash`).
fn login_hash(name: &str) -> bool {
    text::words(name).iter().any(|w| {
        matches!(
            w.as_str(),
            "nt" | "lm" | "ntlm" | "ntlmv2" | "nthash" | "lmhash"
        )
    })
}

/// A value that goes on into a placeholder is one (`eyJ….eyJ….<signature>`).
fn goes_on(rest: &str) -> bool {
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    rest.starts_with('<')
        && rest[1..].starts_with(|c: char| c.is_ascii_alphabetic())
        && rest
            .get(..rest.len().min(48))
            .and_then(|r| r.find('>'))
            .is_some_and(|close| plausible::is_placeholder(&rest[..=close]))
}

/// Blanks, operators, quotes and opening brackets between a name and its value, and markup
/// that closes the name's element (`>`, `</Key>`), at most 12 bytes besides a closing tag.
fn skip_separators(b: &[u8], mut i: usize) -> usize {
    let mut start = i;
    while i < b.len() && i - start < 12 {
        // `cpassword=""`: the name's value is empty, and what follows is another field's.
        if matches!(b[i], b'"' | b'\'') && b.get(i + 1) == Some(&b[i]) {
            return b.len();
        }
        if b[i] == b'<' && b.get(i + 1) == Some(&b'/') {
            start = i;
        }
        // Blanks that align columns (`root_password           => …`) do not count.
        if matches!(b[i], b' ' | b'\t') && i > 0 && matches!(b[i - 1], b' ' | b'\t') {
            i += 1;
            start += 1;
            continue;
        }
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' | b':' | b'=' | b'>' | b'"' | b'\'' | b'`' | b'('
            | b'{' | b'[' | b',' => i += 1,
            // A default after a lookup that may come back empty (`process.env.API_KEY ||
            // 'ak1_…'`, `?? "…"`): the value written in the code.
            b'|' | b'?' if b.get(i + 1) == Some(&b[i]) => i += 2,
            // `\n` written as two characters in JSON or a log line.
            b'\\' if matches!(b.get(i + 1), Some(b'n' | b't' | b'"')) => i += 2,
            // LaTeX's `{\smtppass}{value}`.
            b'}' if b.get(i + 1) == Some(&b'{') => i += 1,
            // The end of the name's own element (`<Key>Password</Key><Value>…`).
            b'<' if b.get(i + 1) == Some(&b'/') => {
                match b[i..].iter().take(40).position(|&c| c == b'>') {
                    Some(close) => i += close + 1,
                    None => break,
                }
            }
            // `env(SMTP_PASSWORD) {…}`, `[PASSWORD] …`: the name's own brackets close.
            b')' | b']' => i += 1,
            // A YAML list under the name (`password:\n  - value`): its first item.
            b'-' if b.get(i + 1) == Some(&b' ')
                && b[..i].iter().rev().find(|c| !matches!(c, b' ' | b'\t')) == Some(&b'\n') =>
            {
                i += 2;
            }
            _ => break,
        }
    }
    i
}

/// The length of a word that may stand between a name and its value: a short word of
/// letters, a `--flag`, or an opening tag.
fn between_word(b: &[u8], i: usize) -> Option<usize> {
    let rest = b.get(i..)?;
    if rest.first() == Some(&b'<') {
        // An opening tag, with its attributes (`<Value ProtectInMemory="True">`).
        let close = rest.iter().take(80).position(|&c| c == b'>')?;
        let name_len = rest[1..close]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b':'))
            .count();
        let attrs_only = rest[1 + name_len..close]
            .first()
            .is_none_or(u8::is_ascii_whitespace);
        return (name_len > 0 && attrs_only && rest[close - 1] != b'/').then_some(close + 1);
    }
    let len = rest.iter().take_while(|&&c| is_name_byte(c)).count();
    // A wrapper that marks its argument as sensitive (`Sensitive('…')`, `SecretStr("…")`).
    if len > 0 && rest.get(len) == Some(&b'(') && matches!(rest.get(len + 1), Some(b'"' | b'\'')) {
        return Some(len + 1);
    }
    let word = &rest[..len];
    let letters = word.iter().filter(|c| c.is_ascii_alphabetic()).count();
    (len > 0 && len <= 24 && letters * 2 >= len && !word.iter().any(u8::is_ascii_digit)
        || (2..=24).contains(&len) && word.starts_with(b"-") && word[1].is_ascii_alphabetic())
    .then_some(len)
}

/// The length of a short word of lower-case letters at `i` (`jetzt`, `now`), ended by a blank.
fn short_word(b: &[u8], i: usize) -> Option<usize> {
    let len = b
        .get(i..)?
        .iter()
        .take_while(|c| c.is_ascii_lowercase())
        .count();
    ((2..=6).contains(&len) && b.get(i + len).is_some_and(|c| *c == b' ')).then_some(len)
}

/// The value that starts at `i`: up to the quote that opened it, the brace (Tcl's `{…}`),
/// or the next blank, with closing punctuation and markup trimmed.
fn value_at(text: &str, i: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    if i >= b.len() || i == 0 {
        return None;
    }
    let closer = match b[i - 1] {
        q @ (b'"' | b'\'' | b'`') => Some(q),
        b'{' => Some(b'}'),
        _ => None,
    };
    let mut e = i;
    while e < b.len() && !b[e].is_ascii_whitespace() && Some(b[e]) != closer {
        if closer.is_none() && (b[e] == b'<' || matches!(b[e], b'"' | b'\'' | b'`')) {
            break;
        }
        // A query's next parameter (`…&grant_type=…`) or a list's next item ends it.
        if b[e] == b'&' && next_parameter(&b[e + 1..]) {
            break;
        }
        e += 1;
    }
    // An escaped quote ends a value written inside a JSON string.
    if e > i && b[e - 1] == b'\\' {
        e -= 1;
    }
    if closer.is_none() {
        while e > i && matches!(b[e - 1], b';' | b',' | b')' | b'}' | b']' | b'.') {
            e -= 1;
        }
    }
    // `changeLogon=`: a key and its operator, not a value.
    if e > i && b[e - 1] == b'=' && b.get(e).is_some_and(|c| matches!(c, b'"' | b'\'')) {
        return None;
    }
    (e > i && text.is_char_boundary(i) && text.is_char_boundary(e)).then_some((i, e))
}

/// `grant_type=`: a parameter's name and its `=`.
fn next_parameter(rest: &[u8]) -> bool {
    let name = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
        .count();
    name > 0 && rest.get(name) == Some(&b'=')
}

/// Whether `v`, written beside the credential `name` (`between`: with a word between them;
/// `quoted`: inside quotes or braces), reads as generated.
fn generated_beside(name: &str, v: &str, between: bool, quoted: bool) -> bool {
    let len = v.chars().count();
    // Another key (`credentialsId:`, `env=…`), code (`.update(…)`) or a name of its own
    // (`chain_Anvil2_Key`) is no value; `=` only as base64's padding.
    let inner = v.trim_end_matches('=');
    // A checksum joined by `=` to a long body (Atlassian's `ATATT…=6D5C58DC`) is the token's
    // own; a key's name before `=` is short.
    let inner = match inner.split_once('=') {
        Some((body, check)) if body.len() >= 32 && !check.contains('=') => body,
        _ => inner,
    };
    if len < 8
        || !v.bytes().any(|c| c.is_ascii_alphabetic())
        || inner.contains(['$', '\\', '<', '>', ':', '=', '(', ')', ','])
        || inner.contains('/') && !base64_with_slashes(inner)
        // A slash percent-encoded is a path's or a scope's (`%2F20261205%2Fdefault%2Fs3%2F…`).
        || inner.contains("%2F")
        || inner.contains("%2f")
        || v.starts_with(|c: char| !c.is_ascii_alphanumeric() && !".~^+!#%*_-".contains(c))
    {
        return false;
    }
    // A public key's or a certificate's DER, whatever name it stands under (a browser
    // extension manifest's `key`).
    if plausible::public_key(v) {
        return false;
    }
    // Named a token, a secret or a cookie outright, a long value of one alphabet is still
    // generated: a hex secret (`-secret 39ae6…`), an Erlang cookie (twenty capitals), base32
    // (`…MEQ====`). A digest is named as one (`hashed_secret`), and the name rules it out.
    // Hex only under a token's, a secret's or a cookie's name: a password field followed by a
    // hex word is as often a digest or a JSON key (`"4dab…": "1b47…"`).
    // A password's hash named as the kind a login presents in its place (cntlm's `PassNT`,
    // `PassLM`, `PassNTLMv2`): whoever holds an NT hash logs in with it.
    let hex_allowed = !passwordish(name) || names_a_token_word(name) || login_hash(name);
    if !between && names_a_token(name) && uniform_random(inner) && (hex_allowed || !is_hex(inner)) {
        return true;
    }
    // With words between (`API_TOKEN ist jetzt 596f…`), a long random run of hex is a token's
    // still under a token's or a secret's own name; a password's may be a digest. (Others
    // are asked to be strongly generated below: a class's name is a long run of letters.)
    if between && names_a_token_word(name) && is_hex(inner) && uniform_random(inner) {
        return true;
    }
    if !mixed(v)
        // A UUID under a credential's name is a token (a setup key, npm's `_authToken`), with
        // a vendor's prefix too (`rlc_f94d36a2-…`).
        || is_hex(v) && !(uuid_token(v) && !between && names_a_token(name))
        || text::words(v).iter().any(|w| NAMES.contains(&w.as_str()))
    {
        return false;
    }
    // Letters of one case and digits are a product or licence key's groups, or an id; a
    // UUID is a token's shape of its own.
    if !(uuid_token(v) && names_a_token(name))
        && (!v.bytes().any(|c| c.is_ascii_lowercase())
            || !v.bytes().any(|c| c.is_ascii_uppercase()) && !passwordish(name))
    {
        return false;
    }
    if between {
        // A word between makes the name a guess: a generated value only.
        return strongly_generated(v, 12);
    }
    let written = if quoted {
        Written::Quoted
    } else {
        Written::Bare
    };
    plausible::plausible_assignment(name, v, written)
}

/// Generated rather than written: a digit among letters, or a capital inside lower case
/// (not a capitalised word, not camelCase words).
fn mixed(v: &str) -> bool {
    let b = v.as_bytes();
    let digit = b.iter().any(u8::is_ascii_digit);
    let inner_upper = b.windows(2).skip(1).any(|w| w[1].is_ascii_uppercase())
        && b.iter().any(u8::is_ascii_lowercase);
    let camel_words = || {
        let words = text::words(v);
        words.len() >= 2
            && words.iter().all(|w| w.len() >= 3)
            && v.bytes()
                .all(|c| c.is_ascii_alphabetic() || matches!(c, b'-' | b'_'))
    };
    digit || inner_upper && !camel_words()
}

/// Whether a name says its value is a token or a password (`_authToken`, `secret`), not only
/// a key (`session_key`, `cache_key`: often an id).
fn names_a_token(name: &str) -> bool {
    passwordish(name) || names_a_token_word(name)
}

/// A UUID, alone or after a vendor's short prefix (`rlc_f94d36a2-2e74-…`): the shape a token
/// takes under a credential's name.
fn uuid_token(v: &str) -> bool {
    plausible::is_uuid(v)
        || v.split_once(['_', '-']).is_some_and(|(prefix, rest)| {
            (2..=8).contains(&prefix.len())
                && prefix
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
                && plausible::is_uuid(rest)
        })
}

/// Whether a part of the name is a token's, a secret's or a cookie's, or the name says an
/// API's key (`api_key`, `X-API-Key`, `apikey`): a key that opens an account, where a bare
/// `key` is as often a cache's or a table's.
fn names_a_token_word(name: &str) -> bool {
    let parts = text::words(name);
    parts.iter().any(|p| {
        matches!(
            p.as_str(),
            "token"
                | "secret"
                | "cred"
                | "creds"
                | "credential"
                | "credentials"
                | "cookie"
                | "apikey"
        ) || p.ends_with("cookie")
            || joined_token(p)
    }) || parts.windows(2).any(|w| w[0] == "api" && w[1] == "key")
        || session_header(&parts)
}

/// Base64's alphabet holds `/` and `+`: a long generated value with them is no path
/// (`m604zvZOT/ivm5eqPG…`) when no part between its slashes reads as a name.
fn base64_with_slashes(v: &str) -> bool {
    v.len() >= 20
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/'))
        // A path's words (`keys/ProdSigningKey`); a short piece between slashes is a draw's
        // (`…/oedQY/…`).
        && !v.split('/').any(|p| p.len() >= 6 && identifier_words(p))
        && strongly_generated(&v.replace(['/', '+'], ""), 16)
}

/// A long run of one alphabet (hex, capitals and digits, letters) with many distinct
/// characters: 32 or more hex digits, or 20 or more others with at least half distinct.
pub(crate) fn uniform_random(v: &str) -> bool {
    let b = v.as_bytes();
    if !b.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    let mut seen = [false; 128];
    for &c in b {
        seen[usize::from(c)] = true;
    }
    let distinct = seen.iter().filter(|&&x| x).count();
    // A run counted out (`ABCDEFGH…234567`) is a placeholder, not a draw.
    let steps = b.windows(2).filter(|w| w[1] == w[0] + 1).count();
    if steps * 3 > b.len() {
        return false;
    }
    let hex = b.iter().all(u8::is_ascii_hexdigit);
    if hex {
        b.len() >= 32 && distinct >= 12
    } else {
        b.len() >= 20 && distinct >= 10 && distinct * 2 >= b.len().min(40)
    }
}

/// Hex digits (and dashes), after an optional `0x`: digests, ids, and addresses whose case
/// is a checksum (EIP-55's `0x701A9A14F7f4…`).
fn is_hex(v: &str) -> bool {
    let v = v.strip_prefix("0x").unwrap_or(v);
    v.bytes().all(|c| c.is_ascii_hexdigit() || c == b'-')
}

/// Letters of both cases and digits, at least `min` long, random, and no word, identifier,
/// version or filler.
fn strongly_generated(v: &str, min: usize) -> bool {
    let count = |f: fn(&u8) -> bool| v.as_bytes().iter().filter(|c| f(c)).count();
    let (upper, lower, digit) = (
        count(u8::is_ascii_uppercase),
        count(u8::is_ascii_lowercase),
        count(u8::is_ascii_digit),
    );
    let len = v.chars().count();
    len >= min
        && upper >= 2
        && lower >= 2
        && digit >= 1
        && !is_hex(v)
        && !plausible::is_placeholder(v)
        && !plausible::is_filler(v)
        && !plausible::is_number(v)
        && plausible::entropy(v) >= (len as f64).log2().min(4.0) - 0.6
        && !identifier_words(v)
        && !plausible::looks_like_url(v)
        && !plausible::looks_like_address(v)
        && !plausible::looks_like_path(v)
        && !plausible::looks_like_version(v)
        && !plausible::looks_like_words(v)
}

/// `HTMLParserFactory2`, `getUserById`: words with a vowel each, a number at most at their
/// end. A generated value breaks into short parts with digits inside.
fn identifier_words(v: &str) -> bool {
    text::words(v).iter().all(|p| {
        let letters = p.trim_end_matches(|c: char| c.is_ascii_digit());
        letters.len() >= 2
            && letters.bytes().all(|c| c.is_ascii_alphabetic())
            && letters.bytes().any(|c| b"aeiouy".contains(&c))
    })
}

/// A one-letter flag's value: `-P value`, `-pvalue` (a password flag's attached form),
/// `/p:value`; `user:value` and `user%value` give the part after the user.
fn flag_value(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let word = &b[start..end];
    let line_start = start == 0 || matches!(b[start - 1], b' ' | b'\t' | b'\n');
    if !line_start {
        // Windows' password flags: `/p`, and `/rp`, `/pw`, `/pass`, `/password` (`schtasks
        // … /RP …`).
        let password_flag = word.len() == 1
            || ["rp", "pw", "pwd", "pass", "password"]
                .iter()
                .any(|f| word.eq_ignore_ascii_case(f.as_bytes()));
        // Windows' `/p:value`.
        if start >= 1
            && b[start - 1] == b'/'
            && (start < 2 || matches!(b[start - 2], b' ' | b'\t'))
            && password_flag
            && b.get(end) == Some(&b':')
        {
            // Quoted for the shell (`/p:'V.OB0…'`).
            let quoted = matches!(b.get(end + 1), Some(b'"' | b'\''));
            return credential_in(text, end + 1 + usize::from(quoted));
        }
        // Windows' `/p value`, a blank between (`signtool sign /f a.pfx /p …`): the value
        // as a one-letter `-p …` has it.
        if start >= 1
            && b[start - 1] == b'/'
            && (start < 2 || matches!(b[start - 2], b' ' | b'\t'))
            && password_flag
            && matches!(b.get(end), Some(b' ' | b'\t'))
        {
            let i = end
                + b[end..]
                    .iter()
                    .take_while(|c| matches!(c, b' ' | b'\t'))
                    .count();
            return credential_in(text, i);
        }
        return None;
    }
    // Windows' `/p:value` written with a dash (`winrs -u:CORP\\ops -p:…`): a password's
    // flag by its letter or its name.
    if word.len() >= 2
        && word[0] == b'-'
        && b.get(end) == Some(&b':')
        && (word[1..].eq_ignore_ascii_case(b"p")
            || ["pw", "pwd", "pass", "password"]
                .iter()
                .any(|f| word[1..].eq_ignore_ascii_case(f.as_bytes())))
    {
        let quoted = matches!(b.get(end + 1), Some(b'"' | b'\''));
        return credential_in(text, end + 1 + usize::from(quoted));
    }
    // `-cp=…`, `-ap …`: a short flag of two or three letters, its value attached by `=`.
    if (3..=4).contains(&word.len())
        && word[0] == b'-'
        && word[1..].iter().all(u8::is_ascii_alphabetic)
        && b.get(end) == Some(&b'=')
    {
        return credential_in(text, end + 1);
    }
    if (2..=4).contains(&word.len())
        && word[0] == b'-'
        && word[1..].iter().all(u8::is_ascii_alphabetic)
    {
        let mut i = end;
        while i < b.len() && matches!(b[i], b' ' | b'\t') {
            i += 1;
        }
        if i == end {
            // A password quoted for the shell and joined to its flag (`7z a -p'…' x.7z`, as
            // `-p…` is read below).
            let quoted = matches!(b.get(end), Some(b'"' | b'\''));
            return (quoted && word.len() == 2 && matches!(word[1], b'p' | b'P'))
                .then(|| credential_in(text, end + 1))
                .flatten();
        }
        if matches!(b.get(i), Some(b'"' | b'\'')) {
            i += 1;
        }
        // A password's, a token's or a key's letter given a long run of one alphabet (`vsce
        // publish -p l52ehv5f…`, 52 base32 characters): generated, though not mixed.
        if word.len() == 2 && b"pPtTkK".contains(&word[1]) {
            let e = i + b[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric())
                .count();
            let v = &text[i..e];
            let ends = b
                .get(e)
                .is_none_or(|c| c.is_ascii_whitespace() || matches!(c, b'"' | b'\''));
            if ends && v.len() >= 32 && !is_hex(v) && uniform_random(v) {
                return Some((i, e));
            }
        }
        // A one-time password's seed in base32 on a line that says so (`oathtool --totp -b
        // ZK7E…`): capitals and the digits 2 to 7, 16 or more.
        if let Some(seed) = otp_seed(text, start, i) {
            return Some(seed);
        }
        if word.len() == 2 && matches!(word[1], b'p' | b'P') {
            return password_in(text, i);
        }
        return credential_in(text, i);
    }
    if word.len() > 2 && word[0] == b'-' && matches!(word[1], b'p' | b'P') {
        return password_in(text, start + 2);
    }
    None
}

/// Each line of `text` with the offset it starts at.
pub(crate) fn lines_at(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').scan(0, |offset, line| {
        let start = *offset;
        *offset += line.len();
        Some((start, line))
    })
}

/// The blank-separated words of `line`, each with its offset in the line.
fn words_at(line: &str) -> Vec<(usize, &str)> {
    let mut words = Vec::new();
    let mut at = 0;
    for w in line.split_ascii_whitespace() {
        let i = line[at..].find(w).map_or(at, |k| at + k);
        at = i + w.len();
        words.push((i, w));
    }
    words
}

/// The items of a list under a credential's name (`api-key:` then `  - mistral=…`, `tokens:`
/// then `  - "…"`): each item, or the part after its own `=` or `: `, is the credential.
fn listed(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Most texts hold no key that ends its line.
    if !text.contains(":\n") && !text.contains(":\r\n") {
        return out;
    }
    let mut under: Option<(String, usize)> = None;
    for (start, line) in lines_at(text) {
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start().len();
        let trimmed = body.trim();
        if let Some(name) = trimmed.strip_suffix(':')
            && !name.is_empty()
            && name.bytes().all(|c| is_name_byte(c) || c == b'"')
        {
            let name = name.trim_matches('"');
            under = names_credential(name).then(|| (name.to_string(), indent));
            continue;
        }
        let Some((name, at)) = &under else { continue };
        let Some(item) = trimmed.strip_prefix("- ") else {
            if indent <= *at {
                under = None;
            }
            continue;
        };
        let item_at = start + indent + 2;
        let (off, v) = match item.find(['=', ':']) {
            Some(k)
                if item[..k]
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-') =>
            {
                let rest = item[k + 1..].trim_start();
                (item.len() - rest.len(), rest)
            }
            _ => (0, item),
        };
        let quoted = v.starts_with(['"', '\'']);
        let v = v.trim_matches(['"', '\'']);
        let lead = usize::from(quoted);
        if generated_beside(name, v, false, quoted) {
            let s = item_at + off + lead;
            out.push((s, s + v.len()));
        }
    }
    out
}

/// Words that make a URL's name say it is called to report or notify (`PUSH_URL`,
/// `WATCHTOWER_NOTIFICATION_URL`, `--then-ping`, `webhook:`).
const CALLED_URLS: &[&str] = &[
    "alert",
    "alerts",
    "callback",
    "heartbeat",
    "hook",
    "notification",
    "notifications",
    "notify",
    "ping",
    "push",
    "webhook",
    "webhooks",
];

/// A URL whose user is a token (`https://OahFR6n-V4N6TwvD@cgm.example.net/api/v1/`, a
/// Nightscout uploader's, `https://<token>@github.com/…`): a user without a password that
/// only a generator writes is the credential itself. A person's or a service's name (`git@`,
/// `deploy-bot@`) is not.
fn token_users(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("://") {
        let rest = &text[at + 3..];
        let Some(end) = rest.find(|c: char| {
            c.is_whitespace() || matches!(c, '/' | '@' | ':' | '"' | '\'' | '?' | '#')
        }) else {
            continue;
        };
        if rest.as_bytes()[end] != b'@' {
            continue;
        }
        let user = &rest[..end];
        // Or a key in one case with digits, long enough that no user is named so (PrestaShop's
        // webservice key, `https://IKFKVXRNUL4YH554FAY8204K6F9FIJO4@shop…`).
        let one_case_key = user.len() >= 24
            && user.bytes().all(|c| c.is_ascii_alphanumeric())
            && user.bytes().filter(u8::is_ascii_digit).count() >= 3
            && (!user.bytes().any(|c| c.is_ascii_lowercase())
                || !user.bytes().any(|c| c.is_ascii_uppercase()))
            && !is_hex(user)
            && uniform_random(user);
        if strongly_generated(user, 12) || one_case_key {
            let s = at + 3;
            out.push((s, s + end));
        }
    }
    out
}

/// A URL whose user is a token alone (`https://72566eed…@git.example/org/repo.git`, as git
/// hosts take a personal access token): a user's name is never 32 hex digits or a generated
/// run of 20 characters or more, so the user is the credential.
fn url_token_users(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("://") {
        let start = at + 3;
        let rest = &text[start..];
        let user_len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
            .count();
        if rest.as_bytes().get(user_len) != Some(&b'@') {
            continue;
        }
        let user = &rest[..user_len];
        // A DSN is a client's address, its user a public key (Sentry's `dsn=https://…@…`).
        let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
        if contains_any_case(line, b"dsn") {
            continue;
        }
        let token = user.len() >= 32 && is_hex(user)
            || user.len() >= 20 && (strongly_generated(user, 20) || uniform_random(user));
        if token && !plausible::is_placeholder(user) {
            out.push((start, start + user_len));
        }
    }
    out
}

/// Path segments after which a URL holds its key (`/api/KEY`, `/t/TOKEN`).
const KEY_SEGMENTS: &[&str] = &[
    "api", "key", "keys", "token", "tokens", "t", "p", "cron", "hook", "hooks", "webhook",
    "webhooks", "secret", "secrets", "auth", "private",
];

/// A URL called to report or notify, whose path carries a generated segment: the segment is
/// the credential (whoever holds the URL can post to it, as with a chat webhook). Only a URL
/// whose name, just before it on its line, says it is called that way (`PUSH_URL=https://
/// status.example.net/api/push/YXDt…?status=up`, `--then-ping https://…/<uuid>`): a resource
/// id in an API's URL is no credential.
fn capability_urls(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains("://") {
        return out;
    }
    for (start, line) in lines_at(text) {
        for (at, _) in line.match_indices("://") {
            let head = &line[..at];
            let scheme_start = head
                .char_indices()
                .rev()
                .find(|&(_, c)| !c.is_ascii_alphanumeric() && c != '+')
                .map_or(0, |(i, c)| i + c.len_utf8());
            let before = &head[..scheme_start];
            let name = before
                .trim_end_matches(|c: char| {
                    matches!(c, ' ' | '\t' | '"' | '\'' | '=' | ':' | ',' | '[')
                })
                .rsplit(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
                .next()
                .unwrap_or_default();
            let called = text::words(name)
                .iter()
                .any(|w| CALLED_URLS.contains(&w.as_str()));
            let rest = &line[at + 3..];
            let url_len = rest
                .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'))
                .unwrap_or(rest.len());
            let url = &rest[..url_len];
            let path_start = url.find('/').map_or(url.len(), |i| i + 1);
            let path_end = url.find(['?', '#']).unwrap_or(url.len());
            let mut seg_at = path_start;
            let segs: Vec<&str> = url[path_start..path_end.max(path_start)]
                .split('/')
                .collect();
            for (n, seg) in segs.iter().copied().enumerate() {
                // Whatever names the URL, a path segment only a generator writes, long enough
                // to be a key, where a key stands: after a segment that names one (`/api/KEY`,
                // `/t/TOKEN`, `/cron/TOKEN`, a pre-authenticated request's `/p/…`) or before a
                // verb said to the device it opens (`/TOKEN/get/v48`). A document's or a
                // file's id stands elsewhere (`/spreadsheets/d/ID/edit`, `arweave.net/ID`).
                // Or first after the API's version, before the method it calls
                // (`/v1/KEY/sms/send.json`), where an id would follow the resource's name.
                let versioned = n == 1
                    && segs[0]
                        .strip_prefix(['v', 'V'])
                        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                    && segs.len() > n + 1;
                let placed = || {
                    versioned
                        || n.checked_sub(1)
                            .and_then(|p| segs.get(p))
                            .is_some_and(|p| KEY_SEGMENTS.iter().any(|k| p.eq_ignore_ascii_case(k)))
                        || segs.get(n + 1).is_some_and(|next| {
                            matches!(*next, "get" | "set" | "update" | "write" | "read" | "pin")
                        })
                };
                let keyed = seg.len() >= 28
                    && seg
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
                    && placed()
                    && !base58(seg)
                    && !spells_a_word(seg)
                    // One case and digits, long and drawn evenly, is generated too (Kavenegar's
                    // 80 capitals and digits).
                    && (strongly_generated(seg, 28) || seg.len() >= 40 && uniform_random(seg));
                if !called {
                    if keyed {
                        let s = start + at + 3 + seg_at;
                        out.push((s, s + seg.len()));
                    }
                    seg_at += seg.len() + 1;
                    continue;
                }
                let generated = plausible::is_uuid(seg)
                    || seg.len() >= 12
                        && seg
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
                        && seg.bytes().any(|b| b.is_ascii_digit())
                        && (seg.bytes().any(|b| b.is_ascii_uppercase())
                            || seg.bytes().filter(u8::is_ascii_hexdigit).count() == seg.len()
                                && seg.len() >= 16)
                        && !plausible::is_placeholder(seg);
                if generated {
                    let s = start + at + 3 + seg_at;
                    out.push((s, s + seg.len()));
                }
                seg_at += seg.len() + 1;
            }
        }
    }
    out
}

/// The signature of a signed URL, whatever its parameters are called: in a query that also
/// carries an expiry (a Unix time, `?ik-t=1795392983&ik-s=3601…`), the value drawn at random
/// (40 hex digits, or mixed base64) is what proves the URL was issued; or a path's first
/// segment that is an HMAC-SHA1's or -SHA256's base64 with its padding, before what the URL
/// asks for (Thumbor's `/4ydNwB0R8k8Dg6mCu2LFk9N2KDY=/640x0/smart/…`), in a URL or a path
/// alone.
fn signed_urls(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // One walk over the path segments that follow a `/`: a digest before the time it expires,
    // in hex (lighttpd's secdownload, `/dl/<md5>/693d57aa/releases/…`), in a URL or a path
    // alone; and the first segment of a path alone, as a server's log writes the request
    // (`"GET /_J09XgM7…=/fit-in/… HTTP/2.0"`), that is an HMAC.
    let b = text.as_bytes();
    for (at, _) in text.match_indices('/') {
        let rest = &text[at + 1..];
        let Some(end) = rest.find('/') else { continue };
        let (seg, after) = (&rest[..end], &rest[end + 1..]);
        let time = after.split('/').next().unwrap_or_default();
        let expiring = (32..=64).contains(&seg.len())
            && is_hex(seg)
            && uniform_random(seg)
            && time.len() == 8
            && u64::from_str_radix(time, 16)
                .is_ok_and(|t| (1_500_000_000..2_200_000_000).contains(&t));
        let starts_path = at == 0 || matches!(b[at - 1], b' ' | b'"' | b'\'');
        // A token, then the moment it expires in Unix time, after a comma (CDN77's secure
        // token, `/LMN2u8vjzx525U5EZwa98A,1796707967/…`): the path's key to the file.
        if let Some((token, time)) = seg.split_once(',')
            && time.len() == 10
            && time
                .parse::<u64>()
                .is_ok_and(|t| (1_500_000_000..2_200_000_000).contains(&t))
            && token.len() >= 16
            && token
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
            && uniform_random(&token.replace(['-', '_'], ""))
        {
            out.push((at + 1, at + 1 + token.len()));
            continue;
        }
        if expiring
            || starts_path && (hmac_base64(seg) || unpadded_hmac(seg, time))
            || shared_access_key(&text[..at], seg)
            || long_drawn_segment(seg) && in_a_path(text, at)
        {
            out.push((at + 1, at + 1 + end));
        }
    }
    if text.contains('?') {
        request_line_signatures(text, &mut out);
    }
    if !text.contains("://") {
        return out;
    }
    for (at, _) in text.match_indices("://") {
        let rest = &text[at + 3..];
        let len = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`' | ')'))
            .unwrap_or(rest.len());
        let url = &rest[..len];
        let base = at + 3;
        let path_start = url.find('/').map_or(url.len(), |i| i + 1);
        let query_at = url.find('?');
        let path_end = query_at.or_else(|| url.find('#')).unwrap_or(url.len());
        let mut segs = url[path_start..path_end.max(path_start)].split('/');
        if let Some(seg) = segs.next()
            && url[path_start..].contains('/')
            && (hmac_base64(seg) || unpadded_hmac(seg, segs.next().unwrap_or_default()))
        {
            out.push((base + path_start, base + path_start + seg.len()));
        }
        path_signatures(
            &url[path_start..path_end.max(path_start)],
            base + path_start,
            &mut out,
        );
        let Some(q) = query_at else { continue };
        let query = &url[q + 1..url.find('#').unwrap_or(url.len()).max(q + 1)];
        query_signatures(query, base + q + 1, &mut out);
    }
    out
}

/// The query of a path alone, as a server's log or a request line writes it (`"GET
/// /hero.jpg?expires=1796002034&s=adb2…"`): the same signatures as a URL's.
fn request_line_signatures(text: &str, out: &mut Vec<(usize, usize)>) {
    let b = text.as_bytes();
    let breaks = |c: char| c.is_whitespace() || matches!(c, '"' | '\'');
    // Read once: the word a `?` stands in starts after the last break before it (looked for
    // only since the last `?`), and its query runs to the next `?` or the word's end.
    let (mut start, mut scanned, mut word_end) = (0, 0, 0);
    // Whether the word holds a scheme before its `?`, read up to `checked`.
    let (mut scheme, mut checked) = (false, 0);
    let marks: Vec<usize> = text.match_indices('?').map(|(q, _)| q).collect();
    for (n, &q) in marks.iter().enumerate() {
        if let Some((i, c)) = text[scanned..q]
            .char_indices()
            .rev()
            .find(|&(_, c)| breaks(c))
        {
            start = scanned + i + c.len_utf8();
            (scheme, checked) = (false, start);
        }
        scanned = q;
        if q >= word_end {
            word_end = text[q + 1..]
                .find(|c: char| breaks(c) || c == '#')
                .map_or(text.len(), |e| q + 1 + e);
        }
        if b.get(start) != Some(&b'/') {
            continue;
        }
        // (`://` may straddle where the last look stopped.)
        let mut from = checked.saturating_sub(2).max(start);
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        scheme = scheme || text[from..q].contains("://");
        checked = q;
        if scheme {
            continue;
        }
        let end = marks
            .get(n + 1)
            .map_or(word_end, |&next| next.min(word_end));
        query_signatures(&text[q + 1..end], q + 1, out);
    }
}

/// A share link's access key (Storj's `link.storjshare.io/s/<access key>/bucket/object`): a
/// segment after a `/s/` route drawn in base32's lower-case alphabet, as an S3 gateway's
/// keys are, where a share link's own id (a nanoid) mixes both cases.
fn shared_access_key(before: &str, seg: &str) -> bool {
    (before.ends_with("/s") || before == "s" || before.ends_with(" s"))
        && seg.len() >= 24
        && seg
            .bytes()
            .all(|c| c.is_ascii_lowercase() || (b'2'..=b'7').contains(&c))
        && seg.bytes().filter(u8::is_ascii_digit).count() >= 3
        && uniform_random(seg)
}

/// In a query that carries an expiry (a Unix time), the value drawn at random; or a digest and
/// its expiry joined in one value (UPYUN's `_upt=fb839e981764264242`: hex, then a Unix time).
/// A query that is one long generated value and no parameter is a token the server decrypts
/// or looks up (a CDN's token authentication, `movie.mp4?Xe9M_i05…`): a cache-buster is a
/// digest or a version, which are not drawn in mixed case.
fn query_signatures(query: &str, mut offset: usize, out: &mut Vec<(usize, usize)>) {
    if !query.contains(['=', '&']) && strongly_generated(query, 40) {
        out.push((offset, offset + query.len()));
        return;
    }
    let expires = query.split('&').any(|p| {
        p.split_once('=').is_some_and(|(_, v)| {
            v.len() == 10 && v.starts_with('1') && v.bytes().all(|c| c.is_ascii_digit())
        })
    });
    for p in query.split('&') {
        if let Some((k, v)) = p.split_once('=') {
            let random = is_hex(v) && v.len() >= 32 && uniform_random(v)
                || v.len() >= 20 && strongly_generated(v, 20);
            if expires && random || expiring_digest(v) {
                let s = offset + k.len() + 1;
                out.push((s, s + v.len()));
            }
        }
        offset += p.len() + 1;
    }
}

/// The values of a Kubernetes `Secret` manifest's `stringData:` or `data:` block (`kind:
/// Secret`): secrets by where they are kept, whatever their keys are called
/// (`BLOCKFROST_PROJECT_ID: "mainnet…"`). Placeholders, references and empty values stay; a
/// value has to read as a password would.
fn kubernetes_secret_values(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let Some(kind) = text.find("kind: Secret") else {
        return out;
    };
    if text[kind + "kind: Secret".len()..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return out;
    }
    let mut block_indent: Option<usize> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let at = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start().len();
        let trimmed = body.trim_start();
        if matches!(trimmed, "stringData:" | "data:") {
            block_indent = Some(indent);
            continue;
        }
        let Some(block) = block_indent else { continue };
        if trimmed.is_empty() {
            continue;
        }
        if indent <= block {
            block_indent = None;
            continue;
        }
        let Some((key, value)) = trimmed.split_once(": ") else {
            continue;
        };
        if key.contains(' ') {
            continue;
        }
        let v = value.trim();
        let v = v.trim_matches(['"', '\'']);
        // A host's name (`db.internal`), kept in a Secret beside what opens it, is no secret.
        let host = v.contains('.')
            && v.bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-'))
            && v.rsplit('.')
                .next()
                .is_some_and(|tld| tld.bytes().all(|c| c.is_ascii_alphabetic()));
        if v.len() < 8
            || host
            || v.starts_with(['$', '<', '{', '|', '>'])
            || !plausible::plausible_password(v)
        {
            continue;
        }
        let start = at + indent + key.len() + 2 + value.find(v).unwrap_or(0);
        out.push((start, start + v.len()));
    }
    out
}

/// A value an editor's substitution writes in place of a placeholder or a credential's name
/// (`sed -i "s|ultrasecretkey|9ac0…|g" settings.yml`, `s/CHANGE_ME/…/`): what it writes is
/// the secret the file will hold, when it is drawn at random.
fn substituted_secrets(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    for (at, _) in text.match_indices('s') {
        // `s` opens the command: after a quote, a blank or `;`, and followed by its delimiter.
        let opens = at == 0 || matches!(b[at - 1], b'"' | b'\'' | b' ' | b';' | b'{');
        let Some(&delim) = b.get(at + 1) else { break };
        if !opens || !matches!(delim, b'|' | b'/' | b'#' | b'@' | b',' | b':') {
            continue;
        }
        let rest = &text[at + 2..];
        let Some(old_len) = rest.find(char::from(delim)) else {
            continue;
        };
        let old = &rest[..old_len];
        let after = &rest[old_len + 1..];
        let Some(new_len) = after.find(char::from(delim)) else {
            continue;
        };
        let new = &after[..new_len];
        let replaced = mentions_credential(old) || plausible::is_placeholder(old);
        let random =
            is_hex(new) && new.len() >= 32 && uniform_random(new) || strongly_generated(new, 16);
        if !old.is_empty() && replaced && random {
            let s = at + 2 + old_len + 1;
            out.push((s, s + new.len()));
        }
    }
    out
}

/// A key in hex right after the name of the cipher it keys (Cilium's IPsec secret, `3+
/// rfc4106(gcm(aes)) 4ce4…5b71 128`, `ip xfrm state … enc 'cbc(aes)' 0x6aed…`): a cipher's
/// name is followed by its key, not by a digest.
fn cipher_keys(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let lower_has = |w: &str| {
        [
            "aes", "chacha20", "rfc4106", "rfc4309", "rfc7539", "gcm(", "cbc(", "hmac(",
        ]
        .iter()
        .any(|c| contains_any_case(w, c.as_bytes()))
    };
    // Every text comes here: a plain search for the likely spellings first.
    let named = [
        "aes", "AES", "Aes", "chacha", "CHACHA", "rfc4", "rfc7", "gcm(", "cbc(", "hmac(",
    ]
    .iter()
    .any(|n| text.contains(n));
    if !named {
        return out;
    }
    let b = text.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let sep = |c: u8| c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'<' | b'>');
        while i < b.len() && sep(b[i]) {
            i += 1;
        }
        let start = i;
        while i < b.len() && !sep(b[i]) {
            i += 1;
        }
        if i > start {
            words.push((start, i));
        }
    }
    for pair in words.windows(2) {
        let ((cs, ce), (ks, ke)) = (pair[0], pair[1]);
        let key = &text[ks..ke];
        let hex = key.strip_prefix("0x").unwrap_or(key);
        // A ciphertext's header names its cipher among its fields (`$ANSIBLE_VAULT;1.1;AES256`):
        // what follows is encrypted, not a key.
        let cipher = &text[cs..ce];
        if lower_has(cipher)
            && !cipher.contains(';')
            && is_hex(hex)
            && hex.len() >= 32
            && uniform_random(hex)
        {
            out.push((ke - hex.len(), ke));
        }
    }
    out
}

/// Hex digits (8 to 64, letters and digits among them) and a Unix time of ten digits after
/// them: a signature joined to the time it expires.
fn expiring_digest(v: &str) -> bool {
    // Hex and digits are ASCII: anything else is no such value (and no byte to cut at).
    let Some(split) = v.len().checked_sub(10).filter(|_| v.is_ascii()) else {
        return false;
    };
    let (digest, time) = v.split_at(split);
    (8..=64).contains(&digest.len())
        && digest.bytes().all(|c| c.is_ascii_hexdigit())
        && digest.bytes().any(|c| c.is_ascii_alphabetic())
        && time.starts_with('1')
        && time.bytes().all(|c| c.is_ascii_digit())
}

/// A URL path's own marks for what grants access: a signature component between `s--` and
/// `--` (Cloudinary's `/image/upload/s--vmSTqTAn--/c_thumb…`), and a token after a `t`
/// segment (a channel's `https://conda.example.org/t/TOKEN/name`). `path` starts at `at`.
fn path_signatures(path: &str, at: usize, out: &mut Vec<(usize, usize)>) {
    let mut offset = 0;
    let mut after_t = false;
    for seg in path.split('/') {
        let start = at + offset;
        offset += seg.len() + 1;
        if let Some(sig) = seg.strip_prefix("s--").and_then(|r| r.strip_suffix("--"))
            && (8..=32).contains(&sig.len())
            && sig
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
        {
            out.push((start + 3, start + 3 + sig.len()));
        }
        if std::mem::replace(&mut after_t, seg == "t") && seg.len() >= 20 && drawn(seg)
            || long_drawn_segment(seg)
        {
            out.push((start, start + seg.len()));
        }
    }
}

/// Whether the `/` at byte `at` is in a word that is a path (`"/p/…/n/…"`), not in base64 (a
/// key's `AAAAB3Nz…/tUrVh4S…`, whose `/` is a digit of it).
fn in_a_path(text: &str, at: usize) -> bool {
    let breaks = |c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | '`' | '<' | '>');
    // (A break may be wider than a byte: `\u{2001}`, an em quad, is three.)
    let start = text[..at]
        .char_indices()
        .rev()
        .find(|&(_, c)| breaks(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[at..].find(breaks).map_or(text.len(), |i| at + i);
    let word = &text[start..end];
    word.starts_with('/') && !word.contains(['+', '='])
}

/// A path segment of 56 to 80 random characters of both cases and digits (an object store's
/// pre-authenticated `/p/gEGXyak4…/n/…/b/…/o/…`): 330 bits or more, more than any
/// identifier carries (a UUID is 122, a Drive id about 200, a SHA-256 in base64 256), and less
/// than a public signature's 88 base58 characters. A random draw that long in an address is
/// the address's key.
fn long_drawn_segment(seg: &str) -> bool {
    (56..=80).contains(&seg.len())
        && seg
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        && strongly_generated(seg, 56)
}

/// An HMAC-SHA1's or -SHA256's URL-safe base64 without its padding (27 or 43 characters),
/// before the processing options it signs (imgproxy's `/SIG/rs:fill:960:240/g:sm/…`): the
/// options, `name:value` pairs, say what the first segment is.
fn unpadded_hmac(seg: &str, next: &str) -> bool {
    (seg.len() == 27 || seg.len() == 43)
        && seg
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        && strongly_generated(seg, 27)
        && next.contains(':')
        && next.starts_with(|c: char| c.is_ascii_lowercase())
        && next
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b':' | b'_' | b'-' | b'.' | b','))
}

/// Base64 (URL alphabet too) of 20 or 32 bytes with its padding, in both cases and with digits:
/// an HMAC-SHA1's or -SHA256's output.
fn hmac_base64(seg: &str) -> bool {
    (seg.len() == 28 || seg.len() == 44)
        && seg.ends_with('=')
        && !seg.ends_with("==")
        && seg.bytes().any(|c| c.is_ascii_uppercase())
        && seg.bytes().any(|c| c.is_ascii_lowercase())
        && seg.bytes().any(|c| c.is_ascii_digit())
        && plausible::base64_decode(seg).is_some_and(|b| b.len() == 20 || b.len() == 32)
}

/// A setting's name and its value given by two options (`--name node.session.auth.password
/// --value=…`, `-n … -v …`): the value of a setting whose name names a credential.
fn name_then_value(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !contains_any_case(text, b"value") && !text.contains(" -v ") {
        return out;
    }
    for (start, line) in lines_at(text) {
        // Tool output says `value` often; only its lines are split into words.
        if !contains_any_case(line, b"value") && !line.contains(" -v ") {
            continue;
        }
        let words = words_at(line);
        let mut named: Option<&str> = None;
        for (k, &(i, w)) in words.iter().enumerate() {
            let (flag, attached) = match w.split_once('=') {
                Some((f, v)) if f.starts_with('-') => (f, Some((i + f.len() + 1, v))),
                _ => (w, None),
            };
            let next = || words.get(k + 1).map(|&(j, v)| (j, v));
            match flag.trim_start_matches('-') {
                "name" | "key" | "n" | "param" | "parameter" | "setting" | "attribute" => {
                    named = attached.or_else(next).map(|(_, v)| v).filter(|v| {
                        let last = v.rsplit(['.', '/', ':']).next().unwrap_or(v);
                        names_credential(last)
                    });
                }
                "value" | "val" | "v" => {
                    if let (Some(name), Some((j, v))) = (named, attached.or_else(next)) {
                        let quoted = v.starts_with(['"', '\'']);
                        let inner = v.trim_matches(['"', '\'']);
                        if generated_beside(name, inner, false, quoted) {
                            let s = start + j + usize::from(quoted);
                            out.push((s, s + inner.len()));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// A map named for a server's users or accounts, each member a user's name and a password
/// (Orthanc's `"RegisteredUsers": {"bridge": "BxQ3…"}`, a `basic_auth_users` table, the same
/// JSON inside an environment variable): each value only a generator writes.
fn users_map(text: &str) -> Vec<(usize, usize)> {
    const NAMES: [&[u8]; 4] = [b"users", b"accounts", b"logins", b"credentials"];
    let mut out = Vec::new();
    let lower = text.as_bytes().to_ascii_lowercase();
    if !NAMES
        .iter()
        .any(|n| memchr::memmem::find(&lower, n).is_some())
    {
        return out;
    }
    for name in NAMES {
        for at in memchr::memmem::find_iter(&lower, name) {
            let end = at + name.len();
            if lower.get(end).is_some_and(|&c| is_name_byte(c)) {
                continue;
            }
            // `name": {`, `name = {`, `NAME: '{`: the map opens right after the name.
            let rest = &lower[end..];
            let skip = rest
                .iter()
                .take_while(|c| matches!(c, b'"' | b'\'' | b' ' | b'\t' | b':' | b'='))
                .count();
            if !rest[..skip].iter().any(|c| matches!(c, b':' | b'='))
                || rest.get(skip) != Some(&b'{')
            {
                continue;
            }
            let open = end + skip + 1;
            let Some(close) = text[open..].find('}').map(|k| open + k) else {
                continue;
            };
            for (s, e) in quoted_member_values(text, open, close) {
                if strongly_generated(&text[s..e], 10) {
                    out.push((s, e));
                }
            }
        }
    }
    out
}

/// The spans of the quoted values of `"key": "value"` members between `open` and `close`.
fn quoted_member_values(text: &str, open: usize, close: usize) -> Vec<(usize, usize)> {
    let b = &text.as_bytes()[..close];
    // The next quote (either kind) at or after `from`, and the one that closes it.
    let quote = |from: usize| {
        b[from..]
            .iter()
            .position(|&c| c == b'"' || c == b'\'')
            .map(|k| from + k)
    };
    let closing = |q: usize| {
        let kind = b[q];
        b[q + 1..]
            .iter()
            .position(|&c| c == kind)
            .map(|k| q + 1 + k)
    };
    let unblank = |from: usize| {
        from + b[from..]
            .iter()
            .take_while(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
            .count()
    };
    let mut out = Vec::new();
    let mut i = open;
    // A key (a quoted string), a colon, then a quoted value (JSON's `"…"`, JavaScript's and
    // Python's `'…'` too).
    while let Some(q) = quote(i) {
        let Some(kq) = closing(q) else { break };
        let colon = unblank(kq + 1);
        if b.get(colon) != Some(&b':') {
            i = kq + 1;
            continue;
        }
        let j = unblank(colon + 1);
        if !matches!(b.get(j), Some(b'"' | b'\'')) {
            i = j;
            continue;
        }
        let Some(vq) = closing(j) else { break };
        out.push((j + 1, vq));
        i = vq + 1;
    }
    out
}

/// A login given as its two words, the user's name then the password (`steamcmd +login
/// builder DQT-h5mq…`, `ftp> login ana k0BH…`, IRC's `/msg NickServ IDENTIFY nick …`): the
/// second, when only a generator writes it; after `IDENTIFY` the password may come alone.
fn login_pair(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let logs_in = |t: &str| contains_any_case(t, b"login") || contains_any_case(t, b"identify");
    if !logs_in(text) {
        return out;
    }
    for (start, line) in lines_at(text) {
        if !logs_in(line) {
            continue;
        }
        let words = words_at(line);
        // `IDENTIFY PASSWORD`, ending the line.
        if let [.., (_, verb), (i, pass)] = words.as_slice()
            && verb.eq_ignore_ascii_case("identify")
            && !pass.contains([':', '@', '/', '"', '\'', '='])
            && strongly_generated(pass.trim_end(), 8)
        {
            let pass = pass.trim_end();
            out.push((start + i, start + i + pass.len()));
        }
        for k in 0..words.len().saturating_sub(2) {
            let verb = words[k].1.trim_start_matches(['+', '-']);
            let verb = if verb.eq_ignore_ascii_case("identify") {
                "login"
            } else {
                verb
            };
            let (user, (i, pass)) = (words[k + 1].1, words[k + 2]);
            let plain = |w: &str| {
                !w.starts_with(['-', '+', '$', '<', '{', '/'])
                    && w.bytes()
                        .all(|c| c.is_ascii_graphic() && !matches!(c, b'"' | b'\'' | b'='))
            };
            // Ending the line, the pair is the whole of what `login` was given (a ServerQuery
            // or FTP session's `login serveradmin LY5m…`): shorter generated values count.
            let min = if k + 3 == words.len() { 8 } else { 10 };
            if verb.eq_ignore_ascii_case("login")
                && plain(user)
                && user.len() <= 32
                && plain(pass)
                && !pass.contains([':', '@', '/'])
                && strongly_generated(pass, min)
            {
                out.push((start + i, start + i + pass.len()));
            }
        }
    }
    out
}

/// An IPv4 address, with a port or not (`10.20.0.52`, `192.168.1.5:623`).
fn ipv4(w: &str) -> bool {
    let host = w.split_once(':').map_or(w, |(h, _)| h);
    host.split('.').count() == 4
        && host
            .split('.')
            .all(|p| (1..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
}

/// A login handed to a command after the address it opens, as words (`mc alias set store
/// http://minio.lan:9000 admin y-nkYSq6…`, a client's `connect URL USER PASSWORD`): a URL, a
/// user's name, then a value only a generator writes, ending the command or before its next
/// flag.
fn url_user_value(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Or a host's address alone (`SMCIPMITool 10.20.0.52 ADMIN …`): a dot between digits.
    let addressed = |t: &str| {
        t.contains("://")
            || t.as_bytes()
                .windows(3)
                .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
    };
    if !addressed(text) {
        return out;
    }
    for (start, line) in lines_at(text) {
        if !addressed(line) {
            continue;
        }
        let words = words_at(line);
        for k in 0..words.len().saturating_sub(2) {
            let (url, user, (i, pass)) = (words[k].1, words[k + 1].1, words[k + 2]);
            // Ending the command, or before its next flag; after an address alone, a
            // subcommand may follow (`SMCIPMITool 10.20.0.52 ADMIN … ipmi power status`).
            let last = words.get(k + 3).is_none_or(|(_, w)| {
                w.starts_with('-')
                    || matches!(*w, "&&" | "|" | ";")
                    || ipv4(url) && w.bytes().all(|b| b.is_ascii_lowercase())
            });
            // A controller's user is often in capitals (`ADMIN`, `USERID`).
            let user_ok = user_name(user)
                || (3..=32).contains(&user.len())
                    && user
                        .bytes()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_');
            if (url.contains("://") || ipv4(url))
                && !url.starts_with(['"', '\''])
                && user_ok
                && user.len() <= 32
                && last
                && !pass.starts_with(['-', '$', '<', '{', '/'])
                && !pass.contains([':', '@', '/', '"', '\'', '='])
                && strongly_generated(pass, 10)
            {
                out.push((start + i, start + i + pass.len()));
            }
        }
    }
    out
}

/// A command that stores what it reads from its input under a credential's name (`vercel env
/// add DATABASE_PASSWORD production`, `systemd-creds encrypt --name=…-api-token -`), or is told
/// to read a key from it (`wg set … preshared-key /dev/stdin`).
fn stores_under_a_credential(cmd: &str) -> bool {
    const NAMES: &[&str] = &["password", "passwd", "secret", "token", "apikey"];
    const KEYS: &[&str] = &["key", "psk", "secret", "password", "passphrase", "token"];
    let ws: Vec<&str> = cmd.split_whitespace().collect();
    let named = ws
        .iter()
        .any(|w| matches!(*w, "add" | "set" | "create" | "put" | "store" | "encrypt"))
        && ws
            .iter()
            .any(|w| text::words(w).iter().any(|p| NAMES.contains(&p.as_str())));
    named
        || ws.windows(2).any(|p| {
            p[1] == "/dev/stdin" && text::words(p[0]).iter().any(|w| KEYS.contains(&w.as_str()))
                // Copied from its input into a file kept for a credential (`sudo install -m
                // 0600 /dev/stdin /etc/credstore/acme-api-token`, `tee ~/.acme.pass`).
                || matches!(p[0], "/dev/stdin" | "tee" | "-a") && stores_credential(p[1])
        })
}

/// A value printed into the file the shell makes for an option naming a key (`wg set wg0 peer
/// … preshared-key <(printf '%s' '…')`, `--password-file=<(echo …)`): the program reads the
/// credential from it.
fn substituted_key_files(text: &str) -> Vec<(usize, usize)> {
    const KEYS: &[&str] = &[
        "key",
        "psk",
        "secret",
        "password",
        "passwd",
        "passphrase",
        "token",
        "credential",
        "credentials",
    ];
    let mut out = Vec::new();
    for (open, _) in text.match_indices("<(") {
        let name = text[..open]
            .trim_end()
            .trim_end_matches('=')
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or_default();
        if !text::words(name).iter().any(|w| KEYS.contains(&w.as_str())) {
            continue;
        }
        let inner = &text[open + 2..];
        let Some(close) = inner.find(')') else {
            continue;
        };
        let printers = ["echo -n ", "echo ", "printf '%s' ", "printf %s ", "printf "];
        let Some((value_at, v, quoted)) = echoed_value(&inner[..close], &printers) else {
            continue;
        };
        if v.len() >= 8
            && !v.contains(char::is_whitespace)
            && !plausible::is_placeholder(v)
            && (generated_beside("secret", v, false, quoted)
                || plausible::plausible_assignment(name, v, Written::Quoted))
        {
            let s = open + 2 + value_at;
            out.push((s, s + v.len()));
        }
    }
    out
}

/// A password echoed into a program told to read it from its input (`echo '…' | sshfs -o
/// password_stdin`, `printf %s … | acme login --password-stdin`, `… | sudo -S …`), or a value echoed into a
/// command that stores a secret (`printf '%s' '…' | docker secret create NAME -`, `… | acme
/// secrets set KEY`).
fn piped_password(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !contains_any_case(text, b"stdin")
        && !contains_any_case(text, b"secret")
        && !contains_any_case(text, b"login")
        && !contains_any_case(text, b"pass")
        && !contains_any_case(text, b"init")
        && !text.contains("sudo")
    {
        return out;
    }
    for (start, line) in lines_at(text) {
        // The pipe the shell sees, not one inside the quoted value (`'758|pvlb…'`, an id and
        // its token).
        let Some(pipe) = unquoted_pipe(line) else {
            continue;
        };
        let after = &line[pipe..];
        // A login reads what it is not given as an argument from its input (`echo TOKEN | az
        // devops login --organization …`, `… | acme login`): the line echoed is the secret.
        let logs_in = contains_any_case(after, b"login")
            && after
                .split(['&', ';', '|'])
                .nth(1)
                .is_some_and(|cmd| cmd.split_whitespace().skip(1).take(3).any(|w| w == "login"));
        let next = after.split(['&', ';', '|']).nth(1);
        let stores = next.is_some_and(stores_under_a_credential)
            || contains_any_case(after, b"secret") && {
                let ws: Vec<String> = text::words(after);
                ws.iter()
                    .position(|w| w == "secret" || w == "secrets")
                    .is_some_and(|i| {
                        ws[i + 1..].iter().take(2).any(|w| {
                            matches!(w.as_str(), "create" | "set" | "put" | "add" | "store")
                        }) || ws[..i].iter().rev().take(1).any(|w| {
                            matches!(w.as_str(), "create" | "set" | "put" | "add" | "store")
                        })
                    })
            };
        // `sudo -S` reads the password from its input (`echo '…' | sudo -S systemctl …`).
        let sudo_stdin = after.split(['&', ';', '|']).nth(1).is_some_and(|cmd| {
            let mut ws = cmd.split_whitespace();
            ws.next() == Some("sudo")
                && ws
                    .take_while(|w| w.starts_with('-'))
                    .any(|w| w == "--stdin" || !w.starts_with("--") && w.contains('S'))
        });
        // A program named for passwords reads them from its input (`echo 'pi:…' | sudo
        // chpasswd`, `… | smbpasswd -s`, `… | htpasswd -i FILE USER`).
        // And a password store, which takes a new entry or its master password there (`… |
        // pass insert -e NAME`, `… | keepassxc-cli show -s DB ENTRY`).
        // And a program named for starting a session with it (Kerberos' `kinit`, iRODS'
        // `iinit`), which reads the password there.
        let password_program = after.split(['&', ';', '|']).nth(1).is_some_and(|cmd| {
            cmd.split_whitespace()
                .find(|w| *w != "sudo" && !w.starts_with('-'))
                .is_some_and(|w| {
                    let name = w.rsplit('/').next().unwrap_or(w);
                    password_store(name) || name.len() <= 6 && name.ends_with("init")
                })
        });
        if !(stores
            || logs_in
            || sudo_stdin
            || password_program
            || contains_any_case(after, b"password_stdin")
            || contains_any_case(after, b"password-stdin")
            || contains_any_case(after, b"passwordstdin"))
        {
            continue;
        }
        let before = line[..pipe].trim_end();
        let printers = ["echo -n ", "echo ", "printf '%s' ", "printf %s ", "printf "];
        let Some((value_at, mut v, quoted)) = echoed_value(before, &printers) else {
            continue;
        };
        let mut at = start + value_at;
        // `chpasswd` reads `user:password` lines: the password is after the colon.
        if password_program && let Some((user, pass)) = v.split_once(':') {
            at += user.len() + 1;
            v = pass;
        }
        let name = if stores {
            "secret"
        } else if logs_in {
            "token"
        } else {
            "password"
        };
        // Stored as a secret, a value is one whatever its shape (a hex key, a provider's
        // prefix before hex): the command says so.
        if stores && stored_setting(after, v) {
            continue;
        }
        let stored = stores && v.len() >= 8 && !crate::plausible::is_placeholder(v);
        if !v.contains(char::is_whitespace) && (stored || generated_beside(name, v, false, quoted))
        {
            out.push((at, at + v.len()));
        }
    }
    out
}

/// A setting a secret store keeps beside its secrets: stored under a name, last on the line,
/// that says it is something else (`…_BASE_URL`, `…_BUILD_SHA`, `…_INSTANCE_ID`), or an
/// address.
fn stored_setting(command: &str, value: &str) -> bool {
    let stored_as = command.split_whitespace().last().unwrap_or_default();
    crate::plausible::looks_like_url(value)
        || stored_as.len() > 2
            && stored_as
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            && crate::plausible::name_rules_out(stored_as)
}

/// Where a line's first pipe stands outside quotes, if it has one.
fn unquoted_pipe(line: &str) -> Option<usize> {
    let mut quote: Option<u8> = None;
    for (i, b) in line.bytes().enumerate() {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'\'' | b'"') => quote = Some(b),
            (None, b'|') => return Some(i),
            _ => {}
        }
    }
    None
}

/// Whether a program is named for passwords (`chpasswd`, `smbpasswd`, `htpasswd`) or is a
/// password store (`pass`, `gopass`, `keepassxc-cli`): what it reads from its input is one.
fn password_store(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("passw")
        || lower.contains("keepass")
        || lower
            .split(['-', '_', '.'])
            .any(|p| p == "pass" || p.len() <= 6 && p.ends_with("pass"))
}

/// The generated credential in the flag value at `i`, after a user and `:` or `%`.
fn credential_in(text: &str, i: usize) -> Option<(usize, usize)> {
    value_in(text, i, false)
}

/// A password flag's value (`-P …`, `-p…`): a generated password may hold `=` and an `@` that
/// opens no host (`A822f.=Jz8MB@LWLjGGc`, `JME4Pw3AvJfaLb_j@S.`), where another flag's `=` is
/// a setting's (`-o key=value`).
fn password_in(text: &str, i: usize) -> Option<(usize, usize)> {
    value_in(text, i, true)
}

fn value_in(text: &str, i: usize, password: bool) -> Option<(usize, usize)> {
    let b = text.as_bytes();
    let mut e = i;
    while e < b.len() && !b[e].is_ascii_whitespace() && !matches!(b[e], b'"' | b'\'') {
        e += 1;
    }
    let value = text.get(i..e)?;
    // `user%password`, `user:password`; a value generated whole keeps its `%` (`-xp
    // '9JCVK4MV6pX%Q1Yl'`).
    let user_like = |u: &str| {
        u.starts_with(|c: char| c.is_ascii_lowercase())
            && u.bytes().all(|c| {
                c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'_' | b'-' | b'.')
            })
    };
    let whole = !value.contains(':')
        && value.split_once('%').is_some_and(|(u, _)| !user_like(u))
        && strongly_generated(value.trim_end_matches([';', ',', ')']), 12);
    let (s, v) = match value.find([':', '%']) {
        Some(cut)
            if !whole
                && value[..cut]
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
                && cut > 0 =>
        {
            (i + cut + 1, &value[cut + 1..])
        }
        _ => (i, value),
    };
    let v = v.trim_end_matches([';', ',', ')']);
    // An `@` inside a generated value (`-pw qOo~jGsjN@DMR0`), not an address's (`dev@host.lan`,
    // `u@localhost`).
    let address = v.split_once('@').is_some_and(|(_, host)| {
        let named = host
            .rsplit_once('.')
            .is_some_and(|(head, tld)| !head.is_empty() && tld.len() >= 2);
        named
            || !password && host.contains('.')
            || host.eq_ignore_ascii_case("localhost")
            || host.is_empty()
    });
    let setting = v.contains('=') && !(password && strongly_generated(v, 12));
    // A path into data (`jq -r ".Results[0].Text"`, `-q .items[].name`) is an expression.
    let ok = !setting
        && !v.contains(['/', '$', ':', '\\', '{', '}', '<', '>', ',', '[', ']'])
        && !address
        && !v.starts_with('-')
        && !value.starts_with('.')
        && !file_name(v)
        && (strongly_generated(v, 10) || typed_password(v));
    ok.then_some((s, s + v.len()))
}

/// What a person types as a password where a flag asks for one: ten or more characters,
/// lower case with a capital and two digits, a dot or a dash between (`etYip3nx.s3uv859`), and
/// no word or identifier in it. A generator's bar (two capitals) is too high for it.
fn typed_password(v: &str) -> bool {
    let count = |f: fn(&u8) -> bool| v.as_bytes().iter().filter(|c| f(c)).count();
    v.len() >= 10
        && count(u8::is_ascii_uppercase) >= 1
        && count(u8::is_ascii_lowercase) >= 4
        && count(u8::is_ascii_digit) >= 2
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b'_'))
        && !identifier_words(&v.replace(['.', '-', '_'], ""))
        && !spells_a_word(v)
        && !plausible::is_placeholder(v)
        && !plausible::looks_like_version(v)
}

/// The base32 seed of a one-time password at `i`, when the line of the flag at `flag` names
/// one (`totp`, `hotp`, `otp`): a run of 16 or more capitals and digits 2 to 7, with a digit.
fn otp_seed(text: &str, flag: usize, i: usize) -> Option<(usize, usize)> {
    // The value first: every short flag of every text comes here, few hold such a run.
    let b = text.as_bytes();
    let e = i + b[i..]
        .iter()
        .take_while(|c| c.is_ascii_uppercase() || (b'2'..=b'7').contains(c))
        .count();
    let ends = b
        .get(e)
        .is_none_or(|c| c.is_ascii_whitespace() || matches!(c, b'"' | b'\''));
    let v = &text[i..e];
    if !(ends && v.len() >= 16 && v.bytes().any(|c| c.is_ascii_digit())) {
        return None;
    }
    let line_start = text[..flag].rfind('\n').map_or(0, |k| k + 1);
    let line_end = text[flag..].find('\n').map_or(text.len(), |k| flag + k);
    let line = text[line_start..line_end].to_ascii_lowercase();
    (line.contains("totp") || line.contains("hotp") || line.contains("otp ")).then_some((i, e))
}

/// A file's name (`HP_LJ_M507_2406.1.0.bdl.sha256` after `sha256sum -c`): a stem, then a short
/// extension of lower-case letters and digits that starts with a letter. A generated password
/// ends so only by chance.
fn file_name(v: &str) -> bool {
    v.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (2..=6).contains(&ext.len())
            && ext.starts_with(|c: char| c.is_ascii_lowercase())
            && ext
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    })
}

/// `user:password` written as one word (`relay-acme:i7_D7…`, `login=edge01:h3RE…`,
/// `ci-bot:'6j3M…'`): a user's name, a colon, and a value only a generator writes. The span
/// is the password's.
fn pairs(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(off) = b[from..].iter().position(|&c| c == b':') {
        let colon = from + off;
        from = colon + 1;
        let user_len = b[..colon]
            .iter()
            .rev()
            .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'@'))
            .count();
        let user = &text[colon - user_len..colon];
        // A label is no user: a digest's or an encoding's name (`h1:`, `SHA256:`, `iv:`), an
        // id's (`consentid:`).
        // Handed to a base64 encoder (`b64encode(b"ID:SECRET")`, `btoa("ID:SECRET")`), the
        // pair is a Basic credential, whatever its id looks like (`76ESJE`, a UUID).
        let encoded = user_len > 0 && encoder_argument(&text[..colon - user_len]);
        let label = user.len() <= 3
            || user.ends_with(|c: char| c.is_ascii_digit())
            || !user.bytes().any(|c| c.is_ascii_lowercase())
            || plausible::name_rules_out(user)
            || user.to_ascii_lowercase().ends_with("id");
        // A name after another colon is a namespace's part (`spotify:track:…`, `urn:isbn:…`),
        // not a user.
        let namespaced = colon > user_len && b[colon - user_len - 1] == b':';
        if user_len == 0
            || user_len > 40
            || !encoded && (!b[colon - user_len].is_ascii_alphabetic() || label || namespaced)
        {
            continue;
        }
        let mut s = colon + 1;
        let quote = matches!(b.get(s), Some(b'"' | b'\''));
        s += usize::from(quote);
        let mut e = s;
        while e < b.len()
            && !b[e].is_ascii_whitespace()
            && !matches!(
                b[e],
                b'"' | b'\'' | b'@' | b':' | b'/' | b',' | b';' | b')' | b'}' | b']'
            )
        {
            e += 1;
        }
        // `scheme://user:pass@host` is the URL rule's; base64's padding ends a digest or a
        // ciphertext. Without a scheme, `user:pass@host` is a pair all the same.
        let in_url = text[..colon - user_len].ends_with("//");
        // A URL's path holds no credential (`otpauth://totp/Issuer:account?…`): its authority
        // does, before the `@`.
        let in_url_path = !in_url
            && text[..colon - user_len].ends_with('/')
            && text[..colon - user_len]
                .rsplit(char::is_whitespace)
                .next()
                .is_some_and(|t| t.contains("://"));
        if in_url_path
            || matches!(b.get(e), Some(b':' | b'/'))
            || b.get(e) == Some(&b'@') && in_url
            || e > s && b[e - 1] == b'='
        {
            continue;
        }
        // A hex secret is a digest's shape elsewhere, not inside a Basic credential.
        let encoded_hex = |v: &str| {
            encoded
                && v.len() >= 16
                && v.bytes().all(|c| c.is_ascii_hexdigit())
                && v.bytes().any(|c| c.is_ascii_digit())
                && v.bytes().any(|c| c.is_ascii_alphabetic())
        };
        if text.is_char_boundary(s)
            && text.is_char_boundary(e)
            && (strongly_generated(&text[s..e], 10) || encoded_hex(&text[s..e]))
        {
            out.push((s, e));
        }
    }
    out
}

/// Whether `before` ends where a string given to a base64 encoder starts: an opening quote
/// (with Python's `b` prefix), after `(` and a function's name that says base64.
fn encoder_argument(before: &str) -> bool {
    let Some(open) = before.strip_suffix(['"', '\'']) else {
        return false;
    };
    let open = open.strip_suffix('b').unwrap_or(open);
    let Some(call) = open.trim_end().strip_suffix('(') else {
        return false;
    };
    let call = call.trim_end();
    // The name is ASCII; whatever ends before it may be any character, of any width.
    let start = call
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':')))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let name = call[start..].to_ascii_lowercase();
    name.contains("b64") || name.contains("base64") || name.ends_with("btoa")
}

/// The cells of a table's column whose header names a credential (a password manager's CSV
/// export, a Markdown table of accounts, a CSV of services and their tokens): each cell that
/// reads as generated.
fn table_cells(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut column: Option<Header> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let Some(delim) = [b',', b'|', b'\t']
            .into_iter()
            .find(|d| body.as_bytes().contains(d))
        else {
            column = None;
            continue;
        };
        // Only a row under a found header, or a line that can be one (a header names a
        // password, a token, a secret or a value), is split into cells: most delimited lines
        // are neither.
        if column.is_none()
            && !passwordish(body)
            && !contains_any_case(body, b"token")
            && !contains_any_case(body, b"secret")
            && !contains_any_case(body, b"cred")
            && !contains_any_case(body, b"value")
            && !contains_any_case(body, b"private")
            && !contains_any_case(body, b"key")
        {
            continue;
        }
        let cells = cells(body, delim);
        if let Some(header) = &column
            && header.delim == delim
            && cells.len() == header.cells
        {
            let found = match &header.kind {
                Column::Credential(k, name) => {
                    let cell = unticked(body, cells[*k]);
                    credential_cell(body, cell, name)
                        .then_some(cell)
                        .or_else(|| secret_after_an_id(body, cell, name))
                }
                Column::Value(k) => named_in_row(body, &cells, *k),
            };
            if let Some((s, e)) = found {
                out.push((start + s, start + e));
            }
            continue;
        }
        column = header(body, &cells, delim);
    }
    out
}

/// A table's header: its delimiter, how many cells a row under it has, and which column
/// holds a credential.
struct Header {
    delim: u8,
    cells: usize,
    kind: Column,
}

enum Column {
    /// A column named for a credential (`user,password,host`).
    Credential(usize, String),
    /// A key-value table's value column (`service,variable,value,updated_at`, as a settings
    /// export writes one setting a row): a row's own cell before it names what the value is.
    Value(usize),
}

/// `body` read as a header: three columns or more, each a short name.
fn header(body: &str, cells: &[(usize, usize)], delim: u8) -> Option<Header> {
    // (Or two, a key-value table's: `| setting | value |`, checked below.)
    let named = cells.iter().filter(|&&(s, e)| e > s).count();
    let header_like = named >= 2
        && cells
            .iter()
            .all(|&(s, e)| e - s <= 32 && !body[s..e].contains("  "));
    if !header_like {
        return None;
    }
    let name = |k: usize| &body[cells[k].0..cells[k].1];
    // (Or a private key's: `vapid_private_key`, beside its public one.)
    let private_key = |h: &str| {
        let words = text::words(h);
        words.windows(2).any(|w| w[0] == "private" && w[1] == "key")
    };
    let credential = (0..cells.len()).find(|&k| {
        let h = name(k);
        h.bytes().any(|c| c.is_ascii_alphabetic())
            && (names_credential(h)
                && (passwordish(h) || names_a_token_word(h) || names_a_key_column(h))
                || private_key(h))
    });
    // A table that records when each value was rotated holds credentials in its value column
    // (`| Env | Upstream | Value | Rotated |`): what is rotated is a secret.
    let rotated = || {
        (0..cells.len()).any(|k| {
            text::words(name(k))
                .iter()
                .any(|w| matches!(w.as_str(), "rotated" | "rotation" | "rotate"))
        })
    };
    let value_column = || {
        (0..cells.len()).find(|&k| {
            text::words(name(k))
                .last()
                .is_some_and(|w| w == "value" || w == "val")
        })
    };
    let credential = credential.map(|k| (k, name(k).to_string())).or_else(|| {
        value_column()
            .filter(|_| rotated())
            .map(|k| (k, "secret".into()))
    });
    let kind = match credential {
        Some((k, name)) if named >= 3 => Column::Credential(k, name),
        Some(_) => return None,
        // The value column comes after a column that names it: `value` alone or as a name's
        // last word (`setting_value`).
        None => Column::Value((1..cells.len()).find(|&k| {
            text::words(name(k))
                .last()
                .is_some_and(|w| w == "value" || w == "val")
        })?),
    };
    Some(Header {
        delim,
        cells: cells.len(),
        kind,
    })
}

/// A cell under a credential's column: a value, not a sentence; a generated password mixes
/// more than a word with a number in it does (`sha256sum`).
fn credential_cell(body: &str, (s, e): (usize, usize), name: &str) -> bool {
    let v = &body[s..e];
    let mixed_more = v.bytes().any(|c| c.is_ascii_uppercase())
        && v.bytes().any(|c| c.is_ascii_lowercase())
        || v.bytes()
            .any(|c| c.is_ascii_punctuation() && !matches!(c, b'_' | b'-' | b'.'));
    // A long run of letters and digits mixed (a hex key, `64d3f5…`), or a UUID, is generated
    // too: a word with a number in it is short.
    let long_mixed = v.len() >= 24
        && v.bytes().all(|c| c.is_ascii_alphanumeric())
        && v.bytes().filter(u8::is_ascii_digit).count() >= 4
        && v.bytes().filter(u8::is_ascii_alphabetic).count() >= 4
        || plausible::is_uuid(v);
    !v.contains(char::is_whitespace)
        && (mixed_more || long_mixed)
        && generated_beside(name, v, false, true)
}

/// A key's column named for what it is (`realtime_key`, `access_key`): two words or more, the
/// last `key`. (A key-value table's `key` alone names settings.)
fn names_a_key_column(name: &str) -> bool {
    let parts = text::words(name);
    parts.len() >= 2 && parts.last().is_some_and(|p| p == "key")
}

/// A cell of an id and a secret joined by `:` (`49LlHu.lmOcY2:svfQ…`, as some services write a
/// key): the secret after it, when it reads as generated.
fn secret_after_an_id(body: &str, (s, e): (usize, usize), name: &str) -> Option<(usize, usize)> {
    let (_, secret) = body[s..e].rsplit_once(':')?;
    let at = e - secret.len();
    (secret.len() >= 20 && credential_cell(body, (at, e), name)).then_some((at, e))
}

/// The value cell `k` of a key-value row, when the nearest cell before it names a
/// credential (`wedgepin-api,EVERHOUR_API_TOKEN,bb08-5775-…`): judged as a value assigned
/// to that name.
fn named_in_row(body: &str, cells: &[(usize, usize)], k: usize) -> Option<(usize, usize)> {
    // A cell written as code (`| `box_secret_key` | `mHCn…=` |`): what is inside the backticks.
    let (s, e) = unticked(body, cells[k]);
    let v = &body[s..e];
    let name = cells[..k]
        .iter()
        .rev()
        .map(|&c| {
            let (s, e) = unticked(body, c);
            &body[s..e]
        })
        .find(|c| !c.is_empty())?;
    (names_credential(name)
        && !v.contains(char::is_whitespace)
        && plausible::plausible_assignment(name, v, Written::Bare))
    .then_some((s, e))
}

/// A cell without the backticks a Markdown table writes code in, or a CSV's quotes.
fn unticked(body: &str, (s, e): (usize, usize)) -> (usize, usize) {
    let v = &body[s..e];
    let around = |q: char| v.starts_with(q) && v.ends_with(q);
    if v.len() >= 2 && (around('`') || around('"') || around('\'')) {
        (s + 1, e - 1)
    } else {
        (s, e)
    }
}

/// The credentials SQL statements store: [`inserted_values`] and [`updated_settings`].
fn sql_values(text: &str) -> Vec<(usize, usize)> {
    let mut out = inserted_values(text);
    out.extend(updated_settings(text));
    out
}

/// The values an SQL `INSERT` gives a column whose name names a credential (`INSERT INTO
/// integrations (name, api_key) VALUES ('port', '122c…')`): the column list says what each
/// position holds, as a table's header does, for every row the statement inserts. A value is
/// judged as one assigned to that name.
fn inserted_values(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !contains_any_case(text, b"values") {
        return out;
    }
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("values") {
        let v = from + at;
        from = v + "values".len();
        // The column list closes right before `VALUES`.
        let before = text[..v].trim_end();
        let Some(open) = before.strip_suffix(')').and_then(|list| list.rfind('(')) else {
            continue;
        };
        let columns: Vec<&str> = before[open + 1..before.len() - 1]
            .split(',')
            .map(|c| c.trim().trim_matches(['`', '"', '\'', '[', ']']))
            .collect();
        let Some(k) = columns
            .iter()
            .position(|h| names_credential(h) && (passwordish(h) || names_a_token_word(h)))
        else {
            continue;
        };
        // Every row: `VALUES (…), (…)`.
        let mut at = from;
        loop {
            at += text[at..].len()
                - text[at..]
                    .trim_start_matches([' ', '\t', '\r', '\n', ','])
                    .len();
            let Some((cells, end)) = sql_row(text, at) else {
                break;
            };
            if let Some(&(s, e)) = cells.get(k)
                && plausible::plausible_assignment(columns[k], &text[s..e], Written::Quoted)
            {
                out.push((s, e));
            }
            at = end;
        }
    }
    out
}

/// The value an SQL `UPDATE` gives a key-value settings table, when its `WHERE` names the
/// setting for a credential (`UPDATE integration_settings SET val = '…' WHERE k =
/// 'acme.auth'`, WordPress's `SET option_value = '…' WHERE option_name = 'stripe_secret_key'`):
/// judged as a value assigned to that name. Only a column named for a value (`val`,
/// `option_value`) counts; a column named for a credential is the assignment rules'.
fn updated_settings(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !contains_any_case(text, b"update") || !contains_any_case(text, b"where") {
        return out;
    }
    let lower = text.to_ascii_lowercase();
    // Statement by statement, each read once: from an `UPDATE` to its `;` (or the text's end).
    let mut from = 0;
    while let Some(at) = lower[from..].find("update") {
        let update = from + at;
        let end = lower[update..]
            .find(';')
            .map_or(lower.len(), |e| update + e);
        from = end;
        let Some(set) = lower[update..end]
            .find("set ")
            .map(|s| update + s + "set ".len())
        else {
            continue;
        };
        let Some(w) = lower[set..end].find("where") else {
            continue;
        };
        let (assigned, condition) = (set..set + w, set + w..end);
        let Some(name) = quoted_spans(text, condition)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .find(|n| plausible::names_a_credential(n))
        else {
            continue;
        };
        for piece in quoted_spans(text, assigned.clone()) {
            let before = text[assigned.start..piece.0 - 1].trim_end();
            let Some(column) = before.strip_suffix('=') else {
                continue;
            };
            let column = column
                .rsplit([',', ' ', '\t', '\n'])
                .find(|c| !c.is_empty())
                .unwrap_or_default();
            let value_column = text::words(column)
                .last()
                .is_some_and(|w| matches!(w.as_str(), "val" | "value" | "v"));
            if value_column
                && plausible::plausible_assignment(name, &text[piece.0..piece.1], Written::Quoted)
            {
                out.push(piece);
            }
        }
    }
    out
}

/// The spans inside the single-quoted SQL strings of `range` (a quote written twice is one).
fn quoted_spans(text: &str, range: std::ops::Range<usize>) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = range.start;
    while i < range.end {
        if b[i] != b'\'' {
            i += 1;
            continue;
        }
        let start = i + 1;
        let mut j = start;
        while j < range.end && (b[j] != b'\'' || b.get(j + 1) == Some(&b'\'')) {
            j += if b[j] == b'\'' { 2 } else { 1 };
        }
        if j >= range.end {
            break;
        }
        out.push((start, j));
        i = j + 1;
    }
    out
}

/// The quoted values of the parenthesised row opening at `at` (`('a', 'it''s', 3)`), each as
/// the span inside its quotes (a bare value is an empty span), and where the row ends.
fn sql_row(text: &str, at: usize) -> Option<(Vec<(usize, usize)>, usize)> {
    let b = text.as_bytes();
    if b.get(at) != Some(&b'(') {
        return None;
    }
    let mut cells = Vec::new();
    let mut i = at + 1;
    let mut cell = (i, i);
    while i < b.len() {
        match b[i] {
            q @ (b'\'' | b'"') => {
                let start = i + 1;
                let mut j = start;
                // A quote is written twice inside (`'it''s'`).
                while j < b.len() && (b[j] != q || b.get(j + 1) == Some(&q)) {
                    j += if b[j] == q { 2 } else { 1 };
                }
                cell = (start, j.min(b.len()));
                i = j + 1;
            }
            b',' => {
                cells.push(cell);
                i += 1;
                cell = (i, i);
            }
            b')' => {
                cells.push(cell);
                return Some((cells, i + 1));
            }
            _ => i += 1,
        }
    }
    None
}

/// The spans of `line`'s cells split at `delim`, blanks and quotes trimmed.
fn cells(line: &str, delim: u8) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    for i in 0..=b.len() {
        if i == b.len() || b[i] == delim {
            let (mut s, mut e) = (from, i);
            // Quotes, and a Markdown code span's backticks (`| `64d3…` |`), are no part of a cell.
            while s < e && matches!(b[s], b' ' | b'"' | b'\'' | b'`') {
                s += 1;
            }
            while e > s && matches!(b[e - 1], b' ' | b'"' | b'\'' | b'`') {
                e -= 1;
            }
            out.push((s, e));
            from = i + 1;
        }
    }
    out
}

/// The command typed after a shell's prompt: `$ `, `% `, and the prompts shells print by
/// default, with the user and host (`[root@head01 ~]# `, `dev@box:~/src$ `).
fn after_prompt(body: &str) -> Option<&str> {
    if let Some(command) = body.strip_prefix("$ ").or_else(|| body.strip_prefix("% ")) {
        return Some(command);
    }
    // A prompt is short: every line of every redacted text comes here, so only its start is
    // looked at.
    let at = body
        .bytes()
        .take(64)
        .position(|b| matches!(b, b'$' | b'#'))?;
    let (prompt, rest) = body.split_at(at);
    let bracketed = prompt.starts_with('[') && prompt.ends_with(']') && prompt.contains('@');
    let user_host =
        !prompt.contains(char::is_whitespace) && prompt.contains('@') && prompt.contains(':');
    (bracketed && !prompt[1..].contains('[') || user_host)
        .then(|| rest[1..].strip_prefix(' '))
        .flatten()
}

/// The password of an OpenVPN login written inline (`<auth-user-pass>`, then the user's line
/// and the password's): the second line of the block.
fn inline_vpn_logins(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let Some(open) = text.find("<auth-user-pass>") else {
        return out;
    };
    let from = open + "<auth-user-pass>".len();
    let block = &text[from..text[from..]
        .find("</auth-user-pass>")
        .map_or(text.len(), |e| from + e)];
    let mut lines = lines_at(block).filter(|(_, l)| !l.trim().is_empty());
    if let (Some(_user), Some((at, line))) = (lines.next(), lines.next()) {
        let v = line.trim();
        let lead = line.len() - line.trim_start().len();
        if v.len() >= 4 && !v.contains(char::is_whitespace) && !plausible::is_placeholder(v) {
            out.push((from + at + lead, from + at + lead + v.len()));
        }
    }
    out
}

/// The content of a file `head` or `tail` printed under its name (`==> env/API_KEY <==`), when
/// the name is a credential's: a runit or s6 environment directory keeps each variable in a
/// file of its name, its value the file's one line.
fn headed_files(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains("==> ") {
        return out;
    }
    let mut named = false;
    for (start, line) in lines_at(text) {
        let body = line.trim_end_matches(['\n', '\r']);
        if let Some(path) = body
            .strip_prefix("==> ")
            .and_then(|rest| rest.strip_suffix(" <=="))
        {
            let name = path.rsplit('/').next().unwrap_or(path);
            named = mentions_credential(name) && !plausible::name_rules_out(name);
            continue;
        }
        let v = body.trim();
        if std::mem::take(&mut named)
            && v.len() >= 8
            && !v.contains(char::is_whitespace)
            && !plausible::is_placeholder(v)
            && !plausible::looks_like_path(v)
            && !plausible::looks_like_url(v)
        {
            let s = start + (body.len() - body.trim_start().len());
            out.push((s, s + v.len()));
        }
    }
    out
}

/// What a command that prints or makes a secret printed (`$ pass show x`, `% security
/// find-generic-password … -w`, `$ acme token create`, `$ sudo cat /etc/agent.psk`): the first
/// line of its output, when it is one word that reads as generated; of a file that stores a
/// credential (`$ cat ~/.cvspass`), every generated word up to the next prompt. A shell prompt
/// (`$ `, `% `) starts the command. And what is typed in answer to a password prompt a script
/// waits for (`expect "password:"` then `send "…\r"`): see [`answered`].
fn printed(text: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut offset = 0;
    let mut after_secret_command = false;
    // Inside what a command printed from a file that stores a credential (`$ cat
    // ~/.p4tickets`): every generated word, up to the next prompt.
    let mut in_credential_file = false;
    // A key file dumped in lines of one width (`base64 -w 76 …`, `xxd -p …`): the span grows
    // over each next line of the same alphabet, up to the first shorter one.
    let mut dump: Option<usize> = None;
    // After a command that stores a secret under a credential's name (`$ pass insert -m
    // ops/api`, `$ vercel env add API_TOKEN production`): its prompt's answer is the secret.
    let mut answer_due = false;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        if let Some(width) = dump.take()
            && body.len() <= width
            && body.len() >= 2
            && body
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='))
            && let Some(last) = out.last_mut()
        {
            last.1 = start + body.len();
            if body.len() == width {
                dump = Some(width);
            }
            continue;
        }
        if let Some(command) = after_prompt(body) {
            (after_secret_command, in_credential_file, answer_due) = command_says(command);
            continue;
        }
        if answer_due && !body.trim().is_empty() {
            answer_due = false;
            match store_prompt(body) {
                Prompt::Answered(s, e) => {
                    out.push((start + s, start + e));
                    continue;
                }
                Prompt::AnsweredBelow => {
                    after_secret_command = true;
                    continue;
                }
                Prompt::None => {}
            }
        }
        if in_credential_file {
            out.extend(
                generated_words(body)
                    .into_iter()
                    .map(|(s, e)| (start + s, start + e)),
            );
        }
        // A password prompt the command printed (`Enter password:`): the line after it is
        // what was typed or what came back, the secret either way.
        if prompts_for_password(body) {
            after_secret_command = true;
            continue;
        }
        // (An empty line between a prompt and what was typed is passed over.)
        if after_secret_command && body.trim().is_empty() {
            continue;
        }
        if std::mem::take(&mut after_secret_command) {
            let v = body.trim();
            let s = start + (body.len() - body.trim_start().len());
            if printed_word(v) {
                out.push((s, s + v.len()));
                dump = (v.len() >= 40).then_some(v.len());
            }
        }
    }
    out.extend(answered(text));
    out
}

/// What a command typed after a shell's prompt says of the lines it prints: whether its first
/// line is a secret it shows, whether it prints a file that stores credentials, and whether it
/// stores a secret whose prompt's answer follows.
fn command_says(command: &str) -> (bool, bool, bool) {
    const PRINTS: &[&str] = &[
        "show", "get", "print", "create", "generate", "new", "reveal", "find", "read", "decrypt",
        "export", "cat", "head", "tail", "more", "less", "bat", "type", "base64", "xxd", "od",
        "hexdump",
    ];
    // Not a `--key` given a path: an object's key (`aws s3api head-object --key
    // 2026/12/report.csv`), whose command prints the object's metadata.
    let words: Vec<&str> = command.split_whitespace().collect();
    let secret = words.iter().enumerate().any(|(i, w)| {
        // (Or a file's name: `--key visits-2026-11.parquet`.)
        let object_key = w.trim_start_matches('-').eq_ignore_ascii_case("key")
            && words.get(i + 1).is_some_and(|v| {
                (v.contains('/')
                    || v.rsplit_once('.').is_some_and(|(_, ext)| {
                        (2..=8).contains(&ext.len())
                            && ext.bytes().all(|c| c.is_ascii_alphanumeric())
                    }))
                    && !mentions_credential(v)
            });
        mentions_credential(w)
            && !plausible::name_rules_out(w)
            && !names_a_public_file(w)
            && !object_key
    });
    // A printing verb, also joined to what it prints (`getconfig`, `showkey`).
    let prints = command.split_whitespace().flat_map(text::words).any(|p| {
        PRINTS
            .iter()
            .any(|v| p == *v || p.len() >= v.len() + 3 && p.starts_with(v))
    });
    // Or the credential asked for by name, last (`ot-ctl networkkey`, `… getconfig
    // rpcpassword`): what is printed is it.
    let asks = command.split_whitespace().last().is_some_and(|w| {
        mentions_credential(w)
            && !plausible::name_rules_out(w)
            && w.bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
            && !w.starts_with('-')
    });
    // A file kept encrypted (`config/credentials.yml.enc`, `.gpg`, `.age`) prints its
    // ciphertext; a secret store told to create a secret from a file or from stdin
    // (`… | docker secret create NAME -`) prints the new secret's id.
    let ciphertext = words.iter().any(|w| {
        let l = w.to_ascii_lowercase();
        [".enc", ".gpg", ".age", ".asc", ".vault"]
            .iter()
            .any(|e| l.ends_with(e))
    });
    let stores = words
        .iter()
        .any(|w| matches!(*w, "create" | "add" | "put" | "set"))
        && words.last().is_some_and(|w| *w == "-" || w.contains('/'));
    // A store told to keep a secret under a credential's name (`pass insert -m ops/api`,
    // `vercel env add API_TOKEN`): its prompt's answer is the secret.
    let keeps = words
        .iter()
        .any(|w| matches!(*w, "insert" | "store" | "add" | "set" | "put" | "edit"));
    (
        secret && (prints || asks) && !ciphertext && !stores && !selects_another_field(&words),
        prints_credential_file(command) && !ciphertext,
        secret && keeps && !ciphertext,
    )
}

/// Whether the command picks the one field it prints, and that field names no credential
/// (`aws secretsmanager get-secret-value … --query VersionId`, `--query ETag`): what it prints
/// is the secret's version, an object's tag, a date, not the secret.
fn selects_another_field(words: &[&str]) -> bool {
    let field = words
        .iter()
        .enumerate()
        .find_map(|(i, w)| match w.split_once('=') {
            Some(("--query", v)) => Some(v),
            _ if *w == "--query" => words.get(i + 1).copied(),
            _ => None,
        });
    field.is_some_and(|f| {
        let f = f.trim_matches(['"', '\'']);
        !f.is_empty()
            && f.bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'[' | b']'))
            && !mentions_credential(f)
    })
}

/// Whether one word printed after a command that shows a secret reads as one: letters and
/// digits mixed, not a placeholder, a path, an address or a version.
fn printed_word(v: &str) -> bool {
    v.len() >= 8
        && !v.contains(char::is_whitespace)
        && v.bytes().any(|c| c.is_ascii_digit())
        && v.bytes().any(|c| c.is_ascii_alphabetic())
        && !plausible::is_placeholder(v)
        && !plausible::looks_like_path(v)
        && !plausible::looks_like_url(v)
        && !plausible::looks_like_version(v)
        && !v.contains(':')
}

/// What the first line after a command that stores a secret says of the store's prompt.
enum Prompt {
    /// Asked and answered on one line, as prompting libraries print it once answered (`?
    /// What's the value of API_TOKEN? 98e2…`): the answer's span in the line.
    Answered(usize, usize),
    /// Asked, the answer typed below (`Enter contents of ops/api and press Ctrl+D when
    /// finished:`).
    AnsweredBelow,
    None,
}

fn store_prompt(line: &str) -> Prompt {
    if let Some(at) = line.rfind("? ").map(|i| i + 2) {
        let answer = line[at..].trim_end();
        // (Longer than a word printed alone: an id answers such questions too.)
        if answer.len() >= 16 && printed_word(answer) {
            return Prompt::Answered(at, at + answer.len());
        }
        return Prompt::None;
    }
    if line.trim_end().ends_with(':') {
        Prompt::AnsweredBelow
    } else {
        Prompt::None
    }
}

/// Whether a command prints a file that stores a credential: a file printer (`cat`, `head`,
/// `sudo cat`…) given a path whose name says so (`~/.p4tickets`, `~/.cvspass`,
/// `.erlang.cookie`, `/etc/ppp/chap-secrets`, `~/.netrc`), not a source file or a log that
/// merely mentions one (`auth.ts`, `token.log`).
fn prints_credential_file(command: &str) -> bool {
    const PRINTERS: &[&str] = &["cat", "head", "tail", "more", "less", "bat", "type"];
    let mut words = command.split_whitespace();
    let Some(mut program) = words.next() else {
        return false;
    };
    if program == "sudo" {
        program = words.next().unwrap_or("");
    }
    if !PRINTERS.contains(&program) {
        return false;
    }
    words
        .filter(|w| !w.starts_with('-') && w.contains(['/', '.']))
        .any(stores_credential)
}

/// A path whose file is named public (`…/hs_ed25519_public_key`, `oauth-public.key`,
/// `id_ed25519.pub`): printing it shows nothing to hide.
fn names_a_public_file(word: &str) -> bool {
    word.contains('/')
        && text::words(word.rsplit('/').next().unwrap_or(word))
            .iter()
            .any(|p| p == "public" || p == "pub")
}

/// Whether a file's path says it stores a credential (`~/.p4tickets`, `~/.cvspass`,
/// `.erlang.cookie`, `/etc/ppp/chap-secrets`, `~/.netrc`, OpenVPN's `client.auth`, Rails'
/// `config/master.key`), not a source file or a log that merely mentions one (`auth.ts`,
/// `token.log`), nor a public key (`id_ed25519.pub`).
fn stores_credential(path: &str) -> bool {
    const STORES: &[&str] = &[
        "pass",
        "passwd",
        "password",
        "passwords",
        "secret",
        "secrets",
        "token",
        "tokens",
        "ticket",
        "tickets",
        "cookie",
        "credential",
        "credentials",
        "creds",
        "netrc",
        "keytab",
        "psk",
        // As a file's own kind (`client.auth`, `master.key`): a key or a login kept there.
        "auth",
        "key",
    ];
    const NOT_STORES: &[&str] = &[
        "log", "txt", "md", "rs", "py", "js", "ts", "go", "java", "rb", "php", "c", "h", "json",
        "yaml", "yml", "toml", "html", "css", "sh", "pub",
    ];
    let file = path
        .rsplit('/')
        .next()
        .unwrap_or(path)
        .trim_end_matches(';');
    let ext = file
        .rsplit_once('.')
        .map(|(stem, e)| (stem, e.to_ascii_lowercase()));
    // A file name's extension says what it holds (`.erlang.cookie`, `auth.ts`).
    if ext
        .as_ref()
        .is_some_and(|(stem, e)| !stem.is_empty() && NOT_STORES.contains(&e.as_str()))
    {
        return false;
    }
    let words = text::words(file);
    // A public key's file (`oauth-public.key`) holds nothing to hide.
    !words.iter().any(|p| p == "public" || p == "pub")
        && words.iter().any(|p| {
            STORES.contains(&p.as_str())
                || STORES
                    .iter()
                    .any(|s| s.len() >= 4 && p.ends_with(s) && p.len() <= 12)
        })
}

/// What `echo`/`printf` (one of `printers`, the last one on the line) is given in `before`:
/// the value's offset there, the value without its quotes, and whether it was quoted.
fn echoed_value<'a>(before: &'a str, printers: &[&str]) -> Option<(usize, &'a str, bool)> {
    let mut arg_at = printers
        .iter()
        .find_map(|p| before.rfind(p).map(|k| k + p.len()))?;
    // A format that prints its argument as a line (`printf '%s\n' VALUE`): the value is after.
    for format in ["'%s\\n' ", "\"%s\\n\" ", "'%s' ", "\"%s\" "] {
        if before[arg_at..].starts_with(format) {
            arg_at += format.len();
        }
    }
    let arg = &before[arg_at..];
    let quoted = arg.starts_with(['"', '\'']);
    Some((
        arg_at + usize::from(quoted),
        arg.trim_matches(['"', '\'']),
        quoted,
    ))
}

/// A value echoed into a file whose path says it stores a credential (`echo "53d7…" >
/// config/master.key`, `printf '%s' '…' > ~/.vault-token`): what the file will hold.
fn echoed_into_credential_file(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains('>') {
        return out;
    }
    for (start, line) in lines_at(text) {
        let mut command_at = start;
        for command in line.split(['&', ';', '|']) {
            // Each separator split off is one byte.
            let at = command_at;
            command_at += command.len() + 1;
            let Some(gt) = command.find('>') else {
                continue;
            };
            let target = command[gt..]
                .trim_start_matches('>')
                .split_whitespace()
                .next();
            if !target.is_some_and(|t| t.contains(['/', '.']) && stores_credential(t)) {
                continue;
            }
            let before = command[..gt].trim_end();
            // (`printf '%s\n' '…' > ~/.acme-rsync.pass`: the format is skipped.)
            let printers = ["echo -n ", "echo ", "printf '%s' ", "printf %s ", "printf "];
            let Some((value_at, v, quoted)) = echoed_value(before, &printers) else {
                continue;
            };
            // Judged under the file's own name too: a password's file takes what a password
            // is (`> ~/.acme-rsync.pass`, letters of one case and digits).
            let file = target.unwrap_or_default();
            if !v.contains(char::is_whitespace)
                && (generated_beside("secret", v, false, quoted)
                    || generated_beside(file, v, false, quoted))
            {
                let s = at + value_at;
                out.push((s, s + v.len()));
            }
        }
    }
    out
}

/// The words of a line of a credential file that only a generator writes: a long run of one
/// alphabet (a ticket's hex, a cookie's capitals) or letters of both cases with digits,
/// split at blanks, `:`, `=` and `,`.
fn generated_words(line: &str) -> Vec<(usize, usize)> {
    runs(line, |c| {
        !matches!(c, b' ' | b'\t' | b':' | b'=' | b',' | b'\r')
    })
    .filter(|&(s, e)| {
        let w = &line[s..e];
        // (Or drawn in groups: a UUID kept as a gem server's key, `:name: 1367d8d4-…`.)
        (uniform_random(w) || strongly_generated(w, 12) || drawn(w))
            && !plausible::is_placeholder(w)
    })
    .collect()
}

/// A line that is only a prompt for a password or a passphrase (`Password:`, `Enter pass
/// phrase for key.pem:`), short, ending in its colon.
fn prompts_for_password(line: &str) -> bool {
    let l = line.trim();
    l.len() <= 48
        && l.ends_with(':')
        && (contains_any_case(l, b"password")
            || contains_any_case(l, b"pass phrase")
            || contains_any_case(l, b"passphrase"))
}

/// What a script types in answer to a password prompt it waits for: a line that expects a
/// prompt naming a password or a passphrase, then, within two lines, one that sends text
/// (`send`, `sendline`, `send-keys`, `type`): its first quoted word, without the `\r` or `\n`
/// that presses Enter, when it reads as generated.
fn answered(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text the ledger keeps comes here; most never wait for a prompt.
    if !contains_any_case(text, b"expect") {
        return out;
    }
    let mut offset = 0;
    let mut waiting = 0u8;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let mut from = 0;
        if contains_any_case(line, b"expect")
            && (contains_any_case(line, b"password") || contains_any_case(line, b"passphrase"))
        {
            waiting = 3;
            // (Answered on the same line, as a one-liner writes it: `expect -c "spawn …;
            // expect \"Password:\" {send \"…\\r\"}"`: from the last `expect` that the prompt
            // follows, not one after the answer, `…; send "…\r"; expect eof`.)
            let prompt = |at: usize| {
                let rest = &line[at..];
                let end = rest.find(['{', ';']).map_or(rest.len(), |e| e.max(7));
                contains_any_case(&rest[..end], b"password")
                    || contains_any_case(&rest[..end], b"passphrase")
            };
            match line
                .match_indices("expect")
                .map(|(at, _)| at)
                .filter(|&at| prompt(at))
                .last()
                .or_else(|| line.rfind("expect"))
            {
                Some(at) => from = at,
                None => continue,
            }
        }
        if waiting == 0 {
            continue;
        }
        waiting -= 1;
        if let Some((s, len)) = sent_value(&line[from..]) {
            out.push((start + from + s, start + from + s + len));
            waiting = 0;
        }
    }
    out
}

/// The value a script's `send` (or `type`) line sends, quoted, escaped quotes too (`send
/// \"…\\r\"` inside a shell string): its offset and length, when it reads as generated.
fn sent_value(line: &str) -> Option<(usize, usize)> {
    if !contains_any_case(line, b"send") && !contains_any_case(line, b"type") {
        return None;
    }
    let verb = line.find("send").or_else(|| line.find("type")).unwrap_or(0);
    let open = verb + line[verb..].find(['"', '\''])?;
    let quote = line.as_bytes()[open];
    let len = line[open + 1..].find(quote as char)?;
    let inner = &line[open + 1..open + 1 + len];
    let v = inner
        .trim_end_matches('\\')
        .trim_end_matches("\\r")
        .trim_end_matches("\\n")
        .trim_end_matches(['\r', '\n']);
    (v.len() >= 8
        && !v.contains(char::is_whitespace)
        && mixed(v)
        && v.bytes().any(|c| c.is_ascii_alphabetic())
        && !v.contains(['$', '{', '<'])
        && !plausible::is_placeholder(v))
    .then_some((open + 1, v.len()))
}

/// A login written the way people hand one over: a user, ` / ` (or `\/` in JSON), and a value
/// only a generator writes (`admin / l71xLA~-W^f.`, `` `admin` / `vjz_e-uGes^R9m` ``).
fn slashed(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(off) = text[from..]
        .find(" / ")
        .or_else(|| text[from..].find(" \\/ "))
    {
        let at = from + off;
        let sep = if text[at..].starts_with(" / ") { 3 } else { 4 };
        from = at + sep;
        // The user: a short name right before, quotes or backticks around it.
        let user: &str = text[..at].trim_end_matches(['`', '\'', '"']);
        let name_len = user
            .bytes()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'@'))
            .count();
        if !(2..=32).contains(&name_len)
            || !user.as_bytes()[user.len() - name_len].is_ascii_alphabetic()
        {
            continue;
        }
        let mut s = from;
        while s < b.len() && matches!(b[s], b'`' | b'\'' | b'"') {
            s += 1;
        }
        let mut e = s;
        while e < b.len()
            && !b[e].is_ascii_whitespace()
            && !matches!(b[e], b'`' | b'\'' | b'"' | b',')
        {
            e += 1;
        }
        // A sentence's full stop or a closing bracket is not the password's.
        while e > s && matches!(b[e - 1], b')' | b']') {
            e -= 1;
        }
        let v = &text[s..e];
        let trimmed = v.trim_end_matches('.');
        let v = if trimmed.len() + 1 == v.len() && strongly_generated(trimmed, 8) {
            trimmed
        } else {
            v
        };
        let symbols = v
            .bytes()
            .any(|c| c.is_ascii_punctuation() && !matches!(c, b'_' | b'-' | b'.'));
        // Code divides with ` / ` too (`total / secs.max(1e-9)`): a password has a digit and
        // none of an expression's brackets or operators.
        let expression = v.contains(['(', ')', '[', ']', '{', '}', '<', '>', '=', ';', ',', '/']);
        if v.len() >= 8
            && v.bytes().any(|c| c.is_ascii_digit())
            && v.bytes().any(|c| c.is_ascii_uppercase())
            && v.bytes().any(|c| c.is_ascii_lowercase())
            && !expression
            && (strongly_generated(v, 10) || symbols && mixed(v))
        {
            out.push((s, s + v.len()));
        }
    }
    out
}

/// A login handed over as two labelled lines, in whatever language the labels are written
/// (`Kullanıcı adı: kus-sayimi-izmir` then `Şifre: …`, `Nama pengguna: …` then `Kata sandi:
/// …`, `uživatel: …` then `heslo k serveru: …`): a line ending in a user's name after `: `,
/// and the next line ending in a value with every kind of character (upper and lower case,
/// a digit, a symbol) that reads as generated. The labels are not read: the user's name
/// beside a value no word makes is what says so.
fn labelled_logins(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains(": ") {
        return out;
    }
    let mut user_before = false;
    for (start, line) in lines_at(text) {
        let body = line.trim_end_matches(['\n', '\r']);
        let labelled = body.rsplit_once(": ");
        let value = labelled.map(|(_, v)| v.trim());
        // A label that names a digest (`Content-MD5: 8W3M…==`, `Digest: sha-256=…`,
        // `Checksum: …`): what follows is a hash of something, not a password. Every line of
        // `key: value` text comes here: the label is lowered only for a value that could be one.
        let digest = || {
            labelled.is_some_and(|(label, _)| {
                let label = label.to_ascii_lowercase();
                [
                    "md5",
                    "sha",
                    "digest",
                    "hash",
                    "checksum",
                    "crc",
                    "etag",
                    "integrity",
                ]
                .iter()
                .any(|d| label.contains(d))
            })
        };
        // A host's name before a path is an address or a type's URL (`"@type":
        // type.googleapis.com/envoy.…Router`), not a password.
        let addressed = |v: &str| {
            v.split_once('/').is_some_and(|(host, _)| {
                host.contains('.')
                    && host
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-'))
            })
        };
        if user_before
            && let Some(v) = value
            && every_kind(v)
            && !addressed(v)
            && crate::plausible::plausible_call_argument(v)
            && !digest()
            && let Some(off) = body.rfind(v)
        {
            out.push((start + off, start + off + v.len()));
        }
        user_before = value.is_some_and(user_name);
    }
    out
}

/// Whether the word at `at` follows a public key's type and perhaps its size (`ssh-ed25519
/// 255 …`, `ssh-rsa 2048 …`, `ecdsa-sha2-nistp256 …`): a host key's fingerprint or a public
/// key, as WinSCP's `-hostkey=` and `known_hosts` write them.
fn after_key_type(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end_matches(['"', '\'', ' ', '\t']);
    let mut words = before
        .rsplit([' ', '\t', '"', '\'', '='])
        .filter(|w| !w.is_empty());
    let Some(mut last) = words.next() else {
        return false;
    };
    if last.bytes().all(|b| b.is_ascii_digit()) {
        let Some(w) = words.next() else {
            return false;
        };
        last = w;
    }
    last.starts_with("ssh-") || last.starts_with("ecdsa-sha2-") || last.starts_with("sk-ssh-")
}

/// A key written as a byte array in code (`static const u1_t PROGMEM APPKEY[16] = { 0x61, … }`,
/// `uint8_t UPLINK_HMAC_KEY[32] = {…}`): an array whose name says key, secret, token or
/// password, initialised with sixteen or more hexadecimal bytes that are not one value
/// repeated. The bytes, from the first to the last, are the key. A public key's or an
/// identifier's array (`PUBKEY`, `DEVEUI`, `APPEUI`) is not.
fn byte_array_keys(text: &str) -> Vec<(usize, usize)> {
    let mut out = byte_list_keys(text);
    // Most texts hold no C array of bytes.
    if !text.contains("0x") || !text.contains("] = {") && !text.contains("]={") {
        return out;
    }
    for (open, _) in text.match_indices('{') {
        let head = &text[text[..open].rfind(['\n', ';', '}']).map_or(0, |i| i + 1)..open];
        let Some(bracket) = head.rfind('[') else {
            continue;
        };
        if !head[bracket..].trim_end().ends_with('=') {
            continue;
        }
        let name = head[..bracket]
            .trim_end()
            .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if !names_a_key(&name) {
            continue;
        }
        let Some(close) = text[open..].find('}').map(|i| open + i) else {
            continue;
        };
        let body = &text[open + 1..close];
        let bytes: Vec<&str> = body
            .split(',')
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .collect();
        let all_hex = bytes.iter().all(|b| {
            b.strip_prefix("0x")
                .or_else(|| b.strip_prefix("0X"))
                .is_some_and(|h| {
                    (1..=2).contains(&h.len()) && h.bytes().all(|c| c.is_ascii_hexdigit())
                })
        });
        let varied = bytes
            .iter()
            .any(|b| !b.eq_ignore_ascii_case(bytes.first().copied().unwrap_or_default()));
        if bytes.len() >= 16 && all_hex && varied {
            let first = body.find('0').map_or(open + 1, |i| open + 1 + i);
            let last = body.trim_end().trim_end_matches(',').trim_end().len();
            out.push((first, open + 1 + last));
        }
    }
    out
}

/// Whether an array's name says it holds a key, and not a public one or an identifier.
fn names_a_key(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["key", "secret", "token", "psk", "hmac", "pass"]
        .iter()
        .any(|w| name.contains(w))
        && !name.contains("pub")
        && !name.contains("eui")
}

/// A key written as a list of bytes under a key's name in configuration or code
/// (Zigbee2MQTT's `network_key: [209, 31, …]`, `"psk": [0x1a, …]`, `KEY = [12, …]`): sixteen or
/// more values of 0 to 255, decimal or hexadecimal, not one repeated. The values, from the
/// first to the last, are the key.
fn byte_list_keys(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains(": [") && !text.contains("=[") && !text.contains("= [") {
        return out;
    }
    for (open, _) in text.match_indices('[') {
        let head = &text[text[..open]
            .rfind(['\n', ';', '{', ','])
            .map_or(0, |i| i + 1)..open];
        let Some(key) = head
            .trim_end()
            .strip_suffix([':', '='])
            .map(|k| k.trim().trim_matches(['"', '\'']))
        else {
            continue;
        };
        if key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
            || !names_a_key(key)
        {
            continue;
        }
        let Some(close) = text[open..].find(']').map(|i| open + i) else {
            continue;
        };
        let body = &text[open + 1..close];
        let values: Vec<&str> = body
            .split(',')
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .collect();
        let byte = |v: &str| match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
            Some(h) => (1..=2).contains(&h.len()) && h.bytes().all(|c| c.is_ascii_hexdigit()),
            None => (1..=3).contains(&v.len()) && v.parse::<u16>().is_ok_and(|n| n <= 255),
        };
        let varied = values.iter().any(|v| Some(v) != values.first());
        if values.len() >= 16 && values.iter().all(|v| byte(v)) && varied {
            let first = body.len() - body.trim_start().len();
            let last = body.trim_end().trim_end_matches(',').trim_end().len();
            out.push((open + 1 + first, open + 1 + last));
        }
    }
    out
}

/// The word for "password" as people write it with a space or in scripts generic-assignment's
/// name regex does not read as one word (`Mật khẩu: …`, `Kata sandi: …`, `κωδικός: …`), each in
/// both cases where its first letter has them. The single words are generic-assignment's.
const SPACED_PASSWORD_WORDS: &[&str] = &[
    "mật khẩu",
    "mat khau",
    "kata sandi",
    "kata laluan",
    "κωδικός",
    "Κωδικός",
    "كلمة المرور",
    "كلمة السر",
    "رمز عبور",
    "รหัสผ่าน",
    "पासवर्ड",
    // Urdu, Amharic, Mongolian, Kazakh, Hausa.
    "پاس ورڈ",
    "የይለፍ ቃል",
    "нууц үг",
    "құпия сөз",
    "kalmar sirri",
    // Irish's other word, beside `pasfhocal` (a watchword).
    "focal faire",
    // Spanish's word for a key that is a password's in speech (`La clave del router es …`),
    // as a word of its own: generic-assignment would find it inside `enclave`.
    "clave",
];

/// A password handed over in words, in whatever language (`parool: .1fnZ50p87yP`, `hasło do
/// panelu … to b!sEkFnw3_8y`, `Lösenordet till VPN:et är OJ68j::Ak^-EtS`): a word that means
/// password, then on the same line either its label's value (after `:` or `=` right after the
/// label, judged as a value under a password's name is), or within eight words a value with
/// every kind of character that reads as generated. Nothing of the sentence's grammar is read:
/// the word and a value no language spells are the evidence.
fn worded_credentials(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (start, line) in lines_at(text) {
        let line = line.trim_end_matches(['\n', '\r']);
        // The label: up to the first `:` or `=`, a few words with the word among them
        // (`Mật khẩu wifi:`). A label of one ASCII word (`password = …`) is
        // generic-assignment's, which reads code as this does not.
        if let Some(op) = line.find([':', '='])
            && let label = &line[..op]
            && label.split_whitespace().count() <= 5
            && SPACED_PASSWORD_WORDS.iter().any(|w| has_word(label, w))
        {
            let rest = &line[op + 1..];
            let v = rest.split_whitespace().next().unwrap_or_default();
            let v = v.trim_matches(['"', '\'', '`']);
            if !v.is_empty()
                && plausible::plausible_assignment("password", v, Written::Bare)
                && let Some(off) = rest.find(v)
            {
                let s = start + op + 1 + off;
                out.push((s, s + v.len()));
                continue;
            }
        }
        // In a sentence: a value with every kind of character, the word within twelve words
        // before it; letters of both cases and a digit or a symbol, within eight (`Het
        // wachtwoord is TnxmMrkB-B1S`, `heslo je Y8Ra_S02mCrL`, `… dabar LGYYdDMVEz#o`). Most lines have no such value: the words
        // are read back only for one.
        let mut at = 0;
        for w in line.split_ascii_whitespace() {
            at += line[at..].find(w).unwrap_or(0);
            let here = at;
            at += w.len();
            let v = w
                .trim_end_matches([',', ';'])
                .trim_matches(['"', '\'', '`']);
            // A sentence's full stop is not the password's (`… dabar LGYYdDMVEz#o.`).
            let v = match v.strip_suffix('.') {
                Some(cut) if every_kind(cut) => cut,
                _ => v,
            };
            let b = v.as_bytes();
            let both_cases =
                b.iter().any(u8::is_ascii_uppercase) && b.iter().any(u8::is_ascii_lowercase);
            let digit_or_symbol = b.iter().any(u8::is_ascii_digit)
                || b.iter()
                    .any(|c| c.is_ascii_punctuation() && !matches!(c, b'-' | b'_' | b'.' | b'/'));
            let reach = if every_kind(v) {
                12
            } else if both_cases && digit_or_symbol {
                8
            } else {
                0
            };
            // Two words after the word for it (`la contrasenya és y=ErVp…`), five for a value
            // of every kind of character, a value may hold `=`; further on, `=` is code's.
            let close = |words: usize| {
                let before = &line[..here];
                let from = before
                    .rsplit(|c: char| c.is_ascii_whitespace())
                    .filter(|w| !w.is_empty())
                    .take(words)
                    .last()
                    .map_or(0, |w| w.as_ptr() as usize - line.as_ptr() as usize);
                names_password(&before[from..])
            };
            if v.len() < 10
                || reach == 0
                // Code and markup, a JSON key or a label (`"clientCode":`, `\\SRV\share:`), a
                // setting's dotted name (`System.Embedded.1`): no password.
                || v.contains(['(', ')', '[', ']', '{', '}', '<', '>', ';', '"', '\'', '\\'])
                // Nor a flag or a setting (`--surname=Doe`, `access.file=/etc/…`); a value of
                // every kind of character may start with or hold `=` near the word (`… é
                // =rpGzRq+t0e9…`, `… yw A=!_defXi50…`).
                || v.contains('=')
                    && (v.starts_with('-')
                        || (v.starts_with('=') || v.ends_with('=')) && !every_kind(v)
                        || v.split('=').next().is_some_and(|k| {
                            // A setting's name is one case (`user=…`, `access.file=…`); a
                            // generated value's run before its `=` is not (`XHZmZn=28Cla…`).
                            let setting = !(every_kind(v)
                                && k.bytes().any(|b| b.is_ascii_uppercase())
                                && k.bytes().any(|b| b.is_ascii_lowercase()));
                            setting
                                && k.len() >= 3
                                && k.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
                        })
                        || !close(if every_kind(v) { 5 } else { 2 }))
                || v.ends_with(':')
                || plausible::dotted_name(v)
                // A stored hash (`password_hash $2y$10$…`) is what a password becomes.
                || plausible::crypt_format(v)
                || !plausible::plausible_call_argument(v)
            {
                continue;
            }
            let before = &line[..here];
            let from = before
                .rsplit(|c: char| c.is_ascii_whitespace())
                .filter(|w| !w.is_empty())
                .take(reach)
                .last()
                .map_or(0, |w| w.as_ptr() as usize - line.as_ptr() as usize);
            // Or just after it, where a language puts the value first (Irish `is é … an
            // pasfhocal`, `… is the password`): within three words.
            let after = &line[at..];
            let to = after
                .split_ascii_whitespace()
                .take(3)
                .last()
                .map_or(0, |w| {
                    w.as_ptr() as usize - after.as_ptr() as usize + w.len()
                });
            if (names_password(&before[from..]) || !v.contains(',') && password_word(&after[..to]))
                && let Some(off) = w.find(v)
            {
                out.push((start + here + off, start + here + off + v.len()));
            }
        }
    }
    out
}

/// A value that reads as generated, standing alone in a sentence (`… slanebank ke
/// lqQu1-rIyexyVHb4b .`, `… terriercage waa LG6FOwT5EkpihG_aE0 .`): whatever the language's
/// word for it, a random run of both cases and digits that a person writes into prose for
/// another is a secret handed over. Lines that read as code, markup, a table, a shell or a
/// setting are passed over, and so are a prefixed id (`cus_…`, the prefix rules' business), a
/// name made of words (`X-Hub88-Signature`) and a value an id's word introduces (`Account SID
/// AC…`, `operator ID …`).
fn generated_in_prose(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (start, line) in lines_at(text) {
        let line = line.trim_end_matches(['\n', '\r']);
        // Most lines of most texts have no such run: looked for before the words are read.
        if !line.bytes().any(|b| b.is_ascii_digit()) {
            continue;
        }
        if let Some((from, to)) = labelled_value(line) {
            out.push((start + from, start + to));
            continue;
        }
        // A chat log's time in brackets before the speaker (`[09:15] mart: …`) is no code.
        let (start, line) = match line.strip_prefix('[').and_then(|l| l.split_once("] ")) {
            Some((time, rest)) if time.len() <= 24 && !time.contains(['[', ']']) => {
                (start + time.len() + 3, rest)
            }
            _ => (start, line),
        };
        if line.len() < 40 {
            continue;
        }
        if line.contains([
            '\t', '{', '}', '<', '>', '=', '"', '`', '[', ']', '|', '\\', '*',
        ]) || line.contains("://")
            || line.contains("$ ")
            || setting_line(line)
        {
            continue;
        }
        let words: Vec<(usize, &str)> = line
            .split_ascii_whitespace()
            .map(|w| (w.as_ptr() as usize - line.as_ptr() as usize, w))
            .collect();
        let natural = words.iter().filter(|(_, w)| natural_word(w)).count();
        if natural < 4 || natural * 10 < words.len() * 6 {
            continue;
        }
        for (i, &(at, w)) in words.iter().enumerate() {
            let v = w
                .trim_end_matches(['.', ',', ';', ':', '!', '?'])
                .trim_matches(['\'', '(', ')']);
            // The word before is read (and lowered) only for a run that could be a secret.
            if generated_run(v)
                && !i.checked_sub(1).is_some_and(|p| id_word(words[p].1))
                && let Some(off) = w.find(v)
            {
                out.push((start + at + off, start + at + off + v.len()));
            }
        }
    }
    out
}

/// A UUID set beside the word for a key in prose, as an apposition or after a colon (`a
/// Leonardo.Ai key, c3de1bc0-…, was printed`, `the token: 9a02…`): a UUID alone is a record's
/// id, but one a sentence calls a key is that key. Not a key's id, a primary key's or an
/// idempotency key's (a qualifier before the word says which).
fn uuid_called_a_key(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    if b.len() < 40 {
        return out;
    }
    for (at, _) in text.match_indices('-') {
        // A UUID's first dash stands 8 characters in.
        let Some(start) = at.checked_sub(8) else {
            continue;
        };
        let Some(id) = text.get(start..start + 36) else {
            continue;
        };
        if !plausible::is_uuid(id) || start > 0 && b[start - 1].is_ascii_alphanumeric() {
            continue;
        }
        let before = text[..start].trim_end_matches([' ', ':', ',', '"', '\'', '`']);
        let mut words = before.rsplit(|c: char| c.is_whitespace()).map(|w| {
            w.trim_matches(|c: char| !c.is_ascii_alphanumeric())
                .to_ascii_lowercase()
        });
        let (Some(word), qualifier) = (words.next(), words.next()) else {
            continue;
        };
        let qualified = qualifier.as_deref().is_some_and(|q| {
            matches!(
                q,
                "primary"
                    | "foreign"
                    | "idempotency"
                    | "partition"
                    | "sort"
                    | "cache"
                    | "license"
                    | "licence"
                    | "public"
                    | "publishable"
            )
        });
        if matches!(word.as_str(), "key" | "token" | "secret" | "password") && !qualified {
            out.push((start, start + 36));
        }
    }
    out
}

/// The value a message hands over as a credential, ending its line after a colon and perhaps
/// wrapped in Markdown (`new acme cred for the team, use this until the vault sync is done:
/// `a5d9…``, `… : *3rYzy8FF…*`, `__531a…__`): the line names a credential, so the random
/// word it ends with is one, a UUID or hex digits included. A line that names an id of the
/// thing (`request id`, `commit`) is left.
fn value_a_message_hands_over(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (start, line) in lines_at(text) {
        let line = line.trim_end_matches(['\n', '\r']);
        let Some(colon) = line.rfind(": ") else {
            continue;
        };
        // The value first: most lines with a colon end in no such word.
        let value = line[colon + 2..].trim();
        let bare = value.trim_matches(['*', '_', '`']);
        if bare.len() < 20 || bare.len() + 8 < value.len() || bare.contains(char::is_whitespace) {
            continue;
        }
        let said = &line[..colon];
        // A sentence, not a setting's or a header's name (`api_token: ENC[…]`,
        // `Idempotency-Key: …`): five words or more before the colon, and no code.
        if said.split_whitespace().count() < 5 || said.contains(['=', '{', '"', '[']) {
            continue;
        }

        let words = text::words(said);
        let credential = words.iter().any(|w| {
            matches!(
                w.as_str(),
                "cred" | "creds" | "credential" | "credentials" | "token" | "secret" | "password"
            ) || w == "key" && !said.to_ascii_lowercase().contains("public key")
        });
        let an_id = words.iter().any(|w| {
            matches!(
                w.as_str(),
                "id" | "commit" | "sha" | "hash" | "digest" | "request"
            )
        });
        let random = plausible::is_uuid(bare)
            || bare.len() >= 32 && bare.bytes().all(|c| c.is_ascii_hexdigit())
            || generated_alone(bare);
        if credential && !an_id && random {
            let at = start + colon + 2 + line[colon + 2..].find(bare).unwrap_or(0);
            out.push((at, at + bare.len()));
        }
    }
    out
}

/// A key's id and its secret written as one word, `<uuid>:<hex>` (a chat's `here's the key:
/// 18fc72cf-…:0f3390b2…`, a table cell, a comment): a UUID alone is a record's id, but joined
/// to 32 or more random hex digits it is what a service issues as a key. The whole word goes.
fn id_secret_pairs(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    // A UUID is 36 characters, then the colon and 32 hex digits.
    if b.len() < 69 || !text.contains(':') {
        return out;
    }
    for (colon, _) in text.match_indices(':') {
        let Some(id) = colon.checked_sub(36).and_then(|s| text.get(s..colon)) else {
            continue;
        };
        let start = colon - 36;
        let alone_before =
            start == 0 || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'-');
        let secret_len = b[colon + 1..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        let end = colon + 1 + secret_len;
        let alone_after = b
            .get(end)
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_')));
        if alone_before
            && alone_after
            && plausible::is_uuid(id)
            && secret_len >= 32
            && uniform_random(&text[colon + 1..end])
        {
            out.push((start, end));
        }
    }
    out
}

/// A query value that begins with ten digits of Unix time (2017 to 2039), a dash, and then
/// sixteen or more characters of which some are random (`?sign=1765425409-rcsum878vx-0-<md5>`,
/// `?verify=1765229490-oXJ_agu-…`): the scheme of the CDNs' expiring signed URLs (an expiry
/// or a signing time, a nonce, a user, a digest), under whatever parameter name. A cache
/// buster's short hash after a time (`?v=1765425409-3f2a`) is too short.
fn timed_url_tokens(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for (i, _) in text.match_indices("=1") {
        let after_name = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b"_.-".contains(&b[i - 1]));
        let name_start = text[..i]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
            .map_or(0, |p| p + 1);
        let in_query = name_start > 0 && matches!(b[name_start - 1], b'?' | b'&' | b';');
        let v = i + 1;
        let epoch = b.len() >= v + 11
            && b[v..v + 10].iter().all(u8::is_ascii_digit)
            && (b'5'..=b'9').contains(&b[v + 1])
            // (Or `_` after it: `?__gda__=1797331279_e9eabbeb…`.)
            && matches!(b[v + 10], b'-' | b'_');
        if !after_name || !in_query || !epoch {
            continue;
        }
        let rest = &text[v + 11..];
        let len = encoded_run(rest);
        let tail = &rest[..len];
        // Random: a run of sixteen hex digits (a digest), or both cases and a digit.
        let hexed = tail
            .split(['-', '_'])
            .any(|s| s.len() >= 16 && s.bytes().all(|c| c.is_ascii_hexdigit()));
        let mixed = tail.bytes().any(|c| c.is_ascii_uppercase())
            && tail.bytes().any(|c| c.is_ascii_lowercase())
            && tail.bytes().any(|c| c.is_ascii_digit());
        if len >= 16 && (hexed || mixed) {
            out.push((v, v + 11 + len));
        }
    }
    out.extend(expiring_link_digests(text));
    out
}

/// How long a query value's run is: letters, digits, `_`, `-`, and the percent-escapes a
/// base64 digest's `/`, `+` and `=` become in a URL (`…Fc%2FWMwPq…E%3D`).
fn encoded_run(rest: &str) -> usize {
    let r = rest.as_bytes();
    let mut len = 0;
    while len < r.len() {
        let c = r[len];
        if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-') {
            len += 1;
        } else if c == b'%'
            && r.get(len + 1..len + 3)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
        {
            len += 3;
        } else {
            break;
        }
    }
    len
}

/// A link that expires (a query parameter named for the expiry, `expires=`, `e=`, `exp=`,
/// holding ten digits of Unix time) carries what proves it was issued: another parameter's
/// long random value is its digest, under whatever name (a CDN's `md5=`, `h=`, `st=`). Also
/// inside another URL's query, percent-encoded (`%3Fe%3D…%26h%3D…`).
fn expiring_link_digests(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text comes here: most hold no expiry at all.
    if !(text.contains("xp") || text.contains("e=") || text.contains("e%3D")) {
        return out;
    }
    let b = text.as_bytes();
    let ends = |c: u8| c.is_ascii_whitespace() || b"\"'#<>|),\\`".contains(&c);
    // A query starts at `?`, or at `%3F` in a URL inside another's query (`/go?to=…%3Fe%3D…`),
    // and runs to the next one or the end of its address: each text is read once.
    let encoded_after = |from: usize| match (
        text[from..].find("%3F").map(|q| from + q),
        text[from..].find("%3f").map(|q| from + q),
    ) {
        (Some(u), Some(l)) => Some(u.min(l)),
        (u, l) => u.or(l),
    };
    let mut encoded = encoded_after(0);
    let mut plain = text.find('?');
    let mut address_end = 0;
    loop {
        let (q, w) = match (plain, encoded) {
            (Some(p), Some(e)) if e < p => (e, 3),
            (Some(p), _) => (p, 1),
            (None, Some(e)) => (e, 3),
            (None, None) => break,
        };
        let from = q + w;
        if plain.is_some_and(|p| p < from) {
            plain = text[from..].find('?').map(|p| from + p);
        }
        if encoded.is_some_and(|e| e < from) {
            encoded = encoded_after(from);
        }
        if q >= address_end {
            address_end = (q..b.len()).find(|&i| ends(b[i])).unwrap_or(b.len());
        }
        let end = [plain, encoded]
            .into_iter()
            .flatten()
            .fold(address_end, usize::min);
        let query = &text[from..end];
        let params = query_params(query, from);
        let expires = params.iter().any(|(k, v, _)| {
            matches!(
                k.to_ascii_lowercase().as_str(),
                "e" | "exp" | "expires" | "expire" | "expiry" | "expiration" | "x-expires"
            ) && v.len() == 10
                && v.bytes().all(|c| c.is_ascii_digit())
                && v.starts_with('1')
        });
        if !expires {
            continue;
        }
        for (_, v, at) in &params {
            if link_digest(v) {
                out.push((*at, at + v.len()));
            }
        }
    }
    out
}

/// HTTP Basic credentials wherever they are written (`auth "Basic …"` in a cache, a log's
/// header dump): `Basic` and base64 that decodes to `user:password`, the password six or more
/// printable characters. What the header rule reads after `Authorization:` is its own.
fn basic_credentials(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("Basic ") {
        let s = at + "Basic ".len();
        let len = text[s..]
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='))
            .count();
        let v = &text[s..s + len];
        if len < 12 || text[..at].ends_with(char::is_alphanumeric) {
            continue;
        }
        let Some(decoded) = plausible::base64_decode(v) else {
            continue;
        };
        let Ok(pair) = std::str::from_utf8(&decoded) else {
            continue;
        };
        // A documented default (`user:password`, `admin:changeme`) is no one's login.
        // Or a key sent as the user with an empty or token password (`sk_live_…:`, `<hex>:X`),
        // as many APIs take their key.
        let login = pair.split_once(':').is_some_and(|(user, password)| {
            !user.is_empty()
                && !password.contains(':')
                && (password.len() >= 6 && !plausible::is_placeholder(password)
                    || password.len() <= 1 && generated_key(user))
        });
        if login && pair.bytes().all(|c| (0x20..0x7f).contains(&c)) {
            out.push((s, s + len));
        }
    }
    out
}

/// A login written as a client's setting, `user = "NAME:PASSWORD"` (curl's config file, as
/// `-u NAME:PASSWORD` on its command line; `proxy-user`, libcurl's `userpwd`): the password,
/// when it is generated (a key, a UUID) rather than a word or a group's name (`user:
/// "1000:1000"`, `www-data:www-data` name an account and its group).
fn config_logins(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !contains_any_case(text, b"user") {
        return out;
    }
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let body = line.trim_start();
        let lead = line.len() - body.len();
        let name_len = body
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_'))
            .count();
        let name = body[..name_len]
            .trim_start_matches('-')
            .to_ascii_lowercase();
        if !matches!(
            name.as_str(),
            "user" | "proxy-user" | "proxy_user" | "userpwd" | "proxyuserpwd"
        ) {
            continue;
        }
        let rest = &body[name_len..];
        let value_at = rest.len() - rest.trim_start_matches([' ', '\t', '=', ':']).len();
        if value_at == 0 {
            continue;
        }
        let value = &rest[value_at..];
        let (quoted, value) = match value.strip_prefix(['"', '\'']) {
            Some(v) => (true, v),
            None => (false, value),
        };
        let len = value
            .bytes()
            .take_while(|&c| !(c.is_ascii_whitespace() || quoted && matches!(c, b'"' | b'\'')))
            .count();
        let Some((user, password)) = value[..len].split_once(':') else {
            continue;
        };
        if user.is_empty() || password == user || plausible::is_placeholder(password) {
            continue;
        }
        if generated_key(password) || plausible::is_uuid(password) {
            let s = start + lead + name_len + value_at + usize::from(quoted) + user.len() + 1;
            out.push((s, s + password.len()));
        }
    }
    out
}

/// A generated key: sixteen or more characters of one word, hex with a letter, or both cases
/// and a digit.
fn generated_key(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() >= 16
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
        && (b.iter().all(u8::is_ascii_hexdigit) && b.iter().any(u8::is_ascii_alphabetic)
            || b.iter().any(u8::is_ascii_uppercase)
                && b.iter().any(u8::is_ascii_lowercase)
                && b.iter().any(u8::is_ascii_digit))
}

/// A query's `key=value` pairs with each value's offset, its separators plain, `&amp;`, or
/// percent-encoded (`%26`, `%3D`).
fn query_params(query: &str, offset: usize) -> Vec<(&str, &str, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = query.as_bytes();
    let mut i = 0;
    while i <= b.len() {
        let sep = if i == b.len() {
            Some(0)
        } else if b[i] == b'&' {
            Some(if b[i..].starts_with(b"&amp;") { 5 } else { 1 })
        } else if b[i..].starts_with(b"%26") {
            Some(3)
        } else {
            None
        };
        let Some(len) = sep else {
            i += 1;
            continue;
        };
        let pair = &query[start..i];
        let split = pair.find('=').map(|at| (at, 1)).or_else(|| {
            pair.find("%3D")
                .or_else(|| pair.find("%3d"))
                .map(|at| (at, 3))
        });
        if let Some((at, w)) = split {
            out.push((&pair[..at], &pair[at + w..], offset + start + at + w));
        }
        start = i + len.max(1);
        i = start;
        if len == 0 {
            break;
        }
    }
    out
}

/// Whether a query value is a digest: sixteen or more characters of base64url or hex, random
/// (hex, or both cases and a digit), not an id's UUID.
fn link_digest(v: &str) -> bool {
    // A digest in base64url may hold no digit (`md5=HktZaxkmqailivEtMJiSmQ`, 22 characters of
    // sixteen bytes): both cases and a random spread say generated.
    let cased = v.len() >= 16
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_'))
        && v.bytes().any(|c| c.is_ascii_uppercase())
        && v.bytes().any(|c| c.is_ascii_lowercase())
        && uniform_random(v);
    (generated_key(v) || cased) && !plausible::is_uuid(v)
}

/// A setting's line (`db.host: x`, `api_key: …`): a label of one token that is not a
/// capitalised name, then `:`; a chat's `Hodan: …` is a sentence.
fn setting_line(line: &str) -> bool {
    line.split_once(": ").is_some_and(|(label, rest)| {
        let label = label.trim_start();
        let name = label.starts_with(|c: char| c.is_uppercase())
            && label.chars().skip(1).all(char::is_lowercase);
        // A speaker before what they said (`rudo: zita ndi admin, …`): a setting's value is
        // no sentence.
        let said = rest
            .split_ascii_whitespace()
            .filter(|w| natural_word(w))
            .count()
            >= 4;
        !label.contains(' ') && !name && !said
    })
}

/// A line that is only a label of one to three words, in any language and script, a mark
/// after it, and one generated value (`Нууц үг: Hg7vluxAgAP6~HvZMet .`, `Գաղտնաբառ՝
/// cvoHRm1msPim-os`): a message giving a login, where the label names the value in words no
/// list holds. The value's span, within the line. A label that introduces an identifier
/// (`Order ID:`) does not count.
fn labelled_value(line: &str) -> Option<(usize, usize)> {
    let t = line.trim_end();
    let t = t.strip_suffix(['.', ',']).map_or(t, str::trim_end);
    let (head, value) = t.rsplit_once(' ')?;
    // Asked of every line with a digit in every output: the value's shape first, which few
    // lines' last word has, before the label's words are read.
    if !generated_run(value) {
        return None;
    }
    let head = head.trim_end();
    let mark = head.chars().last()?;
    if mark.is_alphanumeric() || "=.,;!?'\"()[]{}<>/\\|`#$&*+".contains(mark) {
        return None;
    }
    let label = &head[..head.len() - mark.len_utf8()];
    let words: Vec<&str> = label.split_whitespace().collect();
    // Words of a sentence, not a setting's key: the label starts the line with a capital (or
    // in a script without case), and no word turns to a capital inside (`clientId:`,
    // `SecurityPolicy:`, an indented `secure:` are a file's settings).
    // A letter's accent may be written as a mark of its own (Yoruba's `Ọ̀rọ̀`).
    let combining = |c: char| matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}');
    let worded = |w: &&str| {
        w.chars()
            .all(|c| c.is_alphabetic() || c == '\'' || combining(c))
            && !w
                .chars()
                .zip(w.chars().skip(1))
                .any(|(a, b)| a.is_lowercase() && b.is_uppercase())
    };
    let labelled = (1..=3).contains(&words.len())
        && line.starts_with(|c: char| c.is_uppercase() || c.is_alphabetic() && !c.is_lowercase())
        && words.iter().all(worded)
        && !words.iter().any(|w| id_word(w));
    labelled.then(|| {
        let at = value.as_ptr() as usize - line.as_ptr() as usize;
        (at, at + value.len())
    })
}

/// A word of a language: letters (an apostrophe or a hyphen inside), a sentence's
/// punctuation after.
fn natural_word(w: &str) -> bool {
    let w = w.trim_end_matches([',', '.', '!', '?', ':', ';']);
    w.chars().next().is_some_and(char::is_alphabetic)
        && w.chars()
            .all(|c| c.is_alphabetic() || matches!(c, '\'' | '’' | '-'))
}

/// A word that introduces an identifier, not a secret.
fn id_word(w: &str) -> bool {
    let w = w
        .trim_matches(|c: char| c.is_ascii_punctuation())
        .to_ascii_lowercase();
    matches!(
        w.as_str(),
        "id" | "sid"
            | "uuid"
            | "serial"
            | "number"
            | "no"
            | "ref"
            | "reference"
            | "endpoint"
            | "customer"
            | "order"
            | "invoice"
            | "ticket"
            | "build"
            | "commit"
            | "version"
            | "header"
            | "account"
            | "session"
            | "request"
            | "trace"
            | "job"
            | "user"
            | "username"
            | "device"
            | "model"
            | "sku"
    )
}

/// Twelve to sixty-four characters of both cases and digits (a few symbols allowed), not a
/// prefixed id (`we_1rH0…`), an encoded JSON header (`eyJ…`) or a name made of words and
/// numbers (`X-Hub88-Signature`, `GEOL101-Lecture09`).
fn generated_run(v: &str) -> bool {
    let b = v.as_bytes();
    if !(12..=64).contains(&b.len())
        || !b
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || b"_~+!@#%^&.-".contains(c))
        || !b.iter().any(u8::is_ascii_uppercase)
        || !b.iter().any(u8::is_ascii_lowercase)
        || !b.iter().any(u8::is_ascii_digit)
        || v.starts_with("eyJ")
    {
        return false;
    }
    let prefixed = v
        .split_once('_')
        .is_some_and(|(p, _)| p.len() >= 2 && p.bytes().all(|c| c.is_ascii_lowercase()));
    let worded = v.split(['-', '_', '.']).all(|s| {
        let letters = s.trim_end_matches(|c: char| c.is_ascii_digit());
        let mut cs = letters.chars();
        let first_ok = cs.next().is_none_or(|c| c.is_ascii_alphabetic());
        let rest: String = cs.collect();
        first_ok
            && (rest.chars().all(|c| c.is_ascii_lowercase())
                || letters.chars().all(|c| c.is_ascii_uppercase()))
    });
    // And random, not a name in camel case (`parseJson2Xml`, `decodeUtf16Surrogate`): runs
    // of one kind of character (upper, lower, digit) short on average, and a separator or
    // more than one run of digits.
    let kind = |c: u8| {
        if c.is_ascii_uppercase() {
            0
        } else if c.is_ascii_lowercase() {
            1
        } else if c.is_ascii_digit() {
            2
        } else {
            3
        }
    };
    let runs = b.windows(2).filter(|w| kind(w[0]) != kind(w[1])).count() + 1;
    let digit_runs = b
        .iter()
        .enumerate()
        .filter(|&(i, c)| c.is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_digit()))
        .count();
    // Dots between mixed runs count too (`P.qM2q.IsgrqCkioEs`): `worded` has already let a
    // dotted name of words go (`System.Net2.Http`).
    let separated = v.contains(['-', '_', '~']) || v.matches('.').count() >= 2 || digit_runs >= 2;
    !prefixed && !worded && separated && runs * 5 >= b.len() * 2
}

/// Whether `words` hold a word that is "password" whole, in some language (`pasfhocal`,
/// `password`; not `Passport`): after a value, where only the word itself says what it was.
fn password_word(words: &str) -> bool {
    words.split_whitespace().any(|w| {
        let w = w
            .trim_matches(|c: char| c.is_ascii_punctuation())
            .to_lowercase();
        matches!(
            w.as_str(),
            "password" | "passwd" | "passphrase" | "pw" | "pwd"
        ) || plausible::PASSWORD_ELSEWHERE.contains(&w.as_str())
    })
}

/// Whether `words` hold a word for "password" in some language, at a word's start
/// (`encompassId` holds `pass` and means none).
fn names_password(words: &str) -> bool {
    ["pass", "pwd"].iter().any(|w| has_word(words, w))
        // `pw` as a word of its own (`pw a-U6gH…`, `pw: …`), not the start of one (`pwm`).
        || words
            .split_whitespace()
            .any(|w| w.trim_end_matches([':', '=']).eq_ignore_ascii_case("pw"))
        || SPACED_PASSWORD_WORDS.iter().any(|w| has_word(words, w))
        || plausible::PASSWORD_ELSEWHERE
            .iter()
            .any(|w| has_word(words, w))
}

/// Whether `word` starts a word of `text`: ASCII letters in either case, other letters as
/// the lists write them. Not a part of a name in code (`$BMC_PASSWORD`, `db_pass`).
fn has_word(text: &str, word: &str) -> bool {
    let (b, w) = (text.as_bytes(), word.as_bytes());
    b.windows(w.len()).enumerate().any(|(i, x)| {
        x.eq_ignore_ascii_case(w)
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'_' | b'$')))
    })
}

/// Upper and lower case, a digit and a symbol that joins no words (not `-`, `_` or `.`, which
/// a header's or a file's name has: `X-Hub-Signature-256`): what a password policy asks and a
/// word, an id or a digest never has all of.
fn every_kind(v: &str) -> bool {
    let b = v.as_bytes();
    b.iter().any(u8::is_ascii_uppercase)
        && b.iter().any(u8::is_ascii_lowercase)
        && b.iter().any(u8::is_ascii_digit)
        && b.iter()
            .any(|c| c.is_ascii_punctuation() && !matches!(c, b'-' | b'_' | b'.' | b'/'))
}

/// A login's user name: a lower-case letter first, then lower-case letters with digits,
/// dots, dashes or an `@`, three to sixty-four characters (`kus-sayimi-izmir`, `n.papadakis`,
/// `ops@acme.example`); not a trace id (`00-0af7…-01`).
fn user_name(v: &str) -> bool {
    (3..=64).contains(&v.len())
        && v.starts_with(|c: char| c.is_ascii_lowercase())
        && v.bytes().all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'.' | b'-' | b'_' | b'@')
        })
}

/// A login in a client's command script (`ftp -s:upload.txt`, `sftp -b`, `lftp -f`): after
/// an `open HOST` line, a `user NAME VALUE` line gives the password as its third word. It must
/// read as generated, as a credential call's argument must.
fn scripted_logins(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Most texts hold no ftp script: two cheap looks before reading lines.
    if !text.contains("open ") || !text.contains("user ") {
        return out;
    }
    let mut opened = false;
    for (start, line) in lines_at(text) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["open", host, ..] if host.contains('.') => opened = true,
            ["user", _, value] if opened => {
                if crate::plausible::plausible_call_argument(value)
                    && let Some(off) = line.rfind(value)
                {
                    out.push((start + off, start + off + value.len()));
                }
            }
            _ => {}
        }
    }
    out
}

/// A login typed by a script that drives a window (AutoHotkey's `Send`/`SendInput`, `xdotool
/// type`, `tmux send-keys`): a line that types a name and then Tab, and within the next
/// three lines one that types a value and then Enter. Typed into the field after the name,
/// the value is the password, whatever program receives it; it must read as generated, as a
/// credential call's argument must.
fn typed_logins(text: &str) -> Vec<(usize, usize)> {
    // Most texts type nothing: a look for the tab key first.
    if !text.contains("{Tab}") && !text.contains("{tab}") && !text.contains("Tab") {
        return Vec::new();
    }
    let lines: Vec<(usize, &str)> = lines_at(text)
        .map(|(at, l)| (at, l.trim_end_matches(['\n', '\r'])))
        .collect();
    let mut out = Vec::new();
    for (n, &(_, line)) in lines.iter().enumerate() {
        let Some(typed) = typed_on(line) else {
            continue;
        };
        let lower = typed.to_ascii_lowercase();
        if !(lower.ends_with("{tab}") || lower.ends_with(" tab")) {
            continue;
        }
        for &(start, next) in lines.iter().skip(n + 1).take(3) {
            let Some(value) = typed_on(next) else {
                continue;
            };
            let lower = value.to_ascii_lowercase();
            let Some(cut) = lower
                .strip_suffix("{enter}")
                .or_else(|| lower.strip_suffix(" enter"))
                .map(str::len)
            else {
                continue;
            };
            let value = value[..cut].trim().trim_matches(['"', '\'']);
            if crate::plausible::plausible_call_argument(value)
                && let Some(off) = next.find(value)
            {
                let s = start + off;
                out.push((s, s + value.len()));
            }
            break;
        }
    }
    out
}

/// A later argument of a call that has every kind of character, as only a person's password
/// or a device's local key does (`Net::SMTP.start(host, 587, helo, 'orders@…', '3H_=T6p+i.#A',
/// :login)`, `OutletDevice('385d…', '192.168.1.62', 'Z4FOGziCFA~KIo44')`): whatever the
/// call is named, the string reads as generated. Not the first argument, which names what
/// the call works on.
fn shaped_call_arguments(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(k) = b[i..].iter().position(|&c| c == b',') {
        let comma = i + k;
        i = comma + 1;
        let mut j = i;
        while j < b.len() && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        let Some(end) = quoted_at(b, j, 64) else {
            continue;
        };
        let mut n = end + 1;
        while n < b.len() && matches!(b[n], b' ' | b'\t') {
            n += 1;
        }
        if !matches!(b.get(n), Some(b',' | b')')) {
            continue;
        }
        let v = &text[j + 1..end];
        // Right after a mail address given as the user, the password of that login
        // (`…, 'yard@timberyard.example', 'ub_B6_6MewcrcgY4', :login)`): letters of both
        // cases and a digit are enough.
        let after_user = previous_string(text, comma)
            .is_some_and(|u| u.contains('@') && user_name(u))
            && v.len() >= 10
            && v.bytes().any(|c| c.is_ascii_uppercase())
            && v.bytes().any(|c| c.is_ascii_lowercase())
            && v.bytes().any(|c| c.is_ascii_digit())
            && !v.contains(' ');
        // A digest named by its algorithm (`"sha256/rlqo…="`, a certificate pin) has a slash.
        if (every_kind(v) || after_user)
            && v.len() >= 12
            && !v.contains('/')
            && !spells_a_word(v)
            && crate::plausible::plausible_call_argument(v)
            && text[..comma]
                .rfind('(')
                .is_some_and(|open| !text[open..comma].contains(')'))
        {
            out.push((j + 1, end));
        }
    }
    out
}

/// A credential handed to a call by its place among the call's string arguments:
/// - a client made (`new Ably.Realtime('…')`, `new \\Payrexx\\Payrexx('club', '…')`, an
///   assignment `geocoder = OpenCage('9253…')`) from a generated string: a class given one is
///   given its key. Not a value made from a digest, an id, a colour or an address
///   (`Digest('d41d…')`, `UUID('…')`, `Address('0x…')`);
/// - a login's or an authentication's later argument (`client.login(user, '…')`,
///   `HTTPBasicAuth(user, '…')`, `Mailjet.apiConnect(key, '…')`), which a person may type
///   (`gz5a-xsfz-bd75-cam5`, an app password in groups);
/// - a signing call's key (`createMerchantSignature('zFAp…')`).
///
/// Placeholders, words and public keys (`pk_live_…`) stay.
fn call_credentials(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if !text.contains('(') || !text.contains(['\'', '"']) {
        return out;
    }
    let b = text.as_bytes();
    for (open, _) in text.match_indices('(') {
        // Most calls in a tool's output take no quoted string first: the cheapest look comes
        // before the call's name is read.
        let first = b[open + 1..]
            .iter()
            .position(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'))
            .map(|k| open + 1 + k);
        let quoted = |i: usize| matches!(b.get(i), Some(b'\'' | b'"'));
        if !first.is_some_and(|i| {
            quoted(i) || matches!(b.get(i), Some(b'b' | b'r' | b'u')) && quoted(i + 1)
        }) {
            continue;
        }
        let head = &text[..open];
        let name_start = head
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let name = &head[name_start..];
        if name.is_empty() {
            continue;
        }
        let lower = name.to_ascii_lowercase();
        let line_start = head.rfind('\n').map_or(0, |i| i + 1);
        let before = head[line_start..name_start].trim_end_matches(['.', '\\', ':', '>', '-']);
        // A class's name in camel case (`OpenCage`, `HTTPBasicAuth`); a record type in
        // capitals (`IFCPROJECT('3VPl…')`) takes an id.
        let made = name.starts_with(|c: char| c.is_ascii_uppercase())
            && name.bytes().any(|c| c.is_ascii_lowercase())
            && (before.trim_end().ends_with("new") || before.contains('='))
            && ![
                "hash", "digest", "sha", "md5", "uuid", "guid", "id", "commit", "rev", "color",
                "colour", "address", "checksum", "hex", "bytes", "decimal", "version", "date",
                "url", "path", "regex", "error",
            ]
            .iter()
            .any(|w| lower.contains(w));
        let logs_in = [
            "login",
            "logon",
            "signin",
            "auth",
            "credential",
            "connect",
            "password",
        ]
        .iter()
        .any(|w| lower.contains(w));
        // A signing call by its name or its module's (`hmac.new(key, …)`).
        let signs = lower.contains("signature")
            || lower.contains("hmac")
            || head[line_start..name_start]
                .to_ascii_lowercase()
                .ends_with("hmac.");
        if !(made || logs_in || signs) {
            continue;
        }
        // The call's leading string arguments, each with where its value starts.
        let mut i = open + 1;
        let mut n = 0;
        loop {
            while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
            }
            // A bytes or raw literal's prefix (`b'…'`, `r"…"`).
            if matches!(b.get(i), Some(b'b' | b'r' | b'u'))
                && matches!(b.get(i + 1), Some(b'\'' | b'"'))
            {
                i += 1;
            }
            let Some(end) = quoted_at(b, i, 160) else {
                break;
            };
            let v = &text[i + 1..end];
            let line = &text[line_start..text[end..].find('\n').map_or(text.len(), |k| end + k)];
            // A signing call's line names its hash (`hashlib.sha256`): the key is no digest.
            let public =
                plausible::names_itself_public(v) || !signs && plausible::public_or_demo(v, line);
            let key = !public
                && !plausible::is_placeholder(v)
                && (made && made_key(v)
                    || logs_in && n >= 1 && (made_key(v) || login_password(v))
                    || signs && made_key(v));
            if key {
                out.push((i + 1, end));
            }
            n += 1;
            i = end + 1;
            while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\n' | b'\r') {
                i += 1;
            }
            if b.get(i) != Some(&b',') {
                break;
            }
            i += 1;
        }
    }
    out
}

/// A generated key as a client takes it: 20 characters or more of letters and digits, with
/// the dots, colons, dashes and base64 signs some keys hold (`appid.keyid:secret`), drawn at
/// random (hex letters are a to f: a run of them, `bdaea`, is no word).
fn made_key(v: &str) -> bool {
    if v.len() < 20
        || v.len() > 128
        || v.contains("://")
        || v.starts_with('/')
        || !v
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"._:-+/=".contains(&c))
    {
        return false;
    }
    let bare: String = v.chars().filter(char::is_ascii_alphanumeric).collect();
    (uniform_random(&bare) || strongly_generated(&bare, 20))
        && (is_hex(&bare) || !spells_a_word(&bare))
}

/// A password a person typed or an app password a service gave in groups (`gz5a-xsfz-bd75-cam5`,
/// `voaO XXPj LHKU nwhi 6d3Q Z4d2`).
fn login_password(v: &str) -> bool {
    let groups: Vec<&str> = v.split(['-', ' ']).collect();
    let grouped = groups.len() >= 4
        && groups
            .iter()
            .all(|g| g.len() == 4 && g.bytes().all(|c| c.is_ascii_alphanumeric()))
        && v.bytes().filter(u8::is_ascii_digit).count() >= 2
        && v.bytes().any(|c| c.is_ascii_alphabetic());
    grouped || typed_password(v) || strongly_generated(v, 10) && !v.contains(' ')
}

/// The quoted string that ends just before `comma` (`'ops@acme.example'` in `…, 'ops@acme.example',
/// …`), if the argument there is one.
fn previous_string(text: &str, comma: usize) -> Option<&str> {
    let before = text[..comma].trim_end_matches([' ', '\t']);
    let q = before.chars().last().filter(|c| matches!(c, '\'' | '"'))?;
    let inner = &before[..before.len() - 1];
    let open = inner.rfind(q)?;
    Some(&inner[open + 1..])
}

/// The closing quote's index of a string quoted at `at` (`'…'` or `"…"`), on one line and at
/// most `limit` bytes long.
fn quoted_at(b: &[u8], at: usize, limit: usize) -> Option<usize> {
    let q = *b.get(at).filter(|&&c| c == b'\'' || c == b'"')?;
    let len = b[at + 1..]
        .iter()
        .take(limit)
        .position(|&c| c == q || c == b'\n')?;
    let end = at + 1 + len;
    (b[end] == q).then_some(end)
}

/// Whether a value holds a run of letters written as a word is (`Build-2024.11_Final!`: four
/// or more in lower case, or one capital and then lower case), as a generator's output does
/// not: its letters change case at random.
fn spells_a_word(v: &str) -> bool {
    v.split(|c: char| !c.is_ascii_alphabetic()).any(|run| {
        let rest = run.get(1..).unwrap_or_default();
        // Five consonants in a row no word has (`Zpulcmglfvh`): drawn at random.
        let mut consonants = 0usize;
        let pronounceable = run.bytes().all(|c| {
            consonants = if b"aeiouyAEIOUY".contains(&c) {
                0
            } else {
                consonants + 1
            };
            consonants < 5
        });
        run.len() >= 4 && rest.bytes().all(|c| c.is_ascii_lowercase()) && pronounceable
    })
}

/// A password typed into a page's field by a browser-driving script (Selenium's
/// `find_element(By.ID, "password").send_keys("…")`, Playwright's `page.fill('#password',
/// '…')`, Cypress's `cy.get('#pass').type('…')`, Capybara's `fill_in 'Password', with: '…'`):
/// the field the line names is a password's, so the last string it types is the password,
/// when it reads as generated. The field's name, not the value, must say so.
fn filled_fields(text: &str) -> Vec<(usize, usize)> {
    const FILLS: &[&str] = &[
        "send_keys(",
        "sendkeys(",
        ".fill(",
        ".type(",
        "setvalue(",
        "fill_in ",
        "fill_in(",
        "presssequentially(",
        "press_sequentially(",
    ];
    let mut out = Vec::new();
    if !(contains_any_case(text, b"pass") || contains_any_case(text, b"pwd"))
        || !FILLS.iter().any(|f| contains_any_case(text, f.as_bytes()))
    {
        return out;
    }
    for (start, line) in lines_at(text) {
        let lower = line.to_ascii_lowercase();
        let Some(at) = FILLS.iter().filter_map(|f| lower.find(f)).min() else {
            continue;
        };
        // The last quoted string on the line after the call: what is typed.
        let after = &line[at..];
        let Some(close) = after.rfind(['"', '\'']) else {
            continue;
        };
        let q = after.as_bytes()[close];
        let Some(open) = after[..close].rfind(q as char) else {
            continue;
        };
        let value = &after[open + 1..close];
        let field = &lower[..at + open];
        if (field.contains("pass") || field.contains("pwd"))
            && crate::plausible::plausible_call_argument(value)
        {
            let s = start + at + open + 1;
            out.push((s, s + value.len()));
        }
    }
    out
}

/// What a line of a window-driving script types: the text after `Send`, `SendInput`,
/// `SendRaw`, `SendText`, `xdotool type` or `tmux send-keys -t TARGET`, without its quotes.
fn typed_on(line: &str) -> Option<&str> {
    let t = line.trim_start();
    // Every line of a text with a tab key in it comes here: compared in place, not lowered.
    let find = |needle: &str| {
        t.as_bytes()
            .windows(needle.len())
            .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
    };
    let rest = if let Some(at) = [
        "sendinput",
        "sendraw",
        "sendtext",
        "sendplay",
        "sendevent",
        "send",
    ]
    .iter()
    .find(|k| {
        t.as_bytes()
            .get(..k.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(k.as_bytes()))
            && !t
                .as_bytes()
                .get(k.len())
                .is_some_and(u8::is_ascii_alphanumeric)
    }) {
        &t[at.len()..]
    } else if let Some(at) = find("xdotool type ") {
        &t[at + "xdotool type ".len()..]
    } else if let Some(at) = find("send-keys ") {
        let after = &t[at + "send-keys ".len()..];
        // `-t TARGET` first.
        match after.strip_prefix("-t ") {
            Some(r) => r.split_once(' ').map_or("", |(_, v)| v),
            None => after,
        }
    } else {
        return None;
    };
    let rest = rest.trim_start_matches([',', ' ', '\t']).trim_end();
    Some(rest.trim_matches(['"', '\'']).trim())
}

/// A login handed over in a chat or an e-mail: an account (an e-mail address) on one line, and
/// on one of the next two a message that is one word only a generator writes: letters of both
/// cases and a digit (`tc@elmstreet.example` then `A5vWE.sNHY1R`). The text must speak of
/// logging in, an account or a password within the lines before it. A chat line's time and
/// sender (`[4:05 PM] Marco (TC): `) are not the message.
fn handed_over(text: &str) -> Vec<(usize, usize)> {
    const CONTEXT: &[&[u8]] = &[
        b"login",
        b"log in",
        b"sign in",
        b"signin",
        b"account",
        b"password",
        b"credential",
    ];
    let mut out = Vec::new();
    // Every text the ledger keeps comes here; most hold no address and no such word.
    let script = contains_any_case(text, b"open ");
    if !(text.contains('@') || text.contains(":\n") || script)
        || !(CONTEXT.iter().any(|w| contains_any_case(text, w)) || script)
    {
        return out;
    }
    let lines: Vec<(usize, &str)> = lines_at(text)
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    for (k, &(start, line)) in lines.iter().enumerate().skip(1) {
        let (at, body) = message(line);
        let v = body.trim();
        // The message itself first, the cheap test: one word only a generator writes.
        let b = v.as_bytes();
        let classes = b.iter().any(u8::is_ascii_digit)
            && b.iter().any(u8::is_ascii_uppercase)
            && b.iter().any(u8::is_ascii_lowercase);
        if !(8..=64).contains(&v.len())
            || v.contains(char::is_whitespace)
            || email_address(v)
            || v.contains(['/', ':', '=', '$', '<', '>', '(', ')', '"', '\''])
            || !classes
            || !mixed(v)
            || file_name(v)
            || plausible::is_placeholder(v)
        {
            continue;
        }
        // The account: an address, or a user name alone on its line after a line that
        // announces it (`…portal account:` then `aceprocess-civil`), or the line after a
        // script's `open HOST` (a Windows `ftp -s:` script: host, user, password).
        let user_alone = |j: usize| {
            let u = message(lines[j].1).1.trim();
            (3..=32).contains(&u.len())
                && u.bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'.')
                })
                && j > 0
                && {
                    let before = lines[j - 1].1.trim_end();
                    before.ends_with(':')
                        || before
                            .trim_start()
                            .to_ascii_lowercase()
                            .starts_with("open ")
                }
        };
        let account_before = lines[k.saturating_sub(2)..k]
            .iter()
            .any(|(_, l)| message(l).1.split_whitespace().any(email_address))
            || user_alone(k - 1);
        let opened = k >= 2
            && lines[k - 2]
                .1
                .trim_start()
                .to_ascii_lowercase()
                .starts_with("open ");
        let spoken_of = opened
            || lines[k.saturating_sub(5)..k]
                .iter()
                .any(|(_, l)| CONTEXT.iter().any(|w| contains_any_case(l, w)));
        if account_before && spoken_of {
            let s = start + at + (body.len() - body.trim_start().len());
            out.push((s, s + v.len()));
        }
    }
    out
}

/// A chat line's message, after its time in brackets and its sender's name (`[4:05 PM] Marco
/// (TC): …`), with its offset in the line; another line whole.
fn message(line: &str) -> (usize, &str) {
    let mut at = 0;
    if line.starts_with('[')
        && let Some(close) = line.find(']')
    {
        at = close + 1;
    }
    // A sender's name is short and ends in `: ` (a URL's colon has no space after it).
    if let Some(colon) = line[at..].find(": ").filter(|&c| c <= 40)
        && !line[at..at + colon].contains(['"', '\'', '=', '{'])
    {
        at += colon + 2;
    }
    (at, &line[at..])
}

/// Whether a word is an e-mail address: a local part, `@`, and a domain with a dot.
fn email_address(w: &str) -> bool {
    let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    w.split_once('@').is_some_and(|(local, domain)| {
        !local.is_empty()
            && domain.contains('.')
            && !domain.starts_with('.')
            && domain
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-'))
    })
}

/// Words that stand alone: between blanks, quotes, backticks or brackets, without `=`, `:`,
/// `/` or `$` inside (those are assignments, URLs, paths and variables, judged elsewhere).
fn standalone_words(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let ends = |c: u8| c.is_ascii_whitespace();
    while i < b.len() {
        if ends(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !ends(b[i]) {
            i += 1;
        }
        let mut s = start;
        let mut e = i;
        // A constructor's string argument (`dropbox.Dropbox("sl.…")`, `new InvoiceNinja('…')`):
        // the string, not the call. A method's (`analytics.load("…")`, `Square.payments(…)`)
        // is a browser SDK's public key as often, and stays part of the word.
        if let Some(k) = text[s..e].rfind("(\"").or_else(|| text[s..e].rfind("('"))
            && text[s..s + k]
                .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .is_some_and(|callee| callee.starts_with(|c: char| c.is_ascii_uppercase()))
        {
            s += k + 1;
        }
        while s < e && matches!(b[s], b'"' | b'\'' | b'`' | b'(' | b'[' | b'{' | b'<') {
            s += 1;
        }
        while e > s
            && matches!(
                b[e - 1],
                b'"' | b'\'' | b'`' | b')' | b']' | b'}' | b'>' | b',' | b';' | b'.' | b'!' | b'?'
            )
        {
            e -= 1;
        }
        if e - s >= 20
            && b[s..e]
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'~' | b'+'))
            && text.is_char_boundary(s)
            && text.is_char_boundary(e)
        {
            out.push((s, e));
        }
    }
    out
}

/// Whether the word at `start` is a named field's value (`"item_id": "…"`, `x=…`): its name
/// says what it is, and the rules that read names judge it.
fn assigned(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end_matches(['"', '\'', ' ', '\t']);
    if before.ends_with('=') || before.ends_with("\":") {
        return true;
    }
    // `item_id: …` as a line's key; `try this one: …` is prose.
    before.strip_suffix(':').is_some_and(|key| {
        let line = key.rsplit('\n').next().unwrap_or(key);
        let line = line.trim_start_matches([' ', '\t', '-']);
        !line.is_empty() && line.bytes().all(|c| is_name_byte(c) || c == b'"')
    })
}

/// A word alone that could only be generated: 20 characters or more, both cases and digits
/// in numbers, random.
fn generated_alone(v: &str) -> bool {
    let digits = v.bytes().filter(u8::is_ascii_digit).count();
    digits >= 3
        && v.bytes().any(|c| c.is_ascii_uppercase())
        && v.bytes().any(|c| c.is_ascii_lowercase())
        && !prefixed(v)
        // A symbol's mangled name (`_ZN12clap_builder…17h8fcd…E`) or an identifier.
        && !v.starts_with('_')
        && !v.starts_with("AAAA")
        // A resource's id: its type in two capitals, then 32 hex digits (a message's `SM…`,
        // an account's `AC…`), as messaging APIs print them.
        && !(v.len() == 34
            && v.as_bytes()[..2].iter().all(u8::is_ascii_uppercase)
            && v.as_bytes()[2..].iter().all(u8::is_ascii_hexdigit))
        && !encodes_text(v)
        // (Or base64 of compressed data: an asset, a bzip2 or gzip stream, not a key.)
        && !plausible::encodes_compressed(v)
        && v.matches('.').count() < 2
        && !base58(v)
        && !file_name(v)
        && !ksuid(v)
        && strongly_generated(v, 20)
}

/// A KSUID, a record's id sortable by time (`2Xc93kvNxKeIlsqklbHjmQHs239`): 27 base62
/// characters that decode to 20 bytes whose first four count the seconds since 2014-05-13 to a
/// moment before 2030. About one random word of that length in fifteen reads so; a key pasted
/// alone is rarely exactly 27 characters.
fn ksuid(v: &str) -> bool {
    if v.len() != 27 {
        return false;
    }
    // Little-endian 32-bit limbs of the number; a sixth limb is past 160 bits.
    let mut limbs = [0u64; 6];
    for c in v.bytes() {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'A'..=b'Z' => c - b'A' + 10,
            b'a'..=b'z' => c - b'a' + 36,
            _ => return false,
        };
        let mut carry = u64::from(d);
        for limb in &mut limbs {
            let x = *limb * 62 + carry;
            *limb = x & 0xffff_ffff;
            carry = x >> 32;
        }
        if carry != 0 {
            return false;
        }
    }
    // Seconds from the KSUID epoch (1,400,000,000) to 2030-01-01.
    limbs[5] == 0 && limbs[4] <= 493_456_000
}

/// A bot's token made of three base64url parts, the first of which encodes a decimal id
/// (Discord's `MTg1…OA.5dDY1B.vyTp…`): an account's id, a timestamp and an HMAC over them.
/// The id decoding to seventeen or more digits is what no identifier or dotted name does.
fn id_tokens(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let token_byte = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.');
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !token_byte(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && token_byte(b[i]) {
            i += 1;
        }
        // Every word of every text comes here: only one of the shape's length is split.
        if !(58..=77).contains(&(i - start)) {
            continue;
        }
        let mut parts = text[start..i].split('.');
        let (Some(id), Some(stamp), Some(mac), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let shaped = (23..=28).contains(&id.len())
            && (6..=7).contains(&stamp.len())
            && (27..=40).contains(&mac.len())
            && id.starts_with(['M', 'N', 'O']);
        let digits = shaped
            && plausible::base64_decode(id)
                .is_some_and(|d| d.len() >= 17 && d.iter().all(u8::is_ascii_digit));
        if digits {
            out.push((start, i));
        }
    }
    out
}

/// Base58, the alphabet without `0`, `O`, `I` and `l`, 43 characters or more: a wallet's
/// address or a content id (`Qm…`), public by design. A random base62 value that long has
/// one of the four 19 times in 20; shorter, too many tokens would pass for addresses.
fn base58(v: &str) -> bool {
    v.len() >= 43
        && v.bytes()
            .all(|c| c.is_ascii_alphanumeric() && !matches!(c, b'0' | b'O' | b'I' | b'l'))
}

/// A short lower-case prefix and a body (`ch_3Mml…`, `sb_publishable_…`): the prefixed-token
/// rule judges those, ids and public keys apart from tokens.
fn prefixed(v: &str) -> bool {
    let head = v.bytes().take_while(u8::is_ascii_lowercase).count();
    (1..=12).contains(&head) && matches!(v.as_bytes().get(head), Some(b'_' | b'-'))
}

/// Base64 of text (a JWT's header, an encoded label): what it says is no key.
fn encodes_text(v: &str) -> bool {
    plausible::base64_decode(v).is_some_and(|d| {
        d.len() >= 8
            && d.iter()
                .filter(|c| c.is_ascii_graphic() || **c == b' ')
                .count()
                * 10
                >= d.len() * 9
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        find(text, true, &mut out);
        out.iter().map(|&(s, e, _)| &text[s..e]).collect()
    }

    #[test]
    fn a_map_of_users_holds_passwords() {
        let orthanc = "{\"RegisteredUsers\": {\n  \"bridge\": \"BxQ3Wj1eYA6m-MSQYE\"\n}}";
        assert_eq!(found(orthanc), ["BxQ3Wj1eYA6m-MSQYE"]);
        let env = "ORTHANC__REGISTERED_USERS: '{\"viewer\": \"yz2z-ypHFaqRf6M8\"}'";
        assert_eq!(found(env), ["yz2z-ypHFaqRf6M8"]);
        // Names, ids and digests are not passwords, and a map named otherwise holds none.
        for clean in [
            "{\"users\": {\"alice\": \"Alice Smith\", \"bob\": \"5f3a9c0d1e2b4a6f8c7d\"}}",
            "\"accounts\": {\"u1\": \"ACC-2024-001234\"}",
            "\"usersettings\": {\"theme\": \"yz2z-ypHFaqRf6M8\"}",
        ] {
            assert!(users_map(clean).is_empty(), "{clean}");
        }
    }

    #[test]
    fn a_login_line_with_a_short_generated_password() {
        assert_eq!(found("login serveradmin LY5m0Bdd"), ["LY5m0Bdd"]);
        // Inside a longer line, the password must be longer to count.
        assert!(login_pair("login serveradmin LY5m0Bdd now").is_empty());
    }

    /// Found by the `redactor` fuzz target: a pair handed to a call whose name follows a
    /// character wider than a byte (`é(`) made the name's start land inside it, and panicked.
    #[test]
    fn a_call_after_a_wide_character_is_read_without_a_panic() {
        for text in ["é(\"edge01:h3REq7Zk2pLw\")", "x = 名(\"relay:i7D7kQ2mZp\")"] {
            let _ = found(text);
        }
        assert!(encoder_argument("é btoa(\""));
        assert!(!encoder_argument("é(\""));
    }

    #[test]
    fn values_beside_a_credential_name_in_any_syntax() {
        for (text, secret) in [
            ("auth_pass gZYiyHVz", "gZYiyHVz"),
            (
                "MqttUser t; MqttPassword SQClK9yqTYMj.A; Topic x",
                "SQClK9yqTYMj.A",
            ),
            (
                "sentinel auth-pass mymaster HJ.mwt6ZVvD53U-GkT",
                "HJ.mwt6ZVvD53U-GkT",
            ),
            ("rootpw --plaintext gEX+ITJajy.G5kW", "gEX+ITJajy.G5kW"),
            (
                "<AdministratorPassword>\n  <Value>W5FVH-qwyNwFisgZ</Value>",
                "W5FVH-qwyNwFisgZ",
            ),
            (
                "set ::env(SMTP_PASSWORD) {GNEw.cve~mYhq7a~C}",
                "GNEw.cve~mYhq7a~C",
            ),
            (
                "1.2.3.4 : PSK \"LeL12i3zLjXi.2yaemxgsBWg\"",
                "LeL12i3zLjXi.2yaemxgsBWg",
            ),
        ] {
            assert_eq!(found(text), [secret], "{text}");
        }
    }

    #[test]
    fn words_ids_and_digests_beside_a_name_stay() {
        for text in [
            "password Required",
            "<Properties cpassword=\"\" changeLogon=\"0\" noChange=\"0\"/>",
            "$pw = Read-Host -AsSecureString \"Kiosk password\"\nNew-LocalUser -Name kiosk",
            "the key commit 3f9a2c1e8b7d6f5a4c3b2a1f0e9d8c7b6a5f4e3d",
            "token_url https://auth.example.com/oauth/token",
            "password_hash $2y$10$B2/bm0agaRQq918XiIlpn.GDvtRE4TP9SApMxDO7x6BOp",
            "key_id 6f3a1c2e-8b4d-11ef-9c21-525400a1b2c3",
            "api_key = os.environ[\"API_KEY\"]",
            "secret: PasswordManager",
            "Password Manager extension installed",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn a_one_letter_flag_given_a_generated_value() {
        for (text, secret) in [
            (
                "ldapsearch -D cn=r -w IUlJ.k-n71dl.674 -b dc=x",
                "IUlJ.k-n71dl.674",
            ),
            (
                "xfreerdp /v:win01 /u:Admin /p:lwn9M1n25-IZzLst4W /cert:ignore",
                "lwn9M1n25-IZzLst4W",
            ),
            (
                "smbclient //nas/b -U backup%.VU570_vzAzKT4 -c ls",
                ".VU570_vzAzKT4",
            ),
            ("7z a -p8-a19OLg8D-qnA out.7z dir/", "8-a19OLg8D-qnA"),
        ] {
            assert_eq!(found(text), [secret], "{text}");
        }
        for text in [
            "docker run -p 8080:80 -v /data:/data nginx",
            "git commit -m FixTheBuild2",
            "ffmpeg -i input.mp4 -c:v libx264 -s 1920x1080 out.mp4",
            "idevicediagnostics -u 00008110-001A2C3E0E91801E restart",
            "kubectl logs -n payments web-7d9f8c6b5-x2k4p",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn markup_wrappers_and_short_flags_between_name_and_value() {
        for (text, secret) in [
            (
                "<String><Key>Password</Key><Value ProtectInMemory=\"True\">mtUY~sylG.7rRF3F3w</Value>",
                "mtUY~sylG.7rRF3F3w",
            ),
            (
                "root_password => Sensitive('geFjD6Bdi6+wsF.6'),",
                "geFjD6Bdi6+wsF.6",
            ),
            (
                "  root_password           => Sensitive('geFjD6Bdi6+wsF.6'),",
                "geFjD6Bdi6+wsF.6",
            ),
            (
                "\"_authToken\": \"6f3a1c2e-8b4d-41ef-9c21-525400a1b2c3\"",
                "6f3a1c2e-8b4d-41ef-9c21-525400a1b2c3",
            ),
            ("\\newcommand{\\smtppass}{H5iHto~v7jmmjy}", "H5iHto~v7jmmjy"),
            (
                "sdkperf -cu=orders@vpn -cp=6et2C^HSREVdKNBN -ptl=x",
                "6et2C^HSREVdKNBN",
            ),
            (
                "sipp -sn uac -au 1005 -ap 2pdihwN5Gk9aC~2 -s 9999",
                "2pdihwN5Gk9aC~2",
            ),
        ] {
            assert_eq!(found(text), [secret], "{text}");
        }
        assert!(found("java -cp lib/app.jar:build/classes Main").is_empty());
    }

    #[test]
    fn a_credential_column_and_what_a_secret_command_printed() {
        assert_eq!(
            found(
                "| env | user | password |\n|---|---|---|\n| staging | admin | EapNNa9U.y7raW |\n| prod | admin | (ask ops) |"
            ),
            ["EapNNa9U.y7raW"]
        );
        assert_eq!(
            found("% security find-generic-password -s build -w\nBz0YD_wWTkgGH9g.ji\n"),
            ["Bz0YD_wWTkgGH9g.ji"]
        );
        assert_eq!(
            found(
                "$ acme preauthkeys create --reusable\n11036559cd233f48e1b8bdf88b61a0f1baf20c5633b19246"
            ),
            ["11036559cd233f48e1b8bdf88b61a0f1baf20c5633b19246"]
        );
        for text in [
            "name,url,username,password_changed\nshop,https://x.example,dev,2026-11-29",
            "$ git show HEAD --stat\n3f9a2c1e8b7d6f5a4c3b2a1f0e9d8c7b6a5f4e3d",
            "$ acme token list\nNAME  CREATED",
            "app_password: >\n  ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEhMIIBHQIBADAFMAACAQEw\n  3tcKiOBtKQYY9J+84QPItcM14AVEXiJC5tLHz9WX5Jpp6wpdrBHgwEXwCIrx]",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    /// Found by the ninth sealed part: what a reading command printed from a file named for a
    /// key, a password answered to a prompt a script waits for, and a YAML list under a
    /// credential's name.
    #[test]
    fn read_from_a_key_file_typed_at_a_prompt_or_listed_under_a_name() {
        for (text, secret) in [
            (
                "$ sudo cat /etc/acme/agent.psk\n9c1e6028ef7f06553c5256112c8abf5a",
                "9c1e6028ef7f06553c5256112c8abf5a",
            ),
            (
                "spawn ssh ops@acme-host\nexpect \"Password:\"\nsend \"Vq83mZ-l0Tr7x\\r\"",
                "Vq83mZ-l0Tr7x",
            ),
            (
                "form:\n  password:\n  - Kd7~Qw9vLx2pZt\n  username:\n  - acme",
                "Kd7~Qw9vLx2pZt",
            ),
        ] {
            let mut out = Vec::new();
            find(text, true, &mut out);
            assert!(
                out.iter().any(|&(s, e, _)| &text[s..e] == secret),
                "{text:?}: {out:?}"
            );
        }
        for text in [
            "$ cat notes/setup.md\nInstall2024 then run make",
            "expect \"Password:\"\nsend \"$env(ACME_PASS)\\r\"",
            "expect \"login:\"\nsend \"acme-admin01\\r\"",
            "steps:\n  - run: make test\n  - name: build",
        ] {
            let mut out = Vec::new();
            find(text, true, &mut out);
            assert!(out.is_empty(), "{text:?}: {out:?}");
        }
    }

    #[test]
    fn a_login_handed_over_as_user_slash_password() {
        for (text, secret) in [
            (
                "no, changed it yesterday: admin / l71xLA~-W^f.\nthanks",
                "l71xLA~-W^f",
            ),
            (
                "grafana admin is `admin` / `vjz_e-uGes^R9m` for now",
                "vjz_e-uGes^R9m",
            ),
            (
                "creds for the migration: etl \\/ 1dprc2H+4m9k2DV0 (rotating after)",
                "1dprc2H+4m9k2DV0",
            ),
        ] {
            assert_eq!(found(text), [secret], "{text}");
        }
        for text in [
            "let rate = total / secs.max(1e-9);",
            "/// The lowest passing ratio: `num / 10^places`, from 0 to 1.",
            "read / write access for the deploy / Release2 pipeline",
            "Input / Output errors",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn a_generated_word_alone() {
        assert_eq!(
            found("hardcoded the key DTjqfv7Wz4j4xFltR0rFRa5bZ1wp2Ie2QiSlzIQV until vault"),
            ["DTjqfv7Wz4j4xFltR0rFRa5bZ1wp2Ie2QiSlzIQV"]
        );
        for text in [
            "commit 3f9a2c1e8b7d6f5a4c3b2a1f0e9d8c7b6a5f4e3d",
            "see HTMLParserFactoryBuilder2 and getUserAccountById",
            "pod web-7d9f8c6b5-x2k4p restarted",
            "UPPERCASEONLY1234567890ABCD and lowercaseonly1234567890abcd",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
