//! `trail gate`: a verdict per command line, no state touched.

use crate::common::*;

#[test]
fn gate_prints_verdicts_and_touches_no_state() {
    let env = TestEnv::new();
    let cases = [
        ("rm -rf ~", "block", Some("rm-recursive-critical")),
        (
            "git push --force origin main",
            "junction",
            Some("git-push-force"),
        ),
        ("echo \"rm -rf /\"", "allow", None),
        ("bash -c 'trail approve'", "block", Some("self-approval")),
    ];
    for (cmd, verdict, rule) in cases {
        let out = env.run(&["gate", "--json", "--", cmd]);
        assert_eq!(code(&out), 0, "{cmd}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["verdict"], verdict, "{cmd}: {v}");
        assert_eq!(v["rule"].as_str(), rule, "{cmd}: {v}");
    }
    // The ledger where TRAIL_HOME puts it, as the hook judges it (not ~/.ledger).
    let ledger = format!(
        "echo x >> {}/stream/pulses.log.md",
        env.trail_home.display()
    );
    let out = env.run(&["gate", "--json", "--", &ledger]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rule"], "trail-home", "{v}");
    // Words after `--` are one command line too.
    let out = env.ok(&["gate", "--", "rm", "-rf", "/"]);
    assert!(out.starts_with("block"), "{out}");
    assert!(!env.trail_home.exists(), "the gate wrote state");
    assert_eq!(code(&env.run(&["gate"])), 2);
}

#[test]
fn rules_added_in_config_are_checked_and_applied_by_gate_and_hook() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    std::fs::create_dir_all(env.cwd.join(".trail")).unwrap();
    let cfg = env.cwd.join(".trail/config.toml");
    std::fs::write(
        &cfg,
        r#"
[[gate.rules]]
id = "shipit-prod"
verdict = "junction"
reason = "shipit prod releases to customers"
command = "shipit"
subcommand = "prod"
must_match = ["shipit prod", "sudo shipit prod --now"]
must_not_match = ["shipit staging"]
"#,
    )
    .unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&env.ok(&["gate", "--json", "--", "cd infra && shipit prod"]))
            .unwrap();
    assert_eq!(v["verdict"], "junction");
    assert_eq!(v["rule"], "shipit-prod");
    assert!(env.ok(&["config"]).contains("shipit-prod"));
    let out = env.run_stdin(
        &["hook", "claude-code"],
        r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"shipit prod"}}"#,
    );
    assert!(stdout(&out).contains("[shipit-prod]"), "{}", stdout(&out));
    // A rule whose examples contradict it is refused, naming the file and the example.
    let text = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace("[\"shipit staging\"]", "[\"shipit prod -x\"]");
    std::fs::write(&cfg, text).unwrap();
    let out = env.run(&["gate", "--", "ls"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("config.toml") && stderr(&out).contains("shipit prod -x"),
        "{}",
        stderr(&out)
    );
    std::fs::write(
        &cfg,
        "[[gate.rules]]\nid='x'\nverdict='allow'\nreason='r'\ncommand='ls'\nmust_match=['ls']\n",
    )
    .unwrap();
    assert_eq!(
        code(&env.run(&["gate", "--", "ls"])),
        2,
        "allow cannot be configured"
    );
}
