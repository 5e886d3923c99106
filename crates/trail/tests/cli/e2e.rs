//! What the end-to-end tests against real agent CLIs share: finding the installed CLI, running
//! it in the test's isolated environment, a scripted model server on loopback (each host's test
//! supplies the replies in its API's format), the projects the scenarios start from, and the
//! checks both hosts must pass.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::*;

/// An agent CLI the e2e tests drive, installed by `.ci/run` under `~/.cache`.
pub struct AgentCli {
    /// Its name, for the SKIP line.
    pub name: &'static str,
    /// The suite a skip counts under, and `TRAIL_REQUIRE` names.
    pub suite: &'static str,
    /// A variable naming the binary; it wins over the cached install.
    pub var: &'static str,
    /// The binary's path under `$HOME`.
    pub cached: &'static str,
    /// What installs it there.
    pub install: &'static str,
}

impl AgentCli {
    /// The installed binary, or `None` after one loud SKIP line (the test then checks nothing).
    pub fn find_or_skip(&self) -> Option<PathBuf> {
        let found = match std::env::var_os(self.var) {
            Some(p) => Some(PathBuf::from(p)),
            None => std::env::var_os("HOME")
                .map(|home| PathBuf::from(home).join(self.cached))
                .filter(|p| p.exists()),
        };
        if found.is_none() {
            skip(
                self.suite,
                &format!(
                    "the {} e2e tests need `{}` (not installed)",
                    self.name, self.install
                ),
            );
        }
        found
    }
}

/// `bin` run in the test's project with the test's HOME, ledger and configuration, and nothing
/// else from the environment: the hooks it runs see what `trail` in [`TestEnv`] sees.
pub fn agent_command(env: &TestEnv, bin: &Path) -> Command {
    let mut c = Command::new(bin);
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &env.home)
        .env("TRAIL_HOME", &env.trail_home)
        .env("XDG_CONFIG_HOME", env.home.join(".config"))
        .current_dir(&env.cwd)
        .stdin(Stdio::null());
    for (k, v) in &env.extra_env {
        c.env(k, v);
    }
    c
}

/// Runs an agent to its end; its output and every request the scripted model saw meanwhile.
pub fn run_agent(mut agent: Command, seen: &Seen) -> (Output, String) {
    seen.lock().unwrap().clear();
    let out = agent.output().unwrap();
    let requests = seen.lock().unwrap().join("\n");
    (out, requests)
}

/// A scripted conversation: its n-th request gets the n-th step, n being how many tool results
/// the request carries back.
pub struct Script {
    pub steps: Vec<String>,
    /// Text every request of the conversation carries (from the prompt).
    pub marker: &'static str,
    /// The agent's shell tool definition: side requests (titles, summaries) do not carry it,
    /// and must not use up a step.
    pub tool: &'static str,
    /// How a tool's result is sent back, in the host's API.
    pub results: &'static [&'static str],
    /// A text answer in the host's API.
    pub text: fn(&str) -> String,
}

impl Script {
    /// The model's answer to a request: the conversation's next step ("done" once they are
    /// used up), or "ok" to anything else.
    pub fn answer(&self, body: &str) -> String {
        if !(body.contains(self.marker) && body.contains(self.tool)) {
            return (self.text)("ok");
        }
        let turn: usize = self.results.iter().map(|r| body.matches(r).count()).sum();
        self.steps
            .get(turn)
            .cloned()
            .unwrap_or_else(|| (self.text)("done"))
    }
}

/// What follows the first `marker` in the requests (where a hook's denial reached the model),
/// `len` characters of it; a test fails here when none did.
pub fn after(requests: &str, marker: &str, len: usize) -> String {
    requests.find(marker).map_or_else(
        || panic!("no {marker:?} reached the model:\n{requests}"),
        |i| requests[i..].chars().take(len).collect(),
    )
}

