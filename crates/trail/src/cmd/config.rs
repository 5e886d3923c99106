//! `trail config`: merged settings and where each came from. Its rows, `--help`'s lists of
//! settings and variables, and the guide's table (`trail config --markdown`, docs/GUIDE.md) are all written
//! from the settings table, `trail_core::config::SETTINGS`, so none of them can drift from what
//! loading does.

use trail_core::config::{Class, Config, SETTINGS, SettingKey, Spec};

use crate::cli::ConfigArgs;
use crate::error::CliResult;
use crate::output;

pub fn run(args: &ConfigArgs) -> CliResult {
    // The docs need no configuration: a broken one must not stop you reading how to fix it.
    if args.markdown {
        return output::text(&markdown());
    }
    let c = Config::load()?;
    c.check_gate_rules(trail_gate::custom::check)?;
    c.check_secret_rules()?;
    if args.json {
        return output::json(&c);
    }
    output::text(&render(&c))
}

/// One line per setting (`key  value  (origin)`), the rule lists, what an untrusted project
/// file could not set, and the files read.
fn render(c: &Config) -> String {
    let rows = setting_rows(c);
    let cols = Columns::fit(&rows);
    let mut s = String::new();
    for (k, v, o) in &rows {
        s.push_str(&cols.line(k, v, o));
    }
    for (r, o) in &c.secret_rules {
        s.push_str(&cols.line("secrets.rules", &r.name, o));
    }
    for (r, o) in &c.gate_rules {
        let rule = format!("{} ({:?}: {})", r.id, r.verdict(), r.command);
        s.push_str(&cols.line("gate.rules", &rule, o));
    }
    s.push_str(&refused(c, cols));
    s.push_str(&files_read(c));
    s
}

/// Every setting of the table, then the project root: (key, value, origin).
fn setting_rows(c: &Config) -> Vec<(&'static str, String, String)> {
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
    rows
}

/// The widths of the key and value columns, fitted to the settings' rows (a value column of at
/// most 60: a long path or list overflows its line rather than widening every other).
#[derive(Clone, Copy)]
struct Columns {
    key: usize,
    value: usize,
}

impl Columns {
    fn fit(rows: &[(&str, String, String)]) -> Columns {
        Columns {
            key: rows.iter().map(|r| r.0.len()).max().unwrap_or(0),
            value: rows.iter().map(|r| r.1.len()).max().unwrap_or(0).min(60),
        }
    }

    fn line(self, key: &str, value: &str, origin: impl std::fmt::Display) -> String {
        let (w, vw) = (self.key, self.value);
        format!("{key:w$}  {value:vw$}  ({origin})\n")
    }
}

/// The settings an untrusted (or changed) project file tried to set, and how to let them count.
fn refused(c: &Config, cols: Columns) -> String {
    if c.refused.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "\nrefused (they run commands or move secrets, and the file is not trusted):\n",
    );
    for r in &c.refused {
        let why = match r.trust {
            trail_core::trust::Status::Changed => "changed since trusted",
            _ => "not trusted",
        };
        let value = format!("{:?}", r.value);
        s.push_str(&cols.line(r.key.name(), &value, format!("{}: {why}", r.origin)));
    }
    s.push_str("run `trail trust` in this project to let them count (it shows them first)\n");
    s
}

fn files_read(c: &Config) -> String {
    if c.files.is_empty() {
        return "\nno config files found (user: ~/.config/trail/config.toml, project: .trail/config.toml)\n".into();
    }
    let mut s = String::from("\nfiles read:\n");
    for f in &c.files {
        s.push_str(&format!("  {}\n", f.display()));
    }
    s
}

/// `trail config --help`: every setting, its variable, default and what it does.
pub fn settings_help() -> String {
    let mut s = String::from(
        "Settings: `key = value` under [section] in ~/.config/trail/config.toml or \
         .trail/config.toml, or the variable (which wins). Sizes and durations need their unit \
         (\"100MB\", \"2s\", \"500ms\"): a bare number is refused.\n",
    );
    for spec in SETTINGS {
        let default = match spec.default {
            Some(d) => format!("default {d}"),
            None => "no default".into(),
        };
        s.push_str(&format!(
            "\n  {}  ${}  ({default})\n      {}\n",
            spec.key.name(),
            spec.env,
            spec.doc
        ));
    }
    s.push_str(&format!(
        "\n{}\nExit codes: 0 ok, 2 a setting is malformed (the message names it).",
        trust_note()
    ));
    s
}

