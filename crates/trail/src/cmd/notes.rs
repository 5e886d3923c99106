//! Which NOTES.md a command writes: trail's `notes.path` when set, else Loa's own, else the
//! root's ([`trail_core::notes::locate_in`]), with what to do when the path is refused.

use std::path::Path;

use trail_core::config::Config;
use trail_core::grounding::loa;
use trail_core::notes::{self, Location, NotesError};
use trail_core::workspace::{self, NotesWhere};

use crate::error::{CliError, CliResult};

/// Which NOTES.md this project keeps (`notes.path`, else Loa's, else the root's).
pub fn location(config: &Config, root: &Path) -> CliResult<Location> {
    workspace::notes_in(config, root).map_err(|w| where_error(&w))
}

/// A NOTES.md location that was refused, with where to fix it.
pub fn refused(e: NotesError) -> CliError {
    where_error(&NotesWhere::Refused(e))
}

/// Why NOTES.md cannot be located, with the workspace's hint (one wording for every front end).
pub fn where_error(w: &NotesWhere) -> CliError {
    CliError::usage(w.to_string()).with_hint(w.hint())
}

/// `trail notes where` and `trail notes move`.
pub fn run(cmd: &crate::cli::NotesCommand) -> CliResult {
    use crate::cli::NotesCommand;
    let config = Config::load()?;
    let root = config.project_root.value.clone();
    let here = location(&config, &root)?;
    let loa_wants = loa::read_config(&root)
        .ok()
        .flatten()
        .map(|l| l.notes_file(&root))
        .filter(|rel| *rel != here.rel);
    match cmd {
        NotesCommand::Where { json } => {
            if *json {
                return crate::output::json(&serde_json::json!({
                    "path": here.rel,
                    "from": here.from,
                    "exists": here.path.is_file(),
                    "loa_config_names": loa_wants,
                }));
            }
            let mut s = format!("{} (chosen by {})\n", here.rel, here.from);
            if let Some(l) = &loa_wants {
                s.push_str(&format!(
                    "note: .loa.config.yaml names {l}; trail keeps {} until a person moves it: \
                     `trail notes move {l}`\n",
                    here.rel
                ));
            }
            crate::output::text(&s)
        }
        NotesCommand::Move { path } => move_to(&root, &here, path),
    }
}

/// Move the project's NOTES.md to `dest` with its content, and record the new place: a
/// person's word, asked at the terminal (the agent's shell has none, and the gate stops it).
fn move_to(root: &Path, here: &Location, dest: &str) -> CliResult {
    let dest = dest.trim().trim_start_matches("./");
    let to = notes::locate(root, Some((dest, "trail notes move".into())), None).map_err(refused)?;
    if to.rel == here.rel {
        return crate::output::text(&format!("NOTES.md is already {}\n", here.rel));
    }
    let existing = notes::read(root, &to).map_err(refused)?;
    if existing.is_some() {
        return Err(CliError::usage(format!(
            "{} already holds text: trail moves NOTES.md only to a place that is missing or empty, \
             so nothing is merged by guess",
            to.rel
        ))
        .with_hint(format!(
            "merge {} into {} by hand, empty or remove {}, then run this again",
            here.rel, to.rel, to.rel
        )));
    }
    crate::person::require_terminal(crate::person::AT_YOUR_TERMINAL).map_err(CliError::usage)?;
    crate::person::confirm(
        &format!(
            "Move NOTES.md from {} to {} (content and all)? trail then reads and writes only {}.",
            here.rel, to.rel, to.rel
        ),
        "move",
    )
    .map_err(CliError::usage)?;
    let text = notes::read(root, here)
        .map_err(refused)?
        .unwrap_or_default();
    notes::write(root, &to, &text).map_err(refused)?;
    notes::record(root, &to.rel)
        .map_err(|e| CliError::usage(format!("cannot record the new place: {e}")))?;
    if here.path.is_file() {
        std::fs::remove_file(&here.path)
            .map_err(|e| CliError::usage(format!("moved, but cannot remove {}: {e}", here.rel)))?;
    }
    crate::output::text(&format!(
        "moved NOTES.md: {} → {} (recorded in {})\n",
        here.rel,
        to.rel,
        notes::RECORDED_FROM
    ))
}

/// `trail merge-notes BASE OURS THEIRS`, run by git when two clones' NOTES.md meet: both sides'
/// decisions kept whole (`trail_core::notes::merge`), the result written to OURS. Exit 1 leaves
/// git a conflict in the person's own text to resolve.
pub fn merge_driver(
    base: &std::path::Path,
    ours: &std::path::Path,
    theirs: &std::path::Path,
) -> CliResult {
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p).map_err(|e| {
            crate::error::CliError::failed(format!("cannot read {}: {e}", p.display()))
        })
    };
    let merged = trail_core::notes::merge::merge(
        &read(base)?,
        &read(ours)?,
        &read(theirs)?,
        &trail_core::notes::merge::with_git,
    )?;
    trail_core::fsutil::atomic_write(ours, merged.text.as_bytes())?;
    if merged.conflicts {
        eprintln!(
            "trail: NOTES.md: both sides changed the same lines of your own text; resolve them as git shows"
        );
        Err(crate::error::CliError::CheckFailed)
    } else {
        Ok(())
    }
}
