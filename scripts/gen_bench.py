#!/usr/bin/env python3
"""Builds large, realistic spec-link benchmark inputs from a DPC++ fixture image (stdlib only).

Works on the fixture's `.spvasm` text (spirv-dis output) and writes SPIR-V assembly text; the
caller (scripts/gen-bench.sh) assembles it with `spirv-as`.

A "clone" k of the fixture is a copy of
  - every function *definition* (kernels and helpers; marker and other declarations stay shared),
  - every module-scope `OpVariable` (the symbolic-ID strings and `specialization_id` globals), except
    `Input` variables and variables with `LinkageAttributes`,
  - every module-scope instruction that (transitively) uses one of those,
  - their `OpName`/`OpDecorate`/`OpMemberDecorate`/`OpEntryPoint`/`OpExecutionMode` lines,
with every id it defines renamed `%x` -> `%x__k<k>`, string literals of the copied debug/annotation
lines and the entry-point name suffixed `_k<k>`, and each symbolic-ID string
(`uid<hex hash>____<name>`, an `OpConstantComposite` of 8-bit `OpConstant`s) given a per-clone hash of
the same length, so that every clone has its own kernels, entry points and symbolic IDs (like N
translation units built with different -fsycl-unique-prefix values). Types and constants are shared.
Clone 0 is the fixture itself, unchanged.

Modes:
  markers      the marker calls stay (spec-link's normal input)
  passthrough  the marker functions' names (OpName and LinkageAttributes) get `2021` instead of
               `2020` (same length), so they are ordinary imported functions: a module of the same
               size and shape without markers, which spec-link must copy through unchanged

Output is deterministic (depends only on the fixture text, the clone count and the mode).
"""

import argparse
import os
import re
import sys

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\S+')
HEX = set(b"0123456789abcdef")
MARKER_RE = re.compile(r"(_Z37__sycl_getScalar|_Z40__sycl_getComposite)2020SpecConstantValue")

# Debug/annotation opcodes whose first operand is the target id.
TARGETED = {
    "OpName", "OpMemberName", "OpDecorate", "OpMemberDecorate", "OpDecorateId", "OpDecorateString",
    "OpMemberDecorateString", "OpExecutionMode", "OpExecutionModeId",
}


class Line:
    __slots__ = ("text", "result", "opcode", "ops")

    def __init__(self, text):
        self.text = text
        toks = TOKEN.findall(text)
        if len(toks) >= 3 and toks[1] == "=":
            self.result, self.opcode, self.ops = toks[0], toks[2], toks[3:]
        else:
            self.result, self.opcode, self.ops = None, toks[0] if toks else "", toks[1:]

    def ids(self):
        return [t for t in self.ops if t.startswith("%")]


