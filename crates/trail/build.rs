//! Lays the hot code out first in a release build, whichever command built it (`cargo dist`,
//! `cargo install-trail`, a plain `cargo install --path crates/trail`): the committed
//! `bench/hot-symbols.txt` (written by `bench/hot-symbols.sh`, which profiles the hooks under
//! valgrind) goes to the linker as `--symbol-ordering-file`, so the functions a hook runs
//! sit together at the front of the binary and a starting hook faults in a few 64 KB windows of
//! it instead of dozens (PERFORMANCE.md). Without the list, or with a rustc that names
//! everything differently, the build is the same, just without that layout.
//!
//! Only for release builds on x86_64 Linux, where Rust links with LLD (the flag is LLD's). The
//! list's names change with the code; names no longer found are skipped (without a warning).

use std::path::Path;

fn main() {
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/hot-symbols.txt");
    // The folder, so that the list appearing is noticed; the list, so that a new one relinks.
    println!("cargo::rerun-if-changed=../../bench");
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    let target = std::env::var("TARGET").unwrap_or_default();
    if !(release && target == "x86_64-unknown-linux-gnu") {
        return;
    }
    let Ok(meta) = std::fs::metadata(&list) else {
        return;
    };
    println!("cargo::rerun-if-changed=../../bench/hot-symbols.txt");
    if meta.len() == 0 {
        return;
    }
    let list = list.canonicalize().unwrap_or(list);
    println!(
        "cargo::rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
        list.display()
    );
    println!("cargo::rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
}
