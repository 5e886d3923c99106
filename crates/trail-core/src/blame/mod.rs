//! `trail blame`: which session, prompt, tool call and approval produced a commit or a line, as
//! evidence.
//!
//! - When it happens: PostToolUse of an agent's `git commit` records the commit `HEAD` names, in
//!   a pulse of the hash-chained stream and a line of `.trail/state/commits.jsonl`
//!   ([`link`]); each agent edit's proof line keeps the keys of the lines it wrote
//!   (`proof::Entry::wrote`).
//! - Where the project's history lives: a signed note per commit on `refs/notes/trail`
//!   ([`note`]), written outside the hooks.
//! - Back to the journal: a note names its machine and its pulse by time and digest; blame
//!   checks the note's signature with that machine's key (this machine's own, or one the person
//!   trusted with `trail sync --trust-machine`), finds the record in that machine's stream (a
//!   replica `trail sync` brought, for another machine's), checks its seal, and follows the
//!   chain from it to the stream's head: every record after it sealed and naming the one
//!   before.
//!
//! A line's origin ([`Origin`]): the agent's, when its commit has a note that verifies and the
//! note's edits wrote that line in that file; a person's, when the commit's note verifies but no
//! edit of the agent's wrote it; unknown to trail, when the commit has no note (committed
//! without trail, or its note was lost when the commit was rewritten without
//! `notes.rewriteRef`); not committed yet. A note that does not verify is said, never used.

pub mod link;
pub mod note;
pub mod trailer;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use serde::Serialize;

use crate::ledger::Ledger;
use crate::secrets::machine::{MachineKey, TrustList};
use crate::time::Ts;
use note::Note;

/// What to blame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A commit (any revision git can name).
    Commit(String),
    /// A file, or one line of it (1-based).
    File { path: String, line: Option<u32> },
}

impl Target {
    /// `FILE`, `FILE:LINE`, or a commit: what names an existing file inside the project is a
    /// file (a path that leaves it is not one: it is tried as a commit, and git says no).
    pub fn parse(root: &Path, given: &str) -> Target {
        let inside = |p: &str| {
            let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
            root.join(p)
                .canonicalize()
                .is_ok_and(|full| full.starts_with(&root) && full.is_file())
        };
        if let Some((path, line)) = given.rsplit_once(':')
            && let Ok(n) = line.parse::<u32>()
            && n > 0
            && inside(path)
        {
            return Target::File {
                path: path.to_string(),
                line: Some(n),
            };
        }
        if inside(given) {
            return Target::File {
                path: given.to_string(),
                line: None,
            };
        }
        Target::Commit(given.to_string())
    }
}

/// How a commit's note stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum NoteState {
    /// No note: committed without trail, or the note was lost when the commit was rewritten.
    None,
    /// The note verifies: signed by `machine`'s key (this machine's when `here`), its pulse
    /// found in that machine's stream and sealed, and the chain from it to the stream's head
    /// whole (`chain` records after it, each sealed and naming the one before).
    Verified {
        chain: usize,
        machine: String,
        here: bool,
    },
    /// The note is there but must not be believed: why.
    Forged { why: String },
}

/// One commit, and what its note says.
#[derive(Clone, Debug, Serialize)]
pub struct CommitBlame {
    pub commit: String,
    pub summary: String,
    pub author: String,
    pub note: NoteState,
    /// The note was written for another commit, which this one replaced (amend, rebase): git
    /// carried it (`notes.rewriteRef`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carried_from: Option<String>,
    /// The note, when it verifies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Note>,
    /// The message's `Trail-Session:` trailer ([`trailer`]), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trailer: Option<Trailer>,
}

/// A commit message's `Trail-Session:` trailer: a claim anyone who writes the message can make.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trailer {
    pub session: String,
    /// Whether the commit's verified note names the same session; `None` when no note
    /// verifies (the trailer is then a claim nothing backs).
    pub agrees: Option<bool>,
}

