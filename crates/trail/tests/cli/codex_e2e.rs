//! End to end against the real Codex CLI (`codex exec`), driven headless by a scripted model on
//! loopback that speaks the Responses API. Needs
//! `npm install --prefix ~/.cache/trail-e2e-codex @openai/codex@0.169.0` (`.ci/run` does it);
//! without it each test prints one loud SKIP line and checks nothing else.
//!
//! What Codex 0.169.0 does, as these tests found it: hooks are enabled by default; a project's
//! `.codex/hooks.json` is read only when the project is trusted (`[projects."<dir>"]
//! trust_level = "trusted"` in `$CODEX_HOME/config.toml`), and unmanaged hooks run only after a
//! person reviewed them in `/hooks`, or for one invocation with `--dangerously-bypass-hook-trust`.
//! The shell tool the model calls is `exec_command` (`{"cmd": …}`); hooks see it as
//! `tool_name: "Bash"`, `tool_input: {"command": …}`. A PreToolUse deny reaches the model as the
//! tool's output, `Command blocked by PreToolUse hook: <reason>. Command: <cmd>`. PostToolUse's
//! `tool_response` is the command's output as a plain string, without its exit code.

use std::path::{Path, PathBuf};

use crate::common::*;
use crate::e2e::{self, AgentCli, HooksScenario, PUSH, Reply, Script, Seen, remote_has_main};

/// A model Codex knows, so it offers the tools a person would get (`exec_command`, `apply_patch`).
const MODEL: &str = "gpt-5.5";
/// How a hook's denial reaches the model through Codex.
const DENIED: &str = "Command blocked by PreToolUse hook";

const CODEX: AgentCli = AgentCli {
    name: "Codex CLI",
    suite: "codex",
    var: "TRAIL_E2E_CODEX",
    cached: ".cache/trail-e2e-codex/node_modules/.bin/codex",
    install: "npm install --prefix ~/.cache/trail-e2e-codex @openai/codex@0.169.0",
};

/// One server-sent event of the Responses API.
fn sse(data: serde_json::Value) -> String {
    format!(
        "event: {}\ndata: {data}\n\n",
        data["type"].as_str().unwrap()
    )
}

/// A whole model turn: created, one output item, completed.
fn response(id: &str, item: serde_json::Value) -> String {
    [
        sse(serde_json::json!({"type":"response.created","response":{"id":format!("resp_{id}")}})),
        sse(serde_json::json!({"type":"response.output_item.done","output_index":0,"item":item})),
        sse(serde_json::json!({"type":"response.completed","response":{"id":format!("resp_{id}"),"usage":{"input_tokens":10,"input_tokens_details":null,"output_tokens":5,"output_tokens_details":null,"total_tokens":15}}})),
    ]
    .concat()
}

/// The model runs `command` through Codex's shell tool.
fn shell_reply(id: &str, command: &str) -> String {
    response(
        id,
        serde_json::json!({
            "type": "function_call",
            "id": format!("fc_{id}"),
            "call_id": format!("call_{id}"),
            "name": "exec_command",
            "arguments": serde_json::json!({ "cmd": command }).to_string(),
        }),
    )
}

/// The model edits files through Codex's freeform `apply_patch` tool.
fn patch_reply(id: &str, patch: &str) -> String {
    response(
        id,
        serde_json::json!({
            "type": "custom_tool_call",
            "id": format!("ctc_{id}"),
            "call_id": format!("call_{id}"),
            "name": "apply_patch",
            "input": patch,
        }),
    )
}

fn text_reply(text: &str) -> String {
    response(
        "text",
        serde_json::json!({
            "type": "message",
            "role": "assistant",
            "id": "msg_text",
            "content": [{ "type": "output_text", "text": text }],
        }),
    )
}

/// A scripted model: the n-th request of the conversation whose input contains `marker`
/// (counted by the tool outputs it carries) gets the n-th step; anything else gets a short text.
fn serve(marker: &'static str, steps: Vec<String>) -> (u16, Seen) {
    let script = Script {
        steps,
        marker,
        tool: "\"name\":\"exec_command\"",
        results: &[
            "\"type\":\"function_call_output\"",
            "\"type\":\"custom_tool_call_output\"",
        ],
        text: text_reply,
    };
    e2e::serve(move |line, body| {
        if !line.starts_with("POST") || !line.contains("/responses") {
            return None;
        }
        Some(Reply::events(script.answer(body)))
    })
}

