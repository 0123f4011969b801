#!/usr/bin/env python3
"""A real-world lowering corpus: corpus modules (scripts/corpus.sh) with SYCL 2020 spec-constant
marker calls added to their kernels and helpers, and the check of spec-link on them.

    lowering_corpus.py make  [--corpus corpus/modules] [--out corpus/lowering] [--seed 1]
                             [--count 300] [--max-bytes 1500000]
    lowering_corpus.py check [--dir corpus/lowering] [--bin target/release/spec-link] [--jobs 2]
                             [--timeout 60] [--limit N]

make: the corpus modules (sorted, then shuffled with --seed) that are OpenCL kernels
(`OpCapability Kernel`, `OpMemoryModel Physical64`, an `OpEntryPoint Kernel` with a body) and name
no marker yet are disassembled (`spirv-dis --raw-id`), given marker calls, and assembled again
(`spirv-as`, the module's own SPIR-V version) until --count modules are made. Deterministic: the
same corpus, seed and count give the same bytes. Added, in the shapes of DPC++'s front end and
clang + llvm-spirv (testdata/clang-composites, docs/reference/dpcpp-reference.md section 1):
  - marker declarations (OpName + LinkageAttributes Import), one per value type:
      i32, f32, i64 scalars by value (`__sycl_getScalar2020SpecConstantValue`),
      <4 x i32> by value and struct {i32, i8} / struct {f32, i32, i8} through an sret pointer
      (`__sycl_getComposite2020SpecConstantValue`);
  - a pool of spec constants per module (symbolic-ID strings `uid<hex>____<name>` as CrossWorkgroup
    i8 arrays, default values as CrossWorkgroup `{ T }` variables), each of one type; several
    kernels share some;
  - in each chosen kernel (up to 6) 2 to 4 calls, and in up to 3 helper functions (functions with a
    body that are no entry point) 1 to 2 calls: symbolic ID and default through
    OpInBoundsPtrAccessChain / OpBitcast + OpPtrCastToGeneric, a null runtime buffer, the result
    stored to (by value) or loaded from (sret) a Function variable;
  - on SPIR-V 1.4 and later, the new variables in the interface of every entry point that reaches
    them (a call graph walk).
Written: OUT/modules/NNNN.spv and OUT/manifest.jsonl (source module, version, kernels, the
kernels that reach a marker, calls added, spec constants). Modules spirv-as refuses after the
edit are counted and skipped (none are expected).

check: every module of OUT/manifest.jsonl through native, emulation (aligned and packed) and
default-values with --validate (spirv-val must be on PATH), counting:
  - refusals (exit 1): of a module spirv-val accepts, a bug; of one it refuses, the input's fault;
  - on a module spirv-val refuses (most corpus modules: Debian's spirv-val 2023.1 does not know
    the Intel extensions they use), "ok-invalid-input" means spec-link --validate found every
    error of the output to be the input's (its validation policy), and wrote it;
  - panics, timeouts, crashes (bugs);
  - the output fails `spirv-val` (spec-link's target environment) where the input passes: a bug;
  - determinism: a second run gives the same module, .prop and JSON bytes;
  - idempotence: spec-link on its own output (same mode) writes it back unchanged;
  - emulation: every kernel that reaches a marker has a buffer argument in the JSON sidecar
    (`kernels[].spec_constants_buffer_arg` not null), and no other kernel has one added;
  - markers left in the output (a bug).
Prints a Markdown summary (and writes OUT/check.md); exit status 1 when any bug was found.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCALAR = "_Z37__sycl_getScalar2020SpecConstantValue"
COMPOSITE = "_Z40__sycl_getComposite2020SpecConstantValue"

# Value kinds: (key, marker name, by sret, value type recipe)
KINDS = [
    ("i32", SCALAR + "IiET_PKcPKvS4_", False),
    ("f32", SCALAR + "IfET_PKcPKvS4_", False),
    ("i64", SCALAR + "IlET_PKcPKvS4_", False),
    ("v4i32", COMPOSITE + "IDv4_iET_PKcPKvS5_", False),
    ("pair", COMPOSITE + "I4PairET_PKcPKvS5_", True),
    ("triple", COMPOSITE + "I6TripleET_PKcPKvS5_", True),
]

PREAMBLE_OPS = {
    "OpCapability", "OpExtension", "OpExtInstImport", "OpMemoryModel", "OpEntryPoint",
    "OpExecutionMode", "OpExecutionModeId", "OpString", "OpSourceExtension", "OpSource",
    "OpSourceContinued", "OpName", "OpMemberName",
}
ANNOTATION_OPS = {
    "OpDecorate", "OpMemberDecorate", "OpDecorationGroup", "OpGroupDecorate",
    "OpGroupMemberDecorate", "OpDecorateId", "OpDecorateString", "OpMemberDecorateString",
}

LINE = re.compile(r"^\s*(?:(%\w+)\s*=\s*)?(Op\w+)(.*)$")


def parse(line):
    m = LINE.match(line)
    if not m:
        return None, None, ""
    return m.group(1), m.group(2), m.group(3).strip()


def header(data):
    le = data[:4] == b"\x03\x02\x23\x07"
    order = "little" if le else "big"
    ver = int.from_bytes(data[4:8], order)
    bound = int.from_bytes(data[12:16], order)
    return (ver >> 16) & 0xFF, (ver >> 8) & 0xFF, bound


def string_words(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Module:
    """The disassembly of one module and the edits made to it."""

    def __init__(self, lines, bound, version):
        self.lines = lines
        self.next_id = bound
        self.version = version
        # normalised right-hand side -> id: the module's own non-aggregate types (which must not
        # be declared twice), and every type added here. (The module's structs and arrays are not
        # reused: they may be packed or decorated.)
        self.types = {}
        for line in lines:
            rid, op, rest = parse(line)
            if rid and op.startswith("OpType") and op not in ("OpTypeStruct", "OpTypeArray"):
                self.types.setdefault(f"{op} {' '.join(rest.split())}".strip(), rid)
        self.capabilities = {parse(l)[2] for l in lines if parse(l)[1] == "OpCapability"}
        self.new_caps, self.names, self.decorations, self.globals = [], [], [], []

    def fresh(self):
        self.next_id += 1
        return f"%{self.next_id - 1}"

    def type(self, rhs):
        key = " ".join(rhs.split())
        if key not in self.types:
            rid = self.fresh()
            self.types[key] = rid
            self.globals.append(f"{rid} = {rhs}")
        return self.types[key]

    def const(self, rhs):
        rid = self.fresh()
        self.globals.append(f"{rid} = {rhs}")
        return rid

    def need(self, cap):
        if cap not in self.capabilities:
            self.capabilities.add(cap)
            self.new_caps.append(f"OpCapability {cap}")


def functions(lines):
    """[(id, start line, end line)] of functions with a body, and of declarations."""
    out, cur = [], None
    for k, line in enumerate(lines):
        rid, op, _ = parse(line)
        if op == "OpFunction":
            cur = [rid, k, None, False]
        elif op == "OpLabel" and cur:
            cur[3] = True
        elif op == "OpFunctionEnd" and cur:
            cur[2] = k
            out.append(tuple(cur))
            cur = None
    return out


def call_graph(lines, funcs):
    calls = {f[0]: set() for f in funcs}
    for fid, start, end, _ in funcs:
        for line in lines[start:end]:
            _, op, rest = parse(line)
            if op == "OpFunctionCall":
                calls[fid].add(rest.split()[1])
    return calls


def reach(calls, root):
    seen, todo = set(), [root]
    while todo:
        f = todo.pop()
        if f in seen:
            continue
        seen.add(f)
        todo.extend(calls.get(f, ()))
    return seen


def make_one(text, data, rng, tag, name_prefix=""):
    """The module's text with marker calls added, and its manifest entry; (None, why) when the
    module cannot take them. name_prefix starts the spec constants' names (`sc<n><kind>`)."""
    major, minor, bound = header(data)
    lines = text.splitlines()
    if not any(parse(l)[1] == "OpCapability" and parse(l)[2] == "Kernel" for l in lines):
        return None, "not a kernel module"
    if not any(parse(l)[1] == "OpMemoryModel" and parse(l)[2].startswith("Physical64") for l in lines):
        return None, "not Physical64"
    if "2020SpecConstantValue" in text:
        return None, "has markers"
    funcs = functions(lines)
    bodies = {f[0]: f for f in funcs if f[3]}
    entries = {}  # function id -> (line index, name)
    for k, line in enumerate(lines):
        _, op, rest = parse(line)
        if op == "OpEntryPoint" and rest.startswith("Kernel"):
            fid = rest.split()[1]
            if fid in bodies:
                entries.setdefault(fid, (k, re.search(r'"(.*?)"', rest).group(1)))
    if not entries:
        return None, "no kernel with a body"
    m = Module(lines, bound, (major, minor))
    for cap in ["Addresses", "Linkage", "Int8", "Int64", "GenericPointer"]:
        m.need(cap)
    t = {}
    t["i8"] = m.type("OpTypeInt 8 0")
    t["i32"] = m.type("OpTypeInt 32 0")
    t["i64"] = m.type("OpTypeInt 64 0")
    t["f32"] = m.type("OpTypeFloat 32")
    t["void"] = m.type("OpTypeVoid")
    t["v4i32"] = m.type(f"OpTypeVector {t['i32']} 4")
    t["pair"] = m.type(f"OpTypeStruct {t['i32']} {t['i8']}")
    t["triple"] = m.type(f"OpTypeStruct {t['f32']} {t['i32']} {t['i8']}")
    p_cw_i8 = m.type(f"OpTypePointer CrossWorkgroup {t['i8']}")
    p_g_i8 = m.type(f"OpTypePointer Generic {t['i8']}")
    c0 = m.const(f"OpConstant {t['i64']} 0")
    null_g = m.const(f"OpConstantNull {p_g_i8}")
    # marker declarations
    decls = {}
    for key, name, sret in KINDS:
        vt = t[key]
        if sret:
            p_sret = m.type(f"OpTypePointer Function {vt}")
            fty = m.type(f"OpTypeFunction {t['void']} {p_sret} {p_g_i8} {p_g_i8} {p_g_i8}")
        else:
            fty = m.type(f"OpTypeFunction {vt} {p_g_i8} {p_g_i8} {p_g_i8}")
        decls[key] = (name, sret, fty)
    # the pool of spec constants
    pool = []
    for n in range(rng.randint(3, 8)):
        key = rng.choice([k for k, _, _ in KINDS])
        local = f"{name_prefix}sc{n}{key}"
        sym = f"uid{hashlib.sha256(f'{tag}-{n}'.encode()).hexdigest()[:16]}____ZL{len(local)}{local}"
        chars = [m.const(f"OpConstant {t['i8']} {b}") for b in sym.encode() + b"\0"]
        n_len = m.const(f"OpConstant {t['i32']} {len(chars)}")
        arr = m.type(f"OpTypeArray {t['i8']} {n_len}")
        p_arr = m.type(f"OpTypePointer CrossWorkgroup {arr}")
        s = m.const(f"OpConstantComposite {arr} {' '.join(chars)}")
        usid = m.fresh()
        m.globals.append(f"{usid} = OpVariable {p_arr} CrossWorkgroup {s}")
        value = default_value(m, t, key, rng)
        sid = m.type(f"OpTypeStruct {t[key]}")
        p_sid = m.type(f"OpTypePointer CrossWorkgroup {sid}")
        init = m.const(f"OpConstantComposite {sid} {value}")
        dvar = m.fresh()
        m.globals.append(f"{dvar} = OpVariable {p_sid} CrossWorkgroup {init}")
        pool.append({"symbolic_id": sym, "kind": key, "usid": usid, "default": dvar})
    # which functions get calls
    kernel_ids = sorted(entries, key=lambda f: bodies[f][1])
    chosen = rng.sample(kernel_ids, min(6, len(kernel_ids)))
    helpers = sorted(f for f in bodies if f not in entries)
    chosen_helpers = rng.sample(helpers, min(3, len(helpers)))
    inserts = {}  # line index -> lines to insert after it
    used_vars = {}  # function id -> set of new global variables
    calls_added = 0
    used_kinds = set()
    for fid in chosen + chosen_helpers:
        n_calls = rng.randint(2, 4) if fid in entries else rng.randint(1, 2)
        _, start, end, _ = bodies[fid]
        label = next(k for k in range(start, end) if parse(lines[k])[1] == "OpLabel")
        after = label
        while after + 1 < end and parse(lines[after + 1])[1] in ("OpVariable", "OpLine", "OpNoLine"):
            after += 1
        variables, body = [], []
        for _ in range(n_calls):
            sc = rng.choice(pool)
            key = sc["kind"]
            name, sret, fty = decls[key]
            used_kinds.add(key)
            vt = t[key]
            p_f = m.type(f"OpTypePointer Function {vt}")
            a, g, b, bg, r = (m.fresh() for _ in range(5))
            body += [
                f"{a} = OpInBoundsPtrAccessChain {p_cw_i8} {sc['usid']} {c0} {c0}",
                f"{g} = OpPtrCastToGeneric {p_g_i8} {a}",
                f"{b} = OpBitcast {p_cw_i8} {sc['default']}",
                f"{bg} = OpPtrCastToGeneric {p_g_i8} {b}",
            ]
            var = m.fresh()
            variables.append(f"{var} = OpVariable {p_f} Function")
            decl = f"%marker_{key}"
            if sret:
                body.append(f"{r} = OpFunctionCall {t['void']} {decl} {var} {g} {bg} {null_g}")
                body.append(f"{m.fresh()} = OpLoad {vt} {var}")
            else:
                body.append(f"{r} = OpFunctionCall {vt} {decl} {g} {bg} {null_g}")
                body.append(f"OpStore {var} {r}")
            used_vars.setdefault(fid, set()).update([sc["usid"], sc["default"]])
            calls_added += 1
        inserts.setdefault(label, []).extend(variables)
        inserts.setdefault(after, []).extend(body)
    # declarations of the kinds used (with fresh numeric ids for the named placeholders)
    decl_lines, rename = [], {}
    for key, (name, sret, fty) in decls.items():
        if key not in used_kinds:
            continue
        fid = m.fresh()
        rename[f"%marker_{key}"] = fid
        vt = t[key]
        params = [m.fresh() for _ in range(4 if sret else 3)]
        ret = t["void"] if sret else vt
        decl_lines.append(f"{fid} = OpFunction {ret} None {fty}")
        if sret:
            decl_lines.append(f"{params[0]} = OpFunctionParameter {m.type(f'OpTypePointer Function {vt}')}")
            m.decorations.append(f"OpDecorate {params[0]} FuncParamAttr Sret")
        for p in params[1:] if sret else params:
            decl_lines.append(f"{p} = OpFunctionParameter {p_g_i8}")
        decl_lines.append("OpFunctionEnd")
        m.names.append(f"OpName {fid} {string_words(name)}")
        m.decorations.append(f"OpDecorate {fid} LinkageAttributes {string_words(name)} Import")
    # interfaces (SPIR-V 1.4+: every global variable an entry point uses)
    calls = call_graph(lines, funcs)
    reaching = []
    for fid, (k, name) in sorted(entries.items(), key=lambda e: e[1][0]):
        reached = reach(calls, fid)
        new = set()
        for f in reached:
            new |= used_vars.get(f, set())
        if new:
            reaching.append(name)
    interface_add = {}
    if (major, minor) >= (1, 4):
        for k, line in enumerate(lines):
            _, op, rest = parse(line)
            if op == "OpEntryPoint":
                fid = rest.split()[1]
                new = set()
                for f in reach(calls, fid):
                    new |= used_vars.get(f, set())
                if new:
                    interface_add[k] = sorted(new, key=lambda v: int(v[1:]))
    # the new text
    out = []
    first_cap = next(k for k, l in enumerate(lines) if parse(l)[1] == "OpCapability")
    names_at = next(k for k, l in enumerate(lines)
                    if parse(l)[1] and parse(l)[1] not in PREAMBLE_OPS)
    decos_at = next(k for k, l in enumerate(lines)
                    if parse(l)[1] and parse(l)[1] not in PREAMBLE_OPS | ANNOTATION_OPS
                    and parse(l)[1] != "OpModuleProcessed")
    first_function = next(k for k, l in enumerate(lines) if parse(l)[1] == "OpFunction")
    for k, line in enumerate(lines):
        if k == names_at:
            out += m.names
        if k == decos_at:
            out += m.decorations
        if k == first_function:
            out += m.globals
            out += decl_lines
        if k in interface_add:
            line = line + " " + " ".join(interface_add[k])
        out.append(line)
        if k == first_cap:
            out += m.new_caps
        out += inserts.get(k, [])
    text = "\n".join(out) + "\n"
    for placeholder, fid in rename.items():
        text = text.replace(placeholder + " ", fid + " ")
    info = {
        "version": f"{major}.{minor}",
        "kernels": [entries[f][1] for f in kernel_ids],
        "kernels_reaching_markers": reaching,
        "functions_with_calls": len(chosen) + len(chosen_helpers),
        "helpers_with_calls": len(chosen_helpers),
        "calls": calls_added,
        "spec_constants": len(pool),
    }
    return text, info


