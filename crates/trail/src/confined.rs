//! trail inside and around the confinement (issue 19; the policy is
//! `trail_core::confine`).
//!
//! - `trail confine --project ROOT [--cwd-fd 3] -- COMMAND`: what the PreToolUse hook
//!   rewrites every shell command into. It runs COMMAND under bubblewrap, or refuses to run it.
//! - trail's own commands, run by the agent inside: a person's act is refused at once; a
//!   command that records is left in the outbox ([`intercept`]), and a hook outside starts
//!   `trail ingest-outbox` ([`ingest`]), which runs it as trail and marks it as the agent's.
//!
//! Dispatched from `main` before `clap`: `trail confine` runs before every command the agent
//! runs, and parsing arguments for it would be its largest cost.

use std::ffi::OsString;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use trail_core::config::Config;
use trail_core::confine::outbox::{self, Entry, Verb};
use trail_core::confine::{self, CONFINED_VAR, Inputs, Policy, bwrap, shell};

/// The exit status of a command trail refused to run: the shell's "cannot execute".
const NOT_RUN: u8 = 126;

/// `trail confine …`: parse, build the policy, run bubblewrap and return the command's exit (or
/// refuse, and say why).
pub fn run(args: &[OsString]) -> ExitCode {
    let parsed = match parse(args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!(
                "trail confine: {e}\nusage: trail confine --project ROOT [--cwd-fd 3] -- COMMAND"
            );
            return ExitCode::from(2);
        }
    };
    // bubblewrap masks every socket it was told of; one that another program removes while the
    // sandbox is being set up fails the setup ("Unable to remount destination", measured: 3 of
    // 400 runs beside a program making and removing sockets in /tmp, and once in the e2e suite,
    // where Claude Code's own `/tmp/cc-socks/PID.sock` came and went). Such a failure ran
    // nothing, so the policy is built again, with the sockets there now, and bubblewrap tried
    // again; once the command has started, its exit is the command's.
    let mut tries = 0;
    loop {
        tries += 1;
        let c = match prepare(&parsed) {
            Ok(Prepared::Confined(c)) => c,
            Ok(Prepared::Direct(mut c)) => {
                let e = c.exec();
                return refuse(&format!("cannot start bubblewrap: {e}"));
            }
            Err(why) => return refuse(&why),
        };
        match run_watched(&c) {
            Ok(Watched::Ran(code)) => return code,
            // Set up again, with the sockets there now.
            Ok(Watched::SetupFailed(_)) if tries < 3 => {}
            Ok(Watched::SetupFailed(code)) => return code,
            Err(e) => return refuse(&format!("cannot start bubblewrap: {e}")),
        }
    }
}

/// What runs the command: bubblewrap around it, or the command alone where no confinement can
/// nest (already inside one, or inside the host's own sandbox).
enum Prepared {
    Confined(std::process::Command),
    Direct(std::process::Command),
}

/// How a watched bubblewrap ended: the command ran (its exit status, or 128 and its signal),
/// or the sandbox could not be set up and nothing ran.
enum Watched {
    Ran(ExitCode),
    SetupFailed(ExitCode),
}

