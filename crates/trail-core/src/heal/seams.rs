//! SEAMS: where healing meets NOTES.md, which branch `decide` builds (`trail init` and `trail
//! decide` create it, `notes::rebuild_from_journals` rebuilds it from the decision records).
//! Until that merges, these three stand in; each says what replaces it. Nothing else in
//! `heal/` knows where NOTES.md lives or what it holds.

use std::path::{Path, PathBuf};

use crate::layout::Layout;

/// Where the project's NOTES.md is: Loa's (`memory.notes_file`, else `<grimoire>/NOTES.md`) in a
/// project with `.loa.config.yaml`, else `NOTES.md` at the root.
///
/// SEAM: becomes branch `decide`'s configurable NOTES.md location.
pub fn notes_path(root: &Path) -> PathBuf {
    match crate::grounding::loa::read_config(root) {
        Ok(Some(loa)) => loa.notes_file(root),
        _ => Layout::new(root).notes(),
    }
}

/// NOTES.md rebuilt from the journals' decision records, or `None` when the journals hold no
/// decision of this project.
///
/// SEAM: always `None` on this branch (so healing falls through to the template); becomes
/// `notes::rebuild_from_journals` from branch `decide`. The order around it (git, then this,
/// then the template) is tested with a stand-in rebuilder (`Options::notes_from_journals`).
pub fn notes_from_journals(_root: &Path) -> Option<String> {
    None
}

/// The NOTES.md a project starts with: the Lossless Ledger's Session Continuity section (FR-10).
///
/// SEAM: becomes branch `decide`'s NOTES.md template.
pub const NOTES_TEMPLATE: &str = "\
# NOTES.md

## Session Continuity
<!-- Load FIRST after /clear: `trail resume --level 1` gives it back in ~100 tokens -->

### Active Context
- **Current Task**: (none yet)
- **Last Checkpoint**: (none yet)
- **Reasoning State**: (none yet)

### Lightweight Identifiers
| Identifier | Purpose | Last Verified |
|------------|---------|---------------|

### Decision Log
<!-- `trail decide` appends here; every decision is also a record in the journals -->
";
