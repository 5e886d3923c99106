//! One file per command.

mod blame;
mod budget;
pub(crate) mod checkpoint;
mod cite;
pub(crate) mod config;
mod decide;
mod demo;
mod doctor;
mod dream;
mod edge;
mod gate;
mod ghosts;
mod ground;
mod heal;
mod import;
mod init;
mod log;
mod mcp;
mod memory;
pub(crate) mod notes;
mod pulse;
mod redact;
mod report;
mod resume;
mod rotate;
mod search;
mod show;
mod sync;
mod trajectory;
mod transcript;
pub mod trust;
mod verify;

use clap::{ArgMatches, FromArgMatches};

use crate::cli::{Cli, Command};
use crate::context::Context;
use crate::error::CliResult;
use trail_hook::edge::EdgeCmd;

pub fn dispatch(matches: &ArgMatches) -> CliResult {
    let cli = match Cli::from_arg_matches(matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    match cli.command {
        Command::Demo(a) => demo::run(&a),
        Command::Gate(a) => gate::run(&a),
        Command::Cite(c) => cite::run(&c),
        Command::Ground(a) => ground::run(&a),
        Command::Trajectory(a) => trajectory::run(&a),
        Command::Budget(a) => budget::run(&Context::load()?, &a),
        Command::Ghosts(a) => ghosts::run(&Context::load()?, &a),
        Command::Heal(a) => heal::run(&Context::load()?, &a),
        Command::Decide(a) => decide::run(&Context::load()?, &a),
        Command::Checkpoint(a) => checkpoint::run(&Context::load()?, &a),
        Command::Show(a) => show::run(&Context::load()?, &a),
        Command::Transcript(a) => transcript::run(&a),
        Command::Dream(a) => dream::run(&Context::load()?, &a),
        Command::Memory(m) => memory::run(&Context::load()?, &m),
        Command::Notes(c) => notes::run(&c),
        // Rendered to memory first: clap_complete panics on a closed pipe (`| head`), and
        // trail's own output handles one.
        Command::Completions { shell } => {
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut crate::cli::command(), "trail", &mut buf);
            crate::output::text(&String::from_utf8_lossy(&buf))
        }
        Command::Man => {
            let mut buf = Vec::new();
            clap_mangen::Man::new(crate::cli::command())
                .render(&mut buf)
                .map_err(|e| {
                    crate::error::CliError::failed(format!("cannot render the man page: {e}"))
                })?;
            crate::output::text(&String::from_utf8_lossy(&buf))
        }
        Command::Remember { note, json } => memory::remember(&Context::load()?, &note, json),
        Command::Recall { query, limit, json } => {
            memory::recall(&Context::load()?, &query, limit, json)
        }
        Command::Search(a) => search::run(&Context::load()?, &a),
        Command::BuildSearchCache { json } => search::build_cache(&Context::load()?, json),
        Command::Import(a) => import::run(&Context::load()?, &a),
        Command::Status { json } => edge::status(json),
        Command::Mode {
            mode,
            objective,
            json,
        } => edge::mode(&mode, objective, json),
        Command::Approve { id, json } => edge::decide(EdgeCmd::Approve(id), json),
        Command::Dismiss { minutes, id, json } => edge::decide(EdgeCmd::Dismiss(minutes, id), json),
        Command::Skip { id, json } => edge::decide(EdgeCmd::Skip(id), json),
        Command::Doctor(a) => doctor::run(&a),
        Command::Mcp => mcp::run(),
        Command::Init(a) => init::run(&a, true),
        Command::Uninstall(a) => init::run(&a, false),
        // Normally dispatched in main before argument parsing; this path serves the rest.
        Command::Hook { host } => {
            if trail_hook::run(Some(&host)) == std::process::ExitCode::SUCCESS {
                Ok(())
            } else {
                Err(crate::error::CliError::CheckFailed)
            }
        }
        Command::Redact => redact::run(&Context::load()?),
        Command::Config(a) => config::run(&a),
        Command::Trust(a) => trust::run(&a),
        Command::Pulse(a) => {
            let sub = matches.subcommand_matches("pulse").expect("pulse matches");
            pulse::run(&Context::load()?, &a, sub)
        }
        Command::Resume(a) => resume::run(&Context::load()?, &a),
        Command::Log(a) => log::run(&Context::load()?, &a),
        Command::Report(a) => report::run(&Context::load()?, &a),
        Command::Blame(a) => blame::run(&Context::load()?, &a),
        Command::Verify(a) => verify::run(&Context::load()?, &a),
        Command::Rotate(a) => rotate::run(&Context::load()?, &a),
        Command::Sync(a) => sync::run(&Context::load()?, &a),
        Command::MergeNotes { base, ours, theirs } => notes::merge_driver(&base, &ours, &theirs),
    }
}
