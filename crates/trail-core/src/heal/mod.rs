//! Self-healing (Lossless Ledger FR-9; DESIGN, principle 1): views and journals a project keeps
//! in files, brought back when they go missing.
//!
//! ```text
//! covered      NOTES.md (where the project keeps it: `notes.path`, else Loa's, else the root's),
//!              active_context.yaml, .trail/MEMORY.md, .trail/trajectory/ and .beads/ (their
//!              files git keeps)
//! missing      absent, or whitespace only (a file emptied is as lost as one deleted)
//! sources      1 git show HEAD:path       the last commit
//!              2 git checkout -- path     the index: staged, not yet committed
//!              3 the journals             NOTES.md from the decision records (seams.rs);
//!                                         MEMORY.md from the copy kept before the last dream
//!              4 a template               NOTES.md, active_context.yaml, MEMORY.md
//! expected     a file only comes back where it was kept: git has it, trail wrote it (the state
//!              file's hash, the dream's files), the journals hold its content, or (NOTES.md) the
//!              project ran `trail init`
//! ```
//!
//! [`check`] reads only: git, the journals, the files. [`heal`] writes what [`check`] found a
//! source for, each file with [`fsutil::atomic_write_in`] (no symlink followed on the way, a
//! symlink at the path itself never replaced). A file that is there and not blank is never
//! touched, readable or not: an unreadable state file is the person's to fix. A `notes.path` (or
//! Loa config) naming no usable file is a finding, and the rest is healed. Git is read
//! through [`crate::git`], which no repository config can make run a program, and never asked
//! to write into the tree. Healing never fails the session: every problem is a [`Finding`].

pub mod seams;
pub mod tracked;

use std::io;
use std::path::{Component, Path, PathBuf};

use serde::Serialize;

use crate::fsutil;
use crate::git::{self, Rev};
use crate::layout::Layout;

/// What is covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum View {
    Notes,
    State,
    Memory,
    Trajectory,
    Beads,
}

/// What is wrong with a covered file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Problem {
    Missing,
    /// Whitespace only: missing, as far as anyone reading it is concerned.
    Blank,
    /// Something else is there (a symlink, a directory, a FIFO), or the path leaves the
    /// project: healing does not replace it.
    Blocked(String),
}

/// Where a file came back from (or would).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// `git show HEAD:path`.
    GitShow,
    /// `git checkout -- path`: the index.
    GitCheckout,
    /// Rebuilt from the journals (or trail's own copy of the file).
    Journals,
    Template,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::GitShow => "git_show",
            Source::GitCheckout => "git_checkout",
            Source::Journals => "journals",
            Source::Template => "template",
        }
    }

    /// In words: "git's last commit".
    pub fn describe(self) -> &'static str {
        match self {
            Source::GitShow => "git's last commit (git show HEAD:)",
            Source::GitCheckout => "git's index (git checkout)",
            Source::Journals => "the journals",
            Source::Template => "the template",
        }
    }
}

/// One covered file that is not as it should be.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub view: View,
    /// Relative to the project root.
    pub file: String,
    pub problem: Problem,
    /// Where it comes back from; `None`: nowhere.
    pub source: Option<Source>,
    /// Whether it came back ([`heal`] only).
    pub healed: bool,
    /// What went wrong, when writing it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// What a check or a heal found.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    pub findings: Vec<Finding>,
    /// Whether git was there to ask.
    pub git: bool,
}

impl Report {
    /// Something is still missing (after [`heal`], something could not come back).
    pub fn needs_healing(&self) -> bool {
        self.findings.iter().any(|f| !f.healed)
    }

    pub fn healed(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.healed)
    }
}

/// How NOTES.md is rebuilt from the journals (the seam to branch `decide`).
pub type Rebuild<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// What heal is run with.
pub struct Options<'a> {
    /// Which NOTES.md the project keeps ([`seams::notes_at`]), or why none can be named.
    pub notes: Result<crate::notes::Location, seams::Unlocated>,
    pub notes_from_journals: Rebuild<'a>,
}

impl Options<'static> {
    /// For the project at `root` under `config`: NOTES.md where its `notes.path` puts it, else
    /// where Loa's config does, else at the root; rebuilt from the journals when git has none.
    pub fn of(config: &crate::config::Config, root: &Path) -> Self {
        Self::located(root, crate::notes::configured(config))
    }

    /// As [`Options::of`], given trail's `notes.path` and what set it (`None`: not set).
    pub fn located(root: &Path, notes_path: Option<(&str, String)>) -> Self {
        Options {
            notes: seams::notes_at(root, notes_path),
            notes_from_journals: &seams::notes_from_journals,
        }
    }
}

/// What is missing and where each would come back from. Writes nothing.
pub fn check(root: &Path, opts: &Options<'_>) -> Report {
    let (report, _) = plan(root, opts, false);
    report
}

/// Bring back everything [`check`] finds a source for.
pub fn heal(root: &Path, opts: &Options<'_>) -> Report {
    let (mut report, bytes) = plan(root, opts, true);
    for (f, b) in report.findings.iter_mut().zip(bytes) {
        let Some(b) = b else { continue };
        match fsutil::atomic_write_in(root, &root.join(&f.file), &b) {
            Ok(()) => f.healed = true,
            Err(e) => f.detail = Some(e.to_string()),
        }
    }
    report
}

