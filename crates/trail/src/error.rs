//! The one place where failures become messages, hints and exit codes.

use std::error::Error;
use std::io;
use std::process::ExitCode;

use trail_core::config::ConfigError;
use trail_core::file_error::FileError;
use trail_core::install::InstallError;
use trail_core::ledger::LedgerError;
use trail_core::ledger::record::RecordError;
use trail_core::llm::{KEY_VAR, LlmError};
use trail_core::secrets::SecretsError;
use trail_core::state::StateError;
use trail_core::state::schema::Problem;

/// The error a message was made from, kept so that the causes it does not spell out are shown.
pub type Source = Box<dyn Error + Send + Sync>;

/// How a command ended when it did not simply succeed.
#[derive(Debug)]
pub enum CliError {
    /// Bad input or usage: nothing was written. Exit 2.
    Usage {
        message: String,
        hints: Vec<String>,
        source: Option<Source>,
    },
    /// A check ran and failed (verify found damage, …); the command printed its findings. Exit 1.
    CheckFailed,
    /// The environment failed us (I/O, permissions). Exit 1.
    Failed {
        message: String,
        hints: Vec<String>,
        source: Option<Source>,
    },
    /// Output went to a closed pipe: the reader has what it wanted. Exit 0.
    BrokenPipe,
}

pub type CliResult<T = ()> = Result<T, CliError>;

impl CliError {
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError::Usage {
            message: message.into(),
            hints: Vec::new(),
            source: None,
        }
    }
    pub fn failed(message: impl Into<String>) -> CliError {
        CliError::Failed {
            message: message.into(),
            hints: Vec::new(),
            source: None,
        }
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> CliError {
        if let CliError::Usage { hints, .. } | CliError::Failed { hints, .. } = &mut self {
            hints.push(hint.into());
        }
        self
    }
    pub fn with_hints(self, hints: impl IntoIterator<Item = impl Into<String>>) -> CliError {
        hints.into_iter().fold(self, CliError::with_hint)
    }
    /// Keeps the error this one was made from; its causes are printed unless the message already
    /// says them.
    pub fn with_source(mut self, e: impl Into<Source>) -> CliError {
        if let CliError::Usage { source, .. } | CliError::Failed { source, .. } = &mut self {
            *source = Some(e.into());
        }
        self
    }
}

#[allow(
    clippy::redundant_closure_for_method_calls,
    reason = "the paths clippy suggests are longer than the closures"
)]
impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        if e.kind() == io::ErrorKind::BrokenPipe {
            return CliError::BrokenPipe;
        }
        // A writer that reports in `io::Error` (daily memory, the trajectory) carries the
        // secrets service's error inside: a broken rule still gets its hint.
        if e.get_ref().is_some_and(|inner| inner.is::<SecretsError>()) {
            return match e.into_inner().map(|inner| inner.downcast::<SecretsError>()) {
                Some(Ok(secrets)) => (*secrets).into(),
                _ => CliError::failed("cannot redact"),
            };
        }
        // One that said where (a `FileError` inside) gets the same hints as one typed so.
        if e.get_ref().is_some_and(|inner| inner.is::<FileError>()) {
            return match e.into_inner().map(|inner| inner.downcast::<FileError>()) {
                Some(Ok(file)) => (*file).into(),
                _ => CliError::failed("a file could not be read or written"),
            };
        }
        CliError::failed(e.to_string()).with_source(e)
    }
}

impl From<FileError> for CliError {
    fn from(e: FileError) -> CliError {
        let hint = match e.kind() {
            io::ErrorKind::BrokenPipe => return CliError::BrokenPipe,
            io::ErrorKind::PermissionDenied => Some(format!(
                "check the permissions of {} and of the directories above it",
                e.path.display()
            )),
            io::ErrorKind::StorageFull => Some("free some disk space, then run it again".into()),
            _ => None,
        };
        CliError::failed(e.to_string())
            .with_hints(hint)
            .with_source(e)
    }
}

impl From<SecretsError> for CliError {
    fn from(e: SecretsError) -> CliError {
        let err = match &e {
            SecretsError::BadRegex { .. } | SecretsError::ExampleDoesNotMatch { .. } => {
                CliError::usage(e.to_string()).with_hint(SECRET_RULE_HINT)
            }
            SecretsError::Store { .. } => CliError::failed(e.to_string()),
        };
        err.with_source(e)
    }
}

/// How a person sets the mode from a terminal.
const SET_MODE: &str = "set the mode with `trail mode MODE` (plan, active, review or done)";

/// A state file trail cannot read is left as it is.
const FIX_BY_HAND: &str =
    "fix the file by hand (trail never overwrites a file it cannot read), then retry";

