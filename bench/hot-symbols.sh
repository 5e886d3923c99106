#!/usr/bin/env bash
# The release build with its hot code and constants first: writes bench/hot-symbols.txt, every
# function the hooks, `trail pulse` and `trail resume` execute, found by running each once under
# valgrind's callgrind (complete, deterministic), and bench/hot-rodata.txt, the input sections of
# the constants they read (the same runs under lackey; bench/hot-rodata.py), then links the
# binary again with both. crates/trail/build.rs
# hands the list to the linker (--symbol-ordering-file) in any release build, so those functions
# sit together at the front of the binary: each page fault of a starting process maps a 64 KB window of it, and with the
# hot code packed a hook faults ~10 windows instead of ~40 (peak RSS 3.6 -> 1.7 MB, see README
# "Performance").
#
# The list is tracked, so that the build a fresh clone's install gives has the layout (without
# it a hook's peak RSS is 7.6 MB and PreToolUse 1.35x /bin/true, against 2.3 MB and 1.18x;
# PERFORMANCE.md). It names functions as the linker knows them. A renamed or new function is
# not in it, and its code lies scattered again. ThinLTO's `.llvm.` suffixes used to hash a code
# unit's contents, so any edit renamed its functions (six commits after a refresh, 12 % of the
# names were gone and the RSS was back at 4.5 MB); `cargo dist` now names them by the unit
# instead (crates/trail/build.rs says how). So run this script, and commit the list
# it writes, as the last step of any change to code the hooks run; `bench/run.sh` says how much
# of the committed list the binary still has. A different rustc renames everything: the build
# is then the same, just without the layout.
# Needs valgrind. bench/run.sh runs it first.
set -euo pipefail
cd "$(dirname "$0")/.."
list=bench/hot-symbols.txt
# The profiled names do not depend on the layout: any build of this tree will do. The linker's
# map of it says which input section each constant a hook reads comes from (bench/hot-rodata.py).
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
TRAIL_LINK_MAP="$work/link.map" cargo dist
cargo dist-bench
bin="$(realpath "${CARGO_TARGET_DIR:-target}")/x86_64-unknown-linux-gnu/release/trail"
mkdir -p "$work/home" "$work/proj" "$work/plain/stream"
git -C "$work/proj" init -q
cd "$work/proj"
# The hooks run in a home of their own; rustup and cargo keep finding the person's toolchain.
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
export HOME="$work/home" TRAIL_HOME="$work/home/.ledger"
# Each profiled run must reach its end: a run cut short leaves out every function it did not get
# to, and those then lie scattered over the binary. Under valgrind a hook runs ~100 times slower,
# and on a loaded machine SessionStart or SessionEnd outlived the hook's 5 s deadline (an alarm,
# `trail hook: gave up after 5 s`): the list missed the end of SessionEnd and of both secret
# runs. SIGALRM is blocked for the profiled process (a blocked signal stays pending, and the mask
# survives exec), so the deadline never fires while it is measured.
unalarmed() {
  perl -MPOSIX -e 'sigprocmask(SIG_BLOCK, POSIX::SigSet->new(SIGALRM)) or die "sigprocmask: $!"; exec @ARGV or die "exec: $!"' "$@"
}
# Each run twice from the same state, its input on stdin: under lackey for the data it reads
# (bench/hot-rodata.py), then, with the state put back, under callgrind for the functions it
# runs (the run that counts: the state it leaves is the next run's).
state="$work/home $work/proj"
cg() {
  cat > "$work/in.$1"
  rm -rf "$work/saved" && mkdir "$work/saved"
  for d in $state; do cp -a "$d" "$work/saved/"; done
  unalarmed valgrind -q --tool=lackey --trace-mem=yes --log-file="$work/lk.$1" "${@:2}" \
    < "$work/in.$1" > /dev/null
  for d in $state; do
    find "$d" -mindepth 1 -delete && cp -a "$work/saved/${d##*/}/." "$d/"
  done
  unalarmed valgrind -q --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.$1" "${@:2}" \
    < "$work/in.$1"
}
pre='{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cargo test --release"}}'
post='{"session_id":"s","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"cargo test"},"tool_response":{"stdout":"ok","stderr":"","interrupted":false},"tool_use_id":"t"}'
pre_pipe='{"session_id":"s","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cargo test -p trail -- --nocapture 2>&1 | tail -20","description":"Run the tests"}}'
post_edit='{"session_id":"s","cwd":"/tmp","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"src/total.rs","old_string":"let total = a + b;","new_string":"let total = a.round() + b.round();"},"tool_response":{"filePath":"src/total.rs","success":true},"tool_use_id":"t3"}'
transcript="$OLDPWD/crates/trail-core/tests/data/transcripts/spotter_tool_heavy.jsonl"
"$bin" pulse --proj p --summary warm --next n > /dev/null
echo "$pre" | cg 01-pre "$bin" hook claude-code
# A command with a pipe and a redirection, as agents write them (the shell parser's paths for
# both), and an edit's PostToolUse, which also writes a pulse: each function a hook runs that is
# not listed sits somewhere in the cold 8 MB and costs the hook a 64 KB window of its own.
echo "$pre_pipe" | cg 01-pre-pipe "$bin" hook claude-code
echo "$post" | cg 02-post "$bin" hook claude-code
# Again: with a proof line before it, PostToolUse also asks the timer whether a pulse is due.
echo "$post" | cg 02-post-again "$bin" hook claude-code
echo "$post_edit" | cg 02-post-edit "$bin" hook claude-code
cg 03-pulse "$bin" pulse --proj p --summary s --next n < /dev/null > /dev/null
cg 04-resume "$bin" resume --level 3 < /dev/null > /dev/null
# resume over a stream another LedgerPulse writer wrote (plain format, nothing sealed), with
# --json: the worst case of `trail-bench resume`, whose parser and output paths the run above
# never takes.
"$(dirname "$bin")/trail-bench" gen "$work/plain/stream/pulses.log.md" 2 plain > /dev/null
TRAIL_HOME="$work/plain" cg 04-resume-plain "$bin" resume --json < /dev/null > /dev/null
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
# Again: a junction already pending, a checkpoint already written, a session already ended take
# paths of their own, and a session repeats them (`trail-bench hook` measures the worst of 19
# repeats: unlisted, they faulted in 1.7 MB of cold text and went over 4 MB).
hook 08-junction-again '{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"git push origin main"}}'
hook 12-compact-again '{"hook_event_name":"PreCompact","session_id":"s1","trigger":"auto","transcript_path":"'"$transcript"'"}'
hook 13-end-again '{"hook_event_name":"SessionEnd","session_id":"s1","reason":"exit","transcript_path":"'"$transcript"'"}'
# Tool calls with secrets in them: redaction compiles the secret rules they need, and the
# regex crate's parser, compiler and engines were in no run above, so they lay scattered over
# the binary and a secret-heavy PostToolUse faulted in 4.3 MB of text (2.0 MB without).
hook 14-pre-secret '{"hook_event_name":"PreToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"export AWS_SECRET_ACCESS_KEY=Zk8pQ2mV7xR4tY1uI9oP3aS6dF0gH5jK2lZ8cX4v GITHUB_TOKEN=ghp_hGAkWvj7FAc9QeWJKY40uvSwMFLZDe1f8rES && curl -u deploy:Tr41lS3cr3tPassw0rd -H \"Authorization: Bearer Lm3Nq8Rt2Vx6Zb9Cd4Fg\" https://admin:Zx81qPv0LmN4@registry.example.com/v2/ && mysql -u root -pS3cretPass42 app && git push origin main"}}'
hook 15-post-secret '{"hook_event_name":"PostToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"env && cat deploy.pem"},"tool_response":{"stdout":"DATABASE_URL=postgres://app:S3cr3t!pw9@db.internal:5432/app\nSTRIPE_SECRET_KEY=sk_live_mrcXgGCJbW56eCuNGMGmSrCGIZEG8pSH4487q7J58m1CiAhzCueQpBen\nSLACK_TOKEN=xoxb-16761222029-729975288200-ZUPgHV7iB3m03nbqnsGpWLuq\napi_key = \"q7W2e9R4t1Y6u3I8o5P0\"\n-----BEGIN RSA PRIVATE KEY-----\nmdVPlW354z9gY69gmsXlO85zSLAAUkNEbCiW69DD48gKSdUkz+Pe/pIlRvnZzM6M\n-----END RSA PRIVATE KEY-----","stderr":"","interrupted":false},"tool_use_id":"t2"}'
cd - > /dev/null
# Functions every process runs natively but valgrind never shows: glibc's start-up resolves the
# vDSO's symbols (valgrind gives its guest no vDSO), reads the cache sizes of the real CPU (AMD
# here; valgrind's is Intel), and runs crt's constructors. Found by a breakpoint on every C
# function of a native hook run (gdb); unlisted, they cost every hook two 64 KB windows of
# their own at the far end of the binary. Names this glibc lacks are skipped by the linker.
natively="_start __libc_start_main __libc_start_main_impl __libc_start_call_main handle_amd
handle_intel _dl_new_object _dl_setup_hash _dl_add_to_namespace_list _dl_lookup_symbol_x
do_lookup_x check_match __strcmp_sse2 __strstr_generic frame_dummy register_tm_clones
deregister_tm_clones __do_global_dtors_aux"
# Which runs count most, in order: a 64 KB window costs a page fault in every process that runs
# a function in it. PreToolUse and PostToolUse run for every tool call, UserPromptSubmit for
# every prompt, the others once per session or rarely. Functions are sorted by which of these
# groups run them, in the order of a reflected Gray code over the groups' bits: the functions of
# the first group are then one contiguous stretch, so are the second's, and each later group's
# at most 2, 4, … stretches. Sorted by the exact set of runs that use them (as before), each
# hook's code lay in dozens of stretches. Counted offline over these runs' profiles (64 KB
# windows of the hot code each run touches, before → after): PreToolUse 14–16 → 11, PostToolUse
# 11 → 7, an edit's or a failure's PostToolUse 13–15 → 10, UserPromptSubmit 18 → 14,
# SessionStart 21 → 19, the secret PostToolUse 22 → 18; the rarer events within 2 of before.
groups="01-pre,01-pre-pipe 02-post,02-post-again 02-post-edit,10-fail 06-prompt 05-start
13-end,13-end-again 15-post-secret 14-pre-secret 07-edit,08-junction,08-junction-again,09-edge
11-stop,12-compact,12-compact-again"
# Function names as the linker knows them (callgrind names a function once, then by number).
# Within a group's stretch: first the functions most runs share, then by the exact set of runs,
# then in the order they first ran.
# glibc picks a string function's variant for the CPU it runs on (`__memcmp_evex_movbe` here,
# `__memcmp_avx2_movbe` under valgrind, which has no AVX-512): each listed variant brings its
# siblings along, or every hook faults in a window for each of them.
nm "$bin" | awk '{ print $NF }' | grep -E '^__[a-z0-9]+_(sse2|ssse3|sse4|avx|avx2|evex|erms)' \
  | sort -u > "$work/variants"
