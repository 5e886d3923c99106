//! Durable append: trail's ledger vs SQLite (WAL, synchronous=FULL), same 1 KB records, one
//! fsync per record on both sides. One writer in-process, then 8 writer processes.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use trail_core::ledger::frame;
use trail_core::ledger::{Ledger, LedgerOptions};
use trail_core::time::Ts;

use crate::stats::{percentile, us};
use crate::{flag, records};

fn ledger(dir: &Path) -> Ledger {
    let mut o = LedgerOptions::new(dir.join("secrets"));
    o.rotate_bytes = u64::MAX;
    Ledger::open(dir.join("ledger"), o)
}

/// What keeping the anchored head costs: the same appends with and without it, interleaved.
fn anchor_overhead(dir: &Path, n: u64, rounds: u64) -> Result<(), String> {
    println!("## Anchor overhead ({n} records, {rounds} interleaved rounds, one writer)");
    let anchored = ledger(&dir.join("anchored"));
    let plain = {
        let d = dir.join("plain");
        let mut o = LedgerOptions::new(d.join("secrets"));
        o.rotate_bytes = u64::MAX;
        o.anchor = false;
        Ledger::open(d.join("ledger"), o)
    };
    let mut lat = [Vec::new(), Vec::new()];
    let mut total = [Duration::ZERO; 2];
    let per_round = n / rounds;
    for round in 0..rounds {
        for side in [round % 2, 1 - round % 2] {
            let l = if side == 0 { &anchored } else { &plain };
            let start = Instant::now();
            for i in 0..per_round {
                let t = Instant::now();
                l.append(payload(round * per_round + i).0)
                    .map_err(|e| e.to_string())?;
                lat[side as usize].push(t.elapsed());
            }
            total[side as usize] += start.elapsed();
        }
    }
    for l in &mut lat {
        l.sort();
    }
    println!("| | records/s | p50 | p99 |\n|---|---|---|---|");
    for (i, name) in ["anchored", "not anchored"].iter().enumerate() {
        println!(
            "| {name} | {:.0} | {} | {} |",
            lat[i].len() as f64 / total[i].as_secs_f64(),
            us(percentile(&lat[i], 0.5)),
            us(percentile(&lat[i], 0.99))
        );
    }
    println!(
        "\n**append time ratio anchored / not anchored: {:.3}×** (p50 {:.3}×)\n",
        total[0].as_secs_f64() / total[1].as_secs_f64(),
        percentile(&lat[0], 0.5).as_secs_f64() / percentile(&lat[1], 0.5).as_secs_f64()
    );
    Ok(())
}

fn sqlite(path: &Path) -> rusqlite::Connection {
    let c = rusqlite::Connection::open(path).unwrap();
    c.pragma_update(None, "journal_mode", "WAL").unwrap();
    c.pragma_update(None, "synchronous", "FULL").unwrap();
    c.busy_timeout(Duration::from_mins(1)).unwrap();
    c.execute_batch("CREATE TABLE IF NOT EXISTS pulses (ts TEXT NOT NULL, body TEXT NOT NULL)")
        .unwrap();
    c
}

/// The same payload for both: the record as trail serialises it (≈ 1 KB).
fn payload(i: u64) -> (trail_core::ledger::Record, String) {
    let r = records::record(i, Ts::now());
    let (bytes, _) = frame::encode(&r);
    (r, String::from_utf8(bytes).unwrap())
}

