//! `trail search`: ranked search over everything trail keeps.
//!
//! ```text
//! sources    the pulse stream and its archives, .proof/session_log.jsonl, .trail/trajectory/,
//!            NOTES.md, .trail/MEMORY.md and .trail/memory/; with --code, the project tree
//!            (sources.rs)
//! documents  a stream record, or one line of any other file
//! matching   words at a word start (smart case) and "phrases", or one regex (query.rs)
//! ranking    BM25, the newest first among equals (rank.rs)
//! hits       source, time, kind, a redacted snippet (snippet.rs) and an id to retrieve it by:
//!            the record's `ts`, or ${PROJECT_ROOT}/path:LINE
//! ```
//!
//! Two ways to the same answer. The scan (scan.rs) reads every byte once, in blocks, with SIMD
//! literal search, and reads records only around matches; it answers every query and sees a
//! record the moment it is appended. The search cache (index.rs) holds an inverted index of
//! the stream's settled parts and answers most word queries without reading them; it is only a
//! cache — delete it and nothing is lost — and a test holds its answers equal to the scan's. A
//! search only reads the cache: windows whose part is missing are scanned, and the caller
//! starts one builder in the background to write them (build.rs). `bench/run.sh search`
//! measures the search with and without the cache against ripgrep. `--semantic` and `--hybrid`
//! hand the same files to `ck` when it is installed (ck.rs).
//!
//! Everything a hit shows is redacted with the redactor the caller passes (the CLI's, which
//! includes the person's own rules). A search writes nothing, except a trajectory `pivot` when
//! the caller logs one for a broad query (pivot.rs).
//!
//! ```no_run
//! use trail_core::layout::Layout;
//! use trail_core::search::{Mode, Places, Request, search};
//! use trail_core::secrets::Redactor;
//!
//! let places = Places {
//!     segments: vec!["/home/me/.ledger/stream/pulses.log.md".into()],
//!     stream_dir: "/home/me/.ledger/stream".into(),
//!     layout: Layout::new("/home/me/project"),
//!     project_name: "project".into(),
//!     cache: None,
//! };
//! let request = Request::new("staging port", Mode::Lexical);
//! let results = search(&places, &request, Redactor::builtin())?;
//! for hit in &results.hits {
//!     println!("{}  {}", hit.id, hit.snippet);
//! }
//! # Ok::<(), trail_core::search::SearchError>(())
//! ```

mod build;
pub mod ck;
mod doc;
mod index;
mod pivot;
pub mod query;
mod rank;
pub mod retrieve;
mod scan;
mod snippet;
mod sources;

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;

use serde::Serialize;

pub use build::{BuildLock, Built, build_missing};
pub use index::Cache;
pub use pivot::{PIVOT_AFTER, log_pivot};
pub use query::{Query, QueryError};
pub use sources::Source;

use doc::Meta;
use scan::{Cand, Scan};
use sources::SourceFile;

use crate::layout::Layout;
use crate::secrets::Redactor;
use crate::time::Ts;

/// The most bytes of one document read to show it.
const MAX_DOC: u64 = 1 << 20;

/// Bytes on each side of a line that its redaction takes into account (a private key's lines).
const CONTEXT: u64 = 16 << 10;

/// Where to search.
#[derive(Clone, Debug)]
pub struct Places {
    /// The stream's segments, oldest first (`Ledger::segments`).
    pub segments: Vec<PathBuf>,
    /// The stream directory, which stream hits are named relative to.
    pub stream_dir: PathBuf,
    /// The project searched.
    pub layout: Layout,
    /// The project's name in the stream's `focus` (its directory's name).
    pub project_name: String,
    /// The search cache (index.rs), if one is kept.
    pub cache: Option<Cache>,
}

