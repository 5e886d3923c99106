//! The context summary callback: after a flush writes a block to daily memory, the next
//! SessionStart or UserPromptSubmit gives that block back to the agent — once.
//!
//! The flush leaves a claim ticket in `.trail/state/summary.pending` naming the day file and the
//! block's hash. Whoever injects renames the ticket away first (an atomic claim: two hooks racing
//! cannot both inject it), then reads the block from the day file, which stays the truth.

use std::io;
use std::path::{Path, PathBuf};

use super::daily::Flushed;
use crate::file_error::{At, FileError};

fn pending(root: &Path) -> PathBuf {
    crate::layout::Layout::new(root).summary_ticket()
}

/// Leaves the ticket for a block just written (a flush that wrote nothing leaves none).
pub fn mark(root: &Path, f: &Flushed) -> Result<(), FileError> {
    if !f.written {
        return Ok(());
    }
    let p = pending(root);
    crate::fsutil::atomic_write_in(
        root,
        &p,
        format!("{}\n{}\n", f.path.display(), f.hash).as_bytes(),
    )
    .at("write", &p)
}

/// Claims the ticket and returns the block it names, cut to `max_chars`; `None` when there is
/// no ticket (or another hook claimed it first).
pub fn take(root: &Path, max_chars: usize) -> Result<Option<String>, FileError> {
    let p = pending(root);
    let claimed = p.with_extension(format!("claimed-{}", std::process::id()));
    match std::fs::rename(&p, &claimed) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(FileError::new("claim", &p, e)),
    }
    let ticket = crate::fsutil::read_string_in(root, &claimed, 64 * 1024);
    let _ = std::fs::remove_file(&claimed);
    let ticket = ticket.at("read", &claimed)?;
    let mut lines = ticket.lines();
    let (Some(day), Some(hash)) = (lines.next(), lines.next()) else {
        return Ok(None);
    };
    // The ticket names a day file; the agent can write tickets' neighbours, so only a file in
    // daily memory is read.
    let day = Path::new(day);
    let memory = crate::layout::Layout::new(root).memory_dir();
    if !day.starts_with(&memory)
        || day
            .components()
            .any(|c| c == std::path::Component::ParentDir)
    {
        return Ok(None);
    }
    let text = crate::fsutil::read_string_in(root, day, crate::fsutil::MAX_PROJECT_FILE)
        .at("read", day)?;
    Ok(block(&text, hash).map(|b| cut(&b, max_chars)))
}

/// The block whose flush marker carries `hash`: its heading line through the line before the
/// next `## ` heading.
fn block(text: &str, hash: &str) -> Option<String> {
    let marker = format!("<!-- trail:flush sha256={hash} -->");
    let at = text.find(&marker)?;
    let start = text[..at].rfind("\n## ").map_or(0, |i| i + 1);
    let after = at + marker.len();
    let end = text[after..]
        .find("\n## ")
        .map_or(text.len(), |i| after + i + 1);
    let b: String = text[start..end]
        .lines()
        .filter(|l| !l.starts_with("<!-- trail:flush"))
        .collect::<Vec<_>>()
        .join("\n");
    Some(b.trim_end().to_string())
}

use crate::text::clip as cut;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flushed_block_is_given_back_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".trail/memory")).unwrap();
        let day = dir.path().join(".trail/memory/2026-11-26.md");
        std::fs::write(
            &day,
            "# Daily Memory: 2026-11-26\n\n## Session a (09:00)\n<!-- trail:flush sha256=aaaa -->\n- old\n\n## Trimmed Context (10:00)\n<!-- trail:flush sha256=bbbb -->\n### Asked\n- the new thing\n\n## Remembered (11:00)\n- x\n",
        )
        .unwrap();
        let f = Flushed {
            path: day.clone(),
            written: true,
            hash: "bbbb".into(),
        };
        mark(dir.path(), &f).unwrap();
        let got = take(dir.path(), 1000).unwrap().unwrap();
        assert_eq!(
            got,
            "## Trimmed Context (10:00)\n### Asked\n- the new thing"
        );
        assert_eq!(take(dir.path(), 1000).unwrap(), None, "once");
        // A ticket naming a file outside daily memory (the agent can write tickets) reads nothing.
        mark(
            dir.path(),
            &Flushed {
                path: dir.path().join(".trail/memory/../../secret.md"),
                ..f.clone()
            },
        )
        .unwrap();
        assert_eq!(take(dir.path(), 1000).unwrap(), None, "outside");
        mark(
            dir.path(),
            &Flushed {
                written: false,
                ..f.clone()
            },
        )
        .unwrap();
        assert_eq!(
            take(dir.path(), 1000).unwrap(),
            None,
            "nothing written, nothing to say"
        );
        mark(dir.path(), &f).unwrap();
        assert_eq!(take(dir.path(), 10).unwrap().unwrap().chars().count(), 10);
    }
}
