#!/usr/bin/env python3
"""Prints the instruction mix of SPIR-V modules (stdlib only), one line each:

    spv_mix.py [--markdown] FILE...

Shares of all instructions: OpExtInst; arithmetic (numeric, bit, relational and logical
instructions, conversions, composite and vector shuffles: opcodes 109-204); loads and stores;
names and decorations (debug and annotation sections); calls; everything else. --markdown prints
table rows `| file | instructions | ext | arith | ld/st | names+decor | calls | other |`.
"""

import sys

EXT, LOAD, STORE, CALL = 12, 61, 62, 57
ANNOT = {5, 6, 71, 72, 73, 74, 75, 332, 5632, 5633}


def mix(path):
    data = open(path, "rb").read()
    words = memoryview(data).cast("I")
    if words[0] != 0x07230203:
        sys.exit(f"spv_mix.py: {path}: not a little-endian SPIR-V module")
    n = ext = arith = ldst = annot = call = 0
    at = 5
    while at < len(words):
        head = words[at]
        op, wc = head & 0xFFFF, head >> 16
        if wc == 0:
            sys.exit(f"spv_mix.py: {path}: word count 0 at word {at}")
        n += 1
        if op == EXT:
            ext += 1
        elif 109 <= op <= 204:
            arith += 1
        elif op in (LOAD, STORE):
            ldst += 1
        elif op in ANNOT:
            annot += 1
        elif op == CALL:
            call += 1
        at += wc
    return n, ext, arith, ldst, annot, call


def main():
    args = sys.argv[1:]
    md = args[:1] == ["--markdown"]
    if md:
        args = args[1:]
    for path in args:
        n, *parts = mix(path)
        other = n - sum(parts)
        shares = [f"{100 * p / n:.1f}%" for p in parts + [other]]
        name = path.rsplit("/", 1)[-1]
        if md:
            print(f"| {name} | {n:,} | " + " | ".join(shares) + " |")
        else:
            print(f"{name}: {n:,} instructions; OpExtInst {shares[0]}, arithmetic {shares[1]}, "
                  f"loads/stores {shares[2]}, names+decorations {shares[3]}, calls {shares[4]}, other {shares[5]}")


if __name__ == "__main__":
    main()
