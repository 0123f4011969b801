#!/usr/bin/env bash
# Builds the benchmark inputs of scripts/bench.sh and benches/stages.rs into bench-data/ (git-ignored).
#
#   scripts/gen-bench.sh [--sizes "10 50 100"] [--fixture types] [--marker-every 50] [--no-link]
#                        [--math "sparse mid dense"] [--no-dpcpp] [--dpcpp-template]
#                        [--no-corpus] [--corpus-sizes "10 50"] [--no-math] [--math-only] [--force]
#
# For each size S (MB = 10^6 bytes):
#   bench-data/bench-<S>MB.spv              the fixture's kernels, symbolic-ID strings and
#                                           specialization_id globals cloned N times (fresh ids, entry
#                                           points and symbolic IDs; scripts/gen_bench.py), with markers
#   bench-data/bench-<S>MB-passthrough.spv  the same module with the marker functions renamed (…2021…,
#                                           same length): same size and shape, no markers
#   bench-data/bench-<S>MB-sparse.spv       the same clones, but only every M-th clone (--marker-every,
#                                           default 50) calls the markers, the others non-marker copies
#                                           of them (gen_bench.py --mode sparse): realistic density,
#                                           ~3,800 marker calls at 100 MB instead of 191,092; ~3% larger
# and, unless --no-math, real-shaped device code (the dense and sparse modules above are a stress case:
# their kernels do little but read spec constants):
#   bench-data/math-<D>-<S>MB.spv           OpenCL C kernels doing float math around marker calls
#                                           (scripts/gen_bench_cl.py: 8 kernels of 6 calls each, B
#                                           blocks of sin/cos/exp/sqrt/fma/mad/fmin, loads, stores and
#                                           loops after each call), compiled by clang-15 + llvm-spirv-15
#                                           (the loops' llvm.loop metadata is dropped first: with it,
#                                           llvm-spirv-15 emits OpLoopMerge that spirv-val rejects), then
#                                           cloned (gen_bench.py) to S MB. Call density D: sparse (B = 64,
#                                           ~40 KB of code a call: ~250 calls at 10 MB), mid (B = 8, ~6 KB
#                                           a call), dense (B = 1, ~1 KB a call: ~100,000 calls at 100 MB).
#   bench-data/dpcpp-math-<S>MB.spv         SYCL kernels doing float math around spec-constant reads,
#                                           compiled by DPC++: scripts/bench-templates/dpcpp-math/image0.spv
#                                           (DPC++ 2026.2's image, --spec-mode none: the marker calls stay;
#                                           source.cpp from scripts/gen_bench_sycl.py, 8 kernels of 6 reads
#                                           each through kernel_handler, 8 blocks of sycl::sin/cos/exp/sqrt/
#                                           fma/fmin, loads, stores and loops after each; ~5.6 KB of code a
#                                           call: ~1,800 calls at 10 MB), cloned (gen_bench.py) to S MB.
#                                           The template is committed: no DPC++ needed here.
#                                           --dpcpp-template: make it again first (gen_bench_sycl.py with
#                                           the arguments in generator-args, then scripts/dpcpp-jit/jitc as
#                                           in scripts/gen-postlink-testdata.sh, sourcing
#                                           scripts/dpcpp-jit/setup.sh: ~20 s); --no-dpcpp: none.
#   bench-data/corpus-<S>MB.spv             real oneMKL kernels (CORPUS_MODULES below: LAPACK, DFT (an
#                                           ESIMD kernel), RNG, sparse, VM and BLAS-era mkl-dpcpp kernels,
#                                           one kernel each, 70 KB-1.5 MB) of the corpus of
#                                           scripts/corpus.sh ($CORPUS_DIR, default <repo>/corpus), each given
#                                           marker calls as scripts/lowering_corpus.py does and merged into
#                                           one module (scripts/gen_bench_corpus.py: ~4.6 MB, 29 calls),
#                                           cloned to S MB for S in --corpus-sizes (default "10 50"):
#                                           a few hundred calls, code dominated by calls, arithmetic and
#                                           decorations. Skipped, with a note, when there is no corpus;
#                                           --no-corpus: none. Their lowered output is not run through
#                                           spirv-val (the corpus modules fail Debian's spirv-val as they are).
#                                           --math-only: only the real-shaped inputs (math, dpcpp-math,
#                                           corpus); --no-math: none of them.
# and, unless --no-link, sets of small independent modules for linking (a later feature):
#   bench-data/link-{1k,3k,9k}/mNNNNN.spv   clone i of basic / basic-O0 / types in turn (i = 0..8999;
#                                           unique entry points and symbolic IDs; ~67 MB for 9k);
#                                           the sets share files (hard links to bench-data/link-all/).
# Every module is checked: `spec-link IN -o OUT --no-validate` must accept it (the pass-through one must
# come out byte-identical; the number of marker calls `spec-link -v` reports is printed), and the native
# outputs of the smallest markers and sparse modules must pass spirv-val (spec-link --validate, then
# spirv-val itself: the inputs fail spirv-val, so spec-link --validate alone would only warn).
# Deterministic: the same fixture and sizes give the same bytes. Existing files are kept when their
# recipe (generator, fixture, clone count, mode; M for sparse) is unchanged, unless --force.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$REPO/bench-data"
FIXTURES="$REPO/testdata/dpcpp-fixtures"
SIZES="10 50 100"
FIXTURE=types
LINK=1
FORCE=0
EVERY=50
MATH="sparse mid dense"
MATH_ONLY=0
DPCPP=1
DPCPP_TEMPLATE=0
CORPUS=1
CORPUS_SIZES="10 50"
CORPUS_DIR="${CORPUS_DIR:-$REPO/corpus}"
# The corpus kernels of bench-data/corpus-<S>MB.spv (paths under $CORPUS_DIR/modules; SPIR-V 1.4,
# distinct entry points).
CORPUS_MODULES=(
  onemkl_sycl_lapack-2026.2.0/libmkl_sycl_lapack.so.6-23310496.zst-0.spv
  onemkl_sycl_dft-2026.2.0/libmkl_sycl_dft.so.6-35459648.zst-0.spv
  mkl_dpcpp-2023.2.0/libmkl_sycl.so.3-502828512.spv
  mkl_dpcpp-2023.2.0/libmkl_sycl.so.3-509273616.spv
  mkl_dpcpp-2023.2.0/libmkl_sycl.so.3-345603024.spv
  onemkl_sycl_rng-2026.2.0/libmkl_sycl_rng.so.6-47878912.zst-0.spv
  onemkl_sycl_sparse-2026.2.0/libmkl_sycl_sparse.so.6-47647040.zst-0.spv
)

