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
    let redactor = ctx.ledger.redactor()?;
    let mut found = Vec::new();
    let out = redactor.redact(&input, &mut found);
    if !found.is_empty() {
        // Originals are kept, so redaction never loses anything.
        ctx.ledger
            .secret_store()
            .store(&found)
            .map_err(trail_core::ledger::LedgerError::from)?;
        eprintln!(
            "trail: redacted {} secret(s); originals are in {}",
            found.len(),
            ctx.ledger.secret_store().path().display()
        );
    }
    output::text(&out)
}
