//! `trail log --since <the last minute>` on a 100 MB stream against `tail -c 600000` of the same
//! file: finding recent records through the index should cost about what reading the end of the
//! file does, however long the stream has grown.

use std::path::Path;

use trail_core::time::Ts;

use crate::process::{Launcher, trail_env};
use crate::resume::{GeneratedLedger, Shape, generated_ledger};
use crate::stats::{median, ms};
use crate::{flag, trail_bin};

pub fn run(args: &[String]) -> Result<(), String> {
    let mb = flag(args, "--mb", 100);
    let runs = flag(args, "--runs", 40);
    // Started first, while this process is small (see `Launcher`).
    let mut l = Launcher::start()?;
    let bin = trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?.to_string();
    let GeneratedLedger {
        dir,
        stream,
        generated: g,
        size,
    } = generated_ledger(mb, Shape::SEALED)?;
    let since = Ts::from_micros(g.last.as_micros() - 60_000_000).to_string();
    let env = trail_env(&dir);
    let env: Vec<(&str, &Path)> = env.iter().map(|(k, v)| (*k, v.as_path())).collect();
    let stream_s = stream.to_str().ok_or("non-UTF-8 path")?;
    let argv = [bin.as_str(), "log", "--since", &since];
    println!(
        "## `trail log --since <the last minute>` on a {} MB stream of {} records",
        size >> 20,
        g.records
    );
    // The stream was written without trail, so there is no index yet: the first reader builds
    // it (and warms the page cache for everyone). Timed on its own.
    let (first, _) = l.run(&env, &argv)?;
    let indexed = stream.with_extension("md.idx.json").exists();
    let (mut log, mut tail, mut rss) = (Vec::new(), Vec::new(), 0);
    for _ in 0..runs {
        let (t, r) = l.run(&env, &argv)?;
        log.push(t);
        rss = rss.max(r);
        let (t, _) = l.run(&[], &["/usr/bin/tail", "-c", "600000", stream_s])?;
        tail.push(t);
    }
    let (m_log, m_tail) = (median(&mut log), median(&mut tail));
    println!("| | median |\n|---|---|");
    println!(
        "| `trail log --since {since}` (whole process) | {} |",
        ms(m_log)
    );
    println!("| `tail -c 600000` (whole process) | {} |", ms(m_tail));
    println!(
        "| the first `trail log --since` ({}) | {} |",
        if indexed {
            "it builds the index"
        } else {
            "no index was built"
        },
        ms(first)
    );
    println!(
        "\n**log --since / tail: {:.2}× (goal ≤ 2×); peak RSS {:.1} MB**\n",
        m_log.as_secs_f64() / m_tail.as_secs_f64(),
        rss as f64 / 1024.0
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
