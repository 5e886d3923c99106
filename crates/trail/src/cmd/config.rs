//! `trail config`: merged settings and where each came from.

use trail_core::config::Config;

use crate::cli::ConfigArgs;
use crate::error::CliResult;
use crate::output;

pub fn run(args: &ConfigArgs) -> CliResult {
    let c = Config::load()?;
    c.check_gate_rules()?;
    if args.json {
        return output::json(&c);
    }
    let rows: Vec<(&str, String, String)> = vec![
        (
            "ledger.home",
            c.home.value.display().to_string(),
            c.home.origin.to_string(),
        ),
        (
            "ledger.rotate_bytes",
            c.rotate_bytes.value.to_string(),
            c.rotate_bytes.origin.to_string(),
        ),
        (
            "ledger.alert_after",
            format!("{}ms", c.alert_after_ms.value),
            c.alert_after_ms.origin.to_string(),
        ),
        (
            "ledger.alert_command",
            c.alert_command
                .value
                .clone()
                .unwrap_or_else(|| "(none)".into()),
            c.alert_command.origin.to_string(),
        ),
        (
            "ledger.max_records",
            c.max_records.value.to_string(),
            c.max_records.origin.to_string(),
        ),
        (
            "secrets.dir",
            c.secrets_dir.value.display().to_string(),
            c.secrets_dir.origin.to_string(),
        ),
        (
            "project.root",
            c.project_root.value.display().to_string(),
            c.project_root.origin.to_string(),
        ),
        (
            "llm.provider",
            c.llm_provider.value.to_string(),
            c.llm_provider.origin.to_string(),
        ),
        (
            "llm.base_url",
            c.llm_base_url
                .value
                .clone()
                .unwrap_or_else(|| "(the provider's)".into()),
            c.llm_base_url.origin.to_string(),
        ),
        (
            "llm.model",
            c.llm_model.value.clone().unwrap_or_else(|| "(none)".into()),
            c.llm_model.origin.to_string(),
        ),
        (
            "llm.command",
            c.llm_command
                .value
                .clone()
                .unwrap_or_else(|| "(none)".into()),
            c.llm_command.origin.to_string(),
        ),
        (
            "llm.timeout",
            format!("{}ms", c.llm_timeout_ms.value),
            c.llm_timeout_ms.origin.to_string(),
        ),
        (
            "llm.retries",
            c.llm_retries.value.to_string(),
            c.llm_retries.origin.to_string(),
        ),
    ];
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
    output::text(&s)
}
