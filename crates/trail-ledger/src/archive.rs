//! `stream/archive/`: rotated segments, and bytes set aside before a repair cuts them (a torn
//! tail, an intent file a power loss tore). trail never deletes anything here.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::error::{LedgerError, Result};
use crate::fsutil;
use crate::time::Ts;

/// Keep `bytes` under `<dir>/<kind>-<stamp>.<ext>`, durably, before anything is cut.
pub(crate) fn keep(dir: &Path, kind: &str, ext: &str, bytes: &[u8]) -> Result<PathBuf> {
    fsutil::ensure_dir(dir).map_err(LedgerError::io("create", dir))?;
    let stamp = Ts::now().to_string().replace(':', "");
    let mut n = 0;
    loop {
        let name = if n == 0 {
            format!("{kind}-{stamp}.{ext}")
        } else {
            format!("{kind}-{stamp}-{n}.{ext}")
        };
        let p = dir.join(name);
        match OpenOptions::new().write(true).create_new(true).open(&p) {
            Ok(mut f) => {
                f.write_all(bytes).map_err(LedgerError::io("write", &p))?;
                f.sync_all().map_err(LedgerError::io("sync", &p))?;
                fsutil::sync_dir(dir).map_err(LedgerError::io("sync", dir))?;
                return Ok(p);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => n += 1,
            Err(e) => return Err(LedgerError::io("create", &p)(e)),
        }
    }
}

/// Rotated segments in `dir`, oldest first (their names sort by time).
pub(crate) fn segments(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(e) => return Err(LedgerError::io("read", dir)(e)),
    };
    for entry in rd {
        let entry = entry.map_err(LedgerError::io("read", dir))?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("pulses-") && name.ends_with(".log.md") {
            out.push(entry.path());
        }
    }
    out.sort();
    Ok(out)
}

/// A free name for the segment a rotation closes at `ts`.
pub(crate) fn segment_path(dir: &Path, ts: Ts) -> PathBuf {
    let base = format!("pulses-{}", ts.file_stamp());
    let mut p = dir.join(format!("{base}.log.md"));
    let mut n = 1;
    while p.exists() {
        p = dir.join(format!("{base}-{n}.log.md"));
        n += 1;
    }
    p
}
