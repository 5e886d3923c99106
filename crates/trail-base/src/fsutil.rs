//! Durable file operations shared by every store.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

use crate::failpoint;
use crate::file_error::{At, FileError};

/// Positioned reads: a file, or bytes in memory (tests and fuzzing).
pub trait ReadAt {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
}

impl ReadAt for File {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(self, buf, offset)
    }
}

impl ReadAt for [u8] {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let start = usize::try_from(offset).map_err(|_| io::ErrorKind::UnexpectedEof)?;
        let src = self
            .get(start..start.saturating_add(buf.len()))
            .ok_or(io::ErrorKind::UnexpectedEof)?;
        buf.copy_from_slice(src);
        Ok(())
    }
}

/// Read `src`'s lines backwards from `len` until `decide` settles the answer: it returns `None`
/// for a line that says nothing, `Some(answer)` for the line that decides. The cost depends on
/// how far back that line is, not on the file's length. `None` when no line decides.
pub fn last_deciding_line<R: ReadAt + ?Sized>(
    src: &R,
    len: u64,
    mut decide: impl FnMut(&[u8]) -> Option<Option<u64>>,
) -> Option<u64> {
    const BLOCK: u64 = 64 * 1024;
    let mut end = len;
    let mut carry: Vec<u8> = Vec::new(); // the start of a line cut by the block boundary
    while end > 0 {
        let start = end.saturating_sub(BLOCK);
        let mut buf = vec![0u8; to_usize(end - start)];
        src.read_exact_at(&mut buf, start).ok()?;
        buf.extend_from_slice(&carry);
        // Whole lines are those after the first newline (unless this block starts the file).
        let first_nl = if start == 0 {
            None
        } else {
            memchr::memchr(b'\n', &buf)
        };
        let whole = first_nl.map_or(&buf[..], |i| &buf[i + 1..]);
        for line in whole.rsplit(|&b| b == b'\n') {
            if let Some(answer) = decide(line) {
                return answer;
            }
        }
        carry = first_nl.map_or_else(Vec::new, |i| buf[..i].to_vec());
        end = start;
    }
    None
}

/// A file length or offset as a buffer length. Lossless: trail builds for 64-bit targets only
/// (`compile_error!` in lib.rs).
#[expect(
    clippy::cast_possible_truncation,
    reason = "usize is 64 bits wide here, see lib.rs"
)]
pub const fn to_usize(n: u64) -> usize {
    n as usize
}

/// Replace `path` with `bytes` so that a reader (or a crash) sees the old file or the new one,
/// never a mix: write a temporary file in the same directory (rename is only atomic within one
/// filesystem), flush its data, rename it over the target, then sync the directory, because the
/// rename itself lives in the directory's metadata and is lost on power failure until then.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    atomic_write_io(path, bytes).at("replace", path)
}

fn atomic_write_io(path: &Path, bytes: &[u8]) -> io::Result<()> {
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
    sync_dir_io(dir)
}

/// Flush a directory's entries (new, renamed or removed files) to stable storage.
pub fn sync_dir(dir: &Path) -> Result<(), FileError> {
    sync_dir_io(dir).at("sync the directory", dir)
}

