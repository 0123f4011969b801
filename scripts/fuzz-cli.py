#!/usr/bin/env python3
"""Mutation fuzzing of spec-link's command line on real DPC++ images (testdata/postlink).

usage: scripts/fuzz-cli.py TARGET SECONDS SEED     TARGET: split | specialize | info

Each run writes its inputs to a scratch folder, runs the release binary (target/release/spec-link,
or $SPEC_LINK) with a 10 s limit and checks the project's rules: exit 0, 1 or 2 only; no panic; no
output file after a failure; `error:` on stderr with exit 1; exit 2 only for a usage error (a name
given a value twice by --set). A run that breaks one is saved under $FUZZ_CLI_FINDINGS (default
fuzz/runs/cli-findings/<target>-<hash>/: the inputs, command.txt, result.txt).

  split       --split per-kernel|per-source|auto --validate on the `off` images of clockstatic,
              jmatrix, nonuniform, esimd-slm (both images), specatom, and the lowered ones
              (`image0.native.spv`) of specconst and spec112, with their .prop files; one
              input (1-3 words changed, a truncation or 1-3 words inserted) or its .prop (lines cut,
              repeated, dropped, characters changed) mutated. $FUZZ_CLI_AUX, when set, names jmatrix's
              off image with NonSemantic.AuxData added (tests/common/auxdata.rs), run with and
              without its .prop.
  specialize  mixfeat's unlowered off image with its .prop, a sidecar written by `specialize --json`
              then mutated (values of wrong types, bad hex, bit counts that do not fit, huge
              numbers, duplicate keys, deleted members), mutated .prop files and images, --set-file
              documents (duplicate keys, deep nesting, huge numbers, truncations).
  info        --input-prop with a sibling per-kernel image's .prop (mismatching names), mutated
              .prop files and images, mutated sidecars.
"""
import os, sys, random, struct, subprocess, json, shutil, tempfile, time, hashlib
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
B = os.environ.get("SPEC_LINK", os.path.join(REPO, "target/release/spec-link"))
R = os.path.join(REPO, "testdata/postlink")
FIND = os.environ.get("FUZZ_CLI_FINDINGS", os.path.join(REPO, "fuzz/runs/cli-findings"))
AUX = os.environ.get("FUZZ_CLI_AUX")
if len(sys.argv) != 4 or sys.argv[1] not in ("split", "specialize", "info"):
    sys.exit(__doc__)
target, secs, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
work = tempfile.mkdtemp(prefix=f"fuzz-cli-{target}-")
# A native image and its sidecar, written by `specialize --json` (what a chain through --json reads).
IN = os.path.join(work, "inputs")
os.makedirs(IN)
subprocess.run([B, "specialize", os.path.join(R, "mixfeat/off/image0.spv"), "--input-prop",
                os.path.join(R, "mixfeat/off/image0.prop"), "-o", IN + "/s1.spv", "--json", IN + "/s1.json",
                "--set", "uid0123456789abcdef____ZL6flagId=true", "-q", "--no-validate"], check=True)

def rd(p): return open(p, "rb").read()

def mutate_words(data):
    n = len(data) // 4
    w = list(struct.unpack(f"<{n}I", data[:n*4]))
    kind = rng.random()
    if kind < 0.55:
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(5 if rng.random() < 0.95 else 0, n)
            c = rng.random()
            if c < 0.2: w[i] = rng.getrandbits(32)
            elif c < 0.4: w[i] = (w[i] + rng.choice([-2, -1, 1, 2])) & 0xffffffff
            elif c < 0.55: w[i] = rng.choice([0, 1, 2, 0xffff, 0x10000, 0xffffffff, 0x7fffffff, 0x80000000])
            elif c < 0.75: w[i] = w[rng.randrange(n)]
            elif c < 0.9: w[i] ^= 1 << rng.randrange(32)
            else:  # word count / opcode half
                w[i] = (w[i] & 0xffff) | (rng.randrange(0, 40) << 16)
        out = struct.pack(f"<{n}I", *w)
    elif kind < 0.75:
        cut = rng.randrange(0, len(data))
        if rng.random() < 0.8: cut -= cut % 4
        out = data[:cut]
    else:
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(5, n + 1)
            v = rng.choice([rng.getrandbits(32), w[rng.randrange(n)], 0, (2 << 16) | 0x11])
            w.insert(i, v)
            n += 1
        out = struct.pack(f"<{n}I", *w)
    return out

