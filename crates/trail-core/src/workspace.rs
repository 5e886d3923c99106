//! The application layer's context: what every use case needs, built one way for both front
//! ends (issue 23). The CLI and the MCP server each load a [`Workspace`] and call the same use
//! case ([`crate::decision::decide`], [`crate::checkpoint::in_workspace`],
//! [`crate::resume::resume`], [`crate::lookup::search`], [`crate::lookup::recall`]); they
//! differ only in how arguments come in and results go out.
//!
//! Found by reading the two front ends side by side: `trail decide` loaded the configuration a
//! second time, took the project root as configured, and named the project from it, where the
//! MCP `decide` tool took the canonical root (the checkpoint had the same two copies). Both now
//! ask the workspace.

use std::path::PathBuf;
use std::sync::Arc;

use crate::config::Config;
use crate::ledger::Ledger;
use crate::loa::LoaError;
use crate::notes::{Location, NotesError};
use crate::project::Project;
use crate::secrets::Secrets;

/// The configuration, the ledger it names, the one secrets service every write and output
/// passes, and the project's root.
pub struct Workspace {
    pub config: Config,
    pub ledger: Ledger,
    pub secrets: Arc<Secrets>,
    /// The project root, canonical when it can be (paths are compared against it).
    pub root: PathBuf,
}

/// Which NOTES.md the project keeps could not be decided.
#[derive(Debug, thiserror::Error)]
pub enum NotesWhere {
    #[error("cannot read the project's Loa config: {0}")]
    Loa(LoaError),
    #[error(transparent)]
    Refused(NotesError),
}

impl NotesWhere {
    /// What a person can do about it.
    pub fn hint(&self) -> &'static str {
        match self {
            NotesWhere::Loa(_) => "fix the YAML; trail reads its grounding and path keys only",
            NotesWhere::Refused(NotesError::BadPath { from, .. }) if from == ".loa.config.yaml" => {
                "fix `memory.notes_file` or `paths.grimoire` in .loa.config.yaml, or set notes.path"
            }
            NotesWhere::Refused(_) => {
                "set notes.path (TRAIL_NOTES_PATH) to a .md file inside the project"
            }
        }
    }
}

impl Workspace {
    /// The workspace `config` names: its ledger redacting with the one secrets service.
    pub fn new(config: Config) -> Workspace {
        let root = config.project_root.value.clone();
        let root = root.canonicalize().unwrap_or(root);
        let secrets = config.secrets();
        let ledger = config.ledger().with_secrets(secrets.clone());
        Workspace {
            config,
            ledger,
            secrets,
            root,
        }
    }

    /// Where `${PROJECT_ROOT}` points for citations and identifiers: `$PROJECT_ROOT` when set,
    /// else the project's root.
    pub fn citation_root(&self) -> PathBuf {
        crate::cite::root_of(&self.root)
    }

    /// The project's identity (its name and id in the ledger).
    pub fn project(&self) -> Project {
        Project::discover(&self.root)
    }

    /// Which NOTES.md the project keeps: `notes.path`, else the one recorded, else Loa's, else
    /// the root's ([`crate::notes::locate_in`]), under the citation root.
    pub fn notes(&self) -> Result<Location, NotesWhere> {
        notes_in(&self.config, &self.citation_root())
    }
}

/// Which NOTES.md the project at `root` keeps under `config`, Loa's config read from `root`:
/// the one way to ask, for a workspace and for a command that names its own root.
pub fn notes_in(config: &Config, root: &std::path::Path) -> Result<Location, NotesWhere> {
    let loa = crate::loa::read_config(root).map_err(NotesWhere::Loa)?;
    crate::notes::locate_in(config, root, loa.as_ref()).map_err(NotesWhere::Refused)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::path::Path;

    use super::*;
    use crate::config::FakeEnv;
    use crate::decision::{self, DecideError, Request};

    /// A project in `dir/proj` with one source file, and a home beside it.
    fn workspace(dir: &Path, notes_path: Option<&str>) -> Workspace {
        let proj = dir.join("proj");
        std::fs::create_dir_all(proj.join("src")).unwrap();
        std::fs::write(proj.join("src/lib.rs"), "pub fn total() -> u32 { 42 }\n").unwrap();
        let mut vars = HashMap::new();
        vars.insert("HOME", dir.join("home").display().to_string());
        vars.insert("CLAUDE_PROJECT_DIR", proj.display().to_string());
        if let Some(p) = notes_path {
            vars.insert("TRAIL_NOTES_PATH", p.to_string());
        }
        Workspace::new(Config::load_from(&FakeEnv(vars, proj)).unwrap())
    }

    fn request() -> Request {
        Request {
            title: "Totals are computed once".into(),
            decision: "Keep `total` a constant".into(),
            rationale: "Nothing changes it at run time".into(),
            evidence: vec!["`pub fn total() -> u32 { 42 }` [${PROJECT_ROOT}/src/lib.rs:1]".into()],
            tests: Vec::new(),
            bead: None,
        }
    }

    /// The use case both front ends call: the decision reaches the journals and the NOTES.md
    /// the workspace locates, its citation checked against the canonical root.
    #[test]
    fn a_decision_is_recorded_through_the_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let ws = workspace(dir.path(), None);
        assert_eq!(ws.root, dir.path().join("proj").canonicalize().unwrap());
        let done = decision::decide(&ws, request()).unwrap();
        assert!(done.notes_error.is_none(), "{:?}", done.notes_error);
        let notes = std::fs::read_to_string(ws.root.join("NOTES.md")).unwrap();
        assert!(notes.contains("Totals are computed once"), "{notes}");
    }

    /// The checkpoint both front ends run, through the same workspace: after one grounded
    /// decision, every step is measured and none errs.
    #[test]
    fn a_checkpoint_runs_through_the_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let ws = workspace(dir.path(), None);
        decision::decide(&ws, request()).unwrap();
        let (report, _policy) = crate::checkpoint::in_workspace(&ws, None).unwrap();
        assert!(!report.steps.is_empty());
        assert_ne!(
            report.verdict,
            crate::checkpoint::Verdict::Error,
            "{report:?}"
        );
    }

    /// A NOTES.md path outside the project is refused before anything is written, with a hint
    /// that says where to fix it.
    #[test]
    fn a_refused_notes_path_writes_nothing_and_says_where_to_fix_it() {
        let dir = tempfile::tempdir().unwrap();
        let ws = workspace(dir.path(), Some("../elsewhere.md"));
        let err = decision::decide(&ws, request()).unwrap_err();
        let DecideError::Notes(w) = &err else {
            panic!("{err}");
        };
        assert!(w.hint().contains("notes.path"), "{}", w.hint());
        assert!(!ws.root.join(".trail/trajectory").exists());
        assert!(!dir.path().join("elsewhere.md").exists());
    }
}
