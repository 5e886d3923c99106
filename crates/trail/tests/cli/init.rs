//! `trail init` / `trail uninstall` against a project's .claude/settings.json.

use crate::common::*;

#[test]
fn init_merges_idempotently_and_uninstall_restores_the_file() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let settings = env.cwd.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let foreign = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify-send done"}]}]},"model":"opus"}"#;
    std::fs::write(&settings, foreign).unwrap();

    let out = env.ok(&["init"]);
    assert!(
        out.contains("installed")
            && out.contains("PreToolUse")
            && out.contains("PostToolUseFailure"),
        "{out}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let stop = v["hooks"]["Stop"].as_array().unwrap();
    assert_eq!(stop.len(), 2, "the foreign Stop hook is kept: {v}");
    let cmd = v["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(cmd.ends_with(" hook claude-code"), "{cmd}");

    let once = std::fs::read_to_string(&settings).unwrap();
    assert!(env.ok(&["init"]).contains("nothing to change"));
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), once);

    // The installed command really is a working hook.
    let program = cmd.trim_end_matches(" hook claude-code");
    assert!(std::path::Path::new(program).exists(), "{program}");

    env.ok(&["uninstall"]);
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(
        after,
        serde_json::from_str::<serde_json::Value>(foreign).unwrap()
    );
    assert!(env.ok(&["uninstall"]).contains("nothing to change"));
}

#[test]
fn a_malformed_settings_file_is_reported_not_overwritten() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    let settings = env.cwd.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{\n  \"hooks\": {,\n}").unwrap();
    let out = env.run(&["init"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("line 2"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\n  \"hooks\": {,\n}"
    );
    assert_eq!(code(&env.run(&["init", "--agent", "codex"])), 2);
}