def mutate_text(data):
    lines = data.split(b"\n")
    k = rng.random()
    if k < 0.3:
        cut = rng.randrange(0, len(data) + 1); return data[:cut]
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        c = rng.random()
        if c < 0.25: lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        elif c < 0.45: lines.insert(i, lines[rng.randrange(len(lines))])
        elif c < 0.6: del lines[i]
        elif c < 0.8 and lines[i]:
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + bytes([rng.choice(b"|=[]01289AZaz/+ \x00\xff-")]) + lines[i][j+1:]
        else:
            lines[i] = lines[i].replace(b"=2|", rng.choice([b"=1|", b"=3|", b"=2|", b"=1|99999999999999999999", b"=2|////"]), 1)
    return b"\n".join(lines)

HOSTILE = [None, True, False, 0, -1, 1.5, 2**64, 2**128, -2**200, 10**400, "zz", "0", "", "abc", "0x10",
           [], [1], {}, {"a": 1}, "f" * 9, "g0", "00" * 4, "8000000000000000ff", [[[[[[]]]]]]]

def paths(o, pre=()):
    yield pre
    if isinstance(o, dict):
        for k, v in o.items(): yield from paths(v, pre + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o): yield from paths(v, pre + (i,))

def setp(o, p, v):
    for k in p[:-1]: o = o[k]
    o[p[-1]] = v

def getp(o, p):
    for k in p: o = o[k]
    return o

def dumps_big(o):
    s = json.dumps(o)
    return s.replace("1e+400", "1e400").replace("Infinity", "1e999")

def mutate_sidecar(text):
    o = json.loads(text)
    k = rng.random()
    if k < 0.1:
        return mutate_text(text.encode())
    ps = [p for p in paths(o) if p]
    prefer = [p for p in ps if p[0] == "property_sets"]
    for _ in range(rng.randint(1, 3)):
        p = rng.choice(prefer if prefer and rng.random() < 0.8 else ps)
        c = rng.random()
        try:
            if c < 0.6: setp(o, p, rng.choice(HOSTILE))
            elif c < 0.75:
                par = getp(o, p[:-1])
                if isinstance(par, dict): del par[p[-1]]
                else: par.pop(p[-1])
            elif c < 0.9:
                cur = getp(o, p)
                if isinstance(cur, str) and all(ch in "0123456789abcdef" for ch in cur):
                    setp(o, p, rng.choice([cur[:-1], cur + "0", cur + "zz", "ff" * 64, cur.upper(), "ffffffffffffffff" + cur[16:], cur[:16]]))
                elif isinstance(cur, int):
                    setp(o, p, rng.choice([cur + 1, -cur, 2**32, 2**63, 2**64 + 1, 0]))
                else: setp(o, p, rng.choice(HOSTILE))
            else:
                par = getp(o, p[:-1])
                if isinstance(par, dict): par[str(p[-1]) + "\u0000x"] = rng.choice(HOSTILE)
        except (KeyError, IndexError, TypeError, AttributeError):
            pass
    s = dumps_big(o)
    if rng.random() < 0.25:
        # duplicate a key inside the text: repeat the first "key": value pair of some object
        i = s.find('"type"', rng.randrange(len(s)))
        if i > 0:
            j = s.find(",", i); k2 = s.find("}", i)
            e = min(x for x in (j, k2) if x > 0)
            s = s[:i] + s[i:e] + ", " + s[i:e] + s[e:]
    return s.encode()

NAMES = ["uid0123456789abcdef____ZL6flagId", "uid0123456789abcdef____ZL6halfId",
         "uid0123456789abcdef____ZL5cfgId", "uid0123456789abcdef____ZL4f4Id", "nope"]
VALS = ["true", "false", "0", "1", "2", "-1", "1e400", "-1e400", "1.5", "340282366920938463463374607431768211457",
        "18446744073709551616", "99999999999999999999999999999999999999999999999999", "\"0x10\"", "\"inf\"", "\"nan\"",
        "\"0x1p99999\"", "null", "{}", "[]", "[1]", "[1,[2.5,3.5],1]", "[1,[2.5,3.5],1,1]", "[1,[2.5],1]",
        "[1,[1e39,3.5],300]", "[1,2,3,4]", "[1e400,1,1,1]", "\"1\"", "0.1", "65504", "65520", "1e-50", "-0"]

