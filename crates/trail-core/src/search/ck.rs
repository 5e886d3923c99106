//! Semantic and hybrid search through `ck` (BeaconBay/ck), when it is on PATH.
//!
//! ck embeds text and ranks by meaning (`--sem`), or fuses that with keyword ranking
//! (`--hybrid`); it keeps its index in `.ck/` beside what it searched, a cache it rebuilds
//! itself. trail hands it the same files a lexical search reads, and turns its hits into
//! trail's: the same ids, filters and redaction. Without ck nothing changes but the ranking, and
//! the results say so ([`super::Results::fallback`]).

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;

use super::doc::{self, Meta};
use super::scan::{self, Scan};
use super::snippet;
use super::sources::{self, Source, SourceFile};
use super::{Hit, Mode, Places, Request, Results, SearchError, score};
use crate::ledger::reader::ForwardReader;
use crate::secrets::Redactor;

/// ck on PATH, if it is there.
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("ck"))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// One line of `ck --jsonl`.
#[derive(Debug, Deserialize)]
struct CkLine {
    #[serde(alias = "file")]
    path: PathBuf,
    span: Span,
    #[serde(default, alias = "preview")]
    snippet: Option<String>,
    #[serde(default)]
    score: Option<f64>,
}

#[derive(Debug, Deserialize)]
struct Span {
    byte_start: u64,
    line_start: u32,
}

/// Search with ck and return trail's results.
pub(crate) fn search(
    ck: &Path,
    places: &Places,
    req: &Request,
    redactor: &Redactor,
) -> Result<Results, SearchError> {
    let files = sources::list(places, &req.filters, req.code);
    let mut paths: Vec<PathBuf> = files
        .iter()
        .filter(|f| f.source != Source::Code && f.path.exists())
        .map(|f| f.path.clone())
        .collect();
    if req.code {
        paths.push(places.layout.root().to_path_buf());
    }
    let lines = run(ck, req.mode, &req.query, &paths, req.limit.max(1) * 4)?;
    let scan = Scan {
        matchers: &[],
        filters: &req.filters,
        project_root: places.layout.root(),
        index: None,
    };
    let mut hits = Vec::new();
    for line in lines {
        let Some(sf) = source_of(places, &files, &line.path, req.code) else {
            continue;
        };
        if let Ok(Some(h)) = hit(&scan, &sf, &line, redactor) {
            hits.push(h);
        }
    }
    let total = hits.len();
    hits.truncate(req.limit);
    Ok(Results {
        hits,
        total,
        mode: req.mode,
        fallback: None,
        skipped: Vec::new(),
        missing_parts: 0,
    })
}

/// Run ck and read its JSON lines. grep's exit codes: 0 found, 1 nothing found, else failed.
fn run(
    ck: &Path,
    mode: Mode,
    query: &str,
    paths: &[PathBuf],
    topk: usize,
) -> Result<Vec<CkLine>, SearchError> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let flag = if mode == Mode::Hybrid {
        "--hybrid"
    } else {
        "--sem"
    };
    let out = Command::new(ck)
        .args(["--jsonl", flag, "--topk", &topk.to_string(), "--"])
        .arg(query)
        .args(paths)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| SearchError::Ck(format!("cannot run {}: {e}", ck.display())))?;
    if !matches!(out.status.code(), Some(0 | 1)) {
        let err = String::from_utf8_lossy(&out.stderr);
        let why = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        return Err(SearchError::Ck(format!(
            "{} failed ({}){}{why}",
            ck.display(),
            out.status,
            if why.is_empty() { "" } else { ": " }
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}

/// The file a ck hit is in, among those searched (or in the tree, with `--code`).
fn source_of(places: &Places, files: &[SourceFile], path: &Path, code: bool) -> Option<SourceFile> {
    let root = places.layout.root();
    let path = if path.is_relative() {
        root.join(path)
    } else {
        path.to_path_buf()
    };
    if let Some(f) = files.iter().find(|f| f.path == path) {
        return Some(f.clone());
    }
    // A file in a directory ck was given (the trajectory's, memory's) that appeared since.
    let under = |dir: &Path| path.starts_with(dir);
    let source = if under(&places.layout.trajectory_dir()) {
        Source::Trajectory
    } else if under(&places.layout.memory_dir()) {
        Source::Memory
    } else if code && under(root) {
        Source::Code
    } else {
        return None;
    };
    Some(SourceFile::project_file(places, source, path))
}

fn hit(
    scan: &Scan<'_>,
    sf: &SourceFile,
    line: &CkLine,
    redactor: &Redactor,
) -> io::Result<Option<Hit>> {
    let Some(file) = scan::open(scan, sf)? else {
        return Ok(None);
    };
    let (text, meta, id, line_no) = if sf.source == Source::Stream {
        let Some((text, meta)) = record_at(&file, line.span.byte_start)? else {
            return Ok(None);
        };
        let id = meta.time.map_or_else(
            || format!("{}@{}", sf.shown, line.span.byte_start),
            |t| t.to_string(),
        );
        (text, meta, id, None)
    } else {
        let text = nth_line(&file, line.span.line_start)?;
        let meta = match sf.source {
            Source::Proof | Source::Trajectory => doc::json_line(text.as_bytes(), sf.source),
            _ => Meta {
                time: sf.day.or_else(|| scan::modified(&file)),
                kind: sf.kind.map(std::borrow::Cow::Borrowed),
                proj: Vec::new(),
            },
        };
        let id = format!("{}:{}", sf.shown, line.span.line_start);
        (text, meta, id, Some(line.span.line_start))
    };
    if !scan.filters.admits(sf.source, &meta) {
        return Ok(None);
    }
    let shown = line.snippet.as_deref().unwrap_or(&text);
    let first = shown
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    Ok(Some(Hit {
        source: sf.source,
        id,
        snippet: snippet::render(first.as_bytes(), text.as_bytes(), &[], redactor),
        score: score(line.score.unwrap_or(0.0)),
        time: meta.time.map(|t| t.to_string()),
        kind: meta.kind.map(std::borrow::Cow::into_owned),
        proj: meta.proj,
        file: sf.shown.clone(),
        line: line_no,
    }))
}

/// The stream record holding byte `at`: its text and meta.
fn record_at(file: &File, at: u64) -> io::Result<Option<(String, Meta<'static>)>> {
    let len = crate::fsutil::size_of(file)?;
    let mut back = crate::ledger::reader::ReverseReader::new(file, (at + 1).min(len));
    let Some((start, _)) = back.next_ref()? else {
        return Ok(None);
    };
    let Some((_, seg)) = ForwardReader::new(file, start, len).next_segment()? else {
        return Ok(None);
    };
    let meta = doc::record(&seg, true).into_owned();
    Ok(Some((String::from_utf8_lossy(&seg).into_owned(), meta)))
}

/// Line `n` (1-based) of a project file, read up to the cap trail reads of one.
fn nth_line(file: &File, n: u32) -> io::Result<String> {
    let mut bytes = Vec::new();
    file.take(crate::fsutil::MAX_PROJECT_FILE)
        .read_to_end(&mut bytes)?;
    let line = bytes
        .split(|&b| b == b'\n')
        .nth(n.saturating_sub(1) as usize)
        .unwrap_or_default();
    Ok(String::from_utf8_lossy(line).into_owned())
}
