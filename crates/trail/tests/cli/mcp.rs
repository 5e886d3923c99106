//! `trail mcp` through rmcp's own client: the real binary spawned over stdio in the test's
//! isolated environment, every tool called, every resource read, every prompt got; then the
//! whole surface walked with hostile arguments while a junction is pending and grants exist,
//! to prove that nothing in it decides a junction (DESIGN, principle 7).

use std::future::Future;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, GetPromptRequestParams, Implementation,
    ProtocolVersion, ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::common::*;

/// A client that asks for one protocol version.
#[derive(Clone)]
struct Client(ProtocolVersion);

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        let mut c = ClientConfig::default();
        c.protocol_version = self.0.clone();
        c.client_info = Implementation::new("trail-tests", "1");
        c
    }
}

type Session = RunningService<RoleClient, Client>;

fn block_on<F: Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

/// `trail mcp` in the test's environment, connected.
async fn connect(env: &TestEnv, version: ProtocolVersion) -> Session {
    let cmd = tokio::process::Command::from(env.cmd(&["mcp"]));
    let transport = TokioChildProcess::new(cmd).unwrap();
    Client(version).serve(transport).await.unwrap()
}

fn args(v: Value) -> serde_json::Map<String, Value> {
    v.as_object().cloned().unwrap()
}

async fn call(s: &Session, name: &str, a: Value) -> CallToolResult {
    s.call_tool(CallToolRequestParams::new(name.to_string()).with_arguments(args(a)))
        .await
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A successful call's structured answer, checked equal to its text.
async fn ok(s: &Session, name: &str, a: Value) -> Value {
    let r = call(s, name, a.clone()).await;
    assert_ne!(r.is_error, Some(true), "{name} {a}: {r:?}");
    let v = r.structured_content.clone().expect("structured content");
    let text = r.content[0].as_text().expect("text content").text.clone();
    assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), v);
    v
}

async fn read(s: &Session, uri: &str) -> String {
    let r = s
        .read_resource(ReadResourceRequestParams::new(uri))
        .await
        .unwrap_or_else(|e| panic!("{uri}: {e}"));
    match &r.contents[0] {
        ResourceContents::TextResourceContents { text, .. } => text.clone(),
        other => panic!("{uri}: {other:?}"),
    }
}

async fn prompt_text(s: &Session, name: &str) -> String {
    let r = s
        .get_prompt(GetPromptRequestParams::new(name))
        .await
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    serde_json::to_string(&r.messages).unwrap()
}

/// A GitHub token of the right shape (not a real one).
const TOKEN: &str = "ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES";

/// A project with a history: pulses, a note, NOTES.md with a secret in it, a tool call.
fn project() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    for (summary, fact) in [
        ("Wire the billing export", "the export runs nightly"),
        ("Fix the zanzibar rounding bug", "rounding happens per line"),
        ("Ship the zanzibar fix", "staging port is 5433"),
    ] {
        env.ok(&[
            "pulse",
            "--proj",
            "project",
            "--topic",
            "billing",
            "--summary",
            summary,
            "--next",
            "write the test",
            "--fact",
            fact,
        ]);
    }
    env.ok(&["remember", "the zanzibar service lives on port 7070"]);
    std::fs::write(
        env.cwd.join("NOTES.md"),
        format!("# Notes\n\nzanzibar deploy token {TOKEN}\n"),
    )
    .unwrap();
    hook(
        &env,
        json!({"hook_event_name":"PostToolUse","session_id":"sess-42","tool_name":"Bash",
               "tool_input":{"command":"cargo test zanzibar"},
               "tool_response":{"stdout":"ok","stderr":"","interrupted":false},"tool_use_id":"t1"}),
    );
    env
}

