#!/usr/bin/env bash
# Build the shipped (static) binaries and run the side-by-side benchmarks.
#   bench/run.sh            all of them
#   bench/run.sh append     one: append | resume | log | pulse | hook | session | transcript | budget | ground | memory | redact | search | confine | sync | report | blame
# The binary is built as a fresh clone's install builds it: `cargo dist`, with the committed
# bench/hot-symbols.txt laying the hot functions out first (crates/trail/build.rs). The figures
# are those of that list as it is; this prints how much of it the binary still has, and
# bench/hot-symbols.sh refreshes it (commit the result).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo dist
cargo dist-bench
bin="${CARGO_TARGET_DIR:-target}/x86_64-unknown-linux-gnu/release"
if [ -s bench/hot-symbols.txt ] && command -v nm >/dev/null 2>&1; then
  # A name ThinLTO shared between code units counts under any unit index (crates/trail/build.rs).
  unit='s/(\.llvm\..*_cgu_)[0-9]+$/\1/'
  listed=$(sed "s/'.*//" bench/hot-symbols.txt | sed -E "$unit" | sort -u)
  found=$(comm -12 <(echo "$listed") <(nm "$bin/trail" | awk '{ print $NF }' | sed -E "$unit" | sort -u) | wc -l)
  total=$(echo "$listed" | wc -l)
  echo "layout: $found of $total functions of bench/hot-symbols.txt are in this binary" \
    "($((100 * found / total)) %; below ~97 %, bench/hot-symbols.sh refreshes the list)" >&2
  # The constants: bench/hot-rodata.txt's sections gathered in .rodata.hot (crates/trail/build.rs).
  hot=$(readelf -SW "$bin/trail" 2>/dev/null | awk '{ for (i = 1; i < NF; i++) if ($i == ".rodata.hot") print $(i + 4) }')
  echo "layout: .rodata.hot holds $([ -n "$hot" ] && echo $((16#$hot)) || echo no) bytes of the" \
    "constants the hooks read" \
    "(about 260,000 when bench/hot-rodata.txt is current)" >&2
else
  echo "note: no bench/hot-symbols.txt: the binary is built without its hot-code layout, so" \
    "start-up and RSS figures are worse than a release's" >&2
fi
exec "$bin"/trail-bench "${1:-all}" "${@:2}"
