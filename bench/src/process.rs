//! Whole-process costs: `trail pulse` (with its fsync) against spawning `/bin/true`, and peak
//! RSS of `trail pulse` and `trail resume`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::stats::{median, ms};
use crate::{flag, trail_bin};

/// Runs commands for the benchmarks from a small process started before the benchmark grows.
///
/// Linux folds the RSS a process had before `exec` into the peak RSS (`ru_maxrss`) of what it
/// execs, and a spawned child starts as a copy of (or sharing) its parent's memory. Spawned
/// straight from a benchmark that has just parsed 100 MB, every child would report the
/// benchmark's own peak. The launcher stays a few MB, so children report their own.
pub struct Launcher {
    child: std::process::Child,
    to: std::process::ChildStdin,
    from: std::io::BufReader<std::process::ChildStdout>,
}

impl Launcher {
    pub fn start() -> Result<Launcher, String> {
        let me = std::env::current_exe().map_err(|e| e.to_string())?;
        let mut child = Command::new(me)
            .arg("launcher")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| e.to_string())?;
        let to = child.stdin.take().ok_or("launcher stdin")?;
        let from = std::io::BufReader::new(child.stdout.take().ok_or("launcher stdout")?);
        Ok(Launcher { child, to, from })
    }

    /// Run `argv` with exactly `env` (plus PATH); return (wall time, peak RSS in KiB).
    pub fn run(&mut self, env: &[(&str, &Path)], argv: &[&str]) -> Result<(Duration, u64), String> {
        self.timed(env, argv).map(|t| (t.wall, t.kb))
    }

    /// [`Launcher::run`], with the CPU time the process used as well.
    pub fn timed(&mut self, env: &[(&str, &Path)], argv: &[&str]) -> Result<Timed, String> {
        use std::io::{BufRead, Write};
        let mut line = String::new();
        for (k, v) in env {
            line.push_str(&format!("{k}={}\t", v.display()));
        }
        line.push_str("--");
        for a in argv {
            line.push('\t');
            line.push_str(a);
        }
        line.push('\n');
        self.to
            .write_all(line.as_bytes())
            .map_err(|e| e.to_string())?;
        let mut reply = String::new();
        self.from.read_line(&mut reply).map_err(|e| e.to_string())?;
        let mut parts = reply.split_whitespace();
        match (
            parts.next(),
            parts.next().and_then(|x| x.parse().ok()),
            parts.next().and_then(|x| x.parse().ok()),
            parts.next().and_then(|x| x.parse().ok()),
        ) {
            (Some("ok"), Some(ns), Some(kb), Some(cpu)) => Ok(Timed {
                wall: Duration::from_nanos(ns),
                cpu: Duration::from_nanos(cpu),
                kb,
            }),
            _ => Err(format!("{argv:?}: {}", reply.trim())),
        }
    }
}

/// What one run of a process cost.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    pub wall: Duration,
    /// User and system time (its own and its waited-for children's), which, unlike the wall
    /// time, does not grow while the process waits for a CPU others are using.
    pub cpu: Duration,
    /// Peak RSS in KiB.
    pub kb: u64,
}

impl Drop for Launcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The launcher process: one request per stdin line, one `ok <ns> <kb>` reply per request.
pub fn launcher() -> Result<(), String> {
    use std::io::{BufRead, Write};
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let mut fields = line.split('\t');
        let mut env = Vec::new();
        for f in fields.by_ref() {
            if f == "--" {
                break;
            }
            if let Some((k, v)) = f.split_once('=') {
                env.push((k.to_string(), v.to_string()));
            }
        }
        let argv: Vec<&str> = fields.collect();
        let reply = match argv.split_first() {
            Some((prog, args)) => {
                let mut c = Command::new(prog);
                c.args(args).env_clear().env("PATH", "/usr/bin:/bin");
                let mut stdin_file = None;
                for (k, v) in &env {
                    if k == "STDIN" {
                        stdin_file = Some(v.clone());
                    } else if k == "CWD" {
                        c.current_dir(v);
                    } else {
                        c.env(k, v);
                    }
                }
                match measure(&mut c, stdin_file.as_deref()) {
                    Ok(t) => format!("ok {} {} {}\n", t.wall.as_nanos(), t.kb, t.cpu.as_nanos()),
                    Err(e) => format!("err {e}\n"),
                }
            }
            None => "err empty request\n".to_string(),
        };
        out.write_all(reply.as_bytes()).map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// Run a command to completion; return its wall time, CPU time and peak RSS.
fn measure(cmd: &mut Command, stdin: Option<&str>) -> Result<Timed, String> {
    let input = match stdin {
        Some(p) => Stdio::from(std::fs::File::open(p).map_err(|e| format!("{p}: {e}"))?),
        None => Stdio::null(),
    };
    let start = Instant::now();
    let child = cmd
        .stdin(input)
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("spawn: {e}"))?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for the child we just spawned.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
    let wall = start.elapsed();
    if r != pid {
        return Err("wait4 failed".into());
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        return Err(format!("{cmd:?} failed with status {status}"));
    }
    std::mem::forget(child); // already reaped
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    Ok(Timed {
        wall,
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
        kb: usage.ru_maxrss as u64,
    })
}

/// The environment every trail run in the benchmarks gets.
pub fn trail_env(home: &Path) -> Vec<(&'static str, std::path::PathBuf)> {
    vec![
        ("HOME", home.to_path_buf()),
        ("TRAIL_HOME", home.join("ledger")),
    ]
}

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = flag(args, "--runs", 300);
    let mut l = Launcher::start()?;
    let dir = crate::append::tempdir_in_target()?;
    let bin = trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?;
    let env = trail_env(&dir);
    let env: Vec<(&str, &Path)> = env.iter().map(|(k, v)| (*k, v.as_path())).collect();
    println!("## `trail pulse` as a whole process ({runs} runs, interleaved with /bin/true)");
    let mut ours = Vec::new();
    let mut truth = Vec::new();
    let (mut rss_pulse, mut rss_true) = (0, 0);
    for i in 0..runs {
        let (t, kb) = l.run(&[], &["/bin/true"])?;
        truth.push(t);
        rss_true = rss_true.max(kb);
        let summary = format!("benchmark pulse {i}: measuring the whole process");
        let argv = [
            bin,
            "pulse",
            "--proj",
            "bench",
            "--topic",
            "pulse",
            "--summary",
            &summary,
            "--next",
            "keep measuring",
        ];
        let (t, kb) = l.run(&env, &argv)?;
        ours.push(t);
        rss_pulse = rss_pulse.max(kb);
    }
    let (m_ours, m_true) = (median(&mut ours), median(&mut truth));
    let p90 = crate::stats::percentile(&ours, 0.9);
    println!("| | median | p90 | peak RSS |\n|---|---|---|---|");
    println!(
        "| `trail pulse` (fsync) | {} | {} | {:.1} MB |",
        ms(m_ours),
        ms(p90),
        rss_pulse as f64 / 1024.0
    );
    println!(
        "| `/bin/true` | {} | | {:.1} MB |",
        ms(m_true),
        rss_true as f64 / 1024.0
    );
    println!(
        "\n**`trail pulse` median {} (goal ≤ 3 ms) = {:.1}× spawning /bin/true; peak RSS {:.1} MB (goal ≤ 8 MB)**\n",
        ms(m_ours),
        m_ours.as_secs_f64() / m_true.as_secs_f64(),
        rss_pulse as f64 / 1024.0
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