while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) SIZES="$2"; shift 2 ;;
    --fixture) FIXTURE="$2"; shift 2 ;;
    --marker-every) EVERY="$2"; shift 2 ;;
    --no-link) LINK=0; shift ;;
    --math) MATH="$2"; shift 2 ;;
    --no-math) MATH=""; DPCPP=0; CORPUS=0; shift ;;
    --no-dpcpp) DPCPP=0; shift ;;
    --dpcpp-template) DPCPP_TEMPLATE=1; shift ;;
    --no-corpus) CORPUS=0; shift ;;
    --corpus-sizes) CORPUS_SIZES="$2"; shift 2 ;;
    --math-only) MATH_ONLY=1; LINK=0; shift ;;
    --force) FORCE=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/!p}' "$0"; exit 0 ;;
    *) echo "gen-bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ "$EVERY" =~ ^[1-9][0-9]*$ ]] || { echo "gen-bench.sh: --marker-every needs a positive number" >&2; exit 2; }

say() { printf '[gen-bench] %s\n' "$*"; }
die() { printf '[gen-bench] error: %s\n' "$*" >&2; exit 1; }

for tool in python3 spirv-as spirv-dis spirv-val cargo; do
  command -v "$tool" >/dev/null || die "$tool not found (run scripts/setup.sh)"
