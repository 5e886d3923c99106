//! Any text as a PowerShell command line: the reader and the translator always reach a
//! verdict, never panic, never hang (issue 23: no fuzz target reached `powershell::translate`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_gate::powershell;

#[path = "context.rs"]
mod context;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else { return };
    let _ = powershell::evaluate(line, &context::context());
});
