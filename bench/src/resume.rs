//! `trail resume` on a 100 MB stream against a full parse of the same file and against
//! `tail -c 600000`, on three shapes of stream: trail's own (sealed and chained) with nothing
//! stabilising, bursts that stabilise, and the plain spec format with nothing stabilising.
//! `--compare LABEL=PATH` (repeatable) runs another build of `trail` in the same loop, so a
//! change's cost is a ratio of one run.

use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use trail_core::ledger::frame::{self, Frame};
use trail_core::ledger::reader::ForwardReader;
use trail_core::time::Ts;

use crate::process::{Launcher, trail_env};
use crate::stats::{median, ms};
use crate::{flag, records};

/// The shape of a generated stream: how record `i` looks, and how it is written down.
#[derive(Clone, Copy)]
pub struct Shape {
    pub make: MakeRecord,
    /// In the plain spec format (as another LedgerPulse writer would), not sealed and chained.
    pub plain: bool,
}

impl Shape {
    /// trail's own records, sealed and chained, with intent and next steps that never settle.
    pub const SEALED: Shape = Shape {
        make: records::record,
        plain: false,
    };
    /// trail's own records in bursts of eight that settle.
    pub const BURSTY: Shape = Shape {
        make: records::bursty,
        plain: false,
    };
    /// The records of [`Shape::SEALED`] in the plain spec format.
    pub const PLAIN: Shape = Shape {
        make: records::record,
        plain: true,
    };

    /// By the name `trail-bench gen` takes: `sealed`, `bursty` or `plain`.
    pub fn named(name: &str) -> Option<Shape> {
        match name {
            "sealed" => Some(Shape::SEALED),
            "bursty" => Some(Shape::BURSTY),
            "plain" => Some(Shape::PLAIN),
            _ => None,
        }
    }
}

/// Builds record `i` of a generated stream.
pub type MakeRecord = fn(u64, Ts) -> trail_core::ledger::Record;

/// A generated stream: how many records, and the time of the last one.
pub struct Generated {
    pub records: u64,
    pub last: Ts,
}

/// A generated stream in a fresh personal root under `target/`
/// (`dir/ledger/stream/pulses.log.md`), as the stream benchmarks start from.
pub struct GeneratedLedger {
    /// The benchmark's directory (`trail_env(&dir)` points the binary at it).
    pub dir: std::path::PathBuf,
    pub stream: std::path::PathBuf,
    pub generated: Generated,
    /// The stream's size in bytes.
    pub size: u64,
}

/// [`generate`] into a fresh personal root under `target/`.
pub fn generated_ledger(mb: usize, shape: Shape) -> Result<GeneratedLedger, String> {
    let dir = crate::append::tempdir_in_target()?;
    let stream_dir = dir.join("ledger").join("stream");
    std::fs::create_dir_all(&stream_dir).map_err(|e| e.to_string())?;
    let stream = stream_dir.join("pulses.log.md");
    let generated = generate(&stream, mb, shape)?;
    let size = std::fs::metadata(&stream).map_err(|e| e.to_string())?.len();
    Ok(GeneratedLedger {
        dir,
        stream,
        generated,
        size,
    })
}

/// Write a stream of about `mb` megabytes, one record a second, ending about 400 days ago.
pub fn generate(path: &Path, mb: usize, shape: Shape) -> Result<Generated, String> {
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let mut prev = [0u8; 32];
    let start = Ts::now().as_micros() - 400 * 86_400 * 1_000_000;
    let mut written = 0usize;
    let mut i = 0u64;
    let mut last = Ts::from_micros(start);
    while written < mb << 20 {
        last = Ts::from_micros(start + i as i64 * 1_000_000);
        let mut r = (shape.make)(i, last);
        let bytes = if shape.plain {
            records::plain(&r).into_bytes()
        } else {
            r.prev = Some(frame::hex(&prev));
            let (bytes, d) = frame::encode(&r);
            prev = d;
            bytes
        };
        w.write_all(&bytes).map_err(|e| e.to_string())?;
        written += bytes.len();
        i += 1;
    }
    w.flush().map_err(|e| e.to_string())?;
    Ok(Generated { records: i, last })
}

