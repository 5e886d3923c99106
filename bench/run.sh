#!/usr/bin/env bash
# Build the shipped (static) binaries and run the side-by-side benchmarks.
#   bench/run.sh            all of them
#   bench/run.sh append     one: append | resume | pulse
set -euo pipefail
cd "$(dirname "$0")/.."
cargo dist
exec target/x86_64-unknown-linux-gnu/release/trail-bench "${1:-all}" "${@:2}"
