// This file grew: the functions cited at the top now sit lower down.

use std::io;

// ---------------------------------------------------------------------------
// Helpers added later
// ---------------------------------------------------------------------------

fn helper_one() -> u32 {
    1
}

fn helper_two() -> u32 {
    2
}

/// Reads the configuration.
pub fn read_config(path: &str) -> io::Result<String> {
    std::fs::read_to_string(path)
}

/// Parses a port.
pub fn parse_port(s: &str) -> Option<u16> {
    s.trim().parse().ok()
}

pub fn run() {
    let _ = read_config("app.toml");
}
