//! `trail ground` as a whole process on 1,000 decisions carrying 3,000 citations over a real
//! repository (issue 12, Performance: "≤ 200 ms"), side by side with Loa's own
//! `grounding-check.sh` on the same decisions written in Loa's trajectory format; then the
//! 18-of-19 case both ways.
//!
//! The repository is trail's own `crates/` at HEAD (`git archive`), committed into a fresh git
//! repository. The decisions are recorded by `trail decide`'s own code
//! (`trail_core::decision::record`: citations checked, trajectory, pulse stream, NOTES.md), each
//! with three citations quoting real lines of those files: most verified, some drifted (the
//! quote is elsewhere in the file), some naming a file that does not exist, and every 25th
//! decision with no citation that verifies. Loa's trajectory holds the same 1,000 claims as
//! `cite` lines of its protocol's `citations` shape, labelled as its agents label them.
//!
//! Loa's script counts labels with `grep -c`; it opens no cited file. `trail ground` opens and
//! checks them. The figures are whole processes, interleaved, medians.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use trail_core::cite::{Status, check::text_lines};
use trail_core::decision::{self, Request};
use trail_core::ledger::{Ledger, LedgerOptions};
use trail_core::notes::Location;
use trail_core::project::Project;

use crate::process::{Launcher, trail_env};
use crate::stats::{median, ms, percentile};
use crate::{flag, trail_bin};

