//! Any text as a Codex patch: it is read or refused, never panics; every file Codex would see
//! on a trimmed header line is among those trail names.
#![no_main]
use libfuzzer_sys::fuzz_target;
use trail_core::host::codex::parse_patch;

fuzz_target!(|data: &[u8]| {
    let Ok(patch) = std::str::from_utf8(data) else { return };
    let Ok(files) = parse_patch(patch) else { return };
    for line in patch.lines().map(str::trim) {
        for head in ["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "] {
            if let Some(p) = line.strip_prefix(head) {
                assert!(files.contains(&p.trim()), "{line:?} not in {files:?}");
            }
        }
    }
});
