//! The `command` provider: any CLI (`llm -m x`, `claude -p`, `ollama run m`, a script) gets the
//! prompt on stdin and answers on stdout.
//!
//! The command runs through `sh -c` in a process group of its own, so that on a timeout the whole
//! group (the shell and whatever it started) is killed: a grandchild holding the stdout pipe open
//! would otherwise keep trail waiting after the shell is gone.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{LlmError, Provider, Request, Settings};

/// Keeps a runaway command from filling memory.
const MAX_OUTPUT: u64 = 16 * 1024 * 1024;

pub struct CommandProvider {
    command: String,
    settings: Settings,
}

impl CommandProvider {
    pub fn new(s: &Settings) -> Result<CommandProvider, LlmError> {
        let command = s
            .command
            .clone()
            .filter(|c| !c.trim().is_empty())
            .ok_or(LlmError::NoCommand)?;
        Ok(CommandProvider {
            command,
            settings: s.clone(),
        })
    }
}

fn tail(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(3);
    super::excerpt(&lines[start..].join(" / "))
}

impl Provider for CommandProvider {
    fn describe(&self) -> String {
        format!("command `{}`", self.command)
    }

    fn complete(
        &self,
        req: &Request<'_>,
        _progress: &mut dyn FnMut(&str),
    ) -> Result<String, LlmError> {
        let mut child = self.spawn()?;
        let writer = feed(
            child.stdin.take(),
            format!("{}\n\n{}", req.system, req.user),
        );
        let out = drain(child.stdout.take());
        let err = drain(child.stderr.take());
        let status = self.wait_or_kill(&mut child)?;
        let _ = writer.join();
        let stdout = out.join().unwrap_or_default();
        let stderr = err.join().unwrap_or_default();
        self.answer(status, &stdout, &stderr)
    }
}

impl CommandProvider {
    fn fail(&self, detail: String) -> LlmError {
        LlmError::Command {
            command: self.command.clone(),
            detail,
        }
    }

    /// `sh -c COMMAND` in a process group of its own, with the model in `TRAIL_LLM_MODEL`.
    fn spawn(&self) -> Result<Child, LlmError> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        if let Some(m) = &self.settings.model {
            cmd.env("TRAIL_LLM_MODEL", m);
        }
        cmd.spawn()
            .map_err(|e| self.fail(format!("cannot start it: {e}")))
    }

    /// The command's exit status, or a timeout once the whole process group is killed.
    fn wait_or_kill(&self, child: &mut Child) -> Result<ExitStatus, LlmError> {
        let deadline = Instant::now() + self.settings.timeout;
        loop {
            match child.try_wait() {
                Ok(Some(st)) => return Ok(st),
                Ok(None) if Instant::now() >= deadline => {
                    let _ = rustix::process::kill_process_group(
                        rustix::process::Pid::from_child(child),
                        rustix::process::Signal::KILL,
                    );
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(LlmError::Timeout {
                        what: self.describe(),
                        after: self.settings.timeout,
                    });
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(e) => return Err(self.fail(e.to_string())),
            }
        }
    }

    /// Its stdout, when it succeeded and printed something; else what went wrong, with the
    /// last lines of its stderr.
    fn answer(&self, status: ExitStatus, stdout: &[u8], stderr: &[u8]) -> Result<String, LlmError> {
        if !status.success() {
            return Err(self.fail(format!(
                "{status}{}",
                if stderr.is_empty() {
                    String::new()
                } else {
                    format!(": {}", tail(stderr))
                }
            )));
        }
        let text = String::from_utf8_lossy(stdout).into_owned();
        if text.trim().is_empty() {
            return Err(self.fail("it exited 0 but printed nothing on stdout".into()));
        }
        Ok(text)
    }
}

/// Writes the prompt from a thread: a command that prints before it has read everything would
/// otherwise deadlock against us on full pipes.
fn feed(stdin: Option<ChildStdin>, prompt: String) -> JoinHandle<()> {
    std::thread::spawn(move || {
        if let Some(mut s) = stdin {
            // A command may ignore its input and exit: a broken pipe is its business.
            let _ = s.write_all(prompt.as_bytes());
        }
    })
}

/// Reads a pipe to its end (or [`MAX_OUTPUT`]) from a thread.
fn drain(pipe: Option<impl Read + Send + 'static>) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(p) = pipe {
            let _ = p.take(MAX_OUTPUT).read_to_end(&mut buf);
        }
        buf
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::LlmProvider;

    fn settings(cmd: &str, timeout: Duration) -> Settings {
        Settings {
            provider: LlmProvider::Command,
            base_url: None,
            model: Some("m1".into()),
            command: Some(cmd.into()),
            timeout,
            retries: 0,
            api_key: None,
            key_origin: None,
        }
    }

    fn ask(cmd: &str, timeout: Duration) -> Result<String, LlmError> {
        let p = CommandProvider::new(&settings(cmd, timeout)).unwrap();
        p.complete(
            &Request {
                system: "SYS",
                user: "USER",
                memory: "",
                days: &[],
            },
            &mut |_| {},
        )
    }

    #[test]
    fn the_prompt_goes_to_stdin_and_the_answer_comes_from_stdout() {
        let out = ask(
            "cat; echo; echo \"model=$TRAIL_LLM_MODEL\"",
            Duration::from_secs(10),
        )
        .unwrap();
        assert_eq!(out, "SYS\n\nUSER\nmodel=m1\n");
    }

    #[test]
    fn failures_say_what_happened() {
        let e = ask("echo boom >&2; exit 3", Duration::from_secs(10)).unwrap_err();
        assert!(
            e.to_string().contains("boom") && e.to_string().contains('3'),
            "{e}"
        );
        let e = ask("cat >/dev/null", Duration::from_secs(10)).unwrap_err();
        assert!(e.to_string().contains("printed nothing"), "{e}");
        assert!(CommandProvider::new(&settings(" ", Duration::from_secs(1))).is_err());
    }

    #[test]
    fn a_command_that_hangs_is_killed_with_its_children() {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let e = ask(
            &format!("sleep 60 & echo $! > {}; wait", pid_file.display()),
            Duration::from_millis(500),
        )
        .unwrap_err();
        assert!(matches!(e, LlmError::Timeout { .. }), "{e}");
        // The grandchild was in the command's process group: it is gone (or a zombie
        // waiting for init), not sleeping on.
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let mut state = String::new();
        for _ in 0..200 {
            state = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).map_or_else(
                |_| "gone".into(),
                |s| {
                    s.rsplit(") ")
                        .next()
                        .unwrap_or("")
                        .chars()
                        .take(1)
                        .collect()
                },
            );
            if state == "gone" || state == "Z" {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(state == "gone" || state == "Z", "grandchild state {state}");
    }
}
