#!/usr/bin/env bash
# Benchmarks spec-link against SPIRV-Tools and cp on the inputs of scripts/gen-bench.sh (the goals: docs/performance.md).
#
#   scripts/bench.sh [--quick] [--runs N] [--sizes "10 50 100"] [--link "1k 3k 9k" | --no-link]
#                    [--spirv-link "1k"] [--math "sparse mid dense" | --no-math] [--no-dpcpp]
#                    [--no-corpus] [--corpus-sizes "10 50"] [--math-only] [--report]
#
#   --quick       only the 10 MB inputs (math: mid only), 3 runs, no linking
#   --sizes       sizes of the single-module inputs (bench-data/bench-<S>MB{,-passthrough,-sparse}.spv)
#   --link        module sets to link (bench-data/link-<set>/); --no-link: none
#   --spirv-link  the sets spirv-link runs on too (default 1k; it is super-linear: 3k takes minutes,
#                 and 9k does not finish in 10 minutes)
#   --math        call densities of the OpenCL C real-shaped inputs (bench-data/math-<D>-<S>MB.spv:
#                 compiled OpenCL C math kernels, see gen-bench.sh); --math "": none of these
#   --no-dpcpp    no bench-data/dpcpp-math-<S>MB.spv (SYCL math kernels compiled by DPC++, cloned)
#   --no-corpus   no bench-data/corpus-<S>MB.spv (real oneMKL kernels of scripts/corpus.sh's corpus
#                 with marker calls added); --corpus-sizes: their sizes (default "10 50"; skipped with
#                 a note when there is no corpus: CORPUS_DIR as in gen-bench.sh)
#   --no-math     none of the real-shaped inputs (math, dpcpp-math, corpus)
#   --math-only   only the real-shaped inputs (no dense/sparse/pass-through inputs, no linking)
#   --report      only print the report of the last run again (from bench-data/raw.tsv)
#
# Builds the release binary, generates missing inputs (scripts/gen-bench.sh), then for each input
# runs, alternating tool by tool, one warm-up round and N measured rounds (default 5) of
#   native        spec-link IN -o OUT --no-validate
#   native-prop   spec-link IN -o OUT --no-validate --prop OUT.prop   (what a build runs: the
#                 property sets too)
#   emulation     spec-link IN -o OUT --no-validate --spec-const emulation
#   default-values spec-link IN -o OUT --no-validate --spec-const default-values
#   split-per-kernel  spec-link IN --split per-kernel -o OUT.table --no-validate (one image per
#                 kernel: .spv, .prop and .sym each, and the table)
#   split-files   cp -r of the split-per-kernel run's output folder (the same files, no work: the
#                 floor of writing the images, which the split goal adds to the unsplit run)
#   split-auto    spec-link IN --split auto -o OUT.table --no-validate
#   pass-through  spec-link PT -o OUT --no-validate     (PT: same-size module without markers)
#   opt-set       spirv-opt --skip-validation --set-spec-const-default-value 0:1 IN -o OUT
#   opt-freeze    spirv-opt --skip-validation --freeze-spec-const IN -o OUT
#   cp            cp IN OUT             (GNU cp copies inside the kernel: copy_file_range)
#   dd            dd if=IN of=OUT bs=1M  (a copy through user space: read + write, the floor of a
#                                        tool that must look at the bytes)
#   walker        examples/walker.rs IN OUT  (maps the module, walks its word counts, writes it:
#                                        the floor of a tool that holds the module, as spec-link does)
#   stream-floor  examples/stream_floor.rs IN OUT  (reads the module in 1 MiB chunks, walks it,
#                                        checks each result id once, copies it out inside the
#                                        kernel: the floor of a streaming tool, which spec-link is not)
#   pass-through-replacing, native-replacing, cp-replacing
#                 the same, with OUT left from the previous round (a rebuild: the output is
#                 replaced, not created; the other tools' OUT is deleted before each run)
# and for each module set
#   link          spec-link 'DIR/*.spv' -o OUT --no-validate   (spec-link expands the glob)
#   spirv-link    spirv-link --allow-partial-linkage --target-env spv1.4 DIR/*.spv -o OUT
#   cat           cat DIR/*.spv > OUT   (reading every module once: the I/O floor)
# and for each real-shaped input (math-<D>-<S>MB, dpcpp-math-<S>MB, corpus-<S>MB) native, native-prop,
# emulation, default-values, split-per-kernel, split-auto, opt-set, cp, walker
# plus `true` (the fixed cost of one measurement: fork, exec, /usr/bin/time), reported below the table
# and included in every other figure; and for each sparse input (bench-<S>MB-sparse.spv: the same
# clones, only every 50th calling the markers; realistic density) native, native-prop, emulation,
# default-values, opt-set, cp, dd,
# walker and stream-floor.
# The inputs are labelled "dense" / "sparse" with their marker calls (counted by `spec-link -v` before
# the runs, saved in bench-data/raw.calls).
# Wall time: nanosecond clock around `/usr/bin/time -f "%e %M %U %S"` (whose %e has only 10 ms
# resolution); peak RSS: its %M; CPU time: %U + %S (less disturbed than wall time when other work
# shares the machine; the load average is printed with the results). Outputs go to bench-data/out/
# (deleted before each run but the *-replacing ones, then `sync`, outside the timing: no run pays
# for an earlier one's write-back); page cache warm. Prints
# Markdown tables (medians; MB = 10^6 bytes) and the ratios of the performance goals, and saves them as bench-data/results.md.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="$REPO/bench-data"
RUNS=5
SIZES="10 50 100"
LINK_SETS="1k 3k 9k"
SPIRV_LINK_SETS="1k"
REPORT_ONLY=0
MATH="sparse mid dense"
MATH_ONLY=0
DPCPP=1
CORPUS=1
CORPUS_SIZES="10 50"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) RUNS=3; SIZES="10"; CORPUS_SIZES="10"; LINK_SETS=""; MATH="mid"; shift ;;
    --math) MATH="$2"; shift 2 ;;
    --no-math) MATH=""; DPCPP=0; CORPUS=0; shift ;;
    --no-dpcpp) DPCPP=0; shift ;;
    --no-corpus) CORPUS=0; shift ;;
    --corpus-sizes) CORPUS_SIZES="$2"; shift 2 ;;
    --math-only) MATH_ONLY=1; LINK_SETS=""; shift ;;
    --report) REPORT_ONLY=1; shift ;;
    --runs) RUNS="$2"; shift 2 ;;
    --sizes) SIZES="$2"; shift 2 ;;
    --link) LINK_SETS="$2"; shift 2 ;;
    --no-link) LINK_SETS=""; shift ;;
    --spirv-link) SPIRV_LINK_SETS="$2"; shift 2 ;;
    -h|--help) sed -n '2,50p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || { echo "bench.sh: --runs needs a positive number" >&2; exit 2; }

