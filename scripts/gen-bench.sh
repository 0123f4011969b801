#!/usr/bin/env bash
# Builds the benchmark inputs of scripts/bench.sh and benches/stages.rs into bench-data/ (git-ignored).
#
#   scripts/gen-bench.sh [--sizes "10 50 100"] [--fixture types] [--marker-every 50] [--no-link]
#                        [--math "sparse mid dense" | --no-math] [--math-only] [--force]
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
#                                           --math-only: only these.
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

while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) SIZES="$2"; shift 2 ;;
    --fixture) FIXTURE="$2"; shift 2 ;;
    --marker-every) EVERY="$2"; shift 2 ;;
    --no-link) LINK=0; shift ;;
    --math) MATH="$2"; shift 2 ;;
    --no-math) MATH=""; shift ;;
    --math-only) MATH_ONLY=1; LINK=0; shift ;;
    --force) FORCE=1; shift ;;
    -h|--help) sed -n '2,38p' "$0"; exit 0 ;;
    *) echo "gen-bench.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ "$EVERY" =~ ^[1-9][0-9]*$ ]] || { echo "gen-bench.sh: --marker-every needs a positive number" >&2; exit 2; }

say() { printf '[gen-bench] %s\n' "$*"; }
die() { printf '[gen-bench] error: %s\n' "$*" >&2; exit 1; }

for tool in python3 spirv-as spirv-val cargo; do
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

# --- real-shaped device code: compiled OpenCL C math kernels, cloned --------------------------
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
  MSUM="$(cat "$GEN" "$CLGEN" "$base.spvasm" | sha256sum | cut -c1-16)"
  python3 "$GEN" "$base.spvasm" -n 1 -o "$TMP/one.spvasm"
  python3 "$GEN" "$base.spvasm" -n 2 -o "$TMP/two.spvasm"
  assemble "$TMP/one.spvasm" "$TMP/one.spv"
  assemble "$TMP/two.spvasm" "$TMP/two.spv"
  ONE=$(filesize "$TMP/one.spv")
  PER=$(( $(filesize "$TMP/two.spv") - ONE ))
  BASE=$(( ONE - PER ))
  say "math-$D: $(python3 "$REPO/scripts/spv_mix.py" "$base.spv" | cut -d: -f2-); $ONE bytes, +$PER bytes per clone"
  for S in $SIZES; do
    N=$(( (S * 1000000 - BASE + PER / 2) / PER ))
    [ "$N" -ge 1 ] || N=1
    f="$OUT/math-$D-${S}MB.spv" recipe="$MSUM $N"
    if [ "$FORCE" = 0 ] && [ -f "$f" ] && [ "$(cat "$f.recipe" 2>/dev/null)" = "$recipe" ]; then
      say "$(basename "$f"): up to date ($(filesize "$f") bytes, $N clones)"
    else
      say "$(basename "$f"): $N clones of math-$D"
      python3 "$GEN" "$base.spvasm" -n "$N" -o "$TMP/big.spvasm"
      assemble "$TMP/big.spvasm" "$f"
      rm -f "$TMP/big.spvasm"
      printf '%s\n' "$recipe" > "$f.recipe"
      say "  $(filesize "$f") bytes"
    fi
    check "$f" markers
    say "  $(python3 "$REPO/scripts/spv_mix.py" "$f")"
  done
  first="${SIZES%% *}"
  validate "$OUT/math-$D-${first}MB.spv"
done

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
