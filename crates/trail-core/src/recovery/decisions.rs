//! Decision records, read from the pulse stream newest first (the journal is the truth; the
//! Decision Log in NOTES.md is a view of it).
//!
//! A decision record is a record tagged `decision` that trail's hooks did not write: the hooks
//! tag junction outcomes (`/edge approve`, a command run under a grant) `decision` too, but those
//! are a person's answers to the gate, not the project's design decisions. What a record says
//! of its decision:
//!
//! ```text
//! title      intent.summary, else the first fact
//! id         a tag `id:<id>` (else the record's time identifies it)
//! bead       a tag `bead:<id>`
//! text       every fact, for retrieval by query
//! ```
//!
//! `trail decide` (branch `decide`) writes these; this reader is the contract it meets.

use std::path::Path;

use serde::Serialize;

use crate::ledger::frame::Frame;
use crate::ledger::reader::{ReverseReader, open_if_exists};
use crate::ledger::record::Record;
use crate::ledger::{Ledger, LedgerError, Result};
use crate::project::Project;
use crate::time::Ts;

/// The tag every decision record carries.
pub const TAG: &str = "decision";
/// The tag trail's hooks put on what they observe (junction outcomes included).
const HOOK_TAG: &str = "trail-hook";

/// One decision, as the journal holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub ts: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bead: Option<String>,
    /// The record's facts (the decision, its rationale, evidence), for retrieval.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<String>,
}

impl Decision {
    /// The record's decision, when it is a decision record of `project`.
    pub fn of(r: &Record, project: Option<&Project>) -> Option<Decision> {
        if !r.tags.iter().any(|t| t == TAG) || r.tags.iter().any(|t| t == HOOK_TAG) {
            return None;
        }
        if let Some(p) = project {
            if !r.focus.is_empty() && !r.focus.iter().any(|f| f.proj == p.name) {
                return None;
            }
            if crate::project::tagged_id(&r.tags).is_some_and(|id| id != p.id) {
                return None;
            }
        }
        let facts = r.facts();
        let title = r
            .intent
            .as_ref()
            .map(|i| i.summary.trim().to_string())
            .filter(|s| !s.is_empty())
            .or_else(|| facts.first().cloned())?;
        let tagged = |prefix: &str| {
            r.tags
                .iter()
                .find_map(|t| t.strip_prefix(prefix))
                .map(String::from)
        };
        Some(Decision {
            ts: r.ts.to_string(),
            id: tagged("id:"),
            title,
            bead: tagged("bead:"),
            facts,
        })
    }

    /// How a decision is named in a tight space: its id, else its time to the minute, then its
    /// title.
    pub fn identifier(&self, title_chars: usize) -> String {
        let id = match &self.id {
            Some(id) => id.clone(),
            None => self.ts.get(..16).unwrap_or(&self.ts).replace('T', " "),
        };
        format!("[{id}] {}", crate::text::one_line(&self.title, title_chars))
    }

    /// Everything it says, in one text (for matching a query).
    pub fn text(&self) -> String {
        let mut s = self.title.clone();
        for f in &self.facts {
            s.push('\n');
            s.push_str(f);
        }
        s
    }
}

/// The newest `limit` decisions of `project` (all projects when `None`), newest first, reading
/// at most `max_records` records back. Damaged records are skipped.
pub fn recent(
    ledger: &Ledger,
    project: Option<&Project>,
    limit: usize,
    max_records: usize,
) -> Result<Vec<Decision>> {
    let mut out = Vec::new();
    let mut read = 0usize;
    let mut segments = ledger.segments()?;
    segments.reverse();
    for path in segments {
        let Some(file) = open_if_exists(&path).map_err(LedgerError::io("open", &path))? else {
            continue;
        };
        if scan(
            &file,
            &path,
            project,
            limit,
            max_records,
            &mut read,
            &mut out,
        )? {
            break;
        }
    }
    Ok(out)
}

/// One segment, newest first; true when no older record is needed.
fn scan(
    file: &std::fs::File,
    path: &Path,
    project: Option<&Project>,
    limit: usize,
    max_records: usize,
    read: &mut usize,
    out: &mut Vec<Decision>,
) -> Result<bool> {
    let len = crate::fsutil::size_of(file).map_err(LedgerError::io("stat", path))?;
    let mut rr = ReverseReader::new(file, len);
    while let Some((offset, seg)) = rr.next_ref().map_err(LedgerError::io("read", path))? {
        if out.len() >= limit || *read >= max_records {
            return Ok(true);
        }
        *read += 1;
        // Most records are not decisions: only those that say the word are parsed.
        if memchr::memmem::find(seg, TAG.as_bytes()).is_none() {
            continue;
        }
        let f = Frame::split(offset, seg);
        if f.seal == crate::ledger::frame::Seal::Mismatch {
            continue;
        }
        let Ok(r) = f.parse() else { continue };
        if let Some(d) = Decision::of(&r, project) {
            out.push(d);
        }
    }
    Ok(false)
}

/// A decision's time, parsed (for ordering against other journals).
pub fn ts_of(d: &Decision) -> Option<Ts> {
    Ts::parse_loose(&d.ts).ok()
}
