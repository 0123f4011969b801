#!/usr/bin/env python3
"""Cut the SPIR-V modules out of downloaded wheels (used by scripts/corpus.sh).

    corpus_extract.py --out corpus/modules WHEEL.whl...

For each wheel, every member file is searched; modules go to
    OUT/<dist>-<version>/<file>-<offset>.spv                 module at byte <offset> of <file>
    OUT/<dist>-<version>/<file>-<zoff>.zst-<offset>.spv      module at byte <offset> of the zstd
                                                             frame that starts at byte <zoff> of <file>
    OUT/<dist>-<version>/<file>                              a standalone .spv member, copied whole
(<file> is the member's base name; offsets are decimal) plus OUT/<dist>-<version>/MANIFEST.tsv
(one line per written module: path, sha256, bytes, member, offset, zstd offset, SPIR-V version,
generator word, bound). Modules are deduplicated by SHA-256 across all wheels of the run and the
manifests of wheels already extracted (first occurrence wins, in the order the wheels are given).

How embedded modules are found (the judgement calls):
  * Candidates: every byte offset holding the SPIR-V magic 0x07230203 in either byte order
    (little-endian bytes 03 02 23 07; big-endian modules are handled too, none have been seen).
  * Header (5 words): version 1.0..1.6 with the padding bytes zero, bound in [2, 2^26], schema 0.
  * Walk: word count = high 16 bits of each word. The walk stops at a word count of 0 or an
    instruction running past the end of the data. Inside the function section the layout is
    strict, which is what finds the true end of a module followed by unrelated bytes: OpFunction
    must have 5 words with its result type, result id and function type below the bound,
    OpFunctionEnd 1 word and must close an open OpFunction, and the
    instruction after an OpFunctionEnd must be another OpFunction, otherwise the module ended
    there.
    A word equal to the magic at an instruction boundary ends the module too (back-to-back
    modules).
  * Accept: the first instruction is OpCapability, OpMemoryModel occurs within the first 256
    instructions (DPC++ modules list dozens of capabilities and extensions before it), and at
    least one OpFunction ... OpFunctionEnd was seen. The written module is the header plus the
    instructions up to and including the last OpFunctionEnd (so it always ends at an instruction
    boundary; nothing after the function section exists in SPIR-V).
  * Modules without any function (globals only; mkl-dpcpp has a few dozen) are accepted only
    when the walk ended at the end of the data, at a zero word (section padding) or at the next
    magic, and every instruction after OpMemoryModel is a module-level one (debug, annotation,
    type, constant, variable; GLOBAL_OPS) whose result id is below the bound: there is no
    OpFunctionEnd to tell where they end. Otherwise: rejected ("no-function"). (Without the
    opcode check, bound-2 stubs followed by unrelated bytes were taken for 100 KB modules.)
  * Reject ("truncated") a candidate whose walk stopped inside a function: its tail is not
    SPIR-V, and a module cut there would refer to ids in the missing part, so it is not a fair
    input. Rejections are counted, not written.
  * After an accepted module the search resumes at its end (no overlapping modules).
  * zstd frames (magic 28 B5 2F FD; SYCL offload compression, --offload-compress): each
    candidate is decompressed (output capped at 1 GiB); if it is a valid frame, the output is
    searched the same way (also for nested frames) and the search resumes after the frame.
  * Standalone members named *.spv that start with the magic are copied whole, unmodified.
Identical members (e.g. libccl.so, libccl.so.1, libccl.so.1.0) are searched once.

Stdlib only, plus the `zstandard` module for the frames (without it, frames are counted and
skipped with a warning).
"""
import argparse
import hashlib
import os
import sys
import zipfile

try:
    import zstandard
except ImportError:  # pragma: no cover
    zstandard = None