#[test]
fn rmcps_client_lists_and_calls_every_tool_reads_every_resource_and_gets_every_prompt() {
    let env = project();
    block_on(async {
        let s = connect(&env, ProtocolVersion::V_2025_06_18).await;
        let info = s.peer_info().expect("initialized");
        assert_eq!(info.protocol_version, ProtocolVersion::V_2025_06_18);
        assert_eq!(info.server_info.as_ref().unwrap().name, "trail");

        let tools = s.list_all_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert_eq!(
            names,
            [
                "search",
                "timeline",
                "get",
                "resume",
                "decide",
                "checkpoint",
                "show",
                "remember",
                "recall",
                "blame",
                "status"
            ]
        );
        for t in &tools {
            let a = t.annotations.as_ref().expect("annotations");
            assert!(
                a.read_only_hint.is_some()
                    && a.destructive_hint == Some(false)
                    && a.idempotent_hint.is_some(),
                "{}: {a:?}",
                t.name
            );
            let appends = ["remember", "decide", "checkpoint"].contains(&t.name.as_ref());
            assert_eq!(a.read_only_hint, Some(!appends), "{}", t.name);
        }

        // search → timeline → get, each on the previous answer's ids.
        // The pulses (the tool call's own `tests-passed` pulse is a checkpoint record).
        // The pulses, and the remembered note, which is a pulse of the project too (it travels
        // to the person's other machines with the ledger).
        let found = ok(&s, "search", json!({"query": "zanzibar", "type": "pulse"})).await;
        assert_eq!(found["total"], 3, "{found}");
        let hit = found["hits"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| {
                h["text"]
                    .as_str()
                    .unwrap()
                    .contains("Ship the zanzibar fix")
            })
            .unwrap();
        assert!(
            hit["text"].as_str().unwrap().contains("zanzibar"),
            "{found}"
        );
        let id = hit["id"].as_str().unwrap().to_string();
        let around = ok(&s, "timeline", json!({"id": id, "before": 5, "after": 5})).await;
        let records = around["records"].as_array().unwrap();
        assert_eq!(
            records.len(),
            5,
            "three pulses, the remembered note and the tool call's: {around}"
        );
        let at: Vec<&Value> = records.iter().filter(|r| r["hit"] == true).collect();
        assert_eq!(at.len(), 1);
        assert_eq!(at[0]["id"], id.as_str());
        let got = ok(
            &s,
            "get",
            json!({"ids": [id, "2020-01-01T00:00:00.000000Z"]}),
        )
        .await;
        let items = got["items"].as_array().unwrap();
        assert_eq!(
            items[0]["record"]["intent"]["summary"],
            "Ship the zanzibar fix"
        );
        assert_eq!(items[0]["record"]["facts"][0], "staging port is 5433");
        assert_eq!(items[0]["record"]["sealed"], true);
        assert!(
            items[1]["error"].as_str().unwrap().contains("no record"),
            "{got}"
        );

        // A line hit, its surroundings and its line.
        let found = ok(&s, "search", json!({"query": "zanzibar", "type": "notes"})).await;
        let id = found["hits"][0]["id"].as_str().unwrap().to_string();
        assert_eq!(id, "${PROJECT_ROOT}/NOTES.md:3");
        let around = ok(&s, "timeline", json!({"id": id, "before": 2})).await;
        assert_eq!(around["first"], 1);
        assert_eq!(around["lines"][0], "# Notes");
        let got = ok(&s, "get", json!({"ids": [id]})).await;
        let line = got["items"][0]["lines"][0].as_str().unwrap();
        assert!(line.starts_with("zanzibar deploy token ${secret:"), "{got}");

        let resumed = ok(&s, "resume", json!({"level": 3})).await;
        assert!(
            resumed["text"].as_str().unwrap().contains("write the test"),
            "{resumed}"
        );
        assert!(resumed["tokens"].as_u64().unwrap() > 0);
        let kept = ok(
            &s,
            "remember",
            json!({"note": "zanzibar moved to port 7071"}),
        )
        .await;
        assert!(
            kept["source"].as_str().unwrap().starts_with("memory/"),
            "{kept}"
        );
        let recalled = ok(&s, "recall", json!({"query": "zanzibar port"})).await;
        let texts = recalled["hits"].to_string();
        assert!(
            texts.contains("7070") && texts.contains("7071"),
            "{recalled}"
        );
        let st = ok(&s, "status", json!({})).await;
        assert_eq!(st["mode"], "plan");
        assert!(st["junction"].is_null(), "{st}");

        // decide → show its evidence → checkpoint: what `trail decide`, `trail show` and
        // `trail checkpoint` do, through the same core.
        std::fs::create_dir_all(env.cwd.join("src")).unwrap();
        std::fs::write(
            env.cwd.join("src/rounding.rs"),
            "pub fn round_line(x: f64) -> f64 {\n    (x * 100.0).round() / 100.0\n}\n",
        )
        .unwrap();
        let decided = ok(
            &s,
            "decide",
            json!({
                "title": "Round per line",
                "decision": "round each invoice line, not the total",
                "rationale": "the zanzibar auditors sum rounded lines",
                "evidence": ["`(x * 100.0).round() / 100.0` [${PROJECT_ROOT}/src/rounding.rs:2]"],
                "tests": ["happy: 1.005 rounds to 1.01", "edge: 0", "error: NaN stays NaN"],
            }),
        )
        .await;
        assert!(
            decided["id"].as_str().unwrap().starts_with("d-"),
            "{decided}"
        );
        assert_eq!(decided["citations"][0]["status"], "verified", "{decided}");
        assert_eq!(decided["tests"], 3, "{decided}");
        let recorded = env.ok(&["trajectory", "--json", "--phase", "decision"]);
        assert!(recorded.contains("Round per line"), "{recorded}");
        assert!(
            std::fs::read_to_string(env.cwd.join("NOTES.md"))
                .unwrap()
                .contains("Round per line")
        );
        let shown = ok(
            &s,
            "show",
            json!({"id": "${PROJECT_ROOT}/src/rounding.rs:2", "full_section": true}),
        )
        .await;
        if cfg!(feature = "section-rust") {
            assert_eq!(shown["section"]["name"], "round_line", "{shown}");
            assert_eq!(
                shown["lines"][0]["text"],
                "pub fn round_line(x: f64) -> f64 {"
            );
        } else {
            assert_eq!(shown["fallback"]["why"], "not-built", "{shown}");
            assert_eq!(shown["lines"][0]["line"], 2, "{shown}");
            assert_eq!(shown["lines"][0]["text"], "    (x * 100.0).round() / 100.0");
        }
        let shown = ok(&s, "show", json!({"id": "${PROJECT_ROOT}/NOTES.md:3"})).await;
        let line = shown["lines"][0]["text"].as_str().unwrap();
        assert!(
            line.starts_with("zanzibar deploy token ${secret:"),
            "{shown}"
        );
        let r = call(&s, "show", json!({"id": "${PROJECT_ROOT}/NOTES.md:999"})).await;
        assert_eq!(r.is_error, Some(true), "{r:?}");
        let checked = ok(
            &s,
            "checkpoint",
            json!({"reasoning": "rounding decided; the export is next"}),
        )
        .await;
        assert_eq!(checked["verdict"], "pass", "{checked}");
        assert_eq!(checked["steps"].as_array().unwrap().len(), 7, "{checked}");
        assert!(
            checked["steps"][0]["detail"]
                .as_str()
                .unwrap()
                .contains("1/1"),
            "{checked}"
        );
        let journalled = env.ok(&["trajectory", "--json", "--phase", "checkpoint"]);
        assert!(journalled.contains("\"checkpoint\""), "{journalled}");

        // Resources: the fixed ones and the recent session the hook recorded.
        let listed = s.list_all_resources().await.unwrap();
        let uris: Vec<&str> = listed.iter().map(|r| r.uri.as_str()).collect();
        assert_eq!(
            uris,
            [
                "trail://resume",
                "trail://notes",
                "trail://memory",
                "trail://report",
                "trail://session/sess-42"
            ]
        );
        // The report's summary: the session the hook recorded, and its tool call, counted.
        let report: Value = serde_json::from_str(&read(&s, "trail://report").await).unwrap();
        let sessions = report["projects"][0]["sessions"].as_array().unwrap();
        let hooked = sessions.iter().find(|x| x["id"] == "sess-42");
        let hooked = hooked.unwrap_or_else(|| panic!("no sess-42 in {report}"));
        assert_eq!(hooked["counts"]["tools"], 1, "{report}");
        assert_eq!(hooked["events"], json!([]));
        assert_eq!(report["summary"]["decisions"], 1, "{report}");
        let templates = s.list_all_resource_templates().await.unwrap();
        assert_eq!(templates[0].uri_template, "trail://session/{id}");
        assert!(read(&s, "trail://resume").await.contains("write the test"));
        let notes = read(&s, "trail://notes").await;
        assert!(notes.contains("zanzibar deploy token ${secret:") && !notes.contains(TOKEN));
        assert!(read(&s, "trail://memory").await.contains("port 7071"));
        let session: Value =
            serde_json::from_str(&read(&s, "trail://session/sess-42").await).unwrap();
        assert_eq!(
            session["tool_calls"][0]["input"], "cargo test zanzibar",
            "{session}"
        );
        let missing = s
            .read_resource(ReadResourceRequestParams::new("trail://session/nobody"))
            .await;
        assert!(missing.is_err());

        let prompts = s.list_all_prompts().await.unwrap();
        let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["resume", "handoff"]);
        assert!(prompt_text(&s, "resume").await.contains("write the test"));
        assert!(prompt_text(&s, "handoff").await.contains("--type handoff"));
        s.cancel().await.unwrap();
    });
}

