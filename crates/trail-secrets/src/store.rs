//! Where redacted originals are kept: a private env-style file outside the
//! ledger.

use std::fs::{self, DirBuilder, File, OpenOptions, Permissions};
use std::io::{self, BufRead, BufReader, ErrorKind, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::{Found, REFERENCE_PREFIX, SecretsError};

const FILE_NAME: &str = "trail.env";
const DIR_MODE: u32 = 0o700;
const FILE_MODE: u32 = 0o600;
const HEADER: &str = "# trail: originals of redacted secrets. Private: do not share or commit.\n";

/// Where originals are kept: `<home>/.secrets/trail.env`, directory 0700,
/// file 0600.
///
/// Each line is `name="value"`, the value escaped as a JSON string so that
/// newlines and quotes survive; `$` and backquotes are escaped too (as
/// `\u0024`, `\u0060`), so the file expands nothing if a shell reads it.
#[derive(Debug, Clone)]
pub struct SecretStore {
    dir: PathBuf,
    path: PathBuf,
}

impl SecretStore {
    /// A store in `secrets_dir` (e.g. `$HOME/.secrets`). Nothing is touched
    /// until the first originals are stored.
    pub fn new(secrets_dir: PathBuf) -> SecretStore {
        let path = secrets_dir.join(FILE_NAME);
        SecretStore {
            dir: secrets_dir,
            path,
        }
    }

    /// The file: `<secrets_dir>/trail.env`.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append a `name="value"` line for each name not stored yet, in one write, then fsync the
    /// file (and the directory when this call created it or the file). Safe to call from several
    /// processes at once: the file is opened with `O_APPEND` and locked while it is read and
    /// appended to. Only [`super::Secrets`] calls it: whoever redacts, keeps.
    ///
    /// The file is read a line at a time, looking only for the names given: the store grows
    /// with every secret a person ever pasted, and the hook that keeps one more must not hold
    /// all of them in memory.
    pub(crate) fn store<'f>(
        &self,
        found: impl IntoIterator<Item = &'f Found>,
    ) -> Result<(), SecretsError> {
        let mut wanted: Vec<&Found> = Vec::new();
        for f in found {
            if !valid_name(&f.name) {
                return Err(self.error(io::Error::new(
                    ErrorKind::InvalidInput,
                    format!("invalid secret name {:?}", f.name),
                )));
            }
            if !wanted.iter().any(|w| w.name == f.name) {
                wanted.push(f);
            }
        }
        if wanted.is_empty() {
            return Ok(());
        }
        let dir_created = self.ensure_dir()?;
        let (mut file, file_created) = self.open_for_append()?;
        tighten(&file).map_err(|e| self.error(e))?;
        // Without the lock two processes could both miss a name and append
        // it twice; that would still be harmless (lookup takes the first
        // line), so a filesystem without locks is no reason to fail.
        let _ = file.lock();

        let seen = self.scan(&file, &mut wanted)?;
        let mut buf = String::new();
        match seen {
            Scanned::Empty => buf.push_str(HEADER),
            // A torn line from a crashed writer must not swallow ours.
            Scanned::Torn => buf.push('\n'),
            Scanned::Whole => {}
        }
        let header_len = buf.len();
        for f in wanted {
            buf.push_str(&f.name);
            buf.push_str("=\"");
            escape_into(&f.value, &mut buf);
            buf.push_str("\"\n");
        }
        if buf.len() == header_len {
            return Ok(());
        }
        file.write_all(buf.as_bytes()).map_err(|e| self.error(e))?;
        file.sync_data().map_err(|e| self.error(e))?;
        let _ = file.unlock();
        drop(file);

        if file_created {
            sync_dir(&self.dir).map_err(|e| self.error(e))?;
        }
        if dir_created && let Some(parent) = self.dir.parent().filter(|p| !p.as_os_str().is_empty())
        {
            sync_dir(parent).map_err(|e| self.error(e))?;
        }
        Ok(())
    }

    /// Reads the whole file, dropping from `wanted` every name a complete line already holds,
    /// and says how the file ends.
    fn scan(&self, file: &File, wanted: &mut Vec<&Found>) -> Result<Scanned, SecretsError> {
        let mut reader = BufReader::new(file);
        let mut line = Vec::new();
        let mut ends = Scanned::Empty;
        loop {
            line.clear();
            let n = reader
                .read_until(b'\n', &mut line)
                .map_err(|e| self.error(e))?;
            if n == 0 {
                return Ok(ends);
            }
            let Some(complete) = line.strip_suffix(b"\n") else {
                // A line still being written by a writer that crashed: not read.
                ends = Scanned::Torn;
                continue;
            };
            ends = Scanned::Whole;
            let text = String::from_utf8_lossy(complete);
            let text = text.strip_suffix('\r').unwrap_or(&text);
            if text.starts_with('#') {
                continue;
            }
            if let Some(name) = line_name(text) {
                wanted.retain(|f| f.name != name);
            }
        }
    }

    /// The original value behind `name` (`github-pat-1a2b3c4d`, or the whole
    /// `${secret:github-pat-1a2b3c4d}` reference), if stored.
    pub fn lookup(&self, name: &str) -> Result<Option<String>, SecretsError> {
        let name = name
            .strip_prefix(REFERENCE_PREFIX)
            .and_then(|n| n.strip_suffix('}'))
            .unwrap_or(name);
        let contents = match fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.error(e)),
        };
        let contents = String::from_utf8_lossy(&contents);
        Ok(complete_lines(&contents).find_map(|line| {
            let (line_name, value) = split_line(line)?;
            if line_name == name {
                unescape(value)
            } else {
                None
            }
        }))
    }

    fn error(&self, source: io::Error) -> SecretsError {
        SecretsError::Store {
            path: self.path.clone(),
            source,
        }
    }

    /// Create the directory 0700 if missing; returns whether it was created.
    fn ensure_dir(&self) -> Result<bool, SecretsError> {
        match fs::metadata(&self.dir) {
            Ok(meta) if meta.is_dir() => {
                if meta.permissions().mode() & 0o077 != 0 {
                    // Best effort: the directory may be shared with other
                    // tools or owned by someone else; the file itself is
                    // 0600 either way.
                    let _ = fs::set_permissions(&self.dir, Permissions::from_mode(DIR_MODE));
                }
                Ok(false)
            }
            Ok(_) => Err(self.error(io::Error::new(
                ErrorKind::AlreadyExists,
                format!("{} is not a directory", self.dir.display()),
            ))),
            Err(e) if e.kind() == ErrorKind::NotFound => {
                DirBuilder::new()
                    .recursive(true)
                    .mode(DIR_MODE)
                    .create(&self.dir)
                    .map_err(|e| self.error(e))?;
                // The umask can only narrow the mode; make it exact.
                fs::set_permissions(&self.dir, Permissions::from_mode(DIR_MODE))
                    .map_err(|e| self.error(e))?;
                Ok(true)
            }
            Err(e) => Err(self.error(e)),
        }
    }

    fn open_for_append(&self) -> Result<(File, bool), SecretsError> {
        let mut options = OpenOptions::new();
        options.read(true).append(true).mode(FILE_MODE);
        match options.clone().create_new(true).open(&self.path) {
            Ok(file) => Ok((file, true)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => options
                .open(&self.path)
                .map(|file| (file, false))
                .map_err(|e| self.error(e)),
            Err(e) => Err(self.error(e)),
        }
    }
}

