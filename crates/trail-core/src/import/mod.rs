//! `trail import`: history backfilled from the sessions the hosts already keep — Claude Code's
//! transcripts (`claude.rs`) and Codex's rollouts (`codex.rs`) — as if trail had been there:
//!
//! - a `handoff` record per session in the stream's imported segments
//!   ([`crate::ledger::imported`]): what was asked, files changed, commands and how they ended,
//!   open next steps, at the session's own time;
//! - a proof line per tool call in the project's `.proof/session_log.jsonl`;
//! - a block of daily memory in the project's `.trail/memory/<day>.md`, the day the session
//!   ended.
//!
//! Subagents' transcripts count with their session, outputs too large for a transcript are read
//! from the files the host put them in, and a session continued in another file is read as one
//! (see each host's module).
//!
//! Idempotent: a session is keyed by its id and a hash of its content. A session whose key is
//! already among the imported records adds nothing; one that grew since adds a new handoff. Proof
//! lines are told by the call's id (one the hooks or an earlier import logged is not logged
//! again), daily memory by the flush marks the hooks also keep (only what no flush covered yet is
//! flushed) and by the content hash every block carries. Sessions are committed in batches
//! (`import.batch`); an interrupted import resumes: the next one finishes the batch a crash left
//! half-committed and imports the sessions that never got committed, whose proof lines and daily
//! memory are then recognised as already there.
//!
//! Everything written is redacted: records by the ledger, proof lines and daily memory with the
//! same redactor, each secret's original stored first.

mod claude;
mod codex;
mod session;

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Serialize;

use crate::failpoint;
use crate::ledger::{Ledger, LedgerError};
use crate::project::Project;
use crate::time::Ts;

pub use session::Session;

/// The host whose sessions are imported.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Host {
    ClaudeCode,
    Codex,
}

impl Host {
    /// As the command line and the records name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Host::ClaudeCode => "claude-code",
            Host::Codex => "codex",
        }
    }

    pub fn parse(s: &str) -> Option<Host> {
        match s {
            "claude-code" => Some(Host::ClaudeCode),
            "codex" => Some(Host::Codex),
            _ => None,
        }
    }

    /// What a person calls it.
    pub fn title(self) -> &'static str {
        match self {
            Host::ClaudeCode => "Claude Code",
            Host::Codex => "Codex",
        }
    }

    /// Where the host keeps its sessions under `home`: `~/.claude/projects`, and for Codex
    /// `$CODEX_HOME/sessions` (`codex_home`), else `~/.codex/sessions`.
    pub fn default_dir(self, home: &Path, codex_home: Option<&Path>) -> PathBuf {
        match self {
            Host::ClaudeCode => home.join(".claude").join("projects"),
            Host::Codex => codex_home
                .map_or_else(|| home.join(".codex"), Path::to_path_buf)
                .join("sessions"),
        }
    }
}

/// Which sessions a project filter keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProjectFilter {
    /// A project's id ([`Project::id`]): a directory was named, so its worktrees count too.
    Id(String),
    /// A project's name as the stream calls it.
    Name(String),
}

impl ProjectFilter {
    fn keeps(&self, p: &Project) -> bool {
        match self {
            ProjectFilter::Id(id) => &p.id == id,
            ProjectFilter::Name(n) => &p.name == n,
        }
    }
}

/// What to import.
#[derive(Clone, Debug)]
pub struct Options {
    pub host: Host,
    /// Where the host's sessions are.
    pub dir: PathBuf,
    /// Only sessions active at or after this time.
    pub since: Option<Ts>,
    pub project: Option<ProjectFilter>,
    /// Read everything and count what would be added; write nothing.
    pub dry_run: bool,
    /// Sessions per committed batch (`import.batch`).
    pub batch: usize,
}

/// Why sessions were not imported.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// Imported before, and nothing new since.
    pub already: usize,
    /// Recorded by trail's hooks as it ran, and nothing new since.
    pub recorded_live: usize,
    /// Nothing asked and no tool called.
    pub empty: usize,
    /// Outside `since` or the project filter.
    pub filtered: usize,
    /// A file that could not be read (named in [`Summary::unreadable`]).
    pub unreadable: usize,
}

impl Skipped {
    pub fn total(&self) -> usize {
        self.already + self.recorded_live + self.empty + self.filtered + self.unreadable
    }
}

