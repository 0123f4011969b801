#!/usr/bin/env python3
"""Run a SPIR-V kernel on Intel's CPU OpenCL runtime, setting SYCL spec constants.

Usage (with the venv made by scripts/setup.sh, after `source scripts/ocl-env.sh`):

    .venv/bin/python scripts/ocl_run.py --spv M.spv --prop M.prop --run-json run.json [--image N] [--no-spec]
    .venv/bin/python scripts/ocl_run.py --dump-prop M.prop

For every override set of the chosen run.json image, the module is loaded with
clCreateProgramWithIL, its spec constants are set the way the SYCL runtime does it
(native mode: one clSetProgramSpecializationConstant per descriptor of the symbolic
ID's entry in `[SYCL/specialization constants]`), it is built with empty options,
and the kernel runs as a single work item on zeroed 256-byte buffers.

stdout: one JSON object {"kernel": ..., "results": [{"override": i, "buffers": [hex, ...]}, ...]}.
Exit codes: 0 ok; 2 usage/setup/input error; 3 the program failed to build.
No network access is needed at run time.
"""

import argparse
import glob
import json
import os
import struct
import sys
import time

# Size of every buffer bound to the kernel; run.json's kernels write far less.
BUF_SIZE = 256

# SpecId of a padding descriptor (dpcpp-reference §5.4): never passed to OpenCL.
PADDING_ID = 0xFFFFFFFF

SPEC_CONST_SET = "SYCL/specialization constants"

# Alphabet of llvm::Base64 (same characters as RFC 4648, different bit order).
B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
B64_VALUE = {c: i for i, c in enumerate(B64_ALPHABET)}


class HarnessError(Exception):
    """A failure that is reported on stderr with exit code 2."""


class BuildError(Exception):
    """clBuildProgram failed; carries the build log (exit code 3)."""

    def __init__(self, log):
        super().__init__(log)
        self.log = log


# --------------------------------------------------------------------------------------
# .prop parsing (dpcpp-reference §5.3, §5.7)
# --------------------------------------------------------------------------------------

def llvm_base64_decode(text):
    """Decode llvm::Base64's variant: bits are packed LSB-first, no '=' padding.

    Per 4 chars c0..c3 -> 3 bytes:
      b0 = c0 | c1<<6,  b1 = c1>>2 | c2<<4,  b2 = c2>>4 | c3<<2   (each & 0xFF).
    A trailing group of 2 chars gives 1 byte, of 3 chars 2 bytes; 1 char is an error.
    """
    try:
        vals = [B64_VALUE[c] for c in text]
    except KeyError as e:
        raise HarnessError(f"invalid base64 character {e.args[0]!r} in {text!r}") from None
    if len(vals) % 4 == 1:
        raise HarnessError(f"base64 string has a dangling character: {text!r}")
    out = bytearray()
    for i in range(0, len(vals), 4):
        c = vals[i:i + 4] + [0] * (4 - len(vals[i:i + 4]))
        n = len(vals[i:i + 4])  # chars actually present in this group (2, 3 or 4)
        group = [
            (c[0] | (c[1] << 6)) & 0xFF,
            ((c[1] >> 2) | (c[2] << 4)) & 0xFF,
            ((c[2] >> 4) | (c[3] << 2)) & 0xFF,
        ]
        out += bytes(group[:n - 1])
    return bytes(out)


def parse_prop_file(path):
    """Parse the textual .prop format into {set name: {prop name: (type, raw value str)}}.

    Mirrors PropertySetRegistry::read: a header is a line starting with '[' up to the
    last ']'; a property line is split on the first '=' then the first '|'; blank lines
    are skipped. Order is kept (dicts are ordered).
    """
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise HarnessError(f"cannot read .prop file: {e}") from None
    sets = {}
    current = None
    for lineno, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if line.startswith("["):
            end = line.rfind("]")
            if end < 0:
                raise HarnessError(f"{path}:{lineno}: unterminated section header")
            current = sets.setdefault(line[1:end], {})
            continue
        if current is None:
            raise HarnessError(f"{path}:{lineno}: property outside any section")
        name, eq, rest = line.partition("=")
        typ, bar, value = rest.partition("|")
        if not eq or not bar:
            raise HarnessError(f"{path}:{lineno}: malformed property line {line!r}")
        try:
            current[name] = (int(typ), value)
        except ValueError:
            raise HarnessError(f"{path}:{lineno}: bad property type {typ!r}") from None
    return sets