/// `$CODEX_HOME` for the test: the scripted model as the provider (no real key), and the
/// project trusted so Codex reads the `.codex/hooks.json` that `trail init --agent codex` wrote.
fn codex_home(env: &TestEnv, port: u16) -> PathBuf {
    let dir = env.home.join(".codex");
    std::fs::create_dir_all(&dir).unwrap();
    // What `codex plugin marketplace add` and `codex plugin add` wrote is kept.
    let kept = std::fs::read_to_string(dir.join("config.toml"))
        .ok()
        .and_then(|t| t.find("[marketplaces.").map(|i| t[i..].to_string()))
        .unwrap_or_default();
    let mut projects = String::new();
    let canonical = env.cwd.canonicalize().unwrap();
    for p in [env.cwd.clone(), canonical] {
        let line = format!(
            "[projects.{:?}]\ntrust_level = \"trusted\"\n\n",
            p.display().to_string()
        );
        if !projects.contains(&line) {
            projects.push_str(&line);
        }
    }
    std::fs::write(
        dir.join("config.toml"),
        format!(
            "model = \"{MODEL}\"\nmodel_provider = \"scripted\"\n\n\
[model_providers.scripted]\nname = \"scripted\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\n\
env_key = \"TRAIL_E2E_MODEL_KEY\"\nwire_api = \"responses\"\n\n{projects}{kept}"
        ),
    )
    .unwrap();
    dir
}

/// Runs `codex exec PROMPT` headless in the test's project against the scripted model; returns
/// its output and every request the model server saw.
fn run_codex(
    env: &TestEnv,
    codex: &Path,
    port: u16,
    seen: &Seen,
    prompt: &str,
) -> (std::process::Output, String) {
    run_codex_in(env, codex, port, seen, &["exec"], prompt)
}

/// [`run_codex`] as `codex <exec…> PROMPT`: `["exec", "resume", "--last"]` goes on with the
/// newest session, in the same rollout file.
fn run_codex_in(
    env: &TestEnv,
    codex: &Path,
    port: u16,
    seen: &Seen,
    exec: &[&str],
    prompt: &str,
) -> (std::process::Output, String) {
    let mut c = e2e::agent_command(env, codex);
    c.args(exec);
    c.args([
        "--json",
        "--skip-git-repo-check",
        // The hooks trail installed have not been reviewed by a person in `/hooks`; this
        // runs them anyway, for this invocation only.
        "--dangerously-bypass-hook-trust",
        // Commands run unsandboxed and without approval prompts: trail is the gate here.
        "--dangerously-bypass-approvals-and-sandbox",
        prompt,
    ])
    .env("CODEX_HOME", codex_home(env, port))
    .env("TRAIL_E2E_MODEL_KEY", "not-a-real-key");
    e2e::run_agent(c, seen)
}

/// The text after the first deny that reached the model.
fn denial(requests: &str) -> String {
    e2e::after(requests, DENIED, 700)
}

/// `trail init --plugin DIR`, then Codex's own two commands install it: its hooks (found in
/// the plugin's `hooks/hooks.json`, run after the person reviewed them, here bypassed for the
/// one invocation as for every Codex e2e test) gate and record the session as `trail init
/// --agent codex` does, with no `.codex/hooks.json` in the project.
#[test]
fn codex_installs_trails_plugin_and_runs_its_hooks() {
    let Some(codex) = CODEX.find_or_skip() else {
        return;
    };
    let env = TestEnv::new();
    let scenario = HooksScenario::new(&env, &[]);
    let dir = env.root.join("plugin");
    env.ok(&["init", "--plugin", dir.to_str().unwrap()]);
    let [destructive, allowed, failing] = &scenario.commands;
    let (port, seen) = serve(
        "SCRIPTED-E2E",
        vec![
            shell_reply("1", destructive),
            shell_reply("2", allowed),
            shell_reply("3", failing),
            text_reply("all done"),
        ],
    );
    let home = codex_home(&env, port);
    for args in [
        vec!["plugin", "marketplace", "add", dir.to_str().unwrap()],
        vec!["plugin", "add", "trail@trail-local"],
    ] {
        let out = e2e::agent_command(&env, &codex)
            .args(&args)
            .env("CODEX_HOME", &home)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}\n{}",
            stdout(&out),
            stderr(&out)
        );
    }
    assert!(!env.cwd.join(".codex/hooks.json").exists());
    let (out, requests) = run_codex(&env, &codex, port, &seen, "SCRIPTED-E2E: run the steps");
    assert!(
        out.status.success(),
        "codex failed: {}\n{}\nrequests:\n{requests}",
        stdout(&out),
        stderr(&out)
    );
    scenario.assert_ran(&env, &requests, &denial(&requests));
    assert!(status(&env)["context"]["by_event"]["SessionStart"]["tokens"].as_u64() > Some(0));
}

