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

/// How a verdict is shown on a terminal.
#[derive(Clone, Copy)]
pub enum Tone {
    /// Passed, allowed, healthy.
    Good,
    /// A warning, a junction: someone should look.
    Caution,
    /// Failed, blocked, broken.
    Bad,
}

/// `word` in its tone's colour when stdout is a terminal that takes colour; as it is when piped,
/// with `NO_COLOR` set (no-color.org) or `TERM=dumb` (issue 22: verdicts were all one colour).
pub fn paint(word: &str, tone: Tone) -> String {
    if !colour() {
        return word.to_string();
    }
    let code = match tone {
        Tone::Good => "32",
        Tone::Caution => "33",
        Tone::Bad => "1;31",
    };
    format!("\x1b[{code}m{word}\x1b[0m")
}

fn colour() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        io::IsTerminal::is_terminal(&io::stdout())
            && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
            && std::env::var("TERM").map_or(true, |t| t != "dumb")
    })
}

/// Whether stderr is a terminal (progress and colour go there only then).
pub fn stderr_is_tty() -> bool {
    io::IsTerminal::is_terminal(&io::stderr())
}

/// Every string in a JSON value redacted (output built from the project's own text). In place:
/// a string with nothing to replace is left as it is, and no map is built again (rebuilding
/// every object cost `trail resume --json` a sixth of its instructions).
pub fn redacted(mut v: serde_json::Value, r: &trail_core::secrets::Redactor) -> serde_json::Value {
    redact_in_place(&mut v, r);
    v
}

fn redact_in_place(v: &mut serde_json::Value, r: &trail_core::secrets::Redactor) {
    use serde_json::Value;
    match v {
        Value::String(s) => {
            if let std::borrow::Cow::Owned(clean) = r.redact(s, &mut Vec::new()) {
                *s = clean;
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| redact_in_place(x, r)),
        Value::Object(m) => m.values_mut().for_each(|x| redact_in_place(x, r)),
        _ => {}
    }
}