def die(msg):
    print(f"gen_bench.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


class Template:
    def __init__(self, text):
        lines = [Line(t) for t in text.splitlines() if t.strip() and not t.lstrip().startswith(";")]
        for ln in lines:
            if ln.opcode == "OpDecorationGroup":
                die("OpDecorationGroup is not supported by this generator")
        first_fn = next((i for i, ln in enumerate(lines) if ln.opcode == "OpFunction"), len(lines))
        self.module_lines = lines[:first_fn]
        # Functions: (lines, is_definition)
        self.functions = []
        cur = None
        for ln in lines[first_fn:]:
            if ln.opcode == "OpFunction":
                cur = []
            if cur is None:
                die(f"instruction outside a function after the first OpFunction: {ln.text.strip()}")
            cur.append(ln)
            if ln.opcode == "OpFunctionEnd":
                self.functions.append((cur, any(x.opcode == "OpLabel" for x in cur)))
                cur = None
        if not any(d for _, d in self.functions):
            die("the fixture has no function definitions")

        # Ids with linkage (shared, never cloned unless they are definitions).
        linked = {ln.ops[0] for ln in self.module_lines
                  if ln.opcode == "OpDecorate" and len(ln.ops) > 1 and ln.ops[1] == "LinkageAttributes"}

        cloned = set()
        for body, is_def in self.functions:
            if is_def:
                cloned.update(ln.result for ln in body if ln.result)
        # Module-scope: variables, then the forward closure of their users.
        self.global_start = next(i for i, ln in enumerate(self.module_lines)
                                 if ln.result and ln.opcode.startswith("OpType"))
        self.cloned_globals = set()
        for ln in self.module_lines[self.global_start:]:
            if not ln.result:
                continue
            if ln.opcode == "OpVariable" and ln.ops[1] != "Input" and ln.result not in linked:
                self.cloned_globals.add(ln.result)
            elif any(t in cloned or t in self.cloned_globals for t in ln.ids()):
                self.cloned_globals.add(ln.result)
        cloned |= self.cloned_globals
        self.cloned = cloned

        # 8-bit integer constants (for the symbolic-ID strings).
        self.uchar_types = {ln.result for ln in self.module_lines
                            if ln.opcode == "OpTypeInt" and ln.ops[:1] == ["8"]}
        self.uchar_by_id = {}
        self.uchar_by_value = {}
        last_uchar = None
        for i, ln in enumerate(self.module_lines):
            if ln.opcode == "OpConstant" and ln.ops[0] in self.uchar_types:
                v = int(ln.ops[1], 0)
                self.uchar_by_id[ln.result] = v
                self.uchar_by_value.setdefault(v, ln.result)
                last_uchar = i
        # Symbolic-ID strings: composite initializers of cloned variables that spell "uid<hex>...".
        self.strings = {}  # composite id -> (type, bytes, hex start, hex len)
        defs = {ln.result: ln for ln in self.module_lines if ln.result}
        for ln in self.module_lines:
            if ln.opcode != "OpVariable" or ln.result not in self.cloned_globals or len(ln.ops) < 3:
                continue
            init = defs.get(ln.ops[2])
            if init is None or init.opcode != "OpConstantComposite":
                continue
            parts = init.ops[1:]
            if not parts or not all(p in self.uchar_by_id for p in parts):
                continue
            s = bytes(self.uchar_by_id[p] for p in parts)
            if not s.startswith(b"uid"):
                continue
            n = 0
            while 3 + n < len(s) and s[3 + n] in HEX:
                n += 1
            if n < 4:
                die(f"symbolic ID {s!r}: no hex hash after 'uid' to vary per clone")
            self.strings[init.result] = (init.ops[0], s, 3, n)
        if not self.strings:
            die("no symbolic-ID strings (uid<hex>...) found among the cloned globals")
        self.cloned |= set(self.strings)
        # Missing hex-digit constants are added after the last 8-bit constant.
        self.extra_consts = []
        if last_uchar is None:
            die("no 8-bit integer constants in the fixture")
        uchar_type = self.module_lines[last_uchar].ops[0]
        for c in sorted(HEX):
            if c not in self.uchar_by_value:
                name = f"%uchar_gen_{c}"
                self.uchar_by_value[c] = name
                self.extra_consts.append(f"{name} = OpConstant {uchar_type} {c}")
        self.extra_after = last_uchar

    # ---------------------------------------------------------------------------------------
    def rename(self, ln, k, suffix_strings):
        """The line's text for clone k (k == 0: unchanged)."""
        if k == 0:
            return ln.text.strip()
        out = []
        toks = TOKEN.findall(ln.text)
        for t in toks:
            if t.startswith("%") and t in self.cloned:
                out.append(f"{t}__k{k}")
            elif suffix_strings and t.startswith('"'):
                out.append(t[:-1] + f'_k{k}"')
            else:
                out.append(t)
        return " ".join(out)

    def string_line(self, ln, k, seen):
        ty, s, start, n = self.strings[ln.result]
        if k == 0:
            new = s
        else:
            h = f"{k:0{n}x}".encode()
            if len(h) > n:
                die(f"clone {k} does not fit in a {n}-digit hash")
            new = s[:start] + h + s[start + n:]
        if new in seen:
            die(f"symbolic ID {new!r} would repeat")
        seen.add(new)
        res = ln.result if k == 0 else f"{ln.result}__k{k}"
        return f"{res} = OpConstantComposite {ty} " + " ".join(self.uchar_by_value[c] for c in new)

    def emit(self, ks, mode, out):
        """Writes the module with clones ks (an increasing range of clone indices)."""
        w = out.write
        seen_strings = set()

        def fix(text):
            if mode != "passthrough":
                return text
            # Only inside string literals: the ids' names must stay as they are.
            return TOKEN.sub(lambda m: MARKER_RE.sub(r"\g<1>2021SpecConstantValue", m.group(0))
                             if m.group(0).startswith('"') else m.group(0), text)

        for i, ln in enumerate(self.module_lines):
            op = ln.opcode
            if i >= self.global_start and ln.result in self.strings:
                for k in ks:
                    w(self.string_line(ln, k, seen_strings) + "\n")
            elif i >= self.global_start and ln.result in self.cloned_globals:
                for k in ks:
                    w(self.rename(ln, k, False) + "\n")
            elif op == "OpEntryPoint":
                for k in ks:
                    w(self.rename(ln, k, True) + "\n")
            elif op in TARGETED and ln.ops and ln.ops[0] in self.cloned:
                for k in ks:
                    w(fix(self.rename(ln, k, True)) + "\n")
            else:
                w(fix(ln.text.strip()) + "\n")
            if i == self.extra_after:
                for c in self.extra_consts:
                    w(c + "\n")
        for body, is_def in self.functions:
            if not is_def:
                for ln in body:
                    w(ln.text.strip() + "\n")
        for k in ks:
            for body, is_def in self.functions:
                if is_def:
                    for ln in body:
                        w(self.rename(ln, k, False) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spvasm", nargs="+",
                    help="fixture .spvasm (spirv-dis of a DPC++ image0.input.spv); several only with --split-dir")
    ap.add_argument("-n", "--clones", type=int, default=1,
                    help="number of clones in the module (>= 1); with --split-dir: number of modules")
    ap.add_argument("--first", type=int, default=0, help="index of the first clone (0 = the fixture itself)")
    ap.add_argument("--mode", choices=["markers", "passthrough"], default="markers")
    ap.add_argument("-o", "--output", default="-", help="output .spvasm ('-' = stdout)")
    ap.add_argument("--split-dir", metavar="DIR",
                    help="write N single-clone modules DIR/mNNNNN.spvasm instead, module i being clone "
                         "FIRST+i of fixture i mod (number of fixtures): unique entry points and symbolic IDs")
    ap.add_argument("--print-version", action="store_true",
                    help="print the first fixture's SPIR-V version from its header comment (e.g. 1.4) and exit")
    args = ap.parse_args()
    texts = []
    for path in args.spvasm:
        with open(path, encoding="utf-8") as f:
            texts.append(f.read())
    if args.print_version:
        m = re.search(r"^; Version: (\d+\.\d+)", texts[0], re.M)
        print(m.group(1) if m else "1.0")
        return
    if args.clones < 1 or args.first < 0:
        die("--clones must be >= 1 and --first >= 0")
    templates = [Template(t) for t in texts]
    if args.split_dir:
        os.makedirs(args.split_dir, exist_ok=True)
        for i in range(args.clones):
            k = args.first + i
            with open(os.path.join(args.split_dir, f"m{i:05d}.spvasm"), "w", encoding="utf-8") as out:
                templates[i % len(templates)].emit(range(k, k + 1), args.mode, out)
        return
    if len(templates) != 1:
        die("several fixtures only with --split-dir")
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    templates[0].emit(range(args.first, args.first + args.clones), args.mode, out)
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
