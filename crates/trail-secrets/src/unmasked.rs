//! Values a failing test prints beside the mask it expected: a test that checks a client hides
//! its credential (`expect(sent).toBe("<masked>")`, `assert headers == {'x-upstream':
//! '<redacted>'}`) prints, when it fails, the credential it found instead. Whatever the value's
//! name, its place opposite a mask says what it is.

use crate::nearby::contains_any_case;
use crate::plausible;

/// The spans of values compared with a mask in `text`: Jest's `Expected:`/`Received:` lines,
/// and a line that compares quoted values (`==`, `!=`) where one side is a mask, under the same
/// key when the sides are maps.
pub(crate) fn values(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text the hooks redact comes here: most report no comparison (both readers need
    // `Expected:` or `==`/`!=`, found by a fast search), and fewer hold a mask.
    if !(text.contains("Expected:") || text.contains("==") || text.contains("!="))
        || !MASKS.iter().any(|m| contains_any_case(text, m.as_bytes()))
    {
        return out;
    }
    expected_received(text, &mut out);
    compared(text, &mut out);
    out
}

/// What a mask is written as (`"<masked>"`, `'[REDACTED]'`, `"***"`).
const MASKS: &[&str] = &["masked", "redacted", "***", "hidden"];

/// Whether a quoted literal's content is a mask: one of the words, alone or in brackets, or
/// stars.
fn is_mask(v: &str) -> bool {
    let bare = v.trim_matches(['<', '>', '[', ']', '(', ')', '*', ' ']);
    v.bytes().all(|b| b == b'*') && v.len() >= 3
        || ["masked", "redacted", "hidden"]
            .iter()
            .any(|m| bare.eq_ignore_ascii_case(m))
}

/// A value that could be a generated credential: long, one word, not a placeholder or a mask.
fn generated(v: &str) -> bool {
    v.len() >= 16
        && !v.contains(char::is_whitespace)
        && !is_mask(v)
        && !plausible::is_placeholder(v)
        && v.bytes().any(|b| b.is_ascii_digit())
}

/// Jest's report of an equality (`Expected: "<masked>"` then `Received: "…"`, in either order,
/// within three lines).
fn expected_received(text: &str, out: &mut Vec<(usize, usize)>) {
    let lines: Vec<(usize, &str)> = lines_at(text).collect();
    for (i, &(_, line)) in lines.iter().enumerate() {
        let Some(expected) = labelled(line, "Expected:") else {
            continue;
        };
        if !is_mask(&line[expected.0..expected.1]) {
            continue;
        }
        let near = lines
            .iter()
            .skip(i.saturating_sub(3))
            .take(7)
            .filter(|&&(_, l)| !std::ptr::eq(l, line));
        for &(start, l) in near {
            if let Some((s, e)) = labelled(l, "Received:")
                && generated(&l[s..e])
            {
                out.push((start + s, start + e));
            }
        }
    }
}

/// The quoted value after `label` at a line's start (its indent aside): its span in the line.
fn labelled(line: &str, label: &str) -> Option<(usize, usize)> {
    let value = line.trim_start().strip_prefix(label)?.trim_start();
    let open = line.len() - value.len();
    let quote = value.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let close = value[1..].find(quote)?;
    Some((open + 1, open + 1 + close))
}

/// A line comparing quoted values where one is a mask: every other quoted value under the same
/// key (`{'x-upstream': '…'} == {'x-upstream': '<redacted>'}`), or the other side of a bare
/// comparison (`'…' == '<redacted>'`).
fn compared(text: &str, out: &mut Vec<(usize, usize)>) {
    for (start, line) in lines_at(text) {
        if !(line.contains("==") || line.contains("!=")) {
            continue;
        }
        let literals = quoted(line);
        let masked_keys: Vec<Option<&str>> = literals
            .iter()
            .filter(|l| is_mask(&line[l.span.0..l.span.1]))
            .map(|l| l.key)
            .collect();
        if masked_keys.is_empty() {
            continue;
        }
        for l in &literals {
            let v = &line[l.span.0..l.span.1];
            if l.key.is_some() && masked_keys.contains(&l.key) && generated(v)
                || l.key.is_none() && masked_keys.contains(&None) && generated(v)
            {
                out.push((start + l.span.0, start + l.span.1));
            }
        }
    }
}

/// A quoted literal of a line: its content's span, and the key it is the value of, when a
/// quoted key and `:` come right before it.
struct Literal<'a> {
    span: (usize, usize),
    key: Option<&'a str>,
}

fn quoted(line: &str) -> Vec<Literal<'_>> {
    let b = line.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let q = b[i];
        if q != b'"' && q != b'\'' {
            i += 1;
            continue;
        }
        let Some(len) = line[i + 1..].find(q as char) else {
            break;
        };
        spans.push((i + 1, i + 1 + len));
        i += len + 2;
    }
    let mut out: Vec<Literal<'_>> = Vec::new();
    for (k, &(s, e)) in spans.iter().enumerate() {
        // A key: the literal before, then only `:` and blanks between.
        let key = k.checked_sub(1).and_then(|p| {
            let (ps, pe) = spans[p];
            line[pe + 1..s - 1].trim().eq(":").then_some(&line[ps..pe])
        });
        out.push(Literal { span: (s, e), key });
    }
    out
}

/// Each line of `text` with its offset, its line break taken off.
fn lines_at(text: &str) -> impl Iterator<Item = (usize, &str)> {
    crate::nearby::lines_at(text).map(|(at, line)| (at, line.trim_end_matches(['\n', '\r'])))
}