/// Who a line came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "by")]
pub enum Origin {
    /// An edit of the agent's, in a commit whose note verifies.
    Agent {
        tool: String,
        at: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        tool_use_id: Option<String>,
    },
    /// Not written by the agent's edits, in a commit the agent made (a person's edit it
    /// committed along).
    Person,
    /// The commit has no note that verifies: trail knows nothing of it.
    Unknown,
    /// Not committed yet.
    Uncommitted,
}

/// One line.
#[derive(Clone, Debug, Serialize)]
pub struct LineBlame {
    pub line: u32,
    pub text: String,
    pub commit: String,
    pub origin: Origin,
}

/// The answer.
#[derive(Clone, Debug, Serialize)]
pub struct Blame {
    /// The file (relative to the repository) when a file was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub lines: Vec<LineBlame>,
    pub commits: Vec<CommitBlame>,
    /// Notes written for commits that had none yet (the journal's pending ones).
    pub noted: usize,
    /// Commits trail recorded that git no longer has.
    pub gone: Vec<String>,
}

/// Why blame could not answer.
#[derive(Debug, thiserror::Error)]
pub enum BlameError {
    #[error("`{0}` is not inside a git repository: blame needs the project's history")]
    NoRepository(String),
    #[error("git cannot blame `{target}`: {stderr}")]
    Git { target: String, stderr: String },
    #[error("cannot run git: {0}")]
    Spawn(std::io::Error),
    #[error(transparent)]
    Note(#[from] note::NoteError),
    #[error(transparent)]
    Ledger(#[from] crate::ledger::LedgerError),
}

/// Blame `target` in the project at `root`. With `write_notes`, the journal's pending notes
/// are written first (`trail blame`); without, nothing is written (the MCP tool, read-only).
pub fn blame(
    root: &Path,
    secrets_dir: &Path,
    ledger: &Ledger,
    target: &Target,
    write_notes: bool,
) -> Result<Blame, BlameError> {
    let top = crate::project::Project::discover(root).root;
    if !top.join(".git").exists() {
        return Err(BlameError::NoRepository(root.display().to_string()));
    }
    let flushed = if write_notes {
        note::flush(root, secrets_dir, || ledger.machine_id())?
    } else {
        note::Flushed::default()
    };
    let (file, lines, mut commits) = match target {
        Target::Commit(rev) => (None, Vec::new(), vec![describe(&top, rev)?]),
        Target::File { path, line } => {
            let (lines, commits) = porcelain(root, path, *line)?;
            (
                Some(note::relative(root, &root.join(path).to_string_lossy())),
                lines,
                commits,
            )
        }
    };
    let ids: Vec<String> = commits.iter().map(|c| c.commit.clone()).collect();
    let note::Found {
        notes: raw,
        trailers,
    } = note::read(&top, &ids);
    let signers = Signers::of(ledger, secrets_dir);
    // Each commit's note, parsed once, in the commits' order.
    let parsed: Vec<Option<Note>> = commits
        .iter()
        .map(|c| serde_json::from_str(raw.get(&c.commit)?).ok())
        .collect();
    let records = records(ledger, parsed.iter().flatten())?;
    for (c, parsed) in commits.iter_mut().zip(parsed) {
        c.trailer = trailers.get(&c.commit).map(|s| Trailer {
            session: s.clone(),
            agrees: None,
        });
        let Some(text) = raw.get(&c.commit) else {
            continue;
        };
        let (state, n) = judge(text, parsed, &signers, &records);
        c.note = state;
        if let Some(n) = n {
            c.carried_from = (n.commit != c.commit).then(|| n.commit.clone());
            if let Some(t) = &mut c.trailer {
                t.agrees = Some(n.session.as_deref() == Some(t.session.as_str()));
            }
            c.evidence = Some(n);
        }
    }
    let by_commit: HashMap<String, &CommitBlame> =
        commits.iter().map(|c| (c.commit.clone(), c)).collect();
    let lines = lines
        .into_iter()
        .map(|mut l| {
            l.origin = origin(&l, file.as_deref(), by_commit.get(&l.commit).copied());
            l
        })
        .collect();
    Ok(Blame {
        file,
        lines,
        commits,
        noted: flushed.written,
        gone: flushed.gone,
    })
}

/// What a record of the stream looks like to a note's check.
struct Seen {
    /// The machine whose stream holds it.
    machine: String,
    digest: String,
    sealed: bool,
    /// Another record names it as `prev`, or it is the newest (nothing can name it yet).
    linked: bool,
    /// Following each record that names the one before as `prev`, from this one to the head of
    /// its chain: how many records came after it, every one sealed; `None` when one on the way
    /// does not match its seal.
    after: Option<usize>,
}

/// The records the notes name, found in the stream (every machine's), with whether each is
/// sealed and linked: one pass from the oldest note's time.
fn records<'a>(
    ledger: &Ledger,
    notes: impl Iterator<Item = &'a Note>,
) -> Result<BTreeMap<String, Vec<Seen>>, BlameError> {
    let wanted: HashSet<String> = notes.map(|n| n.record.ts.clone()).collect();
    let Some(since) = wanted.iter().filter_map(|t| Ts::parse_loose(t).ok()).min() else {
        return Ok(BTreeMap::new());
    };
    let mut found: BTreeMap<String, Vec<Seen>> = BTreeMap::new();
    let mut prevs: HashSet<String> = HashSet::new();
    // Each record's successor: the record that names it as `prev` (its digest, and whether it
    // matches its seal).
    let mut next: HashMap<String, (String, bool)> = HashMap::new();
    // Each chain's newest record (a machine's stream, and apart from it what was imported).
    let mut newest: HashMap<(String, bool), (Ts, String)> = HashMap::new();
    let own = ledger.known_machine_id().unwrap_or_default();
    let replicas = ledger.root().join(crate::ledger::replica::MACHINES_DIR);
    let local = ledger.local_root();
    ledger.visit_all(Some(since), &mut |f| {
        if let Some(p) = &f.record.prev {
            prevs.insert(p.clone());
            next.insert(p.clone(), (crate::ledger::frame::hex(&f.digest), f.sealed));
        }
        let machine = f
            .segment
            .strip_prefix(&replicas)
            .ok()
            .and_then(|p| p.components().next())
            .map_or_else(
                || own.clone(),
                |c| c.as_os_str().to_string_lossy().into_owned(),
            );
        let imported = f
            .segment
            .parent()
            .is_some_and(|d| d.ends_with(crate::ledger::imported::DIR));
        // This machine's local-only ledger (projects that opted out of sync) is a chain of
        // its own beside the stream.
        let chain = if f.segment.starts_with(&local) {
            format!("{machine}/{}", crate::ledger::local::LOCAL_DIR)
        } else {
            machine.clone()
        };
        let head = newest
            .entry((chain, imported))
            .or_insert((f.record.ts, String::new()));
        if head.1.is_empty() || f.record.ts > head.0 {
            *head = (f.record.ts, crate::ledger::frame::hex(&f.digest));
        }
        let ts = f.record.ts.to_string();
        if wanted.contains(&ts) {
            found.entry(ts).or_default().push(Seen {
                machine,
                digest: crate::ledger::frame::hex(&f.digest),
                sealed: f.sealed,
                linked: false,
                after: None,
            });
        }
    })?;
    let heads: HashSet<String> = newest.into_values().map(|(_, d)| d).collect();
    for v in found.values_mut() {
        for s in v {
            s.linked = prevs.contains(&s.digest) || heads.contains(&s.digest);
            s.after = chain_after(&s.digest, &next);
        }
    }
    Ok(found)
}

/// How many records follow `digest` to the head of its chain, each naming the one before and
/// each sealed; `None` when one is not (the chain after the record is broken).
fn chain_after(digest: &str, next: &HashMap<String, (String, bool)>) -> Option<usize> {
    let mut cur = digest;
    let mut n = 0;
    while let Some((d, sealed)) = next.get(cur) {
        if !sealed || n > next.len() {
            return None;
        }
        n += 1;
        cur = d;
    }
    Some(n)
}

/// The machines whose notes this machine can check: itself, and those the person trusted.
struct Signers {
    /// This machine's id and public key.
    own: Option<(String, String)>,
    trusted: Vec<crate::secrets::machine::Trusted>,
}

impl Signers {
    fn of(ledger: &Ledger, secrets_dir: &Path) -> Signers {
        let own = ledger.known_machine_id().zip(
            MachineKey::load(secrets_dir)
                .ok()
                .flatten()
                .map(|k| k.public()),
        );
        let trusted = TrustList::of_root(ledger.root(), secrets_dir)
            .machines()
            .unwrap_or_default();
        Signers { own, trusted }
    }

