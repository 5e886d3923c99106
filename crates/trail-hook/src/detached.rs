//! Starting trail again in the background, never waited for: the search cache's builder a
//! search starts (`cmd/search.rs`). This is how `hook/dream.rs` starts the dream, made one
//! function for every background start (the dream's `start_detached` is the same steps).
//!
//! The child runs in its own session: a hook host may kill the hook's process group when the
//! hook returns, and a terminal's Ctrl-C reaches the whole foreground group. Its stdout and
//! stderr are closed (a host reads a hook's output until every writer closes it, and a pipe
//! `trail search … | head` must end when the search does); its stdin is whatever the caller
//! hands it — nothing, or a lock the child inherits. Once the parent exits, the child is
//! reparented to init.

use std::io;
use std::process::{Command, Stdio};

/// `trail ARGS…` (this very binary) as a child to start with [`start`].
pub fn trail(args: &[&str]) -> io::Result<Command> {
    let mut c = Command::new(std::env::current_exe()?);
    c.args(args);
    Ok(c)
}

/// Start `c` detached, with `stdin` as its standard input.
pub fn start(mut c: Command, stdin: Stdio) -> io::Result<()> {
    c.stdin(stdin).stdout(Stdio::null()).stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: setsid(2) is async-signal-safe and touches no memory of the parent.
        unsafe {
            c.pre_exec(|| {
                if libc::setsid() == -1 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    // Not waited for: the child outlives this process.
    c.spawn().map(drop)
}
