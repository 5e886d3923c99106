//! The memory parsers on any text: a model's `[MEMORY]`/`[DREAM]` answer (hostile input by
//! nature), MEMORY.md, and the verifier over both. None may panic; MEMORY.md rendered from a
//! parse reads back to the same entries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use trail_core::memory::{core, dream, verify};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = dream::parse_answer(&text);
    let parsed = core::parse(&text);
    let rendered = core::render(&parsed);
    let again = core::parse(&rendered);
    assert_eq!(core::render(&again), rendered, "render is not stable for {text:?}");
    let sources = [verify::Source {
        name: "memory/2026-11-26.md",
        text: &text,
    }];
    let _ = verify::verify(&rendered, &sources);
});
