#!/usr/bin/env python3
"""Merges real corpus modules, each given SYCL 2020 spec-constant marker calls, into one SPIR-V
assembly text (stdlib + scripts/lowering_corpus.py); scripts/gen-bench.sh assembles it and clones its
kernels (scripts/gen_bench.py) into the corpus-<S>MB bench inputs.

    gen_bench_corpus.py [--corpus corpus/modules] [--seed 1] -o OUT.spvasm MODULE...

MODULE: paths relative to --corpus (scripts/corpus.sh's modules/<dist>-<version>/<file>.spv).
Each module must be an OpenCL kernel module that spirv-dis reads (`spirv-dis --raw-id`) and that
names no marker yet; all must have the same SPIR-V version and memory model. Module i gets the
marker calls of `lowering_corpus.py make` (lowering_corpus.make_one: marker declarations, a pool of
3 to 8 spec constants with symbolic IDs `uid<hex>____ZL<len>m<i>sc<n><kind>`, 2 to 4 calls in its kernel and 1 to 2
in up to 3 helpers; its random choices seeded by "--seed:MODULE"), then its ids are renamed
`%N` -> `%mi_N` and the modules are merged section by section:
  - capabilities and extensions: the union; OpExtInstImports: one per instruction set;
  - OpMemoryModel: the first module's (the others must match);
  - entry points, execution modes, debug and annotation instructions, global instructions,
    function declarations, function definitions: module after module, in the logical layout;
  - types (but OpTypeStruct, and pointers named by an OpTypeForwardPointer) and the constants
    OpConstant/True/False/Null/Composite that repeat one of an earlier module (same opcode and
    operands after renaming) are dropped and their uses take the earlier id, unless the module
    decorates them (SPIR-V allows one declaration of each non-aggregate type); the OpName and
    OpMemberName of a dropped id are dropped too, and annotation lines that repeat exactly;
  - exported names (LinkageAttributes … Export) of module i > 0 get the suffix `.mi`, so that
    no two definitions export one name.
Fails (exit 1, naming the module) when a module cannot be used or repeats an entry point name. Deterministic.
"""

import argparse
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lowering_corpus  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\S+')
DEBUG_A = {"OpString", "OpSourceExtension", "OpSource", "OpSourceContinued"}
DEBUG_B = {"OpName", "OpMemberName"}
MERGEABLE_CONSTS = {"OpConstant", "OpConstantTrue", "OpConstantFalse", "OpConstantNull", "OpConstantComposite"}


