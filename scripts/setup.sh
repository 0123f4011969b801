#!/usr/bin/env bash
# Machine setup for spec-link (Debian 12, run as root; idempotent; needs no stdin).
#   - Debian packages: SPIR-V tools, clang/llvm-spirv 15 (to make test inputs), OpenCL ICD loader, venv
#   - $REPO/.venv with Intel's CPU OpenCL runtime + pyopencl (for scripts/ocl_run.py)
#   - $REPO/.ocl-icd/intel-cpu.icd pointing at the venv's libintelocl.so
#   - cargo build --release
# Afterwards: `source scripts/ocl-env.sh` and run `.venv/bin/python scripts/ocl_run.py ...`.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO/.venv"
ICD_DIR="$REPO/.ocl-icd"

# Pinned PyPI versions (checked together on Debian 12 / Python 3.11.2).
# intel-cmplr-lib-rt is needed by intel-opencl-rt but not declared by it (without it: 0 platforms).
PY_PACKAGES=(
  intel-opencl-rt==2026.2.0
  intel-cmplr-lib-rt==2026.2.0
  pyopencl==2026.1.4
  numpy==2.4.6
  # transitive dependencies, pinned too so that reruns install the same set
  intel-cmplr-lic-rt==2026.2.0
  tbb==2023.2.0
  tcmlib==1.6.0
  platformdirs==4.14.5
  pytools==2026.1.1
  siphash24==1.9
  typing_extensions==4.16.0
  # corpus extraction (scripts/corpus_extract.py): zstd frames
  zstandard==0.25.0
)
APT_PACKAGES=(spirv-tools clang-15 llvm-15 llvm-spirv-15 ocl-icd-libopencl1 python3-venv time)

say() { printf '[setup] %s\n' "$*"; }

# --- Debian packages ---------------------------------------------------------------------
export DEBIAN_FRONTEND=noninteractive
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  [ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)" = "install ok installed" ] || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "apt-get install ${missing[*]}"
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
else
  say "apt packages already installed: ${APT_PACKAGES[*]}"
fi

# --- Python venv with the Intel CPU OpenCL runtime ---------------------------------------
# Debian's python3 (the one python3-venv belongs to), not whatever python3 is first on PATH.
if [ ! -x "$VENV/bin/python" ]; then
  say "creating venv $VENV"
  /usr/bin/python3 -m venv "$VENV"
fi
say "pip install ${PY_PACKAGES[*]:0:4} (+ pinned deps; ~900 MB the first time)"
"$VENV/bin/pip" install --quiet --disable-pip-version-check --no-input "${PY_PACKAGES[@]}"

# --- ICD file ----------------------------------------------------------------------------
# The intel-opencl-rt wheel puts libintelocl.so in the venv's lib/ (data files go to the
# prefix, not site-packages); its own etc/OpenCL/vendors/intel-cpu.icd holds a placeholder
# path (/opt/anaconda1anaconda2anaconda3/...), so write one with the real absolute path.
LIBOCL="$VENV/lib/libintelocl.so"
if [ ! -f "$LIBOCL" ]; then
  # Fall back to searching the venv, in case a future wheel moves it.
  LIBOCL="$(find "$VENV" -name libintelocl.so -type f -print -quit)"
  [ -n "$LIBOCL" ] || { echo "[setup] error: libintelocl.so not found under $VENV" >&2; exit 1; }
fi
mkdir -p "$ICD_DIR"
printf '%s\n' "$LIBOCL" > "$ICD_DIR/intel-cpu.icd"
say "wrote $ICD_DIR/intel-cpu.icd -> $LIBOCL"

# Smoke test: the runtime must show up as a platform through our ICD file.
# shellcheck source=scripts/ocl-env.sh
PLATFORM="$(source "$REPO/scripts/ocl-env.sh" && "$VENV/bin/python" -c \
  'import pyopencl as cl; p = cl.get_platforms()[0]; print(p.name, "|", p.version, "|", p.get_devices()[0].il_version.strip())')" \
  || { echo "[setup] error: Intel OpenCL platform not found through $ICD_DIR" >&2; exit 1; }
say "OpenCL: $PLATFORM"

# --- Rust build --------------------------------------------------------------------------
if [ -f "$REPO/Cargo.toml" ]; then
  cd "$REPO"
  if [ -f Cargo.lock ]; then
    say "cargo build --release --locked"
    cargo build --release --locked
  else
    say "cargo build --release (no Cargo.lock)"
    cargo build --release
  fi
fi
say "done"
