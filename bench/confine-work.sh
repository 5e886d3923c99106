#!/usr/bin/env bash
# Ordinary work inside trail's confinement (issue 19), measured: each step of a sample project's
# day run in two copies of the project, plainly and through `trail confine` (what the PreToolUse hook rewrites every
# agent command into), with its wall time and whether it succeeded. Then what the confinement
# refuses, with the message the agent reads.
#
#   bench/confine-work.sh [TRAIL]      TRAIL: the binary (default: target/release/trail, built)
#
# Needs bubblewrap, git, cargo, npm (and the npm registry) and python3 with venv (and PyPI for
# pytest). A throwaway HOME keeps the person's caches out of it, so the first `npm install`
# and `pip install` fetch.
set -uo pipefail
cd "$(dirname "$0")/.."
trail=${1:-}
if [ -z "$trail" ]; then
  cargo build --release -q -p trail || exit 1
  trail="${CARGO_TARGET_DIR:-target}/release/trail"
fi
trail=$(realpath "$trail")
work=$(mktemp -d "${TMPDIR:-/tmp}/trail-confine-work.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" TRAIL_HOME="$work/home/.ledger" XDG_CONFIG_HOME="$work/home/.config"
mkdir -p "$HOME/.secrets"
# cargo and rustup stay where the machine has them, read-only inside.
export CARGO_HOME="${CARGO_HOME:-/root/.cargo}" RUSTUP_HOME="${RUSTUP_HOME:-/root/.rustup}"
template="$work/template"
mkdir -p "$template/src" "$template/tests"
cd "$template"
git init -q .
cat > Cargo.toml <<'EOF'
[package]
name = "sample"
version = "0.1.0"
edition = "2021"
EOF
echo 'pub fn add(a: i32, b: i32) -> i32 { a + b }
#[cfg(test)] mod t { #[test] fn adds() { assert_eq!(super::add(2, 2), 4); } }' > src/lib.rs
echo '{"name":"sample","version":"1.0.0","private":true}' > package.json
echo 'def test_adds():
    assert 2 + 2 == 4' > tests/test_sample.py
printf 'target/\nnode_modules/\n.venv/\n' > .gitignore
git add -A && git -c user.name=a -c user.email=a@b commit -qm sample
# The same project twice: one for the plain run of every step, one for the confined run.
cp -a "$template" "$work/plain"
cp -a "$template" "$work/confined"
(cd "$work/confined" && "$trail" init >/dev/null)
project="$work/confined"

steps=(
  "cargo build -q"
  "cargo test -q"
  "npm install --no-audit --no-fund --loglevel=error is-number@7.0.0"
  "python3 -m venv .venv && .venv/bin/pip install -q pytest"
  ".venv/bin/pytest -q tests"
  "date +%N > stamp.txt && git add -A && git -c user.name=a -c user.email=a@b commit -qm work"
)
now() { date +%s.%N; }
printf '%-66s %12s %12s\n' "step" "plain" "confined"
fmt() { if [ "$1" = 0 ]; then printf 'ok %7.2fs' "$2"; else printf 'FAIL(%s) %5.2fs' "$1" "$2"; fi; }
for s in "${steps[@]}"; do
  cd "$work/plain"
  t0=$(now); CARGO_TARGET_DIR="$work/plain/target" bash -c "$s" >/dev/null 2>"$work/plain.err"; rp=$?; t1=$(now)
  cd "$project"
  t2=$(now); CARGO_TARGET_DIR="$project/target" "$trail" confine --project "$project" -- "$s" >/dev/null 2>"$work/conf.err"; rc=$?; t3=$(now)
  printf '%-66s %12s %12s\n' "$s" "$(fmt $rp "$(echo "$t1 - $t0" | bc)")" "$(fmt $rc "$(echo "$t3 - $t2" | bc)")"
  [ $rp = 0 ] || sed 's/^/    plain: /' "$work/plain.err" | head -5
  [ $rc = 0 ] || sed 's/^/    confined: /' "$work/conf.err" | head -5
done
echo
echo "refused inside, as the agent reads it:"
for s in "cat ~/.secrets/trail.key" "echo '{}' > .claude/settings.json" "echo x >> .trail/state/grants.jsonl" \
         "echo x > ~/.bashrc" "git config core.fsmonitor 'touch /tmp/pwned'" "$trail approve"; do
  out=$("$trail" confine --project "$project" -- "$s" 2>&1)
  printf '  %-48s -> %s\n' "$s" "$(echo "$out" | head -1)"
done
