//! Where a ledger lives and how it is configured.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::lock::AlertFn;
use super::record::RecordError;
use crate::secrets::{Redactor, RuleSpec, SecretStore, SecretsError};

pub const STREAM_FILE: &str = "pulses.log.md";

/// Everything that can go wrong with the ledger. Each variant says what to do next.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Secrets(#[from] SecretsError),
    #[error("bad record: {0}")]
    Parse(String),
}

impl LedgerError {
    pub fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> LedgerError {
        let path = path.to_path_buf();
        move |source| LedgerError::Io {
            action,
            path,
            source,
        }
    }
}

pub type Result<T, E = LedgerError> = std::result::Result<T, E>;

/// Tunables, normally filled from [`crate::config`].
#[derive(Clone)]
pub struct LedgerOptions {
    /// Rotate when the stream passes this many bytes (spec §12: 100 MB).
    pub rotate_bytes: u64,
    /// Alert when a writer has waited this long for the lock.
    pub alert_after: Duration,
    /// Shell command run on an alert (`TRAIL_ALERT_MESSAGE` holds the text).
    pub alert_command: Option<String>,
    /// Called with a one-line message on an alert (the binary prints it to stderr).
    pub alert_sink: Option<AlertFn>,
    /// Rehydration reads at most this many records (spec §11: 500).
    pub max_records: usize,
    /// Where secret originals are kept (`$HOME/.secrets`).
    pub secrets_dir: PathBuf,
    /// User rules added to the built-in secret rules.
    pub extra_rules: Vec<RuleSpec>,
    /// Keep the anchored head (`stream/pulses.anchor`) current. Always on in trail; off only to
    /// measure what it costs (`trail-bench append`).
    pub anchor: bool,
}

impl LedgerOptions {
    pub fn new(secrets_dir: PathBuf) -> LedgerOptions {
        LedgerOptions {
            rotate_bytes: 100 * 1024 * 1024,
            alert_after: Duration::from_secs(2),
            alert_command: None,
            alert_sink: None,
            max_records: 500,
            secrets_dir,
            extra_rules: Vec::new(),
            anchor: true,
        }
    }
}

/// A ledger rooted at a personal root (`$TRAIL_HOME`). Opening does no I/O.
pub struct Ledger {
    root: PathBuf,
    pub(crate) opts: LedgerOptions,
    redactor: std::sync::OnceLock<std::result::Result<Option<Redactor>, String>>,
    /// Open files and cached tail of this writer, reused between appends.
    pub(crate) writer: std::sync::Mutex<super::append::WriterState>,
}

impl Ledger {
    pub fn open(root: impl Into<PathBuf>, opts: LedgerOptions) -> Ledger {
        Ledger {
            root: root.into(),
            opts,
            redactor: std::sync::OnceLock::new(),
            writer: std::sync::Mutex::new(Default::default()),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
    pub fn options(&self) -> &LedgerOptions {
        &self.opts
    }
    pub fn stream_dir(&self) -> PathBuf {
        self.root.join("stream")
    }
    pub fn stream_path(&self) -> PathBuf {
        self.stream_dir().join(STREAM_FILE)
    }
    pub fn index_path(&self) -> PathBuf {
        index_path_for(&self.stream_path())
    }
    pub fn lock_path(&self) -> PathBuf {
        self.stream_dir().join("pulses.lock")
    }
    pub fn archive_dir(&self) -> PathBuf {
        self.stream_dir().join("archive")
    }
    /// The next stream, fully written, while a rotation is in progress.
    pub(crate) fn rotating_path(&self) -> PathBuf {
        self.stream_dir().join("pulses.log.md.rotating")
    }

    pub fn secret_store(&self) -> SecretStore {
        SecretStore::new(self.opts.secrets_dir.clone())
    }

    /// The secret filter: built-in rules, plus the user's when configured.
    pub fn redactor(&self) -> Result<&Redactor> {
        let r = self.redactor.get_or_init(|| {
            if self.opts.extra_rules.is_empty() {
                Ok(None)
            } else {
                Redactor::with_extra(&self.opts.extra_rules)
                    .map(Some)
                    .map_err(|e| e.to_string())
            }
        });
        match r {
            Ok(Some(r)) => Ok(r),
            Ok(None) => Ok(Redactor::builtin()),
            Err(e) => Err(LedgerError::Parse(e.clone())),
        }
    }

    /// Rotated segments, oldest first (their names sort by time).
    pub fn archives(&self) -> Result<Vec<PathBuf>> {
        let dir = self.archive_dir();
        let mut out = Vec::new();
        let rd = match std::fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
            Err(e) => return Err(LedgerError::io("read", &dir)(e)),
        };
        for entry in rd {
            let entry = entry.map_err(LedgerError::io("read", &dir))?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("pulses-") && name.ends_with(".log.md") {
                out.push(entry.path());
            }
        }
        out.sort();
        Ok(out)
    }

    /// Every segment of the chain, oldest first: the archives, then the current stream.
    pub fn segments(&self) -> Result<Vec<PathBuf>> {
        let mut s = self.archives()?;
        s.push(self.stream_path());
        Ok(s)
    }
}

/// `x.log.md` → `x.log.md.idx.json` for the stream; archives use `x.idx.json` as the spec shows.
pub fn index_path_for(segment: &Path) -> PathBuf {
    let name = segment
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name == STREAM_FILE {
        segment.with_file_name(format!("{name}.idx.json"))
    } else {
        let stem = name.strip_suffix(".log.md").unwrap_or(&name);
        segment.with_file_name(format!("{stem}.idx.json"))
    }
}
