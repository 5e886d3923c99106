//! `trail sync`: many machines, one trail, over git (DESIGN, principle 12; issue 24).
//!
//! Each machine publishes its own ledger segments, chunked, as a signed commit on a ref of its
//! own (`refs/trail/<machine-id>`) of a remote the person names once, and takes the other
//! machines' refs back into replicas (`$TRAIL_HOME/machines/<id>/`). Nothing is merged line by
//! line: every machine only ever appends to its own history, so syncing is a union of
//! grow-only histories, and nothing can conflict. What another machine published is taken only
//! when it is signed by a key the person trusted, newer than what was taken before, and an
//! extension of it; anything else is reported and left out (`accept.rs`).
//!
//! ```text
//! $TRAIL_HOME/sync/remote           the remote's URL (`trail sync --remote URL`)
//! $TRAIL_HOME/sync/repo.git/        trail's own bare repository: refs/trail/* (each machine's
//!                                   commits), refs/trail-accepted/* (what was taken)
//! $TRAIL_HOME/sync/trusted.json     the machines the person trusted (trust.rs)
//! $TRAIL_HOME/sync/status.json      the last sync's outcome, for `trail status` and `doctor`
//! $TRAIL_HOME/sync/published.json   the live stream the last publish saw (publish.rs)
//! $TRAIL_HOME/sync/sync.lock        one sync at a time
//! ~/.secrets/trail.machine.key      this machine's signing key (key.rs); never synced
//! ```
//!
//! What never leaves the machine: the secret store and both keys. Records hold `${secret:…}`
//! references only, and those resolve only where the secret was seen.

pub mod accept;
pub mod error;
pub mod git;
pub mod objects;
pub mod pending;
pub mod publish;
pub mod signed;

use std::fs::File;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use trail_base::time::Ts;
use trail_ledger::Ledger;
use trail_ledger::replica::is_machine_id;

pub use accept::{Accepted, Finding, Refusal};
pub use error::{Result, SyncError};
pub use pending::pending;
/// The machine key and the trust list live with the person's key (`trail_secrets::machine`).
pub use trail_secrets::machine::{key, trust};

/// The places a sync uses.
pub struct Places {
    /// `$TRAIL_HOME/sync`.
    pub dir: PathBuf,
    /// The person's secrets directory (`~/.secrets`).
    pub secrets_dir: PathBuf,
}

impl Places {
    pub fn of(ledger: &Ledger) -> Places {
        Places {
            dir: dir_of(ledger.root()),
            secrets_dir: ledger.options().secrets_dir.clone(),
        }
    }
    pub fn remote_file(&self) -> PathBuf {
        self.dir.join("remote")
    }
    pub fn status_file(&self) -> PathBuf {
        self.dir.join("status.json")
    }
    fn repo(&self) -> Result<git::Repo> {
        git::Repo::open(&self.dir.join("repo.git"))
    }
    pub fn trust(&self) -> trust::TrustList {
        trust::TrustList::new(&self.dir, &self.secrets_dir)
    }
}

/// The remote the person named, if any.
pub fn remote(places: &Places) -> Option<String> {
    std::fs::read_to_string(places.remote_file())
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
}

/// Name the remote (the person's act; the binary checks that a person is at the terminal).
pub fn set_remote(places: &Places, url: &str) -> Result<()> {
    let url = url.trim();
    if url.is_empty() || url.starts_with('-') || url.contains('\n') {
        return Err(SyncError::Rejected(format!(
            "`{url}` is not a git remote URL"
        )));
    }
    trail_base::fsutil::ensure_dir(&places.dir).map_err(SyncError::io("create", &places.dir))?;
    trail_base::fsutil::atomic_write(&places.remote_file(), format!("{url}\n").as_bytes())
        .map_err(SyncError::io("write", &places.remote_file()))
}

/// One other machine, as this sync left it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Machine {
    pub id: String,
    /// The sequence number of the commit taken last, if any.
    pub seq: Option<u64>,
    /// Bytes this sync brought.
    pub bytes: u64,
    pub trusted: bool,
}

/// What a sync did.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Report {
    pub at: String,
    pub machine: String,
    pub remote: String,
    /// This machine's commit and sequence number after the sync.
    pub commit: Option<String>,
    pub seq: Option<u64>,
    /// Bytes of chunks this sync wrote for this machine's commit.
    pub published_bytes: u64,
    pub pushed: bool,
    pub fetched: bool,
    /// Why the remote could not be reached (the sync is retried later; nothing is lost).
    pub offline: Option<String>,
    pub machines: Vec<Machine>,
    pub findings: Vec<Finding>,
}

impl Report {
    /// Whether everything was sent, fetched and taken. A machine nobody trusted is reported
    /// but is not a failure: leaving it out is what should happen until the person decides.
    pub fn ok(&self) -> bool {
        self.offline.is_none() && self.findings.iter().all(|f| f.problem == Refusal::Unknown)
    }
}