def default_value(m, t, key, rng):
    i32 = lambda: m.const(f"OpConstant {t['i32']} {rng.randint(0, 2**31 - 1)}")
    i8 = lambda: m.const(f"OpConstant {t['i8']} {rng.randint(0, 255)}")
    f32 = lambda: m.const(f"OpConstant {t['f32']} {rng.randint(-1000, 1000) / 8}")
    if key == "i32":
        return i32()
    if key == "f32":
        return f32()
    if key == "i64":
        return m.const(f"OpConstant {t['i64']} {rng.randint(0, 2**63 - 1)}")
    if key == "v4i32":
        return m.const(f"OpConstantComposite {t['v4i32']} {i32()} {i32()} {i32()} {i32()}")
    if key == "pair":
        return m.const(f"OpConstantComposite {t['pair']} {i32()} {i8()}")
    return m.const(f"OpConstantComposite {t['triple']} {f32()} {i32()} {i8()}")


def make(args):
    paths = []
    for root, _, files in os.walk(args.corpus):
        paths += [os.path.join(root, f) for f in files if f.endswith(".spv")]
    paths.sort()
    rng = random.Random(args.seed)
    rng.shuffle(paths)
    out_dir = os.path.join(args.out, "modules")
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    made, skipped, manifest = 0, {}, []
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            if made >= args.count:
                break
            if os.path.getsize(path) > args.max_bytes:
                skipped["larger than --max-bytes"] = skipped.get("larger than --max-bytes", 0) + 1
                continue
            with open(path, "rb") as f:
                data = f.read()
            dis = subprocess.run(["spirv-dis", "--raw-id", "--no-color", path],
                                 capture_output=True, text=True)
            if dis.returncode != 0:
                skipped["spirv-dis refuses it"] = skipped.get("spirv-dis refuses it", 0) + 1
                continue
            module_rng = random.Random(f"{args.seed}:{os.path.relpath(path, args.corpus)}")
            text, info = make_one(dis.stdout, data, module_rng, f"{args.seed}-{made}")
            if text is None:
                skipped[info] = skipped.get(info, 0) + 1
                continue
            asm = os.path.join(tmp, "m.spvasm")
            with open(asm, "w") as f:
                f.write(text)
            dest = os.path.join(out_dir, f"{made:04d}.spv")
            r = subprocess.run(["spirv-as", "--target-env", f"spv{info['version']}", asm,
                                "-o", dest], capture_output=True, text=True)
            if r.returncode != 0:
                why = "spirv-as refuses the edit: " + r.stderr.strip().splitlines()[0][:120]
                skipped[why] = skipped.get(why, 0) + 1
                continue
            info["source"] = os.path.relpath(path, REPO)
            info["module"] = os.path.relpath(dest, args.out)
            manifest.append(info)
            made += 1
    with open(os.path.join(args.out, "manifest.jsonl"), "w") as f:
        for info in manifest:
            f.write(json.dumps(info, sort_keys=True) + "\n")
    calls = sum(i["calls"] for i in manifest)
    print(f"made {made} modules ({calls} marker calls, "
          f"{sum(i['spec_constants'] for i in manifest)} spec constants, "
          f"{sum(len(i['kernels_reaching_markers']) for i in manifest)} kernels reaching a marker, "
          f"{sum(i['helpers_with_calls'] for i in manifest)} helpers with calls) in {out_dir}")
    for why, n in sorted(skipped.items(), key=lambda e: -e[1]):
        print(f"  skipped {n}: {why}")


