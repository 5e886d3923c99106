//! A credential typed on the command line of a program trail does not model.
//!
//! `instaloader --login=newsdesk --password='Spring2026!'`, `twarc2 --bearer-token AAAA…`,
//! `FAHClient --passkey=0123…`: the program acts as whoever the credential belongs to, and the
//! credential itself lands in the shell's history and in every process listing. Across the
//! labelled parts, a password-named option given a literal secret was labelled risky; a local
//! default given to a local server (`--pass root`, `-password localonly`) was not.
//!
//! Found by its name (a password's, a token's, a private key's option), or by its shape
//! whatever the option is called: a chosen password (`-ksp 'Wint3r!2026'`), a password among
//! a form's fields (`--post 'user=dev&pass=…'`), or one written into a URL
//! (`postgresql://etl:S3cretPass@db…`).

use super::super::rules::Cmd;
use super::super::{Decision, Verdict};
use super::{decide, words};
use crate::RuleId;

/// The first option named for a password or a token whose value, written out, looks like a
/// real one.
///
/// Of a command that only looks, only a password written into a URL counts (`ots
/// --bitcoin-node http://rpcuser:S3cret@… verify`): the labelled parts call a looking
/// subcommand's token option safe (`miiocli … --token … status`).
pub(super) fn typed(c: &Cmd<'_>, reads_only: bool, raw: &str) -> Option<Decision> {
    let in_url = || c.words().find_map(url_password);
    if reads_only {
        return in_url().map(|option| decision(c, option, raw));
    }
    let words: Vec<&str> = c.option_words().collect();
    let option = super::option_pairs(&words).find_map(|(flag, value)| {
        let value = value?;
        (flag.starts_with('-')
            && (names_secret(flag) && looks_secret(value)
                || chosen_password(value)
                || form_password(value)))
        .then_some(flag)
    });
    let option = option.or_else(in_url)?;
    Some(decision(c, option, raw))
}

/// The junction for a credential typed in `option` (the option, or the word that carries it).
fn decision(c: &Cmd<'_>, option: &str, raw: &str) -> Decision {
    decide(
        Verdict::Junction,
        RuleId::TypedCredential,
        format!(
            "`{}` is given a credential typed on its command line (`{option}`), and trail does not model this program: it acts as whoever the credential belongs to, and the credential is kept in the shell's history; a person decides",
            c.name
        ),
        raw,
    )
}

/// An option whose last word names a password or a token (`--password`, `-pw`, `--passkey`,
/// `--bearer-token`, `--api-token`); not where one is kept or how it is asked for
/// (`--password-file`, `--token-env`, `--password-stdin`), nor a key, which names as often a
/// setting's (`--key Autolock`) or a public key's file.
fn names_secret(flag: &str) -> bool {
    let ps = words::parts(flag);
    ps.last().is_some_and(|l| {
        matches!(
            l.as_str(),
            "password" | "passwd" | "passphrase" | "passkey" | "pass" | "pw" | "secret"
        ) || l == "token" && ps.len() > 1
    }) || ps.len() == 1 && ps[0] == "token"
        || private_key(&ps)
}

/// An option named for a private or secret key (`--sec`, `--seckey`, `--private-key`,
/// `--signing-key`), whose value written out is the key itself; a key alone is a setting's.
fn private_key(ps: &[String]) -> bool {
    match ps {
        [one] => matches!(
            one.as_str(),
            "sec" | "seckey" | "nsec" | "privkey" | "privatekey"
        ),
        [.., kind, key] => {
            key == "key" && matches!(kind.as_str(), "private" | "secret" | "signing" | "priv")
        }
        _ => false,
    }
}

/// A value written out (not a variable, a file or a prompt) that mixes letters with digits or
/// with symbols and is long enough to be chosen: `Spring2026!`, `hunter2`, a hex passkey; not a
/// local default (`root`, `dev`, `localonly`).
fn looks_secret(v: &str) -> bool {
    let v = v.trim_matches(['"', '\'']);
    let letters = v.bytes().any(|b| b.is_ascii_alphabetic());
    let digits = v.bytes().any(|b| b.is_ascii_digit());
    let symbols = v
        .bytes()
        .any(|b| b.is_ascii_punctuation() && !matches!(b, b'-' | b'_' | b'.'));
    // An address is whose key, not the key (`rnpkeys --export-key --secret ops@acme.example`).
    let address = v
        .split_once('@')
        .is_some_and(|(user, host)| !user.is_empty() && host.contains('.'));
    v.len() >= 6
        && !address
        && !v.starts_with(['$', '/', '~', '@', '-', '<', '{', '%'])
        && !v.contains(['/', ' '])
        && letters
        && (digits || symbols)
}

/// A value shaped as a person's chosen password whatever its option is called (`-ksp
/// 'Wint3r!2026'`, `--p 'Tr0ub4dor&3'`): upper and lower case, a digit and one of the symbols
/// password rules ask for, and nothing a path, a pattern or a setting is written with.
fn chosen_password(v: &str) -> bool {
    let v = v.trim_matches(['"', '\'']);
    (8..=40).contains(&v.len())
        && v.bytes().any(|b| b.is_ascii_uppercase())
        && v.bytes().any(|b| b.is_ascii_lowercase())
        && v.bytes().any(|b| b.is_ascii_digit())
        && v.bytes()
            .any(|b| matches!(b, b'!' | b'@' | b'#' | b'&' | b'*' | b'?' | b'+' | b'^'))
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!@#&*?+^$%_-".contains(&b))
        && !v.starts_with(['$', '-', '@'])
}

/// A form's or a query's fields given as one value, one named for a password with a value
/// written out (`--post 'user=dev&pass=hunter2'`, `--data login=a&token=9f3c…`).
fn form_password(v: &str) -> bool {
    v.trim_matches(['"', '\'']).split('&').any(|field| {
        field
            .split_once('=')
            .is_some_and(|(key, value)| names_secret(key) && looks_secret(value))
    })
}

/// A password written into a URL a word carries (`--database postgresql://etl:S3cretPass@db…`,
/// `rtsp://admin:hunter2@10.0.0.30/…` inside a configuration): the user the program logs in
/// as, typed out. Not a variable, nor a local default (`sysop:sysop`, `admin:admin`).
fn url_password(word: &str) -> Option<&str> {
    word.match_indices("://").find_map(|(at, _)| {
        let rest = &word[at + 3..];
        let authority = &rest[..rest
            .find(['/', '"', '\'', ' ', '?', '#'])
            .unwrap_or(rest.len())];
        let (login, _host) = authority.rsplit_once('@')?;
        let (_user, password) = login.split_once(':')?;
        looks_secret(password).then_some(word)
    })
}
