//! Writing to stdout: JSON for machines, and text that survives a closed pipe.

use std::io::{self, Write};

use serde::Serialize;

use crate::error::CliResult;

/// Print one JSON document (pretty when stdout is a terminal).
pub fn json<T: Serialize>(value: &T) -> CliResult {
    let mut out = io::stdout().lock();
    let text = if io::IsTerminal::is_terminal(&io::stdout()) {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    }
    .map_err(io::Error::other)?;
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    Ok(())
}

/// Print text as is.
pub fn text(s: &str) -> CliResult {
    let mut out = io::stdout().lock();
    out.write_all(s.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Whether stderr is a terminal (progress and colour go there only then).
pub fn stderr_is_tty() -> bool {
    io::IsTerminal::is_terminal(&io::stderr())
}

/// Every string in a JSON value redacted (output built from the project's own text).
pub fn redacted(v: serde_json::Value, r: &trail_core::secrets::Redactor) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::String(s) => Value::String(r.redact(&s, &mut Vec::new()).into_owned()),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| redacted(x, r)).collect()),
        Value::Object(m) => {
            Value::Object(m.into_iter().map(|(k, x)| (k, redacted(x, r))).collect())
        }
        other => other,
    }
}
