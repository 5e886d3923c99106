#!/usr/bin/env bash
# Build the shipped (static) binaries and run the side-by-side benchmarks.
#   bench/run.sh            all of them
#   bench/run.sh append     one: append | resume | log | pulse | hook | transcript | memory | redact
# With valgrind installed, the linker's list of hot functions is refreshed first (a stale list
# costs start-up time and resident memory; see bench/hot-symbols.sh), so the figures are those
# of the binary as it would ship from this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v valgrind >/dev/null 2>&1; then
  bench/hot-symbols.sh >&2
  # Cargo does not track the list as an input: make it link again.
  touch crates/trail/src/main.rs
else
  echo "note: valgrind not found; using the committed bench/hot-symbols.txt" >&2
fi
cargo dist
exec "${CARGO_TARGET_DIR:-target}"/x86_64-unknown-linux-gnu/release/trail-bench "${1:-all}" "${@:2}"