fn io(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The SHA-256 of Loa's script as `bench/peers/loa/README.md` names it.
const LOA_SHA256: &str = "1c8980cbe617b81370480f9332570f8c467e336507e242721c5e98a9fd9b6cb8";
/// Loa's agent name and the day its trajectory file is for (the script's arguments).
const LOA_AGENT: &str = "implementing-tasks";
const LOA_DAY: &str = "2026-01-01";

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = flag(args, "--runs", 20);
    let n = flag(args, "--decisions", 1000);
    let bin = trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?.to_string();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let peer = loa_peer(args);
    if let Err(why) = &peer {
        println!(
            "\n**SKIP (peer): Loa's grounding-check.sh is not run: {why}. trail is measured alone.**\n"
        );
    }
    let dir = crate::append::tempdir_in_target()?;
    let home = dir.join("home");
    std::fs::create_dir_all(&home).map_err(io)?;

    // The real repository, twice: trail's project and Loa's.
    let started = Instant::now();
    let trail_root = dir.join("trail-project");
    let loa_root = dir.join("loa-project");
    let source = repository(&repo, &trail_root)?;
    repository(&repo, &loa_root)?;
    let files = source_files(&trail_root)?;
    let lines: usize = files.iter().map(|f| f.lines.len()).sum();
    let plan = plan(&files, n)?;
    let recorded = record(&home, &trail_root, &plan)?;
    let loa_file = loa_root.join(format!(
        "loa-grimoire/a2a/trajectory/{LOA_AGENT}-{LOA_DAY}.jsonl"
    ));
    write_loa(&loa_root, &loa_file, &plan)?;
    let setup = started.elapsed();

    // The answers first: what each says of the same 1,000 decisions.
    let env_of = |root: &Path| {
        let mut e = trail_env(&home);
        e.push(("CLAUDE_PROJECT_DIR", root.to_path_buf()));
        e
    };
    let (trail_env_own, trail_env_loa) = (env_of(&trail_root), env_of(&loa_root));
    let ground = [bin.as_str(), "ground", "--json"];
    let own = trail_json(&ground, &trail_env_own)?;
    let on_loa = trail_json(&ground, &trail_env_loa)?;
    let expected = recorded.grounded;
    for (what, v) in [("its trajectory", &own), ("Loa's trajectory", &on_loa)] {
        if v["grounded"].as_u64() != Some(expected) || v["total"].as_u64() != Some(n as u64) {
            return Err(format!(
                "trail ground on {what} says {}/{}, but {expected} of the {n} decisions have a \
                 citation that verified when recorded",
                v["grounded"], v["total"]
            ));
        }
    }
    let loa_env: Vec<(&'static str, PathBuf)> = vec![("PROJECT_ROOT", loa_root.clone())];
    let loa_answer = match &peer {
        Ok(script) => Some(run_loa(script, &loa_env, "0.95")?),
        Err(_) => None,
    };

    // Side by side.
    let mut l = Launcher::start()?;
    let (mut t_own, mut t_on_loa, mut t_loa) = (Vec::new(), Vec::new(), Vec::new());
    let (mut rss_own, mut rss_loa) = (0, 0);
    let script = peer.as_ref().ok().map(|p| p.display().to_string());
    let loa_argv: Option<Vec<&str>> = script
        .as_deref()
        .map(|s| vec!["/bin/bash", s, LOA_AGENT, "0.95", LOA_DAY]);
    for _ in 0..runs {
        let (t, kb) = l.run(&refs(&trail_env_own), &ground)?;
        t_own.push(t);
        rss_own = rss_own.max(kb);
        t_on_loa.push(l.run(&refs(&trail_env_loa), &ground)?.0);
        if let Some(argv) = &loa_argv {
            let (t, kb) = l.run(&refs(&loa_env), argv)?;
            t_loa.push(t);
            rss_loa = rss_loa.max(kb);
        }
    }
    let (m_own, m_on_loa) = (median(&mut t_own), median(&mut t_on_loa));
    println!(
        "## `trail ground`: {n} decisions, {} citations over a real repository ({runs} runs, interleaved)",
        recorded.citations
    );
    println!(
        "The repository: trail's `crates/` at {source} ({} files, {lines} lines). Citations as \
         recorded: {}. Set up in {:.1} s.\n",
        files.len(),
        recorded.statuses(),
        setup.as_secs_f64()
    );
    println!("| | median | p90 | peak RSS | answer |\n|---|---|---|---|---|");
    println!(
        "| `trail ground --json`, its trajectory | {} | {} | {:.1} MB | {} {} |",
        ms(m_own),
        ms(percentile(&t_own, 0.9)),
        rss_own as f64 / 1024.0,
        shown(&own),
        own["status"].as_str().unwrap_or("?")
    );
    println!(
        "| `trail ground --json`, Loa's trajectory (the same claims) | {} | {} | | {} {} |",
        ms(m_on_loa),
        ms(percentile(&t_on_loa, 0.9)),
        shown(&on_loa),
        on_loa["status"].as_str().unwrap_or("?")
    );
    if let Some(answer) = &loa_answer {
        let m_loa = median(&mut t_loa);
        println!(
            "| Loa `grounding-check.sh` (counts labels, opens no citation) | {} | {} | {:.1} MB | {} |",
            ms(m_loa),
            ms(percentile(&t_loa, 0.9)),
            rss_loa as f64 / 1024.0,
            answer.summary()
        );
        println!(
            "\n**trail ground: {} (goal ≤ 200 ms) = {:.2}× Loa's grounding-check.sh ({}), \
             checking the citations Loa takes on trust: {expected}/{n} grounded where Loa's \
             labels say {}**\n",
            ms(m_own),
            m_own.as_secs_f64() / m_loa.as_secs_f64(),
            ms(m_loa),
            answer.get("grounded_claims").map_or_else(
                || "nothing".to_string(),
                |g| format!("{g}/{}", answer.get("total_claims").unwrap_or("?"))
            ),
        );
    } else {
        println!(
            "\n**trail ground: {} (goal ≤ 200 ms); no ratio: the peer was skipped (see above)**\n",
            ms(m_own)
        );
    }

    eighteen_of_nineteen(&bin, &dir, &home, &files, peer.as_ref().ok())?;

    if args.iter().any(|a| a == "--keep") {
        println!("(kept: {})", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(())
}

/// Loa's script, when it is in place (byte for byte) and what it runs is installed.
fn loa_peer(args: &[String]) -> Result<PathBuf, String> {
    let script = args.windows(2).find(|w| w[0] == "--loa").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("peers/loa/grounding-check.sh"),
        |w| PathBuf::from(&w[1]),
    );
    if !script.is_file() {
        return Err(format!(
            "{} is missing (bench/peers/loa/README.md says where it comes from)",
            script.display()
        ));
    }
    // What the script runs, on the PATH the launcher gives it.
    for tool in ["bash", "grep", "bc", "jq", "sha256sum"] {
        if !["/usr/bin", "/bin"]
            .iter()
            .any(|d| Path::new(d).join(tool).is_file())
        {
            return Err(format!("`{tool}` is not installed (in /usr/bin or /bin)"));
        }
    }
    let out = Command::new("sha256sum")
        .arg(&script)
        .output()
        .map_err(io)?;
    let sum = String::from_utf8_lossy(&out.stdout);
    if sum.split_whitespace().next() != Some(LOA_SHA256) {
        return Err(format!(
            "{} is not the script README.md names (SHA-256 {})",
            script.display(),
            sum.split_whitespace().next().unwrap_or("?")
        ));
    }
    Ok(script)
}

/// `repo`'s `crates/` at HEAD in a fresh git repository at `dest`, committed; HEAD's short id.
fn repository(repo: &Path, dest: &Path) -> Result<String, String> {
    std::fs::create_dir_all(dest).map_err(io)?;
    let mut archive = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["archive", "--format=tar", "HEAD", "crates"])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("git archive: {e}"))?;
    let tar = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(dest)
        .stdin(archive.stdout.take().ok_or("git archive: no stdout")?)
        .status()
        .map_err(|e| format!("tar: {e}"))?;
    let archived = archive.wait().map_err(io)?;
    if !archived.success() || !tar.success() {
        return Err(format!(
            "cannot copy crates/ at HEAD of {} (a git checkout is needed)",
            repo.display()
        ));
    }
    crate::session::git(dest, &["init", "-q"])?;
    crate::session::git(dest, &["add", "-A"])?;
    crate::session::git(dest, &["commit", "-q", "-m", "crates/ at HEAD"])?;
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .map_err(io)?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// A source file of the repository: its path under the root and its lines, normalised as the
/// checker compares them.
struct Source {
    rel: String,
    lines: Vec<String>,
}

/// The `.rs` files, sorted; none whose text is about secrets (the redactor would rewrite their
/// quotes, and the secret store is not what is measured).
fn source_files(root: &Path) -> Result<Vec<Source>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "*.rs"])
        .output()
        .map_err(io)?;
    let mut files = Vec::new();
    for rel in String::from_utf8_lossy(&out.stdout).lines() {
        if rel.contains("secret") || rel.contains("/tests/data/") {
            continue;
        }
        let text = std::fs::read_to_string(root.join(rel)).map_err(io)?;
        files.push(Source {
            rel: rel.to_string(),
            lines: text_lines(&text),
        });
    }
    if files.is_empty() {
        return Err("no .rs file in the copied repository".into());
    }
    Ok(files)
}

