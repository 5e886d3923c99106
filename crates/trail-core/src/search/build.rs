//! The search cache's builder: the parts searches found missing, written by one background
//! process at a time.
//!
//! A search never writes the cache (index.rs): a window without a usable part is scanned, and
//! the search says how many parts were missing ([`super::Results::missing_parts`]). Its caller
//! then asks [`Cache::claim_build`] for the builder's lock, taken without waiting:
//!
//! - held: a builder is running, nothing to do;
//! - free, but a build finished while the search ran: its parts are there for the next search;
//! - free, but the last build started less than a minute ago and never finished (it failed, or
//!   was killed): not again yet, so that a cache that cannot be written costs speed, not a
//!   process per search;
//! - else the caller starts the builder (`trail`, re-executed) detached, handing it the lock as
//!   the child's stdin. An OS lock (`flock`) belongs to the open file, which parent and child
//!   now share, so it is held from before the child starts until the child ends, however it
//!   ends: two searches racing start one builder.
//!
//! ```text
//! $TRAIL_HOME/cache/search/build.lock   the lock, and a note of the builds: how many there
//!                                       were, the last one's process, when it started and
//!                                       when it finished (or why it failed)
//! ```
//!
//! The builder ([`build_missing`]) removes what a builder that died was writing (a part is written to
//! a temporary file, then renamed: never half there), builds every complete window whose part
//! is missing or does not check out, and stops at the next part if its lock file is no longer
//! the cache's (the cache was deleted under it, and another builder may start). A part is
//! checked before every use, so whatever a builder leaves is used only if it holds. Last, the
//! parts of segments that are gone are removed.

use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use super::index::{self, Cache, Window};
use crate::file_error::{At, FileError};
use crate::time::Ts;

/// The lock file's name in the cache directory.
const LOCK: &str = "build.lock";

/// A build that started this recently (µs) and never finished is not started again.
const RETRY_AFTER: i64 = 60_000_000;

/// The most of the note read.
const NOTE_MAX: usize = 4096;

/// The builder's lock on one cache. Released when the last process holding its open file
/// ends or closes it: handed to a child, it outlives the parent.
#[derive(Debug)]
pub struct BuildLock {
    file: File,
    path: PathBuf,
}

impl Cache {
    fn lock_path(&self) -> PathBuf {
        self.dir.join(LOCK)
    }

    /// For a search that began at `began` and found parts missing: the lock to start a builder
    /// with, or `None` when none should start (see the module documentation).
    pub fn claim_build(&self, began: Ts) -> Result<Option<BuildLock>, FileError> {
        let Some(lock) = BuildLock::try_take(self)? else {
            return Ok(None);
        };
        let note = lock.note();
        if note.finished.is_some_and(|f| f >= began) {
            return Ok(None);
        }
        let recent = |t: Ts| Ts::now().as_micros().saturating_sub(t.as_micros()) < RETRY_AFTER;
        if note.finished.is_none() && note.started.is_some_and(recent) {
            return Ok(None);
        }
        Ok(Some(lock))
    }

    /// The builder's lock: `inherited` (the builder's stdin) when it is this cache's lock file
    /// and holds the lock, else taken here without waiting. `None` when another builder has it.
    pub fn builder_lock(&self, inherited: Option<File>) -> Result<Option<BuildLock>, FileError> {
        let path = self.lock_path();
        if let Some(file) = inherited
            && let (Ok(a), Ok(b)) = (
                crate::fsutil::identity_of(&file),
                crate::fsutil::identity(&path),
            )
            && a == b
            && file.try_lock().is_ok()
        {
            return Ok(Some(BuildLock { file, path }));
        }
        BuildLock::try_take(self)
    }

    /// How many builds the note counts (0 without a cache).
    pub fn builds(&self) -> u64 {
        OpenOptions::new()
            .read(true)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits().cast_signed())
            .open(self.lock_path())
            .map_or(0, |f| Note::read(&f).builds)
    }
}