fn sync_dir_io(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

pub fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Create a directory (and parents) and sync the parent, so a fresh store survives power loss.
pub fn ensure_dir(dir: &Path) -> Result<(), FileError> {
    ensure_dir_io(dir).at("create the directory", dir)
}

fn ensure_dir_io(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    fs::create_dir_all(dir)?;
    if let Some(parent) = dir.parent() {
        let _ = sync_dir_io(parent);
    }
    Ok(())
}

/// Open a file for appending, creating it if needed.
pub fn open_append(path: &Path) -> Result<File, FileError> {
    open_append_io(path).at("open for appending", path)
}

fn open_append_io(path: &Path) -> io::Result<File> {
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
pub fn open_no_atime(opts: &OpenOptions, path: &Path) -> Result<File, FileError> {
    open_no_atime_io(opts, path).at("open", path)
}

fn open_no_atime_io(opts: &OpenOptions, path: &Path) -> io::Result<File> {
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
pub fn identity(path: &Path) -> Result<(u64, u64), FileError> {
    identity_io(path).at("look up", path)
}

fn identity_io(path: &Path) -> io::Result<(u64, u64)> {
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

// ---------------------------------------------------------------------------------------------
// Project files: the project is hostile ground (DESIGN, principle 10).
//
// The agent, a prompt injection steering it, or a cloned repository can put a symlink, a FIFO or
// a device where trail expects its own file. Following a symlink would append the agent's words
// to `~/.bashrc` or overwrite `~/.ssh/authorized_keys`; opening a FIFO blocks forever, and a hook
// that blocks lets the tool run. So every file trail reads or writes inside a project is reached
// from the project root one directory at a time (`openat` with O_NOFOLLOW: a directory swapped
// for a symlink after a check cannot redirect the open), opened with O_NOFOLLOW | O_NONBLOCK
// (a FIFO opens at once instead of waiting for a writer), and used only if `fstat` says it is a
// regular file. Reads are capped. The project root itself is the person's choice and is followed.
// ---------------------------------------------------------------------------------------------

use std::fmt;
use std::io::Read;
use std::os::fd::OwnedFd;
use std::path::{Component, PathBuf};

/// The first `max` bytes (or fewer) of a file trail does not own, opened as [`read_capped`]
/// opens one: a host's output kept in a file of its own, read only to be previewed.
pub fn read_head(path: &Path, max: u64) -> Result<Vec<u8>, FileError> {
    read_head_io(path, max).at("read", path)
}

fn read_head_io(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let (dir, name) = split(path)?;
    let dir = rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let file = open_at(&dir, name, path, Access::Read)?;
    let mut bytes = Vec::new();
    file.take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

/// The most trail reads of one project file it did not size itself (a view, a marker, the
/// configuration): far above any real one, small enough that a hostile file cannot exhaust memory.
pub const MAX_PROJECT_FILE: u64 = 16 << 20;

/// What trail found where it expected one of its own files or directories.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    Symlink,
    Fifo,
    Socket,
    Device,
    Directory,
    /// A file where trail needs a directory.
    NotDirectory,
    /// Larger than the cap (in bytes) trail reads.
    TooLarge(u64),
    Other,
}

/// Why trail refused a path inside a project. Carried inside an [`io::Error`] (kind `Other`), so
/// every caller's error path reports it as it stands; [`refusal`] finds it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub path: PathBuf,
    pub found: Found,
    /// Whether trail needed a directory here (the advice differs).
    pub wanted_dir: bool,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.path.display();
        let what = match self.found {
            Found::Symlink => "a symlink",
            Found::Fifo => "a FIFO (named pipe)",
            Found::Socket => "a socket",
            Found::Device => "a device",
            Found::Directory => "a directory",
            Found::NotDirectory => "not a directory",
            Found::TooLarge(max) => {
                return write!(
                    f,
                    "{p} is larger than {} MB, the most trail reads of it; trail does not read it. \
                     Move it aside if it is not yours",
                    max >> 20
                );
            }
            Found::Other => "not a regular file",
        };
        let fix = if self.wanted_dir {
            format!("replace it with a real directory (`rm {p} && mkdir {p}`)")
        } else {
            format!("remove it (`rm {p}`) and trail recreates the file")
        };
        write!(
            f,
            "{p} is {what}; trail does not follow or open it inside a project (it could point \
             anywhere, or block forever). If you did not make it, {fix}"
        )
    }
}

impl std::error::Error for Refused {}

/// The refusal inside an error returned by this module's project functions, if that is what it is.
/// Looked for down the chain: a caller may have said where it was (`FileError`).
pub fn refusal<'a>(e: &'a (dyn std::error::Error + 'static)) -> Option<&'a Refused> {
    crate::file_error::find_in::<Refused>(e)
}

fn refused(path: PathBuf, found: Found, wanted_dir: bool) -> io::Error {
    io::Error::other(Refused {
        path,
        found,
        wanted_dir,
    })
}

fn found_of(ft: FileType) -> Found {
    match ft {
        FileType::Symlink => Found::Symlink,
        FileType::Fifo => Found::Fifo,
        FileType::Socket => Found::Socket,
        FileType::CharacterDevice | FileType::BlockDevice => Found::Device,
        FileType::Directory => Found::Directory,
        _ => Found::Other,
    }
}

/// How to open a project file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    /// Append, creating the file (and its directories) if needed.
    Append,
    /// Read and write without truncating, creating the file (and its directories): lock files.
    ReadWriteCreate,
}

/// The part of `path` below `root`, when `path` lies inside it (no `..` on the way).
fn below<'a>(root: &Path, path: &'a Path) -> Option<&'a Path> {
    let rel = path.strip_prefix(root).ok()?;
    rel.components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        .then_some(rel)
}