/// What an import did (or, in a dry run, would do).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// Sessions something was added for.
    pub sessions: usize,
    /// Records added to the stream's imported segments.
    pub records: usize,
    /// Sessions that added nothing.
    pub skipped: usize,
    pub skipped_because: Skipped,
    /// Proof lines added, over all projects.
    pub proof_lines: usize,
    /// Daily-memory blocks added, over all projects.
    pub memory_blocks: usize,
    /// Projects whose files were written (or would be).
    pub projects: Vec<PathBuf>,
    /// Sessions whose project directory is not on this machine: they got their records only.
    pub without_project: usize,
    /// Segments committed, under `stream/`.
    pub segments: Vec<String>,
    /// Batches an interrupted import had left, finished first.
    pub finished: usize,
    pub unreadable: Vec<PathBuf>,
    pub dry_run: bool,
}

/// Everything that can stop an import.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{} is not a directory", path.display())]
    NoDir { path: PathBuf },
    #[error("another import is running")]
    Busy,
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

impl From<crate::file_error::FileError> for ImportError {
    fn from(e: crate::file_error::FileError) -> ImportError {
        ImportError::Io {
            action: e.action,
            path: e.path,
            source: e.source,
        }
    }
}

impl ImportError {
    fn io<E: trail_base::file_error::Cause>(
        action: &'static str,
        path: &Path,
    ) -> impl FnOnce(E) -> ImportError {
        let path = path.to_path_buf();
        move |source| ImportError::Io {
            action,
            path,
            source: source.cause(),
        }
    }
}

/// The tag prefix of an imported record's key (session id and content hash).
pub const KEY_TAG: &str = "import:";

/// A session as found on disk, before it is read.
#[derive(Clone, Debug)]
pub struct Found {
    pub host: Host,
    /// The session's id (the first file's, when it was continued in others).
    pub id: String,
    /// Its transcript files, oldest first.
    pub files: Vec<PathBuf>,
    /// Its subagents' transcripts.
    pub subagents: Vec<PathBuf>,
    /// Directories of outputs kept outside the transcript (Claude Code's `tool-results/`).
    pub tool_results: Vec<PathBuf>,
}

impl Found {
    /// When any of its files was last written (`None` if none can be asked).
    fn modified(&self) -> Option<SystemTime> {
        self.files
            .iter()
            .chain(&self.subagents)
            .filter_map(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
            .max()
    }
}

/// What a session's lines say about it.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// Every session id its files carry, the first first.
    pub ids: Vec<String>,
    /// The directory it ran in.
    pub cwd: Option<PathBuf>,
    /// The git branch it ran on, as the host saw it.
    pub branch: Option<String>,
    pub start: Option<Ts>,
    pub end: Option<Ts>,
    /// The session it was forked from (Codex).
    pub forked_from: Option<String>,
}

impl Meta {
    fn saw(&mut self, ts: Option<&str>) {
        let Some(t) = ts.and_then(|t| Ts::parse_loose(t).ok()) else {
            return;
        };
        self.start = Some(self.start.map_or(t, |s| s.min(t)));
        self.end = Some(self.end.map_or(t, |e| e.max(t)));
    }
}

/// Find every session of `opts.host` under `opts.dir`; files that cannot be read go to
/// `unreadable`.
pub fn discover(opts: &Options, unreadable: &mut Vec<PathBuf>) -> Vec<Found> {
    let mut found = match opts.host {
        Host::ClaudeCode => claude::discover(&opts.dir, unreadable),
        Host::Codex => codex::discover(&opts.dir, unreadable),
    };
    // Oldest first: each project's proof log and daily memory grow in time order.
    found.sort_by_key(|f| (f.modified(), f.id.clone()));
    found
}

