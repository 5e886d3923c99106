//! Many machines, one trail: this machine's id, the durable snapshot `trail sync` publishes, and
//! the other machines' ledgers it brought back (DESIGN, principle 12).
//!
//! ```text
//! $TRAIL_HOME/machine-id                 this machine's id (16 hex digits, made once)
//! $TRAIL_HOME/machines/<id>/stream/...   another machine's segments, as that machine wrote
//!                                        them: pulses.log.md, archive/, imported/
//! ```
//!
//! A replica is a ledger of its own, read with the same readers as the local one: its chain is
//! the other machine's, never joined to ours, so nothing is merged line by line and nothing can
//! conflict. Only `trail sync` (the `trail-sync` crate) writes under `machines/`, and only what
//! it verified first (a signed, grow-only history). Readers that show one timeline (resume,
//! the SessionStart packet) fold every machine's records newest first
//! ([`Ledger::rehydrate`]); `verify` checks each replica's chain ([`Ledger::verify_replica`]).
//! A replica carries no anchor: the anchor is MACed with a key that never leaves its machine,
//! and the machine's signature on what it published stands in for it.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::anchor::Found;
use super::archive;
use super::error::{LedgerError, Result};
use super::handle::{Ledger, STREAM_FILE};
use super::verify::{Problem, Report, Verifier};
use crate::fsutil;

/// The directory of the other machines' ledgers, under the personal root.
pub const MACHINES_DIR: &str = "machines";
/// This machine's id, under the personal root.
pub const MACHINE_ID_FILE: &str = "machine-id";
/// Hex digits in a machine id.
pub const MACHINE_ID_LEN: usize = 16;

