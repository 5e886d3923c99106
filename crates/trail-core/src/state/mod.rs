//! The state file `active_context.yaml` (Operator's Edge v4) and the protocol around it: modes,
//! junctions, allowances, dismissals, observations and the quality gate.
//!
//! The file is a view: the agent and people may edit it. Every write by trail takes the state
//! lock, validates the invariants of §9, writes a temporary file, syncs it, renames it over the
//! old one and syncs the directory. An edit made by someone else is noticed by hash (trail
//! remembers the hash of what it last wrote) and accepted when it is valid; a file trail cannot
//! parse is reported with its line and never overwritten. Grants are only believed when the
//! journal ([`grants`]) holds them.

pub mod grants;
pub mod observe;
pub mod pending;
pub mod protocol;
pub mod schema;
pub mod status;
pub mod yaml;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use schema::{Mode, State};

pub const FILE_NAME: &str = crate::layout::STATE_FILE;
/// How long a writer waits for the state lock (§9).
const LOCK_TIMEOUT: Duration = Duration::from_secs(5);

const HEADER: &str = "# active_context.yaml: Operator's Edge state (schema v4), kept by trail.\n\
# Edit objective and plan freely. Approvals are a person's: `trail approve` in a terminal or\n\
# `/edge approve` typed in the agent's prompt; allowances added here by hand are ignored.\n";

#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: cannot be read as YAML: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{path}: {}", join(problems))]
    Invalid {
        path: PathBuf,
        problems: Vec<schema::Problem>,
    },
    #[error("{path}: the state lock has been held for more than {secs} s")]
    LockTimeout { path: PathBuf, secs: u64 },
    /// A decision or transition the protocol refuses (what to do instead is the caller's to
    /// say: the CLI and the prompt hook word it for their own person).
    #[error(transparent)]
    Refused(#[from] Refusal),
}

/// What the protocol refuses, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("no junction is pending: nothing to decide")]
    NothingPending,
    #[error("the pending junction is {pending} ({action}), not {asked}")]
    NotThePending {
        pending: String,
        action: String,
        asked: String,
    },
    #[error(
        "the pending junction was not recorded by trail ({why}); it was removed and nothing was decided"
    )]
    ForgedPending { why: String },
    #[error("a dismissal lasts 1 to {max} minutes, not {minutes}")]
    DismissalLength { minutes: u64, max: u64 },
    #[error("junction {id} cannot be dismissed: {why}")]
    NotDismissable { id: String, why: String },
    #[error("active mode needs an objective")]
    NeedsObjective,
    #[error("plan → done is not a transition: there is nothing to complete")]
    PlanToDone,
}

/// Problems on one line, `; ` between them.
fn join(problems: &[schema::Problem]) -> String {
    let texts: Vec<String> = problems.iter().map(ToString::to_string).collect();
    texts.join("; ")
}

/// A file of the state that said where it failed: the same error, its path and cause kept.
impl From<crate::file_error::FileError> for StateError {
    fn from(e: crate::file_error::FileError) -> StateError {
        StateError::Io {
            path: e.path,
            source: e.source,
        }
    }
}

fn io<E: trail_base::file_error::Cause>(path: &Path) -> impl FnOnce(E) -> StateError + '_ {
    move |source| StateError::Io {
        path: path.to_path_buf(),
        source: source.cause(),
    }
}

/// The state file of one project, and trail's own records beside it.
#[derive(Clone, Debug)]
pub struct Store {
    root: PathBuf,
    /// Where the person's key lives (the secret store's directory, outside every project).
    secrets_dir: PathBuf,
}

/// The state as read, with what is known about how it got there.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub state: State,
    pub exists: bool,
    /// Changed since trail last wrote it (by the agent, a person or another tool).
    pub edited_elsewhere: bool,
    /// Invariant violations (a valid file has none).
    pub problems: Vec<schema::Problem>,
}

impl Store {
    /// A store whose key lives in `$HOME/.secrets` (see [`Store::with_secrets_dir`]).
    pub fn new(project_root: impl Into<PathBuf>) -> Store {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default();
        Store {
            root: project_root.into(),
            secrets_dir: home.join(".secrets"),
        }
    }