/// What a citation is made to be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Made {
    Verified,
    Drifted,
    Missing,
}

/// One citation: the file, the line cited, the quote, what it was made to be.
struct Planned {
    rel: String,
    line: usize,
    quote: String,
}

/// A decision's title and its three citations.
struct Decision {
    title: String,
    cited: Vec<Planned>,
}

/// What each of a decision's three citations is made to be: every 25th decision has none that
/// verifies; of the others, a quarter cite a drifted line first, a quarter a missing file
/// first, and a third end with a drifted one.
fn made(i: usize, j: usize) -> Made {
    if i % 25 == 24 {
        return [Made::Drifted, Made::Missing, Made::Drifted][j];
    }
    match (j, i % 4, i % 3) {
        (0, 1, _) | (2, _, 0) => Made::Drifted,
        (0, 2, _) => Made::Missing,
        _ => Made::Verified,
    }
}

/// A line worth quoting: real code of some length, nothing the citation syntax or the redactor
/// would read differently, and found on no other line of its file (so that citing another
/// line of the file makes it drifted, not verified).
fn quotable(file: &Source, i: usize) -> bool {
    let l = &file.lines[i];
    let longest_word = l
        .split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::len)
        .max()
        .unwrap_or(0);
    (24..=100).contains(&l.len())
        && !l.contains(['`', '[', ']', '$', '"', '\''])
        && longest_word < 20
        && file
            .lines
            .iter()
            .enumerate()
            .all(|(k, other)| k == i || !other.contains(l.as_str()))
}

