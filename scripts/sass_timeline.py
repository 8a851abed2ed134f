#!/usr/bin/env python3
"""Condenses `cuobjdump --dump-sass` output into one line of tokens per kernel, to see where ptxas
put its waits around the wgmma (HGMMA) batches and the epilogue without reading thousands of lines.

  cuobjdump --dump-sass file.cubin | scripts/sass_timeline.py [--match SUBSTRING] [--width N] [--mangled]

Tokens, in program order (a run of the same token is written once with its count, "H*16"):
  H  HGMMA (wgmma)                    A  WARPGROUP.ARRIVE (wgmma.fence)
  W<n> WARPGROUP.DEPBAR.LE gsb0, n   (wgmma.wait_group n: where ptxas or the code waits)
  F  F2FP (fp32 -> 16-bit pairs: the epilogue's conversions)
  M  STSM (stmatrix)   S  STS   s  LDS   G  STG   g  LDG
  T  UTMA* / UBLKCP (TMA)   Y  SYNCS.* (mbarrier)   B  BAR (named barriers)
  L  LDL / STL (local memory: spills)   J  BRA (a branch; '^' where the target is earlier: a loop)
  R  SETMAXNREG
Other instructions are left out. Each kernel's line starts with its counts of HGMMA, waits and
local-memory instructions.
"""
import argparse
import re
import subprocess
import sys

INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")
FUNC = re.compile(r"^\s*Function\s*:\s*(\S+)")


# Opcode prefixes and their tokens, first match wins (STSM before STS).
PREFIXES = [
    ("HGMMA", "H"), ("WARPGROUP.ARRIVE", "A"), ("F2FP", "F"), ("STSM", "M"), ("STS", "S"), ("LDS", "s"),
    ("STG", "G"), ("LDG", "g"), ("UTMA", "T"), ("UBLKCP", "T"), ("SYNCS", "Y"), ("BAR", "B"),
    ("LDL", "L"), ("STL", "L"), ("SETMAXNREG", "R"), ("USETMAXREG", "R"),
]


def token(op, rest, addr):
    if op.startswith("WARPGROUP.DEPBAR"):
        m = re.search(r"gsb0\s*,\s*(0x[0-9a-f]+|\d+)", rest)
        return "W" + (str(int(m.group(1), 0)) if m else "?")
    if op == "BRA":
        m = re.search(r"0x([0-9a-f]+)", rest)
        return "J^" if m and int(m.group(1), 16) <= addr else "J"
    return next((t for prefix, t in PREFIXES if op.startswith(prefix)), None)


def condense(tokens):
    out, prev, count = [], None, 0
    for t in tokens + [None]:
        if t == prev:
            count += 1
            continue
        if prev is not None:
            out.append(prev if count == 1 else f"{prev}*{count}")
        prev, count = t, 1
    return " ".join(out)


def demangle(name):
    try:
        return subprocess.run(["c++filt", name], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return name


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--match", default="", help="only kernels whose demangled name contains this")
    ap.add_argument("--width", type=int, default=0, help="cut each demangled name to this many characters")
    ap.add_argument("--mangled", action="store_true", help="print the names as the SASS spells them (no c++filt)")
    args = ap.parse_args()

    kernels, name, tokens = [], None, []
    for line in sys.stdin:
        f = FUNC.match(line)
        if f:
            if name is not None:
                kernels.append((name, tokens))
            name, tokens = f.group(1), []
            continue
        m = INSTR.search(line)
        if m and name is not None:
            t = token(m.group(2), m.group(3), int(m.group(1), 16))
            if t:
                tokens.append(t)
    if name is not None:
        kernels.append((name, tokens))
    if not kernels:
        sys.exit("sass_timeline.py: no 'Function :' sections in the input (is it cuobjdump --dump-sass output?)")

    for mangled, toks in kernels:
        pretty = mangled if args.mangled else demangle(mangled)
        if args.match and args.match not in pretty:
            continue
        if args.width:
            pretty = pretty[: args.width]
        waits = sum(1 for t in toks if t.startswith("W"))
        print(f"{pretty}\n  HGMMA {toks.count('H')}, waits {waits}, local {toks.count('L')}\n  {condense(toks)}\n")


if __name__ == "__main__":
    main()
