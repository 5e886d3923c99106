//! Whether a person is deciding: the check in front of `trail approve` and `trail dismiss`.
//!
//! A grant is a person's act. The gate blocks the agent's ways of running these commands
//! (under any wrapper, name, pseudo-terminal or remote shell), and this check is the second
//! wall, for whatever slips past it: the command must run in a terminal, from no process of an
//! agent host, and the person types back part of the junction's id, read from the terminal
//! itself, after seeing the junction rendered from trail's signed record.
//!
//! What it cannot tell (SECURITY.md): a process that left the agent's process tree (a double
//! fork), cleared its environment and drives a pseudo-terminal of its own looks like a person.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

/// Environment variables an agent host sets for the commands it runs.
const AGENT_ENV: &[&str] = &[
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "CODEX_SANDBOX",
    "CODEX_SANDBOX_NETWORK_DISABLED",
    "CODEX_THREAD_ID",
];

/// What the person does instead, for most of the acts: the command itself, at a terminal.
pub const AT_YOUR_TERMINAL: &str = "run it in your own terminal";

/// For a junction, the person may also answer in the agent's session.
pub const AT_YOUR_TERMINAL_OR_EDGE: &str = "run it in your own terminal, or type `/edge approve` (or `/edge dismiss`) as your next prompt in the agent's session";

/// Refuses unless stdin and stderr are a terminal and no agent host is among this process's
/// ancestors (by name or by the environment it gave its children). `how` says what the person
/// does instead ([`AT_YOUR_TERMINAL`]; `/edge approve` only for a junction: it names no sync
/// remote and moves no NOTES.md, found by the snapshot of `trail sync --remote`'s refusal).
pub fn require_terminal(how: &str) -> Result<(), String> {
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return Err(format!(
            "a person's decision is made at a terminal, and this is not one: {how}"
        ));
    }
    if let Some(who) = agent_ancestor() {
        return Err(format!(
            "this was started from within an agent's session ({who}), and an agent may not decide for a person: {how}"
        ));
    }
    Ok(())
}

/// The agent host this process descends from, if any.
fn agent_ancestor() -> Option<String> {
    if let Some(v) = AGENT_ENV.iter().find(|v| std::env::var_os(v).is_some()) {
        return Some(format!("{v} is set"));
    }
    let mut pid = std::os::unix::process::parent_id();
    for _ in 0..64 {
        if pid <= 1 {
            return None;
        }
        let p = Process::from_proc(pid).or_else(|| Process::from_ps(pid))?;
        if let Some(who) = p.agent() {
            return Some(format!("process {pid}: {who}"));
        }
        pid = p.parent;
    }
    None
}

/// What the check reads of one process.
#[derive(Debug, Default)]
struct Process {
    parent: u32,
    /// Its short name (`comm`).
    name: String,
    /// Its executable's path, or its command line.
    exe: String,
    /// The names in its environment, where they can be read.
    env: Vec<String>,
}

impl Process {
    /// Linux: `/proc/PID`, which also shows the process's environment.
    fn from_proc(pid: u32) -> Option<Process> {
        let dir = Path::new("/proc").join(pid.to_string());
        let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
        // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so read after the
        // last ')'.
        let after = &stat[stat.rfind(')')? + 1..];
        let environ = std::fs::read(dir.join("environ")).unwrap_or_default();
        Some(Process {
            parent: after.split_whitespace().nth(1)?.parse().ok()?,
            name: std::fs::read_to_string(dir.join("comm"))
                .unwrap_or_default()
                .trim()
                .to_string(),
            exe: std::fs::read_link(dir.join("exe"))
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default(),
            env: environ
                .split(|&b| b == 0)
                .filter_map(|kv| std::str::from_utf8(kv).ok())
                .filter_map(|kv| kv.split_once('=').map(|(k, _)| k.to_string()))
                .collect(),
        })
    }

    /// Where there is no `/proc` (macOS, the BSDs: untested): `ps`, as POSIX specifies it, for
    /// the parent and the command line. Another process's environment is not read there.
    fn from_ps(pid: u32) -> Option<Process> {
        let out = std::process::Command::new("ps")
            .args(["-o", "ppid=", "-o", "args=", "-p", &pid.to_string()])
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let (parent, args) = text.trim().split_once(char::is_whitespace)?;
        let args = args.trim();
        let program = args.split_whitespace().next().unwrap_or("");
        Some(Process {
            parent: parent.parse().ok()?,
            name: program.rsplit('/').next().unwrap_or(program).to_string(),
            exe: args.to_string(),
            env: Vec::new(),
        })
    }

    /// The agent host this process is, if it is one: by name, by executable, or by the
    /// environment a host gives the commands it runs.
    fn agent(&self) -> Option<String> {
        let name = self.name.as_str();
        if name.starts_with("claude") || name.starts_with("codex") {
            return Some(name.to_string());
        }
        if self.exe.contains("claude-code") || self.exe.contains("@openai/codex") {
            return Some(self.exe.clone());
        }
        self.env
            .iter()
            .find(|k| AGENT_ENV.contains(&k.as_str()))
            .map(|k| format!("{name} with {k} set"))
    }
}

/// Shows `what` on the terminal and asks the person to type `code` back; reads the answer from
/// the terminal itself (`/dev/tty`), not from stdin.
pub fn confirm(what: &str, code: &str) -> Result<(), String> {
    confirm_with(what, code, |typed| typed == code)
}

/// [`confirm`] for an id: any suffix of `id` at least as long as `code` (its end) is accepted,
/// the whole id included (issue 22: typing more of the id than asked was refused).
pub fn confirm_id(what: &str, id: &str, code: &str) -> Result<(), String> {
    confirm_with(what, code, |typed| {
        typed.len() >= code.len() && id.ends_with(typed)
    })
}

fn confirm_with(what: &str, code: &str, accept: impl Fn(&str) -> bool) -> Result<(), String> {
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .map_err(|e| format!("cannot open the terminal to confirm ({e})"))?;
    let mut out = &tty;
    let _ = write!(out, "{what}\nType {code} to confirm: ");
    let _ = out.flush();
    let mut line = String::new();
    std::io::BufReader::new(&tty)
        .read_line(&mut line)
        .map_err(|e| format!("cannot read the answer ({e})"))?;
    if accept(line.trim()) {
        Ok(())
    } else {
        Err(format!(
            "not confirmed (expected {code}): nothing was decided"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ps_and_proc_see_the_same_parent() {
        let me = std::process::id();
        let proc = Process::from_proc(me).expect("/proc on Linux");
        let ps = Process::from_ps(me).expect("ps");
        assert_eq!(ps.parent, proc.parent);
        assert_eq!(ps.parent, std::os::unix::process::parent_id());
        assert!(
            proc.exe.ends_with(&ps.name) || ps.exe.contains(&proc.name),
            "{proc:?} {ps:?}"
        );
    }

    #[test]
    fn an_agent_host_is_known_by_name_executable_or_environment() {
        let p = |name: &str, exe: &str, env: &[&str]| Process {
            parent: 1,
            name: name.into(),
            exe: exe.into(),
            env: env.iter().map(ToString::to_string).collect(),
        };
        assert!(p("claude", "", &[]).agent().is_some());
        assert!(
            p(
                "node",
                "node /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js",
                &[]
            )
            .agent()
            .is_some()
        );
        assert!(
            p("bash", "/bin/bash", &["PATH", "CODEX_THREAD_ID"])
                .agent()
                .is_some()
        );
        assert!(p("bash", "/bin/bash", &["PATH", "HOME"]).agent().is_none());
    }
}