done
GEN="$REPO/scripts/gen_bench.py"
ASM="$FIXTURES/$FIXTURE/image0.input.spvasm"
[ -f "$ASM" ] || die "fixture $ASM not found"

cd "$REPO"
say "cargo build --release"
cargo build --release --quiet
SPEC_LINK="$REPO/target/release/spec-link"

mkdir -p "$OUT"
TMP="$OUT/.tmp"
rm -rf "$TMP"
mkdir -p "$TMP"
trap 'rm -rf "$TMP"' EXIT

VERSION="$(python3 "$GEN" --print-version "$ASM")"
ENV="spv$VERSION"
GEN_SUM="$(cat "$GEN" "$ASM" | sha256sum | cut -c1-16)"

filesize() { stat -c %s "$1"; }

# assemble TEXT OUT: spirv-as into OUT (via a temporary, so a failed run leaves nothing behind)
assemble() {
  spirv-as --target-env "$ENV" "$1" -o "$2.part"
  mv "$2.part" "$2"
}

# Size of one clone: assemble 1 and 2 clones.
python3 "$GEN" "$ASM" -n 1 -o "$TMP/one.spvasm"
python3 "$GEN" "$ASM" -n 2 -o "$TMP/two.spvasm"
assemble "$TMP/one.spvasm" "$TMP/one.spv"
assemble "$TMP/two.spvasm" "$TMP/two.spv"
ONE=$(filesize "$TMP/one.spv")
PER=$(( $(filesize "$TMP/two.spv") - ONE ))
BASE=$(( ONE - PER ))
say "fixture $FIXTURE: $ONE bytes, +$PER bytes per clone ($ENV)"

# check IN MODE: spec-link must accept IN; prints the number of marker calls it reports (-v)
check() {
  local in="$1" kind="$2" out="$TMP/check.spv" t0 t1 calls
  t0=$(date +%s%N)
  "$SPEC_LINK" "$in" -o "$out" --no-validate -v 2>"$TMP/check.err" ||
    die "spec-link rejected $in: $(grep -v '^  ' "$TMP/check.err" | tail -5)"
  t1=$(date +%s%N)
  if [ "$kind" = passthrough ]; then
    cmp -s "$in" "$out" || die "spec-link changed the pass-through module $in"
  fi
  calls="$(sed -n 's/^spec-link: \([0-9]*\) marker call(s).*/\1/p' "$TMP/check.err" | head -1)"
  say "  spec-link accepts $(basename "$in") (-v: $(( (t1 - t0) / 1000000 )) ms; ${calls:-0} marker calls)"
  rm -f "$out" "$TMP/check.err"
}

# validate IN: the native output of IN must pass spirv-val
validate() {
  local f="$1" t0 t1 t2
  t0=$(date +%s%N)
  "$SPEC_LINK" "$f" -o "$TMP/val.spv" --validate --quiet || die "the native output of $f fails spirv-val"
  t1=$(date +%s%N)
  "$SPEC_LINK" "$f" -o "$TMP/val.spv" --no-validate --quiet
  t2=$(date +%s%N)
  spirv-val --target-env "$ENV" "$TMP/val.spv" || die "the native output of $f fails spirv-val --target-env $ENV"
  say "native output of $(basename "$f") passes spirv-val (spec-link --validate $(( (t1 - t0) / 1000000 )) ms, --no-validate $(( (t2 - t1) / 1000000 )) ms)"
  rm -f "$TMP/val.spv"
}