/// The findings, each with the bytes it would be healed with. With `remember`, git's answer is
/// kept for the next time ([`tracked`]); a check writes nothing.
fn plan(root: &Path, opts: &Options<'_>, remember: bool) -> (Report, Vec<Option<Vec<u8>>>) {
    let layout = Layout::new(root);
    let notes = opts.notes.as_ref().ok().map(|l| l.path.clone());
    let dirs = [
        (View::Trajectory, layout.trajectory_dir()),
        (View::Beads, root.join(".beads")),
    ];
    let covered = [
        Some(&layout.trajectory_dir()),
        Some(&root.join(".beads")),
        notes.as_ref(),
        Some(&layout.state_view()),
        Some(&layout.core_memory()),
    ]
    .into_iter()
    .flatten()
    .filter_map(|p| relative(root, p))
    .collect();
    let mut p = Planner {
        root,
        tracked: Tracked::new(root, covered, remember),
        report: Report::default(),
        bytes: Vec::new(),
    };
    // The directories first: their files are journals, restored before anything is logged.
    for (view, dir) in &dirs {
        p.directory(*view, dir);
    }
    let rebuilt = || (opts.notes_from_journals)(root).map(String::into_bytes);
    match (&notes, &opts.notes) {
        (Some(notes), _) => p.file(View::Notes, notes, &mut |blank| {
            rebuilt().map(|b| (Source::Journals, b)).or_else(|| {
                (blank || layout.gitignore().exists())
                    .then(|| (Source::Template, crate::notes::template().into_bytes()))
            })
        }),
        // Nowhere to put it: said, and nothing written (a guess could be the wrong file).
        (None, Err(u)) => p.push(
            View::Notes,
            u.file.clone(),
            Problem::Blocked(u.why.clone()),
            None,
        ),
        (None, Ok(_)) => {}
    }
    // Only a state file trail can read comes back from git: a broken one would block junctions.
    let readable = |b: &[u8]| crate::state::parse(&layout.state_view(), b).is_ok();
    p.file_checked(View::State, &layout.state_view(), &readable, &mut |blank| {
        (blank || layout.state_hash().exists()).then(|| {
            let fresh = crate::state::render(&crate::state::schema::State::new());
            (Source::Template, fresh.into_bytes())
        })
    });
    p.file(View::Memory, &layout.core_memory(), &mut |blank| {
        let backup = fsutil::read_in(root, &layout.memory_backup(), fsutil::MAX_PROJECT_FILE)
            .ok()
            .filter(|b| !is_blank(b));
        backup.map(|b| (Source::Journals, b)).or_else(|| {
            (blank || layout.dream_hash().exists()).then(|| {
                let t = format!("{}\n", crate::memory::core::TITLE);
                (Source::Template, t.into_bytes())
            })
        })
    });
    p.report.git = p.tracked.git;
    (p.report, p.bytes)
}

/// What git keeps of the covered paths, asked once, and only when something needs it (from the
/// answer [`tracked`] remembers while the index and HEAD are unchanged).
struct Tracked {
    root: PathBuf,
    /// Whether the project is in a git work tree (a `.git` at or above the root).
    git: bool,
    /// The covered paths, as git is asked about them.
    covered: Vec<String>,
    kept: Option<Vec<String>>,
    /// Whether git's answer may be kept for the next time (not by a check).
    remember: bool,
}

impl Tracked {
    fn new(root: &Path, covered: Vec<String>, remember: bool) -> Tracked {
        Tracked {
            root: root.to_path_buf(),
            git: root.ancestors().any(|d| d.join(".git").exists()),
            covered,
            kept: None,
            remember,
        }
    }

    /// The files git keeps at `rel` or under it.
    fn under(&mut self, rel: &str) -> Vec<String> {
        let dir = format!("{rel}/");
        self.kept()
            .iter()
            .filter(|f| *f == rel || f.starts_with(&dir))
            .cloned()
            .collect()
    }

    fn kept(&mut self) -> &[String] {
        let (git, root, covered, remember) = (self.git, &self.root, &self.covered, self.remember);
        self.kept.get_or_insert_with(|| {
            if !git {
                return Vec::new();
            }
            tracked::files(root, covered, remember)
        })
    }

    /// The first non-blank version of `rel` in git: the last commit, then the index.
    fn bytes(&mut self, rel: &str, ok: &dyn Fn(&[u8]) -> bool) -> Option<(Source, Vec<u8>)> {
        if !self.kept().iter().any(|f| f == rel) {
            return None;
        }
        [
            (Rev::Head, Source::GitShow),
            (Rev::Index, Source::GitCheckout),
        ]
        .into_iter()
        .find_map(|(rev, source)| {
            git::blob(&self.root, rev, rel)
                .filter(|b| !is_blank(b) && ok(b))
                .map(|b| (source, b))
        })
    }
}