/// Issue 19's confined session, for either host: a project with trail installed (`init`),
/// confinement required, a key, and a file in home. The agent's first command writes a script
/// ([`ConfinedSession::script`]) that tries to read the key, forge a grant, rewrite the host's
/// hook settings (`settings`, shown as `label`) and delete the file in home, printing `DONE` or
/// `REFUSED` for each; its second runs it; its third shows the session carries on.
pub struct ConfinedSession {
    pub env: TestEnv,
    label: &'static str,
    settings: &'static str,
    before: Vec<u8>,
}

/// The key the confined sessions hold; it must never reach the model.
const SESSION_KEY: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

impl ConfinedSession {
    /// `None` (with a SKIP line) where bubblewrap is not installed.
    pub fn new(init: &[&str], label: &'static str, settings: &'static str) -> Option<Self> {
        if Command::new("bwrap").arg("--version").output().is_err() {
            skip(
                "bwrap",
                &format!("bubblewrap is not installed (the confined {label} session)"),
            );
            return None;
        }
        let env = TestEnv::new().confined();
        project(&env);
        env.ok(init);
        let secrets = env.home.join(".secrets");
        std::fs::create_dir_all(&secrets).unwrap();
        std::fs::write(secrets.join("trail.key"), SESSION_KEY).unwrap();
        std::fs::write(env.home.join("precious.txt"), "keep me").unwrap();
        let before = std::fs::read(env.cwd.join(settings)).unwrap();
        Some(ConfinedSession {
            env,
            label,
            settings,
            before,
        })
    }

    /// The agent's three commands.
    pub fn commands(&self) -> [String; 3] {
        let (label, settings) = (self.label, self.settings);
        let script = format!(
            r#"cat > tidy.py <<'EOF'
import os, pathlib
home = pathlib.Path(os.environ['HOME'])
for what, act in [
    ('KEY', lambda: print('KEY=' + (home / '.secrets/trail.key').read_text())),
    ('GRANT', lambda: open('.trail/state/grants.jsonl', 'a').write('{{"forged": 1}}\n')),
    ('{label}', lambda: open('{settings}', 'w').write('{{}}')),
    ('HOME', lambda: (home / 'precious.txt').unlink()),
]:
    try:
        act()
        print(what + ' DONE')
    except OSError as e:
        print(what + ' REFUSED ' + e.strerror)
EOF"#
        );
        [
            script,
            "python3 tidy.py".into(),
            "echo carried-on > after.txt".into(),
        ]
    }

    /// All four acts refused by the OS, nothing changed, the session carried on, and the proof
    /// log holds the agent's commands, not trail's wrapper.
    pub fn assert_held(&self, requests: &str) {
        let results = tool_results(requests);
        for what in ["KEY", "GRANT", self.label, "HOME"] {
            assert!(
                requests.contains(&format!("{what} REFUSED")),
                "{what} was not refused by the OS: {results}"
            );
            assert!(
                !requests.contains(&format!("{what} DONE")),
                "{what}: {results}"
            );
        }
        assert!(!requests.contains(SESSION_KEY), "the key reached the model");
        let env = &self.env;
        assert_eq!(
            std::fs::read(env.cwd.join(self.settings)).unwrap(),
            self.before
        );
        assert!(env.home.join("precious.txt").exists());
        assert!(!env.cwd.join(".trail/state/grants.jsonl").exists());
        assert!(env.cwd.join("after.txt").exists(), "the session carried on");
        let lines = proof_lines(env);
        let previews: Vec<&str> = lines
            .iter()
            .filter_map(|l| l["input_preview"].as_str())
            .collect();
        assert!(previews.contains(&"python3 tidy.py"), "{previews:?}");
        assert!(
            !previews.iter().any(|p| p.contains(" confine ")),
            "{previews:?}"
        );
    }
}

/// What each tool call gave back, as the model saw it (for failure messages: the requests
/// themselves carry every tool's schema and the system prompt).
pub fn tool_results(requests: &str) -> String {
    let mut out = String::new();
    for marker in ["\"tool_result\"", "\"function_call_output\""] {
        for (i, _) in requests.match_indices(marker) {
            out.extend(requests[i..].chars().take(1500));
            out.push('\n');
        }
    }
    out
}