/// Parse every record of the file (the obvious way to rebuild state).
fn full_parse(path: &Path) -> Result<usize, String> {
    let f = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let len = f.metadata().map_err(|e| e.to_string())?.len();
    let mut fr = ForwardReader::new(&f, 0, len);
    let mut n = 0;
    while let Some((off, seg)) = fr.next_segment().map_err(|e| e.to_string())? {
        if Frame::split(off, &seg).parse().is_ok() {
            n += 1;
        }
    }
    Ok(n)
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mb = flag(args, "--mb", 100);
    let runs = flag(args, "--runs", 40);
    // Started first, while this process is small (see `Launcher`).
    let mut l = Launcher::start()?;
    let bin = crate::trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?.to_string();
    let compare = crate::hook::compared(args)?;
    let cases: [(&str, Shape, &[&str]); 3] = [
        (
            "five threads interleaved, every pulse with new intent and next steps",
            Shape::SEALED,
            &["resume", "--level", "3"],
        ),
        (
            "bursts of eight pulses per thread, facts changing within a burst",
            Shape::BURSTY,
            &["resume", "--level", "3"],
        ),
        (
            "the plain spec format, no seals, every pulse with new intent and next steps",
            Shape::PLAIN,
            &["resume", "--json"],
        ),
    ];
    for (what, shape, command) in cases {
        let GeneratedLedger {
            dir,
            stream,
            generated,
            size,
        } = generated_ledger(mb, shape)?;
        let records = generated.records;
        let shown = format!("trail {}", command.join(" "));
        println!(
            "## `{shown}` on a {} MB stream of {records} records ({what})",
            size >> 20
        );
        // Also warms the page cache for everyone.
        let mut parses = Vec::new();
        for _ in 0..3 {
            let t = Instant::now();
            let n = full_parse(&stream)?;
            parses.push(t.elapsed());
            if n as u64 != records {
                return Err(format!("full parse found {n} of {records} records"));
            }
        }
        let (mut resume, mut tail, mut rss) = (Vec::new(), Vec::new(), 0);
        let mut others: Vec<Vec<Duration>> = vec![Vec::new(); compare.len()];
        let env = trail_env(&dir);
        let env: Vec<(&str, &Path)> = env.iter().map(|(k, v)| (*k, v.as_path())).collect();
        let stream_s = stream.to_str().ok_or("non-UTF-8 path")?;
        // The order turns every round, so no build always runs first, right after another's
        // pages were faulted in.
        for round in 0..runs {
            let argv: Vec<&str> = std::iter::once(bin.as_str())
                .chain(command.iter().copied())
                .collect();
            let mut jobs: Vec<Option<usize>> = std::iter::once(None)
                .chain((0..compare.len()).map(Some))
                .collect();
            let n = jobs.len();
            jobs.rotate_left(round % n);
            for job in jobs {
                match job {
                    None => {
                        let (t, r) = l.run(&env, &argv)?;
                        resume.push(t);
                        rss = rss.max(r);
                        let (t, _) = l.run(&[], &["/usr/bin/tail", "-c", "600000", stream_s])?;
                        tail.push(t);
                    }
                    Some(k) => {
                        let other: Vec<&str> = std::iter::once(compare[k].1.as_str())
                            .chain(command.iter().copied())
                            .collect();
                        others[k].push(l.run(&env, &other)?.0);
                    }
                }
            }
        }
        let (m_parse, m_resume, m_tail) =
            (median(&mut parses), median(&mut resume), median(&mut tail));
        // How much of the stream the resume actually used.
        let out = std::process::Command::new(&bin)
            .args(["resume", "--json"])
            .env_clear()
            .env("HOME", &dir)
            .env("TRAIL_HOME", dir.join("ledger"))
            .output()
            .map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&out.stdout);
        let field = |k: &str| {
            text.split(&format!("\"{k}\":"))
                .nth(1)
                .map(|r| {
                    r.split([',', '}'])
                        .next()
                        .unwrap_or("")
                        .trim_matches('"')
                        .to_string()
                })
                .unwrap_or_default()
        };
        println!(
            "resume read {} records (stopped: {})\n",
            field("records_read"),
            field("stopped")
        );
        println!("| | median |\n|---|---|");
        println!("| `{shown}` (whole process) | {} |", ms(m_resume));
        println!(
            "| full parse of the file (in-process, no spawn) | {} |",
            ms(m_parse)
        );
        println!("| `tail -c 600000` (whole process) | {} |", ms(m_tail));
        for ((label, _), times) in compare.iter().zip(others.iter_mut()) {
            let m = median(times);
            println!(
                "| `{shown}`, {label} (whole process, same loop) | {} = {:.2}× tail |",
                ms(m),
                ratio(m, m_tail)
            );
        }
        println!(
            "\n**full parse / resume: {:.0}× (goal ≥ 50×); resume / tail: {:.2}× (goal ≤ 2×); peak RSS of resume {:.1} MB (goal ≤ 8 MB)**\n",
            ratio(m_parse, m_resume),
            ratio(m_resume, m_tail),
            rss as f64 / 1024.0
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64()
}
