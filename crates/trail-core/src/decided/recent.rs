//! The decisions of a project, newest first, as the pulse stream holds them: the one way trail
//! reads recent decisions (tiered recovery, the re-anchor packet, fork detection, NOTES.md
//! rebuilt). The stream is the journal every decision reaches ([`crate::decision::record`] writes the
//! trajectory first, then the stream; a rebuild reads both), and reading it from its end stops
//! as soon as enough are found: a session start on a 100 MB stream reads the last few records,
//! not the stream.
//!
//! [`in_trajectory`] reads the project's own journal instead, whole: every decision of the project
//! (a new decision is compared with all of them), where the stream, shared by every project,
//! would be read to its start whenever the project has fewer decisions than asked for.
//!
//! A decision record is what [`super::pulse::record`] writes (tagged `decided`); junction
//! outcomes the hooks record (`/edge approve`) are a person's answer to the gate, not design
//! decisions, and carry no such record.

use std::path::Path;

use super::pulse::{self, Carried};
use crate::ledger::frame::{Frame, Seal};
use crate::ledger::reader::{ReverseReader, open_if_exists};
use crate::ledger::{Ledger, LedgerError, Result};
use crate::project::Project;

/// The newest `limit` decisions of `project` (all projects when `None`), newest first, reading
/// at most `max_records` records back across rotated segments. Damaged records are skipped.
pub fn recent(
    ledger: &Ledger,
    project: Option<&Project>,
    limit: usize,
    max_records: usize,
) -> Result<Vec<Carried>> {
    let mut scan = Scan {
        tag: memchr::memmem::Finder::new(pulse::TAG.as_bytes()),
        project_id: project.map(|p| p.id.as_str()),
        limit,
        max_records,
        read: 0,
        out: Vec::new(),
    };
    let mut segments = ledger.segments()?;
    // A project that opted out of sync keeps its decisions in the local-only ledger, read
    // first: the newest it has are there.
    if let Some(local) = ledger.local() {
        segments.extend(local.segments()?);
    }
    segments.reverse();
    for path in segments {
        let Some(file) = open_if_exists(&path).map_err(LedgerError::io("open", &path))? else {
            continue;
        };
        if scan.segment(&file, &path)? {
            break;
        }
    }
    Ok(scan.out)
}

impl Carried {
    /// How a decision is named in a tight space: `[id] title`, the title cut to `title_chars`.
    pub fn identifier(&self, title_chars: usize) -> String {
        format!(
            "[{}] {}",
            self.decision.id,
            crate::text::one_line(&self.decision.title, title_chars)
        )
    }

    /// What it says beyond its title, a line each: the decision, its rationale, its evidence,
    /// its test scenarios, its bead.
    pub fn facts(&self) -> Vec<String> {
        let d = &self.decision;
        let mut out = vec![
            format!("decision: {}", d.decision),
            format!("rationale: {}", d.rationale),
        ];
        for e in &d.evidence {
            out.push(match e.quote.as_deref().filter(|q| !q.trim().is_empty()) {
                Some(q) => format!(
                    "evidence: `{}` {}",
                    crate::text::one_line(q, 200),
                    e.citation
                ),
                None => format!("evidence: {}", e.citation),
            });
        }
        out.extend(d.tests.iter().map(|t| format!("test: {t}")));
        out.extend(d.bead.iter().map(|b| format!("bead: {b}")));
        out
    }

    /// Everything it says, in one text (what a query is matched against).
    pub fn text(&self) -> String {
        let mut s = self.decision.title.clone();
        for f in self.facts() {
            s.push('\n');
            s.push_str(&f);
        }
        s
    }
}

/// Every decision of the project at `root` its trajectory holds, newest first (lines that are
/// not entries are skipped: the stream holds the same decisions).
pub fn in_trajectory(root: &Path) -> Result<Vec<Carried>, crate::file_error::FileError> {
    let read = crate::trajectory::journal::read(root, None)?;
    let mut out: Vec<Carried> = read
        .items
        .into_iter()
        .filter_map(|(_, e)| {
            let ts = e.ts;
            match e.body {
                crate::trajectory::Body::Decision(decision) => Some(Carried { ts, decision }),
                _ => None,
            }
        })
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.ts));
    Ok(out)
}

struct Scan<'a> {
    tag: memchr::memmem::Finder<'static>,
    project_id: Option<&'a str>,
    limit: usize,
    max_records: usize,
    read: usize,
    out: Vec<Carried>,
}

