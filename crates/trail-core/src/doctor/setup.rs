//! trail's own side: its configuration loads and every rule in it works, and its stream
//! verifies.

use crate::config::{Config, ConfigError};
use crate::ledger::verify::Report;

use super::Finding;

pub const CHECK_CONFIG: &str = "config";
pub const CHECK_STREAM: &str = "stream";
pub const CHECK_RECORDS: &str = "records";
pub const CHECK_MCP: &str = "mcp server";
pub const CHECK_HOSTS: &str = "agent host";

/// A configuration that does not load, a gate or secret rule that does not work, and settings
/// of an untrusted project file that are left out.
pub fn config(
    loaded: &Result<Config, ConfigError>,
    check_gate_rule: crate::config::GateRuleCheck,
) -> Vec<Finding> {
    let broken = |e: &ConfigError| {
        Finding::new(
            CHECK_CONFIG,
            format!("{e}"),
            "fix the setting named (`trail config --help` says what each takes); until then \
             every trail command and hook stops at it",
        )
    };
    let c = match loaded {
        Ok(c) => c,
        Err(e) => return vec![broken(e)],
    };
    let mut out: Vec<Finding> = [c.check_gate_rules(check_gate_rule), c.check_secret_rules()]
        .iter()
        .filter_map(|r| r.as_ref().err().map(broken))
        .collect();
    if !c.refused.is_empty() {
        let keys: Vec<&str> = c.refused.iter().map(|r| r.key.name()).collect();
        out.push(Finding::new(
            CHECK_CONFIG,
            format!(
                "the project's .trail/config.toml sets {} but is not trusted: they are ignored",
                keys.join(", ")
            ),
            "run `trail trust` in the project to let them count (it shows them first)",
        ));
    }
    out
}

/// A stream that fails verification: damaged, truncated or rewritten.
pub fn stream(report: &Report) -> Option<Finding> {
    (!report.ok()).then(|| {
        Finding::new(
            CHECK_STREAM,
            format!(
                "the stream fails verification: {} problem(s) in {} records",
                report.findings.len(),
                report.records
            ),
            "run `trail verify` to see each problem and what to do",
        )
    })
}

/// Whether the hooks can record: the ledger's directory (`TRAIL_HOME`) exists or can be made,
/// and this user may write into it. Otherwise every hook's record is lost, with a line on
/// stderr the person never sees (issue 22: doctor said "healthy").
pub fn records_writable(home: &std::path::Path) -> Option<Finding> {
    use rustix::fs::{Access, access};
    let mut dir = home;
    // The nearest directory that exists is the one a first append creates the rest in.
    while !dir.exists() {
        dir = dir.parent()?;
    }
    let why = if !dir.is_dir() {
        format!("{} is not a directory", dir.display())
    } else if access(dir, Access::WRITE_OK | Access::EXEC_OK).is_err() {
        format!("{} cannot be written by this user", dir.display())
    } else {
        return None;
    };
    Some(Finding::new(
        CHECK_RECORDS,
        format!(
            "trail's ledger {} cannot be written ({why}): every hook's record is lost",
            home.display()
        ),
        format!(
            "make it writable (`chmod u+rwx {}`), or point TRAIL_HOME (ledger.home) at a \
             directory you own",
            dir.display()
        ),
    ))
}

/// trail's MCP server registered in the project's `.mcp.json` by a program that cannot start
/// it: the program is gone, or the server binary (`trail-mcp`) is neither beside it nor on
/// PATH.
pub fn mcp_server(
    project_root: &std::path::Path,
    path: Option<&std::ffi::OsStr>,
) -> Option<Finding> {
    let file = crate::install::mcp::claude_path(project_root);
    let text = std::fs::read_to_string(&file).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let entry = v.get("mcpServers")?.get(crate::install::mcp::SERVER_NAME)?;
    if entry.get("args") != Some(&serde_json::json!(["mcp"])) {
        return None;
    }
    let command = entry.get("command")?.as_str()?;
    let program = super::binary::resolve(command, path);
    let server = program
        .as_ref()
        .map(|p| p.with_file_name("trail-mcp"))
        .filter(|p| p.is_file())
        .or_else(|| super::binary::resolve("trail-mcp", path));
    let problem = match (&program, &server) {
        (None, _) => format!(
            "{} registers `{command} mcp`, and {command} is not there",
            file.display()
        ),
        (Some(_), None) => format!(
            "{} registers `{command} mcp`, but the server it starts, trail-mcp, is neither beside \
             it nor on PATH: the host's MCP tools fail to start",
            file.display()
        ),
        _ => return None,
    };
    Some(Finding::new(
        CHECK_MCP,
        problem,
        "install trail and trail-mcp together (`cargo install-trail` installs both), then run \
         `trail init --mcp` again",
    ))
}

/// Neither agent host trail works with is on the PATH the hooks run with: nothing will run
/// trail's hooks from here.
pub fn hosts(path: Option<&std::ffi::OsStr>) -> Option<Finding> {
    let found = ["claude", "codex"]
        .iter()
        .any(|h| super::binary::resolve(h, path).is_some());
    (!found).then(|| {
        Finding::new(
            CHECK_HOSTS,
            "neither `claude` (Claude Code) nor `codex` (Codex CLI) is on PATH: no agent host \
             here runs trail's hooks",
            "install the agent you use (Claude Code: `npm install -g @anthropic-ai/claude-code`; \
             Codex: `npm install -g @openai/codex`), or run doctor with the PATH the agent runs with",
        )
    })
}
