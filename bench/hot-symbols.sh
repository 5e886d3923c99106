#!/usr/bin/env bash
# Regenerate bench/hot-symbols.txt: every function the hooks, `trail pulse` and `trail resume`
# execute, found by running each once under valgrind's callgrind (complete, deterministic).
# `cargo dist` hands the list to the linker (--symbol-ordering-file) so those functions sit
# together at the front of the binary: each page fault of a starting process maps a 64 KB
# window of it, and with the hot code packed a hook faults ~10 windows instead of ~40
# (peak RSS 3.6 -> 1.7 MB, see README "Performance"). A stale list is harmless — names it
# no longer finds are skipped — but refresh it after large changes to those paths.
# Needs valgrind. Then: bench/run.sh hook
set -euo pipefail
cd "$(dirname "$0")/.."
cargo dist
bin="$PWD/target/x86_64-unknown-linux-gnu/release/trail"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/proj"
git -C "$work/proj" init -q
cd "$work/proj"
export HOME="$work/home" TRAIL_HOME="$work/home/.ledger"
cg() { valgrind -q --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.$1" "${@:2}"; }
pre='{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cargo test --release"}}'
post='{"session_id":"s","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"cargo test"},"tool_response":{"stdout":"ok","stderr":"","interrupted":false},"tool_use_id":"t"}'
"$bin" pulse --proj p --summary warm --next n > /dev/null
echo "$pre" | cg 1-pre "$bin" hook claude-code
echo "$post" | cg 2-post "$bin" hook claude-code
cg 3-pulse "$bin" pulse --proj p --summary s --next n > /dev/null
cg 4-resume "$bin" resume --level 3 > /dev/null
cd - > /dev/null
# Function names as the linker knows them (callgrind names a function once, then by number).
grep -hE '^c?fn=\([0-9]+\) ' "$work"/cg.* | sed -E 's/^c?fn=\([0-9]+\) //' \
  | grep -v '^0x' | awk '!seen[$0]++' > bench/hot-symbols.txt
wc -l bench/hot-symbols.txt
