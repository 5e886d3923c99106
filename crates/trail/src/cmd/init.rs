//! `trail init` / `trail uninstall`: trail's hooks in the agent's settings, the `/edge` slash
//! command, and the instruction block in `CLAUDE.md` / `AGENTS.md`. Idempotent both ways: a
//! second run changes nothing; uninstall removes only what init added.

use std::path::{Path, PathBuf};

use serde::Serialize;
use trail_core::config::Config;
use trail_core::install::claude::{self, HostSpec};
use trail_core::install::{InstallError, codex, files};

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

/// One file init or uninstall looked at.
#[derive(Serialize)]
struct FileChange {
    path: PathBuf,
    what: &'static str,
    changed: bool,
}

#[derive(Serialize)]
struct Report {
    agent: String,
    hooks: trail_core::install::Change,
    files: Vec<FileChange>,
}

/// Where a host keeps its hook settings: (project root, home, global) → file.
type SettingsPath = fn(&Path, &Path, bool) -> PathBuf;

const GITIGNORE: &str = "# trail's locks, hashes and grants journal: machine-local\nstate/\n";

pub fn run(args: &InitArgs, install: bool) -> CliResult {
    let (host, settings): (&HostSpec, SettingsPath) = match args.agent.as_str() {
        "claude-code" | "claude" => (&claude::CLAUDE, claude::settings_path),
        "codex" => (&codex::CODEX, codex::hooks_path),
        other => {
            return Err(CliError::usage(format!(
                "--agent {other}: trail knows claude-code and codex"
            )));
        }
    };
    let config = Config::load()?;
    let root = config.project_root.value.clone();
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .ok_or_else(|| CliError::usage("HOME is not set"))?;
    let path = settings(&root, &home, args.global);
    let hooks = if install {
        let exe = std::env::current_exe()?;
        let exe = exe.canonicalize().unwrap_or(exe);
        let exe = exe.display().to_string();
        let program = if exe.contains(char::is_whitespace) {
            format!("\"{exe}\"")
        } else {
            exe
        };
        claude::install_for(host, &path, &format!("{program} hook {}", host.word))?
    } else {
        claude::uninstall_for(host, &path)?
    };
    let mut changed = Vec::new();
    let claude_host = host.word == "claude-code";
    if claude_host {
        let base = if args.global {
            home.join(".claude")
        } else {
            root.join(".claude")
        };
        let p = base.join("commands").join("edge.md");
        let c = if install {
            files::install_command(&p)?
        } else {
            files::uninstall_command(&p)?
        };
        changed.push(FileChange {
            path: p,
            what: "the /edge slash command",
            changed: c,
        });
    }
    if !args.global {
        let p = root.join(if claude_host {
            "CLAUDE.md"
        } else {
            "AGENTS.md"
        });
        let c = if install {
            files::install_block(&p)?
        } else {
            files::uninstall_block(&p)?
        };
        changed.push(FileChange {
            path: p,
            what: "the instruction block",
            changed: c,
        });
        let p = trail_core::layout::Layout::new(&root).gitignore();
        let c = gitignore(&root, &p, install)?;
        changed.push(FileChange {
            path: p,
            what: "git-ignore for .trail/state",
            changed: c,
        });
    }
    let report = Report {
        agent: host.word.to_string(),
        hooks,
        files: changed,
    };
    if args.json {
        return output::json(&report);
    }
    let verb = if install { "installed" } else { "removed" };
    let mut text = if report.hooks.events.is_empty() {
        format!(
            "hooks: nothing to change in {} (trail's hooks were already {})\n",
            path.display(),
            if install { "there" } else { "absent" }
        )
    } else {
        format!(
            "hooks: {verb} trail's hooks for {} in {}\n",
            report.hooks.events.join(", "),
            path.display()
        )
    };
    for f in &report.files {
        text.push_str(&format!(
            "{}: {} {}\n",
            f.what,
            if f.changed { verb } else { "unchanged" },
            f.path.display()
        ));
    }
    if install && host.word == "codex" {
        text.push_str("Codex runs these hooks only in a trusted project with reviewed hooks: open `codex` here once and trust the project and its hooks (or set [projects.\"<dir>\"] trust_level = \"trusted\" in ~/.codex/config.toml and review them with /hooks).\n");
    }
    output::text(&text)
}

fn gitignore(root: &Path, p: &Path, install: bool) -> Result<bool, InstallError> {
    let io = |action: &'static str| {
        move |source| InstallError::Io {
            action,
            path: p.into(),
            source,
        }
    };
    // A symlinked `.trail` is refused here, at install, with what to do about it.
    let current = match trail_core::fsutil::read_string_in(root, p, 4096) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io("read")(e)),
    };
    if install {
        if current.is_some() {
            return Ok(false);
        }
        trail_core::fsutil::atomic_write_in(root, p, GITIGNORE.as_bytes()).map_err(io("write"))?;
        Ok(true)
    } else if current.as_deref() == Some(GITIGNORE) {
        std::fs::remove_file(p).map_err(io("remove"))?;
        Ok(true)
    } else {
        Ok(false)
    }
}