/// Run one sync: publish, push, fetch, take what the trusted machines published.
pub fn run(ledger: &Ledger, places: &Places) -> Result<Report> {
    let remote = remote(places).ok_or(SyncError::NoRemote)?;
    trail_base::fsutil::ensure_dir(&places.dir).map_err(SyncError::io("create", &places.dir))?;
    let lock_path = places.dir.join("sync.lock");
    let lock = File::create(&lock_path).map_err(SyncError::io("create", &lock_path))?;
    lock.lock().map_err(SyncError::io("lock", &lock_path))?;
    let repo = places.repo()?;
    let id = ledger.machine_id()?;
    let key = key::MachineKey::load_or_create(&places.secrets_dir)?;
    let published = publish::publish(&repo, ledger, &key, &id, &places.dir)?;
    let mut report = Report {
        at: Ts::now().to_string(),
        machine: id.clone(),
        remote: remote.clone(),
        commit: Some(published.commit.clone()),
        seq: Some(published.seq),
        published_bytes: published.new_bytes,
        pushed: false,
        fetched: false,
        offline: None,
        machines: Vec::new(),
        findings: Vec::new(),
    };
    let own = format!("{}{id}", publish::REF_PREFIX);
    // The push writes only this machine's ref on the remote and the fetch reads into
    // `refs/remotes/trail/`, so the two round trips run side by side: they are most of an
    // incremental sync's time. Both are waited for before either failpoint, so a crash never
    // leaves a git behind that the next sync would race.
    let pushing = repo.start(&[
        "push",
        "--porcelain",
        "--quiet",
        &remote,
        &format!("{own}:{own}"),
    ]);
    // Every machine's ref but this one's (a negative refspec, git 2.29, as
    // `--no-write-fetch-head` is): nothing is ever taken from it, and fetching it back cost a
    // third of the fetch.
    let fetching = fetch(
        &repo,
        &remote,
        &["+refs/trail/*:refs/remotes/trail/*", &format!("^{own}")],
    );
    let pushed = pushed(pushing);
    let fetched = fetching.finish();
    match pushed {
        Ok(()) => {
            report.pushed = true;
            trail_base::failpoint::hit("sync-after-push");
        }
        Err(Push::Rejected(detail)) => report.findings.push(Finding {
            machine: id.clone(),
            problem: Refusal::Rewritten,
            detail: format!(
                "the remote's ref for this machine is not the one it pushed last, so nothing was \
                 overwritten: someone rewrote it, or another copy of this ledger uses the same \
                 machine id ({detail})"
            ),
        }),
        Err(Push::Offline(e)) => report.offline = Some(e),
    }
    // Fetched objects are checked before anything is taken (`accept.rs`), so a fetch that
    // succeeded while the push could not reach the remote is still of use; "offline" names
    // the push's failure first, as the person acts on that one.
    match fetched {
        Ok(_) => {
            report.fetched = true;
            trail_base::failpoint::hit("sync-after-fetch");
        }
        Err(e) => {
            report.offline.get_or_insert_with(|| e.to_string());
        }
    }
    // A git too old for the fetch's negative refspec fails as if the remote were away: say
    // what to do instead of "tried again later" (asked only when something failed).
    if report.offline.is_some()
        && let Some(old) = git::too_old()
    {
        report.offline = Some(old);
    }
    take_all(&repo, ledger, places, &id, &mut report)?;
    write_status(places, &report);
    drop(lock);
    Ok(report)
}

/// Start fetching machines' refs from `remote` into `refs/remotes/trail/*`, as `refspecs` say.
/// Forced updates are taken here: whether a machine's new commit extends what was accepted is
/// `accept.rs`'s question.
fn fetch(repo: &git::Repo, remote: &str, refspecs: &[&str]) -> git::Started {
    let mut args = vec![
        "fetch",
        "--no-tags",
        "--quiet",
        "--no-write-fetch-head",
        remote,
    ];
    args.extend_from_slice(refspecs);
    repo.start(&args)
}

enum Push {
    Rejected(String),
    Offline(String),
}

/// How the push `started` ended: a refusal (the remote's ref is not the one pushed last) is
/// told apart from not reaching the remote.
fn pushed(started: git::Started) -> std::result::Result<(), Push> {
    let out = started.output().map_err(|e| Push::Offline(e.to_string()))?;
    if out.status.success() {
        return Ok(());
    }
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let line = said
        .lines()
        .find(|l| l.contains("rejected") || l.starts_with('!'))
        .map(str::trim)
        .map(String::from);
    match line {
        Some(l)
            if said.contains("non-fast-forward")
                || said.contains("fetch first")
                || said.contains("rejected") =>
        {
            Err(Push::Rejected(l))
        }
        _ => Err(Push::Offline(
            said.lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("git push failed")
                .trim()
                .to_string(),
        )),
    }
}

