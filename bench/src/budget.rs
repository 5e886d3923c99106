//! `trail budget` on a 50 MB transcript, the whole process, side by side with a full parse of
//! the same file: in-process (`conversation::parse`, the peer a budget that read everything
//! would cost, with nothing charged to it for starting) and as a whole process (`trail
//! transcript`, which answers from a full parse). Goal: at most 1 % of the in-process parse.
//! Each `trail budget` run is the command standing alone (no hook has measured the session), so
//! it also reads forward to the session's first answer.

use std::path::Path;
use std::time::Instant;

use trail_core::conversation;

use crate::flag;
use crate::stats::{median, ms};

pub fn run(args: &[String]) -> Result<(), String> {
    let mb = flag(args, "--mb", 50);
    let dir = crate::append::tempdir_in_target()?;
    let path = crate::transcript::big(&dir, mb)?;
    let size = std::fs::metadata(&path).map_err(|e| e.to_string())?.len();
    let project = dir.join("project");
    std::fs::create_dir_all(project.join(".git")).map_err(|e| e.to_string())?;
    let mut env = crate::process::trail_env(&dir);
    env.push(("CLAUDE_PROJECT_DIR", project));
    let env: Vec<(&str, &Path)> = env.iter().map(|(k, p)| (*k, p.as_path())).collect();
    let bin = crate::trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?.to_string();
    let t = path.to_str().ok_or("non-UTF-8 path")?.to_string();
    let budget_argv = [bin.as_str(), "budget", "--transcript", t.as_str(), "--json"];
    let parse_argv = [bin.as_str(), "transcript", t.as_str()];
    // The answer first: the budget's context must be the full parse's.
    let out = std::process::Command::new(&bin)
        .args(&budget_argv[1..])
        .env_clear()
        .envs(env.iter().map(|(k, v)| (*k, *v)))
        .output()
        .map_err(|e| e.to_string())?;
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("{e}: {}", String::from_utf8_lossy(&out.stderr)))?;
    let mut l = crate::process::Launcher::start()?;
    let (mut full, mut whole, mut budget) = (Vec::new(), Vec::new(), Vec::new());
    let mut parsed_context = None;
    for _ in 0..5 {
        let t0 = Instant::now();
        let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        let parsed = conversation::parse(&text);
        full.push(t0.elapsed());
        parsed_context = parsed.context_tokens;
        drop((text, parsed));
        whole.push(l.run(&env, &parse_argv)?.0);
        for _ in 0..10 {
            budget.push(l.run(&env, &budget_argv)?.0);
        }
    }
    let agree = v["context"].as_u64() == parsed_context;
    let (f, w, b) = (median(&mut full), median(&mut whole), median(&mut budget));
    println!("## `trail budget` on a {} MB transcript", size >> 20);
    println!(
        "| | median |\n|---|---|\n| `trail budget --json`, whole process | {} |\n\
         | full parse, in-process | {} |\n| `trail transcript` (a full parse), whole process | {} |",
        ms(b),
        ms(f),
        ms(w)
    );
    println!(
        "\n**trail budget = {:.3} % of a full parse in-process (goal ≤ 1 %), {:.3} % of one as a \
         whole process; context agrees: {agree} ({} tokens)**\n",
        100.0 * b.as_secs_f64() / f.as_secs_f64(),
        100.0 * b.as_secs_f64() / w.as_secs_f64(),
        v["context"]
    );
    let _ = std::fs::remove_dir_all(&dir);
    if !agree {
        return Err("trail budget and the full parse disagree on the context".into());
    }
    Ok(())
}
