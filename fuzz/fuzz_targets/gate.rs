//! Any text as a command line: the gate always reaches a verdict, never panics, never hangs.
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_gate::evaluate;

#[path = "context.rs"]
mod context;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else { return };
    let _ = evaluate(line, &context::context());
});