variants() {
  awk -v file="$work/variants" '
    BEGIN { while ((getline v < file) > 0) all[++n] = v }
    !seen[$0]++ { print }
    match($0, /^__[a-z0-9]+_(sse2|ssse3|sse4|avx|avx2|evex|erms)/) {
      family = substr($0, 1, index(substr($0, 3), "_") + 2)
      for (i = 1; i <= n; i++)
        if (index(all[i], family) == 1 && !seen[all[i]]++) print all[i]
    }'
}
# The SHA-256 and SHA-1 crates pick their compression function by CPU as well: SHA-NI here,
# which valgrind lacks, so a profile shows the portable one (`soft`). A run that used it is
# listed with the native ones too (unlisted, SHA-NI's code cost every hook that writes a
# pulse a cold window).
nm "$bin" | awk '{ print $NF }' | grep -E '^_ZN4sha[12].*x86_sha8compress' | sort -u > "$work/sha-ni"
for f in $(ls "$work"/cg.* | sort); do
  run="${f##*/cg.}"
  { printf '%s\n' $natively
    grep -hE '^c?fn=\([0-9]+\) ' "$f" | sed -E 's/^c?fn=\([0-9]+\) //' | grep -v '^0x' \
      | awk -v file="$work/sha-ni" '
          BEGIN { while ((getline v < file) > 0) native[++n] = v }
          { print }
          /^_ZN4sha[12].*4soft/ && !done[substr($0, 1, 8)]++ {
            for (i = 1; i <= n; i++) if (index(native[i], substr($0, 1, 8)) == 1) print native[i]
          }'
  } | awk -v run="$run" '!seen[$0]++ { print run "\t" $0 }'