impl Places {
    /// Where search looks for the project at `root`, for `trail search` and the MCP `search`
    /// tool alike: the stream's chain, then the history `trail import` brought in, then the
    /// other machines' (`machines/<id>/stream/…`), with the cache under the personal root.
    pub fn of(
        ledger: &crate::ledger::Ledger,
        root: &std::path::Path,
    ) -> crate::ledger::Result<Places> {
        let mut segments = ledger.segments()?;
        segments.extend(ledger.imported_segments()?);
        // The records kept on this machine only, and every other machine's `trail sync`
        // brought: one history to search.
        for (_, replica) in ledger.sources()? {
            segments.extend(replica.segments()?);
            segments.extend(replica.imported_segments()?);
        }
        Ok(Places {
            segments,
            stream_dir: ledger.stream_dir(),
            layout: Layout::new(root),
            project_name: crate::project::Project::discover(root).name,
            cache: Some(Cache::of_home(ledger.root())),
        })
    }
}

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Words and phrases, ranked by BM25.
    Lexical,
    /// One regex, ranked by BM25 over its matches.
    Regex,
    /// By meaning, through ck.
    Semantic,
    /// ck's fusion of meaning and keywords.
    Hybrid,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Lexical => "lexical",
            Mode::Regex => "regex",
            Mode::Semantic => "semantic",
            Mode::Hybrid => "hybrid",
        }
    }
}

/// Which documents may be hits.
#[derive(Clone, Debug, Default)]
pub struct Filters {
    /// Only documents of this time or later.
    pub since: Option<Ts>,
    /// Only documents before this time.
    pub until: Option<Ts>,
    /// Only these sources or kinds (record types, trajectory phases, tools, `daily`, `core`),
    /// any case. Empty: all.
    pub types: Vec<String>,
    /// Only records focused on this project, and this project's files only when it is named.
    pub proj: Option<String>,
}

impl Filters {
    /// Whether a document of `source` that says `meta` about itself passes.
    fn admits(&self, source: Source, meta: &Meta) -> bool {
        self.admits_with(source, meta.time, meta.kind.as_deref(), |p| {
            meta.proj.iter().any(|x| x == p)
        })
    }

    /// [`Filters::admits`] for a document that tells its projects through `has_proj`. A document
    /// that does not tell its time fails a time filter.
    fn admits_with(
        &self,
        source: Source,
        time: Option<Ts>,
        kind: Option<&str>,
        has_proj: impl Fn(&str) -> bool,
    ) -> bool {
        if self.since.is_some_and(|s| time.is_none_or(|t| t < s))
            || self.until.is_some_and(|u| time.is_none_or(|t| t >= u))
        {
            return false;
        }
        if !self.types.is_empty()
            && !self.types.iter().any(|t| {
                t.eq_ignore_ascii_case(source.as_str())
                    || kind.is_some_and(|k| t.eq_ignore_ascii_case(k))
            })
        {
            return false;
        }
        match (&self.proj, source) {
            (Some(p), Source::Stream) => has_proj(p),
            _ => true,
        }
    }
}

/// A search to run.
#[derive(Clone, Debug)]
pub struct Request {
    pub query: String,
    pub mode: Mode,
    pub filters: Filters,
    /// Hits returned, at most (`total` counts them all).
    pub limit: usize,
    /// Search the project tree too.
    pub code: bool,
}

impl Request {
    /// `query` in `mode`, everything else the default (no filters, 20 hits, no code).
    pub fn new(query: impl Into<String>, mode: Mode) -> Request {
        Request {
            query: query.into(),
            mode,
            filters: Filters::default(),
            limit: 20,
            code: false,
        }
    }
}

/// One hit.
#[derive(Clone, Debug, Serialize)]
pub struct Hit {
    pub source: Source,
    /// What to retrieve it by: a record's `ts`, or `${PROJECT_ROOT}/path:LINE`.
    pub id: String,
    /// The best matching line, redacted.
    pub snippet: String,
    pub score: f64,
    /// RFC 3339, UTC: the record's or entry's own time, a daily file's day, else the file's
    /// modification time.
    pub time: Option<String>,
    /// The record's type, the entry's phase or tool, `daily` or `core`.
    pub kind: Option<String>,
    /// The projects a record is focused on.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub proj: Vec<String>,
    /// The file: `${PROJECT_ROOT}/…`, or the segment's name under the stream directory.
    pub file: String,
    /// The line, for a hit in a file of lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

/// A file that could not be searched, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    pub file: String,
    pub why: String,
}