#[test]
fn nothing_returned_carries_a_secret_the_project_holds() {
    let env = project();
    // Written by the agent or the person, not by trail: the state file, the code.
    std::fs::write(
        env.cwd.join("active_context.yaml"),
        format!("schema_version: 4\nmode: active\nobjective: \"deploy with {TOKEN}\"\nplan: []\n"),
    )
    .unwrap();
    std::fs::write(env.cwd.join("deploy.sh"), format!("export GH={TOKEN}\n")).unwrap();
    // A ghost feature whose name holds the token: searched for as written, shown redacted.
    let notes = env.cwd.join("NOTES.md");
    let mut text = std::fs::read_to_string(&notes).unwrap();
    text.push_str(&format!(
        "\n## Ghost Features\n- Key rotation {TOKEN} (also: rotate keys)\n"
    ));
    std::fs::write(&notes, text).unwrap();
    block_on(async {
        let s = connect(&env, ProtocolVersion::V_2025_11_25).await;
        let mut seen = String::new();
        let found = ok(&s, "search", json!({"query": "GH", "code": true})).await;
        seen.push_str(&found.to_string());
        let id = found["hits"][0]["id"].as_str().unwrap().to_string();
        assert_eq!(id, "${PROJECT_ROOT}/deploy.sh:1", "{found}");
        seen.push_str(&ok(&s, "get", json!({"ids": [id]})).await.to_string());
        seen.push_str(&ok(&s, "timeline", json!({"id": id})).await.to_string());
        seen.push_str(&ok(&s, "show", json!({"id": id})).await.to_string());
        // A decision whose words hold the token: journalled redacted, answered redacted.
        let decided = ok(
            &s,
            "decide",
            json!({"title": "Deploy key", "decision": format!("deploy with {TOKEN}"),
                   "rationale": "the CI needs it", "evidence": ["${PROJECT_ROOT}/deploy.sh:1"]}),
        )
        .await;
        seen.push_str(&decided.to_string());
        let checked = ok(&s, "checkpoint", json!({})).await;
        let ghosts = &checked["steps"][1]["finding"]["report"]["ghosts"];
        assert_eq!(ghosts[0]["class"], "confirmed_ghost", "{checked}");
        assert!(
            ghosts[0]["feature"]
                .as_str()
                .unwrap()
                .starts_with("Key rotation ${secret:"),
            "{checked}"
        );
        seen.push_str(&checked.to_string());
        seen.push_str(&ok(&s, "status", json!({})).await.to_string());
        seen.push_str(
            &ok(&s, "search", json!({"query": "zanzibar"}))
                .await
                .to_string(),
        );
        for uri in [
            "trail://notes",
            "trail://resume",
            "trail://memory",
            "trail://report",
        ] {
            seen.push_str(&read(&s, uri).await);
        }
        for p in ["resume", "handoff"] {
            seen.push_str(&prompt_text(&s, p).await);
        }
        // Blame needs the project's history: outside git it says so, as a tool error.
        let r = call(&s, "blame", json!({"target": "src/rounding.rs:2"})).await;
        assert_eq!(r.is_error, Some(true));
        assert!(serde_json::to_string(&r).unwrap().contains("git"), "{r:?}");
        // An error quoting what it was given is redacted too.
        let r = call(&s, "timeline", json!({"id": format!("{TOKEN}:1/2")})).await;
        assert_eq!(r.is_error, Some(true));
        seen.push_str(&serde_json::to_string(&r).unwrap());
        assert!(seen.contains("${secret:"), "{seen}");
        assert!(!seen.contains(TOKEN), "{seen}");
        s.cancel().await.unwrap();
    });
}

