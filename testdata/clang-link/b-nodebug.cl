// clang-link, module b again, built WITHOUT -g: the control for b.cl (a.spv + b-nodebug.spv is
// the link without any debug info).
// Built by scripts/gen-clang-testdata.sh (clang-15 + llvm-spirv-15, NOT a SYCL compiler).
// gen: -O1 --spirv-max-version=1.4
#include "b.cl"
