//! The redactor's cost on the hook path: a fresh process redacting one payload pays for the
//! table, the keyword pass and compiling the regexes its keywords open, so the cold figure is
//! the one a hook sees. The payloads are those of `bench/gitleaks-compare` (issue 9, item 12),
//! which measures gitleaks' rule set on the same text.

use std::process::Command;
use std::time::{Duration, Instant};

use trail_core::secrets::Redactor;

use crate::stats::{median, us};

fn payload(which: &str) -> String {
    match which {
        "clean" => r#"{"tool_name":"Bash","tool_input":{"command":"cargo test --workspace -- --nocapture && git status"}}"#.repeat(20),
        _ => "export AWS_SECRET_ACCESS_KEY=Zk8pQ2mV7xR4tY1uI9oP3aS6dF0gH5jK2lZ8cX4v GITHUB_TOKEN=ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES; curl -u deploy:Tr41lS3cr3tPassw0rd https://admin:Zx81qPv0LmN4@registry.example.com/v2/ -H 'Authorization: Bearer Lm3Nq8Rt2Vx6Zb9Cd4Fg'\n".repeat(8),
    }
}

/// Internal: one cold redaction in this process; prints its nanoseconds.
#[expect(
    clippy::unnecessary_wraps,
    reason = "every subcommand of main's dispatch has this signature"
)]
pub fn child(args: &[String]) -> Result<(), String> {
    let text = payload(args.first().map_or("clean", String::as_str));
    let t = Instant::now();
    let out = Redactor::builtin().redact(&text, &mut Vec::new());
    let ns = t.elapsed().as_nanos();
    std::hint::black_box(out);
    println!("{ns}");
    Ok(())
}

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = crate::flag(args, "--runs", 50);
    let me = std::env::current_exe().map_err(|e| e.to_string())?;
    println!("## The redactor on the hook path ({runs} fresh processes per payload)");
    println!(
        "| payload (2 KiB) | cold: first call in a process | warm: later calls |\n|---|---|---|"
    );
    for which in ["clean", "secret-heavy"] {
        let mut cold = Vec::new();
        for _ in 0..runs {
            let out = Command::new(&me)
                .args(["redact-child", which])
                .output()
                .map_err(|e| e.to_string())?;
            let ns: u64 = String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse()
                .map_err(|e| format!("redact-child: {e}"))?;
            cold.push(Duration::from_nanos(ns));
        }
        let text = payload(which);
        let redactor = Redactor::builtin();
        let mut warm = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            std::hint::black_box(redactor.redact(&text, &mut Vec::new()));
            warm.push(t.elapsed());
        }
        println!(
            "| {which} | {} | {} |",
            us(median(&mut cold)),
            us(median(&mut warm))
        );
    }
    Ok(())
}
