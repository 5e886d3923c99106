//! `trail blame` of a 1,000-line file against `git blame` of the same file (issue 25: ≤ 2×),
//! and the PostToolUse cost of recording an agent's commit for it against a plain PostToolUse
//! (the hook budget: ≤ 3 ms, ≤ 4 MB). The history is made through the real hooks: 20 agent
//! commits (an edit's PostToolUse, `git commit`, the commit's PostToolUse, Stop writing the
//! note) between 10 commits of a person's, over one file.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::process::{Launcher, trail_env};
use crate::stats::{median, ms};
use crate::{flag, trail_bin};

fn git(proj: &Path, args: &[&str]) -> Result<(), String> {
    let ok = Command::new("git")
        .arg("-C")
        .arg(proj)
        .args(args)
        .env("GIT_AUTHOR_NAME", "Pat")
        .env("GIT_AUTHOR_EMAIL", "pat@example.invalid")
        .env("GIT_COMMITTER_NAME", "Pat")
        .env("GIT_COMMITTER_EMAIL", "pat@example.invalid")
        .stdout(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?
        .success();
    if ok {
        Ok(())
    } else {
        Err(format!("git {args:?} failed"))
    }
}

fn hook(bin: &str, dir: &Path, proj: &Path, payload: &serde_json::Value) -> Result<(), String> {
    let mut c = Command::new(bin)
        .args(["hook", "claude-code"])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .envs(trail_env(dir))
        .env("CLAUDE_PROJECT_DIR", proj)
        .current_dir(proj)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    c.stdin
        .take()
        .ok_or("no stdin")?
        .write_all(payload.to_string().as_bytes())
        .map_err(|e| e.to_string())?;
    c.wait().map_err(|e| e.to_string())?;
    Ok(())
}

fn line(i: usize, v: &str) -> String {
    format!(
        "    let value_{i} = compute_{v}(inputs[{i}], {}) + offset;",
        i % 7
    )
}

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = flag(args, "--runs", 21);
    let hook_runs = flag(args, "--hook-runs", 100);
    let mut l = Launcher::start()?;
    let bin = trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?.to_string();
    let dir = crate::append::tempdir_in_target()?;
    let proj = dir.join("proj");
    std::fs::create_dir_all(&proj).map_err(|e| e.to_string())?;
    git(&proj, &["init", "-q", "-b", "main"])?;
    let file = proj.join("big.rs");
    let mut lines: Vec<String> = (0..1000).map(|i| line(i, "base")).collect();
    let save = |lines: &[String]| std::fs::write(&file, lines.join("\n") + "\n");
    save(&lines).map_err(|e| e.to_string())?;
    git(&proj, &["add", "-A"])?;
    git(&proj, &["commit", "-q", "-m", "first"])?;
    let init = Command::new(&bin)
        .arg("init")
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .envs(trail_env(&dir))
        .current_dir(&proj)
        .output()
        .map_err(|e| e.to_string())?;
    if !init.status.success() {
        return Err(format!(
            "trail init: {}",
            String::from_utf8_lossy(&init.stderr)
        ));
    }
    git(&proj, &["add", "-A"])?;
    git(&proj, &["commit", "-q", "-m", "trail init"])?;
    let path = file.to_str().ok_or("non-UTF-8 path")?;
    for k in 0..30 {
        let start = (k * 33) % 990;
        let agent = k % 3 != 2;
        let old = lines[start..start + 10].join("\n");
        for (i, l) in lines.iter_mut().enumerate().skip(start).take(10) {
            *l = line(i, &format!("v{k}"));
        }
        save(&lines).map_err(|e| e.to_string())?;
        if agent {
            let new = lines[start..start + 10].join("\n");
            hook(
                &bin,
                &dir,
                &proj,
                &serde_json::json!({"hook_event_name":"PostToolUse","session_id":"bench","cwd":proj,"tool_use_id":format!("toolu_e{k}"),"tool_name":"Edit","tool_input":{"file_path":path,"old_string":old,"new_string":new},"tool_response":{"filePath":path}}),
            )?;
        }
        git(&proj, &["commit", "-q", "-am", &format!("change {k}")])?;
        if agent {
            hook(
                &bin,
                &dir,
                &proj,
                &serde_json::json!({"hook_event_name":"PostToolUse","session_id":"bench","cwd":proj,"tool_use_id":format!("toolu_c{k}"),"tool_name":"Bash","tool_input":{"command":format!("git commit -q -am 'change {k}'")},"tool_response":{"stdout":"","stderr":"","interrupted":false}}),
            )?;
            hook(
                &bin,
                &dir,
                &proj,
                &serde_json::json!({"hook_event_name":"Stop","session_id":"bench","cwd":proj}),
            )?;
        }
    }
    let env = trail_env(&dir);
    let mut env: Vec<(&str, &Path)> = env.iter().map(|(k, v)| (*k, v.as_path())).collect();
    env.push(("CWD", proj.as_path()));
    let proj_s = proj.to_str().ok_or("non-UTF-8 path")?;
    let trail_blame = [bin.as_str(), "blame", "big.rs"];
    let git_blame = ["/usr/bin/git", "-C", proj_s, "blame", "big.rs"];
    println!("## `trail blame` of a 1,000-line file with 30 commits (20 the agent's, noted)");
    l.run(&env, &trail_blame)?;
    let (mut tb, mut gb, mut rss) = (Vec::new(), Vec::new(), 0);
    for round in 0..runs {
        let mut order = [true, false];
        order.rotate_left(round % 2);
        for is_trail in order {
            if is_trail {
                let (t, r) = l.run(&env, &trail_blame)?;
                tb.push(t);
                rss = rss.max(r);
            } else {
                gb.push(l.run(&env, &git_blame)?.0);
            }
        }
    }
    let (m_t, m_g) = (median(&mut tb), median(&mut gb));
    println!("| | median |\n|---|---|");
    println!("| `trail blame big.rs` (whole process) | {} |", ms(m_t));
    println!("| `git blame big.rs` (whole process) | {} |", ms(m_g));
    println!(
        "\n**trail blame / git blame: {:.2}× (goal ≤ 2×); peak RSS {:.1} MB**\n",
        ratio(m_t, m_g),
        rss as f64 / 1024.0
    );

    // The hook: PostToolUse of a commit (HEAD read from git's files, a pulse, a journal line)
    // against PostToolUse of a plain command, in the same project.
    let commit = dir.join("post-commit.json");
    let plain = dir.join("post-plain.json");
    let payload = |command: &str| {
        serde_json::json!({"hook_event_name":"PostToolUse","session_id":"bench","cwd":proj,"tool_use_id":"toolu_x","tool_name":"Bash","tool_input":{"command":command},"tool_response":{"stdout":"ok","stderr":"","interrupted":false}}).to_string()
    };
    std::fs::write(&commit, payload("git commit -q -am 'change'")).map_err(|e| e.to_string())?;
    std::fs::write(&plain, payload("cargo test")).map_err(|e| e.to_string())?;
    let hook_argv = [bin.as_str(), "hook", "claude-code"];
    let mut e_commit = env.clone();
    e_commit.push(("CLAUDE_PROJECT_DIR", proj.as_path()));
    let mut e_plain = e_commit.clone();
    e_commit.push(("STDIN", commit.as_path()));
    e_plain.push(("STDIN", plain.as_path()));
    let (mut hc, mut hp, mut hrss) = (Vec::new(), Vec::new(), 0);
    for round in 0..hook_runs {
        let mut order = [true, false];
        order.rotate_left(round % 2);
        for is_commit in order {
            if is_commit {
                let (t, r) = l.run(&e_commit, &hook_argv)?;
                hc.push(t);
                hrss = hrss.max(r);
            } else {
                hp.push(l.run(&e_plain, &hook_argv)?.0);
            }
        }
    }
    let (m_c, m_p) = (median(&mut hc), median(&mut hp));
    println!("| | median |\n|---|---|");
    println!(
        "| PostToolUse of `git commit` (records the link) | {} |",
        ms(m_c)
    );
    println!(
        "| PostToolUse of `cargo test` (a proof line) | {} |",
        ms(m_p)
    );
    println!(
        "\n**PostToolUse of a commit {} = {:.2}× a plain one (goal ≤ 3 ms); peak RSS {:.1} MB (goal ≤ 4 MB)**\n",
        ms(m_c),
        ratio(m_c, m_p),
        hrss as f64 / 1024.0
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}