def decode_byte_array(value, where):
    """Decode a BYTE_ARRAY property: base64 -> [u64 LE bit count][payload]; return payload."""
    raw = llvm_base64_decode(value)
    if len(raw) < 8:
        raise HarnessError(f"{where}: BYTE_ARRAY shorter than its 8-byte size prefix")
    (bits,) = struct.unpack_from("<Q", raw, 0)
    payload = raw[8:]
    if len(payload) != (bits + 7) // 8:
        raise HarnessError(
            f"{where}: size prefix says {bits} bits but payload has {len(payload)} bytes")
    return payload


def spec_const_descriptors(prop_path):
    """Return {symbolic ID: [(spec_id, offset, size), ...]} from [SYCL/specialization constants]."""
    sets = parse_prop_file(prop_path)
    props = sets.get(SPEC_CONST_SET)
    if props is None:
        raise HarnessError(f"{prop_path}: no [{SPEC_CONST_SET}] section")
    result = {}
    for sym, (typ, value) in props.items():
        where = f"{prop_path}: {sym}"
        if typ != 2:
            raise HarnessError(f"{where}: expected type 2 (BYTE_ARRAY), found {typ}")
        payload = decode_byte_array(value, where)
        if len(payload) % 12:
            raise HarnessError(f"{where}: payload of {len(payload)} bytes is not u32 triples")
        result[sym] = [struct.unpack_from("<III", payload, i) for i in range(0, len(payload), 12)]
    return result


# --------------------------------------------------------------------------------------
# run.json
# --------------------------------------------------------------------------------------

