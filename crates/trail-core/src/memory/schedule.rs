//! Deep Dream by itself: when one is due, who may run it, and what the next session is told.
//!
//! - **Due**: daily memory changed since the last dream (the window's hash differs from the one
//!   the last dream stored) and the last dream, or the last attempt at one, is older than
//!   `memory.dream_every`. A dream that failed is not retried until then either.
//! - **One at a time**: a dream holds `.trail/state/dream.lock` (an OS lock, taken without
//!   waiting) for as long as it runs; whoever finds it held does not dream. The file keeps the
//!   time the last attempt began (so a failing provider is not asked at every session end).
//! - **News**: a dream run in the background leaves one line in `.trail/state/dream.news`; the
//!   next SessionStart claims it (renamed away first, so two hooks cannot both say it) and tells
//!   the agent what changed.

use std::fs::{File, TryLockError};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::dream::{self, DreamError, Report, Status};
use crate::file_error::{At, FileError};
use crate::fsutil::{self, Access};
use crate::layout::Layout;
use crate::time::{Local, Ts};

/// Held while a dream runs; released when dropped (or when its process ends, however it ends).
pub struct DreamLock {
    file: File,
    /// Where the lock file is, for the errors that name it.
    path: PathBuf,
}

impl DreamLock {
    /// Takes the project's dream lock without waiting: `None` when another dream holds it.
    pub fn try_take(root: &Path) -> Result<Option<DreamLock>, FileError> {
        let path = Layout::new(root).dream_lock();
        let file = fsutil::open_in(root, &path, Access::ReadWriteCreate).at("open", &path)?;
        match file.try_lock() {
            Ok(()) => Ok(Some(DreamLock { file, path })),
            Err(TryLockError::WouldBlock) => Ok(None),
            Err(TryLockError::Error(e)) => Err(FileError::new("lock", &path, e)),
        }
    }

    /// Records that a dream begins now, by this process (what [`due`] counts from).
    pub fn begin(&mut self, now: Ts) -> Result<(), FileError> {
        let note = format!("pid={}\nstarted={now}\n", std::process::id());
        let write = || -> io::Result<()> {
            self.file.set_len(0)?;
            (&self.file).seek(SeekFrom::Start(0))?;
            (&self.file).write_all(note.as_bytes())?;
            self.file.sync_data()
        };
        write().at("write the dream lock", &self.path)
    }
}

impl Drop for DreamLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Whether a dream holds the project's lock now (never creates the lock file).
pub fn running(root: &Path) -> bool {
    let Ok(file) = fsutil::open_in(root, &Layout::new(root).dream_lock(), Access::Read) else {
        return false;
    };
    match file.try_lock() {
        Ok(()) => {
            let _ = file.unlock();
            false
        }
        Err(TryLockError::WouldBlock) => true,
        Err(TryLockError::Error(_)) => false,
    }
}

/// When the last attempt at a dream began, as its lock file records it.
fn last_attempt(layout: &Layout) -> Option<Ts> {
    let note = fsutil::read_string_in(layout.root(), &layout.dream_lock(), 4096).ok()?;
    let at = note.lines().find_map(|l| l.strip_prefix("started="))?;
    Ts::parse_strict(at).ok()
}

/// When the last dream wrote MEMORY.md (a dream run before the lock existed, or by hand).
fn last_written(layout: &Layout) -> Option<Ts> {
    let t = std::fs::metadata(layout.dream_hash())
        .ok()?
        .modified()
        .ok()?;
    let us = t.duration_since(SystemTime::UNIX_EPOCH).ok()?.as_micros();
    Some(Ts::from_micros(i64::try_from(us).ok()?))
}

/// Whether a dream should start by itself at `now`: `every` is not zero, the last dream (or
/// attempt) is at least `every` old, and the daily memory a dream would read changed since the
/// last one.
pub fn due(root: &Path, every: Duration, now: &Local) -> bool {
    if every.is_zero() {
        return false;
    }
    let layout = Layout::new(root);
    let last = last_attempt(&layout).max(last_written(&layout));
    let every_us = i64::try_from(every.as_micros()).unwrap_or(i64::MAX);
    if last.is_some_and(|l| now.ts().as_micros().saturating_sub(l.as_micros()) < every_us) {
        return false;
    }
    let (today, _) = now.day_and_minute();
    let Ok(all) = dream::daily_files(root, &today) else {
        return false;
    };
    let (days, hash) = dream::window(&all, dream::DEFAULT_LOOKBACK);
    if days.is_empty() {
        return false;
    }
    let stored = fsutil::read_string_in(root, &layout.dream_hash(), 128).unwrap_or_default();
    stored.trim() != hash
}

