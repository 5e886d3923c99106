//! The Operator's Edge protocol through the real binary: `trail hook` payloads, `/edge` prompts
//! and the terminal commands, on one project's active_context.yaml.

use serde_json::json;

use crate::common::*;
use crate::snapshots::normalise;

fn project() -> TestEnv {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.cwd.join(".git")).unwrap();
    env
}

#[test]
fn a_junction_is_decided_by_edge_prompts_and_terminal_commands() {
    let env = project();
    let why = denied(&bash(&env, "git push origin main")).expect("push is a junction");
    assert!(
        why.contains("Junction j-") && why.contains("/edge approve"),
        "{why}"
    );
    let id = status(&env)["junction"]["id"].as_str().unwrap().to_string();
    // A wrong id is refused and decides nothing.
    let out = env.in_terminal(&["approve", "j-0000000000"], &[&id[id.len() - 4..]]);
    assert_eq!(code(&out), 2);
    assert!(stdout(&out).contains(&id), "{}", stdout(&out));

    // What the person is told, whole (issue 23: these were `.contains` checks of a word).
    let said = prompt(&env, "/edge approve");
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &said), @r"
    trail carried out the user's `/edge` command: Approved junction j-[ID] [git-push]: `git push origin main` may run once. The allowance is used up when it runs; a retry after that asks again. If you were waiting on this, retry the stopped command now, exactly as before.
    ");
    assert!(
        bash(&env, "git push origin main").is_null(),
        "the approved push runs"
    );
    assert!(
        denied(&bash(&env, "git push origin main")).is_some(),
        "once"
    );

    let said = prompt(&env, "/edge dismiss 30");
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &said), @r"
    trail carried out the user's `/edge` command: Dismissed junction j-[ID]: [git-push] actions run without asking until [TS]. If you were waiting on this, retry the stopped command now, exactly as before.
    ");
    assert!(
        bash(&env, "git push origin main").is_null(),
        "a dismissal covers the rule on the target the person saw"
    );
    assert!(
        bash(&env, "git push -v origin main").is_null(),
        "flags do not change the target"
    );
    assert!(
        denied(&bash(&env, "git push origin other")).is_some(),
        "another branch is another target: the dismissal does not cover it"
    );
    env.ok(&["skip"]);

    // Another kind of junction is not covered by the git-push dismissal.
    assert!(denied(&bash(&env, "curl -X POST https://api.example.com/deploy")).is_some());
    let out = env.ok(&["skip"]);
    insta::assert_snapshot!(crate::snapshots::normalise(&env, &out), @r"
    Skipped junction j-[ID]: `curl -X POST https://api.example.com/deploy` was not approved; find another way.
    ");
    assert_eq!(code(&env.run(&["skip"])), 2, "nothing pending");
    // Decisions by prompt and in a terminal are both in the pulse stream.
    let log = env.ok(&["log", "--limit", "20"]);
    assert!(log.contains("decision by the user: Approved"), "{log}");
    assert!(log.contains("decision by the user: Skipped"), "{log}");
    insta::assert_snapshot!(prompt(&env, "/edge frobnicate"), @r#"
    trail: `frobnicate` is not an /edge command. Usage: /edge [plan | active ["objective"] | review | done | approve [ID] | dismiss [MINUTES] | skip | checkpoint | decide [WHAT] | show ID]
    "#);
}

#[test]
fn edge_checkpoint_decide_and_show_ask_the_agent_and_decide_nothing() {
    let env = project();
    assert!(denied(&bash(&env, "git push origin main")).is_some());
    let pending = status(&env)["junction"].clone();
    let record = std::fs::read(env.cwd.join(".trail/state/pending.json")).unwrap();
    // What the agent is told for each, whole (issue 23: were `.contains` checks).
    let mut said = String::new();
    for typed in [
        "/edge checkpoint",
        "/edge decide use rustls, not openssl",
        "/edge show '${PROJECT_ROOT}/src/a.rs:1-3'",
        "/edge show",
    ] {
        said += &format!("{typed}\n{}\n\n", prompt(&env, typed));
    }
    insta::assert_snapshot!(normalise(&env, &said), @r#"
    /edge checkpoint
    trail: `/edge checkpoint` asks for the checkpoint before /clear. Run `trail checkpoint --reasoning "where your reasoning stands"` and tell the user its verdict and each step that did not pass, with its remedy; when it says blocked, do the remedies and run it again before /clear.

    /edge decide use rustls, not openssl
    trail: `/edge decide` asks you to record the decision this prompt describes (or the one just made). Run ``trail decide --title T --decision D --rationale R --evidence '`quote` [${PROJECT_ROOT}/path:LINE]' --test "happy: …" --test "edge: …" --test "error: …"``, each quote copied from the lines it cites, and tell the user which citations verify.

    /edge show '${PROJECT_ROOT}/src/a.rs:1-3'
    trail: `/edge show` asks for the lines of the identifier in this prompt. Run `trail show '${PROJECT_ROOT}/path:START-END'` with it (`--full-section` for the whole function) and show the user what it prints.

    /edge show
    trail: `show` needs an identifier, such as '${PROJECT_ROOT}/src/a.rs:45-67'. Usage: /edge [plan | active ["objective"] | review | done | approve [ID] | dismiss [MINUTES] | skip | checkpoint | decide [WHAT] | show ID]
    "#);
    // Still pending, exactly as it was; nothing ran in the agent's place.
    assert_eq!(status(&env)["junction"], pending);
    assert_eq!(
        std::fs::read(env.cwd.join(".trail/state/pending.json")).unwrap(),
        record
    );
    assert!(
        !env.cwd.join(".trail/trajectory").exists(),
        "no checkpoint was run"
    );
}

#[test]
fn edge_prompts_change_modes_and_the_quality_gate_holds_done() {
    let env = project();
    let said = prompt(&env, "/edge active \"ship the parser\"");
    insta::assert_snapshot!(normalise(&env, &said), @r"
    trail carried out the user's `/edge` command: Mode: plan → active.
    warning: no plan yet: add steps to `plan:` in active_context.yaml
    ");
    let said = prompt(&env, "/edge done");
    insta::assert_snapshot!(normalise(&env, &said), @"trail carried out the user's `/edge` command: Mode stays active: the quality gate failed: No steps marked completed; Very little activity observed. Junction j-[ID] is pending: fix what it says, or approve it to finish anyway.");
    let st = status(&env);
    assert_eq!(st["mode"], "active");
    assert_eq!(st["junction"]["type"], "quality_gate");
    let out = env.run(&["mode", "done"]);
    assert_eq!(code(&out), 1, "a failed quality gate is a failed check");
    insta::assert_snapshot!(normalise(&env, &stdout(&out)), @"Mode stays active: the quality gate failed: No steps marked completed; Very little activity observed. Junction j-[ID] is pending: fix what it says, or approve it to finish anyway.");
    let text = env.ok(&["status"]);
    assert!(
        text.contains("mode:      active") && text.contains("quality_gate"),
        "{text}"
    );
    assert_eq!(code(&env.run(&["mode", "sideways"])), 2);
}

#[test]
fn the_agents_edits_of_the_state_file_may_not_grant_anything() {
    let env = project();
    env.ok(&["mode", "active", "x"]);
    let path = env.cwd.join("active_context.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let edit = |old: &str, new: &str| {
        hook(
            &env,
            json!({"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Edit","tool_input":{"file_path":path,"old_string":old,"new_string":new}}),
        )
    };
    // Plan edits are the agent's to make (a warning about the missing plan aside).
    let ok = edit(
        "plan: []",
        "plan:\n  - description: parse\n    status: in_progress",
    );
    assert!(denied(&ok).is_none(), "{ok}");
    let grant = edit(
        "allowances: []",
        "allowances:\n  - fingerprint: \"abc\"\n    consumed: false",
    );
    insta::assert_snapshot!(normalise(&env, &denied(&grant).unwrap()), @"trail blocked this [self-approval]: it would grant an allowance abc — approvals are a person's act (`/edge approve` or `trail approve`), never the agent's. It will not run, whoever approves.");
    let broken = edit("mode: active", "mode: [");
    insta::assert_snapshot!(normalise(&env, &denied(&broken).unwrap()), @"trail refused this edit: it would leave active_context.yaml unreadable (line 5, column 7: expected string scalar). Keep it valid YAML.");
    let invalid = edit("mode: active", "mode: sideways");
    insta::assert_snapshot!(normalise(&env, &denied(&invalid).unwrap()), @"trail refused this edit: active_context.yaml would break its rules: mode `sideways` is not one of plan, active, review, done");
    let tamper = hook(
        &env,
        json!({"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":env.cwd.join(".trail/state/grants.jsonl"),"content":"{}"}}),
    );
    insta::assert_snapshot!(normalise(&env, &denied(&tamper).unwrap()), @"trail blocked this [state-tamper]: .trail/state holds trail's grants journal, pending junction and hashes; they are not the agent's to change. It will not run, whoever approves.");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "nothing was written"
    );
    // In active mode without a plan, an edit elsewhere is allowed with a warning.
    let w = hook(
        &env,
        json!({"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":env.cwd.join("src.rs"),"content":"x"}}),
    );
    assert!(denied(&w).is_none());
    assert!(
        w["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .contains("no plan"),
        "{w}"
    );
    // Writing outside the project needs a person.
    let out = hook(
        &env,
        json!({"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":env.home.join(".bashrc"),"content":"x"}}),
    );
    insta::assert_snapshot!(normalise(&env, &denied(&out).unwrap()), @"trail stopped this for a person's decision [write-outside-project]: this edit writes outside the project. Junction j-[ID] is pending. Do not retry or work around it. Tell the user what you want to run and why, and ask them to decide: they type `/edge approve` (runs this exact action once), or `/edge skip` (drop it) as their next prompt, or run `trail approve` in their own terminal. Retry only after they approved.");
}

