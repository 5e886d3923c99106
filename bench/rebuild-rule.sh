#!/usr/bin/env bash
# What one gate-rule edit costs to rebuild, as the README's install builds it (issue 23):
#   bench/rebuild-rule.sh [RULES_FILE] [dev|dist]
# Brings the build up to date, changes one rule's reason by one character, times the rebuild,
# and puts the file back (also when interrupted). `dist` is the release build a fresh clone's
# `cargo install-trail` gives (thin LTO, static); `dev` is `cargo build`, incremental. The file
# defaults to where the rules live now; give the old path on an older checkout
# (crates/trail-gate/src/rules.rs before the table was split out, crates/trail-core/src/gate/rules.rs
# before the gate was a crate) to measure it the same way.
set -euo pipefail
cd "$(dirname "$0")/.."
rules="${1:-crates/trail-gate/src/rules/table.rs}"
mode="${2:-dist}"
case "$mode" in
  dist) build=(cargo dist -q) ;;
  dev) build=(cargo build -q -p trail) ;;
  *) echo "usage: bench/rebuild-rule.sh [RULES_FILE] [dev|dist]" >&2; exit 2 ;;
esac
grep -q 'needs a person"' "$rules" || { echo "no rule reason to edit in $rules" >&2; exit 2; }
"${build[@]}"
backup="$(mktemp)"
cp "$rules" "$backup"
trap 'cp "$backup" "$rules"; rm -f "$backup"' EXIT
sed -i '0,/needs a person"/s//needs a person."/' "$rules"
start=$(date +%s.%N)
"${build[@]}"
end=$(date +%s.%N)
echo "one-rule edit, $mode rebuild: $(awk "BEGIN { printf \"%.1f\", $end - $start }") s wall ($(git rev-parse --short HEAD))"