#[test]
fn codex_runs_trails_hooks_for_real() {
    let Some(codex) = CODEX.find_or_skip() else {
        return;
    };
    let env = TestEnv::new();
    let scenario = HooksScenario::new(&env, &["init", "--agent", "codex"]);
    assert!(env.cwd.join(".codex/hooks.json").exists());
    let [destructive, allowed, failing] = &scenario.commands;
    let (port, seen) = serve(
        "SCRIPTED-E2E",
        vec![
            shell_reply("1", destructive),
            shell_reply("2", allowed),
            shell_reply("3", failing),
            text_reply("all done"),
        ],
    );
    let (out, requests) = run_codex(
        &env,
        &codex,
        port,
        &seen,
        "SCRIPTED-E2E: run the scripted steps",
    );
    assert!(
        out.status.success(),
        "codex failed: {}\n{}\nrequests:\n{requests}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("\"type\":\"turn.completed\""),
        "{}",
        stdout(&out)
    );
    let lines = scenario.assert_ran(&env, &requests, &denial(&requests));
    // Each later request repeats the conversation: the denial is in the 3 requests after it.
    assert_eq!(occurrences(&requests, DENIED), 3, "{requests}");
    assert!(
        lines[1]["output_preview"]
            .as_str()
            .unwrap()
            .contains("No such file"),
        "{lines:?}"
    );
}

/// Codex 0.169.0 reports a failed command to PostToolUse only through its output text (no exit
/// code, no PostToolUseFailure); trail reads the exit code from the session's rollout file (see
/// PROVENANCE-codex.md), so the failure is recorded as one.
#[test]
fn a_failing_command_is_recorded_as_a_failure() {
    let Some(codex) = CODEX.find_or_skip() else {
        return;
    };
    let env = TestEnv::new();
    e2e::project(&env);
    env.ok(&["init", "--agent", "codex"]);
    let (port, seen) = serve(
        "SCRIPTED-E2E",
        vec![
            shell_reply("1", "ls /definitely/not/here"),
            text_reply("done"),
        ],
    );
    let (out, requests) = run_codex(&env, &codex, port, &seen, "SCRIPTED-E2E: fail once");
    assert!(out.status.success(), "{}\n{requests}", stderr(&out));
    let lines = e2e::proof_lines(&env);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["success"], false, "{lines:?}");
}

/// Codex edits files with `apply_patch` (`tool_input.command` holds the patch); the edit guard
/// reads the files a patch names, so a patch to the grants journal, grants written into the
/// state file, or a write outside the project are refused like Edit/Write.
#[test]
fn an_apply_patch_to_trails_state_is_refused() {
    let Some(codex) = CODEX.find_or_skip() else {
        return;
    };
    let env = TestEnv::new();
    e2e::project(&env);
    env.ok(&["init", "--agent", "codex"]);
    let (port, seen) = serve(
        "SCRIPTED-E2E",
        vec![
            patch_reply(
                "1",
                "*** Begin Patch\n*** Add File: .trail/state/grants.jsonl\n+{\"event\":\"allow\"}\n*** End Patch\n",
            ),
            patch_reply(
                "2",
                "*** Begin Patch\n*** Update File: active_context.yaml\n@@\n-allowances: []\n+allowances:\n+  - fingerprint: \"00\"\n+    consumed: false\n*** End Patch\n",
            ),
            patch_reply(
                "3",
                "*** Begin Patch\n*** Add File: ../home/outside.txt\n+x\n*** End Patch\n",
            ),
            text_reply("done"),
        ],
    );
    env.ok(&["mode", "plan"]);
    let (out, requests) = run_codex(&env, &codex, port, &seen, "SCRIPTED-E2E: forge a grant");
    assert!(out.status.success(), "{}\n{requests}", stderr(&out));
    assert!(requests.contains("[state-tamper]"), "{requests}");
    assert!(!env.cwd.join(".trail/state/grants.jsonl").exists());
    assert!(requests.contains("[self-approval]"), "{requests}");
    let after = std::fs::read_to_string(env.cwd.join("active_context.yaml")).unwrap();
    assert!(
        after.contains("allowances: []") && !after.contains("fingerprint: \"00\""),
        "{after}"
    );
    assert!(requests.contains("[write-outside-project]"), "{requests}");
    assert!(!env.home.join("outside.txt").exists());
}