/// Whether `id` is a machine id: [`MACHINE_ID_LEN`] lowercase hex digits (so it is a safe file
/// name and git ref component whoever wrote it).
pub fn is_machine_id(id: &str) -> bool {
    id.len() == MACHINE_ID_LEN && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// One file of a durable snapshot: its name under `stream/`, opened, and how many of its bytes
/// belong to the snapshot.
#[derive(Debug)]
pub struct SnapshotFile {
    /// `pulses.log.md`, `archive/pulses-….log.md` or `imported/….log.md`.
    pub name: String,
    /// Opened while the stream lock was held, so a rotation that moves it afterwards does not
    /// change what is read.
    pub file: File,
    pub len: u64,
}

impl Ledger {
    /// This machine's id, made (16 random hex digits) the first time it is asked for.
    pub fn machine_id(&self) -> Result<String> {
        let p = self.root().join(MACHINE_ID_FILE);
        if let Some(id) = read_machine_id(&p)? {
            return Ok(id);
        }
        fsutil::ensure_dir(self.root()).map_err(LedgerError::io("create", self.root()))?;
        let mut bytes = [0u8; MACHINE_ID_LEN / 2];
        File::open("/dev/urandom")
            .and_then(|mut f| f.read_exact(&mut bytes))
            .map_err(LedgerError::io("read", Path::new("/dev/urandom")))?;
        let id = crate::text::hex(&bytes);
        // Made once: a second process racing here keeps the first id written.
        let mut tmp = tempfile::Builder::new()
            .prefix(".machine-id.tmp-")
            .tempfile_in(self.root())
            .map_err(LedgerError::io("create", self.root()))?;
        tmp.write_all(format!("{id}\n").as_bytes())
            .and_then(|()| tmp.as_file().sync_all())
            .map_err(LedgerError::io("write", &p))?;
        match tmp.persist_noclobber(&p) {
            Ok(_) => {
                fsutil::sync_dir(self.root()).map_err(LedgerError::io("sync", self.root()))?;
                Ok(id)
            }
            Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => read_machine_id(&p)?
                .ok_or_else(|| LedgerError::io("read", &p)(io::Error::other("unreadable id"))),
            Err(e) => Err(LedgerError::io("create", &p)(e.error)),
        }
    }

    /// This machine's id if one was ever made (reading it makes nothing).
    pub fn known_machine_id(&self) -> Option<String> {
        read_machine_id(&self.root().join(MACHINE_ID_FILE))
            .ok()
            .flatten()
    }

    /// Where machine `id`'s replica lives.
    pub fn replica_root(&self, id: &str) -> PathBuf {
        self.root().join(MACHINES_DIR).join(id)
    }

    /// The other machines' ledgers `trail sync` brought here, by id. Empty (one failed
    /// `read_dir`) when this machine never synced.
    pub fn replicas(&self) -> Result<Vec<(String, Ledger)>> {
        let dir = self.root().join(MACHINES_DIR);
        let rd = match std::fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(LedgerError::io("read", &dir)(e)),
        };
        let own = self.known_machine_id();
        let mut out = Vec::new();
        for entry in rd {
            let entry = entry.map_err(LedgerError::io("read", &dir))?;
            let id = entry.file_name().to_string_lossy().into_owned();
            if !is_machine_id(&id) || own.as_deref() == Some(id.as_str()) {
                continue;
            }
            if !entry.path().join("stream").is_dir() {
                continue;
            }
            out.push((id, Ledger::open(entry.path(), self.opts.clone())));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(out)
    }

    /// What this machine may publish: every rotated and imported segment whole, and the live
    /// stream up to the end of its last complete record, made durable first. Taken under the
    /// stream lock (which finishes an interrupted rotation and sets a torn tail aside), so a
    /// record another process acknowledges later is never half in it.
    pub fn snapshot(&self) -> Result<Vec<SnapshotFile>> {
        let mut st = self
            .writer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let locked = self.lock_stream(&mut st)?;
        st.stream = None;
        st.tail = None;
        let mut out = Vec::new();
        let mut add = |name: String, path: &Path| -> Result<()> {
            let file = File::open(path).map_err(LedgerError::io("open", path))?;
            let len = fsutil::size_of(&file).map_err(LedgerError::io("stat", path))?;
            out.push(SnapshotFile { name, file, len });
            Ok(())
        };
        for p in archive::segments(&self.archive_dir())? {
            add(format!("archive/{}", file_name(&p)), &p)?;
        }
        for p in self.imported_segments()? {
            add(format!("{}/{}", super::imported::DIR, file_name(&p)), &p)?;
        }
        let live = locked
            .file
            .try_clone()
            .map_err(LedgerError::io("open", &self.stream_path()))?;
        let len = locked.tail.len;
        drop(locked);
        drop(st);
        // Everything up to `len` was written before this fsync began: it is durable after it,
        // so what is published can never be lost here and rewritten differently.
        live.sync_data()
            .map_err(LedgerError::io("sync", &self.stream_path()))?;
        if len > 0 {
            out.push(SnapshotFile {
                name: STREAM_FILE.to_string(),
                file: live,
                len,
            });
        }
        Ok(out)
    }

    /// Verify a replica: every segment's seals, chain and order, as [`Ledger::verify`] does,
    /// without the anchor (the other machine's signature on what it published vouches for the
    /// head instead; `trail sync` checked it before writing a byte here).
    pub fn verify_replica(&self, progress: &mut dyn FnMut(u64, u64)) -> Result<Report> {
        let mut v = Verifier::new(&Found::Missing);
        self.verify_segments(&mut v, progress)?;
        self.verify_imported(&mut v)?;
        v.report
            .findings
            .retain(|f| f.problem != Problem::Unanchored);
        v.report.anchor.status = "signed";
        Ok(v.report)
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

fn read_machine_id(p: &Path) -> Result<Option<String>> {
    match fsutil::read_capped(p, 256) {
        Ok(b) => {
            let id = String::from_utf8_lossy(&b).trim().to_string();
            if is_machine_id(&id) {
                Ok(Some(id))
            } else {
                Err(LedgerError::io("read", p)(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("`{id}` is not a machine id (16 lowercase hex digits)"),
                )))
            }
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(LedgerError::io("read", p)(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LedgerOptions;

    #[test]
    fn a_machine_id_is_made_once_and_kept() {
        let d = tempfile::tempdir().unwrap();
        let l = Ledger::open(d.path(), LedgerOptions::new(d.path().join("s")));
        assert_eq!(l.known_machine_id(), None);
        let id = l.machine_id().unwrap();
        assert!(is_machine_id(&id), "{id}");
        assert_eq!(l.machine_id().unwrap(), id);
        assert_eq!(l.known_machine_id(), Some(id));
    }

    fn pulse(l: &Ledger, topic: &str, next: &str) {
        let mut r = crate::Record::new(crate::RecordType::Pulse, crate::time::Ts::now());
        r.focus = vec![crate::Focus {
            proj: "shop".into(),
            topic: topic.into(),
        }];
        r.next = vec![next.into()];
        l.append(r).unwrap();
    }

    #[test]
    fn every_machine_is_one_timeline_and_a_compaction_ends_only_its_own_chain() {
        use crate::rehydrate::RehydrateOptions;
        let d = tempfile::tempdir().unwrap();
        let opts = LedgerOptions::new(d.path().join("s"));
        let here = Ledger::open(d.path().join("here"), opts.clone());
        here.machine_id().unwrap();
        let there = Ledger::open(here.replica_root("00000000000000aa"), opts);
        pulse(&there, "api", "old step there");
        pulse(&here, "cart", "old step here");
        pulse(&here, "ship", "before the rotation there");
        // A rotation on the other machine: a compaction record summarises its past.
        there.rotate(true).unwrap();
        pulse(&there, "api", "new step there");
        pulse(&here, "cart", "new step here");
        pulse(&here, "tax", "only here");
        let all = here.rehydrate(&RehydrateOptions::default()).unwrap();
        let next: Vec<(&str, &str)> = all
            .threads
            .iter()
            .map(|t| (t.topic.as_str(), t.next[0].as_str()))
            .collect();
        assert_eq!(
            next,
            [
                ("tax", "only here"),
                ("cart", "new step here"),
                ("api", "new step there"),
                ("ship", "before the rotation there"),
            ],
            "newest first across machines, each thread's newest next step; the other \
             machine's compaction did not end this machine's chain"
        );
        let own = here
            .rehydrate(&RehydrateOptions {
                own_only: true,
                ..RehydrateOptions::default()
            })
            .unwrap();
        assert!(own.threads.iter().all(|t| t.topic != "api"));
        // A record of the other machine, by its time (a search hit's id).
        let theirs = there
            .query(&crate::query::Query {
                limit: 1,
                ..Default::default()
            })
            .unwrap()[0]
            .record
            .ts;
        assert!(here.around(theirs, 0, 0).unwrap().is_none());
        let found = here.around_any(theirs, 0, 0).unwrap().unwrap();
        assert_eq!(found.record.record.next, ["new step there"]);
        // The replica verifies on its own, without an anchor.
        let r = there.verify_replica(&mut |_, _| {}).unwrap();
        assert!(r.ok(), "{:?}", r.findings);
        assert_eq!(r.segments, 2);
    }

    #[test]
    fn another_machines_records_of_the_project_count_as_its_own_whatever_their_path_id() {
        use crate::project::{ID_TAG, Project};
        use crate::rehydrate::RehydrateOptions;
        let d = tempfile::tempdir().unwrap();
        let opts = LedgerOptions::new(d.path().join("s"));
        let here = Ledger::open(d.path().join("here"), opts.clone());
        here.machine_id().unwrap();
        let there = Ledger::open(here.replica_root("00000000000000bb"), opts);
        let tagged = |l: &Ledger, topic: &str, id: &str| {
            let mut r = crate::Record::new(crate::RecordType::Pulse, crate::time::Ts::now());
            r.focus = vec![crate::Focus {
                proj: "shop".into(),
                topic: topic.into(),
            }];
            r.next = vec![format!("{topic} next")];
            r.tags = vec![format!("{ID_TAG}{id}")];
            l.append(r).unwrap();
        };
        // The same repository cloned at another path there: another id.
        tagged(&there, "laptop", "aaaaaaaaaaaa");
        // Here, a same-named repository elsewhere on this machine, and this one.
        tagged(&here, "elsewhere", "cccccccccccc");
        tagged(&here, "desk", "bbbbbbbbbbbb");
        let project = Project {
            name: "shop".into(),
            id: "bbbbbbbbbbbb".into(),
            root: d.path().to_path_buf(),
            branch: None,
        };
        let scoped = here
            .rehydrate_scoped(&project, &RehydrateOptions::default())
            .unwrap();
        let topics: Vec<&str> = scoped
            .own
            .threads
            .iter()
            .map(|t| t.topic.as_str())
            .collect();
        assert_eq!(
            topics,
            ["desk", "laptop"],
            "the laptop's work is this project's; this machine's other repository is not"
        );
    }

    #[test]
    fn only_hex_ids_name_machines() {
        assert!(is_machine_id("0123456789abcdef"));
        for bad in [
            "0123456789ABCDEF",
            "../../etc/passwd",
            "0123456789abcde",
            "",
        ] {
            assert!(!is_machine_id(bad), "{bad}");
        }
    }
}
