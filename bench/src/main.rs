//! Side-by-side benchmarks: each figure is trail and its peer measured in the same run,
//! interleaved, and reported as a ratio (absolute times drift on a shared machine).
//!
//! ```text
//! cargo build --release --workspace
//! target/release/trail-bench all          # or: append | resume | log | pulse | session | ground | search …
//! ```

#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    reason = "benchmarks convert small counts, offsets and clock readings"
)]
#![allow(
    clippy::too_many_lines,
    reason = "a benchmark's run reads top to bottom: set up, measure side by side, print"
)]

mod append;
mod blame;
mod budget;
mod confine;
mod ground;
mod hook;
mod log;
mod memory;
mod process;
mod records;
mod redact;
mod report;
mod resume;
mod search;
mod session;
mod stats;
mod sync;
mod transcript;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("all", String::as_str);
    let result = match what {
        "append" => append::run(&args[1..]),
        "resume" => resume::run(&args[1..]),
        "log" => log::run(&args[1..]),
        "pulse" => process::run(&args[1..]),
        "hook" => hook::run(&args[1..]),
        "transcript" => transcript::run(&args[1..]),
        "budget" => budget::run(&args[1..]),
        "memory" => memory::run(&args[1..]),
        "redact" => redact::run(&args[1..]),
        "search" => search::run(&args[1..]),
        "session" => session::run(&args[1..]),
        "ground" => ground::run(&args[1..]),
        "confine" => confine::run(&args[1..]),
        "sync" => sync::run_bench(&args[1..]),
        "report" => report::run(&args[1..]),
        "blame" => blame::run(&args[1..]),
        "all" => append::run(&[])
            .and_then(|()| resume::run(&[]))
            .and_then(|()| log::run(&[]))
            .and_then(|()| process::run(&[]))
            .and_then(|()| hook::run(&[]))
            .and_then(|()| session::run(&[]))
            .and_then(|()| transcript::run(&[]))
            .and_then(|()| budget::run(&[]))
            .and_then(|()| ground::run(&[]))
            .and_then(|()| memory::run(&[]))
            .and_then(|()| search::run(&[]))
            .and_then(|()| confine::run(&[]))
            .and_then(|()| sync::run_bench(&[]))
            .and_then(|()| report::run(&[]))
            .and_then(|()| blame::run(&[])),
        // A stream to look at or profile: `gen PATH MB [sealed|bursty|plain]`.
        "gen" => match (
            args.get(1),
            args.get(2).and_then(|m| m.parse().ok()),
            resume::Shape::named(args.get(3).map_or("sealed", String::as_str)),
        ) {
            (Some(path), Some(mb), Some(shape)) => {
                resume::generate(std::path::Path::new(path), mb, shape).map(|g| {
                    println!(
                        "{} records written to {path}, the last at {}",
                        g.records, g.last
                    );
                })
            }
            _ => Err("usage: trail-bench gen PATH MB [sealed|bursty|plain]".into()),
        },
        // Internal: runs measured commands from a small process (see process::Launcher).
        "launcher" => process::launcher(),
        // Internal: one cold redaction (see redact::run).
        "redact-child" => redact::child(&args[1..]),
        // Internal: a writer process of the concurrent append benchmark.
        "worker" => append::worker(&args[1..]),
        other => Err(format!(
            "unknown benchmark `{other}`: use append, resume, log, pulse, hook, session, transcript, budget, ground, memory, redact, search, confine, sync, report, blame or all"
        )),
    };
    if let Err(e) = result {
        eprintln!("trail-bench: {e}");
        std::process::exit(1);
    }
}

/// The `trail` binary built next to this one (`cargo build --release --workspace`), as an
/// install would place it: copied to a file of its own (`bench-data/installed/trail`).
/// Measured as the linker left it (the file cargo hard-links into `release/`), the same bytes
/// started about 0.2 ms slower than a copy of them, in every slot of a loop; `cargo install`
/// copies, so that is what is measured.
pub fn trail_bin() -> Result<std::path::PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin = me.with_file_name("trail");
    if !bin.exists() {
        return Err(format!(
            "{} not found: run `cargo build --release --workspace` first",
            bin.display()
        ));
    }
    let dir = me.with_file_name("bench-data").join("installed");
    let installed = dir.join("trail");
    let stale = |p: &std::path::Path| {
        let m = |p: &std::path::Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        m(p) < m(&bin)
            || std::fs::metadata(p).map(|m| m.len()).ok()
                != std::fs::metadata(&bin).map(|m| m.len()).ok()
    };
    if stale(&installed) {
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        // Copied beside, then renamed: a run that stops halfway leaves no half binary.
        let tmp = dir.join(format!(".trail.{}", std::process::id()));
        std::fs::copy(&bin, &tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &installed).map_err(|e| format!("{}: {e}", installed.display()))?;
    }
    from_disk(&installed)?;
    Ok(installed)
}

/// Leaves `path` in the page cache as a binary read back from disk is (after a reboot, or once
/// memory pressure evicted it): written back, then dropped, so its next run reads it in again.
///
/// A file just written (a copy such as `trail_bin`'s or `cargo install`'s, a link) stays cached
/// in the large folios the writes made, and Linux 6.18 maps a whole folio into a process that
/// faults on any page of it: measured on one build, a junction's PreToolUse peaked at 4.2 MB
/// run from a fresh copy and at 3.7 MB from the same file read back from disk. Which state a
/// binary happened to be in decided the figures, and a build compared against a copy made at
/// another time was compared in another state (README, "Performance", says both).
pub fn from_disk(path: &std::path::Path) -> Result<(), String> {
    use std::os::fd::AsRawFd;
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    // Dirty pages are not dropped: write them back first.
    file.sync_data()
        .map_err(|e| format!("{}: write back: {e}", path.display()))?;
    // SAFETY: a plain call on a descriptor `file` keeps open.
    let r = unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
    if r != 0 {
        return Err(format!(
            "{}: drop from the page cache: {}",
            path.display(),
            std::io::Error::from_raw_os_error(r)
        ));
    }
    Ok(())
}

pub fn flag(args: &[String], name: &str, default: usize) -> usize {
    args.windows(2)
        .find(|w| w[0] == name)
        .and_then(|w| w[1].parse().ok())
        .unwrap_or(default)
}
