//! The other machines' side: a commit fetched from machine X's ref, checked, then brought into
//! `$TRAIL_HOME/machines/X/` (a replica, see `trail_ledger::replica`).
//!
//! Before a byte is written, the commit must:
//! 1. carry a claim signed by the key the person trusted for X, naming X and this very tree;
//! 2. carry a higher `seq` than the commit accepted last (an older commit put back, or the ref
//!    forced to another history, is refused);
//! 3. hold only well-formed files (`machine`, and chunks `stream/<segment>/<k>` of segment names
//!    trail writes, contiguous, every chunk but the last full);
//! 4. extend what was accepted: every file accepted before is still there and starts with the
//!    same bytes, except that the live stream may move, whole, to the front of a new archive
//!    segment (a rotation).
//!
//! A commit that fails any of these is reported and nothing is written. Writing is idempotent:
//! each file is brought to the commit's bytes by appending, after checking that whatever a
//! crashed earlier run left past the accepted length is what this commit holds; only then does
//! `refs/trail-accepted/X` move. A crash at any point leaves the replica readable (at worst a
//! torn last record, which readers skip) and the next sync finishes the job.

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::os::unix::fs::FileExt;
use std::path::Path;

use serde::{Deserialize, Serialize};
use trail_ledger::Ledger;
use trail_ledger::handle::STREAM_FILE;

use crate::error::{Result, SyncError};
use crate::git::{Objects, Repo};
use crate::publish::{CHUNK, MACHINE_FILE};
use crate::signed::{self, Claim};

/// Where the commit accepted last of each machine is kept.
pub const ACCEPTED_PREFIX: &str = "refs/trail-accepted/";

/// Why a machine's commit was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Refusal {
    /// A machine the person has not trusted.
    Unknown,
    /// The signature, machine or tree does not verify under the trusted key.
    Forged,
    /// A `seq` not above the accepted one: the ref moved back or to another history.
    Backwards,
    /// A file accepted before is shorter, changed or gone.
    Rewritten,
    /// Files trail never writes, or chunks out of shape.
    Malformed,
}

/// One finding of a sync, about one machine.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Finding {
    pub machine: String,
    pub problem: Refusal,
    pub detail: String,
}

/// What accepting a commit did.
#[derive(Clone, Debug, Serialize)]
pub enum Accepted {
    /// The commit was accepted before.
    Unchanged { seq: u64 },
    /// New bytes were written to the replica.
    Taken { seq: u64, bytes: u64 },
}

/// A file of a tree: its chunks' object ids and sizes, in order.
#[derive(Clone, Debug, Default)]
struct Chunks(Vec<(String, u64)>);

impl Chunks {
    fn len(&self) -> u64 {
        self.0.iter().map(|(_, n)| n).sum()
    }
}

/// The files of commit `rev`, by segment name, checked for shape.
fn files_of(repo: &Repo, rev: &str) -> std::result::Result<BTreeMap<String, Chunks>, String> {
    let entries = repo.blobs(rev).map_err(|e| e.to_string())?;
    let mut by_name: BTreeMap<String, BTreeMap<u64, (String, u64)>> = BTreeMap::new();
    for e in entries {
        if e.path == MACHINE_FILE {
            continue;
        }
        let Some((name, k)) = e
            .path
            .strip_prefix("stream/")
            .and_then(|p| p.rsplit_once('/'))
        else {
            return Err(format!("`{}` is not a file trail syncs", e.path));
        };
        if !segment_name(name) {
            return Err(format!("`{name}` is not a segment name trail writes"));
        }
        let Some(k) = (k.len() == 8 && k.bytes().all(|b| b.is_ascii_digit()))
            .then(|| k.parse::<u64>().ok())
            .flatten()
        else {
            return Err(format!("`{}` is not a chunk", e.path));
        };
        by_name
            .entry(name.to_string())
            .or_default()
            .insert(k, (e.oid, e.size));
    }
    let mut out = BTreeMap::new();
    for (name, chunks) in by_name {
        let n = chunks.len() as u64;
        for (i, (k, (_, size))) in chunks.iter().enumerate() {
            let last = i as u64 + 1 == n;
            if *k != i as u64 || *size == 0 || *size > CHUNK || (!last && *size != CHUNK) {
                return Err(format!("the chunks of `{name}` are out of shape at {k:08}"));
            }
        }
        out.insert(name, Chunks(chunks.into_values().collect()));
    }
    Ok(out)
}