/// Run bubblewrap with `--json-status-fd`, where it writes the command's exit status once the
/// command has run: a status pipe without one is a setup that failed, and nothing ran.
fn run_watched(c: &std::process::Command) -> std::io::Result<Watched> {
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::os::unix::process::ExitStatusExt;
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two descriptors; the read end closes on exec, the write end is
    // bubblewrap's to inherit.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), 0) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both are ours, just made, and owned once each.
    let (read_end, write_end) =
        unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    // SAFETY: sets a flag on a descriptor we own.
    unsafe { libc::fcntl(fds[0], libc::F_SETFD, libc::FD_CLOEXEC) };
    let mut args: Vec<OsString> = vec!["--json-status-fd".into(), fds[1].to_string().into()];
    args.extend(c.get_args().map(OsString::from));
    let mut watched = std::process::Command::new(c.get_program());
    watched.args(&args);
    let mut child = watched.spawn()?;
    drop(write_end);
    // bubblewrap writes the command's exit there when the command ran to its end (its process
    // id it writes first, before the mounts are made). Read once bubblewrap has ended, without
    // waiting: a command's background process may hold the pipe open long after.
    let exit = child.wait()?;
    // SAFETY: sets a flag on a descriptor we own.
    unsafe { libc::fcntl(fds[0], libc::F_SETFL, libc::O_NONBLOCK) };
    let mut pipe = std::fs::File::from(read_end);
    let mut status = Vec::new();
    let mut buf = [0u8; 256];
    while let Ok(n) = pipe.read(&mut buf) {
        if n == 0 {
            break;
        }
        status.extend_from_slice(&buf[..n]);
    }
    let status = String::from_utf8_lossy(&status);
    let code = match (exit.code(), exit.signal()) {
        (Some(c), _) => ExitCode::from(u8::try_from(c).unwrap_or(1)),
        (None, Some(sig)) => ExitCode::from(u8::try_from(128 + sig).unwrap_or(1)),
        _ => ExitCode::from(1),
    };
    // (bubblewrap ends with 1 when it fails; ended by a signal, it is not tried again.)
    Ok(if status.contains("exit-code") || exit.code() != Some(1) {
        Watched::Ran(code)
    } else {
        Watched::SetupFailed(code)
    })
}

struct Parsed {
    project: PathBuf,
    /// Write the directory the command ended in to descriptor 3 (`--cwd-fd 3`).
    report_cwd: bool,
    command: String,
}

fn parse(args: &[OsString]) -> Result<Parsed, String> {
    let mut project = None;
    let mut report_cwd = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.to_str() {
            Some("--project") => project = it.next().map(PathBuf::from),
            Some("--cwd-fd") => {
                if it.next().and_then(|a| a.to_str()) != Some("3") {
                    return Err("--cwd-fd takes 3".into());
                }
                report_cwd = true;
            }
            Some("--") => {
                let rest: Vec<&OsString> = it.collect();
                let [command] = rest.as_slice() else {
                    return Err("give the command as one argument after `--`".into());
                };
                let command = command
                    .to_str()
                    .ok_or("the command is not UTF-8")?
                    .to_string();
                return Ok(Parsed {
                    project: project.ok_or("--project is required")?,
                    report_cwd,
                    command,
                });
            }
            _ => return Err(format!("unexpected argument `{}`", a.to_string_lossy())),
        }
    }
    Err("no command after `--`".into())
}

fn refuse(why: &str) -> ExitCode {
    eprintln!(
        "trail could not confine this command, so it did not run: {why}\n\
         Tell the user; `trail doctor` says what confinement needs here."
    );
    ExitCode::from(NOT_RUN)
}

/// The bubblewrap command for `p`, or why there is none.
fn prepare(p: &Parsed) -> Result<Prepared, String> {
    if inside() && confine::cannot_write(&p.project.join(".trail")) {
        // Already inside (the OS says so, not only the variable): bubblewrap cannot nest here
        // (no user namespaces), and need not.
        return Ok(Prepared::Direct(unwrapped(p)));
    }
    // As the hook does: a configuration file that cannot be read leaves confinement at its
    // built-in defaults (the hook already told the person), not every command refused.
    let at = AtProject(&p.project);
    let config = Config::load_from(&at)
        .or_else(|_| Config::builtin_from(&at))
        .map_err(|e| format!("trail's configuration is broken ({e})"))?;
    if bwrap::in_foreign_namespace() {
        // A host's own sandbox (Codex's workspace-write, Claude Code's sandbox) allows no
        // namespace inside it. Measured: bubblewrap fails there with "setting up uid map".
        let why = "this command already runs inside the host's own sandbox, where no \
                   confinement can nest; set the host's sandbox off to let trail confine \
                   (Codex: sandbox_mode = \"danger-full-access\"; Claude Code: sandbox.enabled \
                   = false), or confine.mode = \"auto\" to rely on the host's";
        if config.confine_mode.value == confine::Mode::Require {
            return Err(why.into());
        }
        return Ok(Prepared::Direct(unwrapped(p)));
    }
    let bwrap = bwrap::find().ok_or(
        "bubblewrap is not installed (`apt-get install bubblewrap`, or your system's package)",
    )?;
    let inputs = inputs(&config, &p.project);
    let policy = Policy::build(&inputs).map_err(|e| e.to_string())?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| policy.project.clone());
    let program = shell::inner(&p.command, p.report_cwd);
    let mut c = std::process::Command::new(bwrap);
    c.args(bwrap::args(&policy, &cwd, &program));
    Ok(Prepared::Confined(c))
}

