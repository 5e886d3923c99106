//! NOTES.md session continuity (Lossless Ledger FR-10): where the file is, and its
//! `## Session Continuity` section — Active Context, Lightweight Identifiers, Decision Log.
//!
//! NOTES.md is a view. Every decision is first a record in the journals (the trajectory and the
//! pulse stream, [`crate::decision`]); the Decision Log is what a person and the next session
//! read, and [`rebuild::rebuild_from_journals`] writes it again from the journals when the file
//! is lost. Edits stay inside the section ([`continuity`]), so the rest of a person's (or Loa's)
//! NOTES.md is never reshaped.
//!
//! - [`locate`]: which file — trail's `notes.path` when set, else Loa's own when the project
//!   has a `.loa.config.yaml` (`memory.notes_file`, else `NOTES.md` in `paths.grimoire`), else
//!   `NOTES.md` at the project root.
//! - [`update`]: read, edit and write it back atomically, one writer at a time.
//! - [`active`]: Active Context, read (either shape in use) and written;
//!   [`entry`]: a decision as its Decision Log entry; [`markdown`]: headings and fences.

pub mod active;
pub mod continuity;
pub mod entry;
pub mod markdown;
pub mod merge;
pub mod rebuild;

use std::io;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use crate::file_error::{At, FileError};
use crate::fsutil;
use crate::layout::Layout;
use crate::loa::LoaConfig;

pub use active::Active;

/// Which NOTES.md, and what chose it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// Relative to the project root, `/`-separated (`NOTES.md`, `grimoires/loa/NOTES.md`).
    pub rel: String,
    /// The file itself.
    pub path: PathBuf,
    /// `default`, `.loa.config.yaml`, or the origin of trail's own setting.
    pub from: String,
}

/// Why NOTES.md could not be read, written or found.
#[derive(Debug, thiserror::Error)]
pub enum NotesError {
    #[error("{from} puts NOTES.md at `{path}`: {why}")]
    BadPath {
        path: String,
        from: String,
        why: &'static str,
    },
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    #[error("another trail process has been updating {} for {secs} s", path.display())]
    Locked { path: PathBuf, secs: u64 },
    #[error(transparent)]
    File(#[from] FileError),
}

/// The name trail gives the file at the root.
pub const DEFAULT: &str = "NOTES.md";

/// How long a writer waits for another one.
const LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// Which NOTES.md the project at `root` keeps under `config`: its `notes.path` when something
/// set it, else Loa's (`loa`, the project's `.loa.config.yaml`), else the root's.
pub fn locate_in(
    config: &crate::config::Config,
    root: &Path,
    loa: Option<&LoaConfig>,
) -> Result<Location, NotesError> {
    locate(root, configured(config), loa)
}

/// Which NOTES.md the project keeps: `configured` (trail's `notes.path` with its origin, when
/// something set it), else the one recorded when trail first wrote it
/// (`.trail/notes-location`), else Loa's when `loa` is the project's `.loa.config.yaml`, else
/// the root's. Without a record, a NOTES.md that holds trail's section wins over a Loa location
/// that holds nothing yet.
///
/// Found by issue 21: adding the `.loa.config.yaml` the PRD prescribes switched trail to
/// `grimoires/loa/NOTES.md`, so the root NOTES.md went stale, the checkpoint failed and the
/// ghost list was lost. The location is now chosen once; a move is a person's act (`trail
/// notes move`), which carries the content.
pub fn locate(
    root: &Path,
    configured: Option<(&str, String)>,
    loa: Option<&LoaConfig>,
) -> Result<Location, NotesError> {
    let (rel, from) = match (configured, recorded(root), loa) {
        (Some((p, from)), _, _) => (p.to_string(), from),
        (None, Some(r), _) => (r, RECORDED_FROM.to_string()),
        (None, None, Some(l)) => {
            let theirs = l.notes_file(root);
            if !has_continuity(root, &theirs) && has_continuity(root, DEFAULT) {
                (DEFAULT.to_string(), "default".to_string())
            } else {
                (theirs, ".loa.config.yaml".to_string())
            }
        }
        (None, None, None) => (DEFAULT.to_string(), "default".to_string()),
    };
    let rel = rel.trim().trim_start_matches("./").to_string();
    if let Err(why) = check_rel(&rel) {
        return Err(NotesError::BadPath {
            path: rel,
            from,
            why,
        });
    }
    Ok(Location {
        path: root.join(&rel),
        rel,
        from,
    })
}

/// What chose a location read from `.trail/notes-location`.
pub const RECORDED_FROM: &str = ".trail/notes-location";

/// The location recorded when trail first wrote NOTES.md, if it was and the record holds a
/// usable path.
pub fn recorded(root: &Path) -> Option<String> {
    let text = fsutil::read_string_in(root, &Layout::new(root).notes_location(), 4096).ok()?;
    let rel = text
        .lines()
        .next()?
        .trim()
        .trim_start_matches("./")
        .to_string();
    check_rel(&rel).is_ok().then_some(rel)
}

/// Record `rel` as the project's NOTES.md.
pub fn record(root: &Path, rel: &str) -> Result<(), FileError> {
    let path = Layout::new(root).notes_location();
    fsutil::atomic_write_in(root, &path, format!("{rel}\n").as_bytes()).at("write", &path)
}

/// Whether `rel` is a NOTES.md with trail's section in it.
fn has_continuity(root: &Path, rel: &str) -> bool {
    check_rel(rel).is_ok()
        && fsutil::read_string_in(root, &root.join(rel), fsutil::MAX_PROJECT_FILE)
            .is_ok_and(|t| t.contains(&format!("## {}", continuity::SECTION)))
}

/// `notes.path` and what set it, when something did (its default names no file: Loa's or the
/// root's is then used).
pub fn configured(config: &crate::config::Config) -> Option<(&str, String)> {
    config
        .notes_path
        .value
        .as_deref()
        .filter(|_| config.notes_path.origin != crate::config::Origin::Default)
        .map(|p| (p, config.notes_path.origin.to_string()))
}

/// Which NOTES.md the project at `root` keeps under `config`, for readers that carry on without
/// one (resume, SessionStart): `None` when `notes.path` or Loa's config names no usable file
/// (the commands that write NOTES.md say why).
pub fn find(config: &crate::config::Config, root: &Path) -> Option<Location> {
    let loa = crate::loa::read_config(root).ok().flatten();
    locate_in(config, root, loa.as_ref()).ok()
}

/// The Active Context of the project's NOTES.md (nothing when there is none, or it cannot be
/// read).
pub fn active_of(config: &crate::config::Config, root: &Path) -> Active {
    let Some(loc) = find(config, root) else {
        return Active::default();
    };
    let Some(text) = read(root, &loc).ok().flatten() else {
        return Active::default();
    };
    let mut active = active::read(&text);
    // When it was last written: the brief weighs NOTES.md's "next" against the newest pulse's.
    active.written = std::fs::metadata(&loc.path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| crate::time::Ts::from_micros(i64::try_from(d.as_micros()).unwrap_or(i64::MAX)));
    active
}

/// A NOTES.md path must stay in the project, be Markdown, and not be one of trail's (or git's)
/// own files: the file is rewritten, and a path into `.trail/state/` would let a setting
/// overwrite the grants journal.
fn check_rel(rel: &str) -> Result<(), &'static str> {
    let p = Path::new(rel);
    if rel.is_empty() || p.is_absolute() {
        return Err("it must be a path inside the project, relative to its root");
    }
    if !p.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err("it must not climb out of the project (`..`)");
    }
    if !rel.to_ascii_lowercase().ends_with(".md") {
        return Err("it must be a Markdown file (`.md`)");
    }
    let first = p
        .components()
        .next()
        .map(|c| c.as_os_str().to_string_lossy());
    if matches!(first.as_deref(), Some(".trail" | ".proof" | ".git")) {
        return Err("it must not be inside .trail/, .proof/ or .git/");
    }
    Ok(())
}

