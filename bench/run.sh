#!/usr/bin/env bash
# Build the shipped (static) binaries and run the side-by-side benchmarks.
#   bench/run.sh            all of them
#   bench/run.sh append     one: append | resume | log | pulse | hook | session | transcript | budget | ground | memory | redact | search | confine
# The binary is built as it would ship from this tree: with valgrind, bench/hot-symbols.sh
# lists the hot functions and links them first (without the list, start-up time and resident
# memory grow; see that script).
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v valgrind >/dev/null 2>&1; then
  bench/hot-symbols.sh >&2
else
  if [ ! -s bench/hot-symbols.txt ]; then
    echo "note: valgrind not found: the binary is built without its hot-code layout, so start-up" \
      "and RSS figures are worse than a release's" >&2
  else
    echo "note: valgrind not found; using bench/hot-symbols.txt as it is (made for an earlier tree?)" >&2
  fi
  cargo dist
fi
exec "${CARGO_TARGET_DIR:-target}"/x86_64-unknown-linux-gnu/release/trail-bench "${1:-all}" "${@:2}"
