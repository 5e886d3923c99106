//! Any bytes on a hook's stdin: decoding either succeeds or says why, never panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_core::host::decode;

fuzz_target!(|data: &[u8]| {
    let _ = decode(data);
});
