//! This machine's side: its durable snapshot committed, signed, to `refs/trail/<id>` in the
//! sync repository.
//!
//! Every file of the snapshot is stored in chunks of [`CHUNK`] bytes
//! (`stream/<name>/<k, 8 digits>`), so that a sync sends what is new: every chunk but the last
//! of a file never changes again, and a growing stream rewrites only its last one. A file is
//! only ever extended, with one exception a rotation makes: the live stream's bytes move, whole,
//! to the front of a new archive segment, and a new live stream starts (see `accept.rs`).

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::process::Stdio;

use serde::{Deserialize, Serialize};
use trail_ledger::Ledger;
use trail_ledger::handle::STREAM_FILE;
use trail_ledger::replica::SnapshotFile;

use crate::error::{Result, SyncError};
use crate::git::Repo;
use crate::key::MachineKey;
use crate::signed::{self, Claim};

/// Bytes per chunk.
pub const CHUNK: u64 = 1 << 20;
/// Where each machine's commits live, here and on the remote.
pub const REF_PREFIX: &str = "refs/trail/";
/// The file in each tree naming its machine and public key.
pub const MACHINE_FILE: &str = "machine";
/// An object id of zeros: "this ref must not exist yet" to `update-ref`.
const NO_COMMIT: &str = "0000000000000000000000000000000000000000";

/// The tree path of chunk `k` of file `name`.
pub fn chunk_path(name: &str, k: u64) -> String {
    format!("stream/{name}/{k:08}")
}

/// What a publish did.
#[derive(Clone, Debug, Serialize)]
pub struct Published {
    /// The commit now on this machine's ref.
    pub commit: String,
    pub seq: u64,
    /// Whether this publish made a new commit (false: nothing new since the last one).
    pub new_commit: bool,
    /// Bytes of chunks written for this commit.
    pub new_bytes: u64,
    /// The snapshot's files and their lengths.
    pub files: Vec<(String, u64)>,
}

/// What the last publish saw of the live stream, to tell its chunks from a new stream's
/// after a rotation, and the chunks it committed, so the next publish needs no tree listing
/// (`sync/published.json`).
#[derive(Default, Serialize, Deserialize)]
struct Memo {
    commit: String,
    live: Option<(u64, u64)>,
    #[serde(default)]
    chunks: BTreeMap<String, (String, u64)>,
}

/// The claim and tree entries of commit `rev`.
pub fn claim_of(repo: &Repo, rev: &str) -> Result<Option<Claim>> {
    let raw = repo.run(&["cat-file", "commit", rev])?;
    Ok(signed::split_commit(&raw).and_then(|(_, m)| Claim::parse(&m)))
}

/// This machine's last commit: its id, sequence number and tree.
struct Last {
    commit: String,
    seq: u64,
    tree: String,
}

