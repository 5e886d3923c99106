//! Durable append: trail's ledger vs SQLite (WAL, synchronous=FULL), same 1 KB records, each
//! acknowledged only once durable. One writer in-process (one fsync per record on both sides),
//! then 8 writer processes (trail's writers share fsyncs: group commit).

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
    if args.iter().any(|a| a == "--concurrent-only") {
        let r = concurrent(&dir, args);
        let _ = std::fs::remove_dir_all(&dir);
        return r;
    }
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

    concurrent(&dir, args)?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// 8 writer processes at once, each appending `--per-writer` records, trail and SQLite taking
/// turns for `--concurrent-rounds` rounds. Parallel sessions and subagents pulse at once; trail
/// shares fsyncs between them (group commit, `ledger/group.rs`), SQLite holds its write lock
/// through each commit's fsync.
fn concurrent(dir: &Path, args: &[String]) -> Result<(), String> {
    let writers = 8;
    let per = flag(args, "--per-writer", 250);
    let rounds = flag(args, "--concurrent-rounds", 4);
    println!(
        "## Durable append, {writers} writer processes × {per} records ({rounds} interleaved \
         rounds)"
    );
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut results = [Duration::ZERO; 2];
    let mut ratios = Vec::new();
    let mut fsyncs = 0u64;
    for round in 0..rounds {
        let mut took = [Duration::ZERO; 2];
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
                        .stdout(std::process::Stdio::piped())
                        .spawn()
                        .map_err(|e| e.to_string())
                })
                .collect::<Result<_, _>>()?;
            for c in children {
                let out = c.wait_with_output().map_err(|e| e.to_string())?;
                if !out.status.success() {
                    return Err(format!("{kind} worker failed: {}", out.status));
                }
                fsyncs += String::from_utf8_lossy(&out.stdout)
                    .trim()
                    .strip_prefix("fsynced ")
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or(0);
            }
            took[side] = start.elapsed();
            results[side] += took[side];
            if side == 0 {
                whole(&target, writers * per)?;
            }
        }
        ratios.push(took[1].as_secs_f64() / took[0].as_secs_f64());
    }
    let total = (writers * per * rounds) as f64;
    let tp_ours = total / results[0].as_secs_f64();
    let tp_theirs = total / results[1].as_secs_f64();
    ratios.sort_by(f64::total_cmp);
    println!(
        "| | records/s |\n|---|---|\n| trail | {tp_ours:.0} ({:.2} fsyncs per record) |\n\
         | SQLite WAL FULL | {tp_theirs:.0} |",
        fsyncs as f64 / total
    );
    println!(
        "\n**throughput ratio trail / SQLite, {writers} writers: {:.2}×** (goal ≥ 1.0; per round \
         {})\n",
        tp_ours / tp_theirs,
        ratios
            .iter()
            .map(|r| format!("{r:.2}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}

/// A figure is only worth reporting for a stream that holds every record, sealed and chained.
fn whole(dir: &Path, records: usize) -> Result<(), String> {
    let report = ledger(dir)
        .verify(&mut |_, _| {})
        .map_err(|e| e.to_string())?;
    if report.records != records || !report.findings.is_empty() {
        return Err(format!(
            "the writers' stream is not whole: {} records of {records}, {:?}",
            report.records, report.findings
        ));
    }
    Ok(())
}

/// One writer process: `worker <trail|sqlite> <records> <writer-id> <dir>`. A trail worker
/// prints how many of its records its own fsync made durable (`fsynced N`).
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
        let mut fsynced = 0;
        for i in 0..n {
            let done = l
                .append(payload(id * 1_000_000 + i).0)
                .map_err(|e| e.to_string())?;
            fsynced += u64::from(done.fsynced);
        }
        println!("fsynced {fsynced}");
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