impl BuildLock {
    /// Take the lock without waiting, creating the cache directory and the lock file.
    fn try_take(cache: &Cache) -> Result<Option<BuildLock>, FileError> {
        std::fs::create_dir_all(&cache.dir).at("create the directory", &cache.dir)?;
        let path = cache.lock_path();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits().cast_signed())
            .open(&path)
            .at("open the search build lock", &path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(BuildLock { file, path })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(e)) => Err(FileError::new("lock", &path, e)),
        }
    }

    /// The open lock file, to hand to the builder (its stdin). Closing every copy releases it.
    pub fn into_file(self) -> File {
        self.file
    }

    fn note(&self) -> Note {
        Note::read(&self.file)
    }

    /// Whether the cache's lock file is still this one: a cache deleted under a builder is
    /// another builder's to fill.
    fn still_ours(&self) -> bool {
        matches!(
            (crate::fsutil::identity(&self.path), crate::fsutil::identity_of(&self.file)),
            (Ok(a), Ok(b)) if a == b
        )
    }
}

/// What the lock file says about the builds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Note {
    builds: u64,
    pid: Option<u32>,
    started: Option<Ts>,
    finished: Option<Ts>,
    failed: Option<String>,
}

impl Note {
    fn read(file: &File) -> Note {
        let mut buf = vec![0; NOTE_MAX];
        let n = file.read_at(&mut buf, 0).unwrap_or(0);
        let text = String::from_utf8_lossy(&buf[..n]);
        let mut note = Note::default();
        for line in text.lines() {
            let Some((k, v)) = line.split_once('=') else {
                continue;
            };
            match k {
                "builds" => note.builds = v.parse().unwrap_or(0),
                "pid" => note.pid = v.parse().ok(),
                "started" => note.started = Ts::parse_strict(v).ok(),
                "finished" => note.finished = Ts::parse_strict(v).ok(),
                "failed" => note.failed = Some(v.to_string()),
                _ => {}
            }
        }
        note
    }

    /// Rewritten in place. Not synced: a note lost in a crash only lets the next search start
    /// a builder sooner.
    fn write(&self, file: &File) -> io::Result<()> {
        let mut text = format!("builds={}\n", self.builds);
        if let Some(p) = self.pid {
            text.push_str(&format!("pid={p}\n"));
        }
        if let Some(t) = self.started {
            text.push_str(&format!("started={t}\n"));
        }
        if let Some(t) = self.finished {
            text.push_str(&format!("finished={t}\n"));
        }
        if let Some(why) = &self.failed {
            text.push_str(&format!("failed={}\n", crate::text::one_line(why, 300)));
        }
        file.set_len(0)?;
        file.write_all_at(text.as_bytes(), 0)
    }
}

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Built {
    /// Parts written.
    pub built: usize,
    /// Parts already there that check out.
    pub kept: usize,
    /// Complete windows with nothing after them yet: their part is built once a record follows.
    pub open: usize,
    /// Parts of segments that are gone, removed.
    pub swept: usize,
    /// The cache was deleted under the build, which stopped there.
    pub stopped: bool,
}

/// Build every missing part of `segments` (the stream's, oldest first, as a search lists
/// them), holding `lock`; the note says when it started and how it ended.
pub fn build_missing(
    cache: &Cache,
    segments: &[PathBuf],
    lock: &BuildLock,
) -> Result<Built, FileError> {
    let mut note = lock.note();
    note = Note {
        builds: note.builds.saturating_add(1),
        pid: Some(std::process::id()),
        started: Some(Ts::now()),
        ..Note::default()
    };
    note.write(&lock.file)
        .at("write the build note", &lock.path)?;
    let result = build_parts(cache, segments, lock);
    match &result {
        Ok(b) if b.stopped => {}
        Ok(_) => note.finished = Some(Ts::now()),
        Err(e) => note.failed = Some(e.to_string()),
    }
    // The parts are what matters; a note that cannot be written only lets a builder start
    // sooner.
    let _ = note.write(&lock.file);
    result
}

