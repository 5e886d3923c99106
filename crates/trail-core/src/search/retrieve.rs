//! What a hit's id retrieves: a record of the stream by its `ts` (through
//! [`Ledger::around`](crate::ledger::Ledger::around)), or lines of a project file by
//! `${PROJECT_ROOT}/path:LINE` (or `:START-END`), with the lines around them.
//!
//! An id is text an agent hands back, so it is hostile: it may name `../../etc/passwd`, a
//! symlink to `~/.ssh`, the pending junction under `.trail/state/` or the hosts' settings. A
//! path is resolved as citations are ([`crate::cite::resolve`]: no climbing above the root,
//! symlinks followed only while they stay inside), then refused when it lands in a zone the
//! gate protects ([`Zone`](crate::zones::zones::Zone)) or in a hidden file or directory search
//! does not search (the project's own `.trail/` and `.proof/` journals excepted); the file is
//! read through [`crate::fsutil::read_string_in`], which follows no symlink and opens only a
//! regular file. What is read is returned as it is: the caller redacts before it shows anything.

use std::path::{Path, PathBuf};

use crate::cite::parse::{Malformed, Target, Written, parse_target};
use crate::cite::resolve::{Landing, resolve};
use crate::time::Ts;
use crate::zones::paths::Places;

/// The most lines one retrieval returns (a range is cut there, and says so).
pub const MAX_LINES: u32 = 200;

/// What an id names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Id {
    /// A record of the stream, by its time.
    Record(Ts),
    /// Lines of a file under the project root.
    Lines(Target),
}

/// Why an id retrieves nothing.
#[derive(Debug, thiserror::Error)]
pub enum RetrieveError {
    #[error(
        "`{id}` is not an id: ids are a record's time (2026-11-26T10:00:00.123456Z) or \
         ${{PROJECT_ROOT}}/path:LINE"
    )]
    NotAnId { id: String },
    #[error("`{id}` is not a line reference: {why}")]
    Malformed { id: String, why: Malformed },
    #[error("`{id}` is not under ${{PROJECT_ROOT}}: ids name project files from the root")]
    NotRooted { id: String },
    #[error("`{id}` leads outside the project")]
    Outside { id: String },
    #[error("`{id}` is in {what}, which is not retrieved")]
    Protected { id: String, what: &'static str },
    #[error("`{id}` is in a hidden file or directory, which search does not search")]
    Hidden { id: String },
    #[error("no record has the time `{id}`")]
    NoRecord { id: String },
    #[error("`{id}` does not exist")]
    Missing { id: String },
    #[error("`{id}`: the file has {lines} lines")]
    PastTheEnd { id: String, lines: usize },
    #[error("cannot read `{id}`: {source}")]
    Io {
        id: String,
        #[source]
        source: std::io::Error,
    },
}

impl Id {
    /// Reads an id as search gives it: a timestamp, or `${PROJECT_ROOT}/path:LINE[-END]`.
    pub fn parse(id: &str) -> Result<Id, RetrieveError> {
        let t = id.trim();
        if let Ok(ts) = Ts::parse_strict(t) {
            return Ok(Id::Record(ts));
        }
        if !t.contains(':') || !t.contains('/') {
            return Err(RetrieveError::NotAnId { id: t.into() });
        }
        let target =
            parse_target(t).map_err(|why| RetrieveError::Malformed { id: t.into(), why })?;
        if target.written != Written::Rooted {
            return Err(RetrieveError::NotRooted { id: t.into() });
        }
        Ok(Id::Lines(target))
    }
}

/// Lines of a project file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Lines {
    /// `${PROJECT_ROOT}/path`, as search names it.
    pub file: String,
    /// The number of the first line in `text`, from 1.
    pub first: u32,
    /// The lines, without their line ends.
    pub text: Vec<String>,
    /// How many lines the file has.
    pub total: usize,
    /// Whether the range asked for went past [`MAX_LINES`] and was cut.
    pub cut: bool,
}