/// A fresh NOTES.md: a title, what the file is, and the section with its three parts.
pub fn template() -> String {
    format!(
        "# NOTES.md\n\n\
         > Session continuity for this project, kept by trail (`trail decide`, `trail checkpoint`).\n\
         > Everything outside \"Session Continuity\" is yours; that section is a view of the\n\
         > journals (the pulse stream and .trail/trajectory/) and can be rebuilt from them.\n\n{}",
        continuity::empty_section()
    )
}

/// The file's text; `None` when it does not exist or holds only whitespace (a file emptied by
/// accident is as good as missing).
pub fn read(root: &Path, loc: &Location) -> Result<Option<String>, NotesError> {
    match fsutil::read_string_in(root, &loc.path, fsutil::MAX_PROJECT_FILE) {
        Ok(t) if t.trim().is_empty() => Ok(None),
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(NotesError::Read {
            path: loc.path.clone(),
            source: source.source,
        }),
    }
}

/// What [`update`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Updated {
    /// The file did not exist (or was blank) and was made from the template.
    pub created: bool,
    /// The file changed.
    pub written: bool,
}

/// Apply `edit` to the file's text (the template's, when there is no file) and write the result
/// atomically when it differs. One writer at a time (`.trail/state/notes.lock`): two decisions
/// recorded at once both reach the file. The file keeps its permissions.
pub fn update(
    root: &Path,
    loc: &Location,
    edit: impl FnOnce(&str) -> String,
) -> Result<Updated, NotesError> {
    let _lock = lock(root)?;
    let old = read(root, loc)?;
    let created = old.is_none();
    let base = old.clone().unwrap_or_else(template);
    let new = edit(&base);
    if old.as_deref() == Some(new.as_str()) {
        return Ok(Updated {
            created,
            written: false,
        });
    }
    write(root, loc, &new)?;
    Ok(Updated {
        created,
        written: true,
    })
}

