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
  sparse       like real code, where few calls are spec-constant reads: clone k keeps its marker calls
               iff k % M == 0 (--marker-every M, default 50; clone 0 always does); the other clones
               call a non-marker copy of each marker declaration instead. For each marker declaration
               (a declaration-only OpFunction whose OpName or LinkageAttributes string matches the
               marker names) the module has a second declaration of the same type, its ids (the
               function's and its OpFunctionParameters') renamed `%x` -> `%x__nm`, with copies of its
               OpName/OpDecorate lines (LinkageAttributes ... Import included) whose strings get the
               `2021` rename of passthrough mode; in the non-marker clones, OpFunctionCalls of a marker
               declaration call its `__nm` copy. DPC++ puts the symbolic-ID strings in the Generic
               storage class, which spirv-val rejects (spec-link removes them with the marker calls);
               in the non-marker clones these globals are CrossWorkgroup instead (a new
               `OpTypePointer CrossWorkgroup` per pointee type) and each use in a function body reads
               an `OpPtrCastToGeneric` to the original type inserted before it, so that the lowered
               module passes spirv-val. Same clone count as the markers module, slightly larger (the
               casts); about 1/M of its marker calls (at 100 MB and M = 50: 3,828 of 191,092)

Output is deterministic (depends only on the fixture text, the clone count, the mode and M).
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

        # Marker declarations (declaration-only functions named like markers) and their parameters.
        names = {}
        for ln in self.module_lines:
            if ln.opcode == "OpName" and len(ln.ops) > 1:
                names.setdefault(ln.ops[0], []).append(ln.ops[1])
            elif ln.opcode == "OpDecorate" and len(ln.ops) > 2 and ln.ops[1] == "LinkageAttributes":
                names.setdefault(ln.ops[0], []).append(ln.ops[2])
        self.marker_fns = set()
        self.nm_ids = set()  # ids that get a `__nm` copy in sparse mode
        for body, is_def in self.functions:
            fid = body[0].result
            if not is_def and any(MARKER_RE.search(s) for s in names.get(fid, [])):
                self.marker_fns.add(fid)
                self.nm_ids.add(fid)
                self.nm_ids.update(ln.result for ln in body if ln.opcode == "OpFunctionParameter")

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

        # Sparse mode: the cloned globals in the Generic storage class (DPC++'s symbolic-ID strings,
        # which spirv-val rejects; spec-link removes them with the markers that use them) are
        # CrossWorkgroup in the non-marker clones, their uses in function bodies going through an
        # OpPtrCastToGeneric to the original pointer type, so that the lowered module is valid.
        ptr_types = {}  # pointer type id -> (storage class, pointee)
        for ln in self.module_lines:
            if ln.opcode == "OpTypePointer" and len(ln.ops) == 2:
                ptr_types[ln.result] = (ln.ops[0], ln.ops[1])
        cw_existing = {pointee: t for t, (sc, pointee) in ptr_types.items() if sc == "CrossWorkgroup"}
        self.generic_vars = {}  # variable id -> its (Generic) pointer type
        for ln in self.module_lines:
            if ln.opcode == "OpVariable" and ln.result in self.cloned_globals and ln.ops[1] == "Generic":
                self.generic_vars[ln.result] = ln.ops[0]
        self.cw_type = {}  # Generic pointer type -> the CrossWorkgroup pointer type to the same pointee
        self.cw_new = {}   # Generic pointer type -> line declaring a new CrossWorkgroup pointer type
        for gt in sorted(set(self.generic_vars.values())):
            pointee = ptr_types[gt][1]
            if pointee in cw_existing:
                self.cw_type[gt] = cw_existing[pointee]
            else:
                self.cw_type[gt] = f"{gt}__cw"
                self.cw_new[gt] = f"{gt}__cw = OpTypePointer CrossWorkgroup {pointee}"
        for ln in self.module_lines:
            if ln.result in self.generic_vars or ln.opcode in TARGETED or ln.opcode == "OpEntryPoint":
                continue
            if any(t in self.generic_vars for t in ln.ids()):
                die(f"a Generic global is used at module scope: {ln.text.strip()}")
        for body, is_def in self.functions:
            for ln in body:
                if ln.opcode in ("OpPhi", "OpVariable") and any(t in self.generic_vars for t in ln.ids()):
                    die(f"a Generic global is used by {ln.opcode}: {ln.text.strip()}")
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
    def rename(self, ln, k, suffix_strings, no_markers=False):
        """The line's text for clone k (k == 0: unchanged); no_markers: call the `__nm` copies of the
        marker declarations instead of the markers."""
        if k == 0:
            return ln.text.strip()
        out = []
        toks = TOKEN.findall(ln.text)
        callee = None
        if no_markers and ln.opcode == "OpFunctionCall" and len(ln.ops) > 1 and ln.ops[1] in self.marker_fns:
            callee = (3 if ln.result else 1) + 1  # token index of the Function operand
        for i, t in enumerate(toks):
            if i == callee:
                out.append(f"{t}__nm")
            elif t.startswith("%") and t in self.cloned:
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

    @staticmethod
    def unmark(text):
        """text with the marker names in its string literals renamed `2020` -> `2021` (only inside
        string literals: the ids' names must stay as they are)."""
        return TOKEN.sub(lambda m: MARKER_RE.sub(r"\g<1>2021SpecConstantValue", m.group(0))
                         if m.group(0).startswith('"') else m.group(0), text)

    def nm_copy(self, ln):
        """The `__nm` copy of a marker declaration's line (sparse mode)."""
        toks = TOKEN.findall(ln.text)
        return self.unmark(" ".join(f"{t}__nm" if t in self.nm_ids else t for t in toks))

    def generic_var_line(self, ln, k):
        """A Generic global of clone k (not 0) as a CrossWorkgroup variable (sparse mode)."""
        toks = self.rename(ln, k, False).split(" ")
        # %v__kK = OpVariable <type> Generic [init]
        toks[3] = self.cw_type[ln.ops[0]]
        toks[4] = "CrossWorkgroup"
        return " ".join(toks)

    def body_line_nm(self, ln, k, w):
        """Writes the line of a non-marker clone k's function body: marker calls call the `__nm`
        copies, and Generic globals are cast to Generic first (sparse mode)."""
        text = self.rename(ln, k, False, True)
        used = [t for t in dict.fromkeys(ln.ids()) if t in self.generic_vars]
        if not used:
            w(text + "\n")
            return
        toks = TOKEN.findall(text)
        for n, v in enumerate(used):
            cast = f"{v}__gen{n}__{ln.result[1:] if ln.result else 'x'}__k{k}"
            w(f"{cast} = OpPtrCastToGeneric {self.generic_vars[v]} {v}__k{k}\n")
            toks = [cast if t == f"{v}__k{k}" else t for t in toks]
        w(" ".join(toks) + "\n")

    def emit(self, ks, mode, out, marker_every=50):
        """Writes the module with clones ks (an increasing range of clone indices)."""
        w = out.write
        seen_strings = set()
        sparse = mode == "sparse"
        if sparse and not self.marker_fns:
            die("sparse mode: the fixture has no marker declarations")

        def fix(text):
            return self.unmark(text) if mode == "passthrough" else text

        for i, ln in enumerate(self.module_lines):
            op = ln.opcode
            if i >= self.global_start and ln.result in self.strings:
                for k in ks:
                    w(self.string_line(ln, k, seen_strings) + "\n")
            elif i >= self.global_start and ln.result in self.cloned_globals:
                for k in ks:
                    if sparse and ln.result in self.generic_vars and k % marker_every != 0:
                        w(self.generic_var_line(ln, k) + "\n")
                    else:
                        w(self.rename(ln, k, False) + "\n")
            elif op == "OpEntryPoint":
                for k in ks:
                    w(self.rename(ln, k, True) + "\n")
            elif op in TARGETED and ln.ops and ln.ops[0] in self.cloned:
                for k in ks:
                    w(fix(self.rename(ln, k, True)) + "\n")
            else:
                w(fix(ln.text.strip()) + "\n")
                if sparse and op in TARGETED and ln.ops and ln.ops[0] in self.nm_ids:
                    w(self.nm_copy(ln) + "\n")
            if sparse and ln.result in self.cw_new:
                w(self.cw_new[ln.result] + "\n")
            if i == self.extra_after:
                for c in self.extra_consts:
                    w(c + "\n")
        for body, is_def in self.functions:
            if not is_def:
                for ln in body:
                    w(ln.text.strip() + "\n")
                if sparse and body[0].result in self.marker_fns:
                    for ln in body:
                        w(self.nm_copy(ln) + "\n")
        for k in ks:
            no_markers = sparse and k % marker_every != 0
            for body, is_def in self.functions:
                if is_def:
                    for ln in body:
                        if no_markers:
                            self.body_line_nm(ln, k, w)
                        else:
                            w(self.rename(ln, k, False) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spvasm", nargs="+",
                    help="fixture .spvasm (spirv-dis of a DPC++ image0.input.spv); several only with --split-dir")
    ap.add_argument("-n", "--clones", type=int, default=1,
                    help="number of clones in the module (>= 1); with --split-dir: number of modules")
    ap.add_argument("--first", type=int, default=0, help="index of the first clone (0 = the fixture itself)")
    ap.add_argument("--mode", choices=["markers", "passthrough", "sparse"], default="markers")
    ap.add_argument("--marker-every", type=int, default=50, metavar="M",
                    help="sparse mode: clone k keeps its marker calls iff k %% M == 0 (default 50)")
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
    if args.marker_every < 1:
        die("--marker-every must be >= 1")
    templates = [Template(t) for t in texts]
    if args.split_dir:
        os.makedirs(args.split_dir, exist_ok=True)
        for i in range(args.clones):
            k = args.first + i
            with open(os.path.join(args.split_dir, f"m{i:05d}.spvasm"), "w", encoding="utf-8") as out:
                templates[i % len(templates)].emit(range(k, k + 1), args.mode, out, args.marker_every)
        return
    if len(templates) != 1:
        die("several fixtures only with --split-dir")
    out = sys.stdout if args.output == "-" else open(args.output, "w", encoding="utf-8")
    templates[0].emit(range(args.first, args.first + args.clones), args.mode, out, args.marker_every)
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
