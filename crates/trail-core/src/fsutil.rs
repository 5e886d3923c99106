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

/// The size of an open file, without asking for its timestamps.
///
/// Asking a file for its timestamps (a plain `stat`) makes Linux (6.13+, multigrain timestamps)
/// record the next modification time at fine grain, and the next fdatasync of that file then
/// writes its inode as well: one more disk write for every record. The append path only ever
/// needs sizes and identities, so it asks for just those.
pub fn size_of(file: &File) -> io::Result<u64> {
    #[cfg(target_os = "linux")]
    {
        let st = rustix::fs::statx(
            file,
            "",
            rustix::fs::AtFlags::EMPTY_PATH,
            rustix::fs::StatxFlags::SIZE,
        )?;
        Ok(st.stx_size)
    }
    #[cfg(not(target_os = "linux"))]
    {
        Ok(file.metadata()?.len())
    }
}

/// The (device, inode) a path names now, without asking for timestamps (see [`size_of`]).
pub fn identity(path: &Path) -> io::Result<(u64, u64)> {
    #[cfg(target_os = "linux")]
    {
        let st = rustix::fs::statx(
            rustix::fs::CWD,
            path,
            rustix::fs::AtFlags::empty(),
            rustix::fs::StatxFlags::INO,
        )?;
        Ok(dev_ino(&st))
    }
    #[cfg(not(target_os = "linux"))]
    {
        use std::os::unix::fs::MetadataExt;
        let m = fs::metadata(path)?;
        Ok((m.dev(), m.ino()))
    }
}

/// The (device, inode) of an open file (see [`identity`]).
pub fn identity_of(file: &File) -> io::Result<(u64, u64)> {
    #[cfg(target_os = "linux")]
    {
        let st = rustix::fs::statx(
            file,
            "",
            rustix::fs::AtFlags::EMPTY_PATH,
            rustix::fs::StatxFlags::INO,
        )?;
        Ok(dev_ino(&st))
    }
    #[cfg(not(target_os = "linux"))]
    {
        use std::os::unix::fs::MetadataExt;
        let m = file.metadata()?;
        Ok((m.dev(), m.ino()))
    }
}

#[cfg(target_os = "linux")]
fn dev_ino(st: &rustix::fs::Statx) -> (u64, u64) {
    (
        (u64::from(st.stx_dev_major) << 32) | u64::from(st.stx_dev_minor),
        st.stx_ino,
    )
}

/// `O_NOFOLLOW` for [`std::os::unix::fs::OpenOptionsExt::custom_flags`]: the project is
/// hostile ground, and a symlink planted where trail keeps a file must not redirect trail's
/// write (or read) to somewhere else, such as `~/.bashrc`.
pub const NOFOLLOW: i32 = rustix::fs::OFlags::NOFOLLOW.bits() as i32;

/// Reads a regular file of at most `cap` bytes as text, without following a symlink at `path`
/// and without blocking on a FIFO planted there.
pub fn read_capped(path: &Path, cap: u64) -> io::Result<String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(NOFOLLOW | rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(|e| explain_open(path, e))?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} is not a regular file; trail does not read it",
                path.display()
            ),
        ));
    }
    if meta.len() > cap {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} is larger than {cap} bytes; trail does not read it",
                path.display()
            ),
        ));
    }
    let mut s = String::new();
    f.take(cap).read_to_string(&mut s)?;
    Ok(s)
}

/// A symlink met with `O_NOFOLLOW` fails with ELOOP: say what it means.
fn explain_open(path: &Path, e: io::Error) -> io::Error {
    if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is a symlink; trail does not follow it", path.display()),
        )
    } else {
        e
    }
}
