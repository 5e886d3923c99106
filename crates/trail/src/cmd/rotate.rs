//! `trail rotate`: archive the stream and start a new one.

use trail_core::ledger::rotate::Rotation;

use crate::cli::RotateArgs;
use crate::context::Context;
use crate::error::CliResult;
use crate::output;

pub fn run(ctx: &Context, args: &RotateArgs) -> CliResult {
    let r = ctx.ledger.rotate(args.force)?;
    let (json, text) = match &r {
        Rotation::NotNeeded { size, threshold } => (
            serde_json::json!({"rotated": false, "size": size, "threshold": threshold}),
            format!(
                "not rotated: the stream is {size} bytes, below the threshold of {threshold} (use --force to rotate anyway)\n"
            ),
        ),
        Rotation::Rotated { archive, size } => (
            serde_json::json!({"rotated": true, "size": size, "archive": archive}),
            format!("rotated: {size} bytes archived to {}\n", archive.display()),
        ),
    };
    if args.json {
        output::json(&json)
    } else {
        output::text(&text)
    }
}