impl Skipped {
    fn new(sf: &SourceFile, e: &io::Error) -> Skipped {
        Skipped {
            file: sf.shown.clone(),
            why: e.to_string(),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, Serialize)]
pub struct Results {
    /// The best hits, best first.
    pub hits: Vec<Hit>,
    /// How many documents matched (and passed the filters) in all.
    pub total: usize,
    /// How the hits were found.
    pub mode: Mode,
    /// Why the mode asked for was not used (ck missing), when it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Skipped>,
    /// Parts of the search cache this search found missing and scanned around: the caller
    /// starts the builder ([`Cache::claim_build`]). Not part of the answer.
    #[serde(skip)]
    pub missing_parts: usize,
}

impl Results {
    /// Too many results to be an answer: the trajectory logs a pivot ([`log_pivot`]).
    pub fn is_broad(&self) -> bool {
        self.total > PIVOT_AFTER
    }
}

/// Why a search could not run.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    #[error(transparent)]
    Query(#[from] QueryError),
    /// ck was asked and failed.
    #[error("semantic search: {0}")]
    Ck(String),
}

/// Run a search. Files that cannot be read are listed in [`Results::skipped`], not errors.
pub fn search(places: &Places, req: &Request, redactor: &Redactor) -> Result<Results, SearchError> {
    let mut fallback = None;
    if matches!(req.mode, Mode::Semantic | Mode::Hybrid) {
        match ck::find() {
            Some(ck) => return ck::search(&ck, places, req, redactor),
            None => {
                fallback = Some(format!(
                    "--{} needs ck (https://github.com/BeaconBay/ck), which is not on PATH: \
                     these are lexical results",
                    req.mode.as_str()
                ));
            }
        }
    }
    let (query, mode) = match req.mode {
        Mode::Regex => (Query::regex(&req.query)?, Mode::Regex),
        _ => (Query::lexical(&req.query)?, Mode::Lexical),
    };
    let files = sources::list(places, &req.filters, req.code);
    let keys = index::key_ranges(&query);
    let scan = Scan {
        matchers: query.matchers(),
        filters: &req.filters,
        project_root: places.layout.root(),
        index: places.cache.as_ref().zip(keys.as_deref()),
    };
    let (tally, opened) = scan::scan_all(&scan, &files);
    let hits = rank::top(&tally, req.limit)
        .into_iter()
        .filter_map(|(i, s)| {
            let shown = Shown {
                scan: &scan,
                files: &files,
                opened: &opened,
                redactor,
            };
            shown.hit(&tally.cands[i], s).ok()
        })
        .collect();
    Ok(Results {
        hits,
        total: tally.cands.len(),
        mode,
        fallback,
        skipped: tally.skipped,
        missing_parts: tally.missing_parts,
    })
}

/// Where a query matched, unranked and unrendered: [`locate`]'s answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Located {
    pub source: Source,
    /// As a hit names it: `${PROJECT_ROOT}/…`, or the segment's name.
    pub file: String,
    /// The line, in a file of lines.
    pub line: Option<u32>,
    /// ck's similarity, for a semantic match.
    pub score: Option<f64>,
}