    /// The public key of `machine`, and whether it is this machine; or why there is none.
    fn key_of<'m>(&self, machine: &'m str) -> Result<(&str, bool), NoKey<'m>> {
        if let Some((id, public)) = &self.own
            && id == machine
        {
            return Ok((public, true));
        }
        if machine.is_empty() {
            return Err(NoKey::NoMachine);
        }
        self.trusted
            .iter()
            .find(|t| t.id == machine)
            .map(|t| (t.key.as_str(), false))
            .ok_or(NoKey::Untrusted(machine))
    }
}

/// Why a note's signature cannot be checked: the key it needs is not known here.
#[derive(Debug)]
enum NoKey<'m> {
    /// It names no machine.
    NoMachine,
    /// Signed as a machine that is not this one and that the person has not trusted.
    Untrusted(&'m str),
}

impl std::fmt::Display for NoKey<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoKey::NoMachine => {
                write!(
                    f,
                    "it names no machine (an older note format, or not trail's)"
                )
            }
            NoKey::Untrusted(machine) => write!(
                f,
                "it is signed as machine {machine}, which is not this machine and which the \
                 person has not trusted here (`trail sync --trust-machine {machine}`)"
            ),
        }
    }
}

/// Whether a note is to be believed.
fn judge(
    text: &str,
    parsed: Option<Note>,
    signers: &Signers,
    records: &BTreeMap<String, Vec<Seen>>,
) -> (NoteState, Option<Note>) {
    let forged = |why: &str| (NoteState::Forged { why: why.into() }, None);
    let Some(n) = parsed else {
        return forged(&format!(
            "the note is not trail's ({} bytes that do not read as one)",
            text.len()
        ));
    };
    let (public, here) = match signers.key_of(&n.machine) {
        Ok(k) => k,
        Err(why) => return forged(&why.to_string()),
    };
    if !n.verifies(public) {
        return forged(&format!(
            "its signature is not machine {}'s key's: written or changed by someone else",
            n.machine
        ));
    }
    let Some(seen) = records
        .get(&n.record.ts)
        .filter(|v| v.iter().any(|s| s.machine == n.machine))
    else {
        return forged(&format!(
            "the pulse it names ({}) is not in machine {}'s stream{}",
            n.record.ts,
            n.machine,
            if here {
                ""
            } else {
                " (has `trail sync` brought it here?)"
            }
        ));
    };
    let seen: Vec<&Seen> = seen.iter().filter(|s| s.machine == n.machine).collect();
    let Some(r) = seen.iter().find(|s| s.digest == n.record.digest) else {
        return forged(
            "the pulse at its time has another digest: the note or the stream was changed",
        );
    };
    if !r.sealed {
        return forged("the pulse it names does not match its seal");
    }
    if !r.linked {
        return forged(
            "no record of the stream links to the pulse it names: it is outside the chain",
        );
    }
    let Some(after) = r.after else {
        return forged(
            "a record after the pulse it names does not match its seal: the chain is broken \
             (`trail verify` says where)",
        );
    };
    let machine = n.machine.clone();
    (
        NoteState::Verified {
            chain: after,
            machine,
            here,
        },
        Some(n),
    )
}