#[test]
fn an_unreadable_state_file_is_reported_and_never_overwritten() {
    let env = project();
    let path = env.cwd.join("active_context.yaml");
    let bad = "schema_version: 4\nmode: plan\nplan: [\n";
    std::fs::write(&path, bad).unwrap();
    let out = env.run(&["status"]);
    assert_eq!(code(&out), 1);
    insta::assert_snapshot!(normalise(&env, &stderr(&out)), @r"
    error: [ROOT]/project/active_context.yaml: cannot be read as YAML: line 3, column 7: unclosed bracket '['
    hint: fix the file by hand (trail never overwrites a file it cannot read), then retry
    ");
    // The junction is trail's own record, not the view's: it is recorded, and the person can
    // still decide, while the broken file waits for them untouched.
    let why = denied(&bash(&env, "git push origin main")).unwrap();
    assert!(why.contains("Junction j-"), "{why}");
    assert!(
        denied(&bash(&env, "rm -rf /")).unwrap().contains("blocked"),
        "block still blocks"
    );
    assert!(bash(&env, "ls").is_null(), "allowed still allowed");
    assert_eq!(code(&env.run(&["mode", "plan"])), 1);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bad);
}

#[test]
fn stop_captures_and_archives_session_boundaries_are_recorded() {
    let env = project();
    env.ok(&["mode", "active", "write the parser"]);
    hook(
        &env,
        json!({"hook_event_name":"SessionStart","session_id":"s1","source":"startup"}),
    );
    for (i, ok) in [true, true, false].iter().enumerate() {
        let event = if *ok {
            "PostToolUse"
        } else {
            "PostToolUseFailure"
        };
        hook(
            &env,
            json!({"hook_event_name":event,"session_id":"s1","tool_name":"Edit","tool_input":{"file_path":env.cwd.join(format!("f{i}.rs")),"old_string":"a","new_string":"b"},"tool_response":{},"error":"boom"}),
        );
    }
    hook(
        &env,
        json!({"hook_event_name":"Stop","session_id":"s1","stop_hook_active":true}),
    );
    let st = status(&env);
    assert_eq!(st["observations"]["tools_used"]["Edit"], 3, "{st}");
    assert_eq!(
        st["observations"]["files_modified"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    // The failure became a pulse.
    let log = env.ok(&["log", "--limit", "5"]);
    assert!(log.contains("failed: Edit"), "{log}");

    // s1 never ended: the next session notices and says what it did.
    let v = hook(
        &env,
        json!({"hook_event_name":"SessionStart","session_id":"s2","source":"startup"}),
    );
    let ctx = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        ctx.contains("without a clean exit") && ctx.contains("f0.rs"),
        "{ctx}"
    );
    assert!(ctx.contains("objective: write the parser"), "{ctx}");
    hook(
        &env,
        json!({"hook_event_name":"SessionEnd","session_id":"s2","reason":"exit"}),
    );
    let log = env.ok(&["log", "--limit", "1"]);
    assert!(
        log.contains("handoff") && log.contains("session s2 ended (exit)"),
        "{log}"
    );

    // Done (after a person overrides the quality gate) archives at the next Stop.
    let _ = env.run(&["mode", "done"]);
    env.decide_in_terminal(&["approve"]);
    env.ok(&["mode", "done"]);
    hook(&env, json!({"hook_event_name":"Stop","session_id":"s3"}));
    let st = status(&env);
    assert_eq!(st["mode"], "plan");
    assert!(st["objective"].is_null());
    let archive = std::fs::read_to_string(env.cwd.join(".proof/archive.jsonl")).unwrap();
    assert!(archive.contains("write the parser"), "{archive}");
}

#[test]
fn the_attention_budget_speaks_when_the_band_changes() {
    let env = project();
    let transcript = env.root.join("t.jsonl");
    let line = |tokens: u64| {
        json!({"type":"assistant","uuid":format!("u{tokens}"),"message":{"id":format!("m{tokens}"),"role":"assistant","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":tokens,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}).to_string()
    };
    let ask = |env: &TestEnv| {
        let v = hook(
            env,
            json!({"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"go on","transcript_path":transcript}),
        );
        v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    // Zones count tokens added since the session's first answer (20k here).
    let mut text = format!("{}\n", line(20_000));
    std::fs::write(&transcript, &text).unwrap();
    assert_eq!(ask(&env), "", "green says nothing");
    text.push_str(&format!("{}\n", line(26_000)));
    std::fs::write(&transcript, &text).unwrap();
    assert!(ask(&env).contains("yellow"));
    assert_eq!(ask(&env), "", "said once per band");
    text.push_str(&format!("{}\n", line(36_000)));
    std::fs::write(&transcript, &text).unwrap();
    assert!(ask(&env).contains("MANDATORY"));
    assert!(ask(&env).contains("red"), "red repeats");
}

#[test]
fn a_writer_killed_mid_write_leaves_the_old_or_the_new_state_and_no_litter() {
    for point in trail_core::failpoint::STATE_POINTS {
        let env = project();
        env.ok(&["mode", "active", "first objective"]);
        let before = std::fs::read_to_string(env.cwd.join("active_context.yaml")).unwrap();
        let out = env
            .cmd(&["mode", "active", "second objective"])
            .env("TRAIL_FAILPOINT", point)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{point}: the failpoint did not fire");
        let after = std::fs::read_to_string(env.cwd.join("active_context.yaml")).unwrap();
        assert!(
            after == before || after.contains("objective: second objective"),
            "{point}: a partial state file:\n{after}"
        );
        // The next writer goes on, and sweeps what the dead one left.
        let st = status(&env);
        assert!(
            st["problems"].as_array().unwrap().is_empty(),
            "{point}: {st}"
        );
        env.ok(&["mode", "review"]);
        let litter: Vec<_> = files_under(&env.cwd)
            .into_iter()
            .filter(|p| p.to_string_lossy().contains(".tmp-"))
            .collect();
        assert!(litter.is_empty(), "{point}: {litter:?}");
        assert_eq!(status(&env)["mode"], "review");
    }
}

#[test]
fn a_mode_trail_does_not_know_is_shown_with_the_command_that_sets_one() {
    let env = project();
    std::fs::write(
        env.cwd.join("active_context.yaml"),
        "schema_version: 4\nmode: complete\n",
    )
    .unwrap();
    let problem = "mode `complete` is not one of plan, active, review, done (set one with \
                   `trail mode MODE`)";
    let out = env.ok(&["status"]);
    assert!(out.contains(&format!("problem:   {problem}\n")), "{out}");
    assert_eq!(status(&env)["problems"], json!([problem]));
}