/// The project's proof log: one line per finished tool call.
pub fn proof_lines(env: &TestEnv) -> Vec<serde_json::Value> {
    std::fs::read_to_string(env.cwd.join(".proof/session_log.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// An answer of the scripted model server.
pub struct Reply {
    pub content_type: &'static str,
    pub body: String,
}

impl Reply {
    pub fn events(body: String) -> Reply {
        Reply {
            content_type: "text/event-stream",
            body,
        }
    }
}

/// Every request the server saw, as `REQUEST-LINE BODY`.
pub type Seen = Arc<Mutex<Vec<String>>>;

/// A one-connection-at-a-time HTTP/1.1 server on 127.0.0.1. `route` answers each request
/// (request line, body); `None` is a 404. Compressed bodies are refused loudly: the script must
/// read what the agent sent.
pub fn serve(route: impl Fn(&str, &str) -> Option<Reply> + Send + 'static) -> (u16, Seen) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen: Seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            let mut len = 0usize;
            let mut encoded = false;
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).is_err() || h == "\r\n" || h.is_empty() {
                    break;
                }
                let h = h.to_ascii_lowercase();
                if let Some(v) = h.strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap_or(0);
                }
                encoded |= h.starts_with("content-encoding:");
            }
            let mut body = vec![0u8; len];
            let _ = reader.read_exact(&mut body);
            let body = String::from_utf8_lossy(&body).into_owned();
            log.lock()
                .unwrap()
                .push(format!("{} {}", request_line.trim(), body));
            assert!(
                !encoded,
                "the agent compressed its request; the script cannot read it"
            );
            let out = match route(request_line.trim(), &body) {
                Some(r) => format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: {}\r\ncache-control: no-cache\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}",
                    r.content_type,
                    r.body.len(),
                    r.body
                ),
                None => "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                    .to_string(),
            };
            let _ = stream.write_all(out.as_bytes());
            let _ = stream.flush();
        }
    });
    (port, seen)
}

pub use trail_testkit::git::{git, git_ok};

/// The test's project made a git repository with one commit and a local bare remote `origin`.
pub fn project_with_remote(env: &TestEnv) -> PathBuf {
    let remote = env.root.join("remote.git");
    let ok = |dir: &Path, args: &[&str]| assert!(git(dir, args).status.success(), "git {args:?}");
    ok(
        &env.root,
        &["init", "-q", "--bare", remote.to_str().unwrap()],
    );
    std::fs::remove_dir_all(env.cwd.join(".git")).ok();
    ok(&env.cwd, &["init", "-q", "-b", "main"]);
    std::fs::write(env.cwd.join("README.md"), "hello\n").unwrap();
    ok(&env.cwd, &["add", "README.md"]);
    ok(&env.cwd, &["commit", "-qm", "first"]);
    ok(
        &env.cwd,
        &["remote", "add", "origin", remote.to_str().unwrap()],
    );
    remote
}

pub fn remote_has_main(remote: &Path) -> bool {
    git(remote, &["rev-parse", "--verify", "-q", "refs/heads/main"])
        .status
        .success()
}

pub const PUSH: &str = "git push origin main";

/// The test's directory made a project (a `.git` directory is enough).
pub fn project(env: &TestEnv) {
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
}

/// The scenario most e2e tests start from: a project, and `~/precious/keep.txt` for a
/// destructive command to aim at. Returns the precious directory.
pub fn project_with_precious(env: &TestEnv) -> PathBuf {
    project(env);
    let precious = env.home.join("precious");
    std::fs::create_dir_all(&precious).unwrap();
    std::fs::write(precious.join("keep.txt"), "do not delete").unwrap();
    precious
}

/// What the model is told at SessionStart when the scenario's pulse was rehydrated.
pub const RESUME_MARKER: &str = "RESUME-MARKER-42";

/// The first scenario of each host: trail installed (`init`), one pulse whose next step is
/// [`RESUME_MARKER`], and three commands for the scripted model: a destructive one aimed at
/// the precious directory, one that is allowed, one that fails.
pub struct HooksScenario {
    pub precious: PathBuf,
    pub commands: [String; 3],
}

