//! What confinement costs one command (issue 19: "Overhead of confinement per command, measured
//! side by side"), in one loop, rotating the order each round:
//!
//! - `bash -c CMD`: how a host runs the agent's command today;
//! - `trail confine --project P -- CMD`: the same command as PreToolUse rewrites it (trail's
//!   start-up, its configuration, the policy, bubblewrap, then the shell);
//! - bubblewrap alone with the smallest policy (`--ro-bind / / --dev /dev`), the floor any
//!   bubblewrap-based confinement pays.
//!
//! CMD is `true` (the pure overhead) and `git status` in a small repository (a command an agent
//! runs all day). The project is a git repository with trail's directories, a HOME with a
//! secret store, and sockets under /tmp as on a workstation.

use std::path::Path;
use std::time::Duration;

use crate::process::{Launcher, trail_env};
use crate::stats::{median, ms};
use crate::{flag, trail_bin};

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = flag(args, "--runs", 200);
    let Some(bwrap) = ["/usr/bin/bwrap", "/usr/local/bin/bwrap"]
        .into_iter()
        .find(|p| Path::new(p).exists())
    else {
        return Err("bubblewrap is not installed (apt-get install bubblewrap)".into());
    };
    let dir = crate::append::tempdir_in_target()?;
    let home = dir.join("home");
    let project = dir.join("project");
    for d in [home.join(".secrets"), project.clone()] {
        std::fs::create_dir_all(&d).map_err(|e| e.to_string())?;
    }
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .output()
            .map_err(|e| e.to_string())
    };
    git(&["init", "-q"])?;
    for i in 0..50 {
        std::fs::write(project.join(format!("f{i}.txt")), format!("{i}\n"))
            .map_err(|e| e.to_string())?;
    }
    git(&["add", "-A"])?;
    git(&[
        "-c",
        "user.name=b",
        "-c",
        "user.email=b@b",
        "commit",
        "-qm",
        "bench",
    ])?;
    let bin = trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?.to_string();
    let p = project.to_str().ok_or("non-UTF-8 path")?.to_string();
    let mut env = trail_env(&home);
    env.push(("PWD", project.clone()));
    let env: Vec<(&str, &Path)> = env.iter().map(|(k, v)| (*k, v.as_path())).collect();
    let mut l = Launcher::start()?;
    for cmd in ["true", &format!("cd {p} && git status --short >/dev/null")] {
        let jobs: [(&str, Vec<String>); 3] = [
            ("bash -c", vec!["bash".into(), "-c".into(), cmd.to_string()]),
            (
                "trail confine",
                vec![
                    bin.clone(),
                    "confine".into(),
                    "--project".into(),
                    p.clone(),
                    "--".into(),
                    cmd.to_string(),
                ],
            ),
            (
                "bwrap --ro-bind / / --dev",
                vec![
                    bwrap.into(),
                    "--unshare-user".into(),
                    "--ro-bind".into(),
                    "/".into(),
                    "/".into(),
                    "--dev".into(),
                    "/dev".into(),
                    "--".into(),
                    "bash".into(),
                    "-c".into(),
                    cmd.to_string(),
                ],
            ),
        ];
        let mut times: Vec<Vec<Duration>> = vec![Vec::new(); jobs.len()];
        for round in 0..runs {
            for k in 0..jobs.len() {
                let i = (round + k) % jobs.len();
                let argv: Vec<&str> = jobs[i].1.iter().map(String::as_str).collect();
                let t = l.timed(&env, &argv)?;
                times[i].push(t.wall);
            }
        }
        let base = median(&mut times[0]);
        println!(
            "confine: `{}` ({runs} rounds, median wall time)",
            short(cmd)
        );
        for (i, (name, _)) in jobs.iter().enumerate() {
            let m = median(&mut times[i]);
            println!(
                "  {name:<22} {:>9}  {:.2}× bash -c  (+{})",
                ms(m),
                m.as_secs_f64() / base.as_secs_f64(),
                ms(m.saturating_sub(base)),
            );
        }
    }
    Ok(())
}

fn short(cmd: &str) -> &str {
    cmd.rsplit("&& ").next().unwrap_or(cmd)
}
