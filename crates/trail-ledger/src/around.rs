//! One record by its timestamp, and the records around it: what `get` and `timeline` of the MCP
//! server (and any reader given a search hit's id) retrieve.
//!
//! A record's `ts` is its identity (LedgerPulse §4) and the stream is in time order, so the
//! record is found without reading the stream whole: the index names the newest record older
//! than `ts` in each segment ([`index::seek`]), the read goes forwards from there, and stops at
//! the first record newer than `ts` plus the `after` records wanted. The `before` records are
//! read backwards from the record's own offset, into older segments when a segment starts
//! with it. Records that do not parse are skipped, as every reader of the stream does.

use std::collections::VecDeque;
use std::fs::File;
use std::path::{Path, PathBuf};

use super::frame::{Frame, Seal};
use super::index;
use super::query::Found;
use super::reader::{ForwardReader, ReverseReader, open_if_exists};
use super::{Ledger, LedgerError, Result};
use crate::time::Ts;

/// A record and its neighbours in the stream, each list oldest first.
#[derive(Clone, Debug)]
pub struct Around {
    pub before: Vec<Found>,
    pub record: Found,
    pub after: Vec<Found>,
}

impl Ledger {
    /// [`Ledger::around`] in this machine's records, then in the local-only ledger's and each
    /// other machine's `trail sync` brought: a search hit's id names a record wherever it was written.
    pub fn around_any(&self, ts: Ts, before: usize, after: usize) -> Result<Option<Around>> {
        if let Some(a) = self.around(ts, before, after)? {
            return Ok(Some(a));
        }
        for (_, replica) in self.sources()? {
            if let Some(a) = replica.around(ts, before, after)? {
                return Ok(Some(a));
            }
        }
        Ok(None)
    }

    /// The record stamped `ts`, with up to `before` older and `after` newer records around it
    /// (across segments); `None` when no record has that time.
    pub fn around(&self, ts: Ts, before: usize, after: usize) -> Result<Option<Around>> {
        let segments = self.segments()?;
        for (i, path) in segments.iter().enumerate() {
            let Some(file) = open_if_exists(path).map_err(LedgerError::io("open", path))? else {
                continue;
            };
            let len = crate::fsutil::size_of(&file).map_err(LedgerError::io("stat", path))?;
            let floor = index::seek(path, &file, len, ts)?;
            let mut fr = ForwardReader::new(&file, floor.unwrap_or(0), len);
            let mut found = None;
            let mut newer = Vec::new();
            while let Some((offset, seg)) =
                fr.next_segment().map_err(LedgerError::io("read", path))?
            {
                let Some(f) = parse(path, offset, &seg) else {
                    continue;
                };
                if found.is_some() {
                    if newer.len() >= after {
                        break;
                    }
                    newer.push(f);
                } else if f.record.ts == ts {
                    found = Some(f);
                } else if f.record.ts > ts {
                    // In time order: it is not in this segment, nor in any later one.
                    return Ok(None);
                }
            }
            let Some(record) = found else { continue };
            if newer.len() < after {
                newer.extend(newer_in(&segments[i + 1..], after - newer.len())?);
            }
            let older = older_than(&segments[..=i], record.offset, before)?;
            return Ok(Some(Around {
                before: older,
                record,
                after: newer,
            }));
        }
        Ok(None)
    }
}

fn parse(path: &Path, offset: u64, seg: &[u8]) -> Option<Found> {
    let f = Frame::split(offset, seg);
    let record = f.parse().ok()?;
    Some(Found {
        segment: path.to_path_buf(),
        offset,
        sealed: f.seal == Seal::Valid,
        digest: f.chain_digest(),
        record,
    })
}

/// The first `n` records of `segments`, oldest first.
fn newer_in(segments: &[PathBuf], n: usize) -> Result<Vec<Found>> {
    let mut out = Vec::new();
    for path in segments {
        let Some(file) = open_if_exists(path).map_err(LedgerError::io("open", path))? else {
            continue;
        };
        let len = crate::fsutil::size_of(&file).map_err(LedgerError::io("stat", path))?;
        let mut fr = ForwardReader::new(&file, 0, len);
        while out.len() < n {
            let Some((offset, seg)) = fr.next_segment().map_err(LedgerError::io("read", path))?
            else {
                break;
            };
            out.extend(parse(path, offset, &seg));
        }
        if out.len() >= n {
            break;
        }
    }
    Ok(out)
}