def gen_setfile():
    k = rng.random()
    if k < 0.15:
        d = rng.randint(50, 100000)
        return ("{\"%s\": " % rng.choice(NAMES) + "[" * d + "1" + "]" * d + "}").encode()
    if k < 0.25:
        d = rng.randint(50, 5000)
        return ("{\"%s\": " % rng.choice(NAMES) + "{\"a\":" * d + "1" + "}" * d + "}").encode()
    items = []
    for _ in range(rng.randint(1, 6)):
        items.append('"%s": %s' % (rng.choice(NAMES), rng.choice(VALS)))
    s = "{" + ", ".join(items) + "}"
    if rng.random() < 0.2: s = s[: rng.randrange(len(s))]
    if rng.random() < 0.05: s = rng.choice(["[]", "1", "null", "\"x\"", "{}", ""])
    return s.encode()

def split_job():
    cases = [("clockstatic", ["off/image0"]), ("jmatrix", ["off/image0"]),
             ("nonuniform", ["off/image0"]), ("esimd-slm", ["off/image0", "off/image1"]), ("specatom", ["off/image0"]),
             ("specconst", ["off/image0.native"]), ("spec112", ["off/image0.native"])]
    if AUX: cases.append(("jmatrix-aux", None))
    name, imgs = rng.choice(cases)
    if imgs is None:
        spvs = [rd(AUX)]; props = [] if rng.random() < 0.5 else [rd(R + "/jmatrix/off/image0.prop")]
    else:
        spvs = [rd(f"{R}/{name}/{i}.spv") for i in imgs]; props = [rd(f"{R}/{name}/{i}.prop") for i in imgs]
    mode = rng.choice(["per-kernel", "per-source", "auto"])
    if props and rng.random() < 0.15:
        j = rng.randrange(len(props)); props[j] = mutate_text(props[j]); what = f"prop{j}"
    else:
        j = rng.randrange(len(spvs)); spvs[j] = mutate_words(spvs[j]); what = f"spv{j}"
    files = {}
    args = []
    for i, s in enumerate(spvs): files[f"in{i}.spv"] = s; args.append(f"in{i}.spv")
    for i, p in enumerate(props): files[f"in{i}.prop"] = p; args += ["--input-prop", f"in{i}.prop"]
    extra = ["--emit-kernel-names", "--emit-program-metadata", "--spec-id-order", "dpcpp"] if rng.random() < 0.5 else []
    sc = rng.choice([[], ["--spec-const", "emulation"], ["--spec-const", "default-values"]]) if rng.random() < 0.3 else []
    args += ["--split", mode, "-o", "out/o.table", "--validate"] + extra + sc
    return f"{name}-{mode}-{what}", files, args

def spec_job():
    P = R + "/mixfeat/off"
    k = rng.random()
    files = {"in.spv": rd(P + "/image0.spv")}
    sets = []
    for _ in range(rng.randint(0, 2)):
        sets += ["--set", f"{rng.choice(NAMES)}={rng.choice(VALS)}"]
    if k < 0.35:   # lowered-by-specialize image + mutated sidecar
        files["in.spv"] = rd(IN + "/s1.spv")
        files["in.json"] = mutate_sidecar(open(IN + "/s1.json").read())
        args = ["specialize", "in.spv", "--input-prop", "in.json"]; what = "sidecar"
    elif k < 0.5:  # unlowered image + mutated DPC++ prop
        files["in.prop"] = mutate_text(rd(P + "/image0.prop"))
        args = ["specialize", "in.spv", "--input-prop", "in.prop"]; what = "prop"
    elif k < 0.6:  # unlowered image + sidecar-of-spec (other image's names) mutated
        files["in.json"] = mutate_sidecar(open(IN + "/s1.json").read())
        args = ["specialize", "in.spv", "--input-prop", "in.json"]; what = "unlowered+sidecar"
    elif k < 0.75: # unlowered image mutated with its prop
        files["in.spv"] = mutate_words(files["in.spv"]); files["in.prop"] = rd(P + "/image0.prop")
        args = ["specialize", "in.spv", "--input-prop", "in.prop"]; what = "spv"
    else:          # set-file
        files["vals.json"] = gen_setfile(); files["in.prop"] = rd(P + "/image0.prop")
        args = ["specialize", "in.spv", "--input-prop", "in.prop", "--set-file", "vals.json"]; what = "setfile"
    if not any(a == "--set-file" for a in args) and not sets:
        sets = ["--set", f"{NAMES[0]}=true"]
    args += sets + ["-o", "out/o.spv", "--prop", "out/o.prop", "--json", "out/o.json", "--validate"]
    return what, files, args