/// How the file ends, for what goes before the first new line.
enum Scanned {
    /// Nothing in it yet: the header goes first.
    Empty,
    /// A newline.
    Whole,
    /// A line without its newline, left by a writer that crashed.
    Torn,
}

/// Make the file exactly 0600, whatever the umask or an earlier tool left.
fn tighten(file: &File) -> io::Result<()> {
    let mode = file.metadata()?.permissions().mode() & 0o777;
    if mode != FILE_MODE {
        file.set_permissions(Permissions::from_mode(FILE_MODE))?;
    }
    Ok(())
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Names become the left side of `name="value"`: no `=`, quotes or spaces.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
}

/// Lines ended by `\n`: a line still being appended by another process is
/// not read.
fn complete_lines(contents: &str) -> impl Iterator<Item = &str> {
    let complete = match contents.rfind('\n') {
        Some(i) => &contents[..i],
        None => "",
    };
    complete
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

fn split_line(line: &str) -> Option<(&str, &str)> {
    let (name, value) = line.split_once('=')?;
    let value = value.strip_prefix('"')?.strip_suffix('"')?;
    Some((name, value))
}

fn line_name(line: &str) -> Option<&str> {
    split_line(line).map(|(name, _)| name)
}

pub(super) fn escape_into(value: &str, out: &mut String) {
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '`' | '\u{0}'..='\u{1f}' | '\u{7f}' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
}

pub(super) fn unescape(escaped: &str) -> Option<String> {
    let mut out = String::with_capacity(escaped.len());
    let mut chars = escaped.chars();
    while let Some(c) = chars.next() {
        if c == '"' {
            return None;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            '"' => out.push('"'),
            '\\' => out.push('\\'),
            '/' => out.push('/'),
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'u' => {
                let high = hex4(&mut chars)?;
                let code = if (0xD800..0xDC00).contains(&high) {
                    if chars.next()? != '\\' || chars.next()? != 'u' {
                        return None;
                    }
                    let low = hex4(&mut chars)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    high
                };
                out.push(char::from_u32(code)?);
            }
            _ => return None,
        }
    }
    Some(out)
}

fn hex4(chars: &mut std::str::Chars<'_>) -> Option<u32> {
    let mut value = 0;
    for _ in 0..4 {
        value = value * 16 + chars.next()?.to_digit(16)?;
    }
    Some(value)
}