MODES = [
    ("native", ["--spec-const", "native"]),
    ("emulation", ["--spec-const", "emulation"]),
    ("emulation-packed", ["--spec-const", "emulation", "--emulation-layout", "packed"]),
    ("default-values", ["--spec-const", "default-values"]),
]


def target_env(data):
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import corpus_check  # noqa: E402
    return corpus_check.target_env(data)


def run(cmd, timeout):
    try:
        r = subprocess.run(cmd, capture_output=True, timeout=timeout)
        return r.returncode, r.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""


def check_one(binary, path, info, timeout):
    """Every mode on one module: a list of (mode, outcome, detail)."""
    results = []
    with open(path, "rb") as f:
        data = f.read()
    env = target_env(data)
    val_in = subprocess.run(["spirv-val", "--target-env", env, path], capture_output=True)
    valid_in = val_in.returncode == 0
    with tempfile.TemporaryDirectory() as tmp:
        for mode, flags in MODES:
            outs = []
            for k in range(2):
                o = os.path.join(tmp, f"{mode}{k}")
                cmd = [binary, path, "-o", o + ".spv", "--prop", o + ".prop", "--json",
                       o + ".json", "--validate", "--quiet"] + flags
                rc, err = run(cmd, timeout)
                outs.append((o, rc, err))
            (o, rc, err), (o2, rc2, err2) = outs
            if rc == "timeout" or rc2 == "timeout":
                results.append((mode, "TIMEOUT", ""))
                continue
            if "panicked" in err or not isinstance(rc, int) or rc not in (0, 1) or rc < 0:
                results.append((mode, "CRASH", err.strip()[:300]))
                continue
            if rc != 0:
                first = err.strip().splitlines()[0] if err.strip() else ""
                results.append((mode, "REFUSED-VALID" if valid_in else "refused-invalid-input",
                                first[:300]))
                continue
            files = [read(o + ext) for ext in (".spv", ".prop", ".json")]
            if files != [read(o2 + ext) for ext in (".spv", ".prop", ".json")]:
                results.append((mode, "NONDETERMINISTIC", ""))
                continue
            out_module = files[0]
            val_out = subprocess.run(["spirv-val", "--target-env", env, o + ".spv"],
                                     capture_output=True, text=True)
            if valid_in and val_out.returncode != 0:
                results.append((mode, "INVALID-AFTER", (val_out.stderr or val_out.stdout).strip()[:300]))
                continue
            marker_calls = calls_to_markers(o + ".spv")
            if marker_calls:
                results.append((mode, "MARKERS-LEFT", f"{marker_calls} calls"))
                continue
            again = os.path.join(tmp, f"{mode}-again.spv")
            rc3, err3 = run([binary, o + ".spv", "-o", again, "--no-validate", "--quiet"] + flags,
                            timeout)
            if rc3 != 0 or read(again) != out_module:
                results.append((mode, "NOT-IDEMPOTENT", err3.strip()[:300]))
                continue
            if mode.startswith("emulation"):
                sidecar = json.loads(files[2])
                kernels = {k["name"]: k["spec_constants_buffer_arg"] for k in sidecar.get("kernels", [])}
                want = set(info["kernels_reaching_markers"])
                missing = sorted(k for k in want if kernels.get(k) is None)
                extra = sorted(k for k, arg in kernels.items() if arg is not None and k not in want)
                if missing or extra:
                    results.append((mode, "BUFFER-MISMATCH", f"missing {missing} extra {extra}"))
                    continue
            results.append((mode, "ok" if valid_in else "ok-invalid-input", ""))
    return results


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def calls_to_markers(path):
    dis = subprocess.run(["spirv-dis", "--no-color", path], capture_output=True, text=True)
    names = set(re.findall(r"^\s*OpName (%\w+) \"_Z\d+__sycl_get\w*2020SpecConstantValue", dis.stdout, re.M))
    return sum(1 for l in dis.stdout.splitlines()
               if "OpFunctionCall" in l and any(f" {n} " in l + " " for n in names))


