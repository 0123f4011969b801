#!/usr/bin/env python3
"""Run spec-link over the real-world corpus and count what happens (driver of scripts/corpus-check.sh).

    corpus_check.py [--corpus corpus/modules] [--bin target/release/spec-link] [--jobs 2]
                    [--timeout 20] [--limit N] [--sample K] [--seed S] [--wheel NAME]...
                    [--mode native|emulation|default-values] [--val all|changed|none]
                    [--full] [--info] [--out corpus/check]

Every module (corpus/modules/**/*.spv, sorted; --sample K picks K at random with --seed, then
--limit N keeps the first N) is run as

    spec-link MODULE -o OUT --json OUT.json --no-validate [--spec-const MODE] [--no-pass-through]

(--full adds --no-pass-through: a module without markers is indexed and searched like one with
markers instead of being copied through; without it, such modules exercise loading only)

--info runs `spec-link info --json MODULE` instead: "described" when it exits 0 and prints a
JSON object of format spec-link-info/1, "refused" on exit 1 (each distinct message counted),
BAD-JSON (a bug) otherwise; panics, timeouts and crashes as below.

(a fresh OUT per module, 2 at a time, each killed after --timeout seconds; the binary is copied
first, so a concurrent `cargo build` does not disturb the run) and classified:

  processed      exit 0 and OUT written. The input "has markers" when its bytes contain
                 __sycl_getScalar2020SpecConstantValue / __sycl_getComposite2020SpecConstantValue
                 (names are SPIR-V literal strings, so a byte search finds them):
      unchanged  no markers, OUT byte-identical to the input (what spec-link does today);
      same-text  no markers, bytes differ but `spirv-dis --raw-id` of both is the same once comment
                 lines and OpModuleProcessed are dropped (same instructions, same order);
      CHANGED    no markers and the instructions differ: a bug;
      lowered    markers, none left in OUT (spec constants counted from the JSON sidecar);
      MARKERS-LEFT markers and some still in OUT: a bug.
  refused        exit 1 with `error: ...` and no OUT: each distinct first error line is counted
                 with ids (%12), numbers and quoted names masked. OUT present after exit 1 is
                 "PARTIAL-OUTPUT", a bug.
  panic          stderr contains "panicked" (whatever the exit status)
  timeout        still running after --timeout s (killed)
  crash          killed by a signal (not a panic), or any other exit status

spirv-val (the one on PATH, Debian's 2023.1) with spec-link's own default --target-env
(opencl2.2 for SPIR-V <= 1.2 modules with the Kernel capability, else spv<major>.<minor>):

  --val all (default): every processed input is validated. Valid inputs whose OUT differs from
                 the input are validated again after; "valid before, invalid after" is a bug. (A
                 byte-identical OUT has the input's verdict by construction.) Inputs spirv-val
                 rejects are counted and skipped: "cannot parse" when `spirv-dis` cannot read them
                 either, otherwise "invalid before".
  --val changed: validate only inputs whose OUT differs (fast); --val none: no spirv-val.

Output: a Markdown summary on stdout (and OUT/summary.md), every result in OUT/results.jsonl,
and copies of the modules behind every bug and of up to 2 examples per refusal message under
OUT/examples/<category>/ (the original path is in results.jsonl and summary.md).
"""
import argparse
import collections
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
import threading
import time

MARKERS = (b"__sycl_getScalar2020SpecConstantValue", b"__sycl_getComposite2020SpecConstantValue")
BUG_KINDS = ("panic", "timeout", "crash", "CHANGED", "MARKERS-LEFT", "PARTIAL-OUTPUT", "NO-OUTPUT", "BAD-JSON",
             "BAD-IMAGE",
             "valid-before-invalid-after")