/// Open directory `dir` as a file descriptor: from `root` down, one component at a time, never
/// through a symlink. With `create`, missing directories are made (and their parent synced, as
/// [`ensure_dir`] does). A directory outside `root` (a path the person configured) is opened
/// as it is.
pub fn open_dir_in(root: &Path, dir: &Path, create: bool) -> Result<OwnedFd, FileError> {
    open_dir_in_io(root, dir, create).at("open the directory", dir)
}

fn open_dir_in_io(root: &Path, dir: &Path, create: bool) -> io::Result<OwnedFd> {
    let dir_flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let Some(rel) = below(root, dir) else {
        if create {
            ensure_dir_io(dir)?;
        }
        return Ok(rustix::fs::open(dir, dir_flags, Mode::empty())?);
    };
    let mut fd = rustix::fs::open(root, dir_flags, Mode::empty())?;
    let mut at = root.to_path_buf();
    for c in rel.components() {
        let Component::Normal(name) = c else { continue };
        at.push(name);
        let open = |fd: &OwnedFd| {
            rustix::fs::openat(fd, name, dir_flags | OFlags::NOFOLLOW, Mode::empty())
        };
        let next = match open(&fd) {
            Err(Errno::NOENT) if create => {
                match rustix::fs::mkdirat(&fd, name, Mode::from_raw_mode(0o777)) {
                    Ok(()) | Err(Errno::EXIST) => {}
                    Err(e) => return Err(e.into()),
                }
                let _ = rustix::fs::fsync(&fd);
                open(&fd)
            }
            r => r,
        };
        fd = match next {
            Ok(next) => next,
            Err(Errno::NOENT) => return Err(Errno::NOENT.into()),
            Err(e) => {
                return Err(
                    match rustix::fs::statat(&fd, name, AtFlags::SYMLINK_NOFOLLOW) {
                        Ok(st) => {
                            let found = match found_of(FileType::from_raw_mode(st.st_mode)) {
                                Found::Other => Found::NotDirectory,
                                f => f,
                            };
                            refused(at, found, true)
                        }
                        Err(_) => e.into(),
                    },
                );
            }
        };
    }
    Ok(fd)
}

/// Check that every directory between `root` and `dir` is a real directory (none a symlink);
/// missing ones are fine. For code that must give a path to something else (git, a child).
pub fn check_dirs(root: &Path, dir: &Path) -> Result<(), FileError> {
    check_dirs_io(root, dir).at("check the directories to", dir)
}

fn check_dirs_io(root: &Path, dir: &Path) -> io::Result<()> {
    match open_dir_in_io(root, dir, false) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        r => r.map(drop),
    }
}

/// Open the file `name` in directory `dir` (named `path` in errors) without following a symlink
/// and without blocking, and only if it is a regular file.
fn open_at(dir: &OwnedFd, name: &std::ffi::OsStr, path: &Path, access: Access) -> io::Result<File> {
    open_at_stat(dir, name, path, access).map(|(f, _)| f)
}

/// [`open_at`], with what the `fstat` that checks the file's type found.
fn open_at_stat(
    dir: &OwnedFd,
    name: &std::ffi::OsStr,
    path: &Path,
    access: Access,
) -> io::Result<(File, rustix::fs::Stat)> {
    let base = OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let flags = match access {
        Access::Read => OFlags::RDONLY,
        Access::Append => OFlags::WRONLY | OFlags::APPEND | OFlags::CREATE,
        Access::ReadWriteCreate => OFlags::RDWR | OFlags::CREATE,
    };
    let fd = match rustix::fs::openat(dir, name, base | flags, Mode::from_raw_mode(0o666)) {
        Ok(fd) => fd,
        Err(Errno::NOENT) => return Err(Errno::NOENT.into()),
        // ELOOP: a symlink (O_NOFOLLOW). ENXIO: a FIFO or socket with no reader, opened for
        // writing. Anything else: say what is there when that explains it.
        Err(e) => {
            return Err(
                match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
                    Ok(st) => match found_of(FileType::from_raw_mode(st.st_mode)) {
                        Found::Other => e.into(),
                        found => refused(path.to_path_buf(), found, false),
                    },
                    Err(_) => e.into(),
                },
            );
        }
    };
    let st = rustix::fs::fstat(&fd)?;
    match FileType::from_raw_mode(st.st_mode) {
        FileType::RegularFile => Ok((File::from(fd), st)),
        ft => Err(refused(path.to_path_buf(), found_of(ft), false)),
    }
}