/// Import (see the module docs). `progress` is called with (sessions done, sessions found).
pub fn run(
    ledger: &Ledger,
    opts: &Options,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Summary, ImportError> {
    // Imported into a project that opted out of sync, the history stays on this machine too.
    let ledger = ledger.writes_to();
    if !opts.dir.is_dir() {
        return Err(ImportError::NoDir {
            path: opts.dir.clone(),
        });
    }
    let mut summary = Summary {
        dry_run: opts.dry_run,
        ..Summary::default()
    };
    let _lock = if opts.dry_run {
        None
    } else {
        Some(ledger.lock_imports()?.ok_or(ImportError::Busy)?)
    };
    if !opts.dry_run {
        summary.finished = ledger.finish_imports()?;
    }
    let imported = ledger.imported_tags(KEY_TAG)?;
    let live = live_sessions(ledger)?;
    let mut unreadable = Vec::new();
    let found = discover(opts, &mut unreadable);
    summary.skipped_because.unreadable = unreadable.len();
    let mut run = Run {
        ledger,
        opts,
        imported,
        live,
        proofs: HashMap::new(),
        batch: Vec::new(),
        batch_sessions: 0,
        projects: HashSet::new(),
        summary,
    };
    let total = found.len();
    for (i, f) in found.into_iter().enumerate() {
        progress(i, total);
        run.session(f, &mut unreadable)?;
        if run.batch_sessions >= opts.batch.max(1) {
            run.commit()?;
        }
    }
    run.commit()?;
    progress(total, total);
    let mut summary = run.summary;
    summary.skipped_because.unreadable = unreadable.len();
    summary.unreadable = unreadable;
    summary.skipped = summary.skipped_because.total();
    summary.projects.sort();
    Ok(summary)
}

/// An import in progress.
struct Run<'a> {
    ledger: &'a Ledger,
    opts: &'a Options,
    /// The keys of sessions imported already.
    imported: HashSet<String>,
    /// The sessions trail's hooks recorded a handoff for.
    live: HashSet<String>,
    /// What each project's proof log holds already.
    proofs: HashMap<PathBuf, session::ProofSeen>,
    /// Records of the batch not committed yet.
    batch: Vec<crate::ledger::Record>,
    batch_sessions: usize,
    projects: HashSet<PathBuf>,
    summary: Summary,
}

impl Run<'_> {
    /// One session: read it, skip it or add its record, proof lines and daily memory.
    fn session(&mut self, f: Found, unreadable: &mut Vec<PathBuf>) -> Result<(), ImportError> {
        let skipped = &mut self.summary.skipped_because;
        // A session whose files were last written before `since` cannot have been active
        // after it: not read at all.
        if let (Some(since), Some(m)) = (self.opts.since, f.modified())
            && session::ts_of(m) < since
        {
            skipped.filtered += 1;
            return Ok(());
        }
        let s = match Session::load(f) {
            Ok(s) => s,
            Err((path, _)) => {
                unreadable.push(path);
                return Ok(());
            }
        };
        if self
            .opts
            .since
            .is_some_and(|since| s.meta.end.is_none_or(|e| e < since))
        {
            skipped.filtered += 1;
            return Ok(());
        }
        let project = s.project();
        if let Some(filter) = &self.opts.project
            && !filter.keeps(&project)
        {
            skipped.filtered += 1;
            return Ok(());
        }
        if s.is_empty() {
            skipped.empty += 1;
            return Ok(());
        }
        let already = self.imported.contains(&s.key);
        let live = s.meta.ids.iter().any(|id| self.live.contains(id));
        let mut added = false;
        if !already && !live {
            self.batch.push(s.handoff(&project));
            self.batch_sessions += 1;
            self.imported.insert(s.key.clone());
            added = true;
        }
        let root = project.root.clone();
        if root.is_dir() {
            added |= self.project_files(&s, &root)?;
            // Only a session new to trail, or grown since: a repeat of lines already there is
            // read once, but need not be written at all.
            if added && !self.opts.dry_run {
                let secrets = self.ledger.options().secrets.clone();
                crate::timeline::append(&root, &s.timeline(), &secrets).map_err(|e| {
                    ImportError::io("write the timeline in", &root)(io::Error::other(e))
                })?;
            }
        } else if !already && !live {
            self.summary.without_project += 1;
        }
        if added {
            self.summary.sessions += 1;
            failpoint::hit(&format!("import-after-session-{}", self.summary.sessions));
        } else if already {
            self.summary.skipped_because.already += 1;
        } else {
            self.summary.skipped_because.recorded_live += 1;
        }
        Ok(())
    }

    /// The session's proof lines and daily memory in its project, what is not there already.
    /// Whether anything was (or, in a dry run, would be) added.
    fn project_files(&mut self, s: &Session, root: &Path) -> Result<bool, ImportError> {
        let secrets = self.ledger.options().secrets.clone();
        let dry = self.opts.dry_run;
        let seen = if let Some(seen) = self.proofs.get_mut(root) {
            seen
        } else {
            let seen = session::ProofSeen::read(root)?;
            self.proofs.entry(root.to_path_buf()).or_insert(seen)
        };
        // Every original is kept (one store write) before a line holding its reference is
        // written; a dry run keeps none.
        let entries = secrets
            .pass_or_dry(dry, |p| s.proof_entries(seen, p))
            .map_err(|e| ImportError::io("store secrets of", root)(io::Error::other(e)))?;
        let lines = entries.len();
        if !dry && lines > 0 {
            crate::proof::append_all(root, &entries)?;
        }
        seen.note(&entries);
        let block = s.flush_memory(root, &secrets, dry).map_err(|e| match e {
            crate::memory::daily::FlushError::File(e) => e.into(),
            crate::memory::daily::FlushError::Secrets(e) => {
                ImportError::io("store secrets of", root)(io::Error::other(e))
            }
        })?;
        self.summary.proof_lines += lines;
        self.summary.memory_blocks += usize::from(block);
        let added = lines > 0 || block;
        if added && self.projects.insert(root.to_path_buf()) {
            self.summary.projects.push(root.to_path_buf());
        }
        Ok(added)
    }

    /// Commit the batch: one imported segment, joined to the stream.
    fn commit(&mut self) -> Result<(), ImportError> {
        let records = std::mem::take(&mut self.batch);
        let sessions = std::mem::take(&mut self.batch_sessions);
        if records.is_empty() {
            return Ok(());
        }
        self.summary.records += records.len();
        if self.opts.dry_run {
            return Ok(());
        }
        let summary = format!(
            "imported {sessions} {} session(s) from {}",
            self.opts.host.title(),
            self.opts.dir.display()
        );
        if let Some(c) = self
            .ledger
            .commit_imported(self.opts.host.as_str(), records, &summary)?
        {
            self.summary.segments.push(c.segment);
        }
        Ok(())
    }
}

