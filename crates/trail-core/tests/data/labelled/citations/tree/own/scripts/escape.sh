#!/bin/sh
echo "a\\b" | sed 's/\\/\//g'
printf '%s\n' "`date`"
grep -E '^\[.*\]$' notes.md
VAR="${HOME}/x"
awk '{ print $1 }' < input.txt