pub fn run(args: &[String]) -> Result<(), String> {
    let n = flag(args, "--records", 2000) as u64;
    let rounds = flag(args, "--rounds", 4) as u64;
    let dir = tempdir_in_target()?;
    anchor_overhead(&dir, n, rounds)?;
    if args.iter().any(|a| a == "--anchor-only") {
        let _ = std::fs::remove_dir_all(&dir);
        return Ok(());
    }
    println!(
        "## Durable append, one writer ({n} records of ~{} bytes, {rounds} interleaved rounds)",
        payload(0).1.len()
    );
    let l = ledger(&dir);
    let db = sqlite(&dir.join("peer.db"));
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    let (mut t_ours, mut t_theirs) = (Duration::ZERO, Duration::ZERO);
    let per_round = n / rounds;
    for round in 0..rounds {
        for side in [round % 2, 1 - round % 2] {
            let start = Instant::now();
            for i in 0..per_round {
                let (r, text) = payload(round * per_round + i);
                let t = Instant::now();
                if side == 0 {
                    l.append(r).map_err(|e| e.to_string())?;
                    ours.push(t.elapsed());
                } else {
                    db.execute(
                        "INSERT INTO pulses (ts, body) VALUES (?1, ?2)",
                        (r.ts.to_string(), text),
                    )
                    .map_err(|e| e.to_string())?;
                    theirs.push(t.elapsed());
                }
            }
            if side == 0 {
                t_ours += start.elapsed();
            } else {
                t_theirs += start.elapsed();
            }
        }
    }
    ours.sort();
    theirs.sort();
    let tp_ours = ours.len() as f64 / t_ours.as_secs_f64();
    let tp_theirs = theirs.len() as f64 / t_theirs.as_secs_f64();
    println!("| | records/s | p50 | p99 |\n|---|---|---|---|");
    println!(
        "| trail | {tp_ours:.0} | {} | {} |",
        us(percentile(&ours, 0.5)),
        us(percentile(&ours, 0.99))
    );
    println!(
        "| SQLite WAL FULL | {tp_theirs:.0} | {} | {} |",
        us(percentile(&theirs, 0.5)),
        us(percentile(&theirs, 0.99))
    );
    println!(
        "\n**throughput ratio trail / SQLite: {:.2}×** (goal ≥ 1.0)\n",
        tp_ours / tp_theirs
    );

    let writers = 8;
    let per = flag(args, "--per-writer", 250);
    println!("## Durable append, {writers} writer processes × {per} records");
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut results = [Duration::ZERO; 2];
    for round in 0..2 {
        for side in [round % 2, 1 - round % 2] {
            let kind = if side == 0 { "trail" } else { "sqlite" };
            let target = dir.join(format!("concurrent-{kind}-{round}"));
            std::fs::create_dir_all(&target).map_err(|e| e.to_string())?;
            if side == 1 {
                drop(sqlite(&target.join("peer.db")));
            }
            let start = Instant::now();
            let children: Vec<_> = (0..writers)
                .map(|w| {
                    Command::new(&me)
                        .args(["worker", kind, &per.to_string(), &w.to_string()])
                        .arg(&target)
                        .spawn()
                        .unwrap()
                })
                .collect();
            for mut c in children {
                let st = c.wait().map_err(|e| e.to_string())?;
                if !st.success() {
                    return Err(format!("{kind} worker failed: {st}"));
                }
            }
            results[side as usize] += start.elapsed();
        }
    }
    let total = (writers * per * 2) as f64;
    let tp_ours = total / results[0].as_secs_f64();
    let tp_theirs = total / results[1].as_secs_f64();
    println!(
        "| | records/s |\n|---|---|\n| trail | {tp_ours:.0} |\n| SQLite WAL FULL | {tp_theirs:.0} |"
    );
    println!(
        "\n**throughput ratio trail / SQLite: {:.2}×**\n",
        tp_ours / tp_theirs
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// One writer process: `worker <trail|sqlite> <records> <writer-id> <dir>`.
pub fn worker(args: &[String]) -> Result<(), String> {
    let kind = args.first().ok_or("worker kind")?;
    let n: u64 = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .ok_or("worker count")?;
    let id: u64 = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .ok_or("worker id")?;
    let dir = Path::new(args.get(3).ok_or("worker dir")?);
    if kind == "trail" {
        let l = ledger(dir);
        for i in 0..n {
            l.append(payload(id * 1_000_000 + i).0)
                .map_err(|e| e.to_string())?;
        }
    } else {
        let db = sqlite(&dir.join("peer.db"));
        for i in 0..n {
            let (r, text) = payload(id * 1_000_000 + i);
            db.execute(
                "INSERT INTO pulses (ts, body) VALUES (?1, ?2)",
                (r.ts.to_string(), text),
            )
            .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Benchmarks write to the project's disk (target/), not to a tmpfs: fsync must be real.
pub fn tempdir_in_target() -> Result<std::path::PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let base = me.parent().unwrap().join("bench-data");
    let dir = base.join(format!("run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    Ok(dir)
}
