#!/usr/bin/env bash
# Machine setup for spec-link (Debian 12, run as root; idempotent; needs no stdin).
#   - Debian packages: SPIR-V tools, clang/llvm-spirv 15 (to make test inputs), OpenCL ICD loader, venv,
#     python3-jsonschema (the sidecar schema test), g++ and unzip (the SYCL runtime host program,
#     the DPC++ wheels)
#   - $REPO/.venv with Intel's CPU OpenCL runtime + pyopencl (for scripts/ocl_run.py) and the
#     SYCL runtime intel-sycl-rt (headers + libsycl.so, for scripts/sycl-run/)
#   - $REPO/.ocl-icd/intel-cpu.icd pointing at the venv's libintelocl.so
#   - $REPO/.devicelib: DPC++'s SPIR-V device libraries (from the intel-sycl-rt 2025.0.4 wheel)
#   - cargo build --release; bash completions and the man page (spec-link completions / man)
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
  # the SYCL runtime (libsycl.so + headers) for scripts/sycl-run/ (tests/sycl_runtime.rs)
  intel-sycl-rt==2026.2.0
  numpy==2.4.6
  # transitive dependencies, pinned too so that reruns install the same set
  intel-cmplr-lic-rt==2026.2.0
  intel-cmplr-lib-ur==2026.2.0
  umf==1.2.0
  tbb==2023.2.0
  tcmlib==1.6.0
  platformdirs==4.14.5
  pytools==2026.1.1
  siphash24==1.9
  typing_extensions==4.16.0
  # corpus extraction (scripts/corpus_extract.py): zstd frames
  zstandard==0.25.0
)
APT_PACKAGES=(spirv-tools clang-15 llvm-15 llvm-spirv-15 ocl-icd-libopencl1 python3-venv time python3-jsonschema g++ unzip)

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

# --- DPC++ device libraries (real SPIR-V library modules for tests/link.rs) ---------------
# intel-sycl-rt 2025.0.4 ships libsycl-*.spv (the wrappers such as libsycl-cmath.spv and their
# libsycl-fallback-*.spv implementations); from 2026 on the wheel has them only as LLVM bitcode.
# The wheel is fetched without its dependencies, checked against its SHA-256, and only its .spv
# files are kept, in $REPO/.devicelib/intel-sycl-rt-2025.0.4/.
DEVLIB_PIN="intel-sycl-rt==2025.0.4"
DEVLIB_SHA256="85c5fd6029f62e8361af1d9ddb0f6c6f9cf4912bbe9ad684f89e9e5842128879"
DEVLIB_DIR="$REPO/.devicelib/intel-sycl-rt-2025.0.4"
if [ ! -f "$DEVLIB_DIR/COMPLETE" ]; then
  say "pip download $DEVLIB_PIN (device libraries, ~12 MB)"
  tmp_devlib="$(mktemp -d)"
  printf '%s --hash=sha256:%s\n' "$DEVLIB_PIN" "$DEVLIB_SHA256" > "$tmp_devlib/req.txt"
  "$VENV/bin/pip" download --quiet --disable-pip-version-check --no-input --no-deps \
    --only-binary=:all: --require-hashes -r "$tmp_devlib/req.txt" -d "$tmp_devlib"
  rm -rf "$DEVLIB_DIR"
  mkdir -p "$DEVLIB_DIR"
  "$VENV/bin/python" - "$tmp_devlib" "$DEVLIB_DIR" <<'PY'
import glob, os, sys, zipfile
src, dst = sys.argv[1], sys.argv[2]
(wheel,) = glob.glob(os.path.join(src, "*.whl"))
n = 0
with zipfile.ZipFile(wheel) as z:
    for info in z.infolist():
        name = os.path.basename(info.filename)
        if name.startswith("libsycl-") and name.endswith(".spv"):
            with open(os.path.join(dst, name), "wb") as f:
                f.write(z.read(info))
            n += 1
if n == 0:
    sys.exit(f"no libsycl-*.spv in {wheel}")
print(f"[setup] {n} device library modules in {dst}")
PY
  touch "$DEVLIB_DIR/COMPLETE"
  rm -rf "$tmp_devlib"
else
  say "device libraries already in $DEVLIB_DIR"
fi

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
  # Shell completions and the man page, generated from the command-line definitions.
  SPEC_LINK="$REPO/target/release/spec-link"
  if [ -d /usr/share/bash-completion/completions ]; then
    "$SPEC_LINK" completions bash > /usr/share/bash-completion/completions/spec-link
    say "bash completions: /usr/share/bash-completion/completions/spec-link"
  fi
  mkdir -p /usr/local/share/man/man1
  "$SPEC_LINK" man > /usr/local/share/man/man1/spec-link.1
  say "man page: /usr/local/share/man/man1/spec-link.1 (man spec-link)"
fi
say "done"
