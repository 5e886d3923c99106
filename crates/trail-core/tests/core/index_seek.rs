//! `trail log --since` through the index (LedgerPulse §10) gives what a read without it gives,
//! whatever the index files hold: current, stale, cut short, pointing into records, lying about
//! one entry, or left from another stream; across rotated segments; and it leaves each index it
//! used describing its segment.

use proptest::prelude::*;
use trail_core::ledger::frame;
use trail_core::ledger::handle::index_path_for;
use trail_core::ledger::index;
use trail_core::ledger::query::{Found, Query};
use trail_core::ledger::record::{Focus, Intent, Record, RecordType, facts_body};
use trail_core::ledger::{Ledger, LedgerOptions};
use trail_core::time::Ts;

/// What a segment's index file holds before the query.
#[derive(Clone, Copy, Debug)]
enum IndexFile {
    Missing,
    Current,
    /// Built when the segment was shorter.
    Stale,
    /// A current index cut short at some byte.
    Truncated(usize),
    /// Every offset moved into the record it named.
    IntoRecords(u64),
    /// One entry names another entry's record.
    OneLie(usize),
    /// The index of a different stream.
    Foreign,
}

fn index_file() -> impl Strategy<Value = IndexFile> {
    prop_oneof![
        Just(IndexFile::Missing),
        Just(IndexFile::Current),
        Just(IndexFile::Stale),
        any::<usize>().prop_map(IndexFile::Truncated),
        (1u64..60).prop_map(IndexFile::IntoRecords),
        any::<usize>().prop_map(IndexFile::OneLie),
        Just(IndexFile::Foreign),
    ]
}

/// Records stamped in order with gaps of one to four seconds.
fn records() -> impl Strategy<Value = Vec<Record>> {
    let one = (
        prop::sample::select(vec![
            RecordType::Pulse,
            RecordType::Pulse,
            RecordType::Checkpoint,
            RecordType::Handoff,
        ]),
        0usize..3,
        1i64..5,
    );
    prop::collection::vec(one, 1..40).prop_map(|rs| {
        let mut t = 1_700_000_000_000_000i64;
        rs.into_iter()
            .enumerate()
            .map(|(i, (kind, proj, gap))| {
                t += gap * 1_000_000;
                let mut r = Record::new(kind, Ts::from_micros(t));
                r.focus = vec![Focus {
                    proj: format!("p{proj}"),
                    topic: "t".into(),
                }];
                r.intent = Some(Intent {
                    primary: "continue".into(),
                    summary: format!("record {i}"),
                });
                r.body = facts_body(&[format!("fact {i}")]);
                r
            })
            .collect()
    })
}

/// Sealed and chained bytes of `rs`.
fn stream(rs: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut prev = [0u8; 32];
    for r in rs {
        let mut r = r.clone();
        r.prev = Some(frame::hex(&prev));
        let (b, d) = frame::encode(&r);
        out.extend_from_slice(&b);
        prev = d;
    }
    out
}

/// The bytes of an index built from `bytes` as a stream.
fn index_of(dir: &std::path::Path, bytes: &[u8]) -> Vec<u8> {
    let seg = dir.join("scratch.log.md");
    let idx = dir.join("scratch.idx.json");
    std::fs::write(&seg, bytes).unwrap();
    index::rebuild(&seg, &idx).unwrap();
    std::fs::read(&idx).unwrap()
}

/// Put `what` in place as the index of the segment at `seg`, holding `bytes`.
fn plant(
    dir: &std::path::Path,
    seg: &std::path::Path,
    bytes: &[u8],
    what: IndexFile,
    foreign: &[u8],
) {
    let idx = index_path_for(seg);
    let current = || index_of(dir, bytes);
    let planted = match what {
        IndexFile::Missing => return,
        IndexFile::Current => current(),
        IndexFile::Stale => index_of(dir, &bytes[..bytes.len() / 2]),
        IndexFile::Truncated(at) => {
            let b = current();
            b[..at % b.len()].to_vec()
        }
        IndexFile::IntoRecords(by) => {
            let mut i = index::parse(&current()).unwrap();
            for off in i.offsets.values_mut() {
                *off += by;
            }
            serde_json::to_vec(&i).unwrap()
        }
        IndexFile::OneLie(pick) => {
            let mut i = index::parse(&current()).unwrap();
            let offs: Vec<u64> = i.offsets.values().copied().collect();
            if let Some(v) = i.offsets.values_mut().nth(pick % offs.len().max(1)) {
                *v = offs[(pick / 7) % offs.len()];
            }
            serde_json::to_vec(&i).unwrap()
        }
        IndexFile::Foreign => index_of(dir, foreign),
    };
    std::fs::write(idx, planted).unwrap();
}

