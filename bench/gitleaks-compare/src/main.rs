//! gitleaks' rules (through keyspoor) on trail's labelled secrets, scored as
//! `crates/trail-core/tests/core/redactor_labelled.rs` scores trail's redactor, plus what the rule
//! set costs a hook process: building the engine (every regex compiled up front) and scanning.
use std::collections::BTreeMap;
use std::time::Instant;

use keyspoor::{Engine, EngineConfig};

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(o) => {
                out.push('\\');
                out.push(o)
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Same as the trail evaluation: the secret minus PEM armour, split at blanks and `\n`.
fn pieces(secret: &str) -> Vec<String> {
    // JSON-escaped line breaks are line breaks here: armour lines sit between them.
    let secret = secret.replace("\\n", "\n").replace("\\r", "\n");
    let mut core = String::new();
    for line in secret.split('\n') {
        let mut rest = line;
        loop {
            let t = rest.trim_start();
            if let Some(after) = t.strip_prefix("-----")
                && let Some(end) = after.find("-----")
            {
                rest = &after[end + 5..];
                continue;
            }
            break;
        }
        core.push_str(rest);
        core.push(' ');
    }
    core.split_whitespace()
        .filter(|p| p.len() >= 4)
        .map(str::to_string)
        .collect()
}

fn leaks(out: &[u8], secret: &str) -> bool {
    pieces(secret).iter().any(|p| {
        let b = p.as_bytes();
        let w = b.len().min(8);
        b.windows(w).any(|win| out.windows(w).any(|o| o == win))
    })
}

fn redact(engine: &Engine, text: &str) -> Vec<u8> {
    let mut findings = engine.scan_bytes("input.txt", text.as_bytes()).unwrap_or_default();
    findings.sort_by_key(|f| (f.start, f.end));
    let mut out = Vec::new();
    let mut last = 0;
    for f in findings {
        let (s, e) = (f.start.max(last), f.end.min(text.len()));
        if s >= e {
            continue;
        }
        out.extend_from_slice(&text.as_bytes()[last..s]);
        out.extend_from_slice(b"[REDACTED]");
        last = e;
    }
    out.extend_from_slice(&text.as_bytes()[last..]);
    out
}

fn main() {
    let t0 = Instant::now();
    let engine = Engine::new(EngineConfig::default()).expect("engine");
    let build = t0.elapsed();
    println!("rules: {}, Engine::new: {:.1} ms", engine.rule_count(), build.as_secs_f64() * 1e3);

    for path in std::env::args().skip(1) {
        let data = std::fs::read_to_string(&path).expect("tsv");
        let mut fam: BTreeMap<String, [usize; 4]> = BTreeMap::new();
        let mut all = [0usize; 4];
        let verbose = std::env::var_os("SHOW_ROWS").is_some();
        for line in data.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let c: Vec<&str> = line.split('\t').collect();
            let text = unescape(c[3]);
            let out = redact(&engine, &text);
            let t = fam.entry(c[1].to_string()).or_default();
            if c[0] == "secret" {
                let caught = !leaks(&out, &unescape(c.get(4).copied().unwrap_or(c[3])));
                for x in [&mut *t, &mut all] {
                    x[0] += 1;
                    x[1] += usize::from(caught);
                }
                if verbose && !caught {
                    println!("MISS {} {:?}", c[1], text);
                }
            } else {
                let altered = out != text.as_bytes();
                for x in [&mut *t, &mut all] {
                    x[2] += 1;
                    x[3] += usize::from(altered);
                }
                if verbose && altered {
                    println!("FP   {} {:?}", c[1], text);
                }
            }
        }
        println!("\n{path} (gitleaks 8.30 rules via keyspoor 0.1.4)");
        println!("| family | secret rows | caught | clean rows | redacted |");
        println!("|---|---:|---:|---:|---:|");
        for (f, t) in fam.iter().chain([(&"**all**".to_string(), &all)]) {
            println!("| {f} | {} | {} | {} | {} |", t[0], t[1], t[2], t[3]);
        }
        println!(
            "recall {:.3}, false-positive rate {:.3}",
            all[1] as f64 / all[0].max(1) as f64,
            all[3] as f64 / all[2].max(1) as f64
        );
    }

    // Hook-path cost: a fresh process pays Engine::new once, then scans one payload.
    let clean = "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"cargo test --workspace -- --nocapture && git status\"}}".repeat(20);
    let heavy = "export AWS_SECRET_ACCESS_KEY=Zk8pQ2mV7xR4tY1uI9oP3aS6dF0gH5jK2lZ8cX4v GITHUB_TOKEN=ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES; curl -u deploy:Tr41lS3cr3tPassw0rd https://admin:Zx81qPv0LmN4@registry.example.com/v2/ -H 'Authorization: Bearer Lm3Nq8Rt2Vx6Zb9Cd4Fg'\n".repeat(8);
    for (name, text) in [("clean 2 KiB", &clean), ("secret-heavy 2 KiB", &heavy)] {
        let n = 200;
        let t = Instant::now();
        for _ in 0..n {
            std::hint::black_box(engine.scan_bytes("payload.json", text.as_bytes()).ok());
        }
        println!(
            "scan {name}: {:.1} µs per payload (engine already built)",
            t.elapsed().as_secs_f64() * 1e6 / n as f64
        );
    }
}
