//! `trail memory verify` on a 500-bullet MEMORY.md against 30 daily files of 200 KB, as a whole
//! process (goal ≤ 200 ms).

use std::fmt::Write as _;
use std::path::Path;

use crate::flag;
use crate::process::{Launcher, trail_env};
use crate::stats::{median, ms};

const TOPICS: &[&str] = &[
    "checkout", "billing", "search", "auth", "ingest", "reports", "cache", "deploy",
];

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = flag(args, "--runs", 15);
    let mut l = Launcher::start()?;
    let dir = crate::append::tempdir_in_target()?;
    let project = dir.join("project");
    let mem = project.join(".trail").join("memory");
    std::fs::create_dir_all(&mem).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(project.join(".git")).map_err(|e| e.to_string())?;
    let mut bullets = String::from("## Facts\n");
    let mut n = 0u64;
    for day in 1..=30 {
        let name = format!("2026-10-{day:02}.md");
        let mut text = format!("# Daily Memory: 2026-10-{day:02}\n\n");
        let mut line = 3;
        while text.len() < 200 * 1024 {
            let t = TOPICS[(n % 8) as usize];
            let _ = writeln!(
                text,
                "- The {t} service handles request batch {n} in src/{t}/worker_{}.rs with limit {}",
                n % 97,
                n * 7 % 1000
            );
            line += 1;
            if n.is_multiple_of(130) && bullets.lines().count() < 501 {
                let _ = writeln!(
                    bullets,
                    "- The {t} service handles request batch {n} in src/{t}/worker_{}.rs with limit {} (src: memory/{name}#L{line})",
                    n % 97,
                    n * 7 % 1000
                );
            }
            n += 1;
        }
        std::fs::write(mem.join(&name), text).map_err(|e| e.to_string())?;
    }
    let count = bullets.lines().count() - 1;
    std::fs::write(project.join(".trail").join("MEMORY.md"), &bullets)
        .map_err(|e| e.to_string())?;
    let bin = crate::trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?.to_string();
    let mut env = trail_env(&dir);
    env.push(("CLAUDE_PROJECT_DIR", project.clone()));
    let env: Vec<(&str, &Path)> = env.iter().map(|(k, p)| (*k, p.as_path())).collect();
    let mut times = Vec::new();
    for _ in 0..runs {
        times.push(l.run(&env, &[&bin, "memory", "verify", "--json"])?.0);
    }
    let m = median(&mut times);
    println!(
        "## `trail memory verify`: {count} bullets against 30 daily files of 200 KB, whole process\n\n**median {} (goal ≤ 200 ms)**\n",
        ms(m)
    );
    if std::env::var_os("TRAIL_BENCH_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir);
    } else {
        eprintln!("kept {}", dir.display());
    }
    Ok(())
}
