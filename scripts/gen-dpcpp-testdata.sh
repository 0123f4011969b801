#!/usr/bin/env bash
# Regenerates the real DPC++ images of testdata/dpcpp/<case>/ from each case's source.cpp with
# the DPC++ 2026.2 compiler inside the intel-sycl-rt 2026.2.0 wheel (libsycl-jit.so, driven by
# scripts/dpcpp-jit/jitc.cpp). A developer tool: CI and the tests only read the checked-in files.
#
#   scripts/gen-dpcpp-testdata.sh [--version V] [CASE...]   CASE = a directory under testdata/dpcpp
#
# --version V compiles the same sources with the DPC++ of intel-sycl-rt V instead (2026.1.x,
# 2026.0.0 or 2025.3.x; see scripts/dpcpp-jit/setup.sh) into testdata/dpcpp-V/<case>/, with no
# run.json; a case that version cannot compile is skipped with its message.
#
# A line of source.cpp of the form
#   // gen: -O0 -g -fsycl-device-code-split=per_kernel
# gives the compiler arguments (default: none, i.e. -O2 and the default split). A case without
# source.cpp is a variant of another: its file `variant` holds that case's name and the compiler
# arguments, on one line (`vec3half -O0`). Symbolic IDs are
# made with -fsycl-unique-prefix=uid0123456789abcdef, as in testdata/dpcpp-fixtures.
# Per device image N it writes, as the shared fixtures have them:
#   imageN.input.spv             the front end's image after post-link: marker calls not lowered
#   imageN.dpcpp-native.spv      the same after DPC++'s SpecConstantsPass (native) + translator
#   imageN.dpcpp-native.prop     DPC++'s property sets for it
#   imageN.dpcpp-emulation.prop  DPC++'s property sets when it lowers in emulation mode
#   imageN.kernels.txt           the image's kernels
# run.json (hand-written: which kernel runs, with which overrides; see tests/runtime.rs) stays.
# The wheels (intel-sycl-rt and intel-cmplr-lib-rt, ~200 MB) are fetched once into
# .dpcpp-jit/ with the venv's pip (scripts/setup.sh makes the venv); g++ builds jitc.
# Reproducible on one machine; the front end reads the host's C++ standard library headers, so
# another distribution's headers can change the images (not what is checked).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version=2026.2.0
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) sed -n '2,28p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --version) [ $# -ge 2 ] || { echo "error: --version needs a value" >&2; exit 2; }; version="$2"; shift 2 ;;
    -*) echo "error: unknown option $1" >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
set -- ${args[@]+"${args[@]}"}
. "$repo/scripts/dpcpp-jit/setup.sh"

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$repo"/testdata/dpcpp/*/; do cases+=("$(basename "$d")"); done
fi
out_root="$repo/testdata/dpcpp"
[ "$version" = 2026.2.0 ] || out_root="$repo/testdata/dpcpp-$version"
for c in "${cases[@]}"; do
  dir="$out_root/$c"
  case_source "$c"
  tmp="$(mktemp -d)"
  # The front end runs in the scratch directory (debug information records it, not the checkout).
  cp "$src" "$tmp/source.cpp"
  for mode in none native emulation; do
    mkdir -p "$tmp/$mode"
    (cd "$tmp" && "$jitc" --lib "$lib" --spec-mode "$mode" --out "$tmp/$mode" source.cpp -- \
      -Xclang -fsycl-unique-prefix=uid0123456789abcdef ${flags[@]+"${flags[@]}"} \
      ${extra_flags[@]+"${extra_flags[@]}"}) 2>"$tmp/$mode.log" || {
      if [ "$version" != 2026.2.0 ]; then
        echo "$c: skipped: DPC++ $version cannot compile it: $(grep -m1 -i error "$tmp/$mode.log")"
        rm -rf "$tmp"
        continue 2
      fi
      cat "$tmp/$mode.log" >&2; echo "error: $c: compiling ($mode) failed" >&2; exit 1; }
  done
  mkdir -p "$dir"
  rm -f "$dir"/image*.spv "$dir"/image*.prop "$dir"/image*.kernels.txt
  for f in "$tmp"/none/image*.spv; do
    n="$(basename "$f" .spv)"
    cp "$tmp/none/$n.spv" "$dir/$n.input.spv"
    cp "$tmp/none/$n.kernels.txt" "$dir/$n.kernels.txt"
    cp "$tmp/native/$n.spv" "$dir/$n.dpcpp-native.spv"
    cp "$tmp/native/$n.prop" "$dir/$n.dpcpp-native.prop"
    cp "$tmp/emulation/$n.prop" "$dir/$n.dpcpp-emulation.prop"
  done
  rm -rf "$tmp"
  echo "$c: $(ls "$dir" | grep -c 'input.spv$') image(s) (${flags[*]:-default flags})"
done