/// Take every fetched machine's commit (also after a failed fetch: what an earlier fetch
/// brought is still checked and taken).
fn take_all(
    repo: &git::Repo,
    ledger: &Ledger,
    places: &Places,
    me: &str,
    report: &mut Report,
) -> Result<()> {
    let refs = repo.run(&[
        "for-each-ref",
        "--format=%(refname) %(objectname)",
        "refs/remotes/trail/",
    ])?;
    let trusted = places.trust().machines().unwrap_or_default();
    for line in String::from_utf8_lossy(&refs).lines() {
        let Some((name, commit)) = line.split_once(' ') else {
            continue;
        };
        let id = name.trim_start_matches("refs/remotes/trail/");
        if id == me {
            continue;
        }
        if !is_machine_id(id) {
            report.findings.push(Finding {
                machine: id.to_string(),
                problem: Refusal::Malformed,
                detail: format!("the remote has a ref `{name}` that names no machine: ignored"),
            });
            continue;
        }
        let Some(t) = trusted.iter().find(|t| t.id == id) else {
            let shown = accept::claimed_key(repo, commit)
                .ok()
                .flatten()
                .map_or_else(|| "no key".to_string(), |k| key::fingerprint(&k));
            report.findings.push(Finding {
                machine: id.to_string(),
                problem: Refusal::Unknown,
                detail: format!(
                    "machine {id} ({shown}) is not trusted here, so its records were not taken: \
                     if it is yours, run `trail sync --trust-machine {id}` and compare the fingerprint"
                ),
            });
            report.machines.push(Machine {
                id: id.to_string(),
                seq: None,
                bytes: 0,
                trusted: false,
            });
            continue;
        };
        match accept::accept(repo, ledger, id, &t.key, commit)? {
            Ok(Accepted::Unchanged { seq }) => report.machines.push(Machine {
                id: id.to_string(),
                seq: Some(seq),
                bytes: 0,
                trusted: true,
            }),
            Ok(Accepted::Taken { seq, bytes }) => report.machines.push(Machine {
                id: id.to_string(),
                seq: Some(seq),
                bytes,
                trusted: true,
            }),
            Err(f) => {
                let seq = repo
                    .resolve(&format!("{}{id}", accept::ACCEPTED_PREFIX))?
                    .and_then(|a| publish::claim_of(repo, &a).ok().flatten())
                    .map(|c| c.seq);
                report.machines.push(Machine {
                    id: id.to_string(),
                    seq,
                    bytes: 0,
                    trusted: true,
                });
                report.findings.push(f);
            }
        }
    }
    Ok(())
}

fn write_status(places: &Places, report: &Report) {
    if let Ok(text) = serde_json::to_vec_pretty(report) {
        // The status is a convenience for `trail status`; the sync itself is already done.
        let _ = write_cache(&places.status_file(), &text);
    }
}

/// Write a file a sync can do without (its status, its memo): whole or not at all, by rename,
/// but not synced to disk: after a power loss the next sync recomputes what it said, and two
/// fsyncs were a tenth of an incremental sync's time.
pub(crate) fn write_cache(
    path: &Path,
    bytes: &[u8],
) -> std::result::Result<(), trail_base::file_error::FileError> {
    use std::io::Write as _;
    use trail_base::file_error::At;
    let write = || -> std::io::Result<()> {
        let dir = trail_base::fsutil::parent_dir(path);
        let mut tmp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
        tmp.write_all(bytes)?;
        tmp.persist(path).map(drop).map_err(|e| e.error)
    };
    write().at("write", path)
}

/// The last sync's report, if one ran.
pub fn last(places: &Places) -> Option<Report> {
    serde_json::from_slice(&std::fs::read(places.status_file()).ok()?).ok()
}

/// What machine `id` published, for the person to compare before trusting it: its public key
/// as the remote has it (fetched now when a remote is set).
pub fn offered_key(places: &Places, id: &str) -> Result<String> {
    if !is_machine_id(id) {
        return Err(SyncError::BadId(id.to_string()));
    }
    let repo = places.repo()?;
    if let Some(remote) = remote(places) {
        // Best effort: without the network, what an earlier fetch brought is shown.
        let _ = fetch(
            &repo,
            &remote,
            &[&format!(
                "+{}{id}:refs/remotes/trail/{id}",
                publish::REF_PREFIX
            )],
        )
        .finish();
    }
    let commit = repo
        .resolve(&format!("refs/remotes/trail/{id}"))?
        .ok_or_else(|| SyncError::UnknownMachine(id.to_string()))?;
    accept::claimed_key(&repo, &commit)?.ok_or_else(|| SyncError::UnknownMachine(id.to_string()))
}

/// Whether a sync is running now (its lock is held): a background start skips then.
pub fn is_running(places: &Places) -> bool {
    let Ok(f) = File::open(places.dir.join("sync.lock")) else {
        return false;
    };
    match f.try_lock() {
        Ok(()) => false,
        Err(std::fs::TryLockError::WouldBlock) => true,
        Err(_) => false,
    }
}

/// The sync directory of a personal root.
pub fn dir_of(root: &Path) -> PathBuf {
    root.join(trust::SYNC_DIR)
}
