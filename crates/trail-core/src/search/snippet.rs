//! The snippet of a hit: the line of the document that best matches the query, on one line,
//! redacted, and cut to a window around the match.
//!
//! The redactor sees more than the line: a private key's body is one line among many, and only
//! its surroundings (`-----BEGIN … PRIVATE KEY-----`) make it a secret. So the surroundings are
//! redacted first, and anything they reveal as a secret is hidden in the line too.

use serde_json::Value;

use super::query::Matcher;
use crate::secrets::Redactor;

/// Characters of a snippet, at most.
pub(crate) const WIDTH: usize = 200;

/// Lines of a record that only frame it: shown only when nothing else matches.
const FRAMING: [&str; 8] = [
    "---",
    "schema:",
    "ts:",
    "type:",
    "prev:",
    "<!-- seal",
    "focus:",
    "intent:",
];

/// The best line of `doc` and its index among the document's lines.
pub(crate) fn best_line<'d>(doc: &'d [u8], matchers: &[Matcher]) -> (usize, &'d [u8]) {
    // Most distinct terms, then most matches, then a content line over framing; the first of
    // equals (`max_by_key` keeps the last, hence the reversed index).
    doc.split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, line)| !line.trim_ascii().is_empty())
        .max_by_key(|&(i, line)| {
            let (distinct, total) = matched(line, matchers);
            let trimmed = line.trim_ascii();
            let content = !FRAMING.iter().any(|f| trimmed.starts_with(f.as_bytes()));
            (distinct, total, content, std::cmp::Reverse(i))
        })
        .unwrap_or((0, &doc[..0]))
}

/// `line` made presentable: quoting of trail's own formats undone, redacted (in the light of
/// `context`, the text around it), on one line, at most [`WIDTH`] characters around the first
/// match.
pub(crate) fn render(
    line: &[u8],
    context: &[u8],
    matchers: &[Matcher],
    redactor: &Redactor,
) -> String {
    finish(
        &unquote(&String::from_utf8_lossy(line)),
        context,
        matchers,
        redactor,
    )
}

/// A JSON line (the proof log, the trajectory) shown as its best matching field, `key: value`.
pub(crate) fn render_json(
    line: &[u8],
    context: &[u8],
    matchers: &[Matcher],
    redactor: &Redactor,
) -> String {
    let field = match serde_json::from_slice::<Value>(line) {
        Ok(Value::Object(o)) => o
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) => format!("{k}: {s}"),
                other => format!("{k}: {other}"),
            })
            .max_by_key(|f| {
                let (distinct, total) = matched(f.as_bytes(), matchers);
                // Equal matches: the earlier field (max_by_key keeps the last of equals).
                (distinct, total, std::cmp::Reverse(f.len()))
            }),
        _ => None,
    };
    match field {
        Some(f) => finish(&f, context, matchers, redactor),
        None => render(line, context, matchers, redactor),
    }
}

/// (distinct terms, matches) of `text`.
fn matched(text: &[u8], matchers: &[Matcher]) -> (usize, usize) {
    matchers.iter().fold((0, 0), |(d, t), re| {
        let n = re.regex().find_iter(text).count();
        (d + usize::from(n > 0), t + n)
    })
}

fn finish(text: &str, context: &[u8], matchers: &[Matcher], redactor: &Redactor) -> String {
    let text = redact(text, &String::from_utf8_lossy(context), redactor);
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let first = matchers
        .iter()
        .filter_map(|re| re.regex().find(flat.as_bytes()).map(|m| m.start()))
        .min()
        .unwrap_or(0);
    window(&flat, first)
}

/// `key: "json"` and `- "json"` (how trail writes front matter and facts) shown as their value.
fn unquote(line: &str) -> String {
    let t = line.trim();
    let (head, quoted) = match t.find(": \"") {
        Some(i) if t.ends_with('"') => (&t[..i + 2], &t[i + 2..]),
        _ => match t.strip_prefix("- \"") {
            Some(_) if t.ends_with('"') => ("- ", &t[2..]),
            _ => return t.to_string(),
        },
    };
    match serde_json::from_str::<Value>(quoted) {
        Ok(Value::String(v)) => format!("{head}{v}"),
        _ => t.to_string(),
    }
}