def info_job():
    d = rng.choice([R + "/specatom/per_kernel", R + "/manykernels/per_kernel", R + "/spec112/per_kernel",
                    R + "/clockstatic/per_kernel", R + "/optspec-os/per_kernel"])
    nat = sorted(f[:-11] for f in os.listdir(d) if f.endswith(".native.spv"))
    if nat and rng.random() < 0.8:
        a, b = rng.choice(nat), rng.choice(nat)
        spv = rd(f"{d}/{a}.native.spv"); prop = rd(f"{d}/{b}.native.prop")
    else:
        ims = sorted(f[:-4] for f in os.listdir(d) if f.endswith(".spv") and f.count(".") == 1)
        a, b = rng.choice(ims), rng.choice(ims)
        spv = rd(f"{d}/{a}.spv"); prop = rd(f"{d}/{b}.prop")
    files = {"in.spv": spv}
    k = rng.random()
    pname = "in.prop"
    if k < 0.4: files[pname] = prop; what = f"sibling {a} {b}"
    elif k < 0.7: files[pname] = mutate_text(prop); what = f"sibling-mut {a} {b}"
    elif k < 0.85: files["in.spv"] = mutate_words(spv); files[pname] = prop; what = f"spv-mut {a} {b}"
    else:
        pname = "in.json"; files[pname] = mutate_sidecar(open(IN + "/s1.json").read()); what = "sidecar"
    args = ["info", "in.spv", "--input-prop", pname]
    if rng.random() < 0.5: args.append("--json")
    return what, files, args

JOB = {"split": split_job, "specialize": spec_job, "info": info_job}[target]
counts = {"runs": 0, "rc0": 0, "rc1": 0, "rc2": 0, "findings": 0}
end = time.time() + secs
per = {}
seen = set()
while time.time() < end:
    what, files, args = JOB()
    d = os.path.join(work, "r"); shutil.rmtree(d, ignore_errors=True); os.makedirs(d + "/out")
    for f, b in files.items(): open(os.path.join(d, f), "wb").write(b)
    try:
        p = subprocess.run([B] + args, cwd=d, capture_output=True, timeout=10)
        rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    counts["runs"] += 1
    tag = what.split(" ")[0].rsplit("-", 1)[0] if target == "split" else what.split(" ")[0]
    per[(tag, rc)] = per.get((tag, rc), 0) + 1
    if rc in (0, 1, 2): counts[f"rc{rc}"] += 1
    left = os.listdir(d + "/out")
    problem = None
    if rc == "timeout": problem = "hang (>10 s)"
    elif rc not in (0, 1, 2): problem = f"exit {rc}"
    elif "panicked" in err or "RUST_BACKTRACE" in err: problem = "panic"
    elif rc != 0 and left: problem = f"output left after exit {rc}: {left}"
    elif rc == 1 and not err.startswith("error:") and "\nerror:" not in err: problem = "exit 1 without error:"
    elif rc == 2 and "given a value twice" not in err: problem = "usage exit 2 on a data input"
    elif rc == 0 and target == "info" and p.stdout == b"": problem = "info printed nothing"
    if problem:
        key = (problem.split(":")[0], err.split("\n")[0][:80] if "panicked" not in err else err[err.find("panicked"):][:200])
        counts["findings"] += 1
        if key in seen: continue
        seen.add(key)
        h = hashlib.sha1(b"".join(files.values())).hexdigest()[:10]
        fd = f"{FIND}/{target}-{h}"
        os.makedirs(fd, exist_ok=True)
        for f, b in files.items(): open(os.path.join(fd, f), "wb").write(b)
        open(fd + "/command.txt", "w").write("cd " + fd + " && mkdir -p out && " + B + " " + " ".join(f"'{a}'" for a in args) + "\n")
        open(fd + "/result.txt", "w").write(f"{what}\nproblem: {problem}\nrc: {rc}\nstderr:\n{err}\n")
        print(f"FINDING {fd}: {problem}: {err[:300]!r}", flush=True)
print(target, seed, json.dumps(counts), flush=True)
for k in sorted(per, key=str): print("  ", k, per[k])
shutil.rmtree(work, ignore_errors=True)