say() { printf '[bench] %s\n' "$*" >&2; }
die() { printf '[bench] error: %s\n' "$*" >&2; exit 1; }

cd "$REPO"
RAW="$DATA/raw.tsv"   # input tool run wall_ns rss_kb input_bytes cpu_s
if [ "$REPORT_ONLY" = 0 ]; then
  for tool in cargo spirv-opt spirv-link python3; do
    command -v "$tool" >/dev/null || die "$tool not found (run scripts/setup.sh)"
  done
  [ -x /usr/bin/time ] || die "/usr/bin/time not found (apt-get install time)"

  say "cargo build --release"
  cargo build --release --quiet --bin spec-link --example walker --example stream_floor
  # The per-stage harness (benches/stages.rs, `cargo bench`) builds here, not in the tests.
  cargo bench --locked --no-run --quiet
  SPEC_LINK="$REPO/target/release/spec-link"
  WALKER="$REPO/target/release/examples/walker"
  STREAM_FLOOR="$REPO/target/release/examples/stream_floor"
  # What was built (the tree may change while the benchmark runs).
  BUILT="$(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  [ -z "$(git status --porcelain --untracked-files=no -- src Cargo.toml Cargo.lock 2>/dev/null)" ] ||
    BUILT="$BUILT + local changes"
  LOAD_START="$(cut -d' ' -f1-3 /proc/loadavg)"

  missing=()
  DENSE_SIZES="$SIZES"
  [ "$MATH_ONLY" = 0 ] || DENSE_SIZES=""
  for S in $DENSE_SIZES; do
    [ -f "$DATA/bench-${S}MB.spv" ] && [ -f "$DATA/bench-${S}MB-passthrough.spv" ] &&
      [ -f "$DATA/bench-${S}MB-sparse.spv" ] || missing+=("$S")
  done
  # The real-shaped inputs: "key file" lines
  REAL=()
  for D in $MATH; do for S in $SIZES; do REAL+=("math-$D-$S $DATA/math-$D-${S}MB.spv"); done; done
  [ "$DPCPP" = 0 ] || for S in $SIZES; do REAL+=("dpcpp-math-$S $DATA/dpcpp-math-${S}MB.spv"); done
  [ "$CORPUS" = 0 ] || for S in $CORPUS_SIZES; do REAL+=("corpus-$S $DATA/corpus-${S}MB.spv"); done
  real_missing=0
  for r in ${REAL[@]+"${REAL[@]}"}; do [ -f "${r#* }" ] || real_missing=1; done
  if [ "$real_missing" = 1 ]; then
    say "generating real-shaped inputs (scripts/gen-bench.sh --math-only)"
    gen=(--math-only --math "$MATH" --sizes "$SIZES" --corpus-sizes "$CORPUS_SIZES")
    [ "$DPCPP" = 1 ] || gen+=(--no-dpcpp)
    [ "$CORPUS" = 1 ] || gen+=(--no-corpus)
    "$REPO/scripts/gen-bench.sh" "${gen[@]}" >&2
  fi
  link_missing=0
  for L in $LINK_SETS; do [ -d "$DATA/link-$L" ] || link_missing=1; done
  if [ "${#missing[@]}" -gt 0 ] || [ "$link_missing" = 1 ]; then
    say "generating inputs (scripts/gen-bench.sh)"
    if [ "$link_missing" = 1 ]; then
      "$REPO/scripts/gen-bench.sh" --no-math --sizes "${missing[*]:-}" >&2
    else
      "$REPO/scripts/gen-bench.sh" --no-math --no-link --sizes "${missing[*]}" >&2
    fi
  fi
  for L in $LINK_SETS; do [ -d "$DATA/link-$L" ] || die "no module set bench-data/link-$L (gen-bench.sh makes 1k, 3k, 9k)"; done

  OUTDIR="$DATA/out"
  mkdir -p "$OUTDIR"
  : > "$RAW"
  CALLS="$DATA/raw.calls"   # input marker_calls
  : > "$CALLS"
  VERSION_ENV="spv$(python3 "$REPO/scripts/gen_bench.py" --print-version $REPO/testdata/dpcpp-fixtures/types/image0.input.spvasm 2>/dev/null || echo 1.4)"

  # run_tool TOOL IN PT OUT: one run; prints "wall_ns rss_kb cpu_s"
  run_tool() {
    local tool="$1" in="$2" pt="$3" out="$4" t0 t1
    local -a cmd
    case "$tool" in
      native) cmd=("$SPEC_LINK" "$in" -o "$out" --no-validate) ;;
      native-prop) cmd=("$SPEC_LINK" "$in" -o "$out" --no-validate --prop "$out.prop") ;;
      default-values) cmd=("$SPEC_LINK" "$in" -o "$out" --no-validate --spec-const default-values) ;;
      emulation) cmd=("$SPEC_LINK" "$in" -o "$out" --no-validate --spec-const emulation) ;;
      split-per-kernel | split-auto)
        # Each split writes into a folder of its own (the table and every image's three files).
        rm -rf "${out%.*}.d" && mkdir -p "${out%.*}.d"
        out="${out%.*}.d/out.table"
        cmd=("$SPEC_LINK" "$in" --split "${tool#split-}" -o "$out" --no-validate) ;;
      split-files)
        # The floor of writing a per-kernel split's files: a copy of the last one's folder.
        rm -rf "${out%.*}.d"
        cmd=(cp -r "$OUTDIR/split-per-kernel.d" "${out%.*}.d")
        out="${out%.*}.d" ;;
      pass-through) cmd=("$SPEC_LINK" "$pt" -o "$out" --no-validate) ;;
      opt-set) cmd=(spirv-opt --skip-validation --set-spec-const-default-value "0:1" "$in" -o "$out") ;;
      opt-freeze) cmd=(spirv-opt --skip-validation --freeze-spec-const "$in" -o "$out") ;;
      cp) cmd=(cp "$in" "$out") ;;
      dd) cmd=(dd if="$in" of="$out" bs=1M status=none) ;;
      walker) cmd=("$WALKER" "$in" "$out") ;;
      stream-floor) cmd=("$STREAM_FLOOR" "$in" "$out") ;;
      native-replacing) cmd=("$SPEC_LINK" "$in" -o "$out" --no-validate) ;;
      pass-through-replacing) cmd=("$SPEC_LINK" "$pt" -o "$out" --no-validate) ;;
      cp-replacing) cmd=(cp "$in" "$out") ;;
      link) cmd=("$SPEC_LINK" "$in/*.spv" -o "$out" --no-validate) ;;
      spirv-link) cmd=(sh -c 'exec spirv-link --allow-partial-linkage --target-env "$1" "$2"/*.spv -o "$3"' _ "$VERSION_ENV" "$in" "$out") ;;
      cat) cmd=(sh -c 'exec cat "$1"/*.spv > "$2"' _ "$in" "$out") ;;
      true) cmd=(true) ;;
    esac
    case "$tool" in
      *-replacing) [ -f "$out" ] || cp "$in" "$out" ;;  # the warm-up round's output, then the last round's
      split-*) ;;  # (above)
      *) rm -f "$out" "$out.prop" ;;
    esac
    # The previous runs' outputs go to disk now, not during this run (without it, the first tool
    # of a round pays for the last round's write-back: up to 30 ms at 100 MB).
    sync
    t0=$(date +%s%N)
    /usr/bin/time -f "%e %M %U %S" -o "$OUTDIR/time.txt" "${cmd[@]}" >/dev/null 2>"$OUTDIR/stderr.txt" ||
      die "$tool failed on $in: $(tail -5 "$OUTDIR/stderr.txt")"
    t1=$(date +%s%N)
    [ "$tool" = true ] || [ -s "$out" ] || die "$tool wrote no output for $in"
    printf '%s %s\n' "$(( t1 - t0 ))" "$(tail -n1 "$OUTDIR/time.txt" | awk '{ printf "%s %.2f", $2, $3 + $4 }')"
  }

  # measure KEY IN PT BYTES TOOL...: one warm-up round, then RUNS rounds, alternating the tools
  measure() {
    local key="$1" in="$2" pt="$3" bytes="$4" r tool ns rss cpu
    shift 4
    for ((r = 0; r <= RUNS; r++)); do
      for tool in "$@"; do
        read -r ns rss cpu < <(run_tool "$tool" "$in" "$pt" "$OUTDIR/$tool.spv")
        [ "$r" = 0 ] || printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$tool" "$r" "$ns" "$rss" "$bytes" "$cpu" >> "$RAW"
      done
    done
    rm -rf "$OUTDIR"/*.spv "$OUTDIR"/*.prop "$OUTDIR"/*.d
  }

  # count_calls KEY IN: the marker calls of IN (spec-link -v), saved in raw.calls; prints the count
  count_calls() {
    local n
    "$SPEC_LINK" "$2" -o "$OUTDIR/count.spv" --no-validate -v 2>"$OUTDIR/stderr.txt" ||
      die "spec-link failed on $2: $(grep -v '^  ' "$OUTDIR/stderr.txt" | tail -5)"
    n="$(sed -n 's/^spec-link: \([0-9]*\) marker call(s).*/\1/p' "$OUTDIR/stderr.txt" | head -1)"
    rm -f "$OUTDIR/count.spv" "$OUTDIR/stderr.txt"
    printf '%s\t%s\n' "$1" "${n:-0}" >> "$CALLS"
    echo "${n:-0}"
  }

  TOOLS=(native native-prop emulation default-values split-per-kernel split-files split-auto pass-through opt-set opt-freeze cp dd walker stream-floor pass-through-replacing cp-replacing true)
  SPARSE_TOOLS=(native native-prop emulation default-values split-per-kernel split-files split-auto opt-set cp dd walker stream-floor native-replacing cp-replacing)
  MATH_TOOLS=(native native-prop emulation default-values split-per-kernel split-files split-auto opt-set cp walker true)
  MIX="$DATA/raw.mix"   # input, then spv_mix.py's markdown row
  : > "$MIX"
  for r in ${REAL[@]+"${REAL[@]}"}; do
    key="${r%% *}" in="${r#* }"
    if [ ! -f "$in" ]; then
      case "$key" in
        corpus-*) say "no $in (no corpus: scripts/corpus.sh): skipped"; continue ;;
        *) die "no $in (scripts/gen-bench.sh --math-only makes it)" ;;
      esac
    fi
    bytes=$(stat -c %s "$in")
    calls=$(count_calls "$key" "$in")
    printf '%s\t%s\n' "$key" "$(python3 "$REPO/scripts/spv_mix.py" --markdown "$in")" >> "$MIX"
    say "$key ($bytes bytes, $calls marker calls; $(python3 "$REPO/scripts/spv_mix.py" "$in" | cut -d: -f2-)): 1 warm-up + $RUNS runs of ${MATH_TOOLS[*]}"
    measure "$key" "$in" "" "$bytes" "${MATH_TOOLS[@]}"
  done
  for S in $DENSE_SIZES; do
    in="$DATA/bench-${S}MB.spv"
    bytes=$(stat -c %s "$in")
    calls=$(count_calls "$S" "$in")
    say "${S} MB dense input ($bytes bytes, $calls marker calls): 1 warm-up + $RUNS runs of ${TOOLS[*]}"
    measure "$S" "$in" "$DATA/bench-${S}MB-passthrough.spv" "$bytes" "${TOOLS[@]}"
    in="$DATA/bench-${S}MB-sparse.spv"
    bytes=$(stat -c %s "$in")
    calls=$(count_calls "$S-sparse" "$in")
    say "${S} MB sparse input ($bytes bytes, $calls marker calls): 1 warm-up + $RUNS runs of ${SPARSE_TOOLS[*]}"
    measure "$S-sparse" "$in" "" "$bytes" "${SPARSE_TOOLS[@]}"
  done
  for L in $LINK_SETS; do
    dir="$DATA/link-$L"
    bytes=$(find "$dir" -name '*.spv' -printf '%s\n' | awk '{ s += $1 } END { print s }')
    tools=(link cat true)
    case " $SPIRV_LINK_SETS " in *" $L "*) tools=(link spirv-link cat true) ;; esac
    say "link-$L ($(find "$dir" -name '*.spv' | wc -l) modules, $bytes bytes): 1 warm-up + $RUNS runs of ${tools[*]}"
    measure "link-$L" "$dir" "" "$bytes" "${tools[@]}"
  done
  printf 'BUILT=%q\nLOAD_START=%q\nRUNS=%q\n' "$BUILT" "$LOAD_START" "$RUNS" > "$DATA/raw.env"