def load_image_spec(run_json_path, image):
    """Pick the run.json entry for device image `image` (matched on its "image" field)."""
    try:
        with open(run_json_path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise HarnessError(f"cannot read run.json: {e}") from None
    images = doc.get("images", [])
    for idx, entry in enumerate(images):
        if entry.get("image", idx) == image:
            break
    else:
        raise HarnessError(f"{run_json_path}: no entry for image {image}")
    for key in ("kernel", "nbuf", "overrides"):
        if key not in entry:
            raise HarnessError(f"{run_json_path}: image {image} has no {key!r}")
    return entry


def parse_hex(text, what):
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise HarnessError(f"{what}: not a hex byte string: {text!r}") from None


# --------------------------------------------------------------------------------------
# OpenCL
# --------------------------------------------------------------------------------------

def import_pyopencl():
    try:
        import numpy
        import pyopencl
    except ImportError as e:
        raise HarnessError(
            f"cannot import {e.name or 'pyopencl/numpy'} ({e}): run this script with "
            f"$REPO/.venv/bin/python after scripts/setup.sh") from None
    return pyopencl, numpy


def get_cpu_device(cl):
    """First device of the first platform that has one (Intel's CPU runtime in practice)."""
    try:
        platforms = cl.get_platforms()
    except cl.Error as e:
        # ocl-icd reports "no ICD found" as CL_PLATFORM_NOT_FOUND_KHR (-1001).
        platforms = []
        reason = f" ({e})"
    else:
        reason = ""
    if not platforms:
        vendors = os.environ.get("OCL_ICD_VENDORS")
        if not vendors:
            hint = "OCL_ICD_VENDORS is not set: source scripts/ocl-env.sh (after scripts/setup.sh)"
        elif not glob.glob(os.path.join(vendors, "*.icd")):
            hint = f"OCL_ICD_VENDORS={vendors} holds no .icd file: run scripts/setup.sh"
        else:
            hint = (f"the runtime named in {vendors}/*.icd did not load (is intel-cmplr-lib-rt "
                    f"installed in the venv?): run scripts/setup.sh")
        raise HarnessError(f"no OpenCL platform{reason}: {hint}")
    for p in platforms:
        devices = p.get_devices()
        if devices:
            return devices[0]
    raise HarnessError("OpenCL platforms found but none has a device")


def resolve_overrides(descriptors, overrides, which):
    """Turn {symbolic ID: value bytes} into [(sym, spec_id, chunk)], as the SYCL runtime does.

    For each symbolic ID, each non-padding descriptor {SpecId, offset, size} gets
    value[offset:offset+size]. Checked up front, before any OpenCL call.
    """
    calls = []
    for sym, value in overrides.items():
        if sym not in descriptors:
            raise HarnessError(f"{which}: {sym!r} is not listed in the .prop's [{SPEC_CONST_SET}]")
        for spec_id, offset, size in descriptors[sym]:
            if spec_id == PADDING_ID:
                continue
            if offset + size > len(value):
                raise HarnessError(
                    f"{which}: {sym!r} has {len(value)} bytes; descriptor "
                    f"{{{spec_id},{offset},{size}}} needs {offset + size}")
            calls.append((sym, spec_id, value[offset:offset + size]))
    return calls


def build_program(cl, np, ctx, dev, spv, spec_calls):
    """Create the program from IL, set the given spec constants, build it."""
    prg = cl.Program(ctx, spv)  # clCreateProgramWithIL
    for sym, spec_id, chunk in spec_calls:
        try:
            # Private pyopencl API -> clSetProgramSpecializationConstant.
            prg._prg.set_specialization_constant(spec_id, np.frombuffer(chunk, dtype=np.uint8).copy())
        except cl.Error as e:
            raise HarnessError(
                f"clSetProgramSpecializationConstant(SpecId {spec_id}, {len(chunk)} bytes) "
                f"for {sym!r} failed: {e}") from None
    try:
        # Raw clBuildProgram with empty options, as the SYCL runtime would
        # (pyopencl's public build() adds '-I <pyopencl>/cl').
        prg._prg._build(options=b"", devices=[dev])
    except cl.Error:
        try:
            log = prg._prg.get_build_info(dev, cl.program_build_info.LOG)
        except cl.Error:
            log = "<could not read the build log>"
        raise BuildError(log) from None
    return prg


def emulation_buffers(sidecar_path, image_spec):
    """Emulation mode: per override set, the spec-constant buffer the SYCL runtime would pass —
    the sidecar's default blob with each overridden value copied at its buffer offset — and the
    kernel argument it binds to (from the sidecar's "kernels")."""
    with open(sidecar_path) as f:
        sidecar = json.load(f)
    if sidecar.get("mode") != "emulation":
        raise HarnessError(f"{sidecar_path}: not an emulation-mode sidecar")
    name = image_spec["kernel"]
    arg = next((k["spec_constants_buffer_arg"] for k in sidecar["kernels"] if k["name"] == name), None)
    consts = {c["symbolic_id"]: c for c in sidecar["spec_constants"]}
    blob = bytes.fromhex(sidecar["default_values"])
    if len(blob) != sidecar["buffer_size"]:
        raise HarnessError(f"{sidecar_path}: default_values is {len(blob)} bytes, buffer_size {sidecar['buffer_size']}")
    out = []
    for i, ov in enumerate(image_spec["overrides"]):
        buf = bytearray(blob)
        for sym, val in ov.items():
            if sym not in consts:
                raise HarnessError(f"run.json override {i}: {sym} is not in {sidecar_path}")
            c = consts[sym]
            value = parse_hex(val, f"run.json override {i} {sym}")[: c["size"]]
            buf[c["buffer_offset"]: c["buffer_offset"] + len(value)] = value
        out.append(None if arg is None else (arg, bytes(buf)))
    return out


def run_once(cl, np, ctx, queue, prg, image_spec, spec_buffer=None):
    """Bind zeroed buffers (and, in emulation, the spec-constant buffer `(arg, bytes)`), run the
    kernel as one work item, return the nbuf buffers as hex."""
    name = image_spec["kernel"]
    nbuf = int(image_spec["nbuf"])
    buffer_arg = image_spec.get("buffer_arg")
    try:
        kernel = cl.Kernel(prg, name)
    except cl.Error as e:
        raise HarnessError(f"no kernel {name!r} in the built program: {e}") from None
    num_args = kernel.get_info(cl.kernel_info.NUM_ARGS)

    # Argument indices the harness binds: 0..nbuf-1, plus buffer_arg if given.
    bound = list(range(nbuf))
    if buffer_arg is not None:
        if buffer_arg in bound:
            raise HarnessError(f"buffer_arg {buffer_arg} overlaps the {nbuf} output buffers")
        bound.append(buffer_arg)
    if spec_buffer is not None:
        if spec_buffer[0] in bound:
            raise HarnessError(f"spec-constant buffer argument {spec_buffer[0]} overlaps {sorted(bound)}")
        bound.append(spec_buffer[0])
    if sorted(bound) != list(range(num_args)):
        raise HarnessError(
            f"kernel {name!r} has {num_args} args, but run.json binds args {sorted(bound)} "
            f"(nbuf={nbuf}, buffer_arg={buffer_arg})")

    mf = cl.mem_flags
    host = [np.zeros(BUF_SIZE, dtype=np.uint8) for _ in range(nbuf)]
    bufs = [cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=h) for h in host]
    for i, b in enumerate(bufs):
        kernel.set_arg(i, b)
    if buffer_arg is not None:
        extra = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR,
                          hostbuf=np.zeros(BUF_SIZE, dtype=np.uint8))
        kernel.set_arg(buffer_arg, extra)
    if spec_buffer is not None:
        data = np.zeros(max(BUF_SIZE, len(spec_buffer[1])), dtype=np.uint8)
        data[: len(spec_buffer[1])] = np.frombuffer(spec_buffer[1], dtype=np.uint8)
        spec_cl = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)  # kept alive until the run ends
        kernel.set_arg(spec_buffer[0], spec_cl)

    cl.enqueue_nd_range_kernel(queue, kernel, (1,), (1,))
    for h, b in zip(host, bufs):
        cl.enqueue_copy(queue, h, b)
    queue.finish()
    return [h.tobytes().hex() for h in host]


