// testdata/clang-scalars/source.cl with debug information: see README.md.
// gen: -O2 -g --spirv-debug-info-version=legacy --spirv-max-version=1.4
#include "../clang-scalars/source.cl"
