//! `trail gate -- COMMAND`: the gate's verdict on one command line. Reads no state, writes none.

use trail_core::config::Config;
use trail_gate::{self as gate, Context, Places, Verdict};

use crate::cli::GateArgs;
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(args: &GateArgs) -> CliResult {
    let config = Config::load()?;
    let mut places = Places::from_env(config.project_root.value.clone(), std::env::current_dir()?)
        .ok_or_else(|| CliError::usage("HOME is not set: the gate needs it to judge paths"))?;
    // Where the ledger and the secret store are, as the PreToolUse hook judges them.
    places.trail_home = Some(config.home.value.clone());
    places.secrets_dir = Some(config.secrets_dir.value.clone());
    // One argument is a whole command line (`trail gate -- 'a | b'`); several are its words.
    let line = if args.command.len() == 1 {
        args.command[0].clone()
    } else {
        args.command.join(" ")
    };
    config.check_gate_rules(trail_gate::custom::check)?;
    let mut ctx = Context::new(places);
    ctx.extra = config.gate_rules();
    ctx.trusted_installers = config.trusted_installers();
    let d = gate::evaluate(&line, &ctx);
    if args.json {
        return output::json(&d);
    }
    let verdict = match d.verdict {
        Verdict::Allow => output::paint("allow", output::Tone::Good),
        Verdict::Junction => output::paint("junction", output::Tone::Caution),
        Verdict::Block => output::paint("block", output::Tone::Bad),
    };
    let rule = d
        .rule
        .as_deref()
        .map(|r| format!(" [{r}]"))
        .unwrap_or_default();
    output::text(&format!("{verdict}{rule}: {}\n", d.reason))
}