# --------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spv", help="SPIR-V module to load with clCreateProgramWithIL")
    ap.add_argument("--prop", help=".prop file with [SYCL/specialization constants]")
    ap.add_argument("--run-json", help="run.json describing kernel, buffers, override sets")
    ap.add_argument("--emulation-json", metavar="FILE",
                    help="emulation mode: build the spec-constant buffer from this spec-link JSON "
                         "sidecar and bind it to the kernel argument it names (instead of --prop)")
    ap.add_argument("--image", type=int, default=0, help="device image number in run.json (default 0)")
    ap.add_argument("--no-spec", action="store_true",
                    help="set no spec constants; run override set 0 only")
    ap.add_argument("--dump-prop", metavar="FILE",
                    help="print the decoded spec-constant descriptors of FILE as JSON and exit")
    ap.add_argument("-v", "--verbose", action="store_true", help="timings on stderr")
    args = ap.parse_args(argv)
    if args.dump_prop is None:
        missing = [f"--{k.replace('_', '-')}" for k in ("spv", "run_json")
                   if getattr(args, k) is None]
        if args.prop is None and not args.no_spec and args.emulation_json is None:
            missing.append("--prop")
        if missing:
            ap.error("missing " + ", ".join(missing))
    return args


def run(args):
    if args.dump_prop is not None:
        desc = spec_const_descriptors(args.dump_prop)
        print(json.dumps({k: [list(d) for d in v] for k, v in desc.items()}))
        return

    image_spec = load_image_spec(args.run_json, args.image)
    # One list of (SpecId, bytes) calls per override set; --no-spec: one build, no calls.
    spec_buffers = None
    if args.no_spec:
        spec_call_sets = [[]]
    elif args.emulation_json is not None:
        spec_buffers = emulation_buffers(args.emulation_json, image_spec)
        spec_call_sets = [[] for _ in spec_buffers]
    else:
        descriptors = spec_const_descriptors(args.prop)
        spec_call_sets = []
        for i, ov in enumerate(image_spec["overrides"]):
            values = {sym: parse_hex(val, f"run.json override {i} {sym}") for sym, val in ov.items()}
            spec_call_sets.append(resolve_overrides(descriptors, values, f"run.json override {i}"))
    try:
        with open(args.spv, "rb") as f:
            spv = f.read()
    except OSError as e:
        raise HarnessError(f"cannot read SPIR-V module: {e}") from None
    if spv[:4] not in (b"\x03\x02\x23\x07", b"\x07\x23\x02\x03"):
        raise HarnessError(f"{args.spv}: not a SPIR-V module (bad magic)")

    cl, np = import_pyopencl()
    import warnings
    warnings.simplefilter("ignore", cl.CompilerWarning)  # keep the runtime's build chatter off stderr
    dev = get_cpu_device(cl)
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx)

    results = []
    for i, spec_calls in enumerate(spec_call_sets):
        t0 = time.monotonic()
        prg = build_program(cl, np, ctx, dev, spv, spec_calls)
        t1 = time.monotonic()
        buffers = run_once(cl, np, ctx, queue, prg, image_spec,
                           spec_buffers[i] if spec_buffers is not None else None)
        if args.verbose:
            print(f"override {i}: build {t1 - t0:.2f}s, run {time.monotonic() - t1:.2f}s",
                  file=sys.stderr)
        results.append({"override": i, "buffers": buffers})
    print(json.dumps({"kernel": image_spec["kernel"], "results": results}))


def main(argv=None):
    args = parse_args(argv)
    try:
        run(args)
    except BuildError as e:
        # Drop the JIT's "remark:" lines (FastISel chatter at -O0) so the real error,
        # e.g. "Symbols not found: [...]", stays within the first 2000 characters.
        log = "\n".join(l for l in e.log.splitlines() if not l.startswith("remark:"))
        print(f"build-error: {log[:2000]}", file=sys.stderr)
        return 3
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # OpenCL errors not anticipated above, etc.
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
