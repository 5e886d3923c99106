//! `trail demo`'s last chapter: `trail report` over what the chapters before it left (the pulse
//! stream, the gated session's proof log, timeline and grants), written as the HTML file a
//! person would open.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use trail_core::config::{Config, Env};
use trail_core::report::{self, Options};
use trail_core::secrets::Secrets;
use trail_core::workspace::Workspace;

use super::{Say, indent};
use crate::error::{CliError, CliResult};

/// The environment the demo's commands would see: its own home, its ledger, its project.
struct DemoEnv {
    home: PathBuf,
    ledger: PathBuf,
    project: PathBuf,
}

impl Env for DemoEnv {
    fn var(&self, key: &str) -> Option<String> {
        match key {
            "HOME" => Some(self.home.display().to_string()),
            "TRAIL_HOME" => Some(self.ledger.display().to_string()),
            _ => None,
        }
    }
    fn cwd(&self) -> PathBuf {
        self.project.clone()
    }
}

/// Runs the chapter: gathers the report, writes `report.html` beside the demo's other files,
/// and shows the summary. Returns the page's path.
pub fn report_chapter(
    dir: &Path,
    home: &Path,
    project: &Path,
    secrets: &Arc<Secrets>,
    n: usize,
    say: Say<'_>,
) -> CliResult<PathBuf> {
    let config = Config::load_from(&DemoEnv {
        home: home.to_path_buf(),
        ledger: dir.join("ledger"),
        project: project.to_path_buf(),
    })?;
    let mut ws = Workspace::new(config);
    ws.secrets = secrets.clone();
    ws.ledger = ws.ledger.with_secrets(secrets.clone());
    let r = report::gather(&ws, &Options::default()).map_err(|e| match e {
        report::ReportError::Ledger(e) => CliError::from(e),
        report::ReportError::Secrets(e) => CliError::from(e),
    })?;
    let path = dir.join("report.html");
    let page = crate::cmd::report::html_page(&r);
    std::fs::write(&path, page)?;
    say(&format!(
        "{n}. `trail report --html report.html`: everything above as one page (no network, no \
         script): a timeline per session, tool calls by outcome, what the gate stopped and who \
         approved, the context fill. Its summary:\n{}\n",
        indent(&crate::cmd::report::summary_text(&r))
    ))?;
    Ok(path)
}
