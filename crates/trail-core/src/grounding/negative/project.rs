//! The ghosts of a project: those its NOTES.md lists under a "Ghost Features" heading (the
//! NOTES.md trail keeps: `notes.path`, else Loa's, else the root's, as
//! [`crate::notes::locate_in`] says), and any named besides, each checked by [`super::check`].
//! One function for `trail ghosts`, `trail checkpoint` and the MCP server's `checkpoint` tool,
//! so the three find the same ghosts and give each the same verdict.

use std::path::Path;

use serde::Serialize;

use super::{Checked, Class, Engine, Ghost, Options};
use crate::notes::{self, Location, NotesError};
use crate::secrets::Redactor;

/// The ghosts of a project, checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Found {
    /// The search that ran (with no ghost to check, the one that would have).
    pub engine: Engine,
    /// Where the ghosts were listed (`${PROJECT_ROOT}/NOTES.md`); `None` when the project has
    /// no NOTES.md, or a blank one.
    pub notes: Option<String>,
    /// Each ghost: its verdict, both queries and what they matched, and why.
    pub ghosts: Vec<Checked>,
}

impl Found {
    /// The names of the ghosts given `class`.
    pub fn named(&self, class: Class) -> Vec<&str> {
        self.ghosts
            .iter()
            .filter(|c| c.class == class)
            .map(|c| c.feature.as_str())
            .collect()
    }
}

/// The ghosts `notes` lists (when the file is there) and then those of `named` it does not,
/// checked under `root` with `opts`, everything shown redacted with `redactor`. A NOTES.md that
/// is there and cannot be read is an error: its ghosts were never checked, which is no pass.
pub fn check(
    root: &Path,
    notes: &Location,
    named: &[Ghost],
    opts: &Options,
    redactor: &Redactor,
) -> Result<Found, NotesError> {
    let text = notes::read(root, notes)?;
    let shown = format!("${{PROJECT_ROOT}}/{}", notes.rel);
    let mut ghosts = text
        .as_deref()
        .map(|t| super::in_notes(t, &shown))
        .unwrap_or_default();
    for g in named {
        if !ghosts.iter().any(|x| x.name.eq_ignore_ascii_case(&g.name)) {
            ghosts.push(g.clone());
        }
    }
    Ok(Found {
        engine: opts.engine(),
        notes: text.map(|_| redactor.redact(&shown, &mut Vec::new()).into_owned()),
        ghosts: super::check(root, &ghosts, opts, redactor),
    })
}
