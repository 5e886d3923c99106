//! The ledger that never leaves this machine: the records of a project that opted out of sync.
//!
//! ```text
//! $TRAIL_HOME/local/stream/...      a ledger of its own: its chain, its anchor, its archives
//! ```
//!
//! `trail sync` publishes the stream directory's segments byte for byte, signed, so a record
//! cannot be held back from them after it is written: a project's records are kept out by
//! never being written there. A caller that knows the project opted out (trail-core's config
//! reads the marker) opens the ledger with [`LedgerOptions::local_only`](super::LedgerOptions),
//! and every append goes here instead. Nothing under `local/` is published; readers that show
//! one timeline fold it in beside the other machines' replicas ([`Ledger::sources`]), and
//! `trail verify` checks its chain and its anchor as it checks the stream's.

use std::path::PathBuf;

use super::error::Result;
use super::handle::Ledger;

/// The local-only ledger's directory, under the personal root.
pub const LOCAL_DIR: &str = "local";

impl Ledger {
    /// Where the local-only ledger lives.
    pub fn local_root(&self) -> PathBuf {
        self.root().join(LOCAL_DIR)
    }

    /// The local-only ledger, if anything was ever written to it.
    pub fn local(&self) -> Option<Ledger> {
        self.local_root()
            .join("stream")
            .is_dir()
            .then(|| self.open_local())
    }

    /// The ledger an append goes to: this one, or its local-only ledger when the caller said
    /// the project opted out of sync.
    pub fn writes_to(&self) -> &Ledger {
        if !self.opts.local_only {
            return self;
        }
        self.local_writer
            .get_or_init(|| Box::new(self.open_local()))
    }

    /// The local-only ledger, with this one's options (it writes to itself).
    fn open_local(&self) -> Ledger {
        let mut opts = self.opts.clone();
        opts.local_only = false;
        Ledger::open(self.local_root(), opts)
    }

    /// Every ledger whose records readers fold in beside this one's: the local-only ledger,
    /// then the other machines' replicas (ids as [`Ledger::replicas`] gives them; the local
    /// one is [`LOCAL_DIR`]).
    pub fn sources(&self) -> Result<Vec<(String, Ledger)>> {
        let mut out: Vec<(String, Ledger)> = self
            .local()
            .map(|l| (LOCAL_DIR.to_string(), l))
            .into_iter()
            .collect();
        out.extend(self.replicas()?);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LedgerOptions;
    use crate::query::Query;

    fn pulse(l: &Ledger, topic: &str) {
        let mut r = crate::Record::new(crate::RecordType::Pulse, crate::time::Ts::now());
        r.focus = vec![crate::Focus {
            proj: "shop".into(),
            topic: topic.into(),
        }];
        l.append(r).unwrap();
    }

    #[test]
    fn a_local_only_ledger_writes_beside_the_stream_and_is_read_with_it() {
        let d = tempfile::tempdir().unwrap();
        let opts = LedgerOptions::new(d.path().join("s"));
        let shared = Ledger::open(d.path().join("home"), opts.clone());
        pulse(&shared, "published");
        assert!(shared.local().is_none(), "nothing local was written yet");
        let private = Ledger::open(
            d.path().join("home"),
            LedgerOptions {
                local_only: true,
                ..opts
            },
        );
        pulse(&private, "kept");

        // The snapshot `trail sync` publishes holds only the stream's record.
        let snapshot = shared.snapshot().unwrap();
        let published: u64 = snapshot.iter().map(|f| f.len).sum();
        let stream = std::fs::read(shared.stream_path()).unwrap();
        assert!(!String::from_utf8_lossy(&stream).contains("kept"));
        assert!(published > 0);
        // Readers see both, newest first, whichever handle they start from.
        for l in [&shared, &private] {
            let topics: Vec<String> = l
                .query_all(&Query {
                    limit: 10,
                    ..Query::default()
                })
                .unwrap()
                .into_iter()
                .map(|f| f.record.focus[0].topic.clone())
                .collect();
            assert_eq!(topics, ["kept", "published"]);
        }
        // The local ledger is a ledger of its own: its chain and anchor verify.
        let local = shared.local().unwrap();
        let report = local.verify(&mut |_, _| {}).unwrap();
        assert!(report.ok(), "{:?}", report.findings);
        assert_eq!(report.records, 1);
        assert_eq!(report.anchor.status, "anchored");

        // A record changed there is found, and named under `local/` in the whole report.
        let path = local.stream_path();
        let text = std::fs::read_to_string(&path)
            .unwrap()
            .replace("kept", "kapt");
        std::fs::write(&path, text).unwrap();
        let mut whole = shared.verify(&mut |_, _| {}).unwrap();
        assert!(whole.ok());
        whole.add_local(local.verify(&mut |_, _| {}).unwrap());
        assert!(!whole.ok());
        assert!(
            whole.findings.iter().all(|f| f.file.starts_with("local/")),
            "{:?}",
            whole.findings
        );
    }
}
