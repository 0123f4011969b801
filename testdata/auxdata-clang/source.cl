// auxdata-clang: two kernels for NonSemantic.AuxData (input.spvasm adds it by hand, as
// llvm-spirv --spirv-preserve-auxdata writes it; llvm-spirv-15 has no such option).
// Built with clang-15 -O1 and llvm-spirv-15 --spirv-max-version=1.2 (NOT a SYCL compiler).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void Scale(__global double *d, int unused) { d[0] = d[1] * 1.5; }
__kernel void Plain(__global int *a) { a[0] = 42; }
