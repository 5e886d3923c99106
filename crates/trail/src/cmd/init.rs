//! `trail init` / `trail uninstall`: trail's hooks in the agent's settings.

use trail_core::config::Config;
use trail_core::install::{InstallError, claude};

use crate::cli::InitArgs;
use crate::error::{CliError, CliResult};
use crate::output;

impl From<InstallError> for CliError {
    fn from(e: InstallError) -> CliError {
        match e {
            InstallError::Io { .. } => CliError::Failed {
                message: e.to_string(),
                hints: Vec::new(),
            },
            _ => CliError::usage(e.to_string()),
        }
    }
}

pub fn run(args: &InitArgs, install: bool) -> CliResult {
    if args.agent != "claude-code" {
        return Err(CliError::usage(format!(
            "--agent {}: only claude-code is supported so far",
            args.agent
        ))
        .with_hint("Codex CLI hooks are planned; `trail hook codex` already reads its payloads"));
    }
    let config = Config::load()?;
    let home = std::env::var_os("HOME")
        .map(std::path::PathBuf::from)
        .ok_or_else(|| CliError::usage("HOME is not set"))?;
    let path = claude::settings_path(&config.project_root.value, &home, args.global);
    let change = if install {
        let exe = std::env::current_exe()?;
        let exe = exe.canonicalize().unwrap_or(exe);
        let exe = exe.display().to_string();
        let program = if exe.contains(char::is_whitespace) {
            format!("\"{exe}\"")
        } else {
            exe
        };
        claude::install(&path, &format!("{program} hook claude-code"))?
    } else {
        claude::uninstall(&path)?
    };
    if args.json {
        return output::json(&change);
    }
    let verb = if install { "installed" } else { "removed" };
    let text = if change.events.is_empty() {
        format!(
            "nothing to change in {} (trail's hooks were already {})\n",
            path.display(),
            if install { "there" } else { "absent" }
        )
    } else {
        format!(
            "{verb} trail's hooks for {} in {}\n",
            change.events.join(", "),
            path.display()
        )
    };
    output::text(&text)
}
