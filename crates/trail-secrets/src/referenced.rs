//! A value written once and sent by reference: an HTTP client file's `@secretHeader = …` sent
//! as `api-key: {{secretHeader}}` (VS Code's REST Client, Hurl's and Bruno's variables, a
//! Postman environment's value used in a header). Where it is defined, the value stands under a
//! name that says nothing (`secretHeader`, `k1`); where it is used, the place says what it is.
//! The use is judged with the value put in its place; a secret there is a secret where it is
//! defined.

/// The uses of `{{name}}` in `text`: the line's span, the reference's span, and the name.
pub(crate) fn uses(text: &str) -> impl Iterator<Item = Use<'_>> {
    text.match_indices("{{").filter_map(move |(open, _)| {
        let inner = &text[open + 2..];
        let close = inner.find("}}")?;
        let name = inner[..close].trim();
        if name.is_empty()
            || name.len() > 64
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        {
            return None;
        }
        let line_start = text[..open].rfind('\n').map_or(0, |n| n + 1);
        let end = open + 2 + close + 2;
        let line_end = text[end..].find('\n').map_or(text.len(), |n| end + n);
        Some(Use {
            line: (line_start, line_end),
            reference: (open, end),
            name,
        })
    })
}

pub(crate) struct Use<'t> {
    pub(crate) line: (usize, usize),
    pub(crate) reference: (usize, usize),
    pub(crate) name: &'t str,
}

/// Where `name` is given its value in `text`, as one word: `@name = value` (REST Client),
/// `name: value` or `name = value` on a line of its own (Hurl's and Bruno's `vars`, a
/// `.env`), or `"name": "value"` (an environment's JSON). The value's span, quotes left out.
pub(crate) fn definition(text: &str, name: &str) -> Option<(usize, usize)> {
    let mut at = 0;
    while let Some(found) = text[at..].find(name) {
        let start = at + found;
        at = start + name.len();
        let before = &text[..start];
        let line_head = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
        let head = line_head.trim_start_matches([' ', '\t']);
        let quoted = head == "\"";
        if !(head.is_empty() || head == "@" || quoted) {
            continue;
        }
        let mut rest = &text[at..];
        if quoted {
            let Some(r) = rest.strip_prefix('"') else {
                continue;
            };
            rest = r;
        }
        let trimmed = rest.trim_start_matches([' ', '\t']);
        let Some(after_op) = trimmed.strip_prefix(['=', ':']) else {
            continue;
        };
        let value = after_op.trim_start_matches([' ', '\t']);
        let quote = value.starts_with(['"', '\'']).then(|| &value[..1]);
        let body = quote.map_or(value, |q| &value[q.len()..]);
        let body_at = text.len() - body.len();
        let len = body
            .find(|c: char| c.is_whitespace() || c == '"' || c == '\'' || c == ',')
            .unwrap_or(body.len());
        // One word, closed where it was opened; `{{…}}` is another reference.
        if len == 0
            || body[..len].contains("{{")
            || quote.is_some_and(|q| !body[len..].starts_with(q))
        {
            continue;
        }
        return Some((body_at, body_at + len));
    }
    None
}
