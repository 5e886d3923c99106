//! The hook's one voice on stderr.
//!
//! The agent hosts show a hook's stderr to the person (Claude Code's transcript view, Codex's
//! log) and, for a vetoed call, to the model as the reason. So every line goes out redacted by the
//! hook's secrets service, like anything else trail lets out (the originals kept), and in one write, so that two hooks of the same session do not
//! interleave halfway through a line. A hook that has nothing to report builds nothing here: a
//! [`Report`] borrows what it says and is only formatted and redacted by [`Report::emit`], which
//! the hot path (an allowed tool call) never reaches.

use std::fmt::{self, Display};
use std::io::Write;

use trail_core::secrets::Redactor;

/// What a hook says on stderr. Every kind but [`Report::Said`] starts `trail hook:` so the
/// person can tell it from the agent's own output.
pub(crate) enum Report<'a> {
    /// `trail hook` was run without an agent trail knows: the only usage error the hook has.
    UnknownHost(&'a str),
    /// A step failed and the hook went on without it: what it was doing, and why.
    Failed {
        doing: &'static str,
        why: &'a dyn Display,
    },
    /// A step failed with an error that says what it was doing itself.
    Error(&'a dyn Display),
    /// The watchdog answered for a hook that did not finish: the session goes on.
    GaveUp { secs: u64 },
    /// Words meant for the person (or, with a veto, the model) as they are: a refusal's reason.
    Said(&'a str),
}

impl Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Report::UnknownHost(given) => write!(
                f,
                "error: `trail hook {given}`: say which agent sends the payload: \
                 `trail hook claude-code` or `trail hook codex`"
            ),
            Report::Failed { doing, why } => write!(f, "trail hook: {doing}: {why}"),
            Report::Error(e) => write!(f, "trail hook: {e}"),
            Report::GaveUp { secs } => write!(
                f,
                "trail hook: gave up after {secs} s (something in the project blocked it); \
                 nothing was lost, and the session goes on"
            ),
            Report::Said(text) => f.write_str(text),
        }
    }
}

impl Report<'_> {
    /// The line as written, newline included, every secret replaced by its reference and its
    /// original kept. A broken user rule or an unwritable store is what may be reported, so the
    /// built-in rules go on without the first and the line goes out without the second (saying
    /// nothing more: a report of the report would loop). Before the configuration is loaded,
    /// there is no store to keep originals in; the built-in rules redact alone.
    pub fn line(&self) -> String {
        let text = self.to_string();
        let mut out = match super::secrets() {
            Some(secrets) => secrets.redact_anyway(&text, &mut |_| {}).into_owned(),
            None => Redactor::builtin()
                .redact(&text, &mut Vec::new())
                .into_owned(),
        };
        out.push('\n');
        out
    }

    /// Writes the line to stderr. A closed stderr loses the report but never fails the hook
    /// (`eprintln!` would panic, and a panicking PreToolUse hook lets the tool call through).
    pub fn emit(&self) {
        let _ = std::io::stderr().lock().write_all(self.line().as_bytes());
    }
}

/// Reports that `doing` failed because of `why`.
pub(crate) fn failed(doing: &'static str, why: &dyn Display) {
    Report::Failed { doing, why }.emit();
}

/// Reports an error that says what failed.
pub(crate) fn error(e: &dyn Display) {
    Report::Error(e).emit();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_reads_as_before() {
        let e = std::io::Error::other("disk full");
        assert_eq!(
            Report::Failed {
                doing: "cannot write a pulse",
                why: &e
            }
            .line(),
            "trail hook: cannot write a pulse: disk full\n"
        );
        assert_eq!(Report::Error(&e).line(), "trail hook: disk full\n");
        assert_eq!(
            Report::GaveUp { secs: 5 }.line(),
            "trail hook: gave up after 5 s (something in the project blocked it); nothing was \
             lost, and the session goes on\n"
        );
        assert_eq!(Report::Said("refused: why").line(), "refused: why\n");
        assert_eq!(
            Report::UnknownHost("gemini").line(),
            "error: `trail hook gemini`: say which agent sends the payload: `trail hook \
             claude-code` or `trail hook codex`\n"
        );
    }

    #[test]
    fn a_secret_in_a_report_is_redacted() {
        let token = "ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ";
        let why = format!("cannot read https://x:{token}@example.com/repo");
        let line = Report::Error(&why).line();
        assert!(!line.contains(token), "{line}");
        assert!(line.starts_with("trail hook: cannot read ") && line.contains("${secret:"));
        let line = Report::Said(&why).line();
        assert!(!line.contains(token), "{line}");
    }
}
