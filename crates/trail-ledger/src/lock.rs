//! The writer lock: an OS lock on `pulses.lock`, which also names its holder.
//!
//! The spec calls concurrent writers an error condition and asks to alert the user at once. trail
//! serialises them safely instead, and alerts only when a writer has waited longer than
//! `alert_after`: a brief overlap of two hooks is normal, a lock held for seconds is not. The lock
//! file is never deleted, so unlike jj's lock there is no need to re-check that the file we
//! locked is still the one at the path.

use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use crate::time::Ts;
use trail_base::file_error::{At, FileError};

/// Who holds (or last held) the lock, as written in the lock file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holder {
    pub pid: u32,
    pub host: String,
    pub command: String,
    pub since: String,
}

impl Holder {
    fn current() -> Holder {
        // The program and its subcommand, never the rest: arguments carry what is being
        // written (`trail pulse --fact …`, `trail decide --decision …`), and this note is
        // plain text that redaction never sees.
        let command = std::env::args().take(2).collect::<Vec<_>>().join(" ");
        Holder {
            pid: std::process::id(),
            host: hostname(),
            command,
            since: Ts::now().to_string(),
        }
    }

    fn render(&self) -> String {
        format!(
            "pid={}\nhost={}\ncommand={}\nsince={}\n",
            self.pid,
            self.host,
            self.command.replace('\n', " "),
            self.since
        )
    }

    fn parse(text: &str) -> Holder {
        let mut h = Holder::default();
        for line in text.lines() {
            if let Some((k, v)) = line.split_once('=') {
                match k {
                    "pid" => h.pid = v.parse().unwrap_or(0),
                    "host" => h.host = v.to_string(),
                    "command" => h.command = v.to_string(),
                    "since" => h.since = v.to_string(),
                    _ => {}
                }
            }
        }
        h
    }

    pub fn describe(&self) -> String {
        if self.pid == 0 {
            return "an unknown process".into();
        }
        format!(
            "pid {} on {} (`{}`, since {})",
            self.pid, self.host, self.command, self.since
        )
    }
}

/// The machine's name from uname(2): one system call on every Unix (`/proc/sys/kernel/hostname`
/// was Linux's alone, and three).
fn hostname() -> String {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let name = rustix::system::uname()
            .nodename()
            .to_string_lossy()
            .trim()
            .to_string();
        if name.is_empty() {
            "unknown-host".into()
        } else {
            name
        }
    })
    .clone()
}

/// What happened while taking the lock, when it was not free.
#[derive(Clone, Debug)]
pub struct Contention {
    pub holder: Holder,
    pub waited: Duration,
    /// Whether the wait passed `alert_after` (and the alert fired).
    pub alerted: bool,
}

/// Held until dropped.
pub struct StreamLock {
    file: Arc<File>,
}

/// Called once when a wait passes `alert_after`, from a helper thread, with a one-line message.
pub type AlertFn = Arc<dyn Fn(&str) + Send + Sync>;

/// Size of the holder note. Written in place at a fixed size, never truncated: truncating a file
/// on ext4 forces a flush of its blocks, which would cost more than the append it guards.
pub(crate) const NOTE_LEN: usize = 512;

/// Open (creating if needed) a lock file; keep it to lock it many times.
pub fn open_lock_file(path: &Path) -> Result<File, FileError> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .at("open the lock file", path)
}

fn read_note(file: &File) -> Holder {
    let mut buf = vec![0u8; NOTE_LEN];
    let n = file.read_at(&mut buf, 0).unwrap_or(0);
    Holder::parse(&String::from_utf8_lossy(&buf[..n]))
}

impl StreamLock {
    /// Take the lock, waiting as long as needed. When the wait passes `alert_after`, `alert` is
    /// called (while still waiting) so the user learns of a stuck writer before it resolves;
    /// `what` names the lock in its message ("the pulse stream lock").
    pub fn acquire(
        file: Arc<File>,
        path: &Path,
        what: &str,
        alert_after: Duration,
        alert: Option<AlertFn>,
    ) -> Result<(StreamLock, Option<Contention>), FileError> {
        let contention = match file.try_lock() {
            Ok(()) => None,
            Err(TryLockError::Error(e)) => return Err(FileError::new("lock", path, e)),
            Err(TryLockError::WouldBlock) => {
                let holder = read_note(&file);
                let started = Instant::now();
                let (done_tx, done_rx) = mpsc::channel::<()>();
                let (fired_tx, fired_rx) = mpsc::channel::<()>();
                let message = format!(
                    "trail: waiting for {what} {} held by {}",
                    path.display(),
                    holder.describe()
                );
                // The wait itself blocks this thread, so a helper watches the clock.
                let watcher = std::thread::spawn(move || {
                    if let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(alert_after)
                    {
                        if let Some(alert) = alert {
                            alert(&message);
                        }
                        let _ = fired_tx.send(());
                    }
                });
                file.lock().at("lock", path)?;
                let _ = done_tx.send(());
                let _ = watcher.join();
                Some(Contention {
                    holder,
                    waited: started.elapsed(),
                    alerted: fired_rx.try_recv().is_ok(),
                })
            }
        };
        // Best effort: the holder note is for people and alerts, not for correctness.
        let mut note = Holder::current().render().into_bytes();
        note.truncate(NOTE_LEN - 1);
        note.resize(NOTE_LEN - 1, b' ');
        note.push(b'\n');
        let _ = file.write_at(&note, 0);
        Ok((StreamLock { file }, contention))
    }

    /// Read who holds the lock now, without taking it (None when free).
    pub fn probe(path: &Path) -> Result<Option<Holder>, FileError> {
        let Ok(file) = OpenOptions::new().read(true).write(true).open(path) else {
            return Ok(None);
        };
        match file.try_lock() {
            Ok(()) => {
                let _ = file.unlock();
                Ok(None)
            }
            Err(TryLockError::WouldBlock) => Ok(Some(read_note(&file))),
            Err(TryLockError::Error(e)) => Err(FileError::new("probe the lock", path, e)),
        }
    }
}

impl Drop for StreamLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Run the user's `alert_command` through `sh -c`, detached, with the message in
/// `TRAIL_ALERT_MESSAGE`. Failures to start are returned, not fatal to the write.
pub fn run_alert_command(command: &str, message: &str) -> io::Result<()> {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .env("TRAIL_ALERT_MESSAGE", message)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
}