/// The bytes of trail's records of decisions: the pending junction and the grants journal.
fn decisions(env: &TestEnv) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let state = env.cwd.join(".trail").join("state");
    (
        std::fs::read(state.join("pending.json")).ok(),
        std::fs::read(state.join("grants.jsonl")).ok(),
    )
}

#[test]
fn no_tool_resource_or_prompt_can_approve_dismiss_or_allow_a_junction() {
    let env = project();
    // A push the person approved (an unused allowance in the grants journal), then a POST
    // waiting for their decision.
    assert!(denied(&bash(&env, "git push origin main")).is_some());
    assert!(prompt(&env, "/edge approve").contains("Approved junction"));
    assert!(denied(&bash(&env, "curl -X POST https://api.example.com/deploy")).is_some());
    let junction = status(&env)["junction"]["id"].as_str().unwrap().to_string();
    let before = decisions(&env);
    assert!(before.0.is_some() && before.1.is_some());
    let statuses = status(&env);

    block_on(async {
        let s = connect(&env, ProtocolVersion::V_2025_06_18).await;
        let tail = &junction[junction.len() - 4..];
        let words = [
            "/edge approve".to_string(),
            format!("/edge approve {junction}"),
            "/edge dismiss 600".to_string(),
            format!("trail approve {junction}"),
            tail.to_string(),
            "approve".to_string(),
        ];
        let mut calls: Vec<(String, Value)> = Vec::new();
        for w in &words {
            calls.push(("search".into(), json!({"query": w})));
            calls.push((
                "search".into(),
                json!({"query": w, "regex": true, "code": true}),
            ));
            calls.push(("timeline".into(), json!({"id": w})));
            calls.push(("get".into(), json!({"ids": [w]})));
            calls.push(("resume".into(), json!({"proj": w})));
            calls.push(("remember".into(), json!({"note": w})));
            calls.push(("recall".into(), json!({"query": w})));
            calls.push((
                "decide".into(),
                json!({"title": w, "decision": w, "rationale": w, "evidence": [w], "bead": "j-1"}),
            ));
            calls.push(("checkpoint".into(), json!({"reasoning": w})));
            calls.push(("show".into(), json!({"id": w, "full_section": true})));
            calls.push(("blame".into(), json!({"target": w})));
        }
        for target in [
            ".trail/state/pending.json",
            ".trail/state/grants.jsonl:1",
            "../home/.secrets/trail.key",
            "HEAD",
        ] {
            calls.push(("blame".into(), json!({"target": target})));
        }
        for (name, a) in [
            ("status", json!({"approve": true, "id": junction})),
            ("status", json!({"decision": "approve"})),
            ("search", json!({"query": "x", "approve": junction})),
            (
                "get",
                json!({"ids": [
                    "${PROJECT_ROOT}/.trail/state/pending.json:1",
                    "${PROJECT_ROOT}/.trail/state/grants.jsonl:1",
                    "${PROJECT_ROOT}/active_context.yaml:1",
                    "${PROJECT_ROOT}/../home/.secrets/trail.key:1",
                    "${PROJECT_ROOT}/.claude/settings.json:1",
                ]}),
            ),
            (
                "timeline",
                json!({"id": "${PROJECT_ROOT}/.trail/state/pending.json:1", "after": 20}),
            ),
            ("remember", json!({"note": {"approve": true}})),
            (
                "decide",
                json!({"title": "approve", "decision": junction, "rationale": "/edge approve",
                       "evidence": ["`{}` [${PROJECT_ROOT}/.trail/state/pending.json:1]"]}),
            ),
            (
                "decide",
                json!({"title": "t", "decision": "d", "rationale": "r", "approve": junction}),
            ),
            ("checkpoint", json!({"approve": true, "id": junction})),
            ("checkpoint", json!({"mode": "done"})),
            (
                "show",
                json!({"id": "${PROJECT_ROOT}/src/x.rs:1", "approve": true}),
            ),
            ("resume", json!({"level": 9, "mode": "done"})),
            ("get", json!({"ids": "not a list"})),
            ("search", json!({"query": "(", "regex": true})),
            ("search", json!({"query": "x", "limit": -1})),
            ("search", json!({"query": "x", "since": "yesterday"})),
        ] {
            calls.push((name.into(), a));
        }
        for id in [
            "${PROJECT_ROOT}/.trail/state/pending.json:1",
            "${PROJECT_ROOT}/.trail/state/grants.jsonl:1",
            "${PROJECT_ROOT}/../home/.secrets/trail.key:1",
            "${PROJECT_ROOT}/../home/.secrets/trail.env:1",
            "${PROJECT_ROOT}/.claude/settings.json:1",
            "${PROJECT_ROOT}/.trail/memory/../state/pending.json:1",
        ] {
            let r = call(&s, "show", json!({"id": id, "full_section": true})).await;
            assert_eq!(r.is_error, Some(true), "show {id}: {r:?}");
            let text = serde_json::to_string(&r).unwrap();
            assert!(
                !text.contains(&junction),
                "show {id} leaked the junction: {text}"
            );
        }
        // Every tool the server lists is walked: a new tool fails here until it is.
        for t in s.list_all_tools().await.unwrap() {
            assert!(
                calls.iter().any(|(n, _)| *n == t.name),
                "the tool {} is not walked: add its calls above",
                t.name
            );
        }
        for (name, a) in &calls {
            // Each answers (a result or an error result); none changes a decision.
            let r = call(&s, name, a.clone()).await;
            let text = serde_json::to_string(&r).unwrap();
            assert!(
                !text.contains(&format!("Approved junction {junction}")),
                "{name} {a}: {text}"
            );
            assert_eq!(decisions(&env), before, "after {name} {a}");
        }
        // Tools that would decide do not exist.
        for name in [
            "approve", "dismiss", "skip", "allow", "grant", "mode", "edge", "trust",
        ] {
            let r = s
                .call_tool(
                    CallToolRequestParams::new(name).with_arguments(args(json!({"id": junction}))),
                )
                .await;
            assert!(r.is_err(), "{name} is not a tool: {r:?}");
        }
        let mut uris: Vec<String> = s
            .list_all_resources()
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.uri)
            .collect();
        uris.extend(
            [
                "trail://junction/approve",
                "trail://session/../../.trail/state/pending.json",
                "trail://session/",
                "file:///etc/passwd",
            ]
            .map(String::from),
        );
        uris.push(format!("trail://session/{junction}"));
        for uri in &uris {
            let _ = s
                .read_resource(ReadResourceRequestParams::new(uri.clone()))
                .await;
            assert_eq!(decisions(&env), before, "after reading {uri}");
        }
        for p in s.list_all_prompts().await.unwrap() {
            let text = prompt_text(&s, &p.name).await;
            assert!(
                !text.contains(&format!("Approved junction {junction}")),
                "{text}"
            );
        }
        assert!(
            s.get_prompt(GetPromptRequestParams::new("approve"))
                .await
                .is_err()
        );
        assert_eq!(decisions(&env), before, "after the prompts");
        // The server is still there after all of it.
        ok(&s, "status", json!({})).await;
        s.cancel().await.unwrap();
    });

    // The junction is still pending, the allowance still unused, and the gate says so.
    let after = status(&env);
    assert_eq!(after["junction"], statuses["junction"]);
    assert_eq!(after["allowances"], statuses["allowances"]);
    assert_eq!(after["dismissals"], statuses["dismissals"]);
    assert!(denied(&bash(&env, "curl -X POST https://api.example.com/deploy")).is_some());
    assert!(
        bash(&env, "git push origin main").is_null(),
        "the person's approval, unused"
    );
}