SMALLEST=""
[ "$MATH_ONLY" = 0 ] || SIZES_DPCPP=""
for S in ${SIZES_DPCPP-$SIZES}; do
  [ -n "$SMALLEST" ] || SMALLEST="$S"
  N=$(( (S * 1000000 - BASE + PER / 2) / PER ))
  [ "$N" -ge 1 ] || N=1
  for mode in markers passthrough sparse; do
    f="$OUT/bench-${S}MB-$mode.spv" recipe="$GEN_SUM $FIXTURE $N $mode" extra=()
    [ "$mode" != markers ] || f="$OUT/bench-${S}MB.spv"
    if [ "$mode" = sparse ]; then recipe="$recipe $EVERY"; extra=(--marker-every "$EVERY"); fi
    if [ "$FORCE" = 0 ] && [ -f "$f" ] && [ "$(cat "$f.recipe" 2>/dev/null)" = "$recipe" ]; then
      say "$(basename "$f"): up to date ($(filesize "$f") bytes, $N clones)"
    else
      say "$(basename "$f"): $N clones of $FIXTURE ($mode)"
      python3 "$GEN" "$ASM" -n "$N" --mode "$mode" "${extra[@]}" -o "$TMP/big.spvasm"
      assemble "$TMP/big.spvasm" "$f"
      rm -f "$TMP/big.spvasm"
      printf '%s\n' "$recipe" > "$f.recipe"
      say "  $(filesize "$f") bytes"
    fi
    check "$f" "$mode"
  done
done

if [ -n "$SMALLEST" ]; then
  validate "$OUT/bench-${SMALLEST}MB.spv"
  validate "$OUT/bench-${SMALLEST}MB-sparse.spv"
fi

# --- real-shaped device code: compiled or real kernels, cloned -------------------------------
# real_inputs NAME TEMPLATE.spv SUM VALIDATE SIZES: bench-data/NAME-<S>MB.spv for each S in SIZES, clones of
# TEMPLATE's kernels (gen_bench.py on its disassembly); SUM: the checksum of the template and its
# generators (an input is regenerated when it or the clone count changes); VALIDATE=1: the native output of the smallest must pass spirv-val
real_inputs() {
  local name="$1" tspv="$2" sum="$3" val="$4" sizes="$5" base="$TMP/$1" one per fixed n f recipe first
  spirv-dis "$tspv" -o "$base.spvasm" || die "spirv-dis cannot read the $name template $tspv"
  python3 "$GEN" "$base.spvasm" -n 1 -o "$TMP/one.spvasm"
  python3 "$GEN" "$base.spvasm" -n 2 -o "$TMP/two.spvasm"
  assemble "$TMP/one.spvasm" "$TMP/one.spv"
  assemble "$TMP/two.spvasm" "$TMP/two.spv"
  one=$(filesize "$TMP/one.spv")
  per=$(( $(filesize "$TMP/two.spv") - one ))
  fixed=$(( one - per ))
  say "$name: $(python3 "$REPO/scripts/spv_mix.py" "$tspv" | cut -d: -f2-); $one bytes, +$per bytes per clone"
  for S in $sizes; do
    n=$(( (S * 1000000 - fixed + per / 2) / per ))
    [ "$n" -ge 1 ] || n=1
    f="$OUT/$name-${S}MB.spv" recipe="$sum $n"
    if [ "$FORCE" = 0 ] && [ -f "$f" ] && [ "$(cat "$f.recipe" 2>/dev/null)" = "$recipe" ]; then
      say "$(basename "$f"): up to date ($(filesize "$f") bytes, $n clones)"
    else
      say "$(basename "$f"): $n clones of $name"
      python3 "$GEN" "$base.spvasm" -n "$n" -o "$TMP/big.spvasm"
      assemble "$TMP/big.spvasm" "$f"
      rm -f "$TMP/big.spvasm"
      printf '%s\n' "$recipe" > "$f.recipe"
      say "  $(filesize "$f") bytes"
    fi
    check "$f" markers
    say "  $(python3 "$REPO/scripts/spv_mix.py" "$f")"
  done
  first="${sizes%% *}"
  [ "$val" = 0 ] || validate "$OUT/$name-${first}MB.spv"
}