#[test]
fn a_push_waits_for_the_person_and_their_approval_runs_it_once() {
    let Some(codex) = CODEX.find_or_skip() else {
        return;
    };
    let env = TestEnv::new();
    let remote = e2e::push_scenario(&env, &["init", "--agent", "codex"]);

    // Session 1: the agent pushes; the gate makes it a junction; the agent's own approval is
    // refused; nothing reaches the remote.
    let (port, seen) = serve(
        "SCRIPTED-E2E",
        vec![
            shell_reply("p0", "git log --oneline"),
            shell_reply("p1", PUSH),
            shell_reply("p2", "trail approve"),
            text_reply("waiting for the user"),
        ],
    );
    let (out, requests) = run_codex(&env, &codex, port, &seen, "SCRIPTED-E2E: push it");
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    e2e::assert_the_push_waits(&env, &remote, &denial(&requests));
    assert!(requests.contains("[self-approval]"), "{requests}");
    let st = status(&env);
    assert!(st["allowances"].as_array().unwrap().is_empty(), "{st}");

    // The person approves in their own terminal.
    env.decide_in_terminal(&["approve"]);

    // Session 2: the agent retries twice: the first push runs, the second is a new junction
    // (the allowance was used up).
    let (port, seen) = serve(
        "SCRIPTED-E2E",
        vec![
            shell_reply("p3", PUSH),
            shell_reply("p4", PUSH),
            text_reply("pushed"),
        ],
    );
    let (out, requests) = run_codex(&env, &codex, port, &seen, "SCRIPTED-E2E: approved, push");
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    assert!(
        remote_has_main(&remote),
        "the approved push did not run:\n{requests}"
    );
    assert_eq!(
        occurrences(&requests, DENIED),
        // Only the second push was denied: its denial is in the last request alone.
        1,
        "the retry after the approved push must be stopped again:\n{requests}"
    );
    e2e::assert_the_approved_push_ran_once(&env, "terminal");

    // Session 3: the person types `/edge approve` as the prompt (UserPromptSubmit carries it
    // raw); the agent's retry runs once more.
    let (port, seen) = serve(
        "/edge approve",
        vec![shell_reply("p5", PUSH), text_reply("pushed again")],
    );
    let (out, requests) = run_codex(&env, &codex, port, &seen, "/edge approve");
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    assert!(
        requests.contains("trail carried out the user's `/edge` command"),
        "the prompt hook did not carry out /edge approve:\n{requests}"
    );
    assert_eq!(occurrences(&requests, DENIED), 0, "{requests}");
    let journal = std::fs::read_to_string(env.cwd.join(".trail/state/grants.jsonl")).unwrap();
    assert!(journal.contains("\"by\":\"prompt\""), "{journal}");
    assert_eq!(
        occurrences(&journal, "\"event\":\"consume\""),
        2,
        "{journal}"
    );
    let pushes = e2e::proof_lines(&env)
        .into_iter()
        .filter(|v| v["input_preview"] == PUSH)
        .count();
    assert_eq!(pushes, 2);
}

/// A model turn that reports `tokens` of context (the usage Codex records in its rollout).
fn with_context(reply: String, tokens: u64) -> String {
    reply.replace("\"input_tokens\":10", &format!("\"input_tokens\":{tokens}"))
}

/// The rollout files Codex wrote for the test (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-….jsonl`,
/// the hooks' `transcript_path`). With `TRAIL_E2E_KEEP_ROLLOUTS=DIR` they are also copied there:
/// that is how `trail-core/tests/data/rollouts/` was made.
fn rollouts(env: &TestEnv) -> Vec<PathBuf> {
    let found: Vec<PathBuf> = files_under(&env.home.join(".codex/sessions"))
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("rollout-"))
        })
        .collect();
    if let Some(dir) = std::env::var_os("TRAIL_E2E_KEEP_ROLLOUTS") {
        for p in &found {
            std::fs::copy(p, Path::new(&dir).join(p.file_name().unwrap())).unwrap();
        }
    }
    found
}

