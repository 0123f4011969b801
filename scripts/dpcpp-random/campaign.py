#!/usr/bin/env python3
"""Differential campaign: spec-link against DPC++ 2026.2 on random SYCL sources from gen.py.

A developer tool (not run by CI or the tests); what it covers and finds: docs/testing.md.

usage: scripts/dpcpp-random/campaign.py FIRST_SEED COUNT [--jobs 2] [--run-every N] [--out DIR]
       scripts/dpcpp-random/campaign.py --dir CASE_DIR [--run]    (one hand-made case:
                                          CASE_DIR/source.cpp and model.json, as gen.py writes)
Needs what scripts/gen-dpcpp-testdata.sh sets up (run it once: .dpcpp-jit/ with DPC++'s wheel
and jitc), the venv and the OpenCL ICD of scripts/setup.sh, spirv-val, and a release build
($SPEC_LINK names another binary). Output (default .dpcpp-random/runs, git-ignored): one
directory per seed and one JSON line per seed in results.jsonl (problems, notes, run failures).

Per seed: gen.py -> jitc (none/native/emulation) -> spec-link (native/emulation, dpcpp order,
validation on) -> compare the spec-constant sections of the .prop with DPC++'s byte for byte;
spirv-val on spec-link's outputs; the generator's model of each constant (size, default
bytes) against spec-link's JSON sidecar; for every N-th seed, run one kernel on the Intel CPU
OpenCL runtime (DPC++'s native image + .prop vs spec-link native / emulation / packed /
default-values), with defaults and one random override set. Known, accepted differences (see
docs/lowering.md, "Where spec-link differs from DPC++ on purpose"): unions whose default sets a
member of other types than their LLVM type's, and bit-fields, where DPC++'s own native image
is wrong or does not run; bytes no SpecId covers differ between native and emulation by design.
"""
import argparse
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
# The binary under test: $SPEC_LINK, else the release build.
SPEC_LINK = os.environ.get("SPEC_LINK", f"{REPO}/target/release/spec-link")
PY = f"{REPO}/.venv/bin/python"
OCL_RUN = f"{REPO}/scripts/ocl_run.py"
JITC = f"{REPO}/.dpcpp-jit/jitc"
LIB = f"{REPO}/.dpcpp-jit/sycl/intel_sycl_rt-2026.2.0.data/data/lib/libsycl-jit.so.23.1"
RT = f"{REPO}/.dpcpp-jit/rt/intel_cmplr_lib_rt-2026.2.0.data/data/lib"


def env_jit():
    e = dict(os.environ)
    e["LD_LIBRARY_PATH"] = RT + (":" + e["LD_LIBRARY_PATH"] if e.get("LD_LIBRARY_PATH") else "")
    return e


def env_ocl():
    e = dict(os.environ)
    e["OCL_ICD_VENDORS"] = f"{REPO}/.ocl-icd"
    return e


def sh(cmd, cwd=None, env=None, timeout=300):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return -999, "", "TIMEOUT"


def spec_sections(text):
    out, on = [], False
    for line in text.splitlines():
        if line.startswith("["):
            on = line.startswith("[SYCL/specialization constants")
        if on:
            out.append(line)
    return "\n".join(out) + "\n"


def rand_override(rng, c):
    """Random valid value bytes for a constant from the generator's model."""
    size = c["size"]
    data = bytearray(rng.getrandbits(8) for _ in range(size))  # padding: random
    for off, n, kind in c["regions"]:
        if kind == "bool":
            data[off] = rng.randint(0, 1)
        elif kind.startswith("enum:"):
            vals = [int(x) for x in kind[5:].split(",")]
            data[off:off + n] = (rng.choice(vals) & ((1 << (8 * n)) - 1)).to_bytes(n, "little")
        elif kind in ("f32", "f64", "f16"):
            sys.path.insert(0, HERE)
            import gen
            f = {"f32": gen.f32_bits_rand, "f64": gen.f64_bits_rand, "f16": gen.f16_bits_rand}[kind]
            data[off:off + n] = f(rng).to_bytes(n, "little")
        else:  # int, raw
            data[off:off + n] = bytes(rng.getrandbits(8) for _ in range(n))
    return bytes(data)