impl From<StateError> for CliError {
    fn from(e: StateError) -> CliError {
        let err = match &e {
            StateError::Refused(r) => {
                CliError::usage(r.to_string()).with_hints(trail_hook::edge::what_to_do(r))
            }
            StateError::Parse { .. } => CliError::failed(e.to_string()).with_hint(FIX_BY_HAND),
            StateError::Invalid { problems, .. } => CliError::failed(e.to_string())
                .with_hint(FIX_BY_HAND)
                .with_hints(
                    problems
                        .iter()
                        .any(|p| matches!(p, Problem::Mode(_)))
                        .then_some(SET_MODE),
                ),
            StateError::LockTimeout { .. } => CliError::failed(e.to_string())
                .with_hint("another trail process holds the state; retry in a moment"),
            StateError::Io { .. } => CliError::failed(e.to_string()),
        };
        err.with_source(e)
    }
}

impl From<trail_core::resume::ResumeError> for CliError {
    fn from(e: trail_core::resume::ResumeError) -> CliError {
        match e {
            trail_core::resume::ResumeError::Ledger(e) => e.into(),
            trail_core::resume::ResumeError::Secrets(e) => e.into(),
        }
    }
}

impl From<LedgerError> for CliError {
    fn from(e: LedgerError) -> CliError {
        let e = match e {
            LedgerError::Secrets(s) => return s.into(),
            e => e,
        };
        let err = match &e {
            LedgerError::Record(r) => CliError::usage(r.to_string()).with_hints(record_hint(r)),
            LedgerError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => {
                return CliError::BrokenPipe;
            }
            LedgerError::Io { source, path, .. } => {
                CliError::failed(e.to_string()).with_hints(match source.kind() {
                    io::ErrorKind::PermissionDenied => Some(format!(
                        "check the permissions of {} (or point TRAIL_HOME elsewhere)",
                        path.display()
                    )),
                    io::ErrorKind::StorageFull => {
                        Some("free some disk space; nothing was acknowledged".into())
                    }
                    _ => None,
                })
            }
            LedgerError::Secrets(_) => unreachable!("returned above"),
        };
        err.with_source(e)
    }
}

/// What to change when a record breaks a rule that names no field of its own.
fn record_hint(e: &RecordError) -> Option<&'static str> {
    match e {
        RecordError::TangentChangesIntent { .. } => Some(
            "drop the intent (--intent, or `intent:` in a --stdin record), or write a pulse \
             instead of a tangent",
        ),
        _ => None,
    }
}

impl From<InstallError> for CliError {
    fn from(e: InstallError) -> CliError {
        let retry = match e {
            InstallError::Io { .. } => return CliError::failed(e.to_string()).with_source(e),
            InstallError::Malformed { .. } => {
                "fix or move it, then run `trail init` (or `trail uninstall`) again"
            }
            InstallError::Shape { .. } => {
                "fix it by hand, then run `trail init` (or `trail uninstall`) again"
            }
            InstallError::Foreign { .. } => "move it, then run `trail init` again",
        };
        CliError::usage(e.to_string())
            .with_hint(retry)
            .with_source(e)
    }
}

/// What to do about a `[[secrets.rules]]` entry that does not compile or misses its example.
const SECRET_RULE_HINT: &str = "fix the rule or remove it; `trail config` checks every rule";

impl From<ConfigError> for CliError {
    fn from(e: ConfigError) -> CliError {
        let hint = match e {
            ConfigError::SecretRule(_) => SECRET_RULE_HINT,
            _ => "`trail config` shows every setting and where it came from",
        };
        CliError::usage(format!("configuration: {e}"))
            .with_hint(hint)
            .with_source(e)
    }
}

impl From<trail_core::search::SearchError> for CliError {
    fn from(e: trail_core::search::SearchError) -> CliError {
        use trail_core::search::SearchError;
        match e {
            SearchError::Query(q) => CliError::usage(q.to_string()),
            SearchError::Ck(_) => CliError::failed(e.to_string())
                .with_hint("run the same search without --semantic or --hybrid"),
        }
    }
}

impl From<trail_core::memory::recall::RememberError> for CliError {
    fn from(e: trail_core::memory::recall::RememberError) -> CliError {
        use trail_core::memory::recall::RememberError;
        match e {
            RememberError::File(e) => e.into(),
            RememberError::Secrets(e) => e.into(),
        }
    }
}

impl From<trail_core::memory::daily::FlushError> for CliError {
    fn from(e: trail_core::memory::daily::FlushError) -> CliError {
        use trail_core::memory::daily::FlushError;
        match e {
            FlushError::File(e) => e.into(),
            FlushError::Secrets(e) => e.into(),
        }
    }
}