/// Issue 11, item 4: Codex sessions got no memory. trail read only Claude Code transcripts, so a
/// Codex session's end flushed nothing, the summary callback had nothing to give back, and the
/// attention budget never saw the context grow. Now the rollout is read for all of them.
#[test]
fn codex_sessions_get_memory_from_their_rollout() {
    let Some(codex) = CODEX.find_or_skip() else {
        return;
    };
    let env = TestEnv::new();
    e2e::project(&env);
    env.ok(&["init", "--agent", "codex"]);
    // Session 1: two commands, one failing; the model reports a context of 20k tokens, then
    // 150k: 130k added since the conversation's first answer, and no checkpoint.
    let (port, seen) = serve(
        "SCRIPTED-E2E",
        vec![
            with_context(shell_reply("1", "echo made > made.txt"), 20_000),
            with_context(shell_reply("2", "ls /definitely/not/here"), 150_000),
            with_context(text_reply("done"), 150_000),
        ],
    );
    let (out, requests) = run_codex(
        &env,
        &codex,
        port,
        &seen,
        "SCRIPTED-E2E: remember this session",
    );
    assert!(out.status.success(), "{}\n{requests}", stderr(&out));
    let files = rollouts(&env);
    assert_eq!(files.len(), 1, "{files:?}");
    let day = || {
        let dir = env.cwd.join(".trail/memory");
        let days: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|rd| {
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.is_file())
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(
            days.len(),
            1,
            "SessionEnd flushed no daily memory from the rollout: {days:?}"
        );
        std::fs::read_to_string(&days[0]).unwrap()
    };
    let text = day();
    assert!(
        text.contains("### Asked\n- SCRIPTED-E2E: remember this session\n"),
        "{text}"
    );
    assert!(text.contains("- `echo made > made.txt` — ok\n"), "{text}");
    assert!(
        text.contains("- `ls /definitely/not/here` — failed\n"),
        "{text}"
    );

    // Session 2 goes on in the same rollout: its start gets the re-anchor packet and the flushed
    // block back, its prompt hears that the context is large, and its end flushes only what is
    // new.
    // The resumed conversation carries session 1's two tool outputs: its steps start at 2.
    let (port, seen) = serve(
        "SCRIPTED-E2E",
        vec![
            String::new(),
            String::new(),
            shell_reply("3", "echo again"),
            text_reply("done again"),
        ],
    );
    let (out, requests) = run_codex_in(
        &env,
        &codex,
        port,
        &seen,
        &["exec", "resume", "--last"],
        "SCRIPTED-E2E: and then this",
    );
    assert!(out.status.success(), "{}\n{requests}", stderr(&out));
    assert_eq!(rollouts(&env).len(), 1, "resume wrote a new rollout");
    assert!(
        requests.contains("what the last flush kept in daily memory"),
        "the flushed block did not come back:\n{requests}"
    );
    assert!(
        requests.contains("attention budget red: 130000 tokens added"),
        "the attention budget did not read the rollout's context size:\n{requests}"
    );
    // Issue 12 item 13: the resume's first request carries the re-anchor packet, with the
    // user's words and the commands of session 1 read from the rollout.
    let Some(at) = requests.find("trail: re-anchor packet after resume") else {
        panic!("no re-anchor packet reached the model:\n{requests}");
    };
    let packet = &requests[at..];
    let packet = &packet[..packet
        .find("trail: what the last flush kept")
        .unwrap_or(packet.len())];
    for want in [
        "- SCRIPTED-E2E: remember this session",
        "Bash: ls /definitely/not/here (failed)",
    ] {
        assert!(packet.contains(want), "{want}:\n{packet}");
    }
    let text = day();
    let stream = std::fs::read_to_string(env.stream()).unwrap_or_default();
    assert_eq!(occurrences(&text, "remember this session"), 1, "{text}");
    assert_eq!(
        occurrences(&text, "and then this"),
        1,
        "{text}\nstream:\n{stream}"
    );
    assert_eq!(occurrences(&text, "`echo again` — ok"), 1, "{text}");
}

/// Issue 19's confined session through the real Codex (its own sandbox off: trail confines every
/// shell command it runs, by the PreToolUse rewrite Codex takes with `permissionDecision:
/// allow`). A script the agent writes and runs cannot read the key, forge a grant, rewrite
/// Codex's hooks or delete a file in home; the session carries on.
#[test]
fn a_confined_codex_session_cannot_do_what_only_a_person_may() {
    let Some(codex) = CODEX.find_or_skip() else {
        return;
    };
    let Some(session) =
        e2e::ConfinedSession::new(&["init", "--agent", "codex"], "HOOKS", ".codex/hooks.json")
    else {
        return;
    };
    let [write, run, after] = session.commands();
    let (port, seen) = serve(
        "SCRIPTED-E2E",
        vec![
            shell_reply("1", &write),
            shell_reply("2", &run),
            shell_reply("3", &after),
            text_reply("done"),
        ],
    );
    let env = &session.env;
    let (out, requests) = run_codex(env, &codex, port, &seen, "SCRIPTED-E2E: tidy up");
    assert!(out.status.success(), "{}\n{requests}", stderr(&out));
    session.assert_held(&requests);
}
