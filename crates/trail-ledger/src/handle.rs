//! [`Ledger`], the handle every ledger operation starts from: where the stream and its files
//! live, how the ledger is configured, and what a writer keeps open between appends.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::anchor::{self, AnchorWriter};
use super::archive;
use super::error::Result;
use super::intent::{IntentFile, Scanned};
use super::lock::AlertFn;
use super::tail::Tail;
use crate::secrets::Secrets;

pub const STREAM_FILE: &str = "pulses.log.md";

/// Tunables, filled by the caller from its settings (trail-core's `config`): the ledger reads none.
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
    /// Where the person's key is kept (`$HOME/.secrets`), which signs the anchor.
    pub secrets_dir: PathBuf,
    /// What redacts every record and keeps the originals: the process's one service, shared
    /// with whatever else it writes (see [`Ledger::with_secrets`]).
    pub secrets: Arc<Secrets>,
    /// Keep the anchored head (`stream/pulses.anchor`) current. Always on in trail; off only to
    /// measure what it costs (`trail-bench append`).
    pub anchor: bool,
    /// Write to the ledger that never leaves this machine ([`Ledger::local`]): set by the
    /// caller for a project that opted out of sync (see [`super::local`]).
    pub local_only: bool,
}

impl LedgerOptions {
    pub fn new(secrets_dir: PathBuf) -> LedgerOptions {
        LedgerOptions {
            rotate_bytes: 100 * 1024 * 1024,
            alert_after: Duration::from_secs(2),
            alert_command: None,
            alert_sink: None,
            max_records: 500,
            secrets: Arc::new(Secrets::new(secrets_dir.clone(), Vec::new())),
            secrets_dir,
            anchor: true,
            local_only: false,
        }
    }
}

/// A ledger rooted at a personal root (`$TRAIL_HOME`). Opening does no I/O.
pub struct Ledger {
    root: PathBuf,
    pub(crate) opts: LedgerOptions,
    /// Open files and cached tail of this writer, reused between appends.
    pub(crate) writer: std::sync::Mutex<WriterState>,
    /// The local-only ledger appends go to when `opts.local_only`, opened on the first.
    pub(crate) local_writer: std::sync::OnceLock<Box<Ledger>>,
}

/// What a writer keeps between appends (see [`super::append`]).
#[derive(Default)]
pub(crate) struct WriterState {
    pub(crate) lock_file: Option<Arc<File>>,
    pub(crate) intent: Option<IntentFile>,
    /// The open stream and the (device, inode) it was opened at, to notice a rotation.
    pub(crate) stream: Option<(File, (u64, u64))>,
    /// The tail as last seen, with the stream's final bytes to recognise it by.
    pub(crate) tail: Option<(Tail, Vec<u8>)>,
    /// The stream directory as of the last orphan scan.
    pub(crate) scanned: Option<Scanned>,
    /// The anchor file and the key, opened once.
    pub(crate) anchor: Option<AnchorWriter>,
    /// `pulses.sync` (the sync lock and the group commit's points), opened once.
    pub(crate) sync_file: Option<Arc<File>>,
}

impl Ledger {
    pub fn open(root: impl Into<PathBuf>, opts: LedgerOptions) -> Ledger {
        Ledger {
            root: root.into(),
            opts,
            writer: std::sync::Mutex::new(WriterState::default()),
            local_writer: std::sync::OnceLock::new(),
        }
    }

    /// The same ledger, calling `sink` with a one-line message on a lock alert.
    #[must_use]
    pub fn with_alert_sink(mut self, sink: AlertFn) -> Ledger {
        self.opts.alert_sink = Some(sink);
        self
    }

    /// The same ledger, redacting with `secrets`: the service the rest of the process uses, so
    /// that the user's rules compile once and each original is kept once.
    #[must_use]
    pub fn with_secrets(mut self, secrets: Arc<Secrets>) -> Ledger {
        self.opts.secrets = secrets;
        self
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
    /// The sync lock and the group commit's points (see [`super::group`]).
    pub fn sync_path(&self) -> PathBuf {
        self.stream_dir().join(super::group::FILE_NAME)
    }
    pub fn archive_dir(&self) -> PathBuf {
        self.stream_dir().join("archive")
    }
    pub fn anchor_path(&self) -> PathBuf {
        self.stream_dir().join(anchor::FILE_NAME)
    }
    /// The next stream, fully written, while a rotation is in progress.
    pub(crate) fn rotating_path(&self) -> PathBuf {
        self.stream_dir().join("pulses.log.md.rotating")
    }

    /// Rotated segments, oldest first (their names sort by time).
    pub fn archives(&self) -> Result<Vec<PathBuf>> {
        archive::segments(&self.archive_dir())
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