/// Redact `text`, and hide whatever `context` shows to be a secret: a line inside a private
/// key's body becomes the key's reference.
fn redact(text: &str, context: &str, redactor: &Redactor) -> String {
    let mut found = Vec::new();
    let _ = redactor.redact(context, &mut found);
    let mut out = redactor.redact(text, &mut Vec::new()).into_owned();
    let bare = text.trim();
    for f in &found {
        let reference = format!("${{secret:{}}}", f.name);
        let value = f.value.trim();
        if value.is_empty() {
            continue;
        }
        if out.contains(value) {
            out = out.replace(value, &reference);
        } else if bare.len() >= 8 && value.contains(bare) {
            out = reference;
        } else {
            // Parts of a multi-line value that share this line: each of its lines, if long
            // enough to be a secret's and not a mere word.
            for part in value.lines().map(str::trim).filter(|p| p.len() >= 16) {
                if out.contains(part) {
                    out = out.replace(part, &reference);
                }
            }
        }
    }
    out
}

/// At most [`WIDTH`] characters of `s`, around byte offset `at`; `…` marks a cut.
fn window(s: &str, at: usize) -> String {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    if chars.len() <= WIDTH {
        return s.to_string();
    }
    let at = chars.iter().position(|&(i, _)| i >= at).unwrap_or(0);
    let from = at.saturating_sub(WIDTH / 4).min(chars.len() - WIDTH);
    let to = from + WIDTH;
    let mut out = String::new();
    if from > 0 {
        out.push('…');
    }
    out.extend(chars[from..to].iter().map(|&(_, c)| c));
    if to < chars.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::query::Query;

    fn q(s: &str) -> Vec<Matcher> {
        Query::lexical(s).unwrap().matchers().to_vec()
    }

    #[test]
    fn the_line_with_most_terms_wins_and_framing_loses_ties() {
        let doc = b"---\nschema: ledgerpulse/v1\ntype: pulse\nnext:\n  - \"run the pulse tests\"\n";
        let (i, line) = best_line(doc, &q("pulse"));
        assert_eq!((i, line), (4, &b"  - \"run the pulse tests\""[..]));
        let (_, line) = best_line(b"a staging\nstaging port\nport\n", &q("staging port"));
        assert_eq!(line, b"staging port");
    }

    #[test]
    fn quoting_is_undone_and_long_lines_are_cut_around_the_match() {
        let m = q("needle");
        assert_eq!(
            render(
                b"  summary: \"a \\\"b\\\" needle\"",
                b"",
                &m,
                Redactor::builtin()
            ),
            "summary: a \"b\" needle"
        );
        let long = format!("{} needle {}", "x".repeat(500), "y".repeat(500));
        let s = render(long.as_bytes(), b"", &m, Redactor::builtin());
        assert!(
            s.starts_with('…') && s.ends_with('…') && s.contains("needle"),
            "{s}"
        );
        assert_eq!(s.chars().count(), WIDTH + 2);
        assert_eq!(
            render(b"bell\x07 \x1b[31mred", b"", &m, Redactor::builtin()),
            "bell [31mred"
        );
    }

    #[test]
    fn a_json_line_shows_its_best_field() {
        let line = br#"{"timestamp":"2026-11-26T10:00:00Z","tool":"Bash","input_preview":"psql -p 5433 staging","success":true}"#;
        assert_eq!(
            render_json(line, line, &q("staging 5433"), Redactor::builtin()),
            "input_preview: psql -p 5433 staging"
        );
        assert_eq!(
            render_json(b"not json staging", b"", &q("staging"), Redactor::builtin()),
            "not json staging"
        );
    }

    #[test]
    fn a_line_inside_a_private_key_is_hidden_by_its_surroundings() {
        let key = "-----BEGIN RSA PRIVATE KEY-----\nmdVPlW354z9gY69gmsXlO85zSLAAUkNEbCiW69DD48gKSdUkz+Pe/pIlRvnZzM6M\nr8bpf1iIFYqNfMxhM8nAuO77O0+bDq1ld7U07UGWwALKYnWKFonOWsUQO2WUheVC\n-----END RSA PRIVATE KEY-----\n";
        let line = key.lines().nth(2).unwrap();
        let shown = render(
            line.as_bytes(),
            key.as_bytes(),
            &q("r8bpf1iIFYqN"),
            Redactor::builtin(),
        );
        assert!(shown.starts_with("${secret:"), "{shown}");
        assert!(!shown.contains("r8bpf1"), "{shown}");
        let token = "token ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ here";
        let shown = render(
            token.as_bytes(),
            token.as_bytes(),
            &q("token"),
            Redactor::builtin(),
        );
        assert!(
            !shown.contains("ghp_R2d9") && shown.contains("${secret:"),
            "{shown}"
        );
    }
}