# (a) OpenCL C math kernels (gen_bench_cl.py), compiled by clang-15 + llvm-spirv-15
# math_blocks DENSITY: the math blocks after each marker call
math_blocks() {
  case "$1" in
    sparse) echo 64 ;;
    mid) echo 8 ;;
    dense) echo 1 ;;
    *) die "unknown --math density $1 (sparse, mid, dense)" ;;
  esac
}
if [ -n "$MATH" ]; then
  for tool in clang-15 llvm-dis-15 llvm-as-15 llvm-spirv-15 spirv-dis; do
    command -v "$tool" >/dev/null || die "$tool not found (apt-get install clang-15 llvm-15 llvm-spirv-15; scripts/setup.sh)"
  done
  CLGEN="$REPO/scripts/gen_bench_cl.py"
fi
for D in $MATH; do
  B=$(math_blocks "$D")
  base="$TMP/math-$D"
  python3 "$CLGEN" --kernels 8 --calls 6 --blocks "$B" -o "$base.cl"
  clang-15 -cl-std=CL2.0 -target spir64 -O1 -emit-llvm -c "$base.cl" -o "$base.bc"
  llvm-dis-15 "$base.bc" -o "$base.ll"
  sed -i 's/, !llvm\.loop ![0-9]*//' "$base.ll"
  llvm-as-15 "$base.ll" -o "$base.bc"
  llvm-spirv-15 --spirv-max-version=1.4 "$base.bc" -o "$base.spv"
  spirv-val "$base.spv" || die "the compiled math-$D template fails spirv-val"
  spirv-dis "$base.spv" -o "$base.spvasm"
  real_inputs "math-$D" "$base.spv" "$(cat "$GEN" "$CLGEN" "$base.spvasm" | sha256sum | cut -c1-16)" 1 "$SIZES"
done

# (b) SYCL math kernels (gen_bench_sycl.py) compiled by DPC++, from the committed template
if [ "$DPCPP" = 1 ]; then
  TDIR="$REPO/scripts/bench-templates/dpcpp-math"
  if [ "$DPCPP_TEMPLATE" = 1 ]; then
    say "dpcpp-math template: gen_bench_sycl.py $(cat "$TDIR/generator-args"), DPC++ (scripts/dpcpp-jit)"
    # shellcheck disable=SC2046
    python3 "$REPO/scripts/gen_bench_sycl.py" $(cat "$TDIR/generator-args") -o "$TDIR/source.cpp"
    repo="$REPO"
    # shellcheck disable=SC1091
    . "$REPO/scripts/dpcpp-jit/setup.sh"
    mkdir -p "$TMP/dpcpp"
    cp "$TDIR/source.cpp" "$TMP/dpcpp/source.cpp"
    (cd "$TMP/dpcpp" && "$jitc" --lib "$lib" --spec-mode none --out "$TMP/dpcpp" source.cpp -- \
      -Xclang -fsycl-unique-prefix=uid0123456789abcdef) >"$TMP/dpcpp/log" 2>&1 ||
      die "DPC++ failed on $TDIR/source.cpp: $(tail -5 "$TMP/dpcpp/log")"
    cp "$TMP/dpcpp/image0.spv" "$TMP/dpcpp/image0.kernels.txt" "$TDIR/"
    say "  wrote $TDIR/image0.spv ($(filesize "$TDIR/image0.spv") bytes)"
  fi
  [ -f "$TDIR/image0.spv" ] || die "no $TDIR/image0.spv (gen-bench.sh --dpcpp-template makes it)"
  real_inputs dpcpp-math "$TDIR/image0.spv" "$(cat "$GEN" "$TDIR/image0.spv" | sha256sum | cut -c1-16)" 1 "$SIZES"
fi

