//! `trail search WORD --json` against `rg -c WORD` on the same 100 MB stream, side by side in
//! one run, for a rare, a medium and a common word (issue 13: ≤ 1.0× ripgrep's wall time).
//!
//! Five conditions, each run interleaved with ripgrep on the same file:
//! - **warm**: the search cache (`$TRAIL_HOME/cache/search/`) built, the stream in the page
//!   cache — a search run again;
//! - **cold, pages evicted**: the stream's and the cache's pages dropped from the page cache
//!   (`posix_fadvise(DONTNEED)`, which needs no privilege) before each run of either tool. The
//!   machine-wide drop (`/proc/sys/vm/drop_caches`) needs privileges the benchmark does not
//!   have, and on a virtual machine the host may still hold the pages: this is as cold as an
//!   unprivileged run gets;
//! - **scan only**, warm and with the pages evicted: `--no-cache`, the search reads the whole
//!   stream and neither reads nor builds the cache — what the cache wins is the difference;
//! - **cold, cache deleted**: the search cache removed before each run, so the search reads the
//!   whole stream, and starts the cache's builder in the background as it ends.
//!
//! A builder a search started is waited for (untimed), its parts synced to disk, before the
//! next run of either tool, so that it competes with no measured run. Also reported: how long
//! the builder takes to build the whole cache (`trail build-search-cache`, run in the
//! foreground) and how big it is.

use std::path::{Path, PathBuf};
use std::time::Duration;

use trail_core::search::Cache;

use crate::process::{Launcher, trail_env};
use crate::resume::{GeneratedLedger, Shape, generated_ledger};
use crate::stats::{median, ms};
use crate::{flag, trail_bin};

/// The words searched: one in a few records, one in a fifth of them, one in every record (see
/// `records::record`).
const WORDS: [(&str, &str); 3] = [
    ("rare", "55206"),
    ("medium", "checkout"),
    ("common", "backlog"),
];

pub fn run(args: &[String]) -> Result<(), String> {
    let mb = flag(args, "--mb", 100);
    let runs = flag(args, "--runs", 15);
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
    let home = dir.join("ledger");
    let project = dir.join("project");
    std::fs::create_dir_all(&project).map_err(|e| e.to_string())?;
    let cache = Cache::of_home(&home).dir;
    let mut env = trail_env(&dir);
    // An empty project: the other sources cost nothing, the stream is what is measured.
    env.push(("CLAUDE_PROJECT_DIR", project.clone()));
    let env: Vec<(&str, &Path)> = env.iter().map(|(k, v)| (*k, v.as_path())).collect();
    let stream_s = stream.to_str().ok_or("non-UTF-8 path")?;
    let trail = |w: &'static str, scan_only: bool| {
        let mut argv = vec![bin.clone(), "search".into(), w.into(), "--json".into()];
        if scan_only {
            argv.push("--no-cache".into());
        }
        argv
    };
    let rg = |w: &'static str| ["/usr/bin/rg", "-c", w, stream_s];

    println!(
        "## `trail search WORD --json` against `rg -c WORD` on a {} MB stream of {} records ({runs} runs each)",
        size >> 20,
        g.records
    );
    // The whole cache built, as the builder a search starts builds it (and the page cache
    // warmed for both tools).
    let _ = std::fs::remove_dir_all(&cache);
    let (build, _) = l.run(&env, &[bin.as_str(), "build-search-cache"])?;
    let cache_bytes = dir_bytes(&cache);

    println!("| word | lines with it | condition | trail | rg -c | trail / rg |");
    println!("|---|---|---|---|---|---|");
    let mut summary = Vec::new();
    for (label, word) in WORDS {
        let rg = rg(word);
        let matches = count(&stream, word)?;
        for condition in Condition::ALL {
            let argv = trail(word, condition.scan_only());
            let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            for _ in 0..runs {
                condition.prepare(&cache, &stream, true);
                ours.push(l.run(&env, &argv)?.0);
                settle(&cache);
                condition.prepare(&cache, &stream, false);
                theirs.push(l.run(&[], &rg)?.0);
            }
            let (a, b) = (median(&mut ours), median(&mut theirs));
            let ratio = ratio(a, b);
            println!(
                "| `{word}` ({label}) | {matches} | {} | {} | {} | {ratio:.2}× |",
                condition.name(),
                ms(a),
                ms(b)
            );
            summary.push(format!("{label} {} {ratio:.2}×", condition.name()));
        }
    }
    println!(
        "| building the whole cache (`trail build-search-cache`, what a search starts in the background) | | | {} | | |",
        ms(build)
    );
    println!(
        "\n**trail search / rg -c: {} (goal ≤ 1.0×); the cache is {:.1} MB for {} MB of stream**\n",
        summary.join(", "),
        cache_bytes as f64 / f64::from(1 << 20),
        size >> 20
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

#[derive(Clone, Copy)]
enum Condition {
    Warm,
    PagesEvicted,
    ScanOnly,
    ScanOnlyEvicted,
    CacheDeleted,
}

impl Condition {
    const ALL: [Condition; 5] = [
        Condition::Warm,
        Condition::PagesEvicted,
        Condition::ScanOnly,
        Condition::ScanOnlyEvicted,
        Condition::CacheDeleted,
    ];

    fn name(self) -> &'static str {
        match self {
            Condition::Warm => "warm",
            Condition::PagesEvicted => "cold: pages evicted",
            Condition::ScanOnly => "scan only (`--no-cache`), warm",
            Condition::ScanOnlyEvicted => "scan only (`--no-cache`), pages evicted",
            Condition::CacheDeleted => "cold: cache deleted",
        }
    }

    /// Whether trail runs without its cache.
    fn scan_only(self) -> bool {
        matches!(self, Condition::ScanOnly | Condition::ScanOnlyEvicted)
    }

    /// Before one run (`ours`: of trail, else of ripgrep).
    fn prepare(self, cache: &Path, stream: &Path, ours: bool) {
        match self {
            Condition::Warm | Condition::ScanOnly => {}
            // ripgrep has no cache to lose.
            Condition::CacheDeleted if ours => {
                let _ = std::fs::remove_dir_all(cache);
            }
            Condition::CacheDeleted => {}
            Condition::PagesEvicted | Condition::ScanOnlyEvicted => {
                evict(stream);
                for part in files(cache) {
                    evict(&part);
                }
            }
        }
    }
}

/// Wait until no search cache builder runs (one a search started in the background holds the
/// lock until it ends), and until what it wrote is on disk, so that neither it nor the
/// kernel's writeback of its 30 MB competes with a measured run.
fn settle(cache: &Path) {
    if let Ok(f) = std::fs::File::open(cache.join("build.lock")) {
        // Released when `f` closes.
        let _ = f.lock();
        for part in files(cache) {
            if let Ok(p) = std::fs::File::open(part) {
                let _ = p.sync_all();
            }
        }
    }
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}

/// Drop a file's clean pages from the page cache.
fn evict(path: &Path) {
    use std::os::fd::AsRawFd;
    if let Ok(f) = std::fs::File::open(path) {
        // SAFETY: a valid descriptor; the advice changes no memory of ours.
        unsafe {
            libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
        }
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default()
}

fn dir_bytes(dir: &Path) -> u64 {
    files(dir)
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum()
}

/// Lines that hold `word`, as `rg -c` counts them.
fn count(stream: &Path, word: &str) -> Result<usize, String> {
    let out = std::process::Command::new("/usr/bin/rg")
        .args(["-c", word])
        .arg(stream)
        .output()
        .map_err(|e| format!("rg: {e} (install ripgrep: apt-get install ripgrep)"))?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(0))
}