fi
[ -s "$RAW" ] || die "no measurements in $RAW"
# shellcheck disable=SC1091
source "$DATA/raw.env"
export BUILT LOAD_START

python3 - "$RAW" "$RUNS" "$DATA/raw.calls" > "$DATA/results.md" <<'EOF'
import os, statistics, subprocess, sys
from collections import defaultdict

raw, runs = sys.argv[1], int(sys.argv[2])
REAL = ("math-", "dpcpp-", "corpus-")  # the real-shaped inputs' keys
calls = {}
if os.path.exists(sys.argv[3]):
    for line in open(sys.argv[3]):
        k, n = line.rstrip("\n").split("\t")
        calls[k] = int(n)
t = defaultdict(list); rss = defaultdict(list); cpu = defaultdict(list); size = {}; order = []; inputs = []
for line in open(raw):
    inp, tool, r, ns, kb, b, c = line.rstrip("\n").split("\t")
    key = (inp, tool)
    if key not in t:
        order.append(key)
    if inp not in inputs:
        inputs.append(inp)
    t[key].append(int(ns) / 1e9); rss[key].append(int(kb) * 1024); cpu[key].append(float(c)); size[inp] = int(b)

def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except Exception:
        return "?"

def label(inp):
    b = size[inp] / 1e6
    if inp.startswith("link-"):
        n = inp[5:].replace("k", "000")
        return f"{inp} ({n} modules, {b:.1f} MB)"
    if inp.startswith(REAL):
        return f"{b:.1f} MB {inp.rsplit('-', 1)[0]}" + (f" ({calls[inp]:,} calls)" if inp in calls else "")
    kind = "sparse" if inp.endswith("-sparse") else "dense"
    return f"{b:.1f} MB {kind}" + (f" ({calls[inp]:,} calls)" if inp in calls else "")