MAGIC_LE = b"\x03\x02\x23\x07"
MAGIC_BE = b"\x07\x23\x02\x03"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
OP_MEMORY_MODEL, OP_CAPABILITY, OP_FUNCTION, OP_FUNCTION_END = 14, 17, 54, 56
MAX_BOUND = 1 << 26
MEMORY_MODEL_WITHIN = 256
ZSTD_MAX_OUT = 1 << 30
MIN_MEMBER = 24  # bytes; smaller members cannot hold a module


def words_view(data, off, big_endian):
    """uint32 view of data[off:] (rounded down to whole words), in the module's byte order."""
    n = (len(data) - off) // 4
    mv = memoryview(data)[off:off + 4 * n]
    if not big_endian:
        return mv.cast("I")
    import array
    a = array.array("I", mv.tobytes())
    a.byteswap()
    return a


def walk(w):
    """Returns (status, end_word) for the module starting at w[0] (the magic).
    status: 'ok' (end_word = module length in words) or a rejection reason."""
    n = len(w)
    if n < 5 + 3:
        return "short", 0
    ver = w[1]
    if ver & 0xFF0000FF or (ver >> 16) != 1 or ((ver >> 8) & 0xFF) > 6:
        return "header", 0
    bound = w[3]
    if not (2 <= bound <= MAX_BOUND) or w[4] != 0:
        return "header", 0
    pos = 5
    count = 0
    seen_mm = False
    # header section: until OpMemoryModel
    while pos < n:
        word = w[pos]
        wc = word >> 16
        if wc == 0 or pos + wc > n:
            return "header", 0
        op = word & 0xFFFF
        if count == 0 and op != OP_CAPABILITY:
            return "header", 0
        pos += wc
        count += 1
        if op == OP_MEMORY_MODEL:
            seen_mm = True
            break
        if count >= MEMORY_MODEL_WITHIN:
            break
    if not seen_mm:
        return "header", 0
    globals_start = pos
    in_func = False
    after_end = False
    nfunc = 0
    last_end = 0
    clean = True  # stopped at the end of the data, a zero word or another module's magic
    while pos < n:
        word = w[pos]
        wc = word >> 16
        if wc == 0 or word == 0x07230203:
            break
        if pos + wc > n:
            clean = False
            break
        op = word & 0xFFFF
        if after_end and op != OP_FUNCTION:
            clean = False
            break
        if op == OP_FUNCTION:
            # result type, result id and function type must be below the bound
            if wc != 5 or in_func or max(w[pos + 1], w[pos + 2], w[pos + 4]) >= bound:
                clean = False
                break
            in_func = True
            after_end = False
            nfunc += 1
        elif op == OP_FUNCTION_END:
            if wc != 1 or not in_func:
                clean = False
                break
            in_func = False
            after_end = True
            last_end = pos + 1
        pos += wc
    if in_func:
        return "truncated", 0
    if nfunc == 0:
        # a module of globals only (DPC++ emits some): its end is only trusted when the walk
        # stopped at the end of the data, at a zero word (padding) or at the next magic, and
        # every instruction is a module-level one whose result id is below the bound
        if clean and globals_plausible(w, globals_start, pos, bound):
            return "ok", pos
        return "no-function", 0
    return "ok", last_end


# Instructions allowed after OpMemoryModel in a module without functions, with the word index
# of their result id (0: none). Core SPIR-V plus the vendor ones DPC++ emits at module level.
GLOBAL_OPS = {
    1: 2, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 1, 8: 0, 12: 2, 15: 0, 16: 0, 317: 0, 330: 0,
    331: 0, 71: 0, 72: 0, 73: 1, 74: 0, 75: 0, 332: 0, 5632: 0, 5633: 0,
    **{op: 1 for op in range(19, 40)}, 322: 1, 327: 1, 4417: 1, 4456: 1, 6090: 0,
    41: 2, 42: 2, 43: 2, 44: 2, 45: 2, 46: 2, 48: 2, 49: 2, 50: 2, 51: 2, 52: 2, 59: 2,
    4418: 2, 4461: 2, 4462: 2, 6091: 0, 6092: 0,
}