def check(args):
    binary = os.path.join(tempfile.mkdtemp(), "spec-link")
    shutil.copy(args.bin, binary)  # a concurrent cargo build does not disturb the run
    with open(os.path.join(args.dir, "manifest.jsonl")) as f:
        manifest = [json.loads(l) for l in f]
    if args.limit:
        manifest = manifest[:args.limit]
    counts, bugs = {}, []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(check_one, binary, os.path.join(args.dir, i["module"]), i,
                               args.timeout): i for i in manifest}
        for n, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            info = futures[fut]
            for mode, outcome, detail in fut.result():
                counts[(mode, outcome)] = counts.get((mode, outcome), 0) + 1
                if outcome.isupper():
                    bugs.append(f"{info['module']} ({info['source']}) {mode}: {outcome} {detail}")
            if n % 25 == 0:
                print(f"  {n}/{len(manifest)}", file=sys.stderr)
    lines = [f"Lowering corpus check: {len(manifest)} modules "
             f"({sum(i['calls'] for i in manifest)} marker calls, "
             f"{sum(len(i['kernels_reaching_markers']) for i in manifest)} kernels reaching one), "
             f"{len(MODES)} modes, --validate", "",
             "| mode | outcome | modules |", "|---|---|---:|"]
    for (mode, outcome), c in sorted(counts.items()):
        lines.append(f"| {mode} | {outcome} | {c} |")
    lines += ["", f"bugs: {len(bugs)}"] + [f"- {b}" for b in bugs[:50]]
    report = "\n".join(lines)
    print(report)
    with open(os.path.join(args.dir, "check.md"), "w") as f:
        f.write(report + "\n")
    return 1 if bugs else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("--corpus", default=os.path.join(REPO, "corpus", "modules"))
    mk.add_argument("--out", default=os.path.join(REPO, "corpus", "lowering"))
    mk.add_argument("--seed", type=int, default=1)
    mk.add_argument("--count", type=int, default=300)
    mk.add_argument("--max-bytes", type=int, default=1_500_000)
    ck = sub.add_parser("check")
    ck.add_argument("--dir", default=os.path.join(REPO, "corpus", "lowering"))
    ck.add_argument("--bin", default=os.path.join(REPO, "target", "release", "spec-link"))
    ck.add_argument("--jobs", type=int, default=2)
    ck.add_argument("--timeout", type=int, default=60)
    ck.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    if args.cmd == "make":
        make(args)
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