impl Scan<'_> {
    /// One segment, newest record first; true when no older record is needed.
    fn segment(&mut self, file: &std::fs::File, path: &Path) -> Result<bool> {
        let len = crate::fsutil::size_of(file).map_err(LedgerError::io("stat", path))?;
        let mut rr = ReverseReader::new(file, len);
        while let Some((offset, seg)) = rr.next_ref().map_err(LedgerError::io("read", path))? {
            if self.out.len() >= self.limit || self.read >= self.max_records {
                return Ok(true);
            }
            self.read += 1;
            // Most records are not decisions: only those that say the tag are parsed.
            if self.tag.find(seg).is_none() {
                continue;
            }
            let f = Frame::split(offset, seg);
            if f.seal == Seal::Mismatch {
                continue;
            }
            let Ok(r) = f.parse() else { continue };
            if let Some(c) = pulse::from_record(&r, self.project_id) {
                self.out.push(c);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::LedgerOptions;
    use crate::ledger::record::{Record, RecordType, facts_body};
    use crate::time::Ts;
    use crate::trajectory::Decision;

    fn project(name: &str, id: &str) -> Project {
        Project {
            name: name.into(),
            id: id.into(),
            root: format!("/{name}").into(),
            branch: None,
        }
    }

    fn decision(id: &str) -> Decision {
        Decision {
            id: id.into(),
            title: format!("title {id}"),
            decision: "d".into(),
            rationale: "r".into(),
            evidence: Vec::new(),
            tests: Vec::new(),
            bead: None,
        }
    }

    #[test]
    fn the_newest_decisions_of_the_project_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::open(
            dir.path().join("ledger"),
            LedgerOptions::new(dir.path().join("secrets")),
        );
        let shop = project("shop", "0123456789ab");
        let other = project("other", "ba9876543210");
        let mut t = 1_800_000_000_000_000;
        let mut next = || {
            t += 1_000;
            Ts::from_micros(t)
        };
        for i in 0..5 {
            ledger
                .append(pulse::record(&shop, next(), &decision(&format!("d-{i}"))))
                .unwrap();
            // Noise between them: another project's decision, a pulse that says "decided" in
            // its text, a junction outcome.
            ledger
                .append(pulse::record(&other, next(), &decision("d-other")))
                .unwrap();
            let mut r = Record::new(RecordType::Pulse, next());
            r.body = facts_body(&["we decided: nothing (a pulse, not a record)".into()]);
            r.tags = vec!["decision".into(), "trail-hook".into()];
            ledger.append(r).unwrap();
        }
        let ids = |v: Vec<Carried>| v.into_iter().map(|c| c.decision.id).collect::<Vec<_>>();
        assert_eq!(
            ids(recent(&ledger, Some(&shop), 3, usize::MAX).unwrap()),
            ["d-4", "d-3", "d-2"]
        );
        assert_eq!(
            ids(recent(&ledger, None, 2, usize::MAX).unwrap()),
            ["d-other", "d-4"]
        );
        // The bound on records read holds whatever the limit.
        assert_eq!(
            ids(recent(&ledger, Some(&shop), 10, 7).unwrap()),
            ["d-4", "d-3"]
        );
        assert_eq!(
            recent(&ledger, Some(&shop), 10, usize::MAX).unwrap().len(),
            5
        );
    }

    #[test]
    fn the_trajectory_gives_every_decision_of_the_project_newest_first() {
        use crate::trajectory::{Body, Entry, journal};
        let dir = tempfile::tempdir().unwrap();
        let secrets = crate::secrets::Secrets::new(dir.path().join(".secrets"), Vec::new());
        let at = |us: i64, body: Body| Entry {
            ts: Ts::from_micros(us),
            ..Entry::now(body, Some("s1"))
        };
        for e in [
            at(2_000_000, Body::Decision(decision("d-2"))),
            at(1_000_000, Body::Decision(decision("d-1"))),
            at(
                3_000_000,
                Body::ForkDetected(crate::trajectory::ForkDetected {
                    kind: "decision".into(),
                    asserted: "a".into(),
                    journal: "b".into(),
                }),
            ),
        ] {
            journal::append(dir.path(), &e, &secrets).unwrap();
        }
        let ids: Vec<String> = in_trajectory(dir.path())
            .unwrap()
            .into_iter()
            .map(|c| c.decision.id)
            .collect();
        assert_eq!(ids, ["d-2", "d-1"]);
        assert!(in_trajectory(&dir.path().join("none")).unwrap().is_empty());
    }
}
