//! What the end-to-end tests against real agent CLIs share: a scripted model server on
//! loopback (each host's test supplies the replies), and a git project with a local bare
//! remote to push to.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::*;

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

pub fn git(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new("git")
        .args(["-c", "user.name=e2e", "-c", "user.email=e2e@example.com"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap()
}

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

pub fn status_json(env: &TestEnv) -> serde_json::Value {
    serde_json::from_str(&env.ok(&["status", "--json"])).unwrap()
}

pub const PUSH: &str = "git push origin main";

/// The scenario most e2e tests start from: a project (a `.git` directory, so it is one), trail
/// installed for Claude Code, and `~/precious/keep.txt` for a destructive command to aim at.
/// Returns the precious directory.
pub fn project_with_precious(env: &TestEnv) -> PathBuf {
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let precious = env.home.join("precious");
    std::fs::create_dir_all(&precious).unwrap();
    std::fs::write(precious.join("keep.txt"), "do not delete").unwrap();
    precious
}

/// After a person approved a push and the agent retried twice: the push ran exactly once (one
/// successful proof line), the second retry is the pending junction again, the allowance is
/// used up and cleared at session end, and the journal holds one grant (made `by`) and one use.
pub fn assert_the_approved_push_ran_once(env: &TestEnv, by: &str) {
    let st = status_json(env);
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
    let log = std::fs::read_to_string(env.cwd.join(".proof/session_log.jsonl")).unwrap();
    let pushes: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["input_preview"] == PUSH)
        .collect();
    assert_eq!(pushes.len(), 1, "{log}");
    assert_eq!(pushes[0]["success"], true, "{log}");
    let stream = std::fs::read_to_string(env.stream()).unwrap();
    assert!(stream.contains("ran under a person"), "{stream}");
}
