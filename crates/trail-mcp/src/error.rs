//! Why a tool call, a resource read or a prompt failed, worded for the agent that asked: what
//! went wrong in the core's words, then what to do next in this server's terms (its tools and
//! their arguments; the CLI's flags mean nothing here). A failed tool call is a tool result
//! marked as an error, so the model reads it; a request that names no tool, resource or prompt
//! is a protocol error.

use std::fmt;

use trail_core::checkpoint::SetupError;
use trail_core::config::ConfigError;
use trail_core::decision::DecideError;
use trail_core::grounding::GroundError;
use trail_core::ledger::LedgerError;
use trail_core::notes::NotesError;
use trail_core::search::SearchError;
use trail_core::search::retrieve::RetrieveError;
use trail_core::secrets::SecretsError;
use trail_core::show::ShowError;
use trail_core::state::StateError;

#[derive(Debug)]
pub enum ToolError {
    /// The arguments do not fit the tool's schema.
    Args(String),
    Config(ConfigError),
    Ledger(LedgerError),
    Search(SearchError),
    Retrieve(RetrieveError),
    State(StateError),
    /// A decision not recorded (or recorded in the trajectory only: the message says which).
    Decide(DecideError),
    /// What the checkpoint reads could not be read: nothing was checked or written.
    Setup(SetupError),
    /// The project's Loa config, read for NOTES.md's place.
    Ground(GroundError),
    Notes(NotesError),
    Show(ShowError),
    /// A secret rule of the person's does not compile, or the secret store cannot be written.
    Secrets(SecretsError),
    Io(std::io::Error),
    /// A file that could not be read or written, named with what was being done.
    File(trail_core::file_error::FileError),
    NoHome,
    /// No tool call or trajectory entry carries this session id.
    NoSession(String),
}

impl ToolError {
    fn hint(&self) -> Option<&'static str> {
        Some(match self {
            ToolError::Args(_) => "see the tool's input schema (tools/list)",
            ToolError::Config(_) => {
                "the person has to fix trail's configuration; the message names the file"
            }
            ToolError::Search(SearchError::Query(_)) => {
                "give words, \"a phrase\", or with regex=true one regex"
            }
            ToolError::Retrieve(RetrieveError::NoRecord { .. }) => {
                "use an id exactly as search or timeline returned it"
            }
            ToolError::Retrieve(
                RetrieveError::Outside { .. }
                | RetrieveError::Protected { .. }
                | RetrieveError::Hidden { .. }
                | RetrieveError::NotRooted { .. },
            ) => {
                "get retrieves what search returns: the stream's records and the journals, notes, memory and code it searches"
            }
            ToolError::NoSession(_) => "resources/list names the recent sessions",
            ToolError::Decide(DecideError::NoCitation { .. }) => {
                "each evidence item is `quote` [${PROJECT_ROOT}/path:LINE]; nothing was recorded"
            }
            ToolError::Decide(DecideError::Empty(_) | DecideError::BadBead(_)) => {
                "nothing was recorded; see the tool's input schema"
            }
            ToolError::Setup(_)
            | ToolError::Ground(_)
            | ToolError::Notes(_)
            | ToolError::Decide(DecideError::Notes(_)) => {
                "the person has to fix trail's configuration or .loa.config.yaml; the message names it"
            }
            ToolError::Show(ShowError::Malformed { .. } | ShowError::Absolute { .. }) => {
                "id is ${PROJECT_ROOT}/path:LINE or ${PROJECT_ROOT}/path:START-END"
            }
            ToolError::Show(ShowError::OutOfRange { .. } | ShowError::Missing { .. }) => {
                "the file changed since the identifier was written: search with code=true finds where the code went"
            }
            ToolError::Show(ShowError::OutsideRoot { .. } | ShowError::Protected { .. }) => {
                "show reads the project's files, not trail's state, the secret store or the agents' settings"
            }
            ToolError::Secrets(_) => {
                "the person has to fix their secret rules or ~/.secrets; nothing was returned unredacted"
            }
            ToolError::State(StateError::Parse { .. } | StateError::Invalid { .. }) => {
                "the state file is left as it is; the person can fix it by hand"
            }
            _ => return None,
        })
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolError::Args(m) => write!(f, "bad arguments: {m}")?,
            ToolError::Config(e) => write!(f, "{e}")?,
            ToolError::Ledger(e) => write!(f, "{e}")?,
            ToolError::Search(e) => write!(f, "{e}")?,
            ToolError::Retrieve(e) => write!(f, "{e}")?,
            ToolError::State(e) => write!(f, "{e}")?,
            ToolError::Decide(e) => write!(f, "{e}")?,
            ToolError::Setup(e) => write!(f, "{e}")?,
            ToolError::Ground(e) => write!(f, "{e}")?,
            ToolError::Notes(e) => write!(f, "{e}")?,
            ToolError::Show(e) => write!(f, "{e}")?,
            ToolError::Secrets(e) => write!(f, "{e}")?,
            ToolError::Io(e) => write!(f, "{e}")?,
            ToolError::File(e) => write!(f, "{e}")?,
            ToolError::NoHome => write!(f, "HOME is not set in the server's environment")?,
            ToolError::NoSession(id) => write!(f, "trail recorded nothing of a session `{id}`")?,
        }
        if let Some(h) = self.hint() {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

impl From<trail_core::lookup::LookupError> for ToolError {
    fn from(e: trail_core::lookup::LookupError) -> ToolError {
        use trail_core::lookup::LookupError;
        match e {
            LookupError::Ledger(e) => e.into(),
            LookupError::Secrets(e) => e.into(),
            LookupError::Search(e) => e.into(),
            LookupError::Memory(e) => e.into(),
        }
    }
}

impl From<trail_core::resume::ResumeError> for ToolError {
    fn from(e: trail_core::resume::ResumeError) -> ToolError {
        match e {
            trail_core::resume::ResumeError::Ledger(e) => e.into(),
            trail_core::resume::ResumeError::Secrets(e) => e.into(),
        }
    }
}

macro_rules! from {
    ($($t:ty => $v:ident),* $(,)?) => {
        $(impl From<$t> for ToolError {
            fn from(e: $t) -> ToolError {
                ToolError::$v(e)
            }
        })*
    };
}

from! {
    ConfigError => Config,
    LedgerError => Ledger,
    SearchError => Search,
    RetrieveError => Retrieve,
    StateError => State,
    DecideError => Decide,
    SetupError => Setup,
    GroundError => Ground,
    NotesError => Notes,
    ShowError => Show,
    SecretsError => Secrets,
    std::io::Error => Io,
    trail_core::file_error::FileError => File,
}