fn build_parts(cache: &Cache, segments: &[PathBuf], lock: &BuildLock) -> Result<Built, FileError> {
    remove_temporaries(&cache.dir);
    let mut built = Built::default();
    let mut live = Vec::with_capacity(segments.len());
    let mut all_there = true;
    for path in segments {
        let Some(file) = crate::ledger::reader::open_if_exists(path)? else {
            // Rotated away since it was listed: its parts are kept, swept another time.
            all_there = false;
            continue;
        };
        let id = crate::fsutil::identity_of(&file).at("read", path)?;
        live.push(id);
        let len = crate::fsutil::size_of(&file).at("read the size of", path)?;
        let mut lo = 0;
        while lo + cache.window < len {
            if !lock.still_ours() {
                built.stopped = true;
                return Ok(built);
            }
            match index::ensure_part(cache, &file, id, lo..lo + cache.window, len)
                .at("index for search", path)?
            {
                Window::Kept => built.kept += 1,
                Window::Built => built.built += 1,
                Window::Open => built.open += 1,
            }
            lo += cache.window;
        }
    }
    if all_there {
        built.swept = index::sweep(cache, &live);
    }
    Ok(built)
}

/// Remove the temporary files of a builder that died while writing a part. Only a builder
/// writes in the cache, and only the lock's holder builds.
fn remove_temporaries(dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        if e.file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(index::TEMP_PREFIX))
        {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(dir: &Path) -> Cache {
        Cache {
            dir: dir.join("cache"),
            window: 4 << 10,
        }
    }

    #[test]
    fn one_builder_holds_the_lock_and_a_child_can_inherit_it() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path());
        let began = Ts::now();
        let first = c.claim_build(began).unwrap().expect("free");
        assert!(c.claim_build(began).unwrap().is_none(), "held");
        assert!(c.builder_lock(None).unwrap().is_none(), "held");
        // Handed over (the child's stdin is the same open file): it holds the lock.
        let file = first.into_file();
        let inherited = c.builder_lock(Some(file.try_clone().unwrap())).unwrap();
        assert!(inherited.is_some());
        drop(inherited);
        assert!(
            c.claim_build(began).unwrap().is_none(),
            "still held by the copy"
        );
        drop(file);
        assert!(c.claim_build(began).unwrap().is_some(), "released");
        // Another file is not the lock, whatever it is.
        let other = File::open(dir.path()).unwrap();
        let taken = c.builder_lock(Some(other)).unwrap();
        assert!(taken.is_some_and(|l| l.path == c.lock_path()));
    }

    #[test]
    fn a_build_that_failed_or_died_is_not_retried_for_a_minute() {
        let dir = tempfile::tempdir().unwrap();
        let c = cache(dir.path());
        let before = Ts::from_micros(Ts::now().as_micros() - 1_000_000);
        // Finished before this search began: its parts were seen, so missing ones are new.
        let lock = c.builder_lock(None).unwrap().unwrap();
        let built = build_missing(&c, &[], &lock).unwrap();
        assert_eq!(built, Built::default());
        let note = lock.note();
        assert_eq!((note.builds, note.pid), (1, Some(std::process::id())));
        assert!(note.finished.is_some() && note.failed.is_none());
        drop(lock);
        assert!(c.claim_build(Ts::now()).unwrap().is_some());
        // Finished while this search ran: the next search sees its parts.
        assert!(c.claim_build(before).unwrap().is_none());
        // Started a moment ago and never finished: not yet.
        let lock = c.builder_lock(None).unwrap().unwrap();
        Note {
            builds: 2,
            started: Some(Ts::now()),
            ..Note::default()
        }
        .write(&lock.file)
        .unwrap();
        drop(lock);
        assert!(c.claim_build(before).unwrap().is_none());
        // ... but a minute later, yes.
        let lock = c.builder_lock(None).unwrap().unwrap();
        Note {
            builds: 2,
            started: Some(Ts::from_micros(Ts::now().as_micros() - RETRY_AFTER - 1)),
            failed: Some("disk full".into()),
            ..Note::default()
        }
        .write(&lock.file)
        .unwrap();
        drop(lock);
        assert!(c.claim_build(before).unwrap().is_some());
        assert_eq!(c.builds(), 2);
    }
}