load = " ".join(open("/proc/loadavg").read().split()[:3])
cpu_model = sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2").strip()
mem = sh("awk '/MemTotal/ {printf \"%.1f GiB\", $2/1048576}' /proc/meminfo")
print(f"Machine: {sh('nproc')} cores, {cpu_model}, {mem} RAM; {sh('. /etc/os-release && echo $PRETTY_NAME')}; "
      f"{sh('spirv-opt --version 2>&1 | head -1')}; spec-link {os.environ.get('BUILT', '?')}; "
      f"{runs} runs after 1 warm-up, alternating; medians; load average at the start "
      f"{os.environ.get('LOAD_START', '?')}, at the end {load} "
      f"(wall times stretch when other work shares the cores; CPU times much less).")
print()
print("| input | tool | median s | MB/s | median CPU s | peak RSS MB | RSS / input |")
print("|---|---|---:|---:|---:|---:|---:|")
med = {}
for key in order:
    inp, tool = key
    m = statistics.median(t[key]); r = max(rss[key]); b = size[inp]; c = statistics.median(cpu[key])
    med[key] = (m, r, c)
    if tool != "true":
        print(f"| {label(inp)} | {tool} | {m:.3f} | {b/1e6/m:.1f} | {c:.2f} | {r/1e6:.1f} | {r/b:.2f} |")
