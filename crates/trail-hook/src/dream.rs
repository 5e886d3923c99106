//! Deep Dream by itself (`memory.dream_every`): a session's end starts `trail dream` in the
//! background when one is due (`trail_core::memory::schedule`), and so does the next session's
//! start when the previous one ended without a SessionEnd (a crash, a killed terminal). The
//! following SessionStart tells the agent what the dream changed.
//!
//! The dream is never waited for: it runs in its own process, in its own session (the host may
//! kill the hook's process group when the hook returns), with no stdio (a host reads a hook's
//! stdout and stderr until every writer closes them). Two hooks may both start one; the dream
//! lock lets one run and the other return at once.

use std::process::{Command, Stdio};

use trail_core::memory::schedule;
use trail_core::time::Local;

use super::Cx;

/// SessionEnd: start a dream if one is due.
pub(super) fn after_session(cx: &Cx<'_>) {
    if schedule::due(cx.root(), cx.config.dream_every.value, &Local::now())
        && !schedule::running(cx.root())
        && let Err(e) = start_detached(cx)
    {
        super::report::failed("could not start the dream in the background", &e);
    }
}

/// SessionStart, before the state file records the new session: what the last background dream
/// did (once), and a dream started if the previous session ended without a SessionEnd (which
/// would have started it).
pub(super) fn at_session_start(cx: &Cx<'_>) -> Option<String> {
    let news = match schedule::take_news(cx.root()) {
        Ok(n) => n,
        Err(e) => {
            super::report::error(&e);
            None
        }
    };
    let unclean = cx.store().load().is_ok_and(|l| {
        l.state
            .session
            .is_some_and(|s| s.ended_uncleanly_before(cx.envelope.session_id.as_deref()))
    });
    if unclean {
        after_session(cx);
    }
    news
}

/// `trail dream --background` for this project, detached.
fn start_detached(cx: &Cx<'_>) -> std::io::Result<()> {
    let mut c = Command::new(std::env::current_exe()?);
    c.args(["dream", "--background"])
        .current_dir(cx.root())
        // The project this hook resolved, whatever the child's own discovery would find.
        .env("CLAUDE_PROJECT_DIR", cx.root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: setsid(2) is async-signal-safe and touches no memory of the parent.
        unsafe {
            c.pre_exec(|| {
                if libc::setsid() == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    // Not waited for: the hook exits in a moment, and the dream is reparented to init.
    c.spawn().map(drop)
}