/// The decisions: `n`, three citations each, quoting lines spread over the repository.
fn plan(files: &[Source], n: usize) -> Result<Vec<Decision>, String> {
    let all: Vec<(usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(f, s)| (0..s.lines.len()).map(move |i| (f, i)))
        .collect();
    // A stride prime to the count walks the whole repository without repeating a line.
    let stride = [7919, 7907, 7901]
        .into_iter()
        .find(|s| !all.len().is_multiple_of(*s))
        .unwrap_or(1);
    let mut next = 0usize;
    let mut pick = || -> Result<(usize, usize), String> {
        for _ in 0..all.len() {
            next = (next + stride) % all.len();
            let (f, i) = all[next];
            if quotable(&files[f], i) && files[f].lines.len() > 12 {
                return Ok((f, i));
            }
        }
        Err("no quotable line left in the repository".into())
    };
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let mut cited = Vec::with_capacity(3);
        for j in 0..3 {
            let (f, line) = pick()?;
            let file = &files[f];
            let quote = file.lines[line].clone();
            let (rel, cited_line) = match made(i, j) {
                Made::Verified => (file.rel.clone(), line + 1),
                // Another line of the file: the quote is only on its own.
                Made::Drifted => (
                    file.rel.clone(),
                    if line >= 6 { line - 5 } else { line + 7 },
                ),
                Made::Missing => {
                    let dir = file.rel.rsplit_once('/').map_or("", |(d, _)| d);
                    (format!("{dir}/removed_{i}_{j}.rs"), line + 1)
                }
            };
            cited.push(Planned {
                rel,
                line: cited_line,
                quote,
            });
        }
        let name = cited
            .iter()
            .find(|c| !c.rel.contains("/removed_"))
            .and_then(|c| c.rel.rsplit('/').next())
            .unwrap_or("the file");
        out.push(Decision {
            title: format!("Decision {i}: keep {name} as it is"),
            cited,
        });
    }
    Ok(out)
}

/// What recording the decisions found.
struct Recorded {
    grounded: u64,
    citations: usize,
    by_status: Vec<(Status, usize)>,
}

