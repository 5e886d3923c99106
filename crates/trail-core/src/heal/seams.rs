//! Where healing meets NOTES.md (`notes/`: `trail init` and `trail decide` create it,
//! `notes::locate` says where it is, `notes::rebuild_from_journals` rebuilds it from the
//! decision records). Nothing else in `heal/` knows where NOTES.md lives or what it holds.

use std::path::Path;

use serde::Serialize;

use crate::notes::{Location, NotesError};

/// Why no NOTES.md can be named: healing reports it and heals the rest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unlocated {
    /// What names it: the path as set, or `.loa.config.yaml` when that cannot be read.
    pub file: String,
    pub why: String,
}

/// Where the project at `root` keeps NOTES.md, as every other reader and writer of it is told
/// ([`crate::notes::locate`]): trail's `notes.path` when set (`notes_path`, with what set it),
/// else Loa's (`memory.notes_file`, else `<grimoire>/NOTES.md`) when the project has
/// `.loa.config.yaml`, else `NOTES.md` at the root.
pub fn notes_at(root: &Path, notes_path: Option<(&str, String)>) -> Result<Location, Unlocated> {
    // Loa's config matters only when trail's setting does not decide.
    let loa = match notes_path {
        Some(_) => None,
        None => crate::loa::read_config(root).map_err(|e| Unlocated {
            file: ".loa.config.yaml".into(),
            why: format!("cannot read it, so where NOTES.md is kept is unknown: {e}"),
        })?,
    };
    crate::notes::locate(root, notes_path, loa.as_ref()).map_err(|e| match &e {
        NotesError::BadPath { path, from, why } => Unlocated {
            file: path.clone(),
            why: if from == ".loa.config.yaml" {
                format!("{from} names it as NOTES.md, but {why}")
            } else {
                format!("notes.path (from {from}) names it as NOTES.md, but {why}")
            },
        },
        _ => Unlocated {
            file: crate::notes::DEFAULT.into(),
            why: e.to_string(),
        },
    })
}

/// NOTES.md rebuilt from the trajectory's decision records, or `None` when it holds no
/// decision (healing then falls through to the template). The order around it (git, then this,
/// then the template) is tested with a stand-in rebuilder (`Options::notes_from_journals`).
pub fn notes_from_journals(root: &Path) -> Option<String> {
    let project = crate::project::Project::discover(root);
    crate::notes::rebuild::rebuild_from_journals(root, None, &project, None)
        .ok()
        .filter(|r| r.from_trajectory + r.from_stream > 0)
        .map(|r| r.text)
}
