//! `trail doctor`: every check of `trail_core::doctor`, one line each (ok, or the problem and
//! its fix), or `--json`. Exit 0 healthy, 1 with problems. Running the host CLIs for their
//! versions happens here: the library spawns nothing but git and the dream's command.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use trail_core::config::Config;
use trail_core::doctor::{
    Finding, Ground, Level, binary, confine, hooks, secrets, setup, versions,
};

use crate::cli::DoctorArgs;
use crate::error::{CliError, CliResult};
use crate::output;

/// How long a host CLI may take to say its version.
const VERSION_TIMEOUT: Duration = Duration::from_secs(5);

pub fn run(args: &DoctorArgs) -> CliResult {
    let checks = check_all()?;
    let problems: Vec<&Finding> = checks.iter().flat_map(|(_, f)| f).collect();
    // A recommendation (WARN) is said, and is not a failure.
    let ok = problems.iter().all(|f| f.level == Level::Warn);
    if args.json {
        #[derive(serde::Serialize)]
        struct J<'a> {
            ok: bool,
            problems: &'a [&'a Finding],
        }
        output::json(&J {
            ok,
            problems: &problems,
        })?;
    } else {
        output::text(&describe(&checks))?;
    }
    if ok {
        Ok(())
    } else {
        Err(CliError::CheckFailed)
    }
}

const CHECK_SYNC: &str = "sync";

/// How the last `trail sync` went, when a remote is set: offline is a warning (nothing is lost,
/// the next sync sends it); a machine's history refused is a failure to look into.
fn sync(c: &Config) -> Vec<Finding> {
    let ledger = c.ledger();
    let places = trail_sync::Places::of(&ledger);
    let Some(remote) = trail_sync::remote(&places) else {
        return Vec::new();
    };
    let Some(last) = trail_sync::last(&places) else {
        return vec![
            Finding::new(
                CHECK_SYNC,
                format!("the ledger syncs through {remote}, and no sync has finished yet"),
                "run `trail sync` (it also runs by itself after a session)",
            )
            .warning(),
        ];
    };
    let mut out = Vec::new();
    if let Some(e) = &last.offline {
        out.push(
            Finding::new(
                CHECK_SYNC,
                format!("the last sync ({}) could not reach {remote}: {e}", last.at),
                "nothing is lost: the next sync sends it; check the URL (`trail sync --remote \
                 URL` to change it) and your network or ssh access, then `trail sync`",
            )
            .warning(),
        );
    }
    for f in last
        .findings
        .iter()
        .filter(|f| f.problem != trail_sync::Refusal::Unknown)
    {
        out.push(Finding::new(
            CHECK_SYNC,
            format!(
                "the last sync ({}) refused machine {}: {}",
                last.at, f.machine, f.detail
            ),
            "nothing refused was written; SECURITY.md \"Sync\" says what it means and what to do",
        ));
    }
    out
}