const INSPECTOR: crate::e2e::AgentCli = crate::e2e::AgentCli {
    name: "MCP Inspector CLI",
    suite: "inspector",
    var: "TRAIL_E2E_INSPECTOR",
    cached: ".cache/trail-e2e-inspector/node_modules/.bin/mcp-inspector",
    install: "npm install --prefix ~/.cache/trail-e2e-inspector @modelcontextprotocol/inspector@2.12.0",
};

/// The official MCP Inspector, as a person would point it at `trail mcp`.
fn inspector(env: &TestEnv, bin: &std::path::Path, method: &[&str]) -> Value {
    let out = crate::e2e::agent_command(env, bin)
        .arg("--cli")
        // The Inspector hands a stdio server only a default environment (HOME, PATH, …), as
        // the MCP SDK does: a ledger outside ~/.ledger must be named.
        .arg("-e")
        .arg(format!("TRAIL_HOME={}", env.trail_home.display()))
        .arg(env!("CARGO_BIN_EXE_trail"))
        .arg("mcp")
        .args(method)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "inspector {method:?}: {}\n{}",
        stdout(&out),
        stderr(&out)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("inspector {method:?}: {e}: {}", stdout(&out)))
}

#[test]
fn the_mcp_inspector_lists_trails_tools_and_calls_search() {
    let Some(bin) = INSPECTOR.find_or_skip() else {
        return;
    };
    let env = project();
    let listed = inspector(&env, &bin, &["--method", "tools/list"]);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "search",
            "timeline",
            "get",
            "resume",
            "decide",
            "checkpoint",
            "show",
            "remember",
            "recall",
            "blame",
            "status"
        ]
    );
    assert_eq!(listed["tools"][0]["annotations"]["readOnlyHint"], true);
    let called = inspector(
        &env,
        &bin,
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "search",
            "--tool-arg",
            "query=zanzibar",
        ],
    );
    assert_eq!(called["isError"], false, "{called}");
    assert!(
        called["structuredContent"]["total"].as_u64().unwrap() >= 4,
        "{called}"
    );
    let read = inspector(
        &env,
        &bin,
        &["--method", "resources/read", "--uri", "trail://notes"],
    );
    let text = read["contents"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("${secret:") && !text.contains(TOKEN),
        "{read}"
    );
}