overhead = [med[k][0] for k in order if k[1] == "true"]
print()
if overhead:
    print(f"Fixed cost of one measured run (`true`): {1e3*min(overhead):.0f}-{1e3*max(overhead):.0f} ms, included above.")
    print()

def mark(ok): return "" if ok else " ✗"
def ratio(a, b): return a / b if b else float("nan")

maths = [i for i in inputs if i.startswith(REAL)]
if maths:
    mix = {}
    mixfile = os.path.join(os.path.dirname(raw), "raw.mix")
    if os.path.exists(mixfile):
        for line in open(mixfile):
            k, row = line.rstrip("\n").split("\t", 1)
            mix[k] = row
    print("Real-shaped inputs (math: OpenCL C math kernels compiled by clang-15 + llvm-spirv-15; dpcpp-math: SYCL math kernels compiled by DPC++; corpus: real oneMKL kernels with marker calls added; each cloned): instruction mix, shares of all instructions:")
    print()
    print("| input | instructions | OpExtInst | arithmetic | loads/stores | names+decorations | calls | other |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for m in maths:
        if m in mix:
            print("| " + label(m) + " |" + mix[m].split("|", 2)[2])
    print()
    print("Goals on the real-shaped inputs, one row per mode: (1) opt-set / mode time (≥ 20 for native, emulation, default-values; CPU time in parentheses) and mode / walker time (≤ 2), mode / cp time; (2) peak RSS / input (≤ 2; split ≤ 3); (3) linear: ms per MB and µs per marker call (median time). native-prop writes the property sets too; the split modes write an image, .prop and .sym per kernel (auto: per source) and the table:")
    print()
    print("| input | mode | median s | opt-set / mode (≥ 20) | mode / walker (≤ 2) | mode / cp | RSS / input | ms per MB | µs per call |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    modes = ("native", "native-prop", "emulation", "default-values", "split-per-kernel", "split-auto")
    for m in maths:
        g = lambda tool: med[(m, tool)]
        b = size[m]
        for x in modes:
            if (m, x) not in med:
                continue
            goal = x in ("native", "emulation", "default-values")
            r1 = ratio(g("opt-set")[0], g(x)[0]); c1 = ratio(g("opt-set")[2], g(x)[2])
            rw = ratio(g(x)[0], g("walker")[0]); rc = ratio(g(x)[0], g("cp")[0])
            r3 = g(x)[1] / b; rss_limit = 3 if x.startswith("split") else 2
            per_mb = 1e3 * g(x)[0] / (b / 1e6)
            per_call = 1e6 * g(x)[0] / calls[m] if calls.get(m) else float("nan")
            print(f"| {label(m)} | {x} | {g(x)[0]:.3f} | {r1:.1f}{mark(r1 >= 20) if goal else ''} ({c1:.1f}) | "
                  f"{rw:.1f}{mark(rw <= 2) if goal else ''} | {rc:.1f} | {r3:.2f}{mark(r3 <= rss_limit)} | "
                  f"{per_mb:.2f} | {per_call:.1f} |")
    print()
singles = [i for i in inputs if not i.startswith("link-") and not i.startswith(REAL)]
if singles:
    print("Goal ratios (in this run; in parentheses: the same by CPU time, or against dd; last column: against the walker, the floor of a tool that holds the module, and the stream floor, that of a streaming tool):")
    print()
    print("| input | (1) opt-set / native time (≥ 20) | (1) native / cp time (≤ 2; / dd) | (2) pass-through / cp time (≤ 1.5; / dd) | (3) peak RSS / input: native, native --prop, emulation, pass-through (≤ 2; sparse: no pass-through) | (5) emulation / native time (≤ 1.5) | walker / cp; native / walker; pass-through / walker; stream-floor / cp |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for s in singles:
        g = lambda tool: med[(s, tool)]
        b = size[s]
        r1 = ratio(g("opt-set")[0], g("native")[0]); c1 = ratio(g("opt-set")[2], g("native")[2])
        r1b = ratio(g("native")[0], g("cp")[0]); d1 = ratio(g("native")[0], g("dd")[0])
        if (s, "pass-through") in med:
            r2 = ratio(g("pass-through")[0], g("cp")[0]); d2 = ratio(g("pass-through")[0], g("dd")[0])
            g2 = f"{r2:.1f}{mark(r2 <= 1.5)} ({d2:.1f})"
        else:
            g2 = "–"  # (2) is measured on the pass-through module of the dense row
        r3 = [g(x)[1] / b for x in ("native", "native-prop", "emulation", "pass-through") if (s, x) in med]
        r5 = ratio(g("emulation")[0], g("native")[0]); c5 = ratio(g("emulation")[2], g("native")[2])
        print(f"| {label(s)} | {r1:.2f}{mark(r1 >= 20)} ({c1:.2f}) | {r1b:.1f}{mark(r1b <= 2)} ({d1:.1f}) | "
              f"{g2} | " + ", ".join(f"{x:.2f}" for x in r3) + mark(max(r3) <= 2)
              + f" | {r5:.2f}{mark(r5 <= 1.5)} ({c5:.2f}) | "
              + "; ".join(f"{ratio(g(a)[0], g(b)[0]):.1f}" if (s, a) in med and (s, b) in med else "–" for a, b in (("walker", "cp"), ("native", "walker"), ("pass-through", "walker"), ("stream-floor", "cp"))) + " |")
    print()
replacing = [s for s in singles if (s, "cp-replacing") in med]
if replacing:
    print("Rebuilds: the same runs replacing an existing output (left by the previous round) instead of creating it. spec-link writes a temporary file and renames it over the output; on ext4 (`auto_da_alloc`) that rename starts writing the new file to disk, as `cp`'s close after truncating does:")
    print()
    print("| input | tool replacing | median s | created (above) s | replacing / created | replacing / cp replacing (≤ 2 native, ≤ 1.5 pass-through) |")
    print("|---|---|---:|---:|---:|---:|")
    for s in replacing:
        cpr = med[(s, "cp-replacing")][0]
        for tool, limit in (("native", 2), ("pass-through", 1.5), ("cp", None)):
            if (s, tool + "-replacing") not in med:
                continue
            m = med[(s, tool + "-replacing")][0]; c = med[(s, tool)][0]
            vs = f"{ratio(m, cpr):.1f}{mark(ratio(m, cpr) <= limit)}" if limit else "–"
            print(f"| {label(s)} | {tool} | {m:.3f} | {c:.3f} | {ratio(m, c):.1f} | {vs} |")
    print()
splits = [s for s in singles + maths if (s, "split-per-kernel") in med]
if splits:
    print("Device-code split: time against lowering unsplit with the property sets plus writing the images (split-files: a copy of the per-kernel split's files; goal ≤ 2), against the unsplit run alone, peak RSS / input (≤ 3):")
    print()
    print("| input | split-per-kernel / (native-prop + split-files) time (≤ 2) | split-per-kernel / native-prop time (CPU) | split-auto / native-prop time (CPU; ≤ 2) | peak RSS / input: per-kernel, auto |")
    print("|---|---:|---:|---:|---:|")
    for s in splits:
        g = lambda tool: med[(s, tool)]
        b = size[s]
        pk = ratio(g("split-per-kernel")[0], g("native-prop")[0]); pkc = ratio(g("split-per-kernel")[2], g("native-prop")[2])
        au = ratio(g("split-auto")[0], g("native-prop")[0]); auc = ratio(g("split-auto")[2], g("native-prop")[2])
        rr = [g(x)[1] / b for x in ("split-per-kernel", "split-auto")]
        if (s, "split-files") in med:
            fl = ratio(g("split-per-kernel")[0], g("native-prop")[0] + g("split-files")[0])
            floor = f"{fl:.1f}{mark(fl <= 2)}"
        else:
            floor = "–"
        print(f"| {label(s)} | {floor} | {pk:.1f} ({pkc:.1f}) | {au:.1f}{mark(au <= 2)} ({auc:.1f}) | " + ", ".join(f"{x:.2f}" for x in rr) + mark(max(rr) <= 3) + " |")
    print()
links = [i for i in inputs if i.startswith("link-")]
if links:
    print("Goal (4), linking, and (3) while linking:")
    print()
    print("| input | spirv-link / spec-link time (≥ 50) | spec-link s per MB (linear: constant) | spec-link / cat time | peak RSS / input (≤ 3) |")
    print("|---|---:|---:|---:|---:|")
    for l in links:
        g = lambda tool: med.get((l, tool))
        b = size[l]
        sl = g("spirv-link")
        r4 = ratio(sl[0], g("link")[0]) if sl else None
        r4s = f"{r4:.1f}{mark(r4 >= 50)}" if r4 is not None else "not run"
        rr = g("link")[1] / b
        print(f"| {label(l)} | {r4s} | {g('link')[0] / (b / 1e6):.4f} | {ratio(g('link')[0], g('cat')[0]):.1f} | {rr:.2f}{mark(rr <= 3)} |")
    print()
print("✗ = goal not met.")
EOF
cat "$DATA/results.md"
say "saved $DATA/results.md (raw runs: $RAW)"