/// The command run by the confined shell without a new confinement around it (already inside
/// one): the directory it ends in is still reported.
fn unwrapped(p: &Parsed) -> std::process::Command {
    let program = shell::inner(&p.command, p.report_cwd);
    let mut c = std::process::Command::new(&program[0]);
    c.args(&program[1..]);
    c
}

/// Where things are, for the policy: the configuration's answer, and the process's.
pub fn inputs(config: &Config, project: &Path) -> Inputs {
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("/"), PathBuf::from);
    let writable = config
        .confine_writable
        .value
        .as_deref()
        .unwrap_or(confine::DEFAULT_WRITABLE)
        .split(':')
        .filter(|s| !s.is_empty())
        .map(|s| match s.strip_prefix("~/") {
            Some(rest) => home.join(rest),
            None if s == "~" => home.clone(),
            None => PathBuf::from(s),
        })
        .collect();
    let mut tmp = vec![PathBuf::from("/tmp"), PathBuf::from("/var/tmp")];
    tmp.extend(std::env::var_os("TMPDIR").map(PathBuf::from));
    let mut socket_roots: Vec<(PathBuf, u8)> = tmp.iter().map(|t| (t.clone(), 1)).collect();
    socket_roots.push((PathBuf::from("/run"), 3));
    socket_roots.extend(std::env::var_os("XDG_RUNTIME_DIR").map(|d| (PathBuf::from(d), 3)));
    Inputs {
        project: project.to_path_buf(),
        home,
        trail_home: config.home.value.clone(),
        secrets_dir: config.secrets_dir.value.clone(),
        config_dir: config.user_dir.clone(),
        writable,
        tmp,
        socket_roots,
    }
}

/// The process's environment, with the working directory at the project (its config applies).
struct AtProject<'a>(&'a Path);

impl trail_core::config::Env for AtProject<'_> {
    fn var(&self, key: &str) -> Option<String> {
        trail_core::config::Env::var(&trail_core::config::ProcessEnv, key)
    }
    fn cwd(&self) -> PathBuf {
        self.0.to_path_buf()
    }
}

/// Whether this process runs inside trail's confinement.
pub fn inside() -> bool {
    std::env::var_os(CONFINED_VAR).is_some()
}

/// trail's own command `args` (without the program), run by the agent inside the confinement:
/// `Some(exit)` when it was refused or queued, `None` when it runs here (it only reads).
pub fn intercept(args: &[OsString]) -> Option<ExitCode> {
    let verb = args.first()?.to_str()?;
    match outbox::verb_of(verb) {
        Verb::Reads => None,
        Verb::PersonOnly if verb == "hook" => {
            eprintln!(
                "trail hook is run by the agent's host, never from the agent's commands: this \
                 payload decided nothing (trail's records cannot be written from here)."
            );
            Some(ExitCode::from(2))
        }
        Verb::PersonOnly => {
            eprintln!(
                "trail {verb} is a person's act, and this command runs inside the agent's \
                 confinement: it did nothing. Ask the user to run it in their own terminal \
                 (or to type `/edge …` as their prompt)."
            );
            Some(ExitCode::from(2))
        }
        Verb::Records => Some(queue(args)),
    }
}

