//! `trail blame` with real git (issue 25): an agent session, seen through the real hook binary,
//! edits two files and commits; a person edits one line and commits; blame attributes each
//! line. An amend keeps the link (git carries the note, `trail init` set `notes.rewriteRef`) and
//! blame says it was carried; a rewrite without it loses the link and blame says so; a note
//! someone forged, or one whose pulse is not in the stream, is reported and never believed.
//! The same through the real Claude Code CLI is in `claude_e2e.rs`.

use std::path::Path;
use trail_testkit::git::Git;

use serde_json::{Value, json};

use crate::common::{TestEnv, hook};

pub(crate) fn git(env: &TestEnv, args: &[&str]) -> String {
    git_with(env, args, &[])
}

fn write(env: &TestEnv, file: &str, text: &str) {
    std::fs::write(env.cwd.join(file), text).unwrap();
}

/// An edit the agent made: the file changed on disk (the tool did it), and PostToolUse reported.
fn agent_edit(env: &TestEnv, id: &str, file: &str, old: &str, new: &str) {
    let path = env.cwd.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(old), "{file} lacks {old:?}");
    std::fs::write(&path, text.replacen(old, new, 1)).unwrap();
    hook(
        env,
        json!({"hook_event_name":"PostToolUse","session_id":"agent-1","tool_use_id":id,"tool_name":"Edit",
               "tool_input":{"file_path":path,"old_string":old,"new_string":new},
               "tool_response":{"filePath":path}}),
    );
}

fn agent_write(env: &TestEnv, id: &str, file: &str, content: &str) {
    let path = env.cwd.join(file);
    std::fs::write(&path, content).unwrap();
    hook(
        env,
        json!({"hook_event_name":"PostToolUse","session_id":"agent-1","tool_use_id":id,"tool_name":"Write",
               "tool_input":{"file_path":path,"content":content},"tool_response":{"filePath":path}}),
    );
}

/// A commit by the agent's Bash tool: git runs it, then PostToolUse reports it.
fn agent_commit(env: &TestEnv, id: &str, message: &str) {
    let command = format!("git add -A && git commit -q -m '{message}'");
    git(env, &["add", "-A"]);
    git(env, &["commit", "-q", "-m", message]);
    hook(
        env,
        json!({"hook_event_name":"PostToolUse","session_id":"agent-1","tool_use_id":id,"tool_name":"Bash",
               "tool_input":{"command":command},"tool_response":{"stdout":"","stderr":"","interrupted":false}}),
    );
}

pub(crate) fn blame(env: &TestEnv, target: &str) -> Value {
    serde_json::from_str(&env.ok(&["blame", target, "--json"])).unwrap()
}

