//! trail as a plugin: `trail init --plugin DIR` writes a Claude Code plugin and a Codex plugin
//! that are also local marketplaces, and the real Claude Code (2.1.328) installs it in one
//! command, loads it and runs its hooks headless against a scripted model: SessionStart's state,
//! the gate's denial, and the subagent's primer reach the model; `trail status` counts what was
//! injected; `trail doctor` sees the plugin's hooks. Without the CLI (`.ci/run` installs it)
//! the Claude Code parts print one SKIP line.

use std::path::Path;

use crate::claude_e2e::{self, DENIED, text_reply, tool_use_reply};
use crate::common::*;
use crate::e2e::{self, HooksScenario, RESUME_MARKER};

fn init_plugin(env: &TestEnv, dir: &Path) -> serde_json::Value {
    let out = env.ok(&["init", "--plugin", dir.to_str().unwrap(), "--json"]);
    serde_json::from_str(&out).unwrap()
}

#[test]
fn init_plugin_writes_both_plugins_once_and_uninstall_takes_them_back() {
    let env = TestEnv::new();
    let dir = env.root.join("trail plugin");
    let v = init_plugin(&env, &dir);
    let files = v["files"].as_array().unwrap();
    assert!(files.iter().all(|f| f["changed"] == true), "{v}");
    for f in [
        ".claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
        "hooks/hooks.json",
        "commands/edge.md",
        "skills/trail/SKILL.md",
        ".mcp.json",
        ".agents/plugins/marketplace.json",
        "codex/.codex-plugin/plugin.json",
        "codex/hooks/hooks.json",
    ] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    // The one command that installs it, with the path quoted for a shell.
    assert_eq!(
        v["install"]["claude_code"],
        format!(
            "claude plugin install trail --marketplace '{}'",
            dir.display()
        )
    );
    // Hooks in exec form name this very binary, which runs as a hook.
    let hooks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("hooks/hooks.json")).unwrap())
            .unwrap();
    let pre = &hooks["hooks"]["PreToolUse"][0]["hooks"][0];
    assert_eq!(pre["args"], serde_json::json!(["hook", "claude-code"]));
    let program = pre["command"].as_str().unwrap();
    let exe = std::path::Path::new(env!("CARGO_BIN_EXE_trail"))
        .canonicalize()
        .unwrap();
    assert_eq!(Path::new(program), exe);
    let mcp: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(
        mcp["mcpServers"]["trail"]["args"],
        serde_json::json!(["mcp"])
    );

    let again = init_plugin(&env, &dir);
    assert!(
        again["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["changed"] == false),
        "{again}"
    );
    let text = env.ok(&["uninstall", "--plugin", dir.to_str().unwrap()]);
    assert!(text.contains("removed"), "{text}");
    assert!(!dir.exists(), "{text}");
    assert!(
        env.ok(&["uninstall", "--plugin", dir.to_str().unwrap()])
            .contains("nothing to remove")
    );
}

