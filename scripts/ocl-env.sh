# Source this (bash) to point the OpenCL ICD loader at the Intel CPU runtime that
# scripts/setup.sh installed in $REPO/.venv. Exports only OCL_ICD_VENDORS.
# libintelocl.so finds its dependencies (libtbb, libimf, ...) through its RUNPATH
# ($ORIGIN), so no LD_LIBRARY_PATH is needed; pyopencl brings its own ICD loader,
# which honours OCL_ICD_VENDORS.
export OCL_ICD_VENDORS="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.ocl-icd"
