//! Any bytes as a stream: framing, seals and both front-matter parsers must never panic, and a
//! record that parses must survive re-encoding.
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_ledger::{format, frame};

fuzz_target!(|data: &[u8]| {
    let (_, frames) = frame::split_all(0, data);
    for f in &frames {
        let _ = f.expects_seal();
        let _ = f.trailer_is_blank();
        let _ = frame::identity(f.bytes);
        if let Ok(r) = f.parse() {
            // Whatever was read must write back to a record that reads the same.
            let (bytes, _) = frame::encode(&r);
            let (_, again) = frame::split_all(0, &bytes);
            assert_eq!(again.len(), 1);
            let back = again[0].parse().expect("re-encoded record parses");
            assert_eq!(back.ts, r.ts);
            assert_eq!(back.focus, r.focus);
            assert_eq!(back.next, r.next);
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = format::parse_front(text);
        let _ = format::parse_front_yaml(text);
    }
});