/// The root `--help`'s list of variables.
pub fn env_help() -> String {
    let vars: Vec<&str> = SETTINGS.iter().map(|s| s.env).collect();
    format!(
        "Environment: HOME (where ~/.ledger, ~/.secrets and ~/.config/trail are), {} \
         (`trail config --help` says what each does).\nExit codes: 0 ok, 1 a check failed, 2 \
         bad input or usage.",
        vars.join(", ")
    )
}

/// `trail dream --help`: the LLM's variables.
pub fn llm_help() -> String {
    let vars: Vec<String> = SETTINGS
        .iter()
        .filter(|s| s.section_and_name().0 == "llm")
        .map(|s| match s.key {
            SettingKey::LlmProvider => format!(
                "{} ({}; default {})",
                s.env,
                trail_core::config::LlmProvider::NAMES,
                s.default_text()
            ),
            _ => s.env.to_string(),
        })
        .collect();
    format!(
        "The LLM: {}, or [llm] in the config (`trail config --help`). The key: TRAIL_LLM_API_KEY \
         in the environment or ~/.secrets/trail.env, never in a config file.\nExit codes: 0 \
         written or skipped, 1 nothing written (no usable answer, too much lost, the LLM \
         failed), 2 bad usage or configuration.",
        vars.join(", ")
    )
}

/// Which settings a project file needs trust for, from their classes.
pub fn trust_note() -> String {
    let sensitive: Vec<&str> = SettingKey::ALL
        .iter()
        .filter(|k| k.class() == Class::Sensitive)
        .map(|k| k.name())
        .collect();
    format!(
        "A project's .trail/config.toml comes with the repository. Its settings that run a \
         command, send data or your API key to a host, or move where secrets and journals live \
         ({}) are ignored until you trust the file (`trail trust`).",
        sensitive.join(", ")
    )
}

/// The guide's table of settings (docs/GUIDE.md).
pub fn markdown() -> String {
    let mut s = String::from(
        "| key | variable | default | value | what it does |\n|---|---|---|---|---|\n",
    );
    for spec in SETTINGS {
        let class = match spec.key.class() {
            Class::Sensitive => " Needs `trail trust` in a project file.",
            Class::Ordinary => "",
        };
        s.push_str(&format!(
            "| `{}` | `{}` | {} | {} | {}{class} |\n",
            spec.key.name(),
            spec.env,
            cell(spec),
            spec.kind.written_as().replace('|', "\\|"),
            spec.doc.replace('|', "\\|"),
        ));
    }
    for (key, doc) in trail_core::config::LISTS {
        s.push_str(&format!("| `[[{}]]` | | | tables | {doc} |\n", key.name()));
    }
    s
}

fn cell(spec: &Spec) -> String {
    match spec.default {
        Some(d) => format!("`{d}`"),
        None => spec.default_text().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fit_the_longest_key_and_value_up_to_sixty() {
        let row = |k: &'static str, v: &str| (k, v.to_string(), String::new());
        let cols = Columns::fit(&[row("a", "xy"), row("long.key", "v")]);
        assert_eq!(cols.line("a", "xy", "default"), "a         xy  (default)\n");
        let wide = "w".repeat(70);
        let cols = Columns::fit(&[row("k", &wide)]);
        assert_eq!(cols.value, 60);
        assert_eq!(
            cols.line("k", "v", "o"),
            format!("k  v{}  (o)\n", " ".repeat(59))
        );
        assert_eq!(cols.line("k", &wide, "o"), format!("k  {wide}  (o)\n"));
    }

    #[test]
    fn every_setting_appears_in_the_help_and_the_markdown() {
        let (help, env, md) = (settings_help(), env_help(), markdown());
        for s in SETTINGS {
            assert!(
                help.contains(s.key.name()) && help.contains(s.env),
                "{}",
                s.key
            );
            assert!(env.contains(s.env), "{}", s.env);
            assert!(md.contains(&format!("| `{}` | `{}` |", s.key.name(), s.env)));
        }
        assert!(llm_help().contains("TRAIL_LLM_TIMEOUT"));
        assert!(trust_note().contains("llm.command") && !trust_note().contains("llm.model"));
    }
}