/// A line's origin, from its commit's note.
fn origin(l: &LineBlame, file: Option<&str>, c: Option<&CommitBlame>) -> Origin {
    if l.commit.bytes().all(|b| b == b'0') {
        return Origin::Uncommitted;
    }
    let Some(n) = c.and_then(|c| c.evidence.as_ref()) else {
        return Origin::Unknown;
    };
    let key = crate::proof::line_key(&l.text);
    match (file, key) {
        (Some(f), Some(k)) => match n.wrote(f, &k) {
            Some(e) => Origin::Agent {
                tool: e.tool.clone(),
                at: e.at.clone(),
                tool_use_id: e.tool_use_id.clone(),
            },
            None => Origin::Person,
        },
        _ => Origin::Person,
    }
}

/// `git blame --porcelain` of `path` (relative to `root`), parsed: each line with its commit,
/// and each commit once.
fn porcelain(
    root: &Path,
    path: &str,
    line: Option<u32>,
) -> Result<(Vec<LineBlame>, Vec<CommitBlame>), BlameError> {
    let mut cmd = crate::git::command(root);
    cmd.args(["blame", "--porcelain", "--no-textconv"]);
    let range;
    if let Some(n) = line {
        range = format!("{n},{n}");
        cmd.args(["-L", &range]);
    }
    let out = cmd.args(["--", path]).output().map_err(BlameError::Spawn)?;
    if !out.status.success() {
        return Err(BlameError::Git {
            target: path.into(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = Vec::new();
    let mut commits: Vec<CommitBlame> = Vec::new();
    let mut current: Option<(String, u32)> = None;
    for l in text.lines() {
        if let Some(content) = l.strip_prefix('\t') {
            if let Some((commit, n)) = current.take() {
                lines.push(LineBlame {
                    line: n,
                    text: content.to_string(),
                    commit,
                    origin: Origin::Unknown,
                });
            }
            continue;
        }
        let mut words = l.split(' ');
        let first = words.next().unwrap_or_default();
        if first.len() >= 40 && first.bytes().all(|b| b.is_ascii_hexdigit()) {
            let n = words.nth(1).and_then(|w| w.parse().ok()).unwrap_or(0);
            if !commits.iter().any(|c| c.commit == first) {
                commits.push(CommitBlame {
                    commit: first.to_string(),
                    summary: String::new(),
                    author: String::new(),
                    note: NoteState::None,
                    carried_from: None,
                    evidence: None,
                    trailer: None,
                });
            }
            current = Some((first.to_string(), n));
        } else if let Some((commit, _)) = &current
            && let Some(c) = commits.iter_mut().find(|c| &c.commit == commit)
        {
            if let Some(a) = l.strip_prefix("author ") {
                c.author = a.to_string();
            } else if let Some(s) = l.strip_prefix("summary ") {
                c.summary = s.to_string();
            }
        }
    }
    Ok((lines, commits))
}

/// One commit named by `rev`: its id, author and subject.
fn describe(top: &Path, rev: &str) -> Result<CommitBlame, BlameError> {
    if rev.starts_with('-') {
        return Err(BlameError::Git {
            target: rev.into(),
            stderr: "not a revision".into(),
        });
    }
    let out = crate::git::command(top)
        .args([
            "log",
            "-1",
            "--no-show-signature",
            "--format=%H%x00%an%x00%s",
            rev,
            "--",
        ])
        .output()
        .map_err(BlameError::Spawn)?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.trim_end().splitn(3, '\0');
    match (
        out.status.success(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) {
        (true, Some(id), Some(author), Some(summary)) if !id.is_empty() => Ok(CommitBlame {
            commit: id.to_string(),
            summary: summary.to_string(),
            author: author.to_string(),
            note: NoteState::None,
            carried_from: None,
            evidence: None,
            trailer: None,
        }),
        _ => Err(BlameError::Git {
            target: rev.into(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        }),
    }
}
