//! Durable file operations shared by every store.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use crate::failpoint;

/// Replace `path` with `bytes` so that a reader (or a crash) sees the old file or the new one,
/// never a mix: write a temporary file in the same directory (rename is only atomic within one
/// filesystem), flush its data, rename it over the target, then sync the directory, because the
/// rename itself lives in the directory's metadata and is lost on power failure until then.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = parent_dir(path);
    // Named after the target, so whoever owns the target can sweep leftovers of a crash.
    let prefix = format!(
        ".{}.tmp-",
        path.file_name().unwrap_or_default().to_string_lossy()
    );
    let mut tmp = tempfile::Builder::new().prefix(&prefix).tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_data()?;
    failpoint::hit("atomic-write-before-rename");
    // On error the NamedTempFile is dropped and removes itself: no litter.
    tmp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir)
}

/// Flush a directory's entries (new, renamed or removed files) to stable storage.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

pub fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Create a directory (and parents) and sync the parent, so a fresh store survives power loss.
pub fn ensure_dir(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    fs::create_dir_all(dir)?;
    if let Some(parent) = dir.parent() {
        let _ = sync_dir(parent);
    }
    Ok(())
}

/// Open a file for appending, creating it if needed.
pub fn open_append(path: &Path) -> io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

/// Remove temporary files a crashed [`atomic_write`] of `path` left behind. Only call this while
/// holding whatever lock serialises writers of `path`.
pub fn sweep_temps(path: &Path) {
    let dir = parent_dir(path);
    let prefix = format!(
        ".{}.tmp-",
        path.file_name().unwrap_or_default().to_string_lossy()
    );
    if let Ok(rd) = fs::read_dir(dir) {
        for e in rd.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = fs::remove_file(e.path());
            }
        }
    }
}

/// Open options that do not update the file's access time on reads, where the platform allows.
///
/// An atime update dirties the inode, and the next fdatasync of the stream then has to write
/// the inode too: reading the tail before each append would double the cost of its fsync.
pub fn no_atime(opts: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        const O_NOATIME: i32 = 0o1_000_000;
        opts.custom_flags(O_NOATIME);
    }
    opts
}

/// Open with [`no_atime`], falling back to a plain open when the kernel refuses O_NOATIME
/// (it is allowed only to the file's owner).
pub fn open_no_atime(opts: &OpenOptions, path: &Path) -> io::Result<File> {
    let mut o = opts.clone();
    match no_atime(&mut o).open(path) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => opts.open(path),
        r => r,
    }
}
