#!/usr/bin/env bash
# Builds scripts/sycl-run/sycl_run.cpp with g++ against the SYCL runtime of the venv that
# scripts/setup.sh makes (intel-sycl-rt: include/sycl/sycl.hpp, lib/libsycl.so):
#   scripts/sycl-run/build.sh OUT [VENV]      (VENV defaults to <repo>/.venv)
# The binary finds libsycl.so through its rpath. Running it needs OCL_ICD_VENDORS naming the
# folder of an .icd file that points at Intel's CPU OpenCL runtime (<repo>/.ocl-icd; see
# scripts/ocl-env.sh). Exit 2 when g++ or the runtime is missing.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: build.sh OUT [VENV]}"
venv="${2:-$repo/.venv}"
command -v g++ >/dev/null || { echo "error: g++ not found (needed to build the SYCL host program)" >&2; exit 2; }
[ -f "$venv/include/sycl/sycl.hpp" ] && [ -e "$venv/lib/libsycl.so" ] || {
  echo "error: the SYCL runtime (intel-sycl-rt: $venv/include/sycl/sycl.hpp, $venv/lib/libsycl.so) is missing: run scripts/setup.sh" >&2
  exit 2
}
mkdir -p "$(dirname "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
g++ -std=c++17 -O1 -Wall -Wno-deprecated-declarations -DSYCL_DISABLE_FSYCL_SYCLHPP_WARNING \
  -I"$venv/include" "$repo/scripts/sycl-run/sycl_run.cpp" -o "$tmp" \
  -L"$venv/lib" -lsycl -Wl,-rpath,"$venv/lib"
mv "$tmp" "$out"
