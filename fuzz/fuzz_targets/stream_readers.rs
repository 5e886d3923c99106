//! Differential: the forward and reverse readers must split any bytes into the same records.
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_core::ledger::reader::{ForwardReader, ReverseReader};

fuzz_target!(|data: &[u8]| {
    let mut forward = Vec::new();
    let mut fr = ForwardReader::new(data, 0, data.len() as u64);
    while let Some(seg) = fr.next_segment().unwrap() {
        forward.push(seg);
    }
    let mut reverse = Vec::new();
    let mut rr = ReverseReader::new(data, data.len() as u64);
    while let Some(seg) = rr.next_segment().unwrap() {
        reverse.push(seg);
    }
    reverse.reverse();
    assert_eq!(forward, reverse);
});