/// `pulses.log.md`, `archive/pulses-….log.md` or `imported/….log.md`, in characters that are
/// safe in a path (no `..`, no separators beyond the one).
fn segment_name(name: &str) -> bool {
    let safe = |s: &str| {
        !s.is_empty()
            && !s.starts_with('.')
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'+'))
    };
    if name == STREAM_FILE {
        return true;
    }
    match name.split_once('/') {
        Some(("archive", f)) => safe(f) && f.starts_with("pulses-") && f.ends_with(".log.md"),
        Some(("imported", f)) => safe(f) && f.ends_with(".log.md"),
        _ => false,
    }
}

/// Whether `new` starts with all of `old`'s bytes.
fn extends(objects: &mut Objects, old: &Chunks, new: &Chunks) -> Result<bool> {
    if new.len() < old.len() || new.0.len() < old.0.len() {
        return Ok(false);
    }
    for (i, (oid, size)) in old.0.iter().enumerate() {
        let (noid, nsize) = &new.0[i];
        if oid == noid {
            continue;
        }
        // Only the last chunk of the old file may differ, and only by growing.
        if i + 1 != old.0.len() || nsize < size {
            return Ok(false);
        }
        let (_, a) = objects.read(oid)?;
        let (_, b) = objects.read(noid)?;
        if !b.starts_with(&a) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// What checking a commit decided.
enum Step {
    /// Accepted before, at this sequence number.
    Unchanged(u64),
    Refused(Finding),
    Take(Plan),
}

/// A commit that passed every check, and how it extends what was accepted.
struct Plan {
    seq: u64,
    accepted: Option<String>,
    after: BTreeMap<String, Chunks>,
    /// Bytes of each new file that were accepted before (under its name, or as the live stream
    /// a rotation moved to it).
    kept: BTreeMap<String, u64>,
    /// The new archive segment the accepted live stream moved to, if it did.
    moved: Option<String>,
}

fn refuse(machine: &str, problem: Refusal, detail: String) -> Step {
    Step::Refused(Finding {
        machine: machine.to_string(),
        problem,
        detail,
    })
}

/// Check machine `id`'s commit `commit` against what was accepted and the key the person
/// trusted, then bring it into the replica (see the module docs).
pub fn accept(
    repo: &Repo,
    ledger: &Ledger,
    id: &str,
    public: &str,
    commit: &str,
) -> Result<std::result::Result<Accepted, Finding>> {
    let mut objects = repo.objects()?;
    let plan = match check(repo, &mut objects, id, public, commit)? {
        Step::Unchanged(seq) => return Ok(Ok(Accepted::Unchanged { seq })),
        Step::Refused(f) => return Ok(Err(f)),
        Step::Take(plan) => plan,
    };
    let root = ledger.replica_root(id).join("stream");
    let mut bytes = 0;
    if let Some(to) = &plan.moved {
        let (from, to) = (root.join(STREAM_FILE), root.join(to));
        if from.exists() && !to.exists() {
            trail_base::fsutil::ensure_dir(trail_base::fsutil::parent_dir(&to))
                .map_err(SyncError::io("create", &to))?;
            std::fs::rename(&from, &to).map_err(SyncError::io("move", &from))?;
            trail_base::failpoint::hit("sync-after-move");
        }
    }
    // Archives and imported segments first, the live stream last: a reader between two steps
    // sees an older timeline, never a gap.
    let mut order: Vec<&String> = plan.after.keys().filter(|n| *n != STREAM_FILE).collect();
    order.extend(plan.after.keys().filter(|n| *n == STREAM_FILE));
    for name in order {
        let keep = if plan.moved.is_some() && name == STREAM_FILE {
            0
        } else {
            plan.kept.get(name).copied().unwrap_or(0)
        };
        bytes += bring(&mut objects, &root.join(name), &plan.after[name], keep)?;
    }
    trail_base::failpoint::hit("sync-before-accept");
    repo.run(&[
        "update-ref",
        &format!("{ACCEPTED_PREFIX}{id}"),
        commit,
        plan.accepted
            .as_deref()
            .unwrap_or("0000000000000000000000000000000000000000"),
    ])?;
    Ok(Ok(Accepted::Taken {
        seq: plan.seq,
        bytes,
    }))
}

/// Steps 1 to 4 of the module docs; nothing is written.
fn check(repo: &Repo, objects: &mut Objects, id: &str, public: &str, commit: &str) -> Result<Step> {
    let raw = match objects.get(commit)? {
        Some((_, kind, raw)) if kind == "commit" => raw,
        _ => Vec::new(),
    };
    let Some((tree, message)) = signed::split_commit(&raw) else {
        return Ok(refuse(
            id,
            Refusal::Malformed,
            format!("{commit} is not a commit"),
        ));
    };
    let Some(claim) = Claim::parse(&message) else {
        let detail = format!("commit {} carries no trail signature", short(commit));
        return Ok(refuse(id, Refusal::Forged, detail));
    };
    if claim.machine != id || claim.tree != tree || !claim.verifies(public) {
        let detail = format!(
            "commit {} is not signed by machine {id}'s trusted key for this tree",
            short(commit)
        );
        return Ok(refuse(id, Refusal::Forged, detail));
    }
    // What was taken last, read through the same `cat-file` (a sync with nothing new spawns
    // no git per machine).
    let (accepted, accepted_seq) = match objects.get(&format!("{ACCEPTED_PREFIX}{id}"))? {
        Some((oid, kind, raw)) if kind == "commit" => {
            let seq = signed::split_commit(&raw)
                .and_then(|(_, m)| Claim::parse(&m))
                .map_or(0, |c| c.seq);
            (Some(oid), seq)
        }
        _ => (None, 0),
    };
    let before = match &accepted {
        Some(a) if a == commit => return Ok(Step::Unchanged(claim.seq)),
        Some(a) => {
            let seq = accepted_seq;
            if claim.seq <= seq {
                let detail = format!(
                    "the remote offers seq {} after seq {seq} was accepted: its ref was moved \
                     back or replaced",
                    claim.seq
                );
                return Ok(refuse(id, Refusal::Backwards, detail));
            }
            files_of(repo, a).map_err(SyncError::Rejected)?
        }
        None => BTreeMap::new(),
    };
    let after = match files_of(repo, commit) {
        Ok(f) => f,
        Err(e) => return Ok(refuse(id, Refusal::Malformed, e)),
    };
    let mut kept: BTreeMap<String, u64> = BTreeMap::new();
    let mut moved: Option<String> = None;
    for (name, old) in &before {
        if let Some(new) = after.get(name)
            && extends(objects, old, new)?
        {
            kept.insert(name.clone(), old.len());
            continue;
        }
        if name == STREAM_FILE
            && let Some(to) = rotated_to(objects, old, &before, &after)?
        {
            kept.insert(to.clone(), old.len());
            moved = Some(to);
            continue;
        }
        let what = match after.get(name) {
            None => "is gone".to_string(),
            Some(new) if new.len() < old.len() => {
                format!("was cut from {} to {} bytes", old.len(), new.len())
            }
            Some(_) => "was changed in bytes already accepted".to_string(),
        };
        let detail = format!("segment {name} {what}: the remote's history for {id} was rewritten");
        return Ok(refuse(id, Refusal::Rewritten, detail));
    }
    Ok(Step::Take(Plan {
        seq: claim.seq,
        accepted,
        after,
        kept,
        moved,
    }))
}

/// The new archive segment the accepted live stream `old` became the front of, if any.
fn rotated_to(
    objects: &mut Objects,
    old: &Chunks,
    before: &BTreeMap<String, Chunks>,
    after: &BTreeMap<String, Chunks>,
) -> Result<Option<String>> {
    for (n, c) in after {
        if n.starts_with("archive/") && !before.contains_key(n) && extends(objects, old, c)? {
            return Ok(Some(n.clone()));
        }
    }
    Ok(None)
}

/// Bring the file at `path` to the bytes of `chunks`, trusting its first `keep` bytes (they
/// were accepted) and checking anything after them against the chunks. Returns bytes written.
fn bring(objects: &mut Objects, path: &Path, chunks: &Chunks, keep: u64) -> Result<u64> {
    trail_base::fsutil::ensure_dir(trail_base::fsutil::parent_dir(path))
        .map_err(SyncError::io("create", path))?;
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(SyncError::io("open", path))?;
    let have = file.metadata().map_err(SyncError::io("stat", path))?.len();
    let total = chunks.len();
    let mut good = have.min(keep);
    // Bytes past the accepted length: a crashed earlier run wrote them from this commit (keep
    // them) or from one never accepted (cut them).
    if have > good {
        let upto = have.min(total);
        let mut at = good;
        while at < upto {
            let k = at / CHUNK;
            let (_, blob) = objects.read(&chunks.0[usize::try_from(k).unwrap_or(usize::MAX)].0)?;
            let from = usize::try_from(at - k * CHUNK).unwrap_or(0);
            let to = usize::try_from((upto - k * CHUNK).min(CHUNK)).unwrap_or(0);
            let mut mine = vec![0u8; to - from];
            file.read_exact_at(&mut mine, at)
                .map_err(SyncError::io("read", path))?;
            if mine != blob[from..to] {
                break;
            }
            at += (to - from) as u64;
        }
        good = at;
    }
    if have != good {
        file.set_len(good)
            .map_err(SyncError::io("truncate", path))?;
    }
    let mut written = 0;
    let mut at = good;
    while at < total {
        let k = at / CHUNK;
        let (_, blob) = objects.read(&chunks.0[usize::try_from(k).unwrap_or(usize::MAX)].0)?;
        let from = usize::try_from(at - k * CHUNK).unwrap_or(0);
        file.write_all_at(&blob[from..], at)
            .map_err(SyncError::io("write", path))?;
        trail_base::failpoint::hit("sync-mid-file");
        at += (blob.len() - from) as u64;
        written += (blob.len() - from) as u64;
    }
    file.sync_data().map_err(SyncError::io("sync", path))?;
    if written > 0 || have != good {
        trail_base::fsutil::sync_dir(trail_base::fsutil::parent_dir(path))
            .map_err(SyncError::io("sync", path))?;
    }
    Ok(written)
}

/// The machine file of commit `rev`: the id and public key it claims.
pub fn claimed_key(repo: &Repo, rev: &str) -> Result<Option<String>> {
    let entries = repo.blobs(rev)?;
    let Some(e) = entries.iter().find(|e| e.path == MACHINE_FILE) else {
        return Ok(None);
    };
    let mut objects = repo.objects()?;
    let (_, text) = objects.read(&e.oid)?;
    Ok(String::from_utf8_lossy(&text)
        .lines()
        .find_map(|l| l.strip_prefix("key "))
        .map(|k| k.trim().to_string()))
}

pub fn short(oid: &str) -> &str {
    &oid[..oid.len().min(12)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_names_trail_writes_are_segments() {
        for ok in [
            "pulses.log.md",
            "archive/pulses-20261129T101010.123456Z.log.md",
            "imported/claude-code-2026.log.md",
        ] {
            assert!(segment_name(ok), "{ok}");
        }
        for bad in [
            "../x",
            "archive/../../x.log.md",
            "archive/torn-1.bin",
            "archive/.pulses-x.log.md",
            "stream",
            "imported/a/b.log.md",
            "state/pending.json",
        ] {
            assert!(!segment_name(bad), "{bad}");
        }
    }
}
