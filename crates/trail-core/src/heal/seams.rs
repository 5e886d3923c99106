//! Where healing meets NOTES.md (`notes/`: `trail init` and `trail decide` create it,
//! `notes::rebuild_from_journals` rebuilds it from the decision records). Nothing else in
//! `heal/` knows where NOTES.md lives or what it holds.

use std::path::{Path, PathBuf};

use crate::layout::Layout;

/// Where the project's NOTES.md is: Loa's (`memory.notes_file`, else `<grimoire>/NOTES.md`) in a
/// project with `.loa.config.yaml`, else `NOTES.md` at the root.
/// (`notes.path` is not consulted: healing restores the file where Loa or the default keeps it.)
pub fn notes_path(root: &Path) -> PathBuf {
    match crate::grounding::loa::read_config(root) {
        Ok(Some(loa)) => root.join(loa.notes_file(root)),
        _ => Layout::new(root).notes(),
    }
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
