//! `trail redact`: the ledger's secret filter on stdin → stdout.

use std::io::Read;

use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context) -> CliResult {
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| CliError::usage(format!("cannot read stdin as UTF-8 text: {e}")))?;
    // Originals are kept, so redaction never loses anything.
    let (out, names) = ctx
        .secrets
        .pass(|p| (p.redact(&input).into_owned(), p.names()))?;
    if !names.is_empty() {
        eprintln!(
            "trail: redacted {} secret(s); originals are in {}",
            names.len(),
            ctx.secrets.store_path().display()
        );
    }
    say_placeholders(ctx, &input);
    output::text(&out)
}

/// Tell the person, on stderr, what looked like a key but was kept as a placeholder
/// (`${API_KEY}`, `your-token-here`): had they meant a real key, it would have been redacted.
pub fn say_placeholders(ctx: &Context, text: &str) {
    let Ok(redactor) = ctx.secrets.redactor() else {
        return;
    };
    let kept = redactor.placeholders(text);
    if kept.is_empty() {
        return;
    }
    let shown: Vec<String> = kept
        .iter()
        .take(5)
        .map(|k| {
            let short: String = k.chars().take(40).collect();
            if short.len() < k.len() {
                format!("`{short}…`")
            } else {
                format!("`{short}`")
            }
        })
        .collect();
    let more = kept.len().saturating_sub(shown.len());
    eprintln!(
        "trail: kept {} as written: {} look{} like a key but {} a placeholder{}",
        if kept.len() == 1 {
            "one value"
        } else {
            "values"
        },
        shown.join(", "),
        if kept.len() == 1 { "s" } else { "" },
        if kept.len() == 1 { "is" } else { "are" },
        if more > 0 {
            format!(" (and {more} more)")
        } else {
            String::new()
        }
    );
}