    /// The same store with the person's key in `dir` (the configured secrets directory).
    #[must_use]
    pub fn with_secrets_dir(mut self, dir: impl Into<PathBuf>) -> Store {
        self.secrets_dir = dir.into();
        self
    }

    /// The person's key, `None` when there is none yet (then nothing can be validly granted).
    pub fn key(&self) -> Result<Option<crate::secrets::key::Key>, StateError> {
        crate::secrets::key::Key::load(&self.secrets_dir).map_err(self.key_error())
    }

    /// The person's key, made now if there is none (trail needs it to sign a junction or a
    /// person's decision).
    pub fn key_or_create(&self) -> Result<crate::secrets::key::Key, StateError> {
        crate::secrets::key::Key::load_or_create(&self.secrets_dir).map_err(self.key_error())
    }

    fn key_error(&self) -> impl FnOnce(trail_base::file_error::FileError) -> StateError {
        let path = crate::secrets::key::path(&self.secrets_dir);
        move |e| StateError::Io {
            path,
            source: trail_base::file_error::Cause::cause(e),
        }
    }

    pub fn project_root(&self) -> &Path {
        &self.root
    }

    pub fn path(&self) -> PathBuf {
        self.root.join(FILE_NAME)
    }

    /// `.trail/state/`: locks, hashes, the grants journal (git-ignored).
    pub fn state_dir(&self) -> PathBuf {
        crate::layout::Layout::new(&self.root).state_dir()
    }

    fn hash_path(&self) -> PathBuf {
        crate::layout::Layout::new(&self.root).state_hash()
    }