fn split(path: &Path) -> io::Result<(&Path, &std::ffi::OsStr)> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} names no file", path.display()),
        )
    })?;
    Ok((parent_dir(path), name))
}

/// Open a project file safely (see the section comment): `path` lies under `root`, which is
/// followed; nothing below it is.
pub fn open_in(root: &Path, path: &Path, access: Access) -> Result<File, FileError> {
    open_in_io(root, path, access).at("open", path)
}

fn open_in_io(root: &Path, path: &Path, access: Access) -> io::Result<File> {
    let (dir, name) = split(path)?;
    let dir = open_dir_in_io(root, dir, access != Access::Read)?;
    open_at(&dir, name, path, access)
}

/// Read at most `max` bytes of an open file; more is an error naming `path`.
pub fn read_capped_from(file: &mut File, path: &Path, max: u64) -> Result<Vec<u8>, FileError> {
    read_capped_from_io(file, path, max).at("read", path)
}

fn read_capped_from_io(file: &mut File, path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(refused(path.to_path_buf(), Found::TooLarge(max), false));
    }
    Ok(bytes)
}

/// A project file's bytes, at most `max` of them, read safely (see [`open_in`]).
pub fn read_in(root: &Path, path: &Path, max: u64) -> Result<Vec<u8>, FileError> {
    read_in_io(root, path, max).at("read", path)
}

fn read_in_io(root: &Path, path: &Path, max: u64) -> io::Result<Vec<u8>> {
    read_capped_from_io(&mut open_in_io(root, path, Access::Read)?, path, max)
}

/// A project file's text (see [`read_in`]); invalid UTF-8 is an error, as with `read_to_string`.
pub fn read_string_in(root: &Path, path: &Path, max: u64) -> Result<String, FileError> {
    read_string_in_io(root, path, max).at("read", path)
}

fn read_string_in_io(root: &Path, path: &Path, max: u64) -> io::Result<String> {
    String::from_utf8(read_in_io(root, path, max)?).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: not UTF-8 ({e})", path.display()),
        )
    })
}

/// Read a file whose directory trail does not own (a configuration file's path, say) without
/// following a final symlink, without blocking on a FIFO, and only if it is a regular file of at
/// most `max` bytes. The directories on the way are followed.
pub fn read_capped(path: &Path, max: u64) -> Result<Vec<u8>, FileError> {
    read_capped_io(path, max).at("read", path)
}

fn read_capped_io(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let (dir, name) = split(path)?;
    let dir = rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    read_capped_from_io(&mut open_at(&dir, name, path, Access::Read)?, path, max)
}

/// An exclusive lock on `f`, waited for up to `timeout` (polling: `flock` has no timeout of its
/// own, and a writer that waits forever on a stuck one would hang a hook). `Ok(false)` when it
/// is still held by another at the end.
pub fn lock_within(f: &File, timeout: std::time::Duration) -> io::Result<bool> {
    let start = std::time::Instant::now();
    loop {
        match f.try_lock() {
            Ok(()) => return Ok(true),
            Err(fs::TryLockError::WouldBlock) if start.elapsed() < timeout => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(fs::TryLockError::WouldBlock) => return Ok(false),
            Err(fs::TryLockError::Error(e)) => return Err(e),
        }
    }
}

/// Whether the project file at `path` ends inside a line (a writer killed mid-append): the next
/// append then starts with a line break, so the torn bytes cannot swallow its line too. A file
/// that cannot be read ends nowhere.
pub fn ends_inside_a_line(root: &Path, path: &Path) -> bool {
    let Ok(f) = open_in_io(root, path, Access::Read) else {
        return false;
    };
    let len = f.metadata().map_or(0, |m| m.len());
    let mut last = [0u8; 1];
    len > 0 && f.read_exact_at(&mut last, len - 1).is_ok() && last[0] != b'\n'
}