/// The `n` records before offset `end` of the last of `segments`, then before the ends of the
/// earlier ones, oldest first.
fn older_than(segments: &[PathBuf], end: u64, n: usize) -> Result<Vec<Found>> {
    let mut out: VecDeque<Found> = VecDeque::new();
    for (k, path) in segments.iter().rev().enumerate() {
        if out.len() >= n {
            break;
        }
        let Some(file) = open_if_exists(path).map_err(LedgerError::io("open", path))? else {
            continue;
        };
        let stop = if k == 0 {
            end
        } else {
            crate::fsutil::size_of(&file).map_err(LedgerError::io("stat", path))?
        };
        read_back(&file, path, stop, n, &mut out)?;
    }
    Ok(out.into())
}

fn read_back(
    file: &File,
    path: &Path,
    end: u64,
    n: usize,
    out: &mut VecDeque<Found>,
) -> Result<()> {
    let mut rr = ReverseReader::new(file, end);
    while out.len() < n {
        let Some((offset, seg)) = rr.next_ref().map_err(LedgerError::io("read", path))? else {
            break;
        };
        if let Some(f) = parse(path, offset, seg) {
            out.push_front(f);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LedgerOptions;
    use crate::record::{Focus, Intent, Record, RecordType};

    fn ledger(dir: &Path) -> Ledger {
        Ledger::open(dir.join("ledger"), LedgerOptions::new(dir.join("secrets")))
    }

    fn pulse(l: &Ledger, n: usize) -> Ts {
        let mut r = Record::new(RecordType::Pulse, Ts::now());
        r.focus.push(Focus {
            proj: "p".into(),
            topic: String::new(),
        });
        r.intent = Some(Intent {
            primary: "continue".into(),
            summary: format!("step {n}"),
        });
        l.append(r).unwrap().ts
    }

    fn summaries(v: &[Found]) -> Vec<String> {
        v.iter()
            .map(|f| f.record.intent.as_ref().unwrap().summary.clone())
            .collect()
    }

    #[test]
    fn a_record_is_found_by_its_time_with_its_neighbours_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let l = ledger(dir.path());
        let ts: Vec<Ts> = (0..10).map(|n| pulse(&l, n)).collect();
        let a = l.around(ts[5], 2, 3).unwrap().unwrap();
        assert_eq!(a.record.record.ts, ts[5]);
        assert_eq!(summaries(&a.before), ["step 3", "step 4"]);
        assert_eq!(summaries(&a.after), ["step 6", "step 7", "step 8"]);
        // At the ends, what there is.
        let first = l.around(ts[0], 5, 1).unwrap().unwrap();
        assert!(first.before.is_empty());
        assert_eq!(summaries(&first.after), ["step 1"]);
        let last = l.around(ts[9], 1, 5).unwrap().unwrap();
        assert_eq!(summaries(&last.before), ["step 8"]);
        assert!(last.after.is_empty());
        // A time no record has.
        assert!(
            l.around(Ts::from_micros(ts[4].as_micros() + 1), 1, 1)
                .unwrap()
                .is_none()
        );
        assert!(l.around(Ts::from_micros(1), 1, 1).unwrap().is_none());
    }

    #[test]
    fn neighbours_are_read_across_a_rotation() {
        let dir = tempfile::tempdir().unwrap();
        let l = ledger(dir.path());
        let old: Vec<Ts> = (0..4).map(|n| pulse(&l, n)).collect();
        l.rotate(true).unwrap();
        let new: Vec<Ts> = (4..7).map(|n| pulse(&l, n)).collect();
        // The last archived record: its newer neighbours are the rotation's own records, then
        // the current stream's first pulse.
        let a = l.around(old[3], 2, 4).unwrap().unwrap();
        assert_eq!(summaries(&a.before), ["step 1", "step 2"]);
        let kinds: Vec<RecordType> = a.after.iter().map(|f| f.record.kind).collect();
        let first_pulse = kinds.iter().position(|k| *k == RecordType::Pulse).unwrap();
        assert!(first_pulse > 0, "{kinds:?}");
        assert!(
            kinds[..first_pulse]
                .iter()
                .all(|k| *k == RecordType::Compaction)
        );
        assert_eq!(
            a.after[first_pulse].record.intent.as_ref().unwrap().summary,
            "step 4"
        );
        // The first record of the current stream reaches back into the archive.
        let b = l.around(new[0], first_pulse + 1, 0).unwrap().unwrap();
        assert_eq!(b.before.len(), first_pulse + 1);
        assert_eq!(b.before[0].record.ts, old[3]);
        assert_eq!(b.record.record.ts, new[0]);
    }
}
