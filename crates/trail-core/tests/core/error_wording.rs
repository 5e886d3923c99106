//! The core's errors are typed and worded in the core's own terms: no flag (`--lookback`), no
//! `trail <command>` to run. Those belong to the binary (`crates/trail/src/error.rs`), which knows
//! which command failed and how a person retries it (ARCHITECTURE.md, the layers table).

use std::path::Path;

/// Every `#[error("…")]` message in `src/`, with the file it is in.
fn error_messages() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let mut rest = text.as_str();
            while let Some(at) = rest.find("#[error(") {
                let attr = &rest[at..];
                let end = attr.find(")]").unwrap_or(attr.len());
                out.push((path.display().to_string(), attr[..end].to_string()));
                rest = &attr[end..];
            }
        }
    }
    out
}

fn names_a_flag(message: &str) -> bool {
    message
        .match_indices("--")
        .any(|(i, _)| message[i + 2..].starts_with(|c: char| c.is_ascii_lowercase()))
}

#[test]
fn no_core_error_names_a_flag_or_a_trail_command() {
    let messages = error_messages();
    assert!(
        messages.len() > 30,
        "the scan found the errors: {messages:?}"
    );
    let worded: Vec<_> = messages
        .iter()
        .filter(|(_, m)| names_a_flag(m) || m.contains("`trail "))
        .collect();
    assert!(
        worded.is_empty(),
        "word these in crates/trail/src/error.rs instead: {worded:#?}"
    );
}

#[test]
fn the_scan_tells_a_flag_from_dashes() {
    assert!(names_a_flag("drop --intent"));
    assert!(!names_a_flag("1--2, or -- alone"));
    assert!(!names_a_flag("a -----BEGIN block"));
}