/// Publish `ledger`'s durable snapshot as machine `id`, signed with `key`.
pub fn publish(
    repo: &Repo,
    ledger: &Ledger,
    key: &MachineKey,
    id: &str,
    sync_dir: &Path,
) -> Result<Published> {
    let snapshot = ledger.snapshot()?;
    let own = format!("{REF_PREFIX}{id}");
    let mut objects = repo.objects()?;
    let last = match objects.get(&own)? {
        Some((commit, kind, raw)) if kind == "commit" => {
            let (tree, message) = signed::split_commit(&raw).unwrap_or_default();
            let seq = Claim::parse(&message).map_or(0, |c| c.seq);
            Some(Last { commit, seq, tree })
        }
        _ => None,
    };
    let memo_path = sync_dir.join("published.json");
    let memo: Memo = std::fs::read(&memo_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let live_id = snapshot
        .iter()
        .find(|f| f.name == STREAM_FILE)
        .and_then(|f| trail_base::fsutil::identity_of(&f.file).ok());
    let last_commit = last.as_ref().map(|l| l.commit.as_str());
    let live_same =
        last_commit == Some(memo.commit.as_str()) && live_id.is_some() && memo.live == live_id;
    let reusable: BTreeMap<String, (String, u64)> = match last_commit {
        Some(c) if c == memo.commit => memo.chunks,
        Some(c) => repo
            .blobs(c)?
            .into_iter()
            .map(|e| (e.path, (e.oid, e.size)))
            .collect(),
        None => BTreeMap::new(),
    };

    let machine_text = format!("trail machine v1\nid {id}\nkey {}\n", key.public()).into_bytes();
    let chunks = chunks_of(&snapshot, machine_text, &reusable, live_same)?;
    let tree = crate::objects::tree_id(chunks.iter().map(|c| (c.path.as_str(), c.oid.as_str())));
    let files = snapshot.iter().map(|f| (f.name.clone(), f.len)).collect();
    let chunk_map: BTreeMap<String, (String, u64)> = chunks
        .iter()
        .map(|c| (c.path.clone(), (c.oid.clone(), c.size)))
        .collect();
    if let Some(l) = &last
        && tree == l.tree
    {
        remember(&memo_path, &l.commit, live_id, chunk_map);
        return Ok(Published {
            commit: l.commit.clone(),
            seq: l.seq,
            new_commit: false,
            new_bytes: 0,
            files,
        });
    }
    let new_bytes = chunks
        .iter()
        .filter(|c| matches!(c.source, Source::Range(..)))
        .map(|c| c.size)
        .sum();
    let seq = last.as_ref().map_or(0, |l| l.seq) + 1;
    let claim = Claim::sign(key, id, seq, &tree);
    let commit = fast_import(repo, id, &own, last_commit, &chunks, &claim.message())?;
    // The tree git built must be the one signed; if it is not, the commit is withdrawn.
    let built = objects
        .get(&commit)?
        .and_then(|(_, _, raw)| signed::split_commit(&raw))
        .map(|(t, _)| t);
    if built.as_deref() != Some(tree.as_str()) {
        let _ = repo.run(&[
            "update-ref",
            &own,
            last_commit.unwrap_or(NO_COMMIT),
            &commit,
        ]);
        return Err(SyncError::Git {
            what: "git fast-import".into(),
            detail: format!("the tree written ({built:?}) is not the tree signed ({tree})"),
        });
    }
    trail_base::failpoint::hit("sync-after-commit");
    remember(&memo_path, &commit, live_id, chunk_map);
    tidy(repo);
    Ok(Published {
        commit,
        seq,
        new_commit: true,
        new_bytes,
        files,
    })
}

/// Every chunk of the snapshot with its blob id: reused while its bytes cannot have changed,
/// else computed.
fn chunks_of<'a>(
    snapshot: &'a [SnapshotFile],
    machine_text: Vec<u8>,
    reusable: &BTreeMap<String, (String, u64)>,
    live_same: bool,
) -> Result<Vec<Chunk<'a>>> {
    let mut chunks: Vec<Chunk<'_>> = Vec::new();
    chunks.push(Chunk {
        path: MACHINE_FILE.into(),
        oid: crate::objects::blob_id(&machine_text),
        size: machine_text.len() as u64,
        source: Source::Bytes(machine_text),
    });
    let mut buf = Vec::new();
    for f in snapshot {
        let live = f.name == STREAM_FILE;
        for k in 0..f.len.div_ceil(CHUNK) {
            let size = CHUNK.min(f.len - k * CHUNK);
            let path = chunk_path(&f.name, k);
            // Archived and imported segments never change; the live stream's chunks are the
            // same only while it is the same file (a rotation starts a new one).
            if let Some((oid, n)) = reusable.get(&path)
                && *n == size
                && (!live || live_same)
            {
                chunks.push(Chunk {
                    path,
                    oid: oid.clone(),
                    size,
                    source: Source::Object,
                });
                continue;
            }
            read_range(f, k * CHUNK, size, &mut buf)?;
            chunks.push(Chunk {
                path,
                oid: crate::objects::blob_id(&buf),
                size,
                source: Source::Range(f, k * CHUNK),
            });
        }
    }
    Ok(chunks)
}

fn read_range(f: &SnapshotFile, at: u64, size: u64, buf: &mut Vec<u8>) -> Result<()> {
    buf.resize(usize::try_from(size).unwrap_or(0), 0);
    f.file
        .read_exact_at(buf, at)
        .map_err(SyncError::io("read", Path::new(&f.name)))
}

fn remember(
    path: &Path,
    commit: &str,
    live: Option<(u64, u64)>,
    chunks: BTreeMap<String, (String, u64)>,
) {
    let memo = Memo {
        commit: commit.to_string(),
        live,
        chunks,
    };
    // A lost memo costs one tree listing and one re-read of the live stream, nothing more.
    let _ = crate::write_cache(path, &serde_json::to_vec(&memo).unwrap_or_default());
}

/// One chunk of the tree to commit.
struct Chunk<'a> {
    path: String,
    oid: String,
    size: u64,
    source: Source<'a>,
}

enum Source<'a> {
    /// Already an object (committed before).
    Object,
    Bytes(Vec<u8>),
    /// `size` bytes of a snapshot file from an offset.
    Range(&'a SnapshotFile, u64),
}