def target_env(data):
    """spec-link's default spirv-val environment for the module (src/validate.rs)."""
    if len(data) < 20:
        return "spv1.0"
    le = data[:4] == b"\x03\x02\x23\x07"
    order = "little" if le else "big"
    ver = int.from_bytes(data[4:8], order)
    major, minor = (ver >> 16) & 0xFF, (ver >> 8) & 0xFF
    kernel = False
    pos, n = 20, len(data)
    count = 0
    while pos + 4 <= n and count < 400:
        w = int.from_bytes(data[pos:pos + 4], order)
        wc, op = w >> 16, w & 0xFFFF
        if wc == 0:
            break
        if op == 17 and wc >= 2 and pos + 8 <= n and int.from_bytes(data[pos + 4:pos + 8], order) == 6:
            kernel = True
            break
        if op == 14:  # OpMemoryModel: capabilities are over
            break
        pos += 4 * wc
        count += 1
    if kernel and (major, minor) <= (1, 2):
        return "opencl2.2"
    return f"spv{major}.{min(minor, 6)}"


def normalise(msg):
    msg = re.sub(r"%\d+", "%N", msg)
    msg = re.sub(r"0x[0-9a-fA-F]+", "0xN", msg)
    msg = re.sub(r"(['\"`]).*?\1", r"\1…\1", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg.strip()


def first_error(stderr):
    for line in stderr.splitlines():
        if line.startswith("error:"):
            return line
    lines = [l for l in stderr.splitlines() if l.strip()]
    return lines[0] if lines else "(no message)"


def run(cmd, timeout, stdin=None):
    try:
        p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace"), False
    except subprocess.TimeoutExpired as e:
        err = (e.stderr or b"").decode("utf-8", "replace")
        return None, b"", err, True
    except OSError as e:  # could not start the program at all
        return 127, b"", f"cannot run {cmd[0]}: {e}", False


def spirv_val(path, env, timeout):
    rc, _, err, to = run(["spirv-val", "--target-env", env, path], timeout)
    if to:
        return "timeout", ""
    if rc == 0:
        return "valid", ""
    return "invalid", err.strip().splitlines()[0] if err.strip() else f"exit {rc}"


def dis_text(path, timeout):
    rc, out, err, to = run(["spirv-dis", "--raw-id", "--no-header", "--no-color", path], timeout)
    if to or rc != 0:
        return None
    lines = [l for l in out.decode("utf-8", "replace").splitlines()
             if l.strip() and not l.lstrip().startswith(";") and "OpModuleProcessed" not in l]
    return "\n".join(lines)


def failed(res, rc, err, to, path):
    """Sets `res`'s kind for a run of spec-link on `path` that did not exit 0 (panic, timeout,
    refused with its first error, crash) and returns True; False for one that did."""
    if "panicked" in err:
        res["kind"] = "panic"
        res["message"] = next((l for l in err.splitlines() if "panicked" in l), "")
    elif to:
        res["kind"] = "timeout"
    elif rc == 1:
        msg = first_error(err).replace(path, "MODULE")
        # the validation policy's refusal names spirv-val's error on its next line
        lines = err.splitlines()
        if "does not fail that way" in msg and len(lines) > 1:
            msg += " " + lines[1]
        res.update(kind="refused", message=msg, norm=normalise(msg))
    elif rc != 0:
        res["kind"] = "crash"
        res["message"] = f"signal {-rc}" if rc < 0 else f"exit status {rc}"
    else:
        return False
    return True


def check_info(path, args):
    """`spec-link info --json` on one module: described, refused, or a bug."""
    res = {"path": path}
    t0 = time.monotonic()
    rc, out, err, to = run([args.bin, "info", "--json", path], args.timeout)
    res["seconds"] = round(time.monotonic() - t0, 3)
    res["rc"] = rc
    if not failed(res, rc, err, to, path):
        try:
            doc = json.loads(out)
            ok = isinstance(doc, dict) and doc.get("format") == "spec-link-info/1"
        except ValueError:
            ok = False
        res["kind"] = "described" if ok else "BAD-JSON"
    return res


def check_split(path, args, tmpdir):
    """`spec-link --split MODE` on one module, with spec-link's validation policy (an image may
    fail spirv-val only as the module does): split, refused, or a bug. Each image written is
    read again by spec-link (`IMAGE -o /dev/null --no-validate`: its index checks that every id
    an instruction uses is defined), so an image that lost a definition shows even where
    spirv-val cannot check the module."""
    res = {"path": path}
    d = tempfile.mkdtemp(dir=tmpdir)
    table = os.path.join(d, "out.table")
    try:
        t0 = time.monotonic()
        rc, _, err, to = run([args.bin, path, "--split", args.split, "-o", table], args.timeout)
        res["seconds"] = round(time.monotonic() - t0, 3)
        res["rc"] = rc
        files = sorted(os.listdir(d))
        if failed(res, rc, err, to, path):
            if res["kind"] == "refused" and files:
                res["kind"] = "PARTIAL-OUTPUT"
        elif not os.path.exists(table):
            res["kind"] = "NO-OUTPUT"
        else:
            images = [f for f in files if f.endswith(".spv")]
            res["images"] = len(images)
            res["kind"] = "split"
            for image in images:
                rc2, _, err2, to2 = run([args.bin, os.path.join(d, image), "-o", "/dev/null",
                                         "--no-validate"], args.timeout)
                if to2 or rc2 != 0:
                    res["kind"] = "BAD-IMAGE"
                    res["message"] = f"{image}: " + (first_error(err2).replace(d, "DIR")
                                                     if not to2 else "timeout")
                    break
        return res
    finally:
        shutil.rmtree(d, ignore_errors=True)


def check_one(path, args, tmpdir):
    if args.info:
        return check_info(path, args)
    if args.split:
        return check_split(path, args, tmpdir)
    res = {"path": path}
    with open(path, "rb") as f:
        data = f.read()
    has_markers = any(m in data for m in MARKERS)
    res["markers"] = has_markers
    fd, out = tempfile.mkstemp(suffix=".spv", dir=tmpdir)
    os.close(fd)
    os.unlink(out)  # spec-link must create it (and must not on error)
    js = out + ".json"
    cmd = [args.bin, path, "-o", out, "--json", js, "--no-validate"]
    if args.mode != "native":
        cmd += ["--spec-const", args.mode]
    if args.full:
        cmd += ["--no-pass-through"]
    t0 = time.monotonic()
    rc, _, err, to = run(cmd, args.timeout)
    res["seconds"] = round(time.monotonic() - t0, 3)
    res["rc"] = rc
    try:
        if "panicked" in err:
            res["kind"] = "panic"
            res["message"] = next((l for l in err.splitlines() if "panicked" in l), "")
            res["detail"] = err[-2000:]
            return res
        if to:
            res["kind"] = "timeout"
            return res
        if rc == 1:
            msg = first_error(err).replace(path, "MODULE")
            res["message"] = msg
            res["detail"] = err[:2000]
            if os.path.exists(out) or os.path.exists(js):
                res["kind"] = "PARTIAL-OUTPUT"
            else:
                res["kind"] = "refused"
                res["norm"] = normalise(msg)
            return res
        if rc != 0:
            res["kind"] = "crash"
            res["message"] = f"signal {-rc}" if rc < 0 else f"exit status {rc}"
            res["detail"] = err[-2000:]
            return res
        if not os.path.exists(out):
            res["kind"] = "NO-OUTPUT"
            return res
        with open(out, "rb") as f:
            odata = f.read()
        identical = odata == data
        res["identical"] = identical
        if has_markers:
            if any(m in odata for m in MARKERS):
                res["kind"] = "MARKERS-LEFT"
            else:
                res["kind"] = "lowered"
            try:
                with open(js) as f:
                    side = json.load(f)
                scs = side.get("spec_constants", [])
                res["spec_constants"] = len(scs)
                res["spec_ids"] = sum(len(s.get("spec_ids", [])) for s in scs)
            except (OSError, ValueError) as e:
                res["json_error"] = str(e)
        elif identical:
            res["kind"] = "unchanged"
        else:
            a, b = dis_text(path, args.timeout), dis_text(out, args.timeout)
            if a is not None and a == b:
                res["kind"] = "same-text"
            else:
                res["kind"] = "CHANGED"
                res["message"] = "spirv-dis text differs" if a is not None and b is not None \
                    else "spirv-dis cannot read input or output"
        # validation
        if args.val == "none" or (args.val == "changed" and identical):
            return res
        env = target_env(data)
        res["env"] = env
        before, berr = spirv_val(path, env, args.timeout)
        res["val_before"] = before
        if before == "invalid":
            rc2, _, _, to2 = run(["spirv-dis", "--raw-id", "-o", "/dev/null", path], args.timeout)
            if to2 or rc2 != 0:
                res["val_before"] = "unparsable"
            res["val_before_error"] = berr
        if before == "valid" and not identical:
            after, aerr = spirv_val(out, env, args.timeout)
            res["val_after"] = after
            if after != "valid":
                res["kind_val"] = "valid-before-invalid-after"
                res["val_after_error"] = aerr
        return res
    finally:
        for p in (out, js):
            if os.path.exists(p):
                os.unlink(p)


def wheel_of(path, corpus):
    rel = os.path.relpath(path, corpus)
    return rel.split(os.sep)[0]


def main():
    ap = argparse.ArgumentParser(description="Run spec-link over the corpus and count outcomes.")
    ap.add_argument("--corpus", default="corpus/modules")
    ap.add_argument("--bin", default="target/release/spec-link")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--sample", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--wheel", action="append", help="only this corpus folder (repeatable)")
    ap.add_argument("--mode", default="native", choices=["native", "emulation", "default-values"])
    ap.add_argument("--val", default="all", choices=["all", "changed", "none"])
    ap.add_argument("--full", action="store_true",
                    help="index every module (--no-pass-through), not only those with markers")
    ap.add_argument("--split", choices=["per-kernel", "per-source", "auto", "off"],
                    help="split each module (`--split MODE`, with spec-link's validation) instead "
                         "of lowering it; each image is read again by spec-link")
    ap.add_argument("--info", action="store_true",
                    help="run `spec-link info --json` on each module instead of lowering it")
    ap.add_argument("--out", default="corpus/check")
    ap.add_argument("--examples", type=int, default=2, help="examples kept per refusal message")
    args = ap.parse_args()

    if not os.access(args.bin, os.X_OK):
        sys.exit(f"error: {args.bin} not found (cargo build --release)")
    if args.val != "none" and not shutil.which("spirv-val"):
        sys.exit("error: spirv-val not on PATH (use --val none)")
    modules = []
    for root, dirs, files in os.walk(args.corpus):
        dirs.sort()
        if args.wheel and root != args.corpus and wheel_of(root, args.corpus) not in args.wheel:
            continue
        modules += [os.path.join(root, f) for f in sorted(files) if f.endswith(".spv")]
    if not modules:
        sys.exit(f"error: no .spv modules under {args.corpus} (run scripts/corpus.sh)")
    total_available = len(modules)
    if args.sample is not None and args.sample < len(modules):
        modules = sorted(random.Random(args.seed).sample(modules, args.sample))
    if args.limit is not None:
        modules = modules[:args.limit]

    os.makedirs(args.out, exist_ok=True)
    tmpdir = tempfile.mkdtemp(prefix="tmp-", dir=args.out)
    # run a private copy: a concurrent `cargo build` replaces (and briefly removes) the binary
    tested_bin = args.bin
    args.bin = os.path.join(tmpdir, "spec-link")
    shutil.copy2(tested_bin, args.bin)
    results = []
    lock = threading.Lock()
    t0 = time.monotonic()
    progress_every = max(1, len(modules) // 20)
    what = f"split {args.split}" if args.split else f"mode {args.mode}, val {args.val}"
    print(f"checking {len(modules)} of {total_available} modules with {tested_bin} "
          f"({args.jobs} jobs, {args.timeout:g} s limit, {what})",
          file=sys.stderr, flush=True)
    with open(os.path.join(args.out, "results.jsonl"), "w") as log, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = [pool.submit(check_one, m, args, tmpdir) for m in modules]
        for i, fut in enumerate(concurrent.futures.as_completed(futs), 1):
            r = fut.result()
            r["wheel"] = wheel_of(r["path"], args.corpus)
            with lock:
                results.append(r)
                log.write(json.dumps(r) + "\n")
            if i % progress_every == 0:
                el = time.monotonic() - t0
                print(f"  {i}/{len(modules)}  {el:.0f} s", file=sys.stderr, flush=True)
    shutil.rmtree(tmpdir, ignore_errors=True)
    elapsed = time.monotonic() - t0
    results.sort(key=lambda r: r["path"])
    summary = report(results, args, elapsed, total_available)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(summary)
    print(summary)
    bugs = sum(1 for r in results if r["kind"] in BUG_KINDS or "kind_val" in r)
    sys.exit(1 if bugs else 0)


def report(results, args, elapsed, total_available):
    kinds = collections.Counter(r["kind"] for r in results)
    n = len(results)
    processed = sum(kinds[k] for k in ("unchanged", "same-text", "CHANGED", "lowered", "MARKERS-LEFT"))
    lowered = [r for r in results if r["kind"] == "lowered"]
    nsc = sum(r.get("spec_constants", 0) for r in lowered)
    nids = sum(r.get("spec_ids", 0) for r in lowered)
    vb = collections.Counter(r.get("val_before") for r in results if "val_before" in r)
    vba = sum(1 for r in results if r.get("kind_val") == "valid-before-invalid-after")
    vchecked_after = sum(1 for r in results if "val_after" in r)
    refusals = collections.defaultdict(list)
    for r in results:
        if r["kind"] == "refused":
            refusals[r["norm"]].append(r)

    ex_root = os.path.join(args.out, "examples")
    shutil.rmtree(ex_root, ignore_errors=True)

    def keep(r, cat):
        d = os.path.join(ex_root, cat)
        os.makedirs(d, exist_ok=True)
        dst = os.path.join(d, r["wheel"] + "__" + os.path.basename(r["path"]))
        shutil.copyfile(r["path"], dst)
        return dst

    pct = lambda k: f"{100.0 * k / n:.1f} %" if n else "–"
    L = []
    L.append(f"Corpus check: {n} modules (of {total_available} in the corpus), spec-link "
             f"`--spec-const {args.mode}`{' --no-pass-through' if args.full else ''}, {args.jobs} jobs, {args.timeout:g} s limit per module, "
             f"{elapsed:.0f} s wall.\n")
    L.append("| outcome | modules | share |")
    L.append("|---|---:|---:|")
    if args.info:
        L[0] = (f"Corpus check: {n} modules (of {total_available} in the corpus), `spec-link info "
                f"--json`, {args.jobs} jobs, {args.timeout:g} s limit per module, {elapsed:.0f} s wall.\n")
        L.append(f"| described (exit 0, a spec-link-info/1 object) | {kinds['described']} | {pct(kinds['described'])} |")
        L.append(f"| exit 0, not a spec-link-info/1 object (bug) | {kinds['BAD-JSON']} | {pct(kinds['BAD-JSON'])} |")
    if args.split:
        nimg = sum(r.get("images", 0) for r in results if r["kind"] == "split")
        L[0] = (f"Corpus check: {n} modules (of {total_available} in the corpus), spec-link "
                f"`--split {args.split}` (with its validation policy), {args.jobs} jobs, "
                f"{args.timeout:g} s limit per module, {elapsed:.0f} s wall.\n")
        L.append(f"| split (exit 0, {nimg} images, each read again by spec-link) | {kinds['split']} | {pct(kinds['split'])} |")
        L.append(f"| an image spec-link cannot read again (bug) | {kinds['BAD-IMAGE']} | {pct(kinds['BAD-IMAGE'])} |")
    if not args.split:
        L.append(f"| processed (exit 0, module written) | {processed} | {pct(processed)} |")
        L.append(f"| · no markers, output byte-identical | {kinds['unchanged']} | {pct(kinds['unchanged'])} |")
        L.append(f"| · no markers, same instructions (spirv-dis) | {kinds['same-text']} | {pct(kinds['same-text'])} |")
        L.append(f"| · no markers, instructions CHANGED (bug) | {kinds['CHANGED']} | {pct(kinds['CHANGED'])} |")
        L.append(f"| · markers lowered ({nsc} spec constants, {nids} SpecIds) | {len(lowered)} | {pct(len(lowered))} |")
        L.append(f"| · markers left in the output (bug) | {kinds['MARKERS-LEFT']} | {pct(kinds['MARKERS-LEFT'])} |")
    L.append(f"| refused with an error ({len(refusals)} distinct messages) | {kinds['refused']} | {pct(kinds['refused'])} |")
    L.append(f"| output written although refused (bug) | {kinds['PARTIAL-OUTPUT']} | {pct(kinds['PARTIAL-OUTPUT'])} |")
    L.append(f"| exit 0 without output (bug) | {kinds['NO-OUTPUT']} | {pct(kinds['NO-OUTPUT'])} |")
    L.append(f"| panics | {kinds['panic']} | {pct(kinds['panic'])} |")
    L.append(f"| timeouts (> {args.timeout:g} s) | {kinds['timeout']} | {pct(kinds['timeout'])} |")
    L.append(f"| crashes (signal / other exit) | {kinds['crash']} | {pct(kinds['crash'])} |")
    if args.val != "none" and not args.split:
        L.append("")
        L.append("| spirv-val (Debian 2023.1, spec-link's default target env) | modules |")
        L.append("|---|---:|")
        L.append(f"| input valid | {vb['valid']} |")
        L.append(f"| · output differs and was validated again | {vchecked_after} |")
        L.append(f"| · **valid before, invalid after (bug)** | {vba} |")
        L.append(f"| input invalid (validation part skipped) | {vb['invalid']} |")
        L.append(f"| input unreadable for spirv-val / spirv-dis (skipped) | {vb['unparsable']} |")
        if vb["timeout"]:
            L.append(f"| spirv-val timed out on the input (skipped) | {vb['timeout']} |")
        if args.val == "changed":
            L.append("| (`--val changed`: only inputs whose output differs were validated) | |")

    # per wheel
    L.append("")
    val_cols = args.val != "none" and not args.split
    L.append("| corpus folder | modules | processed | refused | bugs |"
             + (" spirv-val valid / invalid / unreadable |" if val_cols else ""))
    L.append("|---|---:|---:|---:|---:|" + ("---|" if val_cols else ""))
    by_wheel = collections.defaultdict(list)
    for r in results:
        by_wheel[r["wheel"]].append(r)
    for w in sorted(by_wheel):
        rs = by_wheel[w]
        c = collections.Counter(r["kind"] for r in rs)
        p = sum(c[k] for k in ("unchanged", "same-text", "CHANGED", "lowered", "MARKERS-LEFT",
                               "split", "BAD-IMAGE"))
        b = sum(1 for r in rs if r["kind"] in BUG_KINDS or "kind_val" in r)
        v = collections.Counter(r.get("val_before") for r in rs)
        L.append(f"| {w} | {len(rs)} | {p} | {c['refused']} | {b} |"
                 + (f" {v['valid']} / {v['invalid']} / {v['unparsable']} |" if val_cols else ""))

    if refusals:
        L.append("")
        L.append("### Refusal messages (ids and numbers masked)\n")
        L.append("| modules | message | examples |")
        L.append("|---:|---|---|")
        for msg, rs in sorted(refusals.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            exs = rs[:args.examples]
            for r in exs:
                keep(r, "refused")
            ex = "<br>".join(f"`{r['path']}`" for r in exs)
            m = msg.replace("|", "\\|")
            L.append(f"| {len(rs)} | `{m}` | {ex} |")

    bugs = [r for r in results if r["kind"] in BUG_KINDS or "kind_val" in r]
    if bugs:
        L.append("")
        L.append(f"### Bugs ({len(bugs)} modules; copies under `{ex_root}/`)\n")
        for r in bugs:
            kind = r.get("kind_val") if r["kind"] not in BUG_KINDS else r["kind"]
            keep(r, kind)
            detail = r.get("message") or r.get("val_after_error") or ""
            L.append(f"- **{kind}** `{r['path']}` {detail}".rstrip())
    L.append("")
    return "\n".join(L)


if __name__ == "__main__":
    main()