def globals_plausible(w, start, end, bound):
    pos = start
    while pos < end:
        word = w[pos]
        wc, op = word >> 16, word & 0xFFFF
        at = GLOBAL_OPS.get(op)
        if at is None or (at and (wc <= at or w[pos + at] >= bound)):
            return False
        pos += wc
    return True


class Extractor:
    def __init__(self, outdir, seen):
        self.outdir = outdir
        self.seen = seen  # sha256 -> path
        self.manifest = []
        self.stats = None

    def reset(self):
        self.stats = dict(members=0, candidates=0, written=0, duplicates=0, standalone=0,
                          zstd_frames=0, zstd_modules=0, zstd_skipped=0, bytes=0,
                          rej_header=0, rej_truncated=0, rej_no_function=0, rej_short=0)
        self.manifest = []

    def emit(self, name, blob, member, off, zoff, big_endian):
        h = hashlib.sha256(blob).hexdigest()
        if h in self.seen:
            self.stats["duplicates"] += 1
            return
        path = os.path.join(self.outdir, name)
        if os.path.exists(path):  # same base name in two folders of the wheel
            stem = name[:-4] if name.endswith(".spv") else name
            path = os.path.join(self.outdir, f"{stem}-{h[:8]}.spv")
        with open(path, "wb") as f:
            f.write(blob)
        self.seen[h] = path
        self.stats["written"] += 1
        self.stats["bytes"] += len(blob)
        w = words_view(blob, 0, big_endian)
        ver = w[1]
        self.manifest.append([os.path.basename(path), h, str(len(blob)), member, str(off),
                              "" if zoff is None else str(zoff),
                              f"{(ver >> 16) & 0xFF}.{(ver >> 8) & 0xFF}",
                              f"0x{w[2]:08x}", str(w[3])])

    def scan(self, data, base, member, zoff=None, depth=0):
        """Search data for modules (and zstd frames unless inside one at depth 2)."""
        hits = []
        for magic, be in ((MAGIC_LE, False), (MAGIC_BE, True)):
            i = data.find(magic)
            while i >= 0:
                hits.append((i, "spv", be))
                i = data.find(magic, i + 1)
        if depth < 2:
            i = data.find(ZSTD_MAGIC)
            while i >= 0:
                hits.append((i, "zst", False))
                i = data.find(ZSTD_MAGIC, i + 1)
        hits.sort()
        resume = 0
        for off, kind, be in hits:
            if off < resume:
                continue
            if kind == "spv":
                self.stats["candidates"] += 1
                status, nwords = walk(words_view(data, off, be))
                if status != "ok":
                    self.stats["rej_" + status.replace("-", "_")] += 1
                    continue
                blob = bytes(data[off:off + 4 * nwords])
                if zoff is None:
                    name = f"{base}-{off}.spv"
                else:
                    name = f"{base}-{zoff}.zst-{off}.spv"
                    self.stats["zstd_modules"] += 1
                self.emit(name, blob, member, off, zoff, be)
                resume = off + 4 * nwords
            else:
                out, consumed = self.unzstd(data, off)
                if out is None:
                    continue
                self.stats["zstd_frames"] += 1
                self.scan(out, base, member, zoff=off if zoff is None else zoff, depth=depth + 1)
                resume = off + consumed

    def unzstd(self, data, off):
        """Decompress the zstd frame at data[off:]; (output, bytes consumed) or (None, 0)."""
        if zstandard is None:
            self.stats["zstd_skipped"] += 1
            return None, 0
        mv = memoryview(data)
        # Frame_Header_Descriptor: reserved bit 3 must be zero
        if off + 5 > len(data) or data[off + 4] & 0x08:
            return None, 0
        d = zstandard.ZstdDecompressor(max_window_size=1 << 31).decompressobj()
        chunks = []
        total = 0
        pos = off
        step = 1 << 20
        try:
            while pos < len(data):
                piece = mv[pos:pos + step]
                chunks.append(d.decompress(piece))
                total += len(chunks[-1])
                if total > ZSTD_MAX_OUT:
                    return None, 0
                if d.eof:
                    consumed = (pos + len(piece) - off) - len(d.unused_data)
                    return b"".join(chunks), consumed
                pos += len(piece)
        except zstandard.ZstdError:
            return None, 0
        return None, 0

    def wheel(self, whl):
        self.reset()
        seen_members = set()
        with zipfile.ZipFile(whl) as z:
            for info in z.infolist():
                if info.is_dir() or info.file_size < MIN_MEMBER:
                    continue
                data = z.read(info)
                h = hashlib.sha256(data).digest()
                if h in seen_members:
                    continue
                seen_members.add(h)
                self.stats["members"] += 1
                base = os.path.basename(info.filename)
                if base.endswith(".spv") and data[:4] in (MAGIC_LE, MAGIC_BE):
                    self.stats["standalone"] += 1
                    be = data[:4] == MAGIC_BE
                    self.emit(base, data, info.filename, 0, None, be)
                    continue
                self.scan(data, base, info.filename)
                del data