/// Leave `args` (and standard input, when the command reads it) in the outbox, redacted.
fn queue(args: &[OsString]) -> ExitCode {
    let config = match Config::load() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("trail: the configuration is broken ({e}); nothing was recorded");
            return ExitCode::from(1);
        }
    };
    let secrets = config.secrets();
    let redact = |t: &str| -> String {
        secrets
            .redact_anyway(t, &mut |e| eprintln!("trail: {e}"))
            .into_owned()
    };
    let args: Vec<String> = args.iter().map(|a| redact(&a.to_string_lossy())).collect();
    let reads_stdin = args.iter().any(|a| a == "--stdin" || a == "-");
    let stdin = reads_stdin.then(|| {
        let mut s = String::new();
        let _ = std::io::stdin()
            .take(outbox::MAX_BYTES / 2)
            .read_to_string(&mut s);
        redact(&s)
    });
    let root = config.project_root.value.clone();
    let entry = Entry {
        args,
        cwd: std::env::current_dir().unwrap_or_else(|_| root.clone()),
        stdin,
    };
    match outbox::put(&root, &entry) {
        Ok(path) => {
            eprintln!(
                "trail: queued `trail {}` in {} (this command runs confined); trail's hooks \
                 record it, as the agent's, when the command ends",
                entry.args[0],
                path.strip_prefix(&root).unwrap_or(&path).display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "trail: cannot queue `trail {}` in {}/.trail/outbox ({e}); nothing was recorded",
                entry.args[0],
                root.display()
            );
            ExitCode::from(1)
        }
    }
}

/// The variable a queued command runs with, so what it writes says it came from the agent.
pub const ORIGIN_VAR: &str = "TRAIL_ORIGIN";
/// The tag on a pulse the agent queued from inside its confinement.
pub const AGENT_TAG: &str = "agent-outbox";

/// `trail ingest-outbox --project ROOT`: run every queued command as trail, oldest first.
pub fn ingest(args: &[OsString]) -> ExitCode {
    let project = match args {
        [flag, root] if flag == "--project" => PathBuf::from(root),
        _ => {
            eprintln!("usage: trail ingest-outbox --project ROOT");
            return ExitCode::from(2);
        }
    };
    if inside() {
        eprintln!("trail ingest-outbox runs only outside the confinement");
        return ExitCode::from(2);
    }
    let Ok(exe) = std::env::current_exe() else {
        return ExitCode::from(1);
    };
    let project = project.canonicalize().unwrap_or(project);
    for t in outbox::take(&project) {
        let entry = match t.entry {
            Ok(e) => e,
            Err(why) => {
                eprintln!("trail: dropped {}: {why}", t.path.display());
                continue;
            }
        };
        // Run where the agent was, when that is inside the project; else at its root.
        let cwd = entry
            .cwd
            .canonicalize()
            .ok()
            .filter(|c| c.starts_with(&project))
            .unwrap_or_else(|| project.clone());
        let mut c = std::process::Command::new(&exe);
        c.args(&entry.args)
            .current_dir(cwd)
            .env(ORIGIN_VAR, "agent")
            .env_remove(CONFINED_VAR)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null());
        let Ok(mut child) = c.spawn() else { continue };
        if let Some(mut input) = child.stdin.take() {
            use std::io::Write;
            let _ = input.write_all(entry.stdin.as_deref().unwrap_or("").as_bytes());
        }
        let _ = child.wait();
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::{Watched, run_watched};

    fn bwrap(args: &[&str]) -> Option<std::process::Command> {
        let b = trail_core::confine::bwrap::find()?;
        let mut c = std::process::Command::new(b);
        c.args(args);
        Some(c)
    }

    /// A sandbox that could not be set up ran nothing, and says so (it is tried again); a
    /// command that ran gives its own exit, whatever it is.
    #[test]
    fn a_setup_that_failed_is_told_from_a_command_that_failed() {
        let base = ["--unshare-user", "--ro-bind", "/", "/"];
        let Some(failed) =
            bwrap(&[&base[..], &["--ro-bind", "/no/such/source", "/x", "true"]].concat())
        else {
            eprintln!("skipped: bubblewrap is not installed");
            return;
        };
        assert!(matches!(run_watched(&failed), Ok(Watched::SetupFailed(_))));
        let ran = bwrap(&[&base[..], &["sh", "-c", "exit 3"]].concat()).unwrap();
        match run_watched(&ran) {
            Ok(Watched::Ran(code)) => assert_eq!(code, std::process::ExitCode::from(3)),
            _ => panic!("the command ran and exited 3"),
        }
    }
}