/// Append `bytes` to a project file in one write and sync it, creating it and its directories.
pub fn append_in(root: &Path, path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    append_in_io(root, path, bytes).at("append to", path)
}

fn append_in_io(root: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    append_in_since_io(root, path, bytes).map(drop)
}

/// [`append_in`], also saying when the file was last written before this append (`None` when it
/// was empty). The time comes from the `fstat` that checks the file's type, so a caller that must
/// notice time passing on a hot path (the ten-minute pulse) learns it without a system call more.
pub fn append_in_since(
    root: &Path,
    path: &Path,
    bytes: &[u8],
) -> Result<Option<std::time::SystemTime>, FileError> {
    append_in_since_io(root, path, bytes).at("append to", path)
}

fn append_in_since_io(
    root: &Path,
    path: &Path,
    bytes: &[u8],
) -> io::Result<Option<std::time::SystemTime>> {
    let (dir, name) = split(path)?;
    let dir = open_dir_in_io(root, dir, true)?;
    let (mut f, st) = open_at_stat(&dir, name, path, Access::Append)?;
    // One write: concurrent hooks' lines never interleave.
    f.write_all(bytes)?;
    f.sync_data()?;
    let written = std::time::Duration::new(
        u64::try_from(st.st_mtime).unwrap_or(0),
        u32::try_from(st.st_mtime_nsec).unwrap_or(0),
    );
    Ok((st.st_size > 0).then(|| std::time::UNIX_EPOCH + written))
}

/// [`atomic_write`] for a project file: the directory is reached as [`open_in`] reaches it, and
/// the temporary file is created and renamed relative to that directory, so no symlinked
/// directory can move the write elsewhere. A symlink at `path` itself is replaced, never
/// followed (rename replaces the link). Missing directories are created.
pub fn atomic_write_in(root: &Path, path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    atomic_write_in_io(root, path, bytes).at("replace", path)
}

fn atomic_write_in_io(root: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (dir, name) = split(path)?;
    let dir = open_dir_in_io(root, dir, true)?;
    let tmp = temp_name(name);
    let fd = rustix::fs::openat(
        &dir,
        &tmp,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        // As tempfile creates them (the views were always written this way).
        Mode::from_raw_mode(0o600),
    )?;
    let written = (|| {
        let mut f = File::from(fd);
        f.write_all(bytes)?;
        f.sync_data()?;
        failpoint::hit("atomic-write-before-rename");
        rustix::fs::renameat(&dir, &tmp, &dir, name)?;
        Ok(())
    })();
    if let Err(e) = written {
        let _ = rustix::fs::unlinkat(&dir, &tmp, AtFlags::empty());
        return Err(e);
    }
    Ok(rustix::fs::fsync(&dir)?)
}

