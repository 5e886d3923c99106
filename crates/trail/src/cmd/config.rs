//! `trail config`: merged settings and where each came from, one row per line of the settings
//! table (`trail_core::config::SETTINGS`), so it cannot drift from what loading does.

use trail_core::config::{Config, SETTINGS};

use crate::cli::ConfigArgs;
use crate::error::CliResult;
use crate::output;

pub fn run(args: &ConfigArgs) -> CliResult {
    let c = Config::load()?;
    c.check_gate_rules()?;
    if args.json {
        return output::json(&c);
    }
    output::text(&render(&c))
}

/// One line per setting (`key  value  (origin)`), the rule lists, what an untrusted project
/// file could not set, and the files read.
fn render(c: &Config) -> String {
    let mut rows: Vec<(&str, String, String)> = SETTINGS
        .iter()
        .map(|s| {
            let (value, origin) = s.get(c);
            (s.key.name(), value.to_string(), origin.to_string())
        })
        .collect();
    rows.push((
        "project.root",
        c.project_root.value.display().to_string(),
        c.project_root.origin.to_string(),
    ));
    let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let vw = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).min(60);
    let mut s = String::new();
    for (k, v, o) in &rows {
        s.push_str(&format!("{k:w$}  {v:vw$}  ({o})\n"));
    }
    for (r, o) in &c.secret_rules {
        s.push_str(&format!("{:w$}  {:vw$}  ({o})\n", "secrets.rules", r.name));
    }
    for (r, o) in &c.gate_rules {
        s.push_str(&format!(
            "{:w$}  {:vw$}  ({o})\n",
            "gate.rules",
            format!("{} ({:?}: {})", r.id, r.verdict(), r.command)
        ));
    }
    if !c.refused.is_empty() {
        s.push_str("\nrefused (they run commands or move secrets, and the file is not trusted):\n");
        for r in &c.refused {
            let why = match r.trust {
                trail_core::trust::Status::Changed => "changed since trusted",
                _ => "not trusted",
            };
            s.push_str(&format!(
                "{:w$}  {:vw$}  ({}: {why})\n",
                r.key.name(),
                format!("{:?}", r.value),
                r.origin
            ));
        }
        s.push_str("run `trail trust` in this project to let them count (it shows them first)\n");
    }
    if c.files.is_empty() {
        s.push_str("\nno config files found (user: ~/.config/trail/config.toml, project: .trail/config.toml)\n");
    } else {
        s.push_str("\nfiles read:\n");
        for f in &c.files {
            s.push_str(&format!("  {}\n", f.display()));
        }
    }
    s
}
