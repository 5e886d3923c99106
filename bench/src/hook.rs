//! The hook path as whole processes: `trail hook claude-code` on a PreToolUse Bash payload
//! against spawning `/bin/true` the same way and against a minimal Python hook (PyYAML state,
//! one JSONL line); PostToolUse with its durable proof line, and of an edit, which also pulses;
//! and both again with a long session behind them (a 100,000-line proof log and a 100 MB pulse
//! stream).
//!
//! `--compare LABEL=PATH` (repeatable) runs another build of `trail` through the same PreToolUse
//! and PostToolUse in the same loop, so builds are compared side by side: `bench/run.sh hook
//! --compare "cargo install=/tmp/x/bin/trail"`.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use crate::process::{Launcher, trail_env};
use crate::stats::{median, ms};
use crate::{flag, trail_bin};

/// The label of the compared build that is this one, just installed.
const JUST_INSTALLED: &str = "the same build, just installed (a fresh copy, cached as written)";

const PRE: &str = r#"{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cargo test -p trail -- --nocapture 2>&1 | tail -20","description":"Run the tests"},"tool_use_id":"toolu_1"}"#;
const POST: &str = r#"{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"cargo test"},"tool_response":{"stdout":"test result: ok. 37 passed","stderr":"","interrupted":false},"tool_use_id":"toolu_1"}"#;
/// An edit changes state (LedgerPulse §8), so its PostToolUse writes a pulse as well.
const POST_EDIT: &str = r#"{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"src/total.rs","old_string":"let total = a + b;","new_string":"let total = a.round() + b.round();"},"tool_response":{"filePath":"src/total.rs","success":true},"tool_use_id":"toolu_2"}"#;

/// The same events carrying secrets: a Bash command with credentials in flags, a URL, a header
/// and an export (PreToolUse), and a tool response that printed an environment and a private
/// key (PostToolUse, whose proof line is redacted before it is written). All values are fake.
const PRE_SECRET: &str = r#"{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"export AWS_SECRET_ACCESS_KEY=Zk8pQ2mV7xR4tY1uI9oP3aS6dF0gH5jK2lZ8cX4v GITHUB_TOKEN=ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES && curl -u deploy:Tr41lS3cr3tPassw0rd -H \"Authorization: Bearer Lm3Nq8Rt2Vx6Zb9Cd4Fg\" https://admin:Zx81qPv0LmN4@registry.example.com/v2/ && mysql -u root -pS3cretPass42 app","description":"Deploy"},"tool_use_id":"toolu_1"}"#;
const POST_SECRET: &str = r#"{"session_id":"bench","transcript_path":"/tmp/t.jsonl","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"env && cat deploy.pem"},"tool_response":{"stdout":"DATABASE_URL=postgres://app:S3cr3t!pw9@db.internal:5432/app\nSTRIPE_SECRET_KEY=sk_live_mrcXgGCJbW56eCuNGMGmSrCGIZEG8pSH4487q7J58m1CiAhzCueQpBen\nSLACK_TOKEN=xoxb-16761222029-729975288200-ZUPgHV7iB3m03nbqnsGpWLuq\napi_key = \"q7W2e9R4t1Y6u3I8o5P0\"\n-----BEGIN RSA PRIVATE KEY-----\nmdVPlW354z9gY69gmsXlO85zSLAAUkNEbCiW69DD48gKSdUkz+Pe/pIlRvnZzM6M\nr8bpf1iIFYqNfMxhM8nAuO77O0+bDq1ld7U07UGWwALKYnWKFonOWsUQO2WUheVC\n-----END RSA PRIVATE KEY-----","stderr":"","interrupted":false},"tool_use_id":"toolu_1"}"#;

