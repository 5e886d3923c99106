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
    output::text(&out)
}