def ocl(spv, run_json, image, prop=None, extra=()):
    cmd = [PY, OCL_RUN, "--spv", spv, "--run-json", run_json, "--image", str(image), *extra]
    if prop:
        cmd += ["--prop", prop]
    rc, out, err = sh(cmd, env=env_ocl(), timeout=600)
    return rc, out, err


def process_seed(seed, outroot, run_phase):
    t0 = time.time()
    d = os.path.join(outroot, f"s{seed}")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    res = dict(seed=seed, dir=d, problems=[], notes=[])
    genv = dict(os.environ)
    genv.pop("GEN_NO_UNION", None)
    genv["GEN_SMALL"] = "1"
    if (seed // 2) % 2 == 1:
        genv["GEN_NO_UNION"] = "1"
    rc, _, err = sh([sys.executable, os.path.join(HERE, "gen.py"), str(seed), d], env=genv, timeout=60)
    if rc:
        res["problems"].append(("generator", err[-2000:]))
        return res
    return process_dir(d, run_phase, res, t0, seed)


def process_dir(d, run_phase, res=None, t0=None, seed=0):
    """Compile d/source.cpp (flags and constants from d/model.json), compare, maybe run."""
    t0 = t0 or time.time()
    res = res or dict(seed=seed, dir=d, problems=[], notes=[])
    for mode in ["none", "native", "emulation"]:
        shutil.rmtree(os.path.join(d, mode), ignore_errors=True)
    model = json.load(open(os.path.join(d, "model.json")))
    res["flags"] = model["flags"]
    res["types"] = [c["type"] for c in model["consts"]]
    for mode in ["none", "native", "emulation"]:
        os.makedirs(os.path.join(d, mode))
        rc, _, err = sh([JITC, "--lib", LIB, "--spec-mode", mode, "--out", mode, "source.cpp", "--",
                         "-Xclang", "-fsycl-unique-prefix=uid0123456789abcdef", *model["flags"]],
                        cwd=d, env=env_jit())
        open(os.path.join(d, f"{mode}.log"), "w").write(err)
        if rc:
            errs = [l for l in err.splitlines() if "error" in l][:6]
            res["rejected"] = dict(mode=mode, rc=rc, errors=errs)
            res["time"] = time.time() - t0
            return res
    images = sorted(glob.glob(os.path.join(d, "none", "image*.spv")))
    res["images"] = len(images)
    consts = {c["sym"]: c for c in model["consts"]}
    run_images = []
    for img in images:
        n = os.path.basename(img)[:-4]
        num = int(n[5:])
        sl = {}
        for mode in ["native", "emulation"]:
            out = os.path.join(d, f"sl-{n}-{mode}")
            cmd = [SPEC_LINK, img, "-o", out + ".spv", "--spec-const", mode, "--spec-id-order", "dpcpp",
                   "--prop", out + ".prop", "--json", out + ".json"]
            rc, so, se = sh(cmd)
            sl[mode] = (rc, se)
            if rc != 0 or "panick" in se:
                res["problems"].append((f"{n} spec-link {mode} rc={rc}", se[-3000:]))
                continue
            if se.strip():
                if re.search(r"input|inherit", se, re.I):
                    res["notes"].append(f"{n} {mode} warning: {se.strip()[:300]}")
                else:
                    res["problems"].append((f"{n} spec-link {mode} stderr", se[-3000:]))
            ours = spec_sections(open(out + ".prop").read())
            theirs = spec_sections(open(os.path.join(d, mode, n + ".prop")).read())
            if ours != theirs:
                res["problems"].append((f"{n} prop {mode} differs", f"ours:\n{ours}\ntheirs:\n{theirs}"))
            # spirv-val of our output; and of the input (for reference)
            vrc, _, verr = sh(["spirv-val", out + ".spv"])
            if vrc:
                irc, _, ierr = sh(["spirv-val", img])
                first_out = verr.strip().splitlines()[0] if verr.strip() else ""
                first_in = ierr.strip().splitlines()[0] if ierr.strip() else ""
                if irc == 0:
                    res["problems"].append((f"{n} spirv-val {mode} (input passes)", verr[-2000:]))
                else:
                    res["notes"].append(f"{n} spirv-val {mode} fails; input too: out={first_out[:200]} in={first_in[:200]}")
        for mode, extra in [("packed", ["--spec-const", "emulation", "--emulation-layout", "packed"]),
                            ("defaults", ["--spec-const", "default-values"])]:
            out = os.path.join(d, f"sl-{n}-{mode}")
            cmd = [SPEC_LINK, img, "-o", out + ".spv", *extra, "--spec-id-order", "dpcpp",
                   "--prop", out + ".prop", "--json", out + ".json"]
            rc, so, se = sh(cmd)
            if rc != 0 or "panick" in se:
                res["problems"].append((f"{n} spec-link {mode} rc={rc}", se[-3000:]))
            elif se.strip() and not re.search(r"input|inherit", se, re.I):
                res["problems"].append((f"{n} spec-link {mode} stderr", se[-3000:]))
        # model check against spec-link's emulation sidecar (default bytes, sizes)
        try:
            side = json.load(open(os.path.join(d, f"sl-{n}-emulation.json")))
            for sc in side["spec_constants"]:
                c = consts.get(sc["symbolic_id"])
                if c is None:
                    res["problems"].append((f"{n} unknown symbolic id", sc["symbolic_id"]))
                    continue
                if sc["size"] != c["size"]:
                    res["notes"].append(f"MODEL size {c['var']} {c['type']}: model {c['size']} dpcpp {sc['size']}")
                    c["bad_model"] = True
                    continue
                got = bytes.fromhex(sc["default"])
                want = bytes.fromhex(c["default"])
                bad = [i for i, m in enumerate(c["mask"]) if m == "1" and got[i] != want[i]]
                if bad:
                    res["notes"].append(f"MODEL default {c['var']} {c['type']}: bytes {bad[:8]} model {want.hex()} got {got.hex()}")
                    c["bad_model_default"] = True
        except (OSError, ValueError, KeyError) as e:
            res["notes"].append(f"{n} no sidecar: {e}")
        run_images.append((n, num))

    if run_phase and not any("spec-link" in p[0] for p in res["problems"]):
        rng = random.Random(seed * 7919 + 1)
        res["runs"] = 0
        for n, num in run_images[:1]:  # time: one image, one random kernel
            kernels = [k for k in open(os.path.join(d, "none", n + ".kernels.txt")).read().split() if k]
            kernels = [rng.choice(kernels)] if kernels else []
            dprop = os.path.join(d, "native", n + ".prop")
            syms = re.findall(r"^(uid\w+)=2\|", spec_sections(open(dprop).read()), re.M)
            ov = {}
            for s in syms:
                c = consts.get(s)
                if c is None or c.get("bad_model"):
                    continue
                ov[s] = rand_override(rng, c).hex()
            for k in kernels:
                rj = os.path.join(d, f"run-{n}-{k}.json")
                spec = {"images": [{"image": num, "kernel": k, "nbuf": 1, "overrides": [{}, ov]}]}
                json.dump(spec, open(rj, "w"), indent=1)
                variants = [
                    ("dpcpp", os.path.join(d, "native", n + ".spv"), dprop, []),
                    ("sl-native", os.path.join(d, f"sl-{n}-native.spv"), os.path.join(d, f"sl-{n}-native.prop"), []),
                    ("sl-emulation", os.path.join(d, f"sl-{n}-emulation.spv"), None,
                     ["--emulation-json", os.path.join(d, f"sl-{n}-emulation.json")]),
                    ("sl-packed", os.path.join(d, f"sl-{n}-packed.spv"), None,
                     ["--emulation-json", os.path.join(d, f"sl-{n}-packed.json")]),
                    ("sl-defaults", os.path.join(d, f"sl-{n}-defaults.spv"), None, ["--no-spec"]),
                ]
                results = {}
                for tag, spv, prop, extra in variants:
                    rc, so, se = ocl(spv, rj, num, prop, extra)
                    m = re.search(r"has (\d+) args, but run.json binds args", se)
                    if rc == 2 and m:
                        # -O0: the JIT image keeps its (unused) spec-constant buffer parameter
                        spec2 = json.loads(json.dumps(spec))
                        spec2["images"][0]["buffer_arg"] = 1
                        rj2 = rj[:-5] + f"-{tag}.json"
                        json.dump(spec2, open(rj2, "w"), indent=1)
                        rc, so, se = ocl(spv, rj2, num, prop, extra)
                    if rc != 0:
                        results[tag] = None
                        res.setdefault("runfail", []).append((f"{n} {k} run {tag} rc={rc}", se[-1500:]))
                        continue
                    results[tag] = json.loads(so)
                    res["runs"] += 1
                base = results.get("dpcpp")
                if base is None:
                    # DPC++'s own image does not run: compare spec-link's variants among themselves
                    res["notes"].append(f"{n} {k}: DPC++'s native image failed to run")
                    ok = [t for t, v in results.items() if v is not None and t != "sl-defaults"]
                    for t in ok[1:]:
                        if results[t] != results[ok[0]]:
                            res["problems"].append((f"{n} {k} run: {ok[0]} vs {t} differ (dpcpp failed)", ""))
                    if "sl-defaults" in results and results["sl-defaults"] and ok and \
                            results["sl-defaults"]["results"][0] != results[ok[0]]["results"][0]:
                        res["problems"].append((f"{n} {k} run: {ok[0]} vs sl-defaults differ (dpcpp failed)", ""))
                    continue
                for tag, v in results.items():
                    if v is None:
                        res["problems"].append((f"{n} {k} run {tag} failed where dpcpp runs", ""))
                r = base["results"]
                if len(r) >= 2 and r[0]["buffers"] == r[1]["buffers"] and ov:
                    res["notes"].append(f"{n} {k}: overrides had no effect")
                for tag, v in results.items():
                    if tag == "dpcpp" or v is None:
                        continue
                    if tag == "sl-defaults":
                        if v["results"][0] != base["results"][0]:
                            res["problems"].append((f"{n} {k} run {tag} differs from dpcpp",
                                f"override 0:\n dpcpp {base['results'][0]['buffers'][0]}\n {tag} {v['results'][0]['buffers'][0]}"))
                        continue
                    if v != base:
                        diffs = []
                        for i, (a, b) in enumerate(zip(base["results"], v["results"])):
                            if a != b:
                                diffs.append(f"override {i}:\n dpcpp {a['buffers'][0]}\n {tag:6} {b['buffers'][0]}")
                        res["problems"].append((f"{n} {k} run {tag} differs from dpcpp", "\n".join(diffs)))
    res["time"] = time.time() - t0
    return res


def show(res):
    print(json.dumps({k: v for k, v in res.items() if k != "runfail"}, indent=1))
    for x in res.get("runfail", []):
        print("runfail", x[0], x[1][-300:])


def main():
    for path, what in [(JITC, "run scripts/gen-dpcpp-testdata.sh once"), (LIB, "run scripts/gen-dpcpp-testdata.sh once"),
                       (PY, "run scripts/setup.sh"), (SPEC_LINK, "cargo build --release")]:
        if not os.path.exists(path):
            sys.exit(f"error: {path} not found: {what}")
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--dir":  # campaign.py --dir D [--run]: one hand-made case
        show(process_dir(os.path.abspath(sys.argv[2]), "--run" in sys.argv))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("first", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--run-every", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(REPO, ".dpcpp-random", "runs"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    log = open(os.path.join(a.out, "results.jsonl"), "a")
    seeds = list(range(a.first, a.first + a.count))
    with ProcessPoolExecutor(a.jobs) as ex:
        futs = {s: ex.submit(process_seed, s, a.out, (s % a.run_every) == 0) for s in seeds}
        for s in seeds:
            try:
                r = futs[s].result()
            except Exception as e:
                r = dict(seed=s, problems=[("driver exception", repr(e))], notes=[])
            log.write(json.dumps(r) + "\n")
            log.flush()
            status = "REJECTED" if r.get("rejected") else ("PROBLEMS %d" % len(r["problems"]) if r["problems"] else "ok")
            print(f"seed {s}: {status} images={r.get('images')} runs={r.get('runs')} t={r.get('time', 0):.0f}s", flush=True)


if __name__ == "__main__":
    main()