/// The ids of sessions whose end trail's hooks recorded: a handoff tagged `trail-hook` and
/// `session-end` whose first fact says "session ID ended (…)". Those sessions were in the
/// stream from the start.
fn live_sessions(ledger: &Ledger) -> Result<HashSet<String>, ImportError> {
    use crate::ledger::frame::Frame;
    use crate::ledger::reader::{ForwardReader, open_if_exists};
    let mut out = HashSet::new();
    for path in ledger.segments()? {
        let Some(file) = open_if_exists(&path).map_err(ImportError::io("open", &path))? else {
            continue;
        };
        let len = crate::fsutil::size_of(&file).map_err(ImportError::io("stat", &path))?;
        let mut fr = ForwardReader::new(&file, 0, len);
        while let Some((off, bytes)) = fr.next_segment().map_err(ImportError::io("read", &path))? {
            // Only a session's end is parsed.
            if memchr::memmem::find(&bytes, b"session-end").is_none() {
                continue;
            }
            let Ok(r) = Frame::split(off, &bytes).parse() else {
                continue;
            };
            let tagged = |t: &str| r.tags.iter().any(|x| x == t);
            if !(tagged("trail-hook") && tagged("session-end")) {
                continue;
            }
            if let Some(id) = r.facts().first().and_then(|f| {
                f.strip_prefix("session ")?
                    .split_once(" ended")
                    .map(|(id, _)| id.to_string())
            }) {
                out.insert(id);
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Reading the hosts' directories: their own files only, never through a symlink, never a FIFO.

/// The most of one transcript read: far above a real one, and a bound on memory.
const MAX_TRANSCRIPT: u64 = 512 << 20;

fn read_text(path: &Path) -> io::Result<String> {
    let bytes = crate::fsutil::read_capped(path, MAX_TRANSCRIPT)?;
    Ok(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into()))
}

/// A file's first line (at most 1 MB of it: a rollout's carries Codex's instructions).
fn first_line(path: &Path) -> io::Result<String> {
    let head = crate::fsutil::read_head(path, 1 << 20)?;
    let line = head.split(|&b| b == b'\n').next().unwrap_or(&head);
    Ok(String::from_utf8_lossy(line).into_owned())
}

/// Entries of `dir` that are real directories (not links), sorted.
fn subdirs(dir: &Path) -> Vec<PathBuf> {
    entries(dir, std::fs::FileType::is_dir)
}

/// Regular files of `dir` whose name ends with `ext`, sorted.
fn files_with(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v = entries(dir, std::fs::FileType::is_file);
    v.retain(|p| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with(ext))
    });
    v
}

/// [`files_with`] in `dir` and its subdirectories, `depth` levels down.
fn files_under(dir: &Path, ext: &str, depth: usize) -> Vec<PathBuf> {
    let mut out = files_with(dir, ext);
    if depth > 0 {
        for d in subdirs(dir) {
            out.extend(files_under(&d, ext, depth - 1));
        }
    }
    out
}

fn entries(dir: &Path, keep: impl Fn(&std::fs::FileType) -> bool) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.file_type().is_ok_and(|t| keep(&t)))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