/// The lines `target` names, with `before` and `after` lines around them. `places` says where
/// the protected zones are (the person's home, ledger and secret store).
pub fn lines(
    places: &Places,
    target: &Target,
    before: u32,
    after: u32,
) -> Result<Lines, RetrieveError> {
    let id = format!(
        "${{PROJECT_ROOT}}/{}:{}",
        target.path,
        if target.start == target.end {
            target.start.to_string()
        } else {
            format!("{}-{}", target.start, target.end)
        }
    );
    let path = place(places, &target.path, &id)?;
    let root = &places.project_root;
    let text = crate::fsutil::read_string_in(root, &path, crate::fsutil::MAX_PROJECT_FILE)
        .map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => RetrieveError::Missing { id: id.clone() },
            _ => RetrieveError::Io {
                id: id.clone(),
                source: source.into(),
            },
        })?;
    let all: Vec<&str> = text.lines().collect();
    let total = all.len();
    if target.start as usize > total {
        return Err(RetrieveError::PastTheEnd { id, lines: total });
    }
    let first = target.start.saturating_sub(before).max(1);
    let wanted = target.end.saturating_add(after);
    let last = wanted.min(first.saturating_add(MAX_LINES - 1));
    let rel = path.strip_prefix(root).unwrap_or(&path);
    Ok(Lines {
        file: format!("${{PROJECT_ROOT}}/{}", rel.display()),
        first,
        text: all
            .iter()
            .skip(first as usize - 1)
            .take((last - first + 1) as usize)
            .map(std::string::ToString::to_string)
            .collect(),
        total,
        cut: last < wanted && (last as usize) < total,
    })
}

/// Where `rel` lands under the (canonical) project root, refused unless search could have
/// named it.
fn place(places: &Places, rel: &str, id: &str) -> Result<PathBuf, RetrieveError> {
    let root = &places.project_root;
    let io = |source| RetrieveError::Io {
        id: id.into(),
        source,
    };
    let path = match resolve(root, rel).map_err(|e| io(e.into()))? {
        Landing::Inside(p) => p,
        Landing::Missing => return Err(RetrieveError::Missing { id: id.into() }),
        Landing::Outside | Landing::Loop => return Err(RetrieveError::Outside { id: id.into() }),
    };
    if let Some(zone) = places.zone(&path)
        && !zone.readable()
    {
        return Err(RetrieveError::Protected {
            id: id.into(),
            what: zone.what(),
        });
    }
    if hidden(root, &path) {
        return Err(RetrieveError::Hidden { id: id.into() });
    }
    Ok(path)
}