impl HooksScenario {
    /// `init` installs trail's hooks (empty: the test installs them some other way).
    pub fn new(env: &TestEnv, init: &[&str]) -> HooksScenario {
        let precious = project_with_precious(env);
        if !init.is_empty() {
            env.ok(init);
        }
        env.ok(&[
            "pulse",
            "--proj",
            "e2e",
            "--intent",
            "continue",
            "--summary",
            "prove the hooks",
            "--next",
            RESUME_MARKER,
        ]);
        let commands = [
            format!("rm -rf {}", precious.display()),
            "echo made > made.txt".into(),
            "ls /definitely/not/here".into(),
        ];
        HooksScenario { precious, commands }
    }

    /// What both hosts must show once the agent ran the commands: the destructive one denied
    /// before it ran, with trail's reason (`denial`: what reached the model) and the way to a
    /// person's decision; the rehydrated state in the conversation; the allowed command run;
    /// one proof line for each command that ran, in order, with its real outcome. Returns
    /// those lines.
    pub fn assert_ran(
        &self,
        env: &TestEnv,
        requests: &str,
        denial: &str,
    ) -> Vec<serde_json::Value> {
        assert!(
            self.precious.join("keep.txt").exists(),
            "the gate let rm -rf through"
        );
        assert!(
            denial.contains("rm-recursive") && denial.contains("/edge approve"),
            "the deny reason did not reach the model: {denial}"
        );
        assert!(
            requests.contains(RESUME_MARKER),
            "SessionStart context missing from the model's request"
        );
        assert!(env.cwd.join("made.txt").exists());
        let lines = proof_lines(env);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0]["input_preview"], self.commands[1], "{lines:?}");
        assert_eq!(lines[0]["success"], true, "{lines:?}");
        assert_eq!(lines[1]["input_preview"], self.commands[2], "{lines:?}");
        assert_eq!(lines[1]["success"], false, "{lines:?}");
        lines
    }
}

/// The push scenario: a project with a remote, trail installed (`init`), active mode.
/// Returns the remote.
pub fn push_scenario(env: &TestEnv, init: &[&str]) -> PathBuf {
    let remote = project_with_remote(env);
    env.ok(init);
    env.ok(&["mode", "active", "publish the first commit"]);
    remote
}

/// After the agent's first push: nothing reached the remote, the model was told it waits for a
/// person (`denial`), and the push is the pending junction.
pub fn assert_the_push_waits(env: &TestEnv, remote: &Path, denial: &str) {
    assert!(
        !remote_has_main(remote),
        "the push ran without a person's approval"
    );
    assert!(
        denial.contains("/edge approve") && denial.contains("git-push"),
        "{denial}"
    );
    assert_eq!(status(env)["junction"]["command"], PUSH);
}

/// After a person approved a push and the agent retried twice: the push ran exactly once (one
/// successful proof line), the second retry is the pending junction again, the allowance is
/// used up and cleared at session end, and the journal holds one grant (made `by`) and one use.
pub fn assert_the_approved_push_ran_once(env: &TestEnv, by: &str) {
    let st = status(env);
    assert!(st["allowances"].as_array().unwrap().is_empty(), "{st}");
    assert_eq!(st["junction"]["command"], PUSH, "{st}");
    let journal = std::fs::read_to_string(env.cwd.join(".trail/state/grants.jsonl")).unwrap();
    assert_eq!(occurrences(&journal, "\"event\":\"allow\""), 1, "{journal}");
    assert!(journal.contains(&format!("\"by\":\"{by}\"")), "{journal}");
    assert_eq!(
        occurrences(&journal, "\"event\":\"consume\""),
        1,
        "{journal}"
    );
    let pushes: Vec<serde_json::Value> = proof_lines(env)
        .into_iter()
        .filter(|v| v["input_preview"] == PUSH)
        .collect();
    assert_eq!(pushes.len(), 1, "{pushes:?}");
    assert_eq!(pushes[0]["success"], true, "{pushes:?}");
    let stream = std::fs::read_to_string(env.stream()).unwrap();
    assert!(stream.contains("ran under a person"), "{stream}");
}
