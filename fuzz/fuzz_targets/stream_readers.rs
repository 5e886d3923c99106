//! Differential: every stream reader (forward, reverse, split_all, the tail scan, the index,
//! verify) must find the same records in any bytes. The check is `ledger::check`, shared with
//! the property tests.
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_ledger::check;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = check::readers_agree(data) {
        panic!("{e}");
    }
});
