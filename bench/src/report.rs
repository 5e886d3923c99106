//! `trail report --html` on a 100 MB stream against `trail verify` of the same stream: the
//! report reads every record once and folds it (issue 25: ≤ 2 s and ≤ 200 MB resident), the
//! verifier reads every record and checks its seal and link. Side by side, the order turned
//! every round; the full parse in-process is shown for scale.

use std::path::Path;
use std::time::Duration;

use crate::process::{Launcher, trail_env};
use crate::resume::{GeneratedLedger, Shape, generated_ledger};
use crate::stats::{median, ms};
use crate::{flag, trail_bin};

pub fn run(args: &[String]) -> Result<(), String> {
    let mb = flag(args, "--mb", 100);
    let runs = flag(args, "--runs", 7);
    // Started first, while this process is small (see `Launcher`).
    let mut l = Launcher::start()?;
    let bin = trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?.to_string();
    let GeneratedLedger {
        dir,
        generated: g,
        size,
        ..
    } = generated_ledger(mb, Shape::SEALED)?;
    let page = dir.join("report.html");
    let page_s = page.to_str().ok_or("non-UTF-8 path")?;
    let env = trail_env(&dir);
    let env: Vec<(&str, &Path)> = env.iter().map(|(k, v)| (*k, v.as_path())).collect();
    let report = [bin.as_str(), "report", "--html", page_s];
    let verify = [bin.as_str(), "verify"];
    println!(
        "## `trail report --html` on a {} MB stream of {} records (five projects)",
        size >> 20,
        g.records
    );
    // One pulse anchors the generated stream (a stream without an anchor fails verify), and
    // warms the page cache (and builds the index) for both.
    l.run(
        &env,
        &[
            bin.as_str(),
            "pulse",
            "--proj",
            "bench",
            "--intent",
            "continue",
            "--summary",
            "anchor the stream",
        ],
    )?;
    l.run(&env, &verify)?;
    let (mut rep, mut ver, mut rss, mut vrss) = (Vec::new(), Vec::new(), 0, 0);
    for round in 0..runs {
        let mut jobs = [true, false];
        jobs.rotate_left(round % 2);
        for is_report in jobs {
            if is_report {
                let (t, r) = l.run(&env, &report)?;
                rep.push(t);
                rss = rss.max(r);
            } else {
                let (t, r) = l.run(&env, &verify)?;
                ver.push(t);
                vrss = vrss.max(r);
            }
        }
    }
    let html = std::fs::metadata(&page).map_err(|e| e.to_string())?.len();
    let (m_rep, m_ver) = (median(&mut rep), median(&mut ver));
    println!("| | median | peak RSS |\n|---|---|---|");
    println!(
        "| `trail report --html` (whole process) | {} | {:.1} MB |",
        ms(m_rep),
        rss as f64 / 1024.0
    );
    println!(
        "| `trail verify` (whole process) | {} | {:.1} MB |",
        ms(m_ver),
        vrss as f64 / 1024.0
    );
    println!(
        "\n**report / verify: {:.2}×; report {} (goal ≤ 2 s), {:.1} MB resident (goal ≤ 200 MB), page {:.2} MB (goal: a few MB)**\n",
        ratio(m_rep, m_ver),
        ms(m_rep),
        rss as f64 / 1024.0,
        html as f64 / f64::from(1u32 << 20)
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}
