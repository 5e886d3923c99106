//! The process's entry point, in place of the one std's `fn main` gives.
//!
//! Every hook is a process of its own, started before and after every tool call, so what a
//! process does before `main` is paid on every tool call. std's start-up does three things
//! trail keeps and two it does not need:
//!
//! - kept: SIGPIPE ignored (a closed stdout is an error trail answers, `error::finish`), and a
//!   closed standard descriptor reopened on `/dev/null` (else the first file trail opens would
//!   be written as stdout); the standard output flushed at exit (`std::process::exit` does it);
//! - dropped: placing the main thread's stack guard, which makes glibc read and parse
//!   `/proc/self/maps` and ask the CPU set, and an alternate signal stack mapped, installed and
//!   unmapped around every run. They serve one message: a stack overflow in the main thread is
//!   reported as a bare SIGSEGV instead of "has overflowed its stack" (panics are unchanged).
//!
//! Measured in PERFORMANCE.md ("std's start-up"): the two dropped steps were eleven system calls
//! of the nineteen a hook made before reading its payload.

use std::ffi::c_int;
use std::process::ExitCode;

/// The C entry point glibc's start-up calls (`#![no_main]` in `main.rs`); `argv` is read by
/// std itself, as for any program on glibc.
#[cfg(not(test))]
#[unsafe(no_mangle)]
extern "C" fn main(_argc: c_int, _argv: *const *const std::ffi::c_char) -> c_int {
    standard_streams();
    let code = crate::run();
    // Flushes stdout as std's own exit does, then exits with the code.
    std::process::exit(status(code))
}

/// What std's start-up does for the standard streams, kept: SIGPIPE ignored, and fds 0–2 open.
#[cfg_attr(test, allow(dead_code))]
fn standard_streams() {
    // SAFETY: signal(2) with SIG_IGN touches no memory; poll(2) reads the three structs it is
    // given; open(2) is given a NUL-terminated constant path.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
            fd,
            events: 0,
            revents: 0,
        });
        let polled = libc::poll(fds.as_mut_ptr(), 3, 0);
        for pfd in &fds {
            // A descriptor that is not open: whatever trail opens next would take its number.
            let closed = if polled == -1 {
                libc::fcntl(pfd.fd, libc::F_GETFD) == -1
            } else {
                pfd.revents & libc::POLLNVAL != 0
            };
            if closed && libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) == -1 {
                // As std does: with no standard streams, nothing can be said; stop.
                libc::abort();
            }
        }
    }
}

/// The number an [`ExitCode`] stands for (std keeps it private; it is one of 0–255).
fn status(code: ExitCode) -> c_int {
    (0..=u8::MAX)
        .find(|&n| ExitCode::from(n) == code)
        .map_or(1, c_int::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exit_code_is_read_back_as_its_number() {
        assert_eq!(status(ExitCode::SUCCESS), 0);
        assert_eq!(status(ExitCode::FAILURE), 1);
        assert_eq!(status(ExitCode::from(2)), 2);
        assert_eq!(status(ExitCode::from(255)), 255);
    }
}
