//! The current context size of a 50 MB transcript, read from the end, against a full parse.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use trail_core::transcript;

use crate::flag;
use crate::stats::{median, ms};

/// A transcript of `mb` MB in `dir`: real lines from the corpus, repeated with fresh message ids
/// until the file is big enough.
pub fn big(dir: &Path, mb: usize) -> Result<std::path::PathBuf, String> {
    let path = dir.join("session.jsonl");
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/trail-core/tests/data/transcripts/spotter_tool_heavy.jsonl");
    let lines: Vec<String> = std::fs::read_to_string(&src)
        .map_err(|e| format!("{}: {e}", src.display()))?
        .lines()
        .map(String::from)
        .collect();
    let mut w = std::io::BufWriter::new(std::fs::File::create(&path).map_err(|e| e.to_string())?);
    let (mut written, mut round) = (0usize, 0usize);
    while written < mb << 20 {
        for l in &lines {
            let l = l.replace("\"id\":\"msg_", &format!("\"id\":\"msg_r{round}_"));
            w.write_all(l.as_bytes()).map_err(|e| e.to_string())?;
            w.write_all(b"\n").map_err(|e| e.to_string())?;
            written += l.len() + 1;
        }
        round += 1;
    }
    w.flush().map_err(|e| e.to_string())?;
    Ok(path)
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mb = flag(args, "--mb", 50);
    let dir = crate::append::tempdir_in_target()?;
    let path = big(&dir, mb)?;
    let size = std::fs::metadata(&path).map_err(|e| e.to_string())?.len();
    let (mut full, mut tail) = (Vec::new(), Vec::new());
    let mut agree = true;
    for _ in 0..5 {
        let t = Instant::now();
        let whole = transcript::parse(&std::fs::read_to_string(&path).map_err(|e| e.to_string())?);
        full.push(t.elapsed());
        for _ in 0..20 {
            let t = Instant::now();
            let c = transcript::context_tokens(&path).map_err(|e| e.to_string())?;
            tail.push(t.elapsed());
            agree &= c == whole.context_tokens;
        }
    }
    let (f, t) = (median(&mut full), median(&mut tail));
    println!("## Current context size of a {} MB transcript", size >> 20);
    println!(
        "| | median |\n|---|---|\n| read from the end | {} |\n| full parse | {} |",
        ms(t),
        ms(f)
    );
    println!(
        "\n**tail read = {:.3} % of a full parse (goal ≤ 1 %); results agree: {agree}**\n",
        100.0 * t.as_secs_f64() / f.as_secs_f64()
    );
    if !agree {
        return Err("the tail read and the full parse disagree".into());
    }

    // Flushing a 5 MB transcript to daily memory, as the whole `trail memory flush` process.
    let five = dir.join("five.jsonl");
    {
        let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        let cut = text[..(5 << 20).min(text.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        std::fs::write(&five, &text[..cut]).map_err(|e| e.to_string())?;
    }
    let bin = crate::trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?.to_string();
    let five_s = five.to_str().ok_or("non-UTF-8 path")?.to_string();
    let mut l = crate::process::Launcher::start()?;
    let mut flushes = Vec::new();
    for i in 0..10 {
        // A fresh project each time, so every run really writes its block.
        let project = dir.join(format!("p{i}"));
        std::fs::create_dir_all(project.join(".git")).map_err(|e| e.to_string())?;
        let mut env = crate::process::trail_env(&dir);
        env.push(("CLAUDE_PROJECT_DIR", project));
        let env: Vec<(&str, &Path)> = env.iter().map(|(k, p)| (*k, p.as_path())).collect();
        flushes.push(
            l.run(&env, &[&bin, "memory", "flush", "--transcript", &five_s])?
                .0,
        );
    }
    let m = median(&mut flushes);
    println!(
        "## `trail memory flush` of a 5 MB transcript, whole process\n\n**median {} (goal ≤ 100 ms)**\n",
        ms(m)
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
