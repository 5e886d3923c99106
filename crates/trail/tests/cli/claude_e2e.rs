//! End to end against the real Claude Code CLI, driven headless by a scripted model on
//! loopback. Needs `npm install --prefix ~/.cache/trail-e2e @anthropic-ai/claude-code@2.1.328`
//! (`.ci/run` does it); without it the test prints one loud SKIP line and passes nothing else.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::*;

fn claude_bin() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TRAIL_E2E_CLAUDE") {
        return Some(PathBuf::from(p));
    }
    let home = std::env::var_os("HOME")?;
    let p = PathBuf::from(home).join(".cache/trail-e2e/node_modules/.bin/claude");
    p.exists().then_some(p)
}

/// One server-sent event.
fn sse(event: &str, data: serde_json::Value) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}

fn tool_use_reply(id: &str, command: &str) -> String {
    let input =
        serde_json::json!({ "command": command, "description": "scripted step" }).to_string();
    [
        sse("message_start", serde_json::json!({"type":"message_start","message":{"id":format!("msg_{id}"),"type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}})),
        sse("content_block_start", serde_json::json!({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":format!("toolu_{id}"),"name":"Bash","input":{}}})),
        sse("content_block_delta", serde_json::json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":input}})),
        sse("content_block_stop", serde_json::json!({"type":"content_block_stop","index":0})),
        sse("message_delta", serde_json::json!({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":5}})),
        sse("message_stop", serde_json::json!({"type":"message_stop"})),
    ]
    .concat()
}

fn text_reply(text: &str) -> String {
    [
        sse("message_start", serde_json::json!({"type":"message_start","message":{"id":"msg_text","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}})),
        sse("content_block_start", serde_json::json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})),
        sse("content_block_delta", serde_json::json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":text}})),
        sse("content_block_stop", serde_json::json!({"type":"content_block_stop","index":0})),
        sse("message_delta", serde_json::json!({"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}})),
        sse("message_stop", serde_json::json!({"type":"message_stop"})),
    ]
    .concat()
}

/// A scripted model: the n-th conversation turn (counted by tool results in the request) gets
/// the n-th step; anything else (side requests) gets a short text.
fn serve(steps: Vec<String>) -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
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
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).is_err() || h == "\r\n" || h.is_empty() {
                    break;
                }
                if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0u8; len];
            let _ = reader.read_exact(&mut body);
            let body = String::from_utf8_lossy(&body).into_owned();
            log.lock()
                .unwrap()
                .push(format!("{} {}", request_line.trim(), body));
            let reply = if request_line.contains("/v1/messages")
                && !request_line.contains("count_tokens")
                && body.contains("SCRIPTED-E2E")
            {
                let turn = body.matches("\"tool_result\"").count();
                steps
                    .get(turn)
                    .cloned()
                    .unwrap_or_else(|| text_reply("done"))
            } else if request_line.contains("/v1/messages")
                && !request_line.contains("count_tokens")
            {
                text_reply("ok")
            } else {
                let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 18\r\nconnection: close\r\n\r\n{\"input_tokens\":1}");
                continue;
            };
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n";
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(reply.as_bytes());
            let _ = stream.flush();
        }
    });
    (port, seen)
}

#[test]
fn claude_code_runs_trails_hooks_for_real() {
    let Some(claude) = claude_bin() else {
        eprintln!(
            "\n*** SKIP: the Claude Code e2e test needs `npm install --prefix ~/.cache/trail-e2e @anthropic-ai/claude-code@2.1.328` (not installed) ***\n"
        );
        return;
    };
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let precious = env.home.join("precious");
    std::fs::create_dir_all(&precious).unwrap();
    std::fs::write(precious.join("keep.txt"), "do not delete").unwrap();
    env.ok(&["init"]);
    env.ok(&[
        "pulse",
        "--proj",
        "e2e",
        "--intent",
        "continue",
        "--summary",
        "prove the hooks",
        "--next",
        "RESUME-MARKER-42",
    ]);

    let (port, seen) = serve(vec![
        tool_use_reply("1", &format!("rm -rf {}", precious.display())),
        tool_use_reply("2", "echo made > made.txt"),
        tool_use_reply("3", "ls /definitely/not/here"),
        text_reply("all done"),
    ]);
    let mut cmd = std::process::Command::new(&claude);
    cmd.args([
        "-p",
        "SCRIPTED-E2E: run the scripted steps",
        "--output-format",
        "json",
        "--allowedTools",
        "Bash Edit Write",
    ])
    .env_clear()
    .env("PATH", std::env::var("PATH").unwrap_or_default())
    .env("HOME", &env.home)
    .env("TRAIL_HOME", &env.trail_home)
    .env("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}"))
    .env("ANTHROPIC_API_KEY", "sk-ant-test-not-a-real-key")
    .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
    .current_dir(&env.cwd)
    .stdin(std::process::Stdio::null());
    let out = cmd.output().unwrap();
    let requests = seen.lock().unwrap().join("\n");
    assert!(
        out.status.success(),
        "claude failed: {}\n{}\nrequests:\n{requests}",
        stdout(&out),
        stderr(&out)
    );

    // The catastrophic command was denied before it ran, and the reason reached the model.
    assert!(
        precious.join("keep.txt").exists(),
        "the gate let rm -rf through"
    );
    assert!(
        requests.contains("PreToolUse:Bash hook error"),
        "no hook denial reached the model:\n{requests}"
    );
    let denial = requests
        .find("PreToolUse:Bash hook error")
        .map(|i| requests[i..].chars().take(400).collect::<String>())
        .unwrap_or_default();
    assert!(
        denial.contains("rm-recursive"),
        "the deny reason did not reach the model: {denial}"
    );
    // SessionStart injected the rehydrated state into the conversation.
    assert!(
        requests.contains("RESUME-MARKER-42"),
        "SessionStart context missing from the model's request"
    );
    // The allowed command ran, and every finished tool call left one proof line with its real outcome.
    assert!(env.cwd.join("made.txt").exists());
    let log = std::fs::read_to_string(env.cwd.join(".proof/session_log.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert_eq!(lines[0]["success"], true, "{log}");
    assert_eq!(lines[1]["success"], false, "{log}");
}
