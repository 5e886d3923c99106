//! Which NOTES.md a command writes: trail's `notes.path` when set, else Loa's own, else the
//! root's ([`trail_core::notes::locate`]), with what to do when the path is refused.

use std::path::Path;

use trail_core::config::Config;
use trail_core::grounding::loa;
use trail_core::notes::{self, Location, NotesError};

use crate::error::{CliError, CliResult};

/// Which NOTES.md this project keeps (`notes.path`, else Loa's, else the root's).
pub fn location(config: &Config, root: &Path) -> CliResult<Location> {
    let loa = loa::read_config(root).map_err(|e| {
        CliError::usage(format!("cannot read the project's Loa config: {e}"))
            .with_hint("fix the YAML; trail reads its grounding and path keys only")
    })?;
    notes::locate(root, notes::configured(config), loa.as_ref()).map_err(|e| {
        let hint = match &e {
            NotesError::BadPath { from, .. } if from == ".loa.config.yaml" => {
                "fix `memory.notes_file` or `paths.grimoire` in .loa.config.yaml, or set notes.path"
            }
            _ => "set notes.path (TRAIL_NOTES_PATH) to a .md file inside the project",
        };
        CliError::usage(e.to_string()).with_hint(hint)
    })
}
