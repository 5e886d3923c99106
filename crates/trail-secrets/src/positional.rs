//! Values given by position to fields declared by name: a Go table test declares its cases'
//! fields (`name string`, `cred string`) and then lists each case as a literal in that order
//! (`{"prod", "api.acme.example", "…", 200}`). No name stands beside the value, but the
//! declaration says what each position holds, as a table's header or an SQL column list does.

use crate::plausible::{self, Written};

/// The spans of the values that case literals give a field named for a credential.
pub(crate) fn values(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    // Every text the hooks redact comes here: most declare no struct.
    if !text.contains("struct") {
        return out;
    }
    for (at, _) in text.match_indices("struct") {
        // The declaration's brace follows the word, blanks aside (looked at there, not
        // searched for: a long text with the word many times is read once).
        let after = at + "struct".len();
        let rest = text[after..].trim_start();
        if !rest.starts_with('{') {
            continue;
        }
        let body_start = text.len() - rest.len() + 1;
        let Some(body_len) = text[body_start..].find('}') else {
            continue;
        };
        let fields = fields(&text[body_start..body_start + body_len]);
        let Some(k) = fields.iter().position(|f| plausible::names_a_credential(f)) else {
            continue;
        };
        cases(text, body_start + body_len + 1, &fields, k, &mut out);
    }
    out
}

/// The field names a struct's body declares, in order (`name, host string` declares two).
fn fields(body: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for decl in body.split(['\n', ';']) {
        let decl = decl.trim();
        if decl.is_empty() || decl.starts_with("//") {
            continue;
        }
        // The type is the last word; the names are what comes before it.
        let Some((list, _ty)) = decl.rsplit_once(char::is_whitespace) else {
            return Vec::new();
        };
        for name in list.split(',') {
            let name = name.trim();
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Vec::new();
            }
            names.push(name);
        }
    }
    names
}

/// The case literals after a declaration (`{…}` with as many values as there are fields):
/// each one's `k`-th value, when it is a string that reads as that field's credential.
fn cases(text: &str, from: usize, fields: &[&str], k: usize, out: &mut Vec<(usize, usize)>) {
    let b = text.as_bytes();
    let mut i = from;
    // A table lists its cases within a few thousand bytes of its declaration.
    let mut end = (from + 8192).min(b.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    while i < end {
        if b[i] != b'{' {
            i += 1;
            continue;
        }
        let Some(close) = text[i + 1..end].find(['}', '{']) else {
            break;
        };
        let close = i + 1 + close;
        if b[close] == b'{' {
            i = close;
            continue;
        }
        let values = split_values(text, i + 1, close);
        if values.len() == fields.len()
            && let Some(&(s, e)) = values.get(k)
            && e > s + 1
            && b[s] == b'"'
            && b[e - 1] == b'"'
            && plausible::plausible_assignment(fields[k], &text[s + 1..e - 1], Written::Quoted)
        {
            out.push((s + 1, e - 1));
        }
        i = close + 1;
    }
}

/// The comma-separated values between `from` and `to`, each trimmed, quotes kept; a comma
/// inside a string does not separate.
fn split_values(text: &str, from: usize, to: usize) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = from;
    let mut quoted = false;
    for i in from..to {
        match b[i] {
            b'"' if i == 0 || b[i - 1] != b'\\' => quoted = !quoted,
            b',' if !quoted => {
                out.push(trimmed(text, start, i));
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = trimmed(text, start, to);
    if last.1 > last.0 {
        out.push(last);
    }
    out
}

fn trimmed(text: &str, from: usize, to: usize) -> (usize, usize) {
    let piece = &text[from..to];
    let lead = piece.len() - piece.trim_start().len();
    let trail = piece.len() - piece.trim_end().len();
    (from + lead, to - trail)
}