/// A fresh temporary name beside `name`, with the prefix [`atomic_write`] uses (so the sweeps
/// that clear a dead writer's leftovers find these too).
fn temp_name(name: &std::ffi::OsStr) -> std::ffi::OsString {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut s = std::ffi::OsString::from(".");
    s.push(name);
    s.push(format!(
        ".tmp-{}-{nanos:x}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    s
}

/// [`read_capped`] as text (invalid UTF-8 replaced: what is not trail's own text fails to
/// verify anyway).
pub fn read_text_capped(path: &Path, max: u64) -> Result<String, FileError> {
    read_text_capped_io(path, max).at("read", path)
}

fn read_text_capped_io(path: &Path, max: u64) -> io::Result<String> {
    read_capped_io(path, max).map(|b| String::from_utf8_lossy(&b).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// Every function here that is given a path says, when it fails, what it was doing to
    /// which file; the kind of failure is kept for callers that tell "missing" from the rest.
    #[test]
    fn errors_name_the_action_and_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let missing = root.join("none/notes.md");
        let e = read_in(root, &missing, 100).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert_eq!(
            e.to_string(),
            format!(
                "cannot read {}: No such file or directory (os error 2)",
                missing.display()
            )
        );
        let e = atomic_write(&missing, b"x").unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("cannot replace {}: ", missing.display())),
            "{e}"
        );
        // A refusal already names its path: it is not said twice.
        let link = root.join("link.md");
        symlink(root.join("target.md"), &link).unwrap();
        let e = append_in(root, &link, b"x").unwrap_err();
        let refused = refusal(&e).expect("a refusal").to_string();
        assert_eq!(e.to_string(), refused);
    }

    fn mkfifo(p: &Path) {
        rustix::fs::mknodat(
            rustix::fs::CWD,
            p,
            FileType::Fifo,
            Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
    }

    #[test]
    fn a_symlinked_file_is_neither_read_nor_appended_to() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("p");
        fs::create_dir_all(root.join(".proof")).unwrap();
        let target = dir.path().join("bashrc");
        fs::write(&target, "mine\n").unwrap();
        let link = root.join(".proof/log");
        symlink(&target, &link).unwrap();
        for e in [
            append_in(&root, &link, b"evil\n").unwrap_err(),
            read_in(&root, &link, 100).unwrap_err(),
            read_capped(&link, 100).unwrap_err(),
        ] {
            let r = refusal(&e).unwrap_or_else(|| panic!("{e}"));
            assert_eq!(r.found, Found::Symlink);
            assert!(e.to_string().contains("log is a symlink"), "{e}");
        }
        assert_eq!(fs::read_to_string(&target).unwrap(), "mine\n");
    }

    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("config.toml");
        mkfifo(&fifo);
        let e = read_in(dir.path(), &fifo, 100).unwrap_err();
        assert_eq!(refusal(&e).map(|r| r.found), Some(Found::Fifo), "{e}");
        let e = append_in(dir.path(), &fifo, b"x").unwrap_err();
        assert_eq!(refusal(&e).map(|r| r.found), Some(Found::Fifo), "{e}");
        let e = read_capped(&fifo, 100).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
    }

    #[test]
    fn reads_are_capped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("big");
        fs::write(&p, vec![b'x'; 101]).unwrap();
        let e = read_in(dir.path(), &p, 100).unwrap_err();
        assert_eq!(refusal(&e).map(|r| r.found), Some(Found::TooLarge(100)));
        assert_eq!(read_in(dir.path(), &p, 101).unwrap().len(), 101);
    }

    #[test]
    fn a_symlinked_directory_below_the_root_is_refused_but_the_root_is_followed() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::create_dir_all(&real).unwrap();
        let root = dir.path().join("root-link");
        symlink(&real, &root).unwrap();
        let elsewhere = dir.path().join("elsewhere");
        fs::create_dir_all(&elsewhere).unwrap();
        fs::create_dir_all(root.join(".trail")).unwrap();
        symlink(&elsewhere, root.join(".trail/state")).unwrap();

        let p = root.join(".trail/state/marker");
        for e in [
            atomic_write_in(&root, &p, b"x").unwrap_err(),
            append_in(&root, &p, b"x").unwrap_err(),
            check_dirs(&root, &root.join(".trail/state")).unwrap_err(),
        ] {
            let r = refusal(&e).unwrap_or_else(|| panic!("{e}"));
            assert!(r.wanted_dir && r.found == Found::Symlink, "{e}");
            assert!(e.to_string().contains("mkdir"), "{e}");
        }
        assert!(fs::read_dir(&elsewhere).unwrap().next().is_none());

        // Through the (symlinked) root itself, which is the person's choice, all is well, and
        // missing directories are made.
        let ok = root.join(".trail/memory/day.md");
        append_in(&root, &ok, b"a\n").unwrap();
        atomic_write_in(&root, &root.join(".trail/MEMORY.md"), b"m\n").unwrap();
        assert_eq!(read_in(&root, &ok, 10).unwrap(), b"a\n");
        assert_eq!(fs::read(real.join(".trail/MEMORY.md")).unwrap(), b"m\n");
    }

    #[test]
    fn an_atomic_write_replaces_a_symlink_and_leaves_its_target_alone() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("authorized_keys");
        fs::write(&target, "key\n").unwrap();
        let root = dir.path().join("p");
        fs::create_dir_all(&root).unwrap();
        let link = root.join("marker");
        symlink(&target, &link).unwrap();
        atomic_write_in(&root, &link, b"red").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "key\n");
        assert_eq!(fs::read_to_string(&link).unwrap(), "red");
        assert!(!fs::symlink_metadata(&link).unwrap().is_symlink());
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(&root).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
    }
}