#[test]
fn init_plugin_refuses_another_plugins_folder_and_a_mixed_request() {
    let env = TestEnv::new();
    let dir = env.root.join("other");
    std::fs::create_dir_all(dir.join(".claude-plugin")).unwrap();
    std::fs::write(
        dir.join(".claude-plugin/plugin.json"),
        r#"{"name":"other"}"#,
    )
    .unwrap();
    let out = env.run(&["init", "--plugin", dir.to_str().unwrap()]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("another plugin's manifest"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("hooks").exists());
    let out = env.run(&["init", "--plugin", "x", "--global"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn claude_code_validates_the_plugin_and_its_marketplace() {
    let Some(claude) = claude_e2e::claude_or_skip() else {
        return;
    };
    let env = TestEnv::new();
    let dir = env.root.join("plugin");
    init_plugin(&env, &dir);
    for target in [dir.clone(), dir.join(".claude-plugin/marketplace.json")] {
        let out = e2e::agent_command(&env, &claude)
            .args(["plugin", "validate", "--strict"])
            .arg(&target)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}\n{}",
            target.display(),
            stdout(&out),
            stderr(&out)
        );
    }
}

/// What the subagent is told; it must reach the subagent's request and nothing else.
const PRIMER: &str = "SUBAGENT-PRIMER-7: junctions go to the main agent";
/// The subagent's task: marks its requests.
const SUBAGENT_TASK: &str = "SUBAGENT-TASK-9 look at the README";

#[test]
fn claude_code_installs_the_plugin_in_one_command_and_runs_its_hooks() {
    let Some(claude) = claude_e2e::claude_or_skip() else {
        return;
    };
    let env = TestEnv::new();
    // A project with a pulse to resume, no `trail init` in it: only the plugin brings hooks.
    let scenario = HooksScenario::new(&env, &[]);
    let precious = &scenario.precious;
    env.user_config(&format!("[subagent]\nprimer = {PRIMER:?}\n"));
    let dir = env.root.join("plugin");
    init_plugin(&env, &dir);

    let out = e2e::agent_command(&env, &claude)
        .args(["plugin", "install", "trail", "--marketplace"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}\n{}", stdout(&out), stderr(&out));
    assert!(
        !env.cwd.join(".claude/settings.json").exists(),
        "the plugin needs no project settings"
    );

    let destructive = &scenario.commands[0];
    let agent = serde_json::json!({
        "description": "read the readme",
        "prompt": SUBAGENT_TASK,
        "subagent_type": "general-purpose",
        "run_in_background": false,
    });
    let (port, seen) = claude_e2e::serve(vec![
        tool_use_reply("1", destructive),
        claude_e2e::tool_reply("2", "Agent", agent),
        text_reply("all done"),
    ]);
    let mut c = claude_e2e::claude_command(&env, &claude, port, "SCRIPTED-E2E: run the steps");
    c.args(["--allowedTools", "Bash Agent"]);
    let (out, requests) = e2e::run_agent(c, &seen);
    assert!(
        out.status.success(),
        "claude failed: {}\n{}\nrequests:\n{requests}",
        stdout(&out),
        stderr(&out)
    );
    // SessionStart and PreToolUse ran from the plugin.
    assert!(requests.contains(RESUME_MARKER), "{requests}");
    let denial = e2e::after(&requests, DENIED, 700);
    assert!(denial.contains("rm-recursive"), "{denial}");
    assert!(precious.join("keep.txt").exists());
    // SubagentStart: the primer reached the subagent, and only the subagent.
    let lines: Vec<&str> = requests.lines().collect();
    let sub: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains("SUBAGENT-TASK-9"))
        .collect();
    assert!(
        !sub.is_empty(),
        "the subagent never asked the model:\n{requests}"
    );
    assert!(
        sub.iter().any(|l| l.contains("SUBAGENT-PRIMER-7")),
        "{sub:?}"
    );
    let main_turns = lines
        .iter()
        .filter(|l| l.contains("SCRIPTED-E2E") && !l.contains("SUBAGENT-TASK-9"));
    assert!(main_turns.clone().count() >= 1);
    // (The parent may quote the task, never the primer.)
    for l in main_turns {
        assert!(
            !l.contains("SUBAGENT-PRIMER-7"),
            "the primer reached the main agent"
        );
    }

    // What the session received, counted.
    let st = status(&env);
    let ctx = &st["context"];
    assert!(ctx["tokens"].as_u64().unwrap() > 0, "{st}");
    assert_eq!(ctx["by_event"]["SubagentStart"]["injections"], 1, "{st}");
    assert_eq!(ctx["by_event"]["SessionStart"]["injections"], 1, "{st}");
    assert_eq!(ctx["cap"], 20000, "{st}");
    // The doctor sees the plugin's hooks as installed.
    let out = env.run(&["doctor", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let problems = v["problems"].as_array().unwrap();
    assert!(
        !problems
            .iter()
            .any(|p| p["check"] == "hooks-installed" || p["check"] == "hook-binary"),
        "{v}"
    );
}