def wheel_dirname(whl):
    # <dist>-<version>-<tags...>.whl -> <dist>-<version>
    parts = os.path.basename(whl).split("-")
    return f"{parts[0]}-{parts[1]}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="modules folder (e.g. corpus/modules)")
    ap.add_argument("wheels", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if zstandard is None:
        print("warning: python module 'zstandard' missing: zstd frames are skipped", file=sys.stderr)

    targets = {wheel_dirname(w) for w in args.wheels}
    seen = {}
    # hashes of wheels extracted earlier and not redone now
    for d in sorted(os.listdir(args.out)):
        man = os.path.join(args.out, d, "MANIFEST.tsv")
        if d in targets or not os.path.isfile(man):
            continue
        with open(man) as f:
            for line in f:
                if line.startswith("#"):
                    continue
                cols = line.rstrip("\n").split("\t")
                if len(cols) > 1:
                    seen[cols[1]] = os.path.join(args.out, d, cols[0])

    cols = ["wheel", "members", "candidates", "written", "duplicates", "standalone",
            "zstd_frames", "zstd_modules", "rej_header", "rej_truncated", "rej_no_function", "MB"]
    rows = []
    for whl in args.wheels:
        name = wheel_dirname(whl)
        outdir = os.path.join(args.out, name)
        if os.path.isdir(outdir):
            for f in os.listdir(outdir):
                os.unlink(os.path.join(outdir, f))
        os.makedirs(outdir, exist_ok=True)
        ex = Extractor(outdir, seen)
        ex.wheel(whl)
        with open(os.path.join(outdir, "MANIFEST.tsv"), "w") as f:
            f.write("#path\tsha256\tbytes\tmember\toffset\tzstd_offset\tversion\tgenerator\tbound\n")
            for r in ex.manifest:
                f.write("\t".join(r) + "\n")
        s = ex.stats
        if s["zstd_skipped"]:
            print(f"warning: {name}: {s['zstd_skipped']} zstd candidates skipped (no zstandard)",
                  file=sys.stderr)
        row = [name] + [str(s[c]) for c in cols[1:-1]] + [f"{s['bytes'] / 1e6:.1f}"]
        rows.append(row)
        print("  " + "  ".join(f"{c}={v}" for c, v in zip(cols, row)), flush=True)

    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]
    print()
    print("  ".join(c.ljust(widths[i]) for i, c in enumerate(cols)))
    for r in rows:
        print("  ".join(v.ljust(widths[i]) for i, v in enumerate(r)))
    total_written = sum(int(r[3]) for r in rows)
    print(f"\n{total_written} unique modules written under {args.out}/")


if __name__ == "__main__":
    main()
