//! `trail memory flush`: a session's work into today's daily memory.

use trail_core::config::Config;
use trail_core::memory::daily::{Trigger, flush};
use trail_core::time::Ts;

use crate::cli::MemoryCommand;
use crate::context::Context;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(ctx: &Context, cmd: &MemoryCommand) -> CliResult {
    let MemoryCommand::Flush {
        transcript,
        trimmed,
        json,
    } = cmd;
    let text = std::fs::read_to_string(transcript)
        .map_err(|e| CliError::usage(format!("cannot read {}: {e}", transcript.display())))?;
    let t = trail_core::transcript::parse(&text);
    let config = Config::load()?;
    let session = transcript
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned());
    let store = ctx.ledger.secret_store();
    let mut keep = |f: &[trail_core::secrets::Found]| store.store(f).map_err(std::io::Error::other);
    let trigger = if *trimmed {
        Trigger::Compaction
    } else {
        Trigger::SessionEnd
    };
    let done = flush(
        &config.project_root.value,
        &t,
        trigger,
        session.as_deref(),
        Ts::now(),
        ctx.ledger.redactor()?,
        &mut Vec::new(),
        &mut keep,
    )?;
    if *json {
        return output::json(&done);
    }
    output::text(&if done.written {
        format!("flushed to {}\n", done.path.display())
    } else {
        format!(
            "nothing new: this content is already in {}\n",
            done.path.display()
        )
    })
}
