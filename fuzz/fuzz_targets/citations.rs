//! The citation parser and checker on any text: a document (an agent's report, hostile by
//! nature), then after a NUL byte the text of the file its citations are checked against. No
//! input may panic, and what they report must be consistent (`cite::assert_consistent`, shared
//! with the core's property test).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (doc, file) = match data.iter().position(|&b| b == 0) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, &b""[..]),
    };
    trail_core::cite::assert_consistent(
        &String::from_utf8_lossy(doc),
        &String::from_utf8_lossy(file),
    );
});
