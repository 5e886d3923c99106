//! Any text through the redactor: it never panics, what it replaced is gone from its output (a
//! value of 8 bytes or more, wherever it was repeated), and redacting that output again changes
//! nothing (a reference is never mistaken for a secret, and a value revealed by one pass is
//! caught by the next).
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_core::secrets::Redactor;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let redactor = Redactor::builtin();
    let mut found = Vec::new();
    let once = redactor.redact(&text, &mut found).into_owned();
    // A value of 8 bytes or more is replaced wherever the text repeats it; a shorter one may
    // be part of another word (`guest:gues@…`) and is replaced only where a rule found it.
    for f in found.iter().filter(|f| f.value.len() >= 8) {
        assert!(
            !once.contains(&f.value),
            "{} is still in the output of {text:?}",
            f.name
        );
    }
    let mut again = Vec::new();
    let twice = redactor.redact(&once, &mut again);
    assert_eq!(twice, once, "not idempotent on {text:?}");
    let _ = redactor.placeholders(&text);
});