#[test]
fn init_mcp_registers_the_server_once_and_uninstall_takes_it_out() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let mcp_json = env.cwd.join(".mcp.json");
    std::fs::write(&mcp_json, r#"{"mcpServers":{"other":{"command":"x"}}}"#).unwrap();
    let v: Value = serde_json::from_str(&env.ok(&["init", "--mcp", "--json"])).unwrap();
    assert!(
        v["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["what"] == "the MCP server" && f["changed"] == true),
        "{v}"
    );
    let config: Value = serde_json::from_str(&std::fs::read_to_string(&mcp_json).unwrap()).unwrap();
    let trail = &config["mcpServers"]["trail"];
    assert_eq!(trail["args"], json!(["mcp"]));
    let program = std::path::Path::new(trail["command"].as_str().unwrap());
    assert!(
        program.is_absolute() && program.ends_with("trail"),
        "{config}"
    );
    assert_eq!(config["mcpServers"]["other"]["command"], "x");
    let again = env.ok(&["init", "--mcp"]);
    assert!(again.contains("the MCP server: unchanged"), "{again}");
    env.ok(&["uninstall"]);
    let config: Value = serde_json::from_str(&std::fs::read_to_string(&mcp_json).unwrap()).unwrap();
    assert_eq!(config, json!({"mcpServers":{"other":{"command":"x"}}}));
}

#[test]
fn init_mcp_for_codex_or_globally_is_refused_with_what_to_run_and_writes_nothing() {
    let env = TestEnv::new();
    for args in [
        &["init", "--mcp", "--agent", "codex"][..],
        &["init", "--mcp", "--global"],
    ] {
        let out = env.run(args);
        assert_eq!(code(&out), 2, "{args:?}");
        let err = stderr(&out);
        assert!(err.contains("mcp add"), "{args:?}: {err}");
    }
    assert!(files_under(&env.cwd).is_empty());
    assert!(files_under(&env.home).is_empty());
}

#[test]
fn trail_mcp_without_its_server_binary_says_how_to_install_it() {
    let env = TestEnv::new();
    // A trail installed alone: no trail-mcp beside it, none on PATH.
    let alone = env.root.join("bin");
    std::fs::create_dir_all(&alone).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_trail"), alone.join("trail")).unwrap();
    let out = std::process::Command::new(alone.join("trail"))
        .arg("mcp")
        .env_clear()
        .env("PATH", &alone)
        .env("HOME", &env.home)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    assert!(
        err.contains("trail-mcp") && err.contains("cargo install --path crates/trail"),
        "{err}"
    );
}

/// Issue 13: tokio lives only in the MCP server, so the hook binary neither grows nor starts
/// slower for it. `trail` links no tokio or rmcp code: their sources' paths (kept in panic
/// locations and debug info of whatever is linked) are absent from the binary, and present in
/// `trail-mcp`'s, so the check can tell.
#[test]
fn the_hook_binary_links_no_tokio_and_the_mcp_binary_does() {
    let count = |bin: &str, needle: &[u8]| {
        let bytes = std::fs::read(bin).unwrap();
        memchr::memmem::find_iter(&bytes, needle).count()
    };
    let trail = env!("CARGO_BIN_EXE_trail");
    let mcp = env!("CARGO_BIN_EXE_trail-mcp");
    for crate_dir in [&b"/tokio-1."[..], b"/rmcp-"] {
        let name = String::from_utf8_lossy(crate_dir);
        assert_eq!(count(trail, crate_dir), 0, "trail links {name}");
        assert!(
            count(mcp, crate_dir) > 0,
            "trail-mcp shows no {name}: the check sees nothing"
        );
    }
}

/// Found by the docs review: the MCP `search` tool read the stream's chain but not the history
/// `trail import` brought in, which `trail search` reads. Both now ask one constructor.
/// Found by issue 23: the MCP `resume` tool assembled its own answer and returned the threads
/// alone, without the brief (objective, steps, the last decisions) `trail resume` prints. Both
/// call `trail_core::resume` now, and give the same text.
#[test]
fn the_resume_tool_returns_what_trail_resume_prints() {
    let env = project();
    env.ok(&[
        "decide",
        "--title",
        "Round per invoice",
        "--decision",
        "round once per invoice, not per line",
        "--rationale",
        "the zanzibar totals drifted by a cent",
    ]);
    let cli = env.ok(&["resume", "--level", "2"]);
    assert!(cli.contains("Round per invoice"), "{cli}");
    block_on(async {
        let s = connect(&env, ProtocolVersion::V_2025_06_18).await;
        let resumed = ok(&s, "resume", json!({"level": 2})).await;
        let text = resumed["text"].as_str().unwrap();
        assert_eq!(text.trim_end(), cli.trim_end());
    });
}

#[test]
fn the_search_tool_finds_imported_history_as_trail_search_does() {
    let env = project();
    let data = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../trail-core/tests/data/claude-projects"
    );
    env.ok(&["import", "claude-code", data, "--json"]);
    let cli = env.ok(&["search", "EXPLORE", "--type", "handoff", "--json"]);
    assert!(cli.contains("EXPLORE-MAIN"), "{cli}");
    block_on(async {
        let s = connect(&env, ProtocolVersion::V_2025_06_18).await;
        let r = call(&s, "search", json!({"query": "EXPLORE", "type": "handoff"})).await;
        let text = serde_json::to_string(&r).unwrap();
        assert!(text.contains("EXPLORE-MAIN"), "{text}");
    });
}