/// Every document a query matches, with its place only: nothing is ranked, read again or
/// shown (negative grounding counts matches; it needs no snippet). Lexical and regex queries
/// find every match; semantic and hybrid ones, ck's best `req.limit`, or lexical matches when
/// ck is not installed (the second value says which mode ran, the third why it fell back).
pub fn locate(
    places: &Places,
    req: &Request,
    redactor: &Redactor,
) -> Result<(Vec<Located>, Mode, Option<String>), SearchError> {
    if matches!(req.mode, Mode::Semantic | Mode::Hybrid)
        && let Some(ck) = ck::find()
    {
        let r = ck::search(&ck, places, req, redactor)?;
        let found = r
            .hits
            .into_iter()
            .map(|h| Located {
                source: h.source,
                file: h.file,
                line: h.line,
                score: Some(h.score),
            })
            .collect();
        return Ok((found, r.mode, None));
    }
    let fallback = matches!(req.mode, Mode::Semantic | Mode::Hybrid)
        .then(|| "ck is not on PATH: lexical matches".to_string());
    let (query, mode) = match req.mode {
        Mode::Regex => (Query::regex(&req.query)?, Mode::Regex),
        _ => (Query::lexical(&req.query)?, Mode::Lexical),
    };
    let files = sources::list(places, &req.filters, req.code);
    let scan = Scan {
        matchers: query.matchers(),
        filters: &req.filters,
        project_root: places.layout.root(),
        index: None,
    };
    let (tally, _) = scan::scan_all(&scan, &files);
    let found = tally
        .cands
        .iter()
        .map(|c| Located {
            source: c.source,
            file: files[c.file as usize].shown.clone(),
            line: (c.line > 0).then_some(c.line),
            score: None,
        })
        .collect();
    Ok((found, mode, fallback))
}

/// A score as shown: four decimals are plenty to compare by.
fn score(s: f64) -> f64 {
    (s * 1e4).round() / 1e4
}

/// What turning a candidate into a hit needs.
struct Shown<'a> {
    scan: &'a Scan<'a>,
    files: &'a [SourceFile],
    opened: &'a [Option<File>],
    redactor: &'a Redactor,
}

impl Shown<'_> {
    fn hit(&self, c: &Cand, s: f64) -> io::Result<Hit> {
        let sf = &self.files[c.file as usize];
        let reopened;
        let file = if let Some(f) = &self.opened[c.file as usize] {
            f
        } else {
            reopened = scan::open(self.scan, sf)?.ok_or(io::ErrorKind::NotFound)?;
            &reopened
        };
        // The document, and around a line the text its redaction must see.
        let (from, to) = match c.source {
            Source::Stream => (c.start, c.end().min(c.start + MAX_DOC)),
            _ => (
                c.start.saturating_sub(CONTEXT),
                c.end().min(c.start + MAX_DOC) + CONTEXT,
            ),
        };
        let to = to.min(crate::fsutil::size_of(file)?);
        let mut bytes = vec![0; usize::try_from(to.saturating_sub(from)).unwrap_or(0)];
        file.read_exact_at(&mut bytes, from)?;
        let at = usize::try_from(c.start - from).unwrap_or(0);
        let doc_end = usize::try_from(c.end().min(to) - from).unwrap_or(bytes.len());
        let document = &bytes[at.min(doc_end)..doc_end];
        let matchers = self.scan.matchers;
        let (meta, line, id) = match c.source {
            Source::Stream => {
                let meta = doc::record(document, true);
                let id = meta
                    .time
                    .map_or_else(|| format!("{}@{}", sf.shown, c.start), |t| t.to_string());
                (meta, snippet::best_line(document, matchers).1, id)
            }
            source => {
                let meta = match source {
                    Source::Proof | Source::Trajectory => doc::json_line(document, source),
                    _ => Meta {
                        time: c.time(),
                        kind: sf.kind.map(std::borrow::Cow::Borrowed),
                        proj: Vec::new(),
                    },
                };
                (meta, document, format!("{}:{}", sf.shown, c.line))
            }
        };
        let render = match c.source {
            Source::Proof | Source::Trajectory => snippet::render_json,
            _ => snippet::render,
        };
        Ok(Hit {
            source: c.source,
            id,
            snippet: render(line, &bytes, matchers, self.redactor),
            score: score(s),
            time: meta.time.map(|t| t.to_string()),
            kind: meta.kind.map(std::borrow::Cow::into_owned),
            proj: meta.proj,
            file: sf.shown.clone(),
            line: (c.line > 0).then_some(c.line),
        })
    }
}