def die(msg):
    print(f"gen_bench_corpus.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def split_line(text):
    """(result, opcode, operand tokens) of one assembly line."""
    toks = TOKEN.findall(text)
    if len(toks) >= 3 and toks[1] == "=":
        return toks[0], toks[2], toks[3:]
    return None, (toks[0] if toks else ""), toks[1:]


class Merged:
    def __init__(self):
        self.caps, self.exts, self.imports = [], [], {}  # imports: set name -> id
        self.memory_model = None
        self.sections = {k: [] for k in ("ep", "em", "debug_a", "debug_b", "debug_c", "annot", "globals", "decls", "defs")}
        self.keys = {}  # dedupe key -> id
        self.annot_seen = set()
        self.entry_names = set()

    def add(self, text, i, where):
        lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith(";")]
        parsed = [split_line(ln) for ln in lines]
        first_fn = next((k for k, p in enumerate(parsed) if p[1] == "OpFunction"), len(parsed))
        decorated = {p[2][0] for p in parsed[:first_fn] if p[1] in lowering_corpus.ANNOTATION_OPS and p[2]}
        forward = {p[2][0] for p in parsed[:first_fn] if p[1] == "OpTypeForwardPointer"}
        alias = {}

        def ren(tok):
            if tok.startswith("%"):
                return alias.get(tok, f"%m{i}_{tok[1:]}")
            return tok

        # Pass 1: which ids repeat an earlier module's (in definition order, so operands are final).
        for res, op, ops in parsed[:first_fn]:
            if op == "OpExtInstImport":
                name = ops[0]
                if name in self.imports:
                    alias[res] = self.imports[name]
                else:
                    self.imports[name] = ren(res)
                continue
            if not res or res in decorated:
                continue
            typed = op.startswith("OpType") and op not in ("OpTypeStruct", "OpTypeForwardPointer") and res not in forward
            if typed or op in MERGEABLE_CONSTS:
                key = op + " " + " ".join(ren(t) for t in ops)
                if key in self.keys:
                    alias[res] = self.keys[key]
                else:
                    self.keys[key] = ren(res)

        def render(res, op, ops):
            head = f"{ren(res)} = " if res else ""
            return head + " ".join([op] + [ren(t) for t in ops])

        in_def = False
        for k, (res, op, ops) in enumerate(parsed):
            if k >= first_fn:
                if op == "OpFunction":
                    cur, in_def = [], False
                cur.append(render(res, op, ops))
                if op == "OpLabel":
                    in_def = True
                if op == "OpFunctionEnd":
                    self.sections["defs" if in_def else "decls"].extend(cur)
                continue
            if res in alias:
                continue
            if op == "OpCapability":
                if ops[0] not in self.caps:
                    self.caps.append(ops[0])
            elif op == "OpExtension":
                if ops[0] not in self.exts:
                    self.exts.append(ops[0])
            elif op == "OpExtInstImport":
                self.sections.setdefault("imports", []).append(render(res, op, ops))
            elif op == "OpMemoryModel":
                mm = " ".join(ops)
                if self.memory_model is None:
                    self.memory_model = mm
                elif mm != self.memory_model:
                    die(f"{where}: OpMemoryModel {mm}, not {self.memory_model}")
            elif op == "OpEntryPoint":
                if ops[2] in self.entry_names:
                    die(f"{where}: entry point {ops[2][:80]}... repeats one of an earlier module")
                self.entry_names.add(ops[2])
                self.sections["ep"].append(render(res, op, ops))
            elif op in ("OpExecutionMode", "OpExecutionModeId"):
                self.sections["em"].append(render(res, op, ops))
            elif op in DEBUG_A:
                self.sections["debug_a"].append(render(res, op, ops))
            elif op in DEBUG_B:
                if ops[0] not in alias:
                    self.sections["debug_b"].append(render(res, op, ops))
            elif op == "OpModuleProcessed":
                self.sections["debug_c"].append(render(res, op, ops))
            elif op in lowering_corpus.ANNOTATION_OPS:
                if op == "OpDecorate" and len(ops) >= 4 and ops[1] == "LinkageAttributes" and ops[-1] == "Export" and i > 0:
                    ops = ops[:2] + [ops[2][:-1] + f'.m{i}"'] + ops[3:]
                line = render(res, op, ops)
                if line not in self.annot_seen:
                    self.annot_seen.add(line)
                    self.sections["annot"].append(line)
            else:
                self.sections["globals"].append(render(res, op, ops))

    def text(self, version):
        out = ["; SPIR-V", f"; Version: {version}"]
        out += [f"OpCapability {c}" for c in self.caps]
        out += [f"OpExtension {e}" for e in self.exts]
        out += self.sections.get("imports", [])
        out.append(f"OpMemoryModel {self.memory_model}")
        for k in ("ep", "em", "debug_a", "debug_b", "debug_c", "annot", "globals", "decls", "defs"):
            out += self.sections[k]
        return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("modules", nargs="+")
    ap.add_argument("--corpus", default=os.path.join(REPO, "corpus", "modules"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    merged, version, calls = Merged(), None, 0
    for i, rel in enumerate(a.modules):
        path = os.path.join(a.corpus, rel)
        if not os.path.isfile(path):
            die(f"{path} not found (scripts/corpus.sh builds the corpus)")
        with open(path, "rb") as f:
            data = f.read()
        dis = subprocess.run(["spirv-dis", "--raw-id", "--no-color", path], capture_output=True, text=True)
        if dis.returncode != 0:
            die(f"{rel}: spirv-dis refuses it: {dis.stderr.strip()[:200]}")
        text, info = lowering_corpus.make_one(dis.stdout, data, random.Random(f"{a.seed}:{rel}"), f"bench-{a.seed}-{i}",
                                              f"m{i}")
        if text is None:
            die(f"{rel}: {info}")
        if version is None:
            version = info["version"]
        elif info["version"] != version:
            die(f"{rel}: SPIR-V {info['version']}, not {version} as the first module")
        calls += info["calls"]
        merged.add(text, i, rel)
    with open(a.output, "w", encoding="utf-8") as f:
        f.write(merged.text(version))
    print(f"{len(a.modules)} modules merged, {calls} marker calls, SPIR-V {version}")


if __name__ == "__main__":
    main()