/// What a dream that ran by itself tells the next session, in one line (`None`: it skipped, so
/// there is nothing to tell).
pub fn news(outcome: &Result<Report, DreamError>, at: &Local, root: &Path) -> Option<String> {
    let (_, time) = at.day_and_minute();
    let rel = |p: &Path| {
        p.strip_prefix(root)
            .map_or_else(|_| p.display().to_string(), |x| x.display().to_string())
    };
    match outcome {
        Ok(r) if r.status == Status::Written => Some(format!(
            "trail: Deep Dream ran by itself at {time} ({}): {} went from {} to {} entries ({} added, {} removed, {} dropped as unsupported by daily memory); what it did and why is in {}.",
            r.provider.as_deref().unwrap_or("?"),
            rel(&r.memory_path),
            r.entries_before,
            r.entries_after,
            r.added.len(),
            r.removed.len(),
            r.dropped.len(),
            r.diary_path.as_deref().map(rel).unwrap_or_default(),
        )),
        Ok(_) => None,
        Err(e) => Some(format!(
            "trail: Deep Dream ran by itself at {time} and wrote nothing: {}. `trail dream` runs it again and says more.",
            crate::text::one_line(&e.to_string(), 300)
        )),
    }
}

/// Leaves `line` for the next SessionStart (replacing news not told yet).
pub fn leave_news(root: &Path, line: &str) -> Result<(), FileError> {
    let path = Layout::new(root).dream_news();
    fsutil::atomic_write_in(root, &path, format!("{line}\n").as_bytes()).at("write", &path)
}

/// Claims the news a background dream left, once; `None` when there is none (or another hook
/// claimed it first).
pub fn take_news(root: &Path) -> Result<Option<String>, FileError> {
    let path = Layout::new(root).dream_news();
    let claimed = path.with_extension(format!("claimed-{}", std::process::id()));
    match std::fs::rename(&path, &claimed) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(FileError::new("claim", &path, e)),
    }
    let text = fsutil::read_string_in(root, &claimed, 4096).at("read", &claimed);
    let _ = std::fs::remove_file(&claimed);
    Ok(Some(text?.trim().to_string()).filter(|t| !t.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(root: &Path, name: &str, text: &str) {
        let dir = root.join(".trail/memory");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), text).unwrap();
    }

    fn at(t: &str) -> Local {
        Ts::parse_strict(t).unwrap().in_utc()
    }

    #[test]
    fn a_dream_is_due_when_daily_memory_changed_and_the_last_one_is_old_enough() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let day_ = Duration::from_hours(24);
        let now = at("2026-11-26T12:00:00.000Z");
        assert!(!due(root, day_, &now), "no daily memory, nothing to dream");
        day(
            root,
            "2026-11-26.md",
            "# Daily Memory: 2026-11-26\n\n- a fact\n",
        );
        assert!(due(root, day_, &now));
        assert!(!due(root, Duration::ZERO, &now), "0s: never by itself");

        // An attempt began: not again within `every`, whatever became of it.
        let mut lock = DreamLock::try_take(root).unwrap().unwrap();
        lock.begin(now.ts()).unwrap();
        assert!(!due(root, day_, &at("2026-11-26T18:00:00.000Z")));
        assert!(due(root, day_, &at("2026-11-27T12:00:00.001Z")));
        drop(lock);

        // The last dream consolidated exactly this content: not due, however long ago.
        let (days, hash) = dream::window(
            &dream::daily_files(root, "2026-11-27").unwrap(),
            dream::DEFAULT_LOOKBACK,
        );
        assert_eq!(days.len(), 1);
        std::fs::write(Layout::new(root).dream_hash(), format!("{hash}\n")).unwrap();
        assert!(!due(root, day_, &at("2026-11-30T12:00:00.000Z")));
    }

    #[test]
    fn one_dream_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert!(!running(root));
        let first = DreamLock::try_take(root).unwrap().expect("free");
        assert!(running(root));
        assert!(DreamLock::try_take(root).unwrap().is_none(), "held");
        drop(first);
        assert!(!running(root));
        assert!(DreamLock::try_take(root).unwrap().is_some());
    }

    #[test]
    fn news_is_told_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        assert_eq!(take_news(root).unwrap(), None);
        let failed = news(
            &Err(DreamError::NoMemory {
                provider: "command".into(),
                detail: "it exited with 7".into(),
            }),
            &at("2026-11-26T09:05:00.000Z"),
            root,
        )
        .unwrap();
        assert!(failed.contains(
            "at 09:05 and wrote nothing: command answered without a usable [MEMORY] section (it \
             exited with 7)"
        ));
        leave_news(root, &failed).unwrap();
        assert_eq!(take_news(root).unwrap().as_deref(), Some(failed.as_str()));
        assert_eq!(take_news(root).unwrap(), None, "once");
    }
}