struct Planner<'a> {
    root: &'a Path,
    tracked: Tracked,
    report: Report,
    bytes: Vec<Option<Vec<u8>>>,
}

/// What a covered path holds now.
enum Now {
    Fine,
    Needs(Problem),
}

impl Planner<'_> {
    fn push(
        &mut self,
        view: View,
        rel: String,
        problem: Problem,
        found: Option<(Source, Vec<u8>)>,
    ) {
        let (source, bytes) = found.map_or((None, None), |(s, b)| (Some(s), Some(b)));
        self.report.findings.push(Finding {
            view,
            file: rel,
            problem,
            source,
            healed: false,
            detail: None,
        });
        self.bytes.push(bytes);
    }

    /// A covered file, healed from git and then from `fallback` (given whether the file is
    /// there but blank: a file that is there was kept, so a template is due).
    fn file(
        &mut self,
        view: View,
        path: &Path,
        fallback: &mut dyn FnMut(bool) -> Option<(Source, Vec<u8>)>,
    ) {
        self.file_checked(view, path, &|_| true, fallback);
    }

    fn file_checked(
        &mut self,
        view: View,
        path: &Path,
        ok: &dyn Fn(&[u8]) -> bool,
        fallback: &mut dyn FnMut(bool) -> Option<(Source, Vec<u8>)>,
    ) {
        let Some(rel) = relative(self.root, path) else {
            let shown = path.display().to_string();
            self.push(
                view,
                shown,
                Problem::Blocked("it lies outside the project".into()),
                None,
            );
            return;
        };
        let problem = match state_of(self.root, path) {
            Now::Fine => return,
            Now::Needs(p) => p,
        };
        if let Problem::Blocked(_) = problem {
            self.push(view, rel, problem, None);
            return;
        }
        let blank = problem == Problem::Blank;
        let found = self.tracked.bytes(&rel, ok).or_else(|| fallback(blank));
        // A missing file nothing knows of was never kept here: not a finding.
        if found.is_none() && !blank {
            return;
        }
        self.push(view, rel, problem, found);
    }

    /// A covered directory: each file git keeps under it, healed from git.
    fn directory(&mut self, view: View, dir: &Path) {
        let Some(rel) = relative(self.root, dir) else {
            return;
        };
        if let Ok(m) = std::fs::symlink_metadata(dir)
            && !m.is_dir()
        {
            let what = if m.file_type().is_symlink() {
                "a symlink is there"
            } else {
                "something other than a directory is there"
            };
            self.push(view, rel, Problem::Blocked(what.into()), None);
            return;
        }
        for file in self.tracked.under(&rel) {
            let path = self.root.join(&file);
            let problem = match state_of(self.root, &path) {
                Now::Fine => continue,
                Now::Needs(p) => p,
            };
            let found = match problem {
                Problem::Blocked(_) => None,
                _ => self.tracked.bytes(&file, &|_| true),
            };
            self.push(view, file, problem, found);
        }
    }
}

/// `path` relative to `root`, `/`-separated, when it lies inside (no `..`, nothing absolute).
fn relative(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let mut parts = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_str()?.to_string()),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Whether a covered file is there, readable through no symlink, and not blank.
fn state_of(root: &Path, path: &Path) -> Now {
    match fsutil::read_in(root, path, fsutil::MAX_PROJECT_FILE) {
        Ok(b) if is_blank(&b) => Now::Needs(Problem::Blank),
        Ok(_) => Now::Fine,
        Err(e) if e.kind() == io::ErrorKind::NotFound => Now::Needs(Problem::Missing),
        Err(e) => match fsutil::refusal(&e) {
            // Too large to read is not missing.
            Some(r) if matches!(r.found, fsutil::Found::TooLarge(_)) => Now::Fine,
            Some(r) => Now::Needs(Problem::Blocked(r.to_string())),
            None => Now::Needs(Problem::Blocked(e.to_string())),
        },
    }
}

/// Whitespace only (an empty file included).
pub fn is_blank(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|s| s.trim().is_empty())
}

/// Every healed file, as the trajectory's `heal` entries (the caller appends them).
pub fn entries(report: &Report) -> Vec<crate::trajectory::Heal> {
    report
        .findings
        .iter()
        .filter(|f| f.healed || f.detail.is_some())
        .map(|f| crate::trajectory::Heal {
            file: f.file.clone(),
            source: f.source.map_or("none", Source::as_str).to_string(),
            healed: f.healed,
            detail: f.detail.clone().or_else(|| {
                Some(match f.problem {
                    Problem::Blank => "was whitespace only".into(),
                    _ => "was missing".into(),
                })
            }),
        })
        .collect()
}

/// Append a `heal` entry to the trajectory for every file healed (or that failed to heal),
/// redacted, in `session`'s trace.
pub fn log(
    root: &Path,
    report: &Report,
    session: Option<&str>,
    secrets: &crate::secrets::Secrets,
) -> Result<(), crate::file_error::FileError> {
    use crate::trajectory::{Body, Entry, journal};
    for heal in entries(report) {
        journal::append(root, &Entry::now(Body::Heal(heal), session), secrets)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
