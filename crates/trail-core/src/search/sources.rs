//! Where `trail search` looks: the pulse stream and its archives, then the project's journals,
//! memory and notes, and with `--code` the project tree as ripgrep walks it.

use std::path::{Path, PathBuf};

use super::{Filters, Places};
use crate::ledger::record::RecordType;
use crate::time::Ts;

/// Which kind of place a hit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The pulse stream and its archives: one document per record.
    Stream,
    /// `.proof/session_log.jsonl`: one document per tool call.
    Proof,
    /// `.trail/trajectory/*.jsonl`: one document per entry.
    Trajectory,
    /// `NOTES.md`: one document per line.
    Notes,
    /// Daily and core memory: one document per line.
    Memory,
    /// The project tree (`--code`): one document per line.
    Code,
}

impl Source {
    pub const ALL: [Source; 6] = [
        Source::Stream,
        Source::Proof,
        Source::Trajectory,
        Source::Notes,
        Source::Memory,
        Source::Code,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Source::Stream => "stream",
            Source::Proof => "proof",
            Source::Trajectory => "trajectory",
            Source::Notes => "notes",
            Source::Memory => "memory",
            Source::Code => "code",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// Whether a `--type` filter can let anything of this source through: its own name, a
    /// record type for the stream, and for the others any word that is neither (a tool, a
    /// phase, `daily`, `core`).
    fn wanted(self, filters: &Filters) -> bool {
        if filters.types.is_empty() {
            return true;
        }
        filters.types.iter().any(|t| {
            let named = Source::ALL
                .iter()
                .any(|s| t.eq_ignore_ascii_case(s.as_str()));
            let record_type = RecordType::parse(&t.to_ascii_lowercase()).is_some();
            t.eq_ignore_ascii_case(self.as_str())
                || match self {
                    Source::Stream => record_type,
                    _ => !named && !record_type,
                }
        })
    }
}

/// One file to search.
#[derive(Clone, Debug)]
pub(crate) struct SourceFile {
    pub source: Source,
    pub path: PathBuf,
    /// How hits name the file: `${PROJECT_ROOT}/NOTES.md`, or for the stream its name under
    /// the stream directory (`pulses.log.md`, `archive/pulses-….log.md`).
    pub shown: String,
    /// The kind of every line of the file, when the file decides it (`daily`, `core`).
    pub kind: Option<&'static str>,
    /// The day a daily memory file is named after.
    pub day: Option<Ts>,
}

impl SourceFile {
    pub(crate) fn project_file(places: &Places, source: Source, path: PathBuf) -> SourceFile {
        let rel = path.strip_prefix(places.layout.root()).unwrap_or(&path);
        SourceFile {
            source,
            shown: format!("${{PROJECT_ROOT}}/{}", rel.display()),
            path,
            kind: None,
            day: None,
        }
    }
}

/// Every file to search, the stream's segments first (oldest first).
pub(crate) fn list(places: &Places, filters: &Filters, code: bool) -> Vec<SourceFile> {
    let mut out = Vec::new();
    if Source::Stream.wanted(filters) {
        for path in &places.segments {
            // Another machine's segment is named from the personal root (`machines/<id>/…`).
            let shown = path
                .strip_prefix(&places.stream_dir)
                .or_else(|_| path.strip_prefix(crate::fsutil::parent_dir(&places.stream_dir)))
                .unwrap_or(path)
                .display()
                .to_string();
            out.push(SourceFile {
                source: Source::Stream,
                path: path.clone(),
                shown,
                kind: None,
                day: None,
            });
        }
    }
    // The project's own files belong to the project: `--proj` names another one, or this one.
    if filters
        .proj
        .as_ref()
        .is_some_and(|p| *p != places.project_name)
    {
        return out;
    }
    let layout = &places.layout;
    let mut add = |source: Source, path: PathBuf| {
        if source.wanted(filters) {
            out.push(SourceFile::project_file(places, source, path));
        }
    };
    add(Source::Proof, layout.proof_log());
    for p in files_in(&layout.trajectory_dir(), "jsonl") {
        add(Source::Trajectory, p);
    }
    add(Source::Notes, layout.notes());
    add(Source::Memory, layout.core_memory());
    for p in files_in(&layout.memory_dir(), "md") {
        add(Source::Memory, p);
    }
    for f in out.iter_mut().filter(|f| f.source == Source::Memory) {
        f.kind = Some(if f.path == layout.core_memory() {
            "core"
        } else {
            "daily"
        });
        f.day = f
            .path
            .file_stem()
            .and_then(|s| s.to_str())
            .and_then(|s| Ts::parse_loose(s).ok());
    }
    if code && Source::Code.wanted(filters) {
        let skip: Vec<PathBuf> = out.iter().map(|f| f.path.clone()).collect();
        for p in project_tree(layout.root()) {
            if !skip.contains(&p) {
                out.push(SourceFile::project_file(places, Source::Code, p));
            }
        }
    }
    out
}

/// The files with extension `ext` directly in `dir`, sorted by name.
fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(std::result::Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The project's files as ripgrep would search them: `.gitignore`, `.ignore` and git's excludes
/// respected (in or out of a git repository), hidden files and symlinks left out.
fn project_tree(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = ignore::WalkBuilder::new(root)
        .require_git(false)
        .follow_links(false)
        .build()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(ignore::DirEntry::into_path)
        .collect();
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filters(types: &[&str]) -> Filters {
        Filters {
            types: types.iter().map(std::string::ToString::to_string).collect(),
            ..Filters::default()
        }
    }

    #[test]
    fn a_type_filter_chooses_the_sources_it_can_match() {
        let only = |types: &[&str]| -> Vec<Source> {
            Source::ALL
                .into_iter()
                .filter(|s| s.wanted(&filters(types)))
                .collect()
        };
        assert_eq!(only(&[]), Source::ALL);
        assert_eq!(only(&["handoff"]), [Source::Stream]);
        assert_eq!(only(&["Memory"]), [Source::Memory]);
        assert_eq!(only(&["proof", "pulse"]), [Source::Stream, Source::Proof]);
        // A tool or a phase could be any project journal's kind, never a record's.
        assert_eq!(
            only(&["Bash"]),
            [
                Source::Proof,
                Source::Trajectory,
                Source::Notes,
                Source::Memory,
                Source::Code
            ]
        );
    }

    #[test]
    fn the_tree_walk_respects_gitignore_and_hides_dotfiles() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join(".gitignore"), "target/\n*.log\n").unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join("target")).unwrap();
        std::fs::create_dir_all(root.join(".hidden")).unwrap();
        for f in [
            "src/main.rs",
            "target/out.rs",
            "x.log",
            ".hidden/a.rs",
            "README.md",
        ] {
            std::fs::write(root.join(f), "fn main() {}\n").unwrap();
        }
        std::os::unix::fs::symlink("/etc/passwd", root.join("link.rs")).unwrap();
        let names: Vec<String> = project_tree(root)
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["README.md", "src/main.rs"]);
    }
}
