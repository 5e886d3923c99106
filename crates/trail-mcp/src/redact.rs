//! The one way out: every string the server returns (tool results, structured and as text,
//! resource contents, prompt messages, error messages) is redacted here, whatever it was read
//! from. Most of it was redacted when it was written, but not all of it was written by trail:
//! the state file, NOTES.md and the project's code are the agent's or the person's, and a
//! rule added to the person's config since applies to what was written before it.
//!
//! Secrets found on the way out are not stored: what the server returns is read, not kept,
//! and an original that reached a file trail did not write is not trail's to copy.

use serde_json::Value;
use trail_core::secrets::Redactor;

/// `text`, redacted.
pub fn text(redactor: &Redactor, text: &str) -> String {
    redactor.redact(text, &mut Vec::new()).into_owned()
}

/// `value` with every string in it redacted, object keys included.
pub fn value(redactor: &Redactor, value: Value) -> Value {
    match value {
        Value::String(s) => Value::String(text(redactor, &s)),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|v| self::value(redactor, v))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (text(redactor, &k), self::value(redactor, v)))
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_string_of_a_value_is_redacted_keys_included() {
        let r = Redactor::builtin();
        let token = "ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES";
        let v = serde_json::json!({
            "hits": [{"text": format!("token {token}"), "n": 3}],
            token: true,
        });
        let out = value(r, v).to_string();
        assert!(!out.contains(token), "{out}");
        assert!(out.contains("${secret:"), "{out}");
        assert!(out.contains("\"n\":3"), "{out}");
    }
}