fn key(f: &Found) -> (std::path::PathBuf, u64, bool, Record) {
    (f.segment.clone(), f.offset, f.sealed, f.record.clone())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn since_through_the_index_is_since_without_it(
        rs in records(),
        other in records(),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..3),
        files in prop::collection::vec(index_file(), 4),
        reserve in any::<bool>(),
        since_at in any::<prop::sample::Index>(),
        shift in -2i64..3,
        limit in 1usize..45,
        proj in prop::option::of(0usize..3),
        kind in prop::option::of(prop::sample::select(vec![RecordType::Pulse, RecordType::Handoff])),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::open(dir.path().join("ledger"), LedgerOptions::new(dir.path().join("s")));
        std::fs::create_dir_all(ledger.archive_dir()).unwrap();
        // Rotated segments, oldest first, then the live stream.
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c.index(rs.len() + 1)).collect();
        cuts.sort_unstable();
        cuts.push(rs.len());
        let mut from = 0;
        for (n, &to) in cuts.iter().enumerate() {
            let live = n == cuts.len() - 1;
            let seg = if live {
                ledger.stream_path()
            } else {
                ledger.archive_dir().join(format!("pulses-{n:04}.log.md"))
            };
            let mut bytes = stream(&rs[from..to]);
            if live && reserve {
                bytes.extend_from_slice(&[b' '; 100]);
                bytes.push(b'\n');
            }
            std::fs::write(&seg, &bytes).unwrap();
            plant(dir.path(), &seg, &bytes, files[n], &stream(&other));
            from = to;
        }
        let t = rs[since_at.index(rs.len())].ts.as_micros() + shift * 1_000_000;
        let mut q = Query {
            since: Some(Ts::from_micros(t)),
            limit,
            kind,
            proj: proj.map(|p| format!("p{p}")),
            scan: true,
        };
        let scan: Vec<_> = ledger.query(&q).unwrap().iter().map(key).collect();
        q.scan = false;
        for _ in 0..2 {
            // The second time, through whatever index the first one left.
            let seek: Vec<_> = ledger.query(&q).unwrap().iter().map(key).collect();
            prop_assert_eq!(&seek, &scan);
            let live = ledger.stream_path();
            let file = std::fs::File::open(&live).unwrap();
            let len = file.metadata().unwrap().len();
            let idx = index::load(&ledger.index_path()).expect("the live stream has an index");
            prop_assert!(index::plausible(&idx, &file, len));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// `trail report` folds the stream through `visit_all`: whatever the index files hold, it
    /// sees every record at or after `since` once, the ones a read without the index gives.
    #[test]
    fn visiting_sees_what_an_unlimited_scan_sees(
        rs in records(),
        cut in any::<prop::sample::Index>(),
        file in index_file(),
        since_at in prop::option::of(any::<prop::sample::Index>()),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let ledger = Ledger::open(dir.path().join("ledger"), LedgerOptions::new(dir.path().join("s")));
        std::fs::create_dir_all(ledger.archive_dir()).unwrap();
        let cut = cut.index(rs.len() + 1);
        let archived = ledger.archive_dir().join("pulses-0000.log.md");
        std::fs::write(&archived, stream(&rs[..cut])).unwrap();
        let live = stream(&rs[cut..]);
        std::fs::write(ledger.stream_path(), &live).unwrap();
        plant(dir.path(), &ledger.stream_path(), &live, file, &stream(&rs));
        let since = since_at.map(|i| rs[i.index(rs.len())].ts);
        let q = Query { since, limit: usize::MAX, kind: None, proj: None, scan: true };
        let mut want: Vec<_> = ledger.query(&q).unwrap().iter().map(key).collect();
        let mut got = Vec::new();
        ledger.visit_all(since, &mut |f| got.push(key(&f))).unwrap();
        want.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        got.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
        prop_assert_eq!(got.len(), rs.iter().filter(|r| since.is_none_or(|s| r.ts >= s)).count());
        prop_assert_eq!(got, want);
    }
}
