//! `trail demo`: a realistic session on a throwaway ledger, step by step. No network, no
//! account, nothing outside a temporary directory is touched. Three chapters, each a file: the
//! pulse stream ([`ledger`]), a gated agent session ([`gate`]), daily memory and a dream
//! ([`memory`]).

mod gate;
mod ledger;
mod memory;
mod report;

use std::io::Write as _;
use std::path::Path;
use std::sync::Arc;

use trail_core::secrets::Secrets;

use crate::cli::DemoArgs;
use crate::error::CliResult;

/// Where the chapters write what they show (the terminal, flushed as it goes).
type Say<'a> = &'a mut dyn FnMut(&str) -> CliResult;

/// Text shown as a block under a step.
fn indent(s: &str) -> String {
    s.lines().flat_map(|l| ["    ", l, "\n"]).collect()
}

pub fn run(args: &DemoArgs) -> CliResult {
    let tmp;
    let dir: &Path = if let Some(d) = &args.keep {
        std::fs::create_dir_all(d)?;
        d
    } else {
        tmp = tempfile::Builder::new().prefix("trail-demo-").tempdir()?;
        tmp.path()
    };
    let home = dir.join("home");
    let project = dir.join("project");
    let mut out = std::io::stdout().lock();
    let mut say = |s: &str| -> CliResult {
        out.write_all(s.as_bytes())?;
        out.flush()?;
        Ok(())
    };
    // One secrets service for the whole demo, as in every trail process: its originals are
    // kept under the demo's home.
    let secrets = Arc::new(Secrets::new(home.join(".secrets"), Vec::new()));
    ledger::ledger_chapter(dir, &home, &secrets, &mut say)?;
    let stream = trail_core::ledger::Ledger::open(
        dir.join("ledger"),
        trail_core::ledger::LedgerOptions::new(home.join(".secrets")),
    )
    .with_secrets(secrets.clone());
    let next = gate::gate_chapter(&project, &home, &secrets, &stream, 14, &mut say)?;
    let next = memory::dream_chapter(&project, &secrets, next, &mut say)?;
    let page = report::report_chapter(dir, &home, &project, &secrets, next, &mut say)?;
    say("\nDone. Everything above ran offline in a temporary directory")?;
    if args.keep.is_some() {
        say(&format!(
            " kept at {} (open {} in a browser).\n",
            dir.display(),
            page.display()
        ))
    } else {
        say(" that is now removed (use --keep DIR to look around and open the report).\n")
    }
}