/// Write `text` as the file, atomically, keeping the mode an existing file had (0644 for a new
/// one: it is a project file, not a secret).
pub fn write(root: &Path, loc: &Location, text: &str) -> Result<(), NotesError> {
    use std::os::unix::fs::PermissionsExt;
    let werr = |source| NotesError::Write {
        path: loc.path.clone(),
        source,
    };
    let mode = fsutil::open_in(root, &loc.path, fsutil::Access::Read)
        .ok()
        .and_then(|f| f.metadata().ok())
        .map_or(0o644, |m| m.permissions().mode() & 0o7777);
    fsutil::atomic_write_in(root, &loc.path, text.as_bytes()).map_err(|e| werr(e.source))?;
    let f = fsutil::open_in(root, &loc.path, fsutil::Access::Read).map_err(|e| werr(e.source))?;
    f.set_permissions(std::fs::Permissions::from_mode(mode))
        .map_err(werr)?;
    // The first write chooses the location for good: recorded, so that nothing but a person's
    // `trail notes move` changes it.
    if recorded(root).is_none() {
        record(root, &loc.rel)?;
    }
    Ok(())
}

fn lock(root: &Path) -> Result<std::fs::File, NotesError> {
    let path = Layout::new(root).notes_lock();
    let werr = |path: &Path| {
        let path = path.to_path_buf();
        move |source| NotesError::Write { path, source }
    };
    let f = fsutil::open_in(root, &path, fsutil::Access::ReadWriteCreate)
        .map_err(|e| e.source)
        .map_err(werr(&path))?;
    if fsutil::lock_within(&f, LOCK_TIMEOUT).map_err(werr(&path))? {
        Ok(f)
    } else {
        Err(NotesError::Locked {
            path,
            secs: LOCK_TIMEOUT.as_secs(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loa(yaml: &str) -> LoaConfig {
        serde_saphyr::from_str(yaml).unwrap()
    }

    #[test]
    fn the_file_comes_from_trails_setting_then_loas_then_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert_eq!(locate(root, None, None).unwrap().rel, "NOTES.md");
        let l = loa("paths:\n  grimoire: loa-grimoire\n");
        let at = locate(root, None, Some(&l)).unwrap();
        assert_eq!(
            (at.rel.as_str(), at.from.as_str()),
            ("loa-grimoire/NOTES.md", ".loa.config.yaml")
        );
        // Loa's default grimoire, and its legacy one where only that exists.
        assert_eq!(
            locate(root, None, Some(&loa("{}"))).unwrap().rel,
            "grimoires/loa/NOTES.md"
        );
        std::fs::create_dir(root.join("loa-grimoire")).unwrap();
        assert_eq!(
            locate(root, None, Some(&loa("{}"))).unwrap().rel,
            "loa-grimoire/NOTES.md"
        );
        let l = loa("memory:\n  notes_file: loa-grimoire/NOTES.md\n");
        assert_eq!(
            locate(root, None, Some(&l)).unwrap().rel,
            "loa-grimoire/NOTES.md"
        );
        let set = locate(
            root,
            Some(("docs/notes.md", "TRAIL_NOTES_PATH".into())),
            Some(&l),
        )
        .unwrap();
        assert_eq!(
            (set.rel.as_str(), set.from.as_str()),
            ("docs/notes.md", "TRAIL_NOTES_PATH")
        );
        assert_eq!(set.path, root.join("docs/notes.md"));
    }

    #[test]
    fn a_path_outside_the_project_or_into_trails_own_files_is_refused() {
        let root = Path::new("/p");
        for bad in [
            "../NOTES.md",
            "/etc/NOTES.md",
            "a/../../NOTES.md",
            ".trail/state/grants.jsonl",
            ".trail/state/x.md",
            ".git/NOTES.md",
            "notes.txt",
            "",
        ] {
            let e = locate(root, Some((bad, "notes.path".into())), None).unwrap_err();
            assert!(matches!(e, NotesError::BadPath { .. }), "{bad}: {e}");
        }
        let l = loa("memory:\n  notes_file: ../outside.md\n");
        let e = locate(root, None, Some(&l)).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(".loa.config.yaml puts NOTES.md at `../outside.md`"),
            "{e}"
        );
    }

    #[test]
    fn update_creates_from_the_template_and_keeps_a_files_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let loc = locate(root, Some(("g/NOTES.md", "x".into())), None).unwrap();
        let u = update(root, &loc, std::string::ToString::to_string).unwrap();
        assert_eq!(
            u,
            Updated {
                created: true,
                written: true
            }
        );
        assert_eq!(std::fs::read_to_string(&loc.path).unwrap(), template());
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&loc.path), 0o644);
        std::fs::set_permissions(&loc.path, std::fs::Permissions::from_mode(0o664)).unwrap();
        let u = update(root, &loc, |t| format!("{t}more\n")).unwrap();
        assert_eq!(
            u,
            Updated {
                created: false,
                written: true
            }
        );
        assert_eq!(mode(&loc.path), 0o664);
        let u = update(root, &loc, std::string::ToString::to_string).unwrap();
        assert!(!u.written);
        // Whitespace only counts as missing.
        std::fs::write(&loc.path, " \n\t\n").unwrap();
        assert!(read(root, &loc).unwrap().is_none());
        assert!(
            update(root, &loc, std::string::ToString::to_string)
                .unwrap()
                .created
        );
    }
}
