//! `trail cite check FILE`: every citation of a document against the project's files. Reads
//! the document and the cited files, writes nothing.

use std::io::Read;
use std::path::{Path, PathBuf};

use trail_core::cite::{self, Checked, QuoteKind, Report, Status};
use trail_core::config::Config;
use trail_core::fsutil;

use crate::cli::{CiteCheckArgs, CiteCommand};
use crate::error::{CliError, CliResult};
use crate::output;

pub fn run(cmd: &CiteCommand) -> CliResult {
    match cmd {
        CiteCommand::Check(a) => check(a),
    }
}

fn check(args: &CiteCheckArgs) -> CliResult {
    let root = project_root(args.root.as_deref())?;
    let doc = read_document(&args.file)?;
    let report = cite::check_document(&doc, &root)
        .map_err(|e| CliError::usage(format!("cannot check the citations: {e}")))?;
    if args.json {
        output::json(&report)?;
    } else {
        output::text(&render(&args.file, &report))?;
    }
    if report.all_verified() {
        Ok(())
    } else {
        Err(CliError::CheckFailed)
    }
}

/// Where `${PROJECT_ROOT}` points: `--root`, else `$PROJECT_ROOT` (as Loa's scripts set it),
/// else the project trail works in.
pub fn project_root(given: Option<&Path>) -> CliResult<PathBuf> {
    if let Some(r) = given {
        return Ok(r.to_path_buf());
    }
    Ok(cite::root_of(&Config::load()?.project_root.value))
}

fn read_document(path: &Path) -> CliResult<String> {
    let cannot =
        |e: std::io::Error| CliError::usage(format!("cannot read {}: {e}", path.display()));
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(fsutil::MAX_PROJECT_FILE)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        return Ok(String::from_utf8_lossy(&bytes).into_owned());
    }
    // The error already says "cannot read PATH".
    read_named(path).map_err(|e| CliError::usage(e.to_string()))
}

/// A document the person named: a symlink to it is followed (the name is theirs), but a FIFO
/// or a device is not read, and neither is more than trail reads of any project file.
pub fn read_named(path: &Path) -> Result<String, trail_core::file_error::FileError> {
    use trail_core::file_error::At;
    let real = std::fs::canonicalize(path).at("read", path)?;
    fsutil::read_text_capped(&real, fsutil::MAX_PROJECT_FILE)
}

fn render(file: &Path, report: &Report) -> String {
    let name = file.display();
    let mut s = String::new();
    for c in &report.citations {
        s.push_str(&format!(
            "{name}:{}: {}: {}{}\n",
            c.line,
            c.status,
            c.citation,
            detail(c)
        ));
    }
    let n = report.citations.len();
    if n == 0 {
        s.push_str("no citations\n");
        return s;
    }
    let counts: Vec<String> = Status::ALL
        .into_iter()
        .filter(|st| report.counts.get(*st) > 0)
        .map(|st| format!("{} {st}", report.counts.get(st)))
        .collect();
    s.push_str(&format!(
        "{n} citation{}: {}\n",
        if n == 1 { "" } else { "s" },
        counts.join(", ")
    ));
    s
}

/// What follows the citation on its line: where a drifted quote went, and the note.
fn detail(c: &Checked) -> String {
    let lines = |at: &[usize]| {
        at.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    match c.status {
        Status::Drifted if !c.found_at.is_empty() => {
            parts.push(format!("now at line {}", lines(&c.found_at)));
        }
        Status::Partial if !c.found_at.is_empty() => {
            parts.push(format!("the rest at line {}", lines(&c.found_at)));
        }
        _ => {}
    }
    if c.status != Status::Malformed && c.quote == QuoteKind::Fenced {
        parts.push("quote: the fenced block above".into());
    }
    if let Some(n) = &c.note {
        parts.push(n.clone());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join("; "))
    }
}
