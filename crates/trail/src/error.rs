//! The one place where failures become messages, hints and exit codes.

use std::io;
use std::process::ExitCode;

use trail_core::config::ConfigError;
use trail_core::ledger::store::LedgerError;
use trail_core::llm::{KEY_VAR, LlmError};
use trail_core::state::StateError;

/// How a command ended when it did not simply succeed.
#[derive(Debug)]
pub enum CliError {
    /// Bad input or usage: nothing was written. Exit 2.
    Usage { message: String, hints: Vec<String> },
    /// A check ran and failed (verify found damage, …); the command printed its findings. Exit 1.
    CheckFailed,
    /// The environment failed us (I/O, permissions). Exit 1.
    Failed { message: String, hints: Vec<String> },
    /// Output went to a closed pipe: the reader has what it wanted. Exit 0.
    BrokenPipe,
}

pub type CliResult<T = ()> = Result<T, CliError>;

impl CliError {
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError::Usage {
            message: message.into(),
            hints: Vec::new(),
        }
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> CliError {
        match &mut self {
            CliError::Usage { hints, .. } | CliError::Failed { hints, .. } => {
                hints.push(hint.into())
            }
            _ => {}
        }
        self
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return CliError::BrokenPipe;
        }
        CliError::Failed {
            message: e.to_string(),
            hints: Vec::new(),
        }
    }
}

impl From<StateError> for CliError {
    fn from(e: StateError) -> CliError {
        match e {
            StateError::Refused(r) => {
                let e = CliError::usage(r.to_string());
                match crate::edge::what_to_do(&r) {
                    Some(h) => e.with_hint(h),
                    None => e,
                }
            }
            StateError::Parse { .. } | StateError::Invalid { .. } => CliError::Failed {
                message: e.to_string(),
                hints: vec!["fix the file by hand (trail never overwrites a file it cannot read), then retry".into()],
            },
            StateError::LockTimeout { .. } => CliError::Failed {
                message: e.to_string(),
                hints: vec!["another trail process holds the state; retry in a moment".into()],
            },
            StateError::Io { .. } => CliError::Failed {
                message: e.to_string(),
                hints: Vec::new(),
            },
        }
    }
}

impl From<LedgerError> for CliError {
    fn from(e: LedgerError) -> CliError {
        match e {
            LedgerError::Record(r) => CliError::usage(r.to_string()),
            LedgerError::Parse(m) => CliError::usage(m),
            LedgerError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => {
                CliError::BrokenPipe
            }
            LedgerError::Io {
                ref source,
                ref path,
                ..
            } => {
                let hint = match source.kind() {
                    io::ErrorKind::PermissionDenied => Some(format!(
                        "check the permissions of {} (or point TRAIL_HOME elsewhere)",
                        path.display()
                    )),
                    io::ErrorKind::StorageFull => {
                        Some("free some disk space; nothing was acknowledged".into())
                    }
                    _ => None,
                };
                CliError::Failed {
                    message: e.to_string(),
                    hints: hint.into_iter().collect(),
                }
            }
            other => CliError::Failed {
                message: other.to_string(),
                hints: Vec::new(),
            },
        }
    }
}

impl From<ConfigError> for CliError {
    fn from(e: ConfigError) -> CliError {
        CliError::usage(format!("configuration: {e}"))
            .with_hint("`trail config` shows every setting and where it came from")
    }
}

impl From<trail_core::search::SearchError> for CliError {
    fn from(e: trail_core::search::SearchError) -> CliError {
        use trail_core::search::SearchError;
        match e {
            SearchError::Query(q) => CliError::usage(q.to_string()),
            SearchError::Ck(_) => CliError::Failed {
                message: e.to_string(),
                hints: vec!["run the same search without --semantic or --hybrid".into()],
            },
        }
    }
}

