//! This machine's side: its durable snapshot committed, signed, to `refs/trail/<id>` in the
//! sync repository.
//!
//! Every file of the snapshot is stored in chunks of [`CHUNK`] bytes
//! (`stream/<name>/<k, 8 digits>`), so that a sync sends what is new: every chunk but the last
//! of a file never changes again, and a growing stream rewrites only its last one. A file is
//! only ever extended, with one exception a rotation makes: the live stream's bytes move, whole,
//! to the front of a new archive segment, and a new live stream starts (see `accept.rs`).

use std::collections::HashMap;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::process::Stdio;

use serde::{Deserialize, Serialize};
use trail_core::ledger::Ledger;
use trail_core::ledger::replica::SnapshotFile;

use crate::error::{Result, SyncError};
use crate::git::{Entry, Repo};
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
/// after a rotation (`sync/published.json`).
#[derive(Default, Serialize, Deserialize)]
struct Memo {
    commit: String,
    live: Option<(u64, u64)>,
}

/// The claim and tree entries of commit `rev`.
pub fn claim_of(repo: &Repo, rev: &str) -> Result<Option<Claim>> {
    let raw = repo.run(&["cat-file", "commit", rev])?;
    Ok(signed::split_commit(&raw).and_then(|(_, m)| Claim::parse(&m)))
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
    let prev = repo.resolve(&own)?;
    let memo_path = sync_dir.join("published.json");
    let memo: Memo = std::fs::read(&memo_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    let (prev_entries, prev_seq, prev_tree) = match &prev {
        Some(c) => (
            repo.blobs(c)?,
            claim_of(repo, c)?.map_or(0, |cl| cl.seq),
            repo.line(&["rev-parse", &format!("{c}^{{tree}}")])?,
        ),
        None => (Vec::new(), 0, String::new()),
    };
    let live_id = snapshot
        .iter()
        .find(|f| f.name == trail_core::ledger::handle::STREAM_FILE)
        .and_then(|f| trail_core::fsutil::identity_of(&f.file).ok());
    let live_same =
        prev.as_deref() == Some(memo.commit.as_str()) && live_id.is_some() && memo.live == live_id;
    let reusable: HashMap<&str, &Entry> =
        prev_entries.iter().map(|e| (e.path.as_str(), e)).collect();

    // Which chunks are already objects, and which must be written.
    let mut entries: Vec<(String, ChunkSource)> = Vec::new();
    let machine_text = format!("trail machine v1\nid {id}\nkey {}\n", key.public());
    entries.push((
        MACHINE_FILE.into(),
        ChunkSource::Bytes(machine_text.into_bytes()),
    ));
    for f in &snapshot {
        let live = f.name == trail_core::ledger::handle::STREAM_FILE;
        for k in 0..f.len.div_ceil(CHUNK) {
            let size = CHUNK.min(f.len - k * CHUNK);
            let path = chunk_path(&f.name, k);
            match reusable.get(path.as_str()) {
                // Archived and imported segments never change; the live stream's chunks are
                // the same only while it is the same file (a rotation starts a new one).
                Some(e) if e.size == size && (!live || live_same) => {
                    entries.push((path, ChunkSource::Object(e.oid.clone())));
                }
                _ => entries.push((path, ChunkSource::Range(f, k * CHUNK, size))),
            }
        }
    }
    let new_bytes = entries
        .iter()
        .map(|(_, s)| match s {
            ChunkSource::Range(_, _, n) => *n,
            _ => 0,
        })
        .sum();
    let oids = write_blobs(repo, &entries)?;
    let tree = write_tree(repo, sync_dir, &entries, &oids)?;
    let files = snapshot.iter().map(|f| (f.name.clone(), f.len)).collect();
    if let Some(c) = &prev
        && tree == prev_tree
    {
        remember(&memo_path, c, live_id);
        return Ok(Published {
            commit: c.clone(),
            seq: prev_seq,
            new_commit: false,
            new_bytes: 0,
            files,
        });
    }
    let seq = prev_seq + 1;
    let claim = Claim::sign(key, id, seq, &tree);
    let mut args = vec!["commit-tree", tree.as_str()];
    if let Some(p) = &prev {
        args.extend(["-p", p.as_str()]);
    }
    let commit =
        String::from_utf8_lossy(&run_as_trail(repo, id, &args, claim.message().as_bytes())?)
            .trim()
            .to_string();
    repo.run(&[
        "update-ref",
        &own,
        &commit,
        prev.as_deref().unwrap_or(NO_COMMIT),
    ])?;
    trail_core::failpoint::hit("sync-after-commit");
    remember(&memo_path, &commit, live_id);
    Ok(Published {
        commit,
        seq,
        new_commit: true,
        new_bytes,
        files,
    })
}

fn remember(path: &Path, commit: &str, live: Option<(u64, u64)>) {
    let memo = Memo {
        commit: commit.to_string(),
        live,
    };
    // A lost memo costs one re-read of the live stream at the next sync, nothing more.
    let _ = trail_core::fsutil::atomic_write(path, &serde_json::to_vec(&memo).unwrap_or_default());
}

enum ChunkSource<'a> {
    Object(String),
    Bytes(Vec<u8>),
    Range(&'a SnapshotFile, u64, u64),
}

/// Write every chunk that is not an object yet with one `git fast-import`; the object id of
/// each entry, in order.
fn write_blobs(repo: &Repo, entries: &[(String, ChunkSource)]) -> Result<Vec<String>> {
    let marks =
        tempfile::NamedTempFile::new_in(repo.dir()).map_err(SyncError::io("create", repo.dir()))?;
    let mut child = repo
        .command()
        .args(["fast-import", "--quiet", "--date-format=now"])
        .arg(format!("--export-marks={}", marks.path().display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(SyncError::spawn)?;
    let mut stdin = std::io::BufWriter::with_capacity(1 << 20, child.stdin.take().expect("piped"));
    let mut buf = Vec::new();
    let mut wrote = Ok(());
    for (i, (_, src)) in entries.iter().enumerate() {
        let bytes: &[u8] = match src {
            ChunkSource::Object(_) => continue,
            ChunkSource::Bytes(b) => b,
            ChunkSource::Range(f, at, n) => {
                buf.resize(usize::try_from(*n).unwrap_or(0), 0);
                f.file
                    .read_exact_at(&mut buf, *at)
                    .map_err(SyncError::io("read", Path::new(&f.name)))?;
                &buf
            }
        };
        wrote = wrote.and_then(|()| {
            write!(stdin, "blob\nmark :{}\ndata {}\n", i + 1, bytes.len())?;
            stdin.write_all(bytes)?;
            stdin.write_all(b"\n")
        });
    }
    wrote = wrote
        .and_then(|()| stdin.write_all(b"done\n"))
        .and_then(|()| stdin.flush());
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
    let mut by_mark: HashMap<usize, String> = HashMap::new();
    for line in text.lines() {
        if let Some((m, oid)) = line.strip_prefix(':').and_then(|l| l.split_once(' '))
            && let Ok(m) = m.parse()
        {
            by_mark.insert(m, oid.to_string());
        }
    }
    entries
        .iter()
        .enumerate()
        .map(|(i, (path, src))| match src {
            ChunkSource::Object(oid) => Ok(oid.clone()),
            _ => by_mark.remove(&(i + 1)).ok_or_else(|| SyncError::Git {
                what: "git fast-import".into(),
                detail: format!("no object was written for {path}"),
            }),
        })
        .collect()
}

/// The tree of `entries`, built in a scratch index.
fn write_tree(
    repo: &Repo,
    sync_dir: &Path,
    entries: &[(String, ChunkSource)],
    oids: &[String],
) -> Result<String> {
    let index = tempfile::Builder::new()
        .prefix("index-")
        .tempfile_in(sync_dir)
        .map_err(SyncError::io("create", sync_dir))?;
    // git wants to make the index itself.
    let index_path = index.path().to_path_buf();
    drop(index);
    let mut info = String::new();
    for ((path, _), oid) in entries.iter().zip(oids) {
        info.push_str(&format!("100644 {oid}\t{path}\n"));
    }
    let env = [("GIT_INDEX_FILE", index_path.as_path())];
    let done = repo
        .run_input(
            &["update-index", "--add", "--index-info"],
            &env,
            info.as_bytes(),
        )
        .and_then(|_| repo.run_input(&["write-tree"], &env, b""));
    let _ = std::fs::remove_file(&index_path);
    Ok(String::from_utf8_lossy(&done?).trim().to_string())
}

/// `git ARGS` with `input`, as trail on machine `id` (author and committer).
fn run_as_trail(repo: &Repo, id: &str, args: &[&str], input: &[u8]) -> Result<Vec<u8>> {
    let mut c = repo.command();
    c.args(args)
        .env("GIT_AUTHOR_NAME", "trail")
        .env("GIT_AUTHOR_EMAIL", format!("{id}@trail.invalid"))
        .env("GIT_COMMITTER_NAME", "trail")
        .env("GIT_COMMITTER_EMAIL", format!("{id}@trail.invalid"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().map_err(SyncError::spawn)?;
    let mut stdin = child.stdin.take().expect("piped");
    let wrote = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().map_err(SyncError::spawn)?;
    if !out.status.success() || wrote.is_err() {
        return Err(SyncError::Git {
            what: format!("git {}", args[0]),
            detail: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(out.stdout)
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
        .find(|f| f.name == trail_core::ledger::handle::STREAM_FILE)
        .and_then(|f| trail_core::fsutil::identity_of(&f.file).ok());
    let live_same = memo.commit == prev && live_id.is_some() && memo.live == live_id;
    for e in repo.blobs(&prev)? {
        let Some((name, _)) = e
            .path
            .strip_prefix("stream/")
            .and_then(|p| p.rsplit_once('/'))
        else {
            continue;
        };
        if name == trail_core::ledger::handle::STREAM_FILE && !live_same {
            continue;
        }
        *sent.entry(name.to_string()).or_default() += e.size;
    }
    Ok(sent)
}