impl Recorded {
    fn statuses(&self) -> String {
        self.by_status
            .iter()
            .map(|(s, k)| format!("{k} {s}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Each decision recorded as `trail decide` records it.
fn record(home: &Path, root: &Path, plan: &[Decision]) -> Result<Recorded, String> {
    let ledger = Ledger::open(
        home.join("ledger"),
        LedgerOptions::new(home.join(".secrets")),
    );
    let project = Project::discover(root);
    let notes = Location {
        rel: "NOTES.md".into(),
        path: root.join("NOTES.md"),
        from: "default".into(),
    };
    let cx = decision::Context {
        root,
        ledger: &ledger,
        project: &project,
        session: Some("bench-ground"),
        notes: &notes,
        bead_in_progress: None,
    };
    let mut grounded = 0;
    let mut citations = 0;
    let mut by_status: Vec<(Status, usize)> = Vec::new();
    for d in plan {
        let req = Request {
            title: d.title.clone(),
            decision: "leave it where it is".into(),
            rationale: "the cited code says why".into(),
            evidence: d
                .cited
                .iter()
                .map(|c| format!("`{}` [${{PROJECT_ROOT}}/{}:{}]", c.quote, c.rel, c.line))
                .collect(),
            tests: vec![
                "happy: it builds".into(),
                "edge: an empty file".into(),
                "error: a missing file".into(),
            ],
            bead: None,
        };
        let r = decision::record(&cx, req).map_err(io)?;
        if let Some(e) = &r.notes_error {
            return Err(format!("NOTES.md was not written: {e}"));
        }
        citations += r.citations.len();
        if r.citations.iter().any(|c| c.status == Status::Verified) {
            grounded += 1;
        }
        for c in &r.citations {
            match by_status.iter_mut().find(|(s, _)| *s == c.status) {
                Some((_, k)) => *k += 1,
                None => by_status.push((c.status, 1)),
            }
        }
    }
    by_status.sort();
    Ok(Recorded {
        grounded,
        citations,
        by_status,
    })
}

/// The label Loa's agent gives claim `i`: every 25th decision (none of whose citations
/// verifies) is labelled in turn `assumption` (honestly), `code_reference`, `user_input` and
/// `citation` (what its protocol asks every citation to say); all others `citation`.
fn loa_label(i: usize) -> &'static str {
    match i % 100 {
        24 => "assumption",
        49 => "code_reference",
        74 => "user_input",
        _ => "citation",
    }
}

/// The same decisions as Loa's trajectory: one `cite` line each, its protocol's `citations`
/// shape (claim, code, absolute path, line, grounding), compact as its `jq -c` writes them.
fn write_loa(root: &Path, file: &Path, plan: &[Decision]) -> Result<(), String> {
    use std::io::Write;
    std::fs::create_dir_all(file.parent().ok_or("no parent")?).map_err(io)?;
    let abs = root.canonicalize().map_err(io)?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(file).map_err(io)?);
    for (i, d) in plan.iter().enumerate() {
        let citations: Vec<serde_json::Value> = d
            .cited
            .iter()
            .map(|c| {
                serde_json::json!({
                    "claim": d.title,
                    "code": c.quote,
                    "path": abs.join(&c.rel).display().to_string(),
                    "line": c.line,
                    "score": 0.9,
                    "grounding": loa_label(i),
                })
            })
            .collect();
        let line = serde_json::json!({
            "ts": format!("{LOA_DAY}T10:{:02}:{:02}Z", i / 60 % 60, i % 60),
            "agent": LOA_AGENT,
            "phase": "cite",
            "citations": citations,
        });
        writeln!(out, "{line}").map_err(io)?;
    }
    out.flush().map_err(io)
}

/// `trail ground --json`'s answer (exit 0 or 1: both answer).
fn trail_json(argv: &[&str], env: &[(&'static str, PathBuf)]) -> Result<serde_json::Value, String> {
    let out = Command::new(argv[0])
        .args(&argv[1..])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .envs(env.iter().map(|(k, v)| (*k, v.as_path())))
        .output()
        .map_err(io)?;
    serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "{argv:?} (exit {:?}): {e}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// What Loa's script said: its `key=value` lines, its exit code, and what it wrote to stderr.
struct LoaAnswer {
    pairs: Vec<(String, String)>,
    code: Option<i32>,
    stderr: String,
}

impl LoaAnswer {
    fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn summary(&self) -> String {
        match (self.get("grounding_ratio"), self.get("status")) {
            (Some(r), Some(s)) => format!(
                "`grounding_ratio={r}` ({}/{}) {s}, exit {}",
                self.get("grounded_claims").unwrap_or("?"),
                self.get("total_claims").unwrap_or("?"),
                self.code.map_or("none".into(), |c| c.to_string())
            ),
            _ => format!(
                "nothing on stdout, exit {}; stderr: `{}`",
                self.code.map_or("none".into(), |c| c.to_string()),
                self.stderr.replace('\n', " ⏎ ")
            ),
        }
    }
}

fn run_loa(
    script: &Path,
    env: &[(&'static str, PathBuf)],
    threshold: &str,
) -> Result<LoaAnswer, String> {
    let out = Command::new("/bin/bash")
        .arg(script)
        .args([LOA_AGENT, threshold, LOA_DAY])
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .envs(env.iter().map(|(k, v)| (*k, v.as_path())))
        .output()
        .map_err(io)?;
    let pairs = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Ok(LoaAnswer {
        pairs,
        code: out.status.code(),
        // The script's path out of its messages: `line 68: …` says where.
        stderr: String::from_utf8_lossy(&out.stderr)
            .replace(&format!("{}: ", script.display()), "")
            .trim()
            .to_string(),
    })
}

fn shown(v: &serde_json::Value) -> String {
    format!(
        "{} ({})",
        v["ratio"],
        v["ratio_exact"].as_str().unwrap_or("?")
    )
}

fn refs<'a>(v: &'a [(&'static str, PathBuf)]) -> Vec<(&'static str, &'a Path)> {
    v.iter().map(|(k, p)| (*k, p.as_path())).collect()
}

/// 18 grounded decisions of 19 (and then 19 of 20), at the threshold 0.95: trail's answer from
/// its own trajectory and from Loa's, and Loa's script on Loa's, labelled as its agents label
/// claims (18 `citation`, 1 `assumption`) and with every label present (which its `grep -c`
/// counting needs: a label found on no line breaks its arithmetic).
fn eighteen_of_nineteen(
    bin: &str,
    dir: &Path,
    home: &Path,
    files: &[Source],
    peer: Option<&PathBuf>,
) -> Result<(), String> {
    let root = dir.join("nineteen");
    let loa_root = dir.join("nineteen-loa");
    // One real file of the repository, in both projects.
    let file = files
        .iter()
        .find(|f| f.lines.len() > 60)
        .ok_or("no file of 60 lines")?;
    let source = dir.join("trail-project").join(&file.rel);
    for r in [&root, &loa_root] {
        let dest = r.join(&file.rel);
        std::fs::create_dir_all(dest.parent().ok_or("no parent")?).map_err(io)?;
        std::fs::copy(&source, &dest).map_err(io)?;
    }
    let quotable: Vec<usize> = (0..file.lines.len())
        .filter(|&i| quotable(file, i) && i >= 6)
        .collect();
    if quotable.len() < 20 {
        return Err(format!("{} has fewer than 20 quotable lines", file.rel));
    }
    // Decision k cites quotable line k; the 19th cites it five lines off (drifted).
    let decision = |k: usize, drifted: bool| Decision {
        title: format!("Claim {k} about {}", file.rel),
        cited: vec![Planned {
            rel: file.rel.clone(),
            line: quotable[k] + 1 - if drifted { 5 } else { 0 },
            quote: file.lines[quotable[k]].clone(),
        }],
    };
    let mut plan: Vec<Decision> = (0..19).map(|k| decision(k, k == 18)).collect();
    let home19 = home.join("nineteen");
    let env = |r: &Path| {
        let mut e = trail_env(&home19);
        e.push(("CLAUDE_PROJECT_DIR", r.to_path_buf()));
        e
    };
    let ground = [bin, "ground", "--json", "--threshold", "0.95"];
    record(&home19, &root, &plan)?;
    let t19 = trail_json(&ground, &env(&root))?;
    // Loa's trajectory of the same 19 claims, shape 1 of its protocol (claim, grounding, evidence).
    let loa_file = loa_root.join(format!(
        "loa-grimoire/a2a/trajectory/{LOA_AGENT}-{LOA_DAY}.jsonl"
    ));
    std::fs::create_dir_all(loa_file.parent().ok_or("no parent")?).map_err(io)?;
    let write = |labels: &[&str], plan: &[Decision]| -> Result<(), String> {
        let mut text = String::new();
        for (d, label) in plan.iter().zip(labels) {
            let c = &d.cited[0];
            let v = serde_json::json!({
                "ts": format!("{LOA_DAY}T10:00:00Z"),
                "agent": LOA_AGENT,
                "phase": "cite",
                "claim": d.title,
                "grounding": label,
                "evidence": {
                    "quote": c.quote,
                    "path": format!("${{PROJECT_ROOT}}/{}", c.rel),
                    "line": c.line,
                },
            });
            text.push_str(&format!("{v}\n"));
        }
        std::fs::write(&loa_file, text).map_err(io)
    };
    let as_agents = |total: usize| -> Vec<&str> {
        (0..total)
            .map(|k| if k == 18 { "assumption" } else { "citation" })
            .collect()
    };
    let every_label = |total: usize| -> Vec<&str> {
        (0..total)
            .map(|k| match k {
                0 => "code_reference",
                1 => "user_input",
                18 => "assumption",
                _ => "citation",
            })
            .collect()
    };
    let loa_env: Vec<(&'static str, PathBuf)> = vec![("PROJECT_ROOT", loa_root.clone())];
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let loa_say = |labels: &[&str], plan: &[Decision]| -> Result<String, String> {
        write(labels, plan)?;
        Ok(match peer {
            Some(script) => run_loa(script, &loa_env, "0.95")?.summary(),
            None => "SKIP (see above)".into(),
        })
    };
    write(&as_agents(19), &plan)?;
    let t19_loa = trail_json(&ground, &env(&loa_root))?;
    rows.push((
        "18 of 19, labelled as Loa's agents label (18 `citation`, 1 `assumption`)".into(),
        format!(
            "{} {} (its trajectory), {} {} (Loa's)",
            shown(&t19),
            t19["status"].as_str().unwrap_or("?"),
            shown(&t19_loa),
            t19_loa["status"].as_str().unwrap_or("?")
        ),
        loa_say(&as_agents(19), &plan)?,
    ));
    rows.push((
        "18 of 19, with every label present (16 `citation`, 1 `code_reference`, 1 `user_input`, 1 `assumption`)".into(),
        format!("{} {}", shown(&t19), t19["status"].as_str().unwrap_or("?")),
        loa_say(&every_label(19), &plan)?,
    ));
    // A 20th grounded decision: 19 of 20, exactly 0.95.
    plan.push(decision(19, false));
    record(&home19, &root, &plan[19..])?;
    let t20 = trail_json(&ground, &env(&root))?;
    rows.push((
        "19 of 20, labelled as Loa's agents label (19 `citation`, 1 `assumption`)".into(),
        format!("{} {}", shown(&t20), t20["status"].as_str().unwrap_or("?")),
        loa_say(&as_agents(20), &plan)?,
    ));
    rows.push((
        "19 of 20, with every label present".into(),
        format!("{} {}", shown(&t20), t20["status"].as_str().unwrap_or("?")),
        loa_say(&every_label(20), &plan)?,
    ));
    println!("## 18 grounded decisions of 19, threshold 0.95\n");
    println!("| trajectory | `trail ground` | Loa `grounding-check.sh` |\n|---|---|---|");
    for (what, trail, loa) in &rows {
        println!("| {what} | {trail} | {loa} |");
    }
    println!();
    let says = |v: &serde_json::Value, exact: &str, status: &str| {
        v["ratio_exact"].as_str() == Some(exact) && v["status"].as_str() == Some(status)
    };
    if !(says(&t19, "18/19", "fail")
        && says(&t19_loa, "18/19", "fail")
        && t19["ratio"].as_f64() == Some(0.947)
        && says(&t20, "19/20", "pass"))
    {
        return Err(format!(
            "trail ground got 18/19 or 19/20 wrong: {t19} / {t19_loa} / {t20}"
        ));
    }
    Ok(())
}
