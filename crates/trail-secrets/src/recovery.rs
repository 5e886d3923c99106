//! Recovery codes: the one-time codes an account hands out to get back in when its second
//! factor is lost (`6ac63-d7b59` ten or sixteen times, `8884 8746` numbered, a single
//! `WPPGX-K9Z6V-735SM-4MAAC-LZQPK`, a disk's `123456-…-123456` recovery key). Each is a
//! password: whoever holds one logs in. None has a vendor's prefix or a name before it; what
//! gives them away is the text that says what they are, and their shape: a column of codes
//! of one shape, or one long grouped code on its own line.

/// Words a text about recovery codes uses, in lower case.
const SAID: &[&str] = &[
    "recovery",
    "backup code",
    "backup verification",
    "verification code",
    "one-time",
    "two-factor",
    "2fa",
];

/// At least this many lines of one shape make a list of codes.
const LIST: usize = 4;

/// The spans of the recovery codes in `text`: every code of a column of at least [`LIST`]
/// lines of one shape, and a lone code of at least four groups and twenty characters on a
/// line of its own, in a text that says it holds recovery codes.
pub(crate) fn codes(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text the hooks redact comes here: no copy of it is made, and the words are
    // looked for only once a line holds a code.
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return out;
    }
    let mut run: Vec<((usize, usize), Vec<usize>)> = Vec::new();
    let flush = |run: &mut Vec<((usize, usize), Vec<usize>)>, out: &mut Vec<(usize, usize)>| {
        if run.len() >= LIST {
            out.extend(run.iter().map(|(span, _)| *span));
        } else if let [(span, groups)] = run.as_slice()
            && groups.len() >= 4
            && groups.iter().sum::<usize>() >= 20
        {
            out.push(*span);
        }
        run.clear();
    };
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let Some((span, groups)) = code_on(line, start) else {
            flush(&mut run, &mut out);
            continue;
        };
        if run.last().is_some_and(|(_, g)| *g != groups) {
            flush(&mut run, &mut out);
        }
        run.push((span, groups));
    }
    flush(&mut run, &mut out);
    if !out.is_empty() && !SAID.iter().any(|w| contains_ignoring_case(text, w)) {
        out.clear();
    }
    out
}

/// Whether `text` holds `word` (ASCII lower case) in any case, without a lower-case copy.
fn contains_ignoring_case(text: &str, word: &str) -> bool {
    text.as_bytes()
        .windows(word.len())
        .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
}

/// The code a line holds alone, after an optional number (`3. `, `3) `) or bullet, as its
/// span in the text and its groups' lengths: letters and digits in two or more groups joined
/// by a dash or one space, eight or more of them with a digit among them, no group longer
/// than eight. (A UUID's `8-4-4-4-12` has a longer group, a date or a version no letters
/// or too few characters.)
fn code_on(line: &str, line_start: usize) -> Option<((usize, usize), Vec<usize>)> {
    let body = line.trim_end_matches(['\n', '\r']);
    let lead = body.len() - body.trim_start().len();
    let mut rest = &body[lead..];
    let mut skipped = lead;
    let number = rest.bytes().take_while(u8::is_ascii_digit).count();
    if number > 0
        && number <= 2
        && rest[number..].starts_with(['.', ')'])
        && rest[number + 1..].starts_with(' ')
    {
        let gap = number + 1 + rest[number + 1..].len() - rest[number + 1..].trim_start().len();
        skipped += gap;
        rest = &rest[gap..];
    } else if let Some(r) = rest.strip_prefix("- ").or_else(|| rest.strip_prefix("* ")) {
        skipped += 2;
        rest = r;
    }
    let code = rest.trim_end();
    // Most lines are no code: told by their bytes, before anything is split.
    if !(8..=64).contains(&code.len())
        || !code
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b' ')
    {
        return None;
    }
    let groups: Vec<&str> = code.split(['-', ' ']).collect();
    let shaped = groups.len() >= 2
        && groups
            .iter()
            .all(|g| (3..=8).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_alphanumeric()))
        && !code.contains("  ")
        && !code.contains("- ")
        && !code.contains(" -");
    let chars: usize = groups.iter().map(|g| g.len()).sum();
    let one_case = !code.bytes().any(|b| b.is_ascii_lowercase())
        || !code.bytes().any(|b| b.is_ascii_uppercase());
    (shaped && chars >= 8 && one_case && code.bytes().any(|b| b.is_ascii_digit())).then(|| {
        let start = line_start + skipped;
        (
            (start, start + code.len()),
            groups.iter().map(|g| g.len()).collect(),
        )
    })
}
