//! The isolated test environment.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// A test that cannot run here says so, and is counted ([`trail_testkit::skip!`]: a SKIP line,
/// a row in `target/tmp/skipped.tsv`, and a failure where `TRAIL_REQUIRE` names `suite`). Call
/// it, then return.
pub fn skip(suite: &str, reason: &str) {
    trail_testkit::skip!(suite, reason);
}

pub struct TestEnv {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub trail_home: PathBuf,
    pub cwd: PathBuf,
    pub extra_env: Vec<(String, String)>,
}

/// A `[[secrets.rules]]` entry whose regex does not compile.
pub const BROKEN_SECRET_RULE: &str =
    "[[secrets.rules]]\nname = \"acme\"\nregex = \"acme_(unclosed\"\nexample = \"acme_x\"\n";

impl TestEnv {
    /// Write the person's configuration file (`~/.config/trail/config.toml`).
    pub fn user_config(&self, text: &str) {
        let file = self.home.join(".config/trail/config.toml");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, text).unwrap();
    }

    pub fn new() -> TestEnv {
        let dir = tempfile::Builder::new()
            .prefix("trail-test-")
            .tempdir()
            .unwrap();
        let root = dir.path().to_path_buf();
        let home = root.join("home");
        let trail_home = root.join("ledger");
        let cwd = root.join("project");
        for d in [&home, &cwd] {
            std::fs::create_dir_all(d).unwrap();
        }
        TestEnv {
            _dir: dir,
            root,
            home,
            trail_home,
            cwd,
            // The gate's tests judge the gate alone; `tests/cli/confine.rs` and the confined
            // end-to-end sessions turn the OS confinement on (`confined()`).
            extra_env: vec![("TRAIL_CONFINE_MODE".into(), "off".into())],
        }
    }

    /// The same environment with the agent's commands confined by the OS (bubblewrap must
    /// work here: `confine.mode = "require"` refuses to run them otherwise).
    pub fn confined(self) -> TestEnv {
        self.env("TRAIL_CONFINE_MODE", "require")
    }

    pub fn env(mut self, k: &str, v: &str) -> TestEnv {
        self.extra_env.push((k.into(), v.into()));
        self
    }

    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_trail"));
        c.args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("TRAIL_HOME", &self.trail_home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .current_dir(&self.cwd)
            .stdin(Stdio::null());
        for (k, v) in &self.extra_env {
            c.env(k, v);
        }
        c
    }

    /// Run and return the output, whatever the exit code.
    pub fn run(&self, args: &[&str]) -> Output {
        self.cmd(args).output().unwrap()
    }

    /// Run with `input` on stdin.
    pub fn run_stdin(&self, args: &[&str], input: &str) -> Output {
        use std::io::Write;
        let mut child = self
            .cmd(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A command may exit before reading its input (bad usage): that is not a test failure.
        if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
        child.wait_with_output().unwrap()
    }

    /// Run, require success, return stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "trail {args:?} failed with {:?}\nstdout: {}\nstderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs trail in a pseudo-terminal (`script(1)`), as a person in their own terminal would,
    /// typing `typed` (each string a line) when asked; returns what the terminal showed.
    pub fn in_terminal(&self, args: &[&str], typed: &[&str]) -> Output {
        self.in_terminal_env(args, typed, &[])
    }

    /// [`TestEnv::in_terminal`] with more environment for the terminal's shell.
    pub fn in_terminal_env(&self, args: &[&str], typed: &[&str], env: &[(&str, &str)]) -> Output {
        use std::io::Write;
        let quoted: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_trail"))
            .chain(args.iter().copied())
            .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
            .collect();
        let mut child = Command::new("script")
            .args(["-qec", &quoted.join(" "), "/dev/null"])
            .env_clear()
            .envs(self.extra_env.iter().map(|(k, v)| (k, v)))
            .envs(env.iter().copied())
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("TRAIL_HOME", &self.trail_home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .current_dir(&self.cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("script(1) from util-linux runs the terminal tests");
        let mut input = child.stdin.take().unwrap();
        for line in typed {
            // The question is asked after trail starts; a person types after reading it.
            std::thread::sleep(std::time::Duration::from_millis(300));
            let _ = input.write_all(format!("{line}\n").as_bytes());
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        drop(input);
        child.wait_with_output().unwrap()
    }

    /// A person approves (or dismisses) the pending junction in their terminal: they read its
    /// id from `trail status` and type its end back when asked.
    pub fn decide_in_terminal(&self, args: &[&str]) -> String {
        let st: serde_json::Value = serde_json::from_str(&self.ok(&["status", "--json"])).unwrap();
        let id = st["junction"]["id"].as_str().unwrap_or("").to_string();
        let code = &id[id.len().saturating_sub(4)..];
        let out = self.in_terminal(args, &[code]);
        let shown = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "trail {args:?} in a terminal failed: {shown}"
        );
        shown
    }

    pub fn stream(&self) -> PathBuf {
        self.trail_home.join("stream").join("pulses.log.md")
    }

    pub fn archive(&self) -> PathBuf {
        self.trail_home.join("stream").join("archive")
    }

    pub fn secrets_file(&self) -> PathBuf {
        self.home.join(".secrets").join("trail.env")
    }
}

pub fn code(out: &Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub use trail_testkit::files::{files_under, occurrences};

/// The stream's bytes without the blank reserve trail keeps after the last record.
pub fn logical(bytes: &[u8]) -> &[u8] {
    if !bytes.ends_with(b"\n") {
        return bytes;
    }
    let body = &bytes[..bytes.len() - 1];
    let start = body.iter().rposition(|&c| c != b' ').map_or(0, |i| i + 1);
    if body.len() - start >= 1 && (start == 0 || body[start - 1] == b'\n') {
        &bytes[..start]
    } else {
        bytes
    }
}

/// The stream file's content without the reserve.
pub fn stream_bytes(env: &TestEnv) -> Vec<u8> {
    logical(&std::fs::read(env.stream()).unwrap()).to_vec()
}

/// A Claude Code hook call; its JSON answer (`null` when silent).
pub fn hook(env: &TestEnv, payload: serde_json::Value) -> serde_json::Value {
    let out = env.run_stdin(&["hook", "claude-code"], &payload.to_string());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let s = stdout(&out);
    if s.trim().is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(&s).unwrap()
    }
}

/// PreToolUse of a Bash command.
pub fn bash(env: &TestEnv, command: &str) -> serde_json::Value {
    hook(
        env,
        serde_json::json!({"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":command}}),
    )
}

/// UserPromptSubmit of `text`; the context trail adds.
pub fn prompt(env: &TestEnv, text: &str) -> String {
    let v = hook(
        env,
        serde_json::json!({"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":text}),
    );
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The deny reason of a PreToolUse answer.
pub fn denied(v: &serde_json::Value) -> Option<String> {
    (v["hookSpecificOutput"]["permissionDecision"] == "deny").then(|| {
        v["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .to_string()
    })
}

/// `trail status --json`.
pub fn status(env: &TestEnv) -> serde_json::Value {
    serde_json::from_str(&env.ok(&["status", "--json"])).unwrap()
}

/// The summary of every record in the stream, oldest first.
pub fn summaries(env: &TestEnv) -> Vec<String> {
    let out = env.ok(&["log", "--json", "--limit", "100000"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["intent"]["summary"].as_str().map(String::from))
        .collect()
}

/// The real o200k token count (tests only: the hook estimates, `trail_core::tokens`).
pub fn o200k(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton()
        .encode_with_special_tokens(text)
        .len()
}