    fn read_bytes(&self) -> Result<Option<Vec<u8>>, StateError> {
        let path = self.path();
        match crate::fsutil::read_in(&self.root, &path, crate::fsutil::MAX_PROJECT_FILE) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io(&path)(e)),
        }
    }

    fn parse(&self, bytes: &[u8]) -> Result<State, StateError> {
        parse(&self.path(), bytes)
    }

    fn last_written_hash(&self) -> Option<String> {
        // A hex digest and a newline: anything longer is not trail's.
        crate::fsutil::read_string_in(&self.root, &self.hash_path(), 128)
            .ok()
            .map(|s| s.trim().to_string())
    }

    /// Reads the state without locking (a reader sees one whole file: writes are renames).
    pub fn load(&self) -> Result<Loaded, StateError> {
        let Some(bytes) = self.read_bytes()? else {
            return Ok(Loaded {
                state: State::new(),
                exists: false,
                edited_elsewhere: false,
                problems: Vec::new(),
            });
        };
        let state = self.parse(&bytes)?;
        let problems = state.problems();
        Ok(Loaded {
            edited_elsewhere: self.last_written_hash().as_deref() != Some(&hex(&bytes)),
            state,
            exists: true,
            problems,
        })
    }

    fn lock(&self) -> Result<File, StateError> {
        let path = crate::layout::Layout::new(&self.root).state_lock();
        // Created through no symlink: a link here would create (or lock) a file anywhere.
        let f = crate::fsutil::open_in(&self.root, &path, crate::fsutil::Access::ReadWriteCreate)
            .map_err(io(&path))?;
        if crate::fsutil::lock_within(&f, LOCK_TIMEOUT).map_err(io(&path))? {
            Ok(f)
        } else {
            Err(StateError::LockTimeout {
                path,
                secs: LOCK_TIMEOUT.as_secs(),
            })
        }
    }

    /// Removes temporary files a writer left when it died mid-write. Only writers holding the
    /// state lock create them, so under the lock every one found is a dead writer's.
    fn sweep(&self) {
        for (dir, name) in [
            (self.root.clone(), FILE_NAME),
            (self.state_dir(), "active_context.sha256"),
        ] {
            let prefix = format!(".{name}.tmp-");
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                if e.file_name().to_string_lossy().starts_with(&prefix) {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
    }

    /// Changes the state in one transaction: lock, read, change, validate, write, sync.
    ///
    /// `change` sees the current state (a fresh v4 state when there is no file). Nothing is
    /// written when it fails, when the result breaks an invariant, or when it changed nothing.
    pub fn update<T>(
        &self,
        change: impl FnOnce(&mut State) -> Result<T, StateError>,
    ) -> Result<T, StateError> {
        let _lock = self.lock()?;
        self.sweep();
        let before = self.read_bytes()?;
        let mut state = match &before {
            Some(b) => self.parse(b)?,
            None => State::new(),
        };
        let original = state.clone();
        let out = change(&mut state)?;
        self.write_locked(before.as_deref(), &original, state)?;
        Ok(out)
    }

    /// Changes trail's own records under the state lock, and the view with them when it can.
    ///
    /// `change` gets the state file (`None` when it cannot be read: trail's records, the
    /// pending junction and the grants journal, do not depend on it). The view is written back
    /// when it is readable and the result keeps its invariants; otherwise it is left as it is
    /// for a person to fix, and the records still hold.
    pub fn transact<T>(
        &self,
        change: impl FnOnce(Option<&mut State>) -> Result<T, StateError>,
    ) -> Result<T, StateError> {
        let _lock = self.lock()?;
        self.sweep();
        let before = self.read_bytes().ok().flatten();
        let parsed = match &before {
            Some(b) => self.parse(b).ok(),
            None => Some(State::new()),
        };
        let Some(mut state) = parsed else {
            return change(None);
        };
        let original = state.clone();
        let out = change(Some(&mut state))?;
        match self.write_locked(before.as_deref(), &original, state) {
            Ok(()) | Err(StateError::Invalid { .. }) => Ok(out),
            Err(e) => Err(e),
        }
    }

    /// The write half of a transaction (the caller holds the lock).
    fn write_locked(
        &self,
        before: Option<&[u8]>,
        original: &State,
        mut state: State,
    ) -> Result<(), StateError> {
        if before.is_some() && state == *original {
            return Ok(());
        }
        // Writing migrates an older file to v4; whatever else is wrong is the person's to fix.
        state.schema_version = Some(schema::SCHEMA_VERSION.into());
        let problems = state.problems();
        if !problems.is_empty() {
            return Err(StateError::Invalid {
                path: self.path(),
                problems,
            });
        }
        if let Some(b) = before
            && !b.starts_with(HEADER.as_bytes())
        {
            // First rewrite of a file trail did not write: keep it whole (comments included).
            let keep = crate::layout::Layout::new(&self.root).state_before_trail();
            if std::fs::symlink_metadata(&keep).is_err() {
                crate::fsutil::atomic_write_in(&self.root, &keep, b).map_err(io(&keep))?;
            }
        }
        let bytes = render(&state);
        let path = self.path();
        crate::fsutil::atomic_write_in(&self.root, &path, bytes.as_bytes()).map_err(io(&path))?;
        // A crash here leaves the new file without its hash: the next reader sees an edit made
        // elsewhere, which is valid, and accepts it.
        crate::failpoint::hit("state-after-write");
        let hp = self.hash_path();
        crate::fsutil::atomic_write_in(&self.root, &hp, hex(bytes.as_bytes()).as_bytes())
            .map_err(io(&hp))
    }
}

/// Reads a state file's bytes (`path` names it in errors). A file of only comments and blank
/// lines is an empty state.
pub fn parse(path: &Path, bytes: &[u8]) -> Result<State, StateError> {
    let path = path.to_path_buf();
    let text = std::str::from_utf8(bytes).map_err(|e| StateError::Parse {
        path: path.clone(),
        message: format!("not UTF-8 ({e})"),
    })?;
    if text.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    }) {
        return Ok(State::default());
    }
    serde_saphyr::from_str::<State>(text).map_err(|e| {
        let message = trail_base::text::parser_message(&e.to_string());
        StateError::Parse {
            path,
            message: match e.location() {
                Some(at) => format!("line {}, column {}: {message}", at.line(), at.column()),
                None => message,
            },
        }
    })
}

/// The file as trail writes it.
pub fn render(state: &State) -> String {
    let value = serde_json::to_value(state).unwrap_or_default();
    format!("{HEADER}{}", yaml::to_string(&value))
}

fn hex(bytes: &[u8]) -> String {
    crate::text::sha256_hex(bytes)
}

#[cfg(test)]
mod tests;
