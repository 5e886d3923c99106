#!/usr/bin/env python3
"""Regenerate the tune / held-out split of the labelled corpora in this folder.

Every corpus is a pair of files, NAME-tune.tsv and NAME-holdout.tsv.  This script reads both,
merges their rows, sorts them canonically and assigns each row again: within every stratum
(family x label) the rows are shuffled with random.Random(f"{SEED}:{corpus}:{family}:{label}") and
round(0.35 * n) of them go to the held-out file.  The assignment depends only on the set of rows, so running the script on an
unchanged corpus rewrites both files byte for byte.

    python3 split.py            # re-split every corpus in this folder
    python3 split.py --check    # exit 1 if any file would change (no writes)

To add cases, append them to the tune file of their corpus and run the script: only the families
you touched are re-drawn.  Escapes in the text columns: backslash as \\\\, tab as \\t, newline as \\n,
carriage return as \\r.
"""
import os
import random
import sys

SEED = 20250917
HOLDOUT_SHARE = 0.35
HERE = os.path.dirname(os.path.abspath(__file__))

CORPORA = {
    # name: (columns, family column index, header)
    "gate": (
        4,
        1,
        [
            "# Labelled shell commands for trail's gate: verdict<TAB>family<TAB>source<TAB>command",
            "# verdict: block | junction | allow.  source: <id>/<label in that project> (ids in PROVENANCE.md;",
            "# own/- = written for trail).  Context: project root /work/proj (also the working directory),",
            "# HOME=/home/dev, TMPDIR=/run/user/1000/tmp; target/, build/, dist/, node_modules/ are git-ignored",
            "# build output.  Escapes in the command: \\\\ = backslash, \\t = tab, \\n = newline, \\r = CR.",
        ],
    ),
    "gate-powershell": (
        4,
        1,
        [
            "# Labelled PowerShell commands (Claude Code's PowerShell tool): verdict<TAB>family<TAB>source<TAB>command",
            "# Same context as gate-*.tsv; on a Windows host read the project root as C:\\work\\proj (the working",
            "# directory), home as C:\\Users\\dev (~, $HOME, $env:USERPROFILE), temp as $env:TEMP.",
            "# Escapes in the command: \\\\ = backslash, \\t = tab, \\n = newline, \\r = CR.",
        ],
    ),
    # In its own folder, with the project tree its citations point into.
    "citations/citations": (
        5,
        1,
        [
            "# Labelled citation documents for `trail cite check`: status<TAB>family<TAB>source<TAB>document[<TAB>found_at]",
            "# status: the status of the document's LAST citation (issue 12's statuses), or `none` when the document",
            "# has no citation.  Root: citations/tree/ (plus the symlinks of citations/symlinks.tsv and a file",
            "# outside.txt beside the root).  found_at (drifted, partial): the expected lines, comma-separated.",
            "# source: <id>/<label in that project> (PROVENANCE.md).  Escapes: \\\\ = backslash, \\t, \\n, \\r.",
        ],
    ),
    "secrets": (
        5,
        1,
        [
            "# Labelled strings for trail's redactor: label<TAB>family<TAB>source<TAB>text[<TAB>secret]",
            "# label: secret | clean.  For secret rows the 5th column is the exact substring that must be",
            "# redacted (it occurs verbatim in text).  source: <id>/<label in that project> (PROVENANCE.md).",
            "# All secret values are fake: the published examples of the source test suites, or generated.",
            "# Escapes in text and secret: \\\\ = backslash, \\t = tab, \\n = newline, \\r = CR.",
        ],
    ),
}


def escape(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def unescape(s):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}.get(n, "\\" + n))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_rows(path, ncols):
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if not (len(cols) == ncols or (ncols == 5 and len(cols) == 4)):
                raise SystemExit(f"{path}:{lineno}: {len(cols)} columns")
            rows.append(tuple(unescape(c) for c in cols))
    return rows


def split(name, rows, family_col):
    by_family = {}
    for r in sorted(set(rows)):
        by_family.setdefault((r[family_col], r[0]), []).append(r)
    tune, hold = [], []
    for family in sorted(by_family):
        fam_rows = by_family[family]
        rng = random.Random(f"{SEED}:{name}:{family[0]}:{family[1]}")
        order = list(range(len(fam_rows)))
        rng.shuffle(order)
        k = round(HOLDOUT_SHARE * len(fam_rows))
        held = set(order[:k])
        for i, r in enumerate(fam_rows):
            (hold if i in held else tune).append(r)
    return tune, hold


def render(header, rows, part):
    lines = header + [f"# Part: {part}.  Regenerate with split.py (seed {SEED}, {int(HOLDOUT_SHARE * 100)} % held out per family and label)."]
    lines += ["\t".join(escape(c) for c in r) for r in rows]
    return "\n".join(lines) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    changed = False
    for name, (ncols, family_col, header) in CORPORA.items():
        tune_path = os.path.join(HERE, f"{name}-tune.tsv")
        hold_path = os.path.join(HERE, f"{name}-holdout.tsv")
        rows = read_rows(tune_path, ncols) + read_rows(hold_path, ncols)
        if not rows:
            continue
        if len(set(rows)) != len(rows):
            print(f"{name}: {len(rows) - len(set(rows))} duplicate rows dropped", file=sys.stderr)
        tune, hold = split(name, rows, family_col)
        for path, part_rows, part in ((tune_path, tune, "tune"), (hold_path, hold, "held out")):
            text = render(header, part_rows, part)
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
            if old != text:
                changed = True
                if not check:
                    with open(path, "w", encoding="utf-8") as f:
                        f.write(text)
        print(f"{name}: {len(tune)} tune, {len(hold)} held out")
    if check and changed:
        print("split.py --check: files would change", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