# (c) real oneMKL kernels of the corpus (scripts/corpus.sh) with marker calls added, merged
if [ "$CORPUS" = 1 ]; then
  if [ ! -d "$CORPUS_DIR/modules" ]; then
    say "corpus: no $CORPUS_DIR/modules (scripts/corpus.sh builds it; CORPUS_DIR names another): no corpus inputs"
  else
    CGEN="$REPO/scripts/gen_bench_corpus.py"
    python3 "$CGEN" --corpus "$CORPUS_DIR/modules" -o "$TMP/corpus-merged.spvasm" "${CORPUS_MODULES[@]}" |
      sed 's/^/[gen-bench] corpus: /'
    assemble "$TMP/corpus-merged.spvasm" "$TMP/corpus-merged.spv"
    CSUM="$(cat "$GEN" "$CGEN" "$REPO/scripts/lowering_corpus.py" "$TMP/corpus-merged.spv" | sha256sum | cut -c1-16)"
    # The corpus modules fail Debian's spirv-val as they are (Intel extensions, 512-wide vectors):
    # no spirv-val check of the output.
    real_inputs corpus "$TMP/corpus-merged.spv" "$CSUM" 0 "$CORPUS_SIZES"
  fi
fi

# --- sets of small modules for linking -----------------------------------------------------
if [ "$LINK" = 1 ]; then
  ALL="$OUT/link-all"
  COUNT=9000
  LFIX=("$FIXTURES/basic/image0.input.spvasm" "$FIXTURES/basic-O0/image0.input.spvasm" "$FIXTURES/types/image0.input.spvasm")
  recipe="$(cat "$GEN" "${LFIX[@]}" | sha256sum | cut -c1-16) $COUNT"
  if [ "$FORCE" = 0 ] && [ "$(cat "$ALL/.recipe" 2>/dev/null)" = "$recipe" ]; then
    say "link-all: up to date ($COUNT modules)"
  else
    say "link-all: $COUNT single-clone modules of basic, basic-O0, types"
    rm -rf "$ALL" "$OUT"/link-{1k,3k,9k}
    mkdir -p "$ALL"
    python3 "$GEN" "${LFIX[@]}" -n "$COUNT" --split-dir "$TMP/link"
    # -P2: two cores
    find "$TMP/link" -name '*.spvasm' -print0 | sort -z |
      xargs -0 -P2 -n 200 sh -c 'for t; do spirv-as --target-env '"$ENV"' "$t" -o "'"$ALL"'/$(basename "${t%.spvasm}").spv" || exit 255; done' _
    rm -rf "$TMP/link"
    [ "$(find "$ALL" -name '*.spv' | wc -l)" = "$COUNT" ] || die "link-all: not all modules were assembled"
    printf '%s\n' "$recipe" > "$ALL/.recipe"
  fi
  for set in 1k:1000 3k:3000 9k:9000; do
    name="link-${set%%:*}" n="${set##*:}"
    if [ ! -d "$OUT/$name" ] || [ "$(find "$OUT/$name" -name '*.spv' | wc -l)" != "$n" ]; then
      rm -rf "${OUT:?}/$name"
      mkdir -p "$OUT/$name"
      for ((i = 0; i < n; i++)); do printf 'm%05d.spv\0' "$i"; done |
        (cd "$ALL" && xargs -0 ln -t "$OUT/$name")
    fi
    say "$name: $n modules, $(du -sb --apparent-size "$OUT/$name" | cut -f1) bytes"
  done
  # Each module alone must be accepted (a sample of 30 across the three fixtures).
  for i in $(seq 0 300 8999) 1 2; do
    m="$ALL/$(printf 'm%05d.spv' "$i")"
    "$SPEC_LINK" "$m" -o "$TMP/m.spv" --validate --quiet || die "spec-link rejected $m"
  done
  say "link modules: a sample of 32 passes spec-link --validate"
fi
say "done; inputs in $OUT"
