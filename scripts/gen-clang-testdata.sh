#!/usr/bin/env bash
# Regenerates testdata/clang-<case>/input.spv from testdata/clang-<case>/source.cl with Debian's
# clang-15 and llvm-spirv-15 (no SYCL compiler involved; see docs/reference/toolchain.md,
# "Making SYCL-like input SPIR-V without a SYCL compiler"). Every other <name>.cl of a case
# (multi-module cases such as clang-link: a.cl, b.cl, single.cl) becomes <name>.spv beside it.
#
#   scripts/gen-clang-testdata.sh [--check] [CASE...]     CASE = clang-scalars, ... (default: all)
#
# Per source file, a line of it of the form
#   // gen: -O1 --spirv-max-version=1.4
# gives the flags: -O* and -g* go to clang, everything else to llvm-spirv (default: -O1, no
# flag). With -g, clang also gets -fdebug-compilation-dir=. so the checkout's path stays out.
# Pipeline (clang runs inside the case directory, so no absolute path can reach the output):
#   clang-15 -cl-std=CL2.0 -target spir64 <-O> [<-g> -fdebug-compilation-dir=.] -emit-llvm -c X.cl -o TMP.bc
#   llvm-spirv-15 <flags> TMP.bc -o input.spv (source.cl) or X.spv (any other X.cl)
# The output is deterministic; --check regenerates into a temporary file and fails (exit 1)
# when a checked-in .spv differs, without touching it. Exit 2: missing tool or bad usage.
set -euo pipefail

CLANG=clang-15
LLVM_SPIRV=llvm-spirv-15
PINNED_LLVM_MAJOR=15   # the checked-in outputs were made with Debian 12's 15.0.6 of both

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check=0
cases=()
for a in "$@"; do
  case "$a" in
    --check) check=1 ;;
    -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "error: unknown option $a" >&2; exit 2 ;;
    *) cases+=("${a%/}") ;;
  esac
done

for tool in "$CLANG" "$LLVM_SPIRV"; do
  command -v "$tool" >/dev/null || { echo "error: $tool not found (apt-get install -y clang-15 llvm-spirv-15; scripts/setup.sh)" >&2; exit 2; }
done
ver="$("$CLANG" --version | sed -n 's/.*clang version \([0-9]*\)\..*/\1/p' | head -1)"
sver="$("$LLVM_SPIRV" --version | sed -n 's/.*LLVM version \([0-9]*\)\..*/\1/p' | head -1)"
if [ "$ver" != "$PINNED_LLVM_MAJOR" ] || [ "$sver" != "$PINNED_LLVM_MAJOR" ]; then
  echo "error: $CLANG / $LLVM_SPIRV report major versions '$ver' / '$sver', expected $PINNED_LLVM_MAJOR" >&2; exit 2
fi

if [ ${#cases[@]} -eq 0 ]; then
  for d in "$repo"/testdata/clang-*/; do
    compgen -G "$d*.cl" >/dev/null && cases+=("$(basename "$d")")
  done
fi
[ ${#cases[@]} -gt 0 ] || { echo "error: no testdata/clang-*/*.cl found" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0
for c in "${cases[@]}"; do
  c="$(basename "$c")"
  dir="$repo/testdata/$c"
  sources=()
  for src in "$dir"/*.cl; do
    [ -f "$src" ] && sources+=("$(basename "$src")")
  done
  [ ${#sources[@]} -gt 0 ] || { echo "error: $dir has no .cl source" >&2; exit 2; }
  for src in "${sources[@]}"; do   # sorted by the shell's glob
    stem="${src%.cl}"
    if [ "$src" = source.cl ]; then spv=input.spv; label="$c"; else spv="$stem.spv"; label="$c/$spv"; fi
    opt=-O1
    clang_flags=()
    spirv_flags=()
    gen_line="$(sed -n 's|^// gen:||p' "$dir/$src" | head -1)"
    for f in $gen_line; do
      case "$f" in
        -O*) opt="$f" ;;
        -g*) clang_flags+=("$f") ;;
        *) spirv_flags+=("$f") ;;
      esac
    done
    [ ${#clang_flags[@]} -gt 0 ] && clang_flags+=(-fdebug-compilation-dir=.)
    out="$tmp/$c.$stem.spv"
    ( cd "$dir" &&
      "$CLANG" -cl-std=CL2.0 -target spir64 "$opt" "${clang_flags[@]}" -emit-llvm -c "$src" -o "$tmp/$c.$stem.bc" &&
      "$LLVM_SPIRV" "${spirv_flags[@]}" "$tmp/$c.$stem.bc" -o "$out" ) ||
      { echo "error: $label: compilation failed" >&2; exit 1; }
    if [ "$check" = 1 ]; then
      if cmp -s "$out" "$dir/$spv"; then
        echo "$label: up to date"
      else
        echo "$label: $spv differs from what $src produces (run scripts/gen-clang-testdata.sh $c)" >&2
        status=1
      fi
    else
      cp "$out" "$dir/$spv"
      echo "$label: wrote testdata/$c/$spv ($opt ${clang_flags[*]} ${spirv_flags[*]})"
    fi
  done
done
exit $status
