//! git's index, trees, commits and pack deltas, as trail reads them without git, on any bytes:
//! never a panic, and what is accepted holds together (`trail_base::git::read_as_every_git_file`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    trail_base::git::read_as_every_git_file(data);
});