done | awk -F'\t' -v groups="$(echo $groups)" '
  BEGIN { ngroups = split(groups, group, " ") }
  !($2 in first) { first[$2] = NR }
  { runs[$2] = runs[$2] $1 ","; count[$2]++ }
  END {
    for (f in first) {
      # The position of the function'"'"'s group bits in the Gray code: bit i is the XOR of its
      # membership of groups 1..i.
      key = 0; x = 0
      for (g = 1; g <= ngroups; g++) {
        n = split(group[g], member, ",")
        in_group = 0
        for (m = 1; m <= n; m++) if (index("," runs[f], "," member[m] ",")) in_group = 1
        x = (x + in_group) % 2
        key = key * 2 + x
      }
      printf "%d\t%d\t%s\t%d\t%s\n", key, count[f], runs[f], first[f], f
    }
  }' \
  | sort -t"$(printf '\t')" -k1,1n -k2,2nr -k3,3 -k4,4n | cut -f5 \
  | variants > "$list"
wc -l "$list"
# The constants, by the same priority as the functions' groups (the commonest hook first).
traces=""
for g in $groups 03-pulse 04-resume,04-resume-plain 05-start; do
  for run in ${g//,/ }; do
    case " $traces " in *" $work/lk.$run "*) ;; *) [ -s "$work/lk.$run" ] && traces="$traces $work/lk.$run" ;; esac
  done
done
# shellcheck disable=SC2086
python3 bench/hot-rodata.py "$work/link.map" $traces > bench/hot-rodata.txt
echo "$(grep -vc '^#' bench/hot-rodata.txt) bench/hot-rodata.txt"
# The build script watches both lists: this links again, in the new order.
cargo dist