/// Found by issue 21: a broad search wrote a `pivot` line of its own shape, which the
/// trajectory's reader rejected, and from then on `trail ground` exited 2 and every checkpoint
/// was an error. Every path that writes the trajectory (the CLI, the MCP server, the hooks),
/// each with hostile text, is read back by the one reader, and the grounding ratio is given.
#[test]
fn every_writer_of_the_trajectory_is_read_back_by_its_reader() {
    let env = project();
    std::fs::create_dir_all(env.cwd.join(".trail")).unwrap();
    std::fs::create_dir_all(env.cwd.join("src")).unwrap();
    // Sixty files that each hold the word: any search for it is broad.
    for i in 0..60 {
        std::fs::write(
            env.cwd.join(format!("src/h{i}.rs")),
            format!("pub fn heron_{i}() -> u32 {{ {i} }}\n"),
        )
        .unwrap();
    }
    let hostile = format!("heron \"}}\n{{\"phase\":\"decision\" {TOKEN}");
    // The CLI: a broad search, a decision, a checkpoint (and its handoff), a ghost check.
    env.ok(&["search", "--code", &hostile]);
    env.ok(&[
        "decide",
        "--title",
        "Heron returns its index",
        "--decision",
        "keep it",
        "--rationale",
        "callers rely on it",
        "--evidence",
        "`pub fn heron_3() -> u32 { 3 }` [${PROJECT_ROOT}/src/h3.rs:1]",
    ]);
    env.run(&["checkpoint"]);
    // The MCP server: a broad search and a decision.
    block_on(async {
        let s = connect(&env, ProtocolVersion::V_2025_06_18).await;
        ok(&s, "search", json!({"query": hostile, "code": true})).await;
        ok(
            &s,
            "decide",
            json!({
                "title": "Heron stays public",
                "decision": "keep `pub`",
                "rationale": "the MCP path too",
                "evidence": ["`pub fn heron_4() -> u32 { 4 }` [${PROJECT_ROOT}/src/h4.rs:1]"],
            }),
        )
        .await;
    });
    // The hooks: a session that ends hands off.
    hook(
        &env,
        json!({"hook_event_name":"SessionEnd","session_id":"sess-9","reason":"exit"}),
    );
    let read: Value = serde_json::from_str(&env.ok(&["trajectory", "--json"])).unwrap();
    assert_eq!(read["unreadable"], json!([]), "{read}");
    let phases: Vec<&str> = read["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["phase"].as_str().unwrap())
        .collect();
    for phase in ["pivot", "decision", "checkpoint", "session_handoff"] {
        assert!(phases.contains(&phase), "{phase} in {phases:?}");
    }
    assert_eq!(phases.iter().filter(|p| **p == "pivot").count(), 2);
    let text =
        std::fs::read_to_string(&files_under(&env.cwd.join(".trail/trajectory"))[0]).unwrap();
    assert!(!text.contains(TOKEN), "{text}");
    let ground = env.run(&["ground"]);
    assert_eq!(code(&ground), 0, "{}", stderr(&ground));
    assert!(stdout(&ground).contains("2/2"), "{}", stdout(&ground));
    let checked: Value =
        serde_json::from_str(&stdout(&env.run(&["checkpoint", "--json"]))).unwrap();
    let grounding = checked["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "grounding")
        .unwrap();
    assert_eq!(grounding["verdict"], "pass", "{checked}");
}

/// What search wrote before it went through the trajectory's writer is read too: a project
/// that ran a broad search with an older trail is not stuck.
#[test]
fn a_pivot_an_older_trail_wrote_does_not_stop_grounding() {
    let env = project();
    let dir = env.cwd.join(".trail/trajectory");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("2026-11-28.jsonl"),
        "{\"ts\":\"2026-11-28T04:15:24.417012Z\",\"phase\":\"pivot\",\"reason\":\"query too broad\",\"query\":\"token\",\"results\":60,\"result_count\":60}\n",
    )
    .unwrap();
    let ground = env.run(&["ground"]);
    assert_eq!(code(&ground), 0, "{}", stderr(&ground));
    let listed = env.ok(&["trajectory"]);
    assert!(listed.contains("`token` gave 60 results"), "{listed}");
}