impl From<trail_core::lookup::LookupError> for CliError {
    fn from(e: trail_core::lookup::LookupError) -> CliError {
        use trail_core::lookup::LookupError;
        match e {
            LookupError::Ledger(e) => e.into(),
            LookupError::Secrets(e) => e.into(),
            LookupError::Search(e) => e.into(),
            LookupError::Memory(e) => e.into(),
        }
    }
}

impl From<trail_core::import::ImportError> for CliError {
    fn from(e: trail_core::import::ImportError) -> CliError {
        use trail_core::import::ImportError;
        let err = match &e {
            ImportError::Ledger(_) => {
                let ImportError::Ledger(l) = e else {
                    unreachable!("matched above")
                };
                return l.into();
            }
            ImportError::NoDir { .. } => CliError::usage(e.to_string()).with_hint(
                "name the directory the sessions are in: `trail import claude-code DIR` or \
                 `trail import codex DIR`",
            ),
            ImportError::Busy => CliError::failed(e.to_string())
                .with_hint("wait for it to finish, then run `trail import` again"),
            ImportError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => {
                return CliError::BrokenPipe;
            }
            ImportError::Io { .. } => CliError::failed(e.to_string()).with_hint(
                "nothing is lost: what was committed stays, and `trail import` resumes the rest",
            ),
        };
        err.with_source(e)
    }
}

impl From<trail_core::llm::LlmError> for CliError {
    fn from(e: trail_core::llm::LlmError) -> CliError {
        let hint = llm_hint(&e);
        // A missing key, model or command is a configuration problem: nothing was tried.
        let setup = matches!(
            e,
            LlmError::NoModel { .. } | LlmError::NoKey { .. } | LlmError::NoCommand
        );
        let err = if setup {
            CliError::usage(e.to_string())
        } else {
            CliError::failed(format!("{e}; nothing was written"))
        };
        err.with_hints(hint).with_source(e)
    }
}

impl From<trail_core::memory::dream::DreamError> for CliError {
    fn from(e: trail_core::memory::dream::DreamError) -> CliError {
        use trail_core::memory::dream::DreamError;
        const SHOWN: usize = 10;
        let e = match e {
            DreamError::Llm(l) => return l.into(),
            DreamError::Secrets(s) => return s.into(),
            e => e,
        };
        let failed = |hints: Vec<String>| CliError::failed(e.to_string()).with_hints(hints);
        let err = match &e {
            DreamError::Io { source, .. } if source.kind() == io::ErrorKind::BrokenPipe => {
                return CliError::BrokenPipe;
            }
            DreamError::Io { .. } => failed(Vec::new()),
            DreamError::Llm(_) | DreamError::Secrets(_) => unreachable!("returned above"),
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
                h.push(
                    "if it is a merge you want (fewer, better bullets), run `trail dream \
                     --accept-loss` in your own terminal: it shows what goes and asks"
                        .into(),
                );
                failed(h)
            }
        };
        err.with_source(e)
    }
}

