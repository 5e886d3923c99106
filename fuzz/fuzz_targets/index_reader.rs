//! Any bytes as an index file, checked against any bytes as its stream: never a panic, and an
//! index is only trusted when plausible.
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_ledger::index;

fuzz_target!(|data: &[u8]| {
    let split = data.first().copied().unwrap_or(0) as usize % (data.len().max(1));
    let (idx_bytes, stream) = data.split_at(split.min(data.len()));
    if let Some(idx) = index::parse(idx_bytes) {
        let _ = index::plausible(&idx, stream, stream.len() as u64);
        let _ = idx.len();
    }
});
