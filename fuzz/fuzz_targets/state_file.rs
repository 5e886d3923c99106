//! The state file reader on any bytes: never panics, and whatever it accepts, trail can write
//! back and read again unchanged (the writer's quoting is checked against the reader).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use trail_core::state;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = state::parse(Path::new("active_context.yaml"), data) else {
        return;
    };
    let _ = s.problems();
    let text = state::render(&s);
    let back = state::parse(Path::new("active_context.yaml"), text.as_bytes())
        .unwrap_or_else(|e| panic!("trail cannot read what it wrote: {e}\n{text}"));
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::to_value(&s).unwrap(),
        "{text}"
    );
});
