//! A small, deterministic YAML writer for JSON-shaped values.
//!
//! The state file is written in block style a person can read and diff. Strings are left plain
//! only when no YAML reader could take them for anything else; everything else is written as a
//! JSON string literal, which is also a valid YAML double-quoted scalar. A property test reads
//! every output back and compares.

use serde_json::{Map, Value};

pub fn to_string(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => map(&mut out, m, 0),
        other => {
            out.push_str(&inline(other));
            out.push('\n');
        }
    }
    out
}

fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// Scalars and empty collections, which fit on one line.
fn inline(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => scalar(s),
        Value::Array(a) if a.is_empty() => "[]".into(),
        Value::Object(m) if m.is_empty() => "{}".into(),
        // Callers only pass scalars or empty collections here.
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

fn is_block(v: &Value) -> bool {
    match v {
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
        _ => false,
    }
}

fn map(out: &mut String, m: &Map<String, Value>, indent: usize) {
    for (k, v) in m {
        pad(out, indent);
        entry(out, k, v, indent);
    }
}

/// `key: value` with the key already indented.
fn entry(out: &mut String, k: &str, v: &Value, indent: usize) {
    out.push_str(&scalar(k));
    out.push(':');
    if is_block(v) {
        out.push('\n');
        block(out, v, indent + 2);
    } else {
        out.push(' ');
        out.push_str(&inline(v));
        out.push('\n');
    }
}

fn block(out: &mut String, v: &Value, indent: usize) {
    match v {
        Value::Object(m) => map(out, m, indent),
        Value::Array(items) => {
            for item in items {
                pad(out, indent);
                out.push('-');
                match item {
                    Value::Object(m) if !m.is_empty() => {
                        out.push(' ');
                        let mut first = true;
                        for (k, v) in m {
                            if !first {
                                pad(out, indent + 2);
                            }
                            first = false;
                            entry(out, k, v, indent + 2);
                        }
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push('\n');
                        block(out, item, indent + 2);
                    }
                    other => {
                        out.push(' ');
                        out.push_str(&inline(other));
                        out.push('\n');
                    }
                }
            }
        }
        other => {
            pad(out, indent);
            out.push_str(&inline(other));
            out.push('\n');
        }
    }
}

/// Words a YAML 1.1 or 1.2 reader may take for a boolean or null.
const SPECIAL: &[&str] = &[
    "true", "false", "yes", "no", "on", "off", "y", "n", "null", "nan", "inf",
];

/// A string, plain when unambiguous, else a double-quoted literal.
fn scalar(s: &str) -> String {
    let plain = s.starts_with(|c: char| c.is_ascii_alphabetic())
        && !s.ends_with(' ')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ' ' | '_' | '.' | '/' | '-'))
        && !SPECIAL.contains(&s.to_ascii_lowercase().as_str());
    if plain {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn back(v: &Value) -> Value {
        let text = to_string(v);
        serde_saphyr::from_str::<Value>(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn nested_values_read_back_equal() {
        let v = json!({
            "schema_version": 4,
            "mode": "plan",
            "objective": "Ship: the \"gate\" # now",
            "plan": [
                {"description": "Step one", "status": "completed", "proof": "34 tests pass"},
                {"description": "yes", "status": "pending"},
            ],
            "junction": null,
            "allowances": [],
            "observations": {"files_modified": ["/a/b.rs", "c d"], "tools_used": {"Edit": 5}, "tests_run": false},
            "weird key: x": [[1, 2], [], {}, "", "  lead", "multi\nline", "ünï", "1.0", "0x10", "~"],
        });
        assert_eq!(back(&v), v);
    }

    #[test]
    fn ambiguous_strings_are_quoted() {
        for s in ["true", "No", "null", "1", "-x", "a: b", "#c", "~", "", "x "] {
            assert!(scalar(s).starts_with('"'), "{s} should be quoted");
        }
        assert_eq!(
            scalar("plain words/and.paths-ok"),
            "plain words/and.paths-ok"
        );
    }
}