/// Write the new chunks, the tree and the commit on `own` (from `parent`) with one `git
/// fast-import`; the commit's id.
fn fast_import(
    repo: &Repo,
    id: &str,
    own: &str,
    parent: Option<&str>,
    chunks: &[Chunk<'_>],
    message: &str,
) -> Result<String> {
    let marks =
        tempfile::NamedTempFile::new_in(repo.dir()).map_err(SyncError::io("create", repo.dir()))?;
    let mut child = repo
        .command()
        // The pack is kept as written, not unpacked into loose objects by a second process
        // (the default below 100 objects, which is every incremental sync); `tidy` merges
        // the small packs this leaves.
        .args(["-c", "fastimport.unpackLimit=1"])
        .args(["fast-import", "--quiet", "--date-format=raw"])
        .arg(format!("--export-marks={}", marks.path().display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(SyncError::spawn)?;
    let mut stdin = std::io::BufWriter::with_capacity(1 << 20, child.stdin.take().expect("piped"));
    let mut buf = Vec::new();
    let commit_mark = chunks.len() + 1;
    let wrote = (|| -> std::io::Result<()> {
        for (i, c) in chunks.iter().enumerate() {
            let bytes: &[u8] = match &c.source {
                Source::Object => continue,
                Source::Bytes(b) => b,
                Source::Range(f, at) => {
                    buf.resize(usize::try_from(c.size).unwrap_or(0), 0);
                    f.file.read_exact_at(&mut buf, *at)?;
                    &buf
                }
            };
            write!(stdin, "blob\nmark :{}\ndata {}\n", i + 1, bytes.len())?;
            stdin.write_all(bytes)?;
            stdin.write_all(b"\n")?;
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        write!(
            stdin,
            "commit {own}\nmark :{commit_mark}\ncommitter trail <{id}@trail.invalid> {now} +0000\ndata {}\n{message}\n",
            message.len()
        )?;
        if let Some(p) = parent {
            writeln!(stdin, "from {p}")?;
        }
        stdin.write_all(b"deleteall\n")?;
        for (i, c) in chunks.iter().enumerate() {
            match c.source {
                Source::Object => writeln!(stdin, "M 100644 {} {}", c.oid, c.path)?,
                _ => writeln!(stdin, "M 100644 :{} {}", i + 1, c.path)?,
            }
        }
        stdin.write_all(b"\ndone\n")?;
        stdin.flush()
    })();
    drop(stdin);
    let out = child.wait_with_output().map_err(SyncError::spawn)?;
    if !out.status.success() || wrote.is_err() {
        return Err(SyncError::Git {
            what: "git fast-import".into(),
            detail: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    let text =
        std::fs::read_to_string(marks.path()).map_err(SyncError::io("read", marks.path()))?;
    text.lines()
        .find_map(|l| {
            let (m, oid) = l.strip_prefix(':')?.split_once(' ')?;
            (m.parse::<usize>().ok()? == commit_mark).then(|| oid.trim().to_string())
        })
        .ok_or_else(|| SyncError::Git {
            what: "git fast-import".into(),
            detail: "no commit was written".into(),
        })
}

/// More small packs than this (one per incremental sync) and they are merged.
const PACKS_BEFORE_REPACK: usize = 24;

/// Merge the small packs the syncs left (`git repack --geometric=2`, git 2.33: each pack at
/// least twice the size of the ones merged into it, so the large first one is rarely
/// rewritten). Best effort: more packs only cost lookups.
fn tidy(repo: &Repo) {
    let packs = std::fs::read_dir(repo.dir().join("objects").join("pack")).map_or(0, |rd| {
        rd.filter_map(std::result::Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".pack"))
            .count()
    });
    if packs > PACKS_BEFORE_REPACK {
        let _ = repo.run(&["repack", "-d", "-q", "--geometric=2"]);
    }
}

/// How many bytes of each snapshot file this machine's last commit already holds.
pub fn already_sent(
    repo: &Repo,
    id: &str,
    sync_dir: &Path,
    snapshot: &[SnapshotFile],
) -> Result<HashMap<String, u64>> {
    let mut sent: HashMap<String, u64> = HashMap::new();
    let Some(prev) = repo.resolve(&format!("{REF_PREFIX}{id}"))? else {
        return Ok(sent);
    };
    let memo: Memo = std::fs::read(sync_dir.join("published.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let live_id = snapshot
        .iter()
        .find(|f| f.name == trail_ledger::handle::STREAM_FILE)
        .and_then(|f| trail_base::fsutil::identity_of(&f.file).ok());
    let live_same = memo.commit == prev && live_id.is_some() && memo.live == live_id;
    for e in repo.blobs(&prev)? {
        let Some((name, _)) = e
            .path
            .strip_prefix("stream/")
            .and_then(|p| p.rsplit_once('/'))
        else {
            continue;
        };
        if name == trail_ledger::handle::STREAM_FILE && !live_same {
            continue;
        }
        *sent.entry(name.to_string()).or_default() += e.size;
    }
    Ok(sent)
}
