#!/usr/bin/env bash
# The release build with its hot code first: writes bench/hot-symbols.txt, every function the
# hooks, `trail pulse` and `trail resume` execute, found by running each once under valgrind's
# callgrind (complete, deterministic), then links the binary again with it. crates/trail/build.rs
# hands the list to the linker (--symbol-ordering-file) in any release build, so those functions
# sit together at the front of the binary: each page fault of a starting process maps a 64 KB window of it, and with the
# hot code packed a hook faults ~10 windows instead of ~40 (peak RSS 3.6 -> 1.7 MB, see README
# "Performance").
#
# The list is not tracked by git. It names functions as the linker knows them, with hashes and
# ThinLTO suffixes that change with the code, so a committed copy was always either stale
# (names no longer found are skipped: the hot code scatters again) or a 2,000-line churn in
# whichever commit ran the benchmarks. It is a build product of this tree, made here.
# Needs valgrind. bench/run.sh runs it first.
set -euo pipefail
cd "$(dirname "$0")/.."
list=bench/hot-symbols.txt
# The profiled names do not depend on the layout: any build of this tree will do.
cargo dist
bin="$(realpath "${CARGO_TARGET_DIR:-target}")/x86_64-unknown-linux-gnu/release/trail"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/proj"
git -C "$work/proj" init -q
cd "$work/proj"
# The hooks run in a home of their own; rustup and cargo keep finding the person's toolchain.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
export HOME="$work/home" TRAIL_HOME="$work/home/.ledger"
cg() { valgrind -q --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.$1" "${@:2}"; }
pre='{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cargo test --release"}}'
post='{"session_id":"s","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"cargo test"},"tool_response":{"stdout":"ok","stderr":"","interrupted":false},"tool_use_id":"t"}'
transcript="$OLDPWD/crates/trail-core/tests/data/transcripts/spotter_tool_heavy.jsonl"
"$bin" pulse --proj p --summary warm --next n > /dev/null
# The most frequent paths first: they get the front of the binary.
echo "$pre" | cg 01-pre "$bin" hook claude-code
echo "$post" | cg 02-post "$bin" hook claude-code
cg 03-pulse "$bin" pulse --proj p --summary s --next n > /dev/null
cg 04-resume "$bin" resume --level 3 > /dev/null
# The rest of a session's hooks, with a state file in active mode.
"$bin" mode active "measure" > /dev/null
hook() { echo "$2" | cg "$1" "$bin" hook claude-code > /dev/null; }
hook 05-start '{"hook_event_name":"SessionStart","session_id":"s1","source":"startup"}'
hook 06-prompt '{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"go on","transcript_path":"'"$transcript"'"}'
hook 07-edit '{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Edit","tool_input":{"file_path":"'"$work"'/proj/a.rs","old_string":"a","new_string":"b"}}'
hook 08-junction '{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"git push origin main"}}'
hook 09-edge '{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"/edge approve"}'
hook 10-fail '{"hook_event_name":"PostToolUseFailure","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls /x"},"error":"exit 2"}'
hook 11-stop '{"hook_event_name":"Stop","session_id":"s1"}'
hook 12-compact '{"hook_event_name":"PreCompact","session_id":"s1","trigger":"auto","transcript_path":"'"$transcript"'"}'
hook 13-end '{"hook_event_name":"SessionEnd","session_id":"s1","reason":"exit","transcript_path":"'"$transcript"'"}'
cd - > /dev/null
# Function names as the linker knows them (callgrind names a function once, then by number).
grep -hE '^c?fn=\([0-9]+\) ' $(ls "$work"/cg.* | sort) | sed -E 's/^c?fn=\([0-9]+\) //' \
  | grep -v '^0x' | awk '!seen[$0]++' > "$list"
wc -l "$list"
# The build script watches the list: this links again, in the new order.
cargo dist
