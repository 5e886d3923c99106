//! `trail dream` end to end: the real binary against a real HTTP server on loopback that speaks
//! the OpenAI-compatible and the Anthropic APIs (hand-written HTTP/1.1, scripted answers), a real
//! `command` script, the offline extractive provider, and crashes at the failpoints between
//! backup and replace.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{TestEnv, code, stderr, stdout};

// ---------------------------------------------------------------------------------------------
// The scripted LLM server.

#[derive(Clone)]
enum Reply {
    /// 200 with this text as the model's answer, in the API's own format.
    Text(&'static str),
    /// An error status, with a `Retry-After` header when given.
    Status(u16, Option<&'static str>),
    /// Wait, then answer.
    Slow(Duration, &'static str),
}

#[derive(Debug, Clone)]
struct Seen {
    path: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

struct Server {
    url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    /// Answers the script in order; the last reply repeats forever.
    fn start(script: Vec<Reply>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        std::thread::spawn(move || {
            for (i, conn) in listener.incoming().enumerate() {
                let Ok(conn) = conn else { continue };
                let reply = script[i.min(script.len() - 1)].clone();
                let log = log.clone();
                std::thread::spawn(move || serve(conn, reply, &log));
            }
        });
        Server { url, seen }
    }

    fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

fn serve(conn: TcpStream, reply: Reply, log: &Mutex<Vec<Seen>>) {
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
        return;
    }
    let path = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("")
        .to_string();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (k, v) = line.split_once(':').unwrap();
        headers.push((k.trim().to_lowercase(), v.trim().to_string()));
    }
    let len: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .map(|(_, v)| v.parse().unwrap())
        .expect("the client sends a Content-Length");
    let mut body = vec![0; len];
    reader.read_exact(&mut body).unwrap();
    let body: Value = serde_json::from_slice(&body).unwrap();
    log.lock().unwrap().push(Seen {
        path: path.clone(),
        headers,
        body,
    });
    let anthropic = path == "/v1/messages";
    let answer = |text: &str| {
        if anthropic {
            json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
                   "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
                   "usage": {"input_tokens": 10, "output_tokens": 10}})
        } else {
            json!({"id": "chatcmpl-1", "object": "chat.completion", "model": "m",
                   "choices": [{"index": 0, "finish_reason": "stop",
                                "message": {"role": "assistant", "content": text}}]})
        }
    };
    let (status, extra, body) = match reply {
        Reply::Text(t) => (200, String::new(), answer(t)),
        Reply::Slow(d, t) => {
            std::thread::sleep(d);
            (200, String::new(), answer(t))
        }
        Reply::Status(s, retry_after) => (
            s,
            retry_after
                .map(|r| format!("Retry-After: {r}\r\n"))
                .unwrap_or_default(),
            json!({"error": {"type": "server_error", "message": format!("scripted status {s}")}}),
        ),
    };
    let body = body.to_string();
    let mut conn = conn;
    // The client may have given up (the timeout test): a failed write is expected then.
    let _ = write!(
        conn,
        "HTTP/1.1 {status} Scripted\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n{body}",
        body.len()
    );
    let _ = conn.flush();
}

// ---------------------------------------------------------------------------------------------
// Fixtures.

const DAY: &str = "2025-01-10";
/// Line numbers matter: answers cite them.
const DAILY: &str = "# Daily Memory: 2025-01-10

## Remembered (09:00)
- The staging DB lives on port 5433

## Session abc (10:00)
### Asked
- Fix the rounding bug in checkout totals
### Files changed
- src/checkout/total.rs (2 edits)
### Commands
- `cargo test -p shop` — failed
### Open next steps
- Add a regression test for 3-item carts
";

const GOOD: &str = "[MEMORY]
## Infra
- The staging DB lives on port 5433 (src: memory/2025-01-10.md#L4)

## Checkout
- Fix the rounding bug in checkout totals (src: memory/2025-01-10.md#L8)
- Edited src/checkout/total.rs (src: memory/2025-01-10.md#L10)
- Next: add a regression test for 3-item carts
[DREAM]
Merged the staging note and the checkout session.
";

const FABRICATED: &str = "[MEMORY]
## Infra
- The staging DB lives on port 5433 (src: memory/2025-01-10.md#L4)
- The staging DB lives on port 6543 (src: memory/2025-01-10.md#L4)
## Checkout
- Fix the rounding bug in checkout totals (src: memory/2025-01-10.md#L8)
- The team decided to rewrite billing in Go
[DREAM]
Kept everything.
";

/// A day holding knowledge: four notes someone stated (`trail remember`), then a session's log.
/// Line numbers matter: answers cite them.
const KNOWN_DAY: &str = "# Daily Memory: 2025-01-10

## Remembered (09:00)
- The staging DB lives on port 5433
- Totals round half-even at display time
- Refunds go through the ledger service
- Invoices are numbered per tenant

## Session abc (10:00)
### Commands
- `cargo test -p shop` — failed
### Files changed
- src/checkout/total.rs (2 edits)
";

/// Core memory as an older offline dream left it: the four notes, and two lines of the log.
const KNOWN: &str = "[MEMORY]
## Infra
- The staging DB lives on port 5433 (src: memory/2025-01-10.md#L4)
- Refunds go through the ledger service (src: memory/2025-01-10.md#L6)
## Checkout
- Totals round half-even at display time (src: memory/2025-01-10.md#L5)
- Invoices are numbered per tenant (src: memory/2025-01-10.md#L7)
- `cargo test -p shop` — failed (src: memory/2025-01-10.md#L11)
- Edited src/checkout/total.rs (src: memory/2025-01-10.md#L13)
[DREAM]
Copied the day.
";

/// Loses two of the four notes.
const KNOWN_HALF: &str = "[MEMORY]
## Infra
- The staging DB lives on port 5433 (src: memory/2025-01-10.md#L4)
## Checkout
- Totals round half-even at display time (src: memory/2025-01-10.md#L5)
- `cargo test -p shop` — failed (src: memory/2025-01-10.md#L11)
- Edited src/checkout/total.rs (src: memory/2025-01-10.md#L13)
[DREAM]
Shortened.
";

/// Keeps every note and drops the log: fewer, better bullets.
const KNOWN_MERGED: &str = "[MEMORY]
## Infra
- The staging DB lives on port 5433 (src: memory/2025-01-10.md#L4)
- Refunds go through the ledger service (src: memory/2025-01-10.md#L6)
## Checkout
- Totals round half-even at display time (src: memory/2025-01-10.md#L5)
- Invoices are numbered per tenant (src: memory/2025-01-10.md#L7)
[DREAM]
Kept the knowledge, left the day's log in daily memory.
";

fn setup_known() -> TestEnv {
    let env = TestEnv::new();
    let root = env.cwd.display().to_string();
    let env = env.env("CLAUDE_PROJECT_DIR", &root);
    write_day(&env, DAY, KNOWN_DAY);
    env
}

const NO_MEMORY: &str =
    "I reviewed the notes. Nothing in them is worth keeping long term.\n[DREAM]\nNothing to do.\n";

fn setup() -> TestEnv {
    let env = TestEnv::new();
    let root = env.cwd.display().to_string();
    let env = env.env("CLAUDE_PROJECT_DIR", &root);
    write_day(&env, DAY, DAILY);
    env
}

fn write_day(env: &TestEnv, day: &str, text: &str) {
    let dir = env.cwd.join(".trail/memory");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{day}.md")), text).unwrap();
}

fn openai(env: TestEnv, server: &Server) -> TestEnv {
    env.env("TRAIL_LLM_PROVIDER", "openai")
        .env("TRAIL_LLM_BASE_URL", &format!("{}/v1", server.url))
        .env("TRAIL_LLM_MODEL", "gpt-test-1")
        .env("TRAIL_LLM_API_KEY", "sk-test-123")
}

fn anthropic(env: TestEnv, server: &Server) -> TestEnv {
    env.env("TRAIL_LLM_PROVIDER", "anthropic")
        .env("TRAIL_LLM_BASE_URL", &server.url)
        .env("TRAIL_LLM_MODEL", "claude-test-1")
}

fn memory_path(env: &TestEnv) -> PathBuf {
    env.cwd.join(".trail/MEMORY.md")
}

fn read(p: &Path) -> Option<String> {
    std::fs::read_to_string(p).ok()
}

fn diaries(env: &TestEnv) -> Vec<(String, String)> {
    let dir = env.cwd.join(".trail/memory/dreams");
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| {
                    (
                        e.file_name().to_string_lossy().into_owned(),
                        std::fs::read_to_string(e.path()).unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Nothing a failed dream might have touched exists.
fn assert_nothing_written(env: &TestEnv, prior: Option<&str>) {
    assert_eq!(
        read(&memory_path(env)).as_deref(),
        prior,
        "MEMORY.md changed"
    );
    assert!(diaries(env).is_empty(), "a diary was written");
    assert!(!env.cwd.join(".trail/state/dream.hash").exists());
    assert!(!env.cwd.join(".trail/state/MEMORY.md.bak").exists());
}

fn run_ok(env: &TestEnv, args: &[&str]) -> (String, String) {
    let out = env.run(args);
    assert_eq!(
        code(&out),
        0,
        "stdout: {}\nstderr: {}",
        stdout(&out),
        stderr(&out)
    );
    (stdout(&out), stderr(&out))
}

// ---------------------------------------------------------------------------------------------
// The HTTP providers.

#[test]
fn openai_good_consolidation_is_verified_sourced_and_written_with_a_diary() {
    let server = Server::start(vec![Reply::Text(GOOD)]);
    let env = openai(setup(), &server);
    std::fs::write(memory_path(&env), "# Core Memory\n\n## Infra\n- The staging DB lives on port 5433 (src: memory/2025-01-10.md#L4)\n").unwrap();
    let prior = read(&memory_path(&env)).unwrap();
    let (out, err) = run_ok(&env, &["dream"]);
    assert!(
        err.contains(&format!(
            "asking openai model gpt-test-1 at {}/v1/chat/completions",
            server.url
        )),
        "{err}"
    );
    assert!(out.contains("1 → 4 entries"), "{out}");

    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    let r = &reqs[0];
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.header("authorization"), Some("Bearer sk-test-123"));
    assert_eq!(r.body["model"], "gpt-test-1");
    let system = r.body["messages"][0]["content"].as_str().unwrap();
    let user = r.body["messages"][1]["content"].as_str().unwrap();
    assert_eq!(r.body["messages"][0]["role"], "system");
    assert!(system.contains("Do not fabricate"), "{system}");
    assert!(
        user.contains("L4: - The staging DB lives on port 5433"),
        "{user}"
    );
    assert!(user.contains("L14: - Add a regression test for 3-item carts"));
    assert!(
        user.contains(&prior.trim_end().to_string()),
        "the current MEMORY.md is sent"
    );

    let memory = read(&memory_path(&env)).unwrap();
    assert_eq!(
        memory,
        "# Core Memory\n\n## Infra\n- The staging DB lives on port 5433 (src: memory/2025-01-10.md#L4)\n\n## Checkout\n- Fix the rounding bug in checkout totals (src: memory/2025-01-10.md#L8)\n- Edited src/checkout/total.rs (src: memory/2025-01-10.md#L10)\n- Next: add a regression test for 3-item carts (src: memory/2025-01-10.md#L14)\n"
    );
    assert_eq!(
        read(&env.cwd.join(".trail/state/MEMORY.md.bak")).as_deref(),
        Some(prior.as_str())
    );
    let d = diaries(&env);
    assert_eq!(d.len(), 1);
    let day = d[0].0.trim_end_matches(".md");
    assert!(
        d[0].1
            .starts_with(&format!("# Dream Diary: {day}\n\n## Dream (")),
        "{}",
        d[0].1
    );
    assert!(
        d[0].1
            .contains("> Merged the staging note and the checkout session.")
    );
    assert!(d[0].1.contains("### Sources given\n- Next: add a regression test for 3-item carts → memory/2025-01-10.md#L14"));
    // The result passes `trail memory verify`.
    run_ok(&env, &["memory", "verify"]);
}

#[test]
fn anthropic_messages_api_with_the_key_from_the_secrets_file() {
    let server = Server::start(vec![Reply::Text(GOOD)]);
    let env = anthropic(setup(), &server);
    std::fs::create_dir_all(env.home.join(".secrets")).unwrap();
    std::fs::write(
        env.secrets_file(),
        "TRAIL_LLM_API_KEY=\"sk-ant-from-file\"\n",
    )
    .unwrap();
    let (out, err) = run_ok(&env, &["dream", "--json"]);
    assert!(
        err.contains("asking anthropic model claude-test-1"),
        "{err}"
    );
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["status"], "written");
    assert_eq!(report["entries_after"], 4);
    let r = &server.requests()[0];
    assert_eq!(r.path, "/v1/messages");
    assert_eq!(r.header("x-api-key"), Some("sk-ant-from-file"));
    assert_eq!(r.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(r.header("authorization"), None);
    assert_eq!(r.body["model"], "claude-test-1");
    assert!(r.body["max_tokens"].as_u64().unwrap() > 0);
    assert!(
        r.body["system"]
            .as_str()
            .unwrap()
            .contains("Do not fabricate")
    );
    assert!(
        r.body["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("L8: - Fix the rounding bug in checkout totals")
    );
    assert!(read(&memory_path(&env)).unwrap().contains("port 5433"));
}

#[test]
fn fabricated_bullets_are_dropped_and_listed_in_the_diary() {
    for api in ["openai", "anthropic"] {
        let server = Server::start(vec![Reply::Text(FABRICATED)]);
        let env = setup();
        let env = if api == "openai" {
            openai(env, &server)
        } else {
            anthropic(env, &server).env("TRAIL_LLM_API_KEY", "k")
        };
        let (out, _) = run_ok(&env, &["dream"]);
        assert!(out.contains("2 dropped as unsupported"), "{api}: {out}");
        let memory = read(&memory_path(&env)).unwrap();
        assert!(
            memory.contains("port 5433") && memory.contains("rounding bug"),
            "{memory}"
        );
        assert!(
            !memory.contains("6543") && !memory.contains("rewrite"),
            "{memory}"
        );
        let diary = &diaries(&env)[0].1;
        assert!(
            diary.contains("### Dropped: not supported by the daily files\n- The staging DB lives on port 6543 — not in the sources verbatim: `6543`"),
            "{api}: {diary}"
        );
        assert!(
            diary.contains("- The team decided to rewrite billing in Go — "),
            "{diary}"
        );
    }
}

/// An answer quoting two secrets (a model can: MEMORY.md and the daily files are files the
/// agent writes): one in a bullet the verifier drops, one in the dream's narrative.
const QUOTES_SECRETS: &str = "[MEMORY]
## Infra
- The staging DB lives on port 5433 (src: memory/2025-01-10.md#L4)
- Deploys use the token ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ
[DREAM]
Merged the staging note; the old key xoxb-2814567890123-2814567890456-AbCdEfGhIjKlMnOpQrStUvWx was left out.
";

/// Found by looking up a reference from a dream diary: the dream redacted what the model wrote
/// but kept no original, so `${secret:…}` in the diary (and in the report) named nothing.
#[test]
fn a_secret_the_dream_redacts_is_kept_in_the_secrets_file() {
    let server = Server::start(vec![Reply::Text(QUOTES_SECRETS)]);
    let env = openai(setup(), &server);
    let (out, _) = run_ok(&env, &["dream"]);
    assert!(out.contains("1 dropped as unsupported"), "{out}");
    let diary = &diaries(&env)[0].1;
    let memory = read(&memory_path(&env)).unwrap();
    let kept = read(&env.secrets_file()).unwrap_or_default();
    for secret in [
        "ghp_R2d9Kq7LmX4vTz8NwB3cY6pF1sJ5hG0aE9uQ",
        "xoxb-2814567890123-2814567890456-AbCdEfGhIjKlMnOpQrStUvWx",
    ] {
        assert!(
            !diary.contains(secret) && !memory.contains(secret) && !out.contains(secret),
            "{secret} was written"
        );
        assert_eq!(
            kept.matches(secret).count(),
            1,
            "{secret} not kept once in {}:\n{kept}",
            env.secrets_file().display()
        );
    }
    // Each reference the diary holds names a kept original.
    let mut references = 0;
    for (i, _) in diary.match_indices("${secret:") {
        let end = i + diary[i..].find('}').unwrap();
        let name = &diary[i + "${secret:".len()..end];
        assert!(
            kept.contains(&format!("{name}=")),
            "{name} not kept:\n{kept}"
        );
        references += 1;
    }
    assert_eq!(references, 2, "{diary}");
}

#[test]
fn an_answer_without_memory_writes_nothing_and_exits_1() {
    for reply in [
        NO_MEMORY,
        "[MEMORY]\n\n[DREAM]\nempty",
        "[MEMORY]\nprose only, no bullets\n",
    ] {
        let server = Server::start(vec![Reply::Text(reply)]);
        let env = openai(setup(), &server);
        let out = env.run(&["dream"]);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("without a usable [MEMORY] section")
                && err.contains("nothing was written"),
            "{err}"
        );
        assert!(err.contains("hint:"), "{err}");
        assert_nothing_written(&env, None);
    }
}

#[test]
fn a_rewrite_losing_half_the_entries_is_rejected_whole() {
    let server = Server::start(vec![Reply::Text(KNOWN), Reply::Text(KNOWN_HALF)]);
    let env = openai(setup_known(), &server);
    run_ok(&env, &["dream"]);
    let before = read(&memory_path(&env)).unwrap();
    let backup = read(&env.cwd.join(".trail/state/MEMORY.md.bak"));
    let diary = diaries(&env);
    let out = env.run(&["dream", "--force"]);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(err.contains("would lose 2 of 4 entries"), "{err}");
    assert!(
        err.contains("would lose: Refunds go through the ledger service"),
        "{err}"
    );
    assert_eq!(read(&memory_path(&env)).unwrap(), before);
    assert_eq!(read(&env.cwd.join(".trail/state/MEMORY.md.bak")), backup);
    assert_eq!(diaries(&env), diary);
    assert!(err.contains("--accept-loss"), "{err}");
}

/// Found by issue 21: the loss rule had no override, so a real merge (fewer, better bullets)
/// could never be written. A person who has seen what goes may take it; an agent may not.
#[test]
fn a_person_can_accept_a_rewrite_that_loses_entries() {
    let server = Server::start(vec![
        Reply::Text(KNOWN),
        Reply::Text(KNOWN_HALF),
        Reply::Text(KNOWN_HALF),
    ]);
    let env = openai(setup_known(), &server);
    run_ok(&env, &["dream"]);
    let before = read(&memory_path(&env)).unwrap();
    // Not at a terminal: refused before anything is asked of the model.
    let out = env.run(&["dream", "--force", "--accept-loss"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("terminal"), "{}", stderr(&out));
    assert_eq!(read(&memory_path(&env)).unwrap(), before);
    // Said no: nothing written.
    let out = env.in_terminal(&["dream", "--force", "--accept-loss"], &["no"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("Refunds go through the ledger service"),
        "{}",
        stdout(&out)
    );
    assert_eq!(read(&memory_path(&env)).unwrap(), before);
    // Said yes: the shorter memory is written, and the loss is in the report.
    let out = env.in_terminal(&["dream", "--force", "--accept-loss", "--json"], &["yes"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let after = read(&memory_path(&env)).unwrap();
    assert!(!after.contains("Refunds go through"), "{after}");
    assert!(after.contains("port 5433"), "{after}");
}

/// Found by issue 21: a real merge that left the day's log out of core memory (which an older
/// offline dream had copied there) was refused as a loss of a third of the entries. What the
/// log held is not knowledge; every note is kept, so nothing is lost.
#[test]
fn a_merge_that_drops_the_days_log_is_not_a_loss() {
    let server = Server::start(vec![Reply::Text(KNOWN), Reply::Text(KNOWN_MERGED)]);
    let env = openai(setup_known(), &server);
    run_ok(&env, &["dream"]);
    let out = env.run(&["dream", "--force", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let after = read(&memory_path(&env)).unwrap();
    assert!(!after.contains("cargo test -p shop"), "{after}");
    for note in ["port 5433", "half-even", "ledger service", "per tenant"] {
        assert!(after.contains(note), "{note}: {after}");
    }
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["removed"].as_array().map(Vec::len), Some(2), "{v}");
}

#[test]
fn a_slow_answer_times_out_with_advice_and_writes_nothing() {
    let server = Server::start(vec![Reply::Slow(Duration::from_secs(5), GOOD)]);
    let env = openai(setup(), &server).env("TRAIL_LLM_TIMEOUT", "500ms");
    let out = env.run(&["dream"]);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(err.contains("did not answer within 0.5 s"), "{err}");
    assert!(err.contains("hint: raise the timeout"), "{err}");
    assert_eq!(server.requests().len(), 1, "a timeout is not retried");
    assert_nothing_written(&env, None);
}

#[test]
fn a_429_is_retried_after_the_time_the_server_asks() {
    let server = Server::start(vec![Reply::Status(429, Some("0")), Reply::Text(GOOD)]);
    let env = openai(setup(), &server);
    let (_, err) = run_ok(&env, &["dream"]);
    assert!(err.contains("HTTP 429"), "{err}");
    assert!(err.contains("retry 1 of 2"), "{err}");
    assert_eq!(server.requests().len(), 2);
    assert!(read(&memory_path(&env)).unwrap().contains("port 5433"));
}

#[test]
fn a_server_failing_forever_gets_bounded_retries_and_a_clear_error() {
    for api in ["openai", "anthropic"] {
        let server = Server::start(vec![Reply::Status(500, None)]);
        let env = if api == "openai" {
            openai(setup(), &server)
        } else {
            anthropic(setup(), &server).env("TRAIL_LLM_API_KEY", "k")
        };
        let env = env.env("TRAIL_LLM_RETRIES", "1");
        let out = env.run(&["dream"]);
        assert_eq!(code(&out), 1);
        let err = stderr(&out);
        assert!(
            err.contains("answered HTTP 500 (2 attempts): scripted status 500"),
            "{api}: {err}"
        );
        assert!(
            err.contains("nothing was written") && err.contains("hint:"),
            "{err}"
        );
        assert_eq!(server.requests().len(), 2);
        assert_nothing_written(&env, None);
    }
}

#[test]
fn a_missing_key_is_reported_before_anything_is_sent() {
    let server = Server::start(vec![Reply::Text(GOOD)]);
    let env = anthropic(setup(), &server);
    let out = env.run(&["dream"]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(
        err.contains("TRAIL_LLM_API_KEY is not set")
            && err.contains("hint: export TRAIL_LLM_API_KEY=..., or put")
            && err.contains("~/.secrets/trail.env"),
        "{err}"
    );
    assert!(server.requests().is_empty());
    assert_nothing_written(&env, None);
}

#[test]
fn a_missing_model_or_command_says_which_setting_to_give() {
    let server = Server::start(vec![Reply::Text(GOOD)]);
    let no_model = setup()
        .env("TRAIL_LLM_PROVIDER", "openai")
        .env("TRAIL_LLM_BASE_URL", &format!("{}/v1", server.url))
        .env("TRAIL_LLM_API_KEY", "sk-test-123");
    let no_command = setup().env("TRAIL_LLM_PROVIDER", "command");
    for (env, error, hint) in [
        (
            no_model,
            "error: the openai provider needs a model name\n",
            "hint: set TRAIL_LLM_MODEL, or `model = \"...\"` under [llm]",
        ),
        (
            no_command,
            "error: the command provider needs a command to run\n",
            "hint: set TRAIL_LLM_COMMAND",
        ),
    ] {
        let out = env.run(&["dream"]);
        let err = stderr(&out);
        assert_eq!(code(&out), 2, "{err}");
        assert!(err.starts_with(error) && err.contains(hint), "{err}");
        assert_nothing_written(&env, None);
    }
    assert!(server.requests().is_empty());
}

#[test]
fn an_api_key_in_the_project_config_is_refused() {
    let env = setup();
    std::fs::write(
        env.cwd.join(".trail/config.toml"),
        "[llm]\nprovider = \"openai\"\napi_key = \"sk-leaked\"\n",
    )
    .unwrap();
    let out = env.run(&["dream"]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(
        err.contains("llm.api_key") && err.contains("never read from config files"),
        "{err}"
    );
    assert!(!err.contains("sk-leaked"));
}

#[test]
fn unreachable_server_says_so() {
    // A port that was free a moment ago: nothing listens there now.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = setup()
        .env("TRAIL_LLM_PROVIDER", "openai")
        .env("TRAIL_LLM_BASE_URL", &format!("http://127.0.0.1:{port}/v1"))
        .env("TRAIL_LLM_MODEL", "m");
    let out = env.run(&["dream"]);
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(
        err.contains("cannot reach") && err.contains("is the server running"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// The command provider.

#[test]
fn the_command_provider_pipes_the_prompt_to_a_real_script() {
    let env = setup();
    let script = env.root.join("llm.sh");
    let prompt_copy = env.root.join("prompt.txt");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat > '{}'\necho \"model: $TRAIL_LLM_MODEL\" >&2\ncat <<'EOF'\n{GOOD}EOF\n",
            prompt_copy.display()
        ),
    )
    .unwrap();
    let env = env
        .env("TRAIL_LLM_PROVIDER", "command")
        .env("TRAIL_LLM_COMMAND", &format!("sh '{}'", script.display()))
        .env("TRAIL_LLM_MODEL", "local-7b");
    let (out, err) = run_ok(&env, &["dream"]);
    assert!(err.contains("asking command `sh"), "{err}");
    assert!(out.contains("0 → 4 entries"), "{out}");
    let prompt = read(&prompt_copy).unwrap();
    assert!(prompt.contains("Do not fabricate"));
    assert!(
        prompt.contains("L4: - The staging DB lives on port 5433"),
        "{prompt}"
    );
    assert!(
        read(&memory_path(&env))
            .unwrap()
            .contains("(src: memory/2025-01-10.md#L14)")
    );

    // A failing command: its stderr in the error, nothing written.
    let env2 = setup().env("TRAIL_LLM_PROVIDER", "command").env(
        "TRAIL_LLM_COMMAND",
        "echo 'model not found: local-7b' >&2; exit 7",
    );
    let out = env2.run(&["dream"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("model not found: local-7b"),
        "{}",
        stderr(&out)
    );
    assert_nothing_written(&env2, None);
}

// ---------------------------------------------------------------------------------------------
// The spec's scenarios, offline.

#[test]
fn the_same_days_content_dreamed_twice_is_skipped_unless_forced() {
    let env = setup();
    let (out, _) = run_ok(&env, &["dream"]);
    assert!(
        out.contains("consolidated memory/2025-01-10.md with extractive"),
        "{out}"
    );
    let memory = read(&memory_path(&env)).unwrap();
    let (out, _) = run_ok(&env, &["dream"]);
    assert!(
        out.contains("dream skipped: the daily content in the window is unchanged"),
        "{out}"
    );
    assert_eq!(read(&memory_path(&env)).unwrap(), memory);
    assert_eq!(occurrences_in_diaries(&env, "## Dream ("), 1);
    // MEMORY.md is not part of the hash: editing it is no reason to dream again.
    std::fs::write(memory_path(&env), format!("{memory}- hand edit\n")).unwrap();
    let (out, _) = run_ok(&env, &["dream"]);
    assert!(out.contains("dream skipped"), "{out}");
    let (out, _) = run_ok(&env, &["dream", "--force"]);
    assert!(out.contains("consolidated"), "{out}");
    assert_eq!(occurrences_in_diaries(&env, "## Dream ("), 2);
    assert_eq!(
        occurrences_in_diaries(&env, "# Dream Diary:"),
        1,
        "one header a day"
    );
    // New daily content changes the hash.
    write_day(
        &env,
        "2025-01-11",
        "# Daily Memory: 2025-01-11\n\n## Remembered (09:00)\n- Deploys need the VPN\n",
    );
    let (out, _) = run_ok(&env, &["dream"]);
    assert!(
        out.contains("consolidated memory/2025-01-10.md, memory/2025-01-11.md"),
        "{out}"
    );
    assert!(
        read(&memory_path(&env))
            .unwrap()
            .contains("- Deploys need the VPN (src: memory/2025-01-11.md#L4)")
    );
}

fn occurrences_in_diaries(env: &TestEnv, needle: &str) -> usize {
    diaries(env)
        .iter()
        .map(|(_, t)| t.matches(needle).count())
        .sum()
}

#[test]
fn no_daily_content_skips_and_leaves_memory_alone() {
    let env = TestEnv::new();
    let root = env.cwd.display().to_string();
    let env = env.env("CLAUDE_PROJECT_DIR", &root);
    std::fs::create_dir_all(env.cwd.join(".trail")).unwrap();
    let prior = "# Core Memory\n\n- hand-written, never verified\n";
    std::fs::write(memory_path(&env), prior).unwrap();
    let (out, _) = run_ok(&env, &["dream"]);
    assert!(
        out.contains("dream skipped: no daily memory with content"),
        "{out}"
    );
    // A day file with only its header counts as no content.
    write_day(&env, "2025-01-12", "# Daily Memory: 2025-01-12\n\n");
    let (out, _) = run_ok(&env, &["dream", "--force"]);
    assert!(out.contains("dream skipped: no daily memory"), "{out}");
    assert_eq!(read(&memory_path(&env)).as_deref(), Some(prior));
    assert!(diaries(&env).is_empty());
}

#[test]
fn lookback_is_clamped_with_a_note_and_limits_the_window() {
    let env = setup();
    write_day(
        &env,
        "2025-01-11",
        "# Daily Memory: 2025-01-11\n\n## Remembered (09:00)\n- Deploys need the VPN\n",
    );
    let (out, err) = run_ok(&env, &["dream", "--lookback", "0", "--dry-run"]);
    assert!(
        err.contains("note: --lookback 0 is outside 1–30; using 1"),
        "{err}"
    );
    assert!(
        out.contains("consolidated memory/2025-01-11.md with"),
        "{out}"
    );
    assert!(!out.contains("2025-01-10.md with"), "{out}");
    let (_, err) = run_ok(&env, &["dream", "--lookback", "99", "--dry-run"]);
    assert!(err.contains("using 30"), "{err}");
    let out = env.run(&["dream", "--lookback", "many"]);
    assert_eq!(code(&out), 2);
}

#[test]
fn dry_run_shows_the_change_and_writes_nothing() {
    let env = setup();
    let (out, _) = run_ok(&env, &["dream", "--dry-run"]);
    assert!(out.starts_with("dry run: nothing was written\n"), "{out}");
    assert!(
        out.contains("  + The staging DB lives on port 5433"),
        "{out}"
    );
    assert!(
        out.contains("The new .trail/MEMORY.md would be:\n\n# Core Memory\n"),
        "{out}"
    );
    assert_nothing_written(&env, None);
    // And it did not count as a dream: the real one still runs.
    let (out, _) = run_ok(&env, &["dream"]);
    assert!(out.contains("consolidated"), "{out}");
}

#[test]
fn extractive_end_to_end_from_notes_and_a_transcript_to_verified_memory() {
    let env = TestEnv::new();
    let root = env.cwd.display().to_string();
    let env = env.env("CLAUDE_PROJECT_DIR", &root);
    env.ok(&["remember", "The staging DB lives on port 5433"]);
    env.ok(&["remember", "Deploys need the VPN"]);
    let transcript = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../trail-core/tests/data/transcripts/spotter_tool_heavy.jsonl");
    env.ok(&[
        "memory",
        "flush",
        "--transcript",
        transcript.to_str().unwrap(),
    ]);
    let (out, _) = run_ok(&env, &["dream", "--json"]);
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(r["status"], "written");
    assert_eq!(r["dropped"].as_array().unwrap().len(), 0, "{r}");
    let memory = read(&memory_path(&env)).unwrap();
    assert!(
        memory.contains("## Notes\n- The staging DB lives on port 5433 (src: memory/"),
        "{memory}"
    );
    assert!(
        memory.contains("- Deploys need the VPN (src: memory/"),
        "{memory}"
    );
    // The session's asks, files and commands are the day's log, not knowledge (issue 21).
    for log in ["## Asked", "## Files changed", "## Commands"] {
        assert!(!memory.contains(log), "{log}: {memory}");
    }
    for line in memory.lines().filter(|l| l.starts_with("- ")) {
        assert!(line.contains("(src: memory/"), "no source: {line}");
    }
    let verified = env.ok(&["memory", "verify"]);
    assert!(verified.contains(" 0 unsupported"), "{verified}");
    let recall = env.ok(&["recall", "staging port"]);
    assert!(recall.starts_with("MEMORY.md#L"), "{recall}");
}

// ---------------------------------------------------------------------------------------------
// Crashes between backup and replace.

#[test]
fn a_crash_around_the_replace_leaves_the_old_or_the_new_memory_never_a_mix() {
    for (point, expect_new) in [
        ("atomic-write-before-rename", false),
        ("dream-after-backup", false),
        ("dream-after-replace", true),
    ] {
        let env = setup();
        // A second note the dream adds (the session's log is not promoted).
        write_day(
            &env,
            DAY,
            &format!("{DAILY}\n## Remembered (11:00)\n- Deploys need the VPN\n"),
        );
        let old = "# Core Memory\n\n## Infra\n- The staging DB lives on port 5433 (src: memory/2025-01-10.md#L4)\n";
        std::fs::write(memory_path(&env), old).unwrap();
        let (out, _) = run_ok(&env, &["dream", "--dry-run", "--json"]);
        let new = serde_json::from_str::<Value>(&out).unwrap()["new_memory"]
            .as_str()
            .unwrap()
            .to_string();
        assert_ne!(new, old);

        let crashed = env
            .cmd(&["dream"])
            .env("TRAIL_FAILPOINT", point)
            .output()
            .unwrap();
        assert!(
            !crashed.status.success(),
            "{point}: the failpoint did not fire"
        );
        let now = read(&memory_path(&env)).unwrap();
        assert_eq!(now, if expect_new { &new } else { old }, "{point}");
        // The hash is stored last: the interrupted dream runs again and completes.
        let (out, _) = run_ok(&env, &["dream"]);
        assert!(out.contains("consolidated"), "{point}: {out}");
        assert_eq!(read(&memory_path(&env)).unwrap(), new, "{point}");
        let stray: Vec<_> = std::fs::read_dir(env.cwd.join(".trail"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".MEMORY.md.tmp-"))
            .collect();
        // A crash may leave a temporary file beside MEMORY.md, never MEMORY.md half written.
        assert!(stray.len() <= 1, "{point}: {stray:?}");
    }
}