/// Print the error (once) and choose the exit code.
pub fn finish(result: CliResult) -> ExitCode {
    let (code, message, hints, source) = match result {
        Ok(()) | Err(CliError::BrokenPipe) => return ExitCode::SUCCESS,
        Err(CliError::CheckFailed) => return ExitCode::from(1),
        Err(CliError::Usage {
            message,
            hints,
            source,
        }) => (2, message, hints, source),
        Err(CliError::Failed {
            message,
            hints,
            source,
        }) => (1, message, hints, source),
    };
    let source = source.as_deref().map(|e| e as &(dyn Error + 'static));
    eprint!("{}", report(&message, &hints, source));
    ExitCode::from(code)
}

/// What a person reads: the message, each cause it does not already spell out, then the hints.
fn report(message: &str, hints: &[String], source: Option<&(dyn Error + 'static)>) -> String {
    let mut out = format!("error: {message}\n");
    for cause in untold_causes(message, source) {
        out.push_str(&format!("caused by: {cause}\n"));
    }
    for h in hints {
        out.push_str(&format!("hint: {h}\n"));
    }
    out
}

/// The errors of `source`'s chain (itself, then what caused it, …) whose text is not already
/// part of `message` or of a cause shown before them. Most of the core's messages embed their
/// cause (`cannot write X: disk full`): then nothing is repeated.
fn untold_causes(message: &str, source: Option<&(dyn Error + 'static)>) -> Vec<String> {
    let mut told = message.to_string();
    let mut out = Vec::new();
    let mut next = source;
    while let Some(e) = next {
        let text = e.to_string();
        if !text.is_empty() && !told.contains(&text) {
            told.push_str(&text);
            out.push(text);
        }
        next = e.source();
    }
    out
}

/// What to do next after an LLM error (the words are the CLI's: flags, settings, commands).
fn llm_hint(e: &LlmError) -> Option<String> {
    Some(match e {
        LlmError::NoModel { .. } => "set TRAIL_LLM_MODEL, or `model = \"...\"` under [llm] in \
                                     .trail/config.toml or ~/.config/trail/config.toml"
            .into(),
        LlmError::NoKey { .. } => format!(
            "export {KEY_VAR}=..., or put {KEY_VAR}=\"...\" in ~/.secrets/trail.env (mode 0600); \
             keys are never read from config files"
        ),
        LlmError::NoCommand => "set TRAIL_LLM_COMMAND (e.g. \"llm -m gpt-4o-mini\"), or \
                                `command = \"...\"` under [llm] in the config"
            .into(),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// An error with a text and what caused it.
    #[derive(Debug)]
    struct Chain(&'static str, Option<Box<Chain>>);

    impl std::fmt::Display for Chain {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.0)
        }
    }

    impl Error for Chain {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            self.1.as_deref().map(|c| c as &(dyn Error + 'static))
        }
    }

    fn printed(e: CliError) -> String {
        match e {
            CliError::Usage {
                message,
                hints,
                source,
            }
            | CliError::Failed {
                message,
                hints,
                source,
            } => report(
                &message,
                &hints,
                source.as_deref().map(|e| e as &(dyn Error + 'static)),
            ),
            other => panic!("nothing to print for {other:?}"),
        }
    }

    #[test]
    fn a_cause_the_message_leaves_out_is_printed_once_after_it() {
        let root = Chain("Permission denied (os error 13)", None);
        let middle = Chain("the plan cannot be read", Some(Box::new(root)));
        let e = CliError::failed("cannot switch to active mode")
            .with_hint("check the permissions of .trail/")
            .with_source(Chain(
                "cannot switch to active mode",
                Some(Box::new(middle)),
            ));
        assert_eq!(
            printed(e),
            "error: cannot switch to active mode\n\
             caused by: the plan cannot be read\n\
             caused by: Permission denied (os error 13)\n\
             hint: check the permissions of .trail/\n"
        );
    }

    #[test]
    fn a_cause_the_message_already_says_is_not_repeated() {
        let disk_full = io::Error::new(io::ErrorKind::StorageFull, "No space left on device");
        let e: CliError =
            LedgerError::io("write", std::path::Path::new("/l/pulses.log.md"))(disk_full).into();
        assert_eq!(
            printed(e),
            "error: cannot write /l/pulses.log.md: No space left on device\n\
             hint: free some disk space; nothing was acknowledged\n"
        );
        let e: CliError = StateError::Refused(trail_core::state::Refusal::NothingPending).into();
        assert!(!printed(e).contains("caused by"));
    }

    #[test]
    fn a_state_file_with_an_unknown_mode_says_how_to_set_one() {
        let invalid = |problems| StateError::Invalid {
            path: "/p/active_context.yaml".into(),
            problems,
        };
        let e: CliError = invalid(vec![Problem::Mode("complete".into())]).into();
        assert_eq!(
            printed(e),
            "error: /p/active_context.yaml: mode `complete` is not one of plan, active, review, \
             done\n\
             hint: fix the file by hand (trail never overwrites a file it cannot read), then \
             retry\n\
             hint: set the mode with `trail mode MODE` (plan, active, review or done)\n"
        );
        let e: CliError = invalid(vec![Problem::Allowance(1)]).into();
        assert!(!printed(e).contains("trail mode"));
    }

    #[test]
    fn a_broken_pipe_stays_quiet_whatever_wraps_it() {
        let pipe = || io::Error::from(io::ErrorKind::BrokenPipe);
        assert!(matches!(CliError::from(pipe()), CliError::BrokenPipe));
        let e = LedgerError::io("write", std::path::Path::new("-"))(pipe());
        assert!(matches!(CliError::from(e), CliError::BrokenPipe));
    }

    #[test]
    fn a_file_error_says_where_even_through_an_io_error() {
        let denied = || {
            FileError::new(
                "open",
                std::path::Path::new("/p/.trail/trajectory/2026-11-30.jsonl"),
                io::Error::from(io::ErrorKind::PermissionDenied),
            )
        };
        let said = "error: cannot open /p/.trail/trajectory/2026-11-30.jsonl: permission denied\n\
                    hint: check the permissions of /p/.trail/trajectory/2026-11-30.jsonl and of \
                    the directories above it\n";
        assert_eq!(printed(denied().into()), said);
        // A writer that speaks only `io` hands over the same error, with the same advice.
        assert_eq!(printed(io::Error::from(denied()).into()), said);
        let pipe = FileError::new(
            "write",
            std::path::Path::new("-"),
            io::ErrorKind::BrokenPipe.into(),
        );
        assert!(matches!(CliError::from(pipe), CliError::BrokenPipe));
    }
}