/// Every check, in the order a person would fix them, with its findings (none: ok).
fn check_all() -> CliResult<Vec<(&'static str, Vec<Finding>)>> {
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .ok_or_else(|| CliError::usage("HOME is not set"))?;
    let loaded = Config::load();
    let root = match &loaded {
        Ok(c) => c.project_root.value.clone(),
        Err(_) => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
    };
    let g = Ground::from_env(home.clone(), root);
    let commands = hooks::installed_commands(&g);
    let (unreachable, programs) = hooks::reachable(&g, &commands);
    let mut checks = vec![
        (hooks::CHECK_INSTALLED, hooks::installed(&commands)),
        (hooks::CHECK_REACHABLE, unreachable),
        (hooks::CHECK_SWITCHED_OFF, hooks::switched_off(&g)),
        (hooks::CHECK_WEAKENED, hooks::weakened(&g)),
        (hooks::CHECK_CODEX_TRUST, hooks::codex_trust(&g)),
        (hooks::CHECK_CLEANUP, hooks::cleanup_period(&g)),
        (
            setup::CHECK_CONFIG,
            setup::config(&loaded, trail_gate::custom::check),
        ),
        (
            setup::CHECK_HOSTS,
            setup::hosts(g.path.as_deref()).into_iter().collect(),
        ),
        (
            setup::CHECK_MCP,
            setup::mcp_server(&g.project_root, g.path.as_deref())
                .into_iter()
                .collect(),
        ),
    ];
    if let Ok(c) = &loaded {
        checks.push((
            setup::CHECK_RECORDS,
            setup::records_writable(&c.home.value).into_iter().collect(),
        ));
    }
    let secrets_dir = match &loaded {
        Ok(c) => {
            // A ledger that cannot be read at all is a finding too, never doctor's own failure.
            let stream = match c.ledger().verify(&mut |_, _| {}) {
                Ok(report) => setup::stream(&report),
                Err(e) => Some(Finding::new(
                    setup::CHECK_STREAM,
                    format!("the stream cannot be read: {e}"),
                    "see the records check above; `trail verify` says more once it can read",
                )),
            };
            checks.push((setup::CHECK_STREAM, stream.into_iter().collect()));
            checks.push((CHECK_SYNC, sync(c)));
            c.secrets_dir.value.clone()
        }
        Err(_) => home.join(".secrets"),
    };
    checks.push((secrets::CHECK, secrets::permissions(&secrets_dir)));
    checks.push((confine::CHECK, confinement(&loaded, &g, &commands)));
    checks.push((versions::CHECK, host_versions(&g)));
    let slow = programs.iter().filter_map(|p| binary::static_build(p));
    checks.push((binary::CHECK_STATIC, slow.collect()));
    Ok(checks)
}

/// Whether the agent's commands run confined: bubblewrap found and probed, and no host
/// sandbox in the way.
fn confinement(
    loaded: &Result<Config, trail_core::config::ConfigError>,
    g: &Ground,
    commands: &[(PathBuf, String)],
) -> Vec<Finding> {
    let mode = loaded
        .as_ref()
        .map_or(trail_core::confine::Mode::Auto, |c| c.confine_mode.value);
    let found = trail_core::confine::bwrap::find();
    let bwrap = match &found {
        None => confine::Bubblewrap::Missing,
        Some(p) => confine::Bubblewrap::Found(p, trail_core::confine::bwrap::probe(p)),
    };
    let codex_hooks = commands.iter().any(|(_, c)| c.ends_with("hook codex"));
    confine::check(mode, &bwrap, g, codex_hooks)
}

/// The host CLIs on PATH that report a version newer than the tested one.
fn host_versions(g: &Ground) -> Vec<Finding> {
    versions::TESTED
        .iter()
        .filter_map(|(program, tested)| {
            let exe = binary::resolve(program, g.path.as_deref())?;
            let reported = version_of(&exe)?;
            versions::newer(program, tested, &reported)
        })
        .collect()
}

/// `exe --version`'s output, or `None` if it fails or takes longer than [`VERSION_TIMEOUT`].
fn version_of(exe: &Path) -> Option<String> {
    let mut child = Command::new(exe)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < VERSION_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let out = child.wait_with_output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `ok    check`, or `FAIL  check: problem` and its `fix:` line, then the verdict.
fn describe(checks: &[(&str, Vec<Finding>)]) -> String {
    let mut s = String::new();
    let (mut failed, mut warned) = (0, 0);
    for (name, findings) in checks {
        if findings.is_empty() {
            s.push_str(&format!(
                "{}    {name}\n",
                output::paint("ok", output::Tone::Good)
            ));
        }
        for f in findings {
            let tag = match f.level {
                Level::Fail => {
                    failed += 1;
                    output::paint("FAIL", output::Tone::Bad)
                }
                Level::Warn => {
                    warned += 1;
                    output::paint("WARN", output::Tone::Caution)
                }
            };
            s.push_str(&format!(
                "{tag}  {name}: {}\n      fix: {}\n",
                f.problem, f.fix
            ));
        }
    }
    match (failed, warned) {
        (0, 0) => s.push_str("healthy: nothing disables or weakens trail\n"),
        (0, w) => s.push_str(&format!(
            "healthy: nothing disables or weakens trail; {w} recommendation(s) above\n"
        )),
        (f, _) => s.push_str(&format!("{f} problem(s)\n")),
    }
    s
}