impl From<trail_core::llm::LlmError> for CliError {
    fn from(e: trail_core::llm::LlmError) -> CliError {
        let hint = llm_hint(&e);
        // A missing key, model or command is a configuration problem: nothing was tried.
        let setup = matches!(e, trail_core::llm::LlmError::Setup { .. });
        let message = if setup {
            e.to_string()
        } else {
            format!("{e}; nothing was written")
        };
        let err = if setup {
            CliError::usage(message)
        } else {
            CliError::Failed {
                message,
                hints: Vec::new(),
            }
        };
        match hint {
            Some(h) => err.with_hint(h),
            None => err,
        }
    }
}

impl From<trail_core::memory::dream::DreamError> for CliError {
    fn from(e: trail_core::memory::dream::DreamError) -> CliError {
        use trail_core::memory::dream::DreamError;
        const SHOWN: usize = 10;
        let message = e.to_string();
        let failed = |hints: Vec<String>| CliError::Failed {
            message: message.clone(),
            hints,
        };
        match e {
            DreamError::Llm(l) => l.into(),
            DreamError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => {
                CliError::BrokenPipe
            }
            DreamError::Io { .. } => failed(Vec::new()),
            DreamError::NoMemory { .. } => failed(vec![
                "the answer must hold a `[MEMORY]` line followed by `- ` bullets, then `[DREAM]`; \
                 try again, or another model"
                    .into(),
            ]),
            DreamError::NothingSupported { dropped, .. } => {
                let mut h: Vec<String> = dropped
                    .iter()
                    .take(SHOWN)
                    .map(|d| format!("dropped: {} — {}", d.text, d.why))
                    .collect();
                h.push("`trail dream --dry-run` shows the proposal without writing".into());
                failed(h)
            }
            DreamError::TooMuchLost { entries, .. } => {
                let mut h: Vec<String> = entries
                    .iter()
                    .take(SHOWN)
                    .map(|x| format!("would lose: {x}"))
                    .collect();
                if entries.len() > SHOWN {
                    h.push(format!("… and {} more", entries.len() - SHOWN));
                }
                h.push("`trail dream --dry-run` shows the proposal; MEMORY.md is unchanged".into());
                failed(h)
            }
        }
    }
}

/// Print the error (once) and choose the exit code.
pub fn finish(result: CliResult) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(CliError::CheckFailed) => ExitCode::from(1),
        Err(CliError::Usage { message, hints }) => {
            eprintln!("error: {message}");
            for h in hints {
                eprintln!("hint: {h}");
            }
            ExitCode::from(2)
        }
        Err(CliError::Failed { message, hints }) => {
            eprintln!("error: {message}");
            for h in hints {
                eprintln!("hint: {h}");
            }
            ExitCode::from(1)
        }
    }
}

/// What to do next after an LLM error (the words are the CLI's: flags, settings, commands).
fn llm_hint(e: &LlmError) -> Option<String> {
    Some(match e {
        LlmError::Setup { hint, .. } => hint.clone(),
        LlmError::Timeout { .. } => "raise the timeout (TRAIL_LLM_TIMEOUT=300s, or `timeout = \
                                         \"300s\"` under [llm]) or use a faster model"
            .into(),
        LlmError::Connect { .. } => {
            "is the server running and is llm.base_url right? `trail config` shows it".into()
        }
        LlmError::Status { status, .. } => match status {
            401 | 403 => format!(
                "the key was refused: check {KEY_VAR} (or ~/.secrets/trail.env) and the account"
            ),
            404 => "check llm.model and llm.base_url (`trail config` shows both)".into(),
            400 | 413 | 422 => "the request was refused; try a smaller --lookback or another \
                                    model"
                .into(),
            429 | 500..=599 => "the service is busy or failing: try again later, or raise \
                                    llm.retries (TRAIL_LLM_RETRIES)"
                .into(),
            _ => return None,
        },
        LlmError::BadAnswer { .. } => {
            "is llm.base_url an OpenAI-compatible (or Anthropic) endpoint? `trail config`".into()
        }
        LlmError::Command { .. } => "run the command by hand with a prompt on its stdin; \
                                         it must print the answer on stdout and exit 0"
            .into(),
    })
}
