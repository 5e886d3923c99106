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
//!
//! ThinLTO renames a local function it shares between code units to `NAME.llvm.SUFFIX`. By
//! default SUFFIX hashes the unit's whole contents, so any edit in a unit renamed its functions
//! and they fell out of the layout (12 % of the list six commits after a refresh). `cargo dist`
//! and `cargo install-trail` pass LLVM `-use-source-filename-for-promoted-locals`, which makes
//! SUFFIX the unit's name (`trail_core_5f548f3c35ab36d3_cgu_2`): stable under edits, except that
//! a function can move to another of a crate's units. So each such name goes to the linker once
//! per unit index; the ones that do not exist are skipped.

use std::path::Path;

/// More than any crate's `codegen-units` in the release profile (4) or std's.
const UNITS: u32 = 16;

fn main() {
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/hot-symbols.txt");
    // The folder, so that the list appearing is noticed; the list, so that a new one relinks.
    println!("cargo::rerun-if-changed=../../bench");
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    let target = std::env::var("TARGET").unwrap_or_default();
    if !(release && target == "x86_64-unknown-linux-gnu") {
        return;
    }
    println!("cargo::rerun-if-changed=../../bench/hot-symbols.txt");
    let Ok(names) = std::fs::read_to_string(&list) else {
        return;
    };
    if names.trim().is_empty() {
        return;
    }
    let Some(out) = std::env::var_os("OUT_DIR") else {
        return;
    };
    let ordering = Path::new(&out).join("hot-symbols.txt");
    if std::fs::write(&ordering, every_unit(&names)).is_err() {
        return;
    }
    println!(
        "cargo::rustc-link-arg-bins=-Wl,--symbol-ordering-file={}",
        ordering.display()
    );
    println!("cargo::rustc-link-arg-bins=-Wl,--no-warn-symbol-ordering");
    hot_rodata(Path::new(&out));
    // `bench/hot-symbols.sh` asks for the linker's map, to find the input sections a hook's
    // constants come from.
    println!("cargo::rerun-if-env-changed=TRAIL_LINK_MAP");
    if let Some(map) = std::env::var_os("TRAIL_LINK_MAP") {
        println!(
            "cargo::rustc-link-arg-bins=-Wl,-Map={}",
            map.to_string_lossy()
        );
    }
}

/// The constants the hooks read, first in the read-only segment: `bench/hot-rodata.txt` names
/// their input sections (string literals and tables have no symbol, so the ordering file cannot
/// place them), and a linker script gathers them into `.rodata.hot` before `.rodata`. A hook
/// reads about 40 KB of constants; scattered over `.rodata` they cost it 19 windows of 64 KB
/// (1.2 MB resident), gathered about 4.
fn hot_rodata(out: &Path) {
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/hot-rodata.txt");
    println!("cargo::rerun-if-changed=../../bench/hot-rodata.txt");
    let Ok(sections) = std::fs::read_to_string(&list) else {
        return;
    };
    let script = linker_script(&sections);
    if script.is_empty() {
        return;
    }
    let path = out.join("hot-rodata.ld");
    if std::fs::write(&path, script).is_ok() {
        println!("cargo::rustc-link-arg-bins=-Wl,-T,{}", path.display());
    }
}

/// An INSERT script (the default layout, plus one output section) from the list's input
/// section descriptions, one per line. Lines a linker script cannot hold are skipped, so a
/// damaged list costs the layout, never the build.
fn linker_script(sections: &str) -> String {
    let lines: Vec<&str> = sections
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter(|l| {
            l.ends_with(')')
                && l.matches('(').count() == 1
                && !l.contains(|c: char| c.is_whitespace() || matches!(c, '{' | '}' | ';' | '"'))
        })
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    let mut script = String::from("SECTIONS\n{\n  .rodata.hot : {\n");
    for line in lines {
        script.push_str("    ");
        script.push_str(line);
        script.push('\n');
    }
    script.push_str("  }\n}\nINSERT BEFORE .rodata;\n");
    script
}

/// The list with each `…_cgu_N` name repeated for every unit index, in the list's order.
fn every_unit(names: &str) -> String {
    let mut out = String::with_capacity(names.len() * 2);
    for name in names.lines() {
        let Some(stem) = unit_stem(name) else {
            out.push_str(name);
            out.push('\n');
            continue;
        };
        for unit in 0..UNITS {
            out.push_str(stem);
            out.push_str(&unit.to_string());
            out.push('\n');
        }
    }
    out
}

/// `NAME.llvm.crate_HASH_cgu_` of a name promoted under a unit's name; None for any other name.
fn unit_stem(name: &str) -> Option<&str> {
    let (_, suffix) = name.rsplit_once(".llvm.")?;
    let at = suffix.rfind("_cgu_")?;
    let index = &suffix[at + "_cgu_".len()..];
    if index.is_empty() || !index.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(&name[..name.len() - index.len()])
}
