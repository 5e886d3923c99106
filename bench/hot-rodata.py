#!/usr/bin/env python3
"""The read-only data the hooks read, as linker-script input section descriptions.

Usage: hot-rodata.py MAP TRACE... > bench/hot-rodata.txt

MAP is the linker's map of the profiled binary (`TRAIL_LINK_MAP=FILE cargo dist`); each TRACE is
a valgrind lackey log (`--tool=lackey --trace-mem=yes`) of one hook run, in the order the runs
matter (the commonest hook first). Every load from an input section of `.rodata` or
`.rodata.hot` names that section; the sections are written in the order the traces first read
them. crates/trail/build.rs gathers them into `.rodata.hot`, before `.rodata`.

String literals and constant tables have no symbol (`.rodata..Lanon.HASH.N`), so the symbol
ordering file cannot place them, and scattered over `.rodata` the ~40 KB a hook reads cost it
~19 windows of 64 KB. Sections the linker merges (`.rodata.str1.1`, `.rodata.cst16`) cannot be
moved and are left where they are.
"""

import bisect
import re
import sys

# VMA, LMA, size, alignment, then the name indented: 0 = output section, 8 = input section.
LINE = re.compile(r"^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+ ( *)(\S.*)$")
MOVABLE_OUTPUTS = {".rodata", ".rodata.hot"}


def input_sections(map_path):
    """(start, end, description) of every movable input section, sorted by start."""
    out = None
    found = []
    with open(map_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            indent = len(m.group(3))
            if indent == 0:
                out = m.group(4)
                continue
            if indent != 8 or out not in MOVABLE_OUTPUTS:
                continue
            desc = describe(m.group(4))
            if desc:
                start = int(m.group(1), 16)
                found.append((start, start + int(m.group(2), 16), desc))
    found.sort()
    return found


def describe(source):
    """`FILE:(SECTION)` as a linker script names it; None for what cannot be moved."""
    if source.startswith("<internal>") or ":(" not in source:
        return None
    path, section = source.rsplit(":(", 1)
    section = section[:-1]
    if not section.startswith(".rodata"):
        return None
    if section != ".rodata":
        # Rust gives every constant a section of its own, named uniquely.
        return f"*({section})"
    # A C object's one `.rodata`: named by its archive member (`libc.a(C-ctype.o)`).
    m = re.search(r"([^/(]+\.a)\(([^)]+)\)$", path)
    return f"*{m.group(1)}:{m.group(2)}(.rodata)" if m else None


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2])
    sections = input_sections(argv[1])
    if not sections:
        sys.exit(f"{argv[1]}: no input sections of .rodata found (not a linker map?)")
    starts = [s[0] for s in sections]
    lo, hi = sections[0][0], sections[-1][1]
    order, seen = [], set()
    for trace in argv[2:]:
        with open(trace, encoding="utf-8", errors="replace") as f:
            for line in f:
                # " L addr,size" (load) and " M addr,size" (modify); "I" is code, "S" a store.
                if line[:2] not in (" L", " M"):
                    continue
                addr = int(line[3 : line.index(",")], 16)
                if not lo <= addr < hi:
                    continue
                i = bisect.bisect_right(starts, addr) - 1
                if i < 0 or addr >= sections[i][1]:
                    continue
                desc = sections[i][2]
                if desc not in seen:
                    seen.add(desc)
                    order.append(desc)
    print("# The input sections of read-only data the hooks read, in the order they first read")
    print("# them: written by bench/hot-symbols.sh (bench/hot-rodata.py), read by crates/trail/")
    print("# build.rs, which gathers them into .rodata.hot.")
    for desc in order:
        print(desc)


if __name__ == "__main__":
    main(sys.argv)