/// Whether a component of `path` below `root` is hidden, other than trail's own journals at
/// the top (`.trail/`, `.proof/`), which search reads.
fn hidden(root: &Path, path: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(root) else {
        return true;
    };
    rel.components().enumerate().any(|(i, c)| {
        let name = c.as_os_str().to_string_lossy();
        name.starts_with('.') && !(i == 0 && (name == ".trail" || name == ".proof"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    struct Fixture {
        _dir: tempfile::TempDir,
        places: Places,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let home = base.join("home");
        let root = home.join("project");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join(".trail/state")).unwrap();
        std::fs::create_dir_all(root.join(".trail/memory")).unwrap();
        std::fs::create_dir_all(home.join(".secrets")).unwrap();
        use std::fmt::Write as _;
        let numbered: String = (1..=300).fold(String::new(), |mut s, n| {
            let _ = writeln!(s, "line {n}");
            s
        });
        std::fs::write(root.join("src/a.rs"), &numbered).unwrap();
        std::fs::write(root.join(".trail/memory/2026-11-26.md"), "- note\n").unwrap();
        std::fs::write(root.join(".trail/state/pending.json"), "{}\n").unwrap();
        std::fs::write(root.join(".env"), "TOKEN=x\n").unwrap();
        std::fs::write(home.join(".secrets/trail.env"), "A=b\n").unwrap();
        symlink(home.join(".secrets/trail.env"), root.join("src/link.env")).unwrap();
        Fixture {
            _dir: dir,
            places: Places {
                project_root: root.clone(),
                home: home.clone(),
                cwd: root,
                tmpdir: None,
                trail_home: Some(home.join(".ledger")),
                secrets_dir: Some(home.join(".secrets")),
            },
        }
    }

    fn get(f: &Fixture, id: &str, around: u32) -> Result<Lines, RetrieveError> {
        match Id::parse(id)? {
            Id::Lines(t) => lines(&f.places, &t, around, around),
            Id::Record(_) => panic!("{id} is a record id"),
        }
    }

    #[test]
    fn ids_are_a_time_or_a_rooted_line_reference() {
        assert!(matches!(
            Id::parse("2026-11-26T10:00:00.123456Z"),
            Ok(Id::Record(_))
        ));
        assert!(matches!(
            Id::parse("${PROJECT_ROOT}/src/a.rs:4-9"),
            Ok(Id::Lines(Target {
                start: 4,
                end: 9,
                ..
            }))
        ));
        for bad in [
            "",
            "approve",
            "j-1",
            "2026-11-26",
            "src/a.rs:4",
            "/etc/passwd:1",
        ] {
            assert!(Id::parse(bad).is_err(), "{bad}");
        }
        assert!(matches!(
            Id::parse("${PROJECT_ROOT}/src/a.rs:0"),
            Err(RetrieveError::Malformed { .. })
        ));
    }

    #[test]
    fn lines_come_with_their_neighbours_and_are_capped() {
        let f = fixture();
        let l = get(&f, "${PROJECT_ROOT}/src/a.rs:10", 2).unwrap();
        assert_eq!(l.first, 8);
        assert_eq!(
            l.text,
            ["line 8", "line 9", "line 10", "line 11", "line 12"]
        );
        assert_eq!(l.total, 300);
        assert!(!l.cut);
        let l = get(&f, "${PROJECT_ROOT}/src/a.rs:1-300", 0).unwrap();
        assert_eq!(l.text.len(), MAX_LINES as usize);
        assert!(l.cut);
        let l = get(&f, "${PROJECT_ROOT}/src/a.rs:299", 5).unwrap();
        assert_eq!(l.text.last().unwrap(), "line 300");
        assert!(!l.cut);
        assert!(matches!(
            get(&f, "${PROJECT_ROOT}/src/a.rs:301", 0),
            Err(RetrieveError::PastTheEnd { lines: 300, .. })
        ));
        let l = get(&f, "${PROJECT_ROOT}/.trail/memory/2026-11-26.md:1", 0).unwrap();
        assert_eq!(l.text, ["- note"]);
    }

    #[test]
    fn hostile_ids_retrieve_nothing_outside_what_search_reads() {
        let f = fixture();
        let refused = |id: &str| {
            let e = get(&f, id, 0).unwrap_err();
            assert!(
                matches!(
                    e,
                    RetrieveError::Outside { .. }
                        | RetrieveError::Protected { .. }
                        | RetrieveError::Hidden { .. }
                ),
                "{id}: {e}"
            );
        };
        refused("${PROJECT_ROOT}/../.secrets/trail.env:1");
        refused("${PROJECT_ROOT}/src/../../.secrets/trail.env:1");
        refused("${PROJECT_ROOT}/src/link.env:1");
        refused("${PROJECT_ROOT}/.trail/state/pending.json:1");
        refused("${PROJECT_ROOT}/.trail/memory/../state/pending.json:1");
        refused("${PROJECT_ROOT}/.env:1");
        refused("${PROJECT_ROOT}/../../../../../../etc/passwd:1");
        assert!(matches!(
            get(&f, "${PROJECT_ROOT}/src/nothing.rs:1", 0),
            Err(RetrieveError::Missing { .. })
        ));
    }
}