type Env = Vec<(&'static str, std::path::PathBuf)>;

fn borrow(v: &Env) -> Vec<(&str, &Path)> {
    v.iter().map(|(k, p)| (*k, p.as_path())).collect()
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn run(args: &[String]) -> Result<(), String> {
    let runs = flag(args, "--runs", 200);
    let mut l = Launcher::start()?;
    let dir = crate::append::tempdir_in_target()?;
    let bin = trail_bin()?;
    let bin = bin.to_str().ok_or("non-UTF-8 path")?.to_string();
    let pre = dir.join("pre.json");
    let post = dir.join("post.json");
    write(&pre, PRE)?;
    write(&post, POST)?;
    let post_edit = dir.join("post-edit.json");
    write(&post_edit, POST_EDIT)?;
    let pre_secret = dir.join("pre-secret.json");
    let post_secret = dir.join("post-secret.json");
    write(&pre_secret, PRE_SECRET)?;
    write(&post_secret, POST_SECRET)?;
    // The Python peer's 2 KB state file.
    let mut yaml =
        String::from("schema_version: 4\nmode: active\nobjective: \"Ship the hook\"\nplan:\n");
    while yaml.len() < 2048 {
        yaml.push_str(&format!(
            "  - description: \"step {} of the plan with some words\"\n    status: pending\n",
            yaml.len()
        ));
    }
    write(&dir.join("active_context.yaml"), &yaml)?;
    let peer = Path::new(env!("CARGO_MANIFEST_DIR")).join("peer_hook.py");
    let peer = peer.to_str().ok_or("non-UTF-8 path")?.to_string();

    let project = dir.join("project");
    std::fs::create_dir_all(project.join(".git")).map_err(|e| e.to_string())?;
    let mut env_pre: Env = trail_env(&dir);
    env_pre.push(("CLAUDE_PROJECT_DIR", project.clone()));
    env_pre.push(("STDIN", pre.clone()));
    let mut env_post = env_pre.clone();
    env_post.last_mut().unwrap().1.clone_from(&post);
    let mut e_pre_secret = env_pre.clone();
    e_pre_secret.last_mut().unwrap().1.clone_from(&pre_secret);
    let mut e_post_secret = env_pre.clone();
    e_post_secret.last_mut().unwrap().1.clone_from(&post_secret);
    let mut e_post_edit = env_pre.clone();
    e_post_edit.last_mut().unwrap().1.clone_from(&post_edit);
    let e_true = vec![("STDIN", pre.clone())];
    let e_peer = vec![("STDIN", pre.clone()), ("PEER_DIR", dir.clone())];
    let (e_pre, e_post) = (env_pre, env_post);
    let mut compare = compared(args)?;
    // The same build as `cargo install` leaves it: a copy just written, whose pages stay cached
    // in the large folios the writes made, where `trail_bin`'s copy is dropped and read back by
    // page faults, in 4 KB pages, as after a reboot (`crate::from_disk`). Each hook faults as
    // often in both, but mapping a window of small folios costs more: the same bytes started
    // 0.2-0.3 ms sooner just installed (2026-12-04). Both states are what a person runs, one
    // after the other, so both are measured.
    let installed = dir.join("installed-just-now").join("trail");
    std::fs::create_dir_all(installed.parent().unwrap()).map_err(|e| e.to_string())?;
    // From the linker's file, not from `bin`: reading `bin` to copy it would cache it again,
    // through the read path, in large folios.
    let built = std::env::current_exe()
        .map_err(|e| e.to_string())?
        .with_file_name("trail");
    std::fs::copy(&built, &installed).map_err(|e| format!("{}: {e}", installed.display()))?;
    compare.insert(
        0,
        (
            JUST_INSTALLED.to_string(),
            installed.to_str().ok_or("non-UTF-8 path")?.to_string(),
        ),
    );
    // `--base BIN`: another build of trail (the tree before a change), run interleaved with
    // this one on the same PreToolUse, so a change's cost to the hook is a ratio of one run.
    let base = args
        .windows(2)
        .find(|w| w[0] == "--base")
        .map(|w| w[1].clone());
    if let Some(b) = &base {
        crate::from_disk(Path::new(b))?;
    }
    // The jobs' places in `jobs`.
    const J_TRUE: usize = 0;
    const J_PRE: usize = 1;
    const J_POST: usize = 2;
    const J_PRE_SECRET: usize = 3;
    const J_POST_SECRET: usize = 4;
    const J_POST_EDIT: usize = 5;
    const J_PEER: usize = 6;
    let hook_argv = |b: &str| vec![b.to_string(), "hook".into(), "claude-code".into()];
    let mut jobs = vec![
        Job::new(&e_true, vec!["/bin/true".into()]),
        Job::new(&e_pre, hook_argv(&bin)),
        Job::new(&e_post, hook_argv(&bin)),
        Job::new(&e_pre_secret, hook_argv(&bin)),
        Job::new(&e_post_secret, hook_argv(&bin)),
        Job::new(&e_post_edit, hook_argv(&bin)),
        // The Python peer is slow: a quarter of the runs are plenty.
        Job::new(&e_peer, vec!["/usr/bin/python3".into(), peer.clone()]).every(4),
    ];
    let base_job = base.as_ref().map(|b| {
        jobs.push(Job::new(&e_pre, hook_argv(b)));
        jobs.len() - 1
    });
    // The compared builds run PreToolUse, PostToolUse and the secret-heavy PostToolUse (where
    // a redactor change costs), in the same loop.
    let compare_jobs: Vec<(usize, usize, usize)> = compare
        .iter()
        .map(|(_, other)| {
            jobs.push(Job::new(&e_pre, hook_argv(other)));
            jobs.push(Job::new(&e_post, hook_argv(other)));
            jobs.push(Job::new(&e_post_secret, hook_argv(other)));
            (jobs.len() - 3, jobs.len() - 2, jobs.len() - 1)
        })
        .collect();
    // Each round starts one job later, so that every job follows every other equally often: a
    // process run just after one that fsynced (PostToolUse, an edit's pulse) waits for the
    // disk's flush and the kernel's writeback threads on a 2-core machine, and in a fixed order
    // that wait fell on whichever job came next (the compared builds' PreToolUse came after the
    // edit's PostToolUse in every round).
    for i in 0..runs {
        for k in 0..jobs.len() {
            let j = (i + k) % jobs.len();
            if i % jobs[j].every == 0 {
                jobs[j].run(&mut l)?;
            }
        }
    }
    let m = |j: usize| jobs[j].medians();
    let (m_true, m_pre, m_post, m_peer) = (m(J_TRUE), m(J_PRE), m(J_POST), m(J_PEER));
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    // PreToolUse and PostToolUse only, as the compared builds are measured.
    let rss_plain = jobs[J_PRE].kb.max(jobs[J_POST].kb);
    let rss = [J_PRE, J_POST, J_PRE_SECRET, J_POST_SECRET, J_POST_EDIT]
        .iter()
        .map(|&j| jobs[j].kb)
        .max()
        .unwrap_or(0);
    println!(
        "## `trail hook claude-code` as a whole process ({runs} runs, interleaved, each round starting one job later)"
    );
    println!("| | median | CPU time (user + system), median |\n|---|---|---|");
    let row = |what: &str, (wall, cpu): (Duration, Duration)| {
        println!("| {what} | {} | {} |", ms(wall), ms(cpu));
    };
    row("PreToolUse Bash (parse + gate)", m_pre);
    row("PostToolUse (one durable proof line)", m_post);
    let m_post_edit = m(J_POST_EDIT);
    row(
        "PostToolUse of an edit (proof line + state-changing pulse)",
        m_post_edit,
    );
    let (m_pre_secret, m_post_secret) = (m(J_PRE_SECRET), m(J_POST_SECRET));
    row(
        "PreToolUse Bash, secret-heavy command (5 secrets)",
        m_pre_secret,
    );
    row(
        "PostToolUse, secret-heavy output redacted (6 secrets and a key)",
        m_post_secret,
    );
    row("`/bin/true`, same stdin", m_true);
    row(
        "Python peer (json + PyYAML 2 KB state + JSONL line)",
        m_peer,
    );
    println!(
        "\n**PreToolUse = {:.2}× /bin/true (goal ≤ 1.5×; CPU time {:.2}×); Python peer / PreToolUse = {:.0}× (goal ≥ 20×); PostToolUse {} (goal ≤ 3 ms); peak RSS of the hooks {:.1} MB (goal ≤ 4 MB)**\n",
        ratio(m_pre.0, m_true.0),
        ratio(m_pre.1, m_true.1),
        ratio(m_peer.0, m_pre.0),
        ms(m_post.0),
        rss as f64 / 1024.0
    );
    if let Some(b) = base_job {
        let m_base = m(b);
        println!(
            "**PreToolUse: this build {} = {:.2}× /bin/true; base build ({}) {} = {:.2}× /bin/true; this / base = {:.3}× (CPU time {:.3}×)**\n",
            ms(m_pre.0),
            ratio(m_pre.0, m_true.0),
            jobs[b].argv[0],
            ms(m_base.0),
            ratio(m_base.0, m_true.0),
            ratio(m_pre.0, m_base.0),
            ratio(m_pre.1, m_base.1)
        );
    }
    println!(
        "**Secret-heavy: PreToolUse = {:.2}× /bin/true (goal ≤ 1.5×); PostToolUse {} = {:.2}× /bin/true (goal ≤ 3 ms); peak RSS PreToolUse {:.1} MB, PostToolUse {:.1} MB (goal ≤ 4 MB)**\n",
        ratio(m_pre_secret.0, m_true.0),
        ms(m_post_secret.0),
        ratio(m_post_secret.0, m_true.0),
        jobs[J_PRE_SECRET].kb as f64 / 1024.0,
        jobs[J_POST_SECRET].kb as f64 / 1024.0
    );
    {
        println!("## Builds of `trail` side by side (same loop)");
        println!(
            "| build | PreToolUse | × /bin/true | CPU × /bin/true | PostToolUse | × /bin/true | CPU × /bin/true | PostToolUse, secret-heavy | peak RSS (Pre/Post) |\n|---|---|---|---|---|---|---|---|---|"
        );
        let row = |label: &str, [pre, post, secret]: [(Duration, Duration); 3], kb: u64| {
            println!(
                "| {label} | {} | **{:.2}×** | {:.2}× | {} | {:.2}× | {:.2}× | {} | {:.1} MB |",
                ms(pre.0),
                ratio(pre.0, m_true.0),
                ratio(pre.1, m_true.1),
                ms(post.0),
                ratio(post.0, m_true.0),
                ratio(post.1, m_true.1),
                ms(secret.0),
                kb as f64 / 1024.0
            );
        };
        row(
            "this tree's `cargo dist` (static, hot code first), read back from disk",
            [m_pre, m_post, m(J_POST_SECRET)],
            rss_plain,
        );
        for ((label, _), &(pre, post, secret)) in compare.iter().zip(&compare_jobs) {
            row(
                label,
                [m(pre), m(post), m(secret)],
                jobs[pre].kb.max(jobs[post].kb),
            );
        }
        let (pre, post, _) = compare_jobs[0];
        println!(
            "\n**Just installed: PreToolUse = {:.2}× /bin/true, PostToolUse {}; read back from disk (after a reboot): {:.2}×, {}; peak RSS {:.1} MB and {:.1} MB**\n",
            ratio(m(pre).0, m_true.0),
            ms(m(post).0),
            ratio(m_pre.0, m_true.0),
            ms(m_post.0),
            jobs[pre].kb.max(jobs[post].kb) as f64 / 1024.0,
            rss_plain as f64 / 1024.0
        );
    }
    println!(
        "**PostToolUse = {:.2}× /bin/true (CPU time {:.2}×), Python peer / PostToolUse = {:.0}×; of an edit {} = {:.2}× /bin/true (goal ≤ 3 ms)**\n",
        ratio(m_post.0, m_true.0),
        ratio(m_post.1, m_true.1),
        ratio(m_peer.0, m_post.0),
        ms(m_post_edit.0),
        ratio(m_post_edit.0, m_true.0)
    );

    // The same with a long session behind it.
    let log = project.join(".proof").join("session_log.jsonl");
    std::fs::create_dir_all(log.parent().unwrap()).map_err(|e| e.to_string())?;
    {
        let mut f =
            std::io::BufWriter::new(std::fs::File::create(&log).map_err(|e| e.to_string())?);
        for i in 0..100_000 {
            writeln!(f, "{{\"timestamp\":\"2026-11-26T00:00:00.000000Z\",\"tool\":\"Bash\",\"input_preview\":\"cargo test {i}\",\"output_preview\":\"ok\",\"success\":true}}").map_err(|e| e.to_string())?;
        }
    }
    let stream_dir = dir.join("ledger").join("stream");
    std::fs::create_dir_all(&stream_dir).map_err(|e| e.to_string())?;
    crate::resume::generate(
        &stream_dir.join("pulses.log.md"),
        flag(args, "--mb", 100),
        crate::resume::Shape::SEALED,
    )?;
    let (mut long_pre, mut long_post, mut base_pre, mut base_post) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let empty = dir.join("empty");
    let empty_project = empty.join("project");
    std::fs::create_dir_all(empty_project.join(".git")).map_err(|e| e.to_string())?;
    let mut e_pre_empty = trail_env(&empty);
    e_pre_empty.push(("CLAUDE_PROJECT_DIR", empty_project.clone()));
    e_pre_empty.push(("STDIN", pre.clone()));
    let mut e_post_empty = e_pre_empty.clone();
    e_post_empty.last_mut().unwrap().1.clone_from(&post);
    for _ in 0..runs {
        base_pre.push(
            l.run(&borrow(&e_pre_empty), &[&bin, "hook", "claude-code"])?
                .0,
        );
        long_pre.push(l.run(&borrow(&e_pre), &[&bin, "hook", "claude-code"])?.0);
        base_post.push(
            l.run(&borrow(&e_post_empty), &[&bin, "hook", "claude-code"])?
                .0,
        );
        long_post.push(l.run(&borrow(&e_post), &[&bin, "hook", "claude-code"])?.0);
    }
    let (bp, lp, bq, lq) = (
        median(&mut base_pre),
        median(&mut long_pre),
        median(&mut base_post),
        median(&mut long_post),
    );
    println!(
        "## The same hooks with a 100,000-line proof log and a 100 MB pulse stream behind them"
    );
    println!("| | empty session | long session | ratio |\n|---|---|---|---|");
    println!(
        "| PreToolUse | {} | {} | {:.2}× |",
        ms(bp),
        ms(lp),
        lp.as_secs_f64() / bp.as_secs_f64()
    );
    println!(
        "| PostToolUse | {} | {} | {:.2}× |",
        ms(bq),
        ms(lq),
        lq.as_secs_f64() / bq.as_secs_f64()
    );
    println!("\n**goal: within 10 % (≤ 1.10×)**\n");
    every_event_rss(&mut l, &bin, &dir)?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// One process the main loop runs in every round (or every `every`-th), and what it cost.
struct Job<'a> {
    env: &'a Env,
    argv: Vec<String>,
    every: usize,
    wall: Vec<Duration>,
    cpu: Vec<Duration>,
    kb: u64,
}

impl<'a> Job<'a> {
    fn new(env: &'a Env, argv: Vec<String>) -> Job<'a> {
        Job {
            env,
            argv,
            every: 1,
            wall: Vec::new(),
            cpu: Vec::new(),
            kb: 0,
        }
    }

    fn every(mut self, n: usize) -> Job<'a> {
        self.every = n;
        self
    }

    fn run(&mut self, l: &mut Launcher) -> Result<(), String> {
        let argv: Vec<&str> = self.argv.iter().map(String::as_str).collect();
        let t = l.timed(&borrow(self.env), &argv)?;
        self.wall.push(t.wall);
        self.cpu.push(t.cpu);
        self.kb = self.kb.max(t.kb);
        Ok(())
    }

    /// The median wall time and the median CPU time.
    fn medians(&self) -> (Duration, Duration) {
        (
            median(&mut self.wall.clone()),
            median(&mut self.cpu.clone()),
        )
    }
}

/// The other builds `--compare LABEL=PATH` names.
pub(crate) fn compared(args: &[String]) -> Result<Vec<(String, String)>, String> {
    args.windows(2)
        .filter(|w| w[0] == "--compare")
        .map(|w| match w[1].split_once('=') {
            Some((label, path)) if Path::new(path).is_file() => {
                crate::from_disk(Path::new(path))?;
                Ok((label.to_string(), path.to_string()))
            }
            _ => Err(format!(
                "--compare {}: want LABEL=PATH to a trail binary",
                w[1]
            )),
        })
        .collect()
}

/// Peak RSS of every hook event trail handles, in a project with a state file in active mode
/// (the paths that read and write it), each the worst of 20 runs.
fn every_event_rss(l: &mut Launcher, bin: &str, dir: &Path) -> Result<(), String> {
    let base = dir.join("events");
    let project = base.join("project");
    std::fs::create_dir_all(&project).map_err(|e| e.to_string())?;
    // A repository of its own, as a project is: SessionStart's healing asks git what it keeps,
    // and under an empty `.git` git looked past it to the checkout the benchmark runs in, so
    // the hook's peak RSS was that of `git ls-files` over trail's own repository (4.4 MB).
    crate::session::git(&project, &["init", "-q"])?;
    crate::session::git(&project, &["commit", "-q", "--allow-empty", "-m", "start"])?;
    let transcript = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/trail-core/tests/data/transcripts/spotter_tool_heavy.jsonl");
    let t = transcript.to_str().ok_or("non-UTF-8 path")?;
    let edit = project.join("a.rs");
    let e = edit.to_str().ok_or("non-UTF-8 path")?;
    let events: Vec<(&str, String)> = vec![
        ("SessionStart", r#"{"hook_event_name":"SessionStart","session_id":"s1","source":"startup"}"#.into()),
        ("UserPromptSubmit", format!(r#"{{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"go on","transcript_path":"{t}"}}"#)),
        ("UserPromptSubmit /edge approve", r#"{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"/edge approve"}"#.into()),
        ("PreToolUse Bash, allowed", PRE.into()),
        ("PreToolUse Bash, junction", r#"{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"git push origin main"}}"#.into()),
        ("PreToolUse Edit", format!(r#"{{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Edit","tool_input":{{"file_path":"{e}","old_string":"a","new_string":"b"}}}}"#)),
        ("PostToolUse", POST.into()),
        ("PostToolUseFailure", r#"{"hook_event_name":"PostToolUseFailure","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls /x"},"error":"exit 2"}"#.into()),
        ("Stop (active mode)", r#"{"hook_event_name":"Stop","session_id":"s1"}"#.into()),
        ("PreCompact", format!(r#"{{"hook_event_name":"PreCompact","session_id":"s1","trigger":"auto","transcript_path":"{t}"}}"#)),
        ("SessionEnd", format!(r#"{{"hook_event_name":"SessionEnd","session_id":"s1","reason":"exit","transcript_path":"{t}"}}"#)),
    ];
    let mut env: Env = trail_env(&base);
    env.push(("CLAUDE_PROJECT_DIR", project.clone()));
    l.run(
        &borrow(&env),
        &[bin, "mode", "active", "measure every hook"],
    )?;
    // The kernel reports a process's peak RSS as the largest of it and the children it waited
    // for. The first SessionStart in a project runs `git ls-files` (healing: what does git
    // keep?), whose own 3.8 MB then stands as the hook's; later starts read git's answer back
    // from `.trail/state/git-tracked`. The first run is shown apart so that neither hides.
    // The same build as a fresh copy, its pages still cached as the copy wrote them (as
    // `cargo install` leaves its binary until it is evicted): the kernel maps whole large
    // folios of it, so the same code costs more resident memory (`crate::from_disk`).
    let copied = base.join("trail-just-copied");
    std::fs::copy(bin, &copied).map_err(|e| format!("{}: {e}", copied.display()))?;
    let copied = copied.to_str().ok_or("non-UTF-8 path")?;
    println!(
        "## Peak RSS of every hook event (project with a state file in active mode; the first run, and the worst of the 19 after it: the binary read from disk, and a fresh copy of it)"
    );
    println!(
        "| event | first run | worst of the rest | worst of the rest, just copied |\n|---|---|---|---|"
    );
    let (mut worst, mut worst_first, mut worst_copied) = (0, 0, 0);
    for (i, (name, payload)) in events.iter().enumerate() {
        let file = base.join(format!("event-{i}.json"));
        write(&file, payload)?;
        let mut e = env.clone();
        e.push(("STDIN", file));
        let first = l.run(&borrow(&e), &[bin, "hook", "claude-code"])?.1;
        let (mut rss, mut rss_copied) = (0, 0);
        for _ in 1..20 {
            rss = rss.max(l.run(&borrow(&e), &[bin, "hook", "claude-code"])?.1);
            rss_copied = rss_copied.max(l.run(&borrow(&e), &[copied, "hook", "claude-code"])?.1);
        }
        worst = worst.max(rss);
        worst_first = worst_first.max(first);
        worst_copied = worst_copied.max(rss_copied);
        println!(
            "| {name} | {:.1} MB | {:.1} MB | {:.1} MB |",
            first as f64 / 1024.0,
            rss as f64 / 1024.0,
            rss_copied as f64 / 1024.0
        );
    }
    println!(
        "\n**the largest: {:.1} MB after the first run, {:.1} MB on it, git's included; {:.1} MB from a fresh copy (goal: every hook ≤ 4 MB)**\n",
        worst as f64 / 1024.0,
        worst_first as f64 / 1024.0,
        worst_copied as f64 / 1024.0
    );
    Ok(())
}