/// Each line's text and who it is from.
fn origins(b: &Value) -> Vec<(String, String)> {
    b["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["text"].as_str().unwrap().to_string(),
                l["origin"]["by"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub(crate) fn by(b: &Value, text: &str) -> String {
    origins(b)
        .into_iter()
        .find(|(t, _)| t == text)
        .unwrap_or_else(|| panic!("no line {text:?} in {b}"))
        .1
}

/// The project: a person's first commit, trail installed, an agent session that edits a
/// file, writes another and commits, then a person's edit of one line, committed.
fn history(env: &TestEnv) {
    git(env, &["init", "-q", "-b", "main"]);
    write(
        env,
        "app.py",
        "def total(items):\n    return sum(items)\n\nprint(total([1, 2]))\n",
    );
    git(env, &["add", "-A"]);
    git(env, &["commit", "-q", "-m", "first"]);
    env.ok(&["init"]);
    git(env, &["add", "-A"]);
    git(env, &["commit", "-q", "-m", "trail init"]);
    hook(
        env,
        json!({"hook_event_name":"SessionStart","session_id":"agent-1","source":"startup"}),
    );
    hook(
        env,
        json!({"hook_event_name":"UserPromptSubmit","session_id":"agent-1","prompt":"round the total to cents and add a helper"}),
    );
    agent_edit(
        env,
        "toolu_edit",
        "app.py",
        "    return sum(items)\n",
        "    return round(sum(items), 2)\n",
    );
    agent_write(
        env,
        "toolu_write",
        "money.py",
        "def cents(x):\n    return int(round(x * 100))\n",
    );
    agent_commit(env, "toolu_commit", "Round totals to cents");
    hook(
        env,
        json!({"hook_event_name":"Stop","session_id":"agent-1"}),
    );
    // The person's own edit of one line, committed without any agent.
    let text = std::fs::read_to_string(env.cwd.join("app.py")).unwrap();
    write(
        env,
        "app.py",
        &text.replace("print(total([1, 2]))", "print(total([1.005, 2]))"),
    );
    git(env, &["commit", "-q", "-am", "A person's example"]);
}

#[test]
fn blame_tells_the_agents_lines_from_a_persons_with_real_git() {
    let env = TestEnv::new();
    history(&env);
    // The Stop hook wrote the note on the agent's commit.
    let notes = git(&env, &["notes", "--ref", "refs/notes/trail", "list"]);
    assert_eq!(notes.lines().count(), 1, "{notes}");

    let app = blame(&env, "app.py");
    assert_eq!(by(&app, "    return round(sum(items), 2)"), "agent");
    assert_eq!(by(&app, "def total(items):"), "unknown");
    assert_eq!(by(&app, "print(total([1.005, 2]))"), "unknown");
    let money = blame(&env, "money.py");
    assert!(origins(&money).iter().all(|(_, o)| o == "agent"), "{money}");

    // The evidence: session, prompt, tool call, the pulse in the chain.
    let agent = app["commits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["note"]["state"] == "verified")
        .unwrap_or_else(|| panic!("no verified commit in {app}"));
    let n = &agent["evidence"];
    assert_eq!(n["session"], "agent-1");
    assert_eq!(n["tool_use_id"], "toolu_commit");
    assert_eq!(
        n["prompt"]["text"],
        "round the total to cents and add a helper"
    );
    let line = app["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["origin"]["by"] == "agent")
        .unwrap();
    assert_eq!(line["origin"]["tool_use_id"], "toolu_edit");
    // A person's commits say so.
    let person = app["commits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["summary"] == "A person's example")
        .unwrap();
    assert_eq!(person["note"]["state"], "none");

    // One line, and one commit, by name; the text says where the evidence is.
    let one = env.ok(&["blame", "app.py:2"]);
    // The text a person reads (issue 23: these were `.contains` checks of a word each).
    insta::assert_snapshot!(crate::snapshots::normalise_git(&env, &one), @r"
    app.py
        2  agent    [HEX]  Edit at [WHEN]                          return round(sum(items), 2)

    commit [HEX]  Pat Person: Round totals to cents
      made by the agent: session agent-1, tool call toolu_commit at [WHEN]
      prompt at [WHEN]: round the total to cents and add a helper
      command: git add -A && git commit -q -m 'Round totals to cents'
      the agent edited: app.py, money.py
      evidence: the note is signed by this machine's key ([HEX]); its pulse ([TS]) is in that machine's stream, sealed and linked, and the 0 record(s) after it up to the head are sealed and chained
    ");
    let head = git(&env, &["rev-parse", "HEAD~1"]);
    let c = blame(&env, head.trim());
    assert_eq!(c["commits"][0]["note"]["state"], "verified", "{c}");
}

#[test]
fn an_amend_keeps_the_link_and_a_rewrite_without_rewrite_ref_loses_it_honestly() {
    let env = TestEnv::new();
    history(&env);
    // The person amends their own last commit, then rebases the agent's commit's message: with
    // `notes.rewriteRef` (set by `trail init`) git carries the note.
    git(&env, &["reset", "-q", "--hard", "HEAD~1"]);
    git(
        &env,
        &[
            "commit",
            "-q",
            "--amend",
            "-m",
            "Round totals to cents (amended)",
        ],
    );
    let app = blame(&env, "app.py");
    assert_eq!(by(&app, "    return round(sum(items), 2)"), "agent");
    let amended = app["commits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["summary"] == "Round totals to cents (amended)")
        .unwrap();
    assert_eq!(amended["note"]["state"], "verified", "{app}");
    assert!(amended["carried_from"].is_string(), "{amended}");
    let text = env.ok(&["blame", "app.py:2"]);
    assert!(text.contains("git carried it"), "{text}");

    // Without it, the note stays on the old commit: the link is lost, and blame says trail
    // knows nothing of the new one.
    git(&env, &["config", "--unset-all", "notes.rewriteRef"]);
    git(
        &env,
        &["commit", "-q", "--amend", "-m", "Round totals again"],
    );
    let app = blame(&env, "app.py");
    assert_eq!(by(&app, "    return round(sum(items), 2)"), "unknown");
    let text = env.ok(&["blame", "app.py:2"]);
    assert!(
        text.contains("lost when the commit was rewritten"),
        "{text}"
    );
}

#[test]
fn a_rebase_carries_the_link_to_the_replayed_commit() {
    let env = TestEnv::new();
    history(&env);
    let before = git(&env, &["rev-parse", "HEAD~1"]).trim().to_string();
    // A teammate's commit lands below the agent's; the person rebases onto it.
    git(&env, &["checkout", "-q", "-b", "base", "HEAD~2"]);
    write(&env, "NEWS.md", "- totals now round to cents\n");
    git(&env, &["add", "NEWS.md"]);
    git(&env, &["commit", "-q", "-m", "news"]);
    git(&env, &["checkout", "-q", "main"]);
    git(&env, &["rebase", "-q", "base"]);
    let after = git(&env, &["rev-parse", "HEAD~1"]).trim().to_string();
    assert_ne!(before, after, "the rebase replayed nothing");
    let app = blame(&env, "app.py");
    assert_eq!(
        by(&app, "    return round(sum(items), 2)"),
        "agent",
        "{app}"
    );
    let replayed = app["commits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["commit"] == after.as_str())
        .unwrap_or_else(|| panic!("{after} not in {app}"));
    assert_eq!(replayed["note"]["state"], "verified");
    assert_eq!(replayed["carried_from"], before.as_str());
}

#[test]
fn a_forged_note_or_one_whose_pulse_is_not_in_the_stream_is_reported() {
    let env = TestEnv::new();
    history(&env);
    let person = git(&env, &["rev-parse", "HEAD"]).trim().to_string();
    let agent = git(&env, &["rev-parse", "HEAD~1"]).trim().to_string();
    let real = git(
        &env,
        &["notes", "--ref", "refs/notes/trail", "show", &agent],
    );

    // The agent's note copied onto the person's commit, claiming the lines: its signature covers
    // the commit it was written for, so the copy says it was carried; a changed copy fails.
    let mut forged: Value = serde_json::from_str(&real).unwrap();
    forged["session"] = json!("someone-else");
    git(
        &env,
        &[
            "notes",
            "--ref",
            "refs/notes/trail",
            "add",
            "-f",
            "-m",
            &forged.to_string(),
            &person,
        ],
    );
    let b = blame(&env, &person);
    assert_eq!(b["commits"][0]["note"]["state"], "forged", "{b}");
    assert!(
        b["commits"][0]["note"]["why"]
            .as_str()
            .unwrap()
            .contains("signature")
    );
    // Not JSON at all.
    git(
        &env,
        &[
            "notes",
            "--ref",
            "refs/notes/trail",
            "add",
            "-f",
            "-m",
            "made by the agent, trust me",
            &person,
        ],
    );
    let b = blame(&env, &person);
    assert_eq!(b["commits"][0]["note"]["state"], "forged", "{b}");
    let app = blame(&env, "app.py");
    assert_eq!(by(&app, "print(total([1.005, 2]))"), "unknown");

    // Another ledger is another machine, which the person never trusted here: not believed.
    let elsewhere = env.root.join("other-ledger");
    let b = blame_with_home(&env, &agent, &elsewhere);
    assert_eq!(b["commits"][0]["note"]["state"], "forged", "{b}");
    assert!(why(&b).contains("has not trusted"), "{b}");
    // The same machine's id, but a stream that does not hold the note's pulse: not believed.
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::copy(
        env.trail_home.join("machine-id"),
        elsewhere.join("machine-id"),
    )
    .unwrap();
    let b = blame_with_home(&env, &agent, &elsewhere);
    assert_eq!(b["commits"][0]["note"]["state"], "forged", "{b}");
    assert!(why(&b).contains("is not in machine"), "{b}");
}

fn why(b: &Value) -> &str {
    b["commits"][0]["note"]["why"].as_str().unwrap_or_default()
}

/// `trail blame TARGET --json` with the ledger at `trail_home`.
fn blame_with_home(env: &TestEnv, target: &str, trail_home: &Path) -> Value {
    let out = env
        .cmd(&["blame", target, "--json"])
        .env("TRAIL_HOME", trail_home)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Blame on another machine: a clone of the project (with its notes) on a machine with a ledger
/// of its own. The agent's note is not believed until the person trusts the machine that wrote
/// it and `trail sync` brought that machine's stream, where its pulse is (a trusted machine
/// whose stream lacks the pulse is the test above).
#[test]
fn another_machines_note_is_believed_once_trusted_and_synced() {
    use crate::sync::{machine_id, set_remote, sync, trust};
    let laptop = TestEnv::new();
    history(&laptop);
    let agent = git(&laptop, &["rev-parse", "HEAD~1"]).trim().to_string();
    let desktop = TestEnv::new();
    std::fs::remove_dir(&desktop.cwd).unwrap();
    git(
        &laptop,
        &["clone", "-q", ".", desktop.cwd.to_str().unwrap()],
    );
    git(
        &desktop,
        &["fetch", "-q", "origin", "refs/notes/trail:refs/notes/trail"],
    );
    let remote = laptop.root.join("ledger.git");
    git(&laptop, &["init", "-q", "--bare", remote.to_str().unwrap()]);
    set_remote(&laptop, &remote);
    set_remote(&desktop, &remote);
    sync(&laptop);
    sync(&desktop);

    let b = blame(&desktop, &agent);
    assert_eq!(b["commits"][0]["note"]["state"], "forged", "{b}");
    assert!(why(&b).contains(&machine_id(&laptop)), "{b}");
    assert!(why(&b).contains("--trust-machine"), "{b}");

    // Trusted, and synced (a sync may also have run by itself in the background).
    trust(&desktop, &laptop);
    sync(&desktop);
    let b = blame(&desktop, &agent);
    let note = &b["commits"][0]["note"];
    assert_eq!(note["state"], "verified", "{b}");
    assert_eq!(note["machine"], machine_id(&laptop).as_str(), "{b}");
    assert_eq!(note["here"], false, "{b}");
    let app = blame(&desktop, "app.py");
    assert_eq!(
        by(&app, "    return round(sum(items), 2)"),
        "agent",
        "{app}"
    );
    let text = desktop.ok(&["blame", &agent]);
    assert!(text.contains("the key you trusted for machine"), "{text}");
}

#[test]
fn a_note_whose_chain_was_changed_after_its_pulse_is_not_believed() {
    let env = TestEnv::new();
    history(&env);
    // Work goes on after the commit: a later pulse.
    env.ok(&[
        "pulse",
        "--proj",
        "app",
        "--intent",
        "continue",
        "--summary",
        "later work on boom",
    ]);
    let agent = git(&env, &["rev-parse", "HEAD~1"]).trim().to_string();
    let b = blame(&env, &agent);
    assert_eq!(b["commits"][0]["note"]["state"], "verified", "{b}");
    assert!(
        b["commits"][0]["note"]["chain"].as_u64().unwrap() >= 1,
        "{b}"
    );
    // Someone edits that later record in place: its seal no longer matches.
    let stream = env.stream();
    let text = std::fs::read_to_string(&stream).unwrap();
    let at = text.rfind("boom").expect("the later record");
    let mut bytes = text.into_bytes();
    bytes[at] = b'z';
    std::fs::write(&stream, bytes).unwrap();
    let b = blame(&env, &agent);
    assert_eq!(b["commits"][0]["note"]["state"], "forged", "{b}");
    assert!(
        b["commits"][0]["note"]["why"]
            .as_str()
            .unwrap()
            .contains("chain is broken"),
        "{b}"
    );
}

#[test]
fn blame_outside_git_or_of_nothing_says_what_to_do() {
    let env = TestEnv::new();
    let out = env.run(&["blame", "app.py"]);
    assert_eq!(crate::common::code(&out), 2);
    assert!(crate::common::stderr(&out).contains("git"));
    git(&env, &["init", "-q"]);
    let out = env.run(&["blame", "no-such-file-or-commit"]);
    assert_eq!(crate::common::code(&out), 2);
    let err = crate::common::stderr(&out);
    assert!(err.contains("FILE") || err.contains("commit"), "{err}");
    let _ = Path::new("");
}

/// git in the project as the person, with extra variables (the agent's shell has
/// `TRAIL_SESSION`; nothing else here does).
fn git_with(env: &TestEnv, args: &[&str], vars: &[(&str, &str)]) -> String {
    let mut git = Git::at(&env.cwd)
        .identity("Pat Person", "pat@example.invalid")
        .env("HOME", &env.home)
        .env_remove("TRAIL_SESSION");
    for (k, v) in vars {
        git = git.env(k, v);
    }
    let out = git.run(args);
    assert!(
        out.status.success(),
        "git {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // Untrimmed: tests read `git log` bodies whole.
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The optional `Trail-Session:` trailer, with real git: SessionStart hands the session to the
/// agent's shell through Claude Code's `CLAUDE_ENV_FILE`; the hook `trail init --trailer`
/// installed adds the trailer to the agent's commit and not to the person's; blame says whether
/// a trailer agrees with the signed note, and that one nothing backs is a claim only. Another
/// program's hook is left alone; `--no-trailer` and uninstall take trail's out.
#[test]
fn the_session_trailer_is_added_to_the_agents_commits_only_and_checked_against_the_note() {
    let env = TestEnv::new();
    git(&env, &["init", "-q", "-b", "main"]);
    write(&env, "app.py", "x = 1\n");
    git(&env, &["add", "-A"]);
    git(&env, &["commit", "-q", "-m", "first"]);
    let text = env.ok(&["init", "--trailer"]);
    assert!(
        text.contains("the Trail-Session trailer: installed git hook"),
        "{text}"
    );
    let hook_file = env.cwd.join(".git/hooks/prepare-commit-msg");
    assert!(hook_file.exists());
    git(&env, &["add", "-A"]);
    git(&env, &["commit", "-q", "-m", "trail init"]);

    // SessionStart writes the export line Claude Code runs ahead of each Bash command.
    let env_file = env.root.join("session-env.sh");
    let out = env
        .cmd(&["hook", "claude-code"])
        .env("CLAUDE_ENV_FILE", &env_file)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write as _;
            c.stdin.take().unwrap().write_all(
                json!({"hook_event_name":"SessionStart","session_id":"agent-7","source":"startup"})
                    .to_string()
                    .as_bytes(),
            )?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success());
    let exported = std::fs::read_to_string(&env_file).unwrap();
    assert_eq!(exported, "export TRAIL_SESSION='agent-7'\n");

    // The agent edits and commits from its shell, which has the variable.
    hook(
        &env,
        json!({"hook_event_name":"UserPromptSubmit","session_id":"agent-7","prompt":"bump x"}),
    );
    let path = env.cwd.join("app.py");
    std::fs::write(&path, "x = 2\n").unwrap();
    hook(
        &env,
        json!({"hook_event_name":"PostToolUse","session_id":"agent-7","tool_use_id":"t1","tool_name":"Write",
               "tool_input":{"file_path":path,"content":"x = 2\n"},"tool_response":{"filePath":path}}),
    );
    git(&env, &["add", "-A"]);
    git_with(
        &env,
        &["commit", "-q", "-m", "Bump x"],
        &[("TRAIL_SESSION", "agent-7")],
    );
    hook(
        &env,
        json!({"hook_event_name":"PostToolUse","session_id":"agent-7","tool_use_id":"t2","tool_name":"Bash",
               "tool_input":{"command":"git commit -q -m 'Bump x'"},"tool_response":{"stdout":"","stderr":"","interrupted":false}}),
    );
    hook(
        &env,
        json!({"hook_event_name":"Stop","session_id":"agent-7"}),
    );
    let message = git(&env, &["log", "-1", "--format=%B"]);
    assert!(message.contains("Trail-Session: agent-7"), "{message}");
    let b = blame(&env, "HEAD");
    assert_eq!(b["commits"][0]["note"]["state"], "verified", "{b}");
    assert_eq!(b["commits"][0]["trailer"]["session"], "agent-7", "{b}");
    assert_eq!(b["commits"][0]["trailer"]["agrees"], true, "{b}");

    // A person's commit gets none; one that claims a session has nothing behind it.
    write(&env, "app.py", "x = 3\n");
    git(&env, &["commit", "-q", "-am", "Person"]);
    assert!(!git(&env, &["log", "-1", "--format=%B"]).contains("Trail-Session"));
    write(&env, "app.py", "x = 4\n");
    git(
        &env,
        &["commit", "-q", "-am", "Claimed\n\nTrail-Session: agent-7"],
    );
    let b = blame(&env, "HEAD");
    assert_eq!(b["commits"][0]["note"]["state"], "none", "{b}");
    assert_eq!(b["commits"][0]["trailer"]["agrees"], Value::Null, "{b}");
    let text = env.ok(&["blame", "HEAD"]);
    assert!(text.contains("a claim only"), "{text}");

    // Off again; another program's hook is never touched.
    let text = env.ok(&["init", "--no-trailer"]);
    assert!(text.contains("removed git hook"), "{text}");
    assert!(!hook_file.exists());
    std::fs::write(&hook_file, "#!/bin/sh\necho theirs\n").unwrap();
    let out: Value = serde_json::from_str(&env.ok(&["init", "--trailer", "--json"])).unwrap();
    assert_eq!(out["trailer"]["state"], "taken", "{out}");
    assert!(
        out["trailer"]["add_line"]
            .as_str()
            .unwrap()
            .contains("Trail-Session")
    );
    env.ok(&["uninstall"]);
    assert_eq!(
        std::fs::read_to_string(&hook_file).unwrap(),
        "#!/bin/sh\necho theirs\n"
    );
    std::fs::remove_file(&hook_file).unwrap();
    env.ok(&["init", "--trailer"]);
    assert!(hook_file.exists());
    env.ok(&["uninstall"]);
    assert!(!hook_file.exists(), "uninstall takes trail's hook out");
}

#[test]
fn the_trailer_needs_a_git_repository_and_says_so_before_writing() {
    let env = TestEnv::new();
    let out = env.run(&["init", "--trailer"]);
    assert_eq!(
        crate::common::code(&out),
        2,
        "{}",
        crate::common::stderr(&out)
    );
    assert!(crate::common::stderr(&out).contains("git init"));
    assert!(!env.cwd.join(".claude").exists(), "nothing was written");
}
