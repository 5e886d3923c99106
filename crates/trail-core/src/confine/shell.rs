//! The shell that runs the agent's command inside the confinement. The command line the
//! host runs around it is [`crate::host::rewrite`]'s.

use std::ffi::OsString;
use std::path::Path;

pub use crate::host::rewrite::{original, quote, rewrite};

/// The program bubblewrap starts: a shell that runs `command` and, with `report_cwd`, writes
/// the directory it ended in to descriptor 3 as it leaves. The command itself runs with 3
/// closed, so nothing it leaves running in the background holds the host's capture open.
pub fn inner(command: &str, report_cwd: bool) -> Vec<OsString> {
    let shell = if Path::new("/bin/bash").exists() {
        "/bin/bash"
    } else {
        "/bin/sh"
    };
    let script = if report_cwd {
        "__trail_cmd=$1; shift; trap 'pwd -P >&3 2>/dev/null' EXIT; eval \"$__trail_cmd\" 3>&-"
    } else {
        "__trail_cmd=$1; shift; eval \"$__trail_cmd\""
    };
    vec![
        shell.into(),
        "-c".into(),
        script.into(),
        "trail-confined".into(),
        command.into(),
    ]
}
