//! `trail sync` against git itself, side by side in one run (issue 24):
//!
//! 1. the first sync of a 100 MB ledger to an empty bare remote, against `git add`, `git
//!    commit` and `git push` of the same file to another empty bare remote (and `git push`
//!    alone);
//! 2. an incremental sync of 10 new records, against making and pushing a one-file commit (and
//!    `git push` alone);
//! 3. `trail resume` with two other machines' 100 MB replicas beside the stream, against the
//!    same resume with none.
//!
//! Rounds alternate which side runs first; medians are reported, and each ratio is trail's
//! median over its peer's.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::flag;
use crate::resume::{Shape, generate};
use crate::stats::{median, ms};

fn run(c: &mut Command) -> Result<Duration, String> {
    let t = Instant::now();
    let out = c.output().map_err(|e| e.to_string())?;
    let took = t.elapsed();
    if !out.status.success() {
        return Err(format!(
            "{c:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(took)
}

fn git(dir: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C")
        .arg(dir)
        .env("GIT_AUTHOR_NAME", "bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.invalid")
        .env("GIT_COMMITTER_NAME", "bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.invalid");
    c
}

fn bare(path: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(path);
    run(Command::new("git")
        .args(["init", "--bare", "--quiet"])
        .arg(path))
    .map(drop)
}

fn trail(bin: &Path, home: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(bin);
    c.args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("TRAIL_HOME", home.join("ledger"))
        .env("TRAIL_SYNC_EVERY", "0s")
        .current_dir(home);
    c
}

/// A personal root whose stream is `mb` MB of generated records, syncing to `remote`.
fn ledger(home: &Path, mb: usize, remote: &Path) -> Result<(), String> {
    let stream = home.join("ledger").join("stream");
    std::fs::create_dir_all(&stream).map_err(|e| e.to_string())?;
    generate(&stream.join("pulses.log.md"), mb, Shape::SEALED)?;
    let sync = home.join("ledger").join("sync");
    std::fs::create_dir_all(&sync).map_err(|e| e.to_string())?;
    std::fs::write(sync.join("remote"), format!("{}\n", remote.display()))
        .map_err(|e| e.to_string())
}

/// Forget everything a sync left, so the next one is a first sync again.
fn forget_sync(home: &Path) {
    let sync = home.join("ledger").join("sync");
    for f in ["repo.git", "published.json", "status.json"] {
        let p = sync.join(f);
        let _ = std::fs::remove_dir_all(&p);
        let _ = std::fs::remove_file(&p);
    }
}

pub fn run_bench(args: &[String]) -> Result<(), String> {
    let mb = flag(args, "--mb", 100);
    let runs = flag(args, "--runs", 5);
    let small_runs = flag(args, "--small-runs", 30);
    let bin: PathBuf = crate::trail_bin()?;
    let dir = crate::append::tempdir_in_target()?;
    let home = dir.join("home");
    let remote = dir.join("remote.git");
    ledger(&home, mb, &remote)?;
    let stream = home.join("ledger/stream/pulses.log.md");
    let size = std::fs::metadata(&stream).map_err(|e| e.to_string())?.len();
    // The peer: a work tree holding the same bytes, pushed to a remote of its own.
    let work = dir.join("work");
    let peer_remote = dir.join("peer.git");
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    std::fs::copy(&stream, work.join("pulses.log.md")).map_err(|e| e.to_string())?;

    println!(
        "## First sync of a {} MB ledger ({runs} rounds, alternating)\n",
        size >> 20
    );
    let (mut first, mut peer_all, mut peer_push) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..runs {
        let mine = |first: &mut Vec<Duration>| -> Result<(), String> {
            forget_sync(&home);
            bare(&remote)?;
            first.push(run(&mut trail(&bin, &home, &["sync"]))?);
            Ok(())
        };
        let theirs = |all: &mut Vec<Duration>, push: &mut Vec<Duration>| -> Result<(), String> {
            let _ = std::fs::remove_dir_all(work.join(".git"));
            bare(&peer_remote)?;
            run(git(&work).args(["init", "--quiet"]))?;
            let add = run(git(&work).args(["add", "pulses.log.md"]))?;
            let commit = run(git(&work).args(["commit", "--quiet", "-m", "ledger"]))?;
            let p = run(git(&work)
                .args(["push", "--quiet"])
                .arg(&peer_remote)
                .arg("HEAD:refs/heads/main"))?;
            all.push(add + commit + p);
            push.push(p);
            Ok(())
        };
        alternating(
            round,
            || mine(&mut first),
            || theirs(&mut peer_all, &mut peer_push),
        )?;
    }
    let (f, pa, pp) = (
        median(&mut first),
        median(&mut peer_all),
        median(&mut peer_push),
    );
    println!("| | median |\n|---|---|");
    println!("| `trail sync`, first (publish, push, fetch) | {} |", ms(f));
    println!(
        "| `git add` + `git commit` + `git push` of the same file | {} |",
        ms(pa)
    );
    println!("| `git push` alone | {} |", ms(pp));
    println!(
        "\n**first sync / (add + commit + push): {:.2}×; / push alone: {:.2}× (goal ≤ 1.5×)**\n",
        ratio(f, pa),
        ratio(f, pp)
    );

    println!("## Incremental sync of 10 new records ({small_runs} rounds, alternating)\n");
    let (mut inc, mut one_all, mut one_push) = (Vec::new(), Vec::new(), Vec::new());
    let mut n = 0;
    for round in 0..small_runs {
        let mine = |inc: &mut Vec<Duration>, n: &mut usize| -> Result<(), String> {
            for _ in 0..10 {
                *n += 1;
                run(&mut trail(
                    &bin,
                    &home,
                    &[
                        "pulse",
                        "--proj",
                        "bench",
                        "--topic",
                        "sync",
                        "--summary",
                        &format!("incremental record {n}"),
                    ],
                ))?;
            }
            inc.push(run(&mut trail(&bin, &home, &["sync"]))?);
            Ok(())
        };
        let theirs = |all: &mut Vec<Duration>, push: &mut Vec<Duration>| -> Result<(), String> {
            let f = work.join("notes.txt");
            let mut text = std::fs::read_to_string(&f).unwrap_or_default();
            text.push_str(&format!("line {round}\n"));
            std::fs::write(&f, text).map_err(|e| e.to_string())?;
            let add = run(git(&work).args(["add", "notes.txt"]))?;
            let commit = run(git(&work).args(["commit", "--quiet", "-m", "one file"]))?;
            let p = run(git(&work)
                .args(["push", "--quiet"])
                .arg(&peer_remote)
                .arg("HEAD:refs/heads/main"))?;
            all.push(add + commit + p);
            push.push(p);
            Ok(())
        };
        alternating(
            round,
            || mine(&mut inc, &mut n),
            || theirs(&mut one_all, &mut one_push),
        )?;
    }
    let (i, oa, op) = (
        median(&mut inc),
        median(&mut one_all),
        median(&mut one_push),
    );
    println!("| | median |\n|---|---|");
    println!(
        "| `trail sync`, 10 new records (publish, push, fetch, take) | {} |",
        ms(i)
    );
    println!(
        "| `git add` + `git commit` + `git push` of a one-file change | {} |",
        ms(oa)
    );
    println!("| `git push` alone | {} |", ms(op));
    println!(
        "\n**incremental sync / (add + commit + push): {:.2}×; / push alone: {:.2}× (goal ≤ 2×)**\n",
        ratio(i, oa),
        ratio(i, op)
    );

    resume_across_machines(&bin, &dir, mb, small_runs)?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// `trail resume` with two other machines' replicas (`machines/<id>/stream/`) beside a stream,
/// against the same stream alone.
fn resume_across_machines(bin: &Path, dir: &Path, mb: usize, runs: usize) -> Result<(), String> {
    let one = dir.join("one");
    let three = dir.join("three");
    for home in [&one, &three] {
        let stream = home.join("ledger/stream");
        std::fs::create_dir_all(&stream).map_err(|e| e.to_string())?;
        generate(&stream.join("pulses.log.md"), mb, Shape::SEALED)?;
    }
    for id in ["00000000000000a1", "00000000000000b2"] {
        let stream = three.join("ledger/machines").join(id).join("stream");
        std::fs::create_dir_all(&stream).map_err(|e| e.to_string())?;
        generate(&stream.join("pulses.log.md"), mb, Shape::SEALED)?;
    }
    println!(
        "## `trail resume --level 3`: three machines' {mb} MB streams against one ({runs} rounds, alternating)\n"
    );
    let (mut single, mut merged) = (Vec::new(), Vec::new());
    for round in 0..runs {
        let a = || run(&mut trail(bin, &one, &["resume", "--level", "3"]));
        let b = || run(&mut trail(bin, &three, &["resume", "--level", "3"]));
        alternating(
            round,
            || a().map(|t| single.push(t)),
            || b().map(|t| merged.push(t)),
        )?;
    }
    let (s, m) = (median(&mut single), median(&mut merged));
    println!("| | median |\n|---|---|");
    println!("| one machine's stream | {} |", ms(s));
    println!("| three machines' streams, one timeline | {} |", ms(m));
    println!(
        "\n**three machines / one: {:.2}× (goal ≤ 2×)**\n",
        ratio(m, s)
    );
    Ok(())
}

/// Run `a` then `b` in even rounds and `b` then `a` in odd ones, so neither side always runs
/// right after the other's pages were faulted in.
fn alternating(
    round: usize,
    mut a: impl FnMut() -> Result<(), String>,
    mut b: impl FnMut() -> Result<(), String>,
) -> Result<(), String> {
    if round.is_multiple_of(2) {
        a()?;
        b()
    } else {
        b()?;
        a()
    }
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}
