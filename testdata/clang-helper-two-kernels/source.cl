// clang-helper-two-kernels: one symbolic ID read at two call sites, in a non-inlined helper
// function and in the kernel; a second kernel in the same module that reads no spec constant.
// SPIR-V 1.2 output (validated as opencl2.2), -O1.
// Built by scripts/gen-clang-testdata.sh (clang-15 + llvm-spirv-15, NOT a SYCL compiler).
// gen: -O1 --spirv-max-version=1.2

typedef struct { int value; } sid_int;
typedef struct { short value; } sid_short;
typedef struct { ulong value; } sid_ulong;

int get_int(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_");
short get_short(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIsET_PKcPKvS4_");
ulong get_ulong(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueImET_PKcPKvS4_");

static __global const char usid_int[] = "uid0123456789abcdef____ZL5intId";
static __global const char usid_short[] = "uid0123456789abcdef____ZL7shortId";
static __global const char usid_ulong[] = "uid0123456789abcdef____ZL7ulongId";
static __global const sid_int intId = {1000};
static __global const sid_short shortId = {-5};
static __global const sid_ulong ulongId = {0x1122334455667788UL};

// The kernel without spec constants comes first in the module.
__kernel void NoSpec(__global int *out) {
  out[0] = 0x0badf00d;
  out[1] = -42;
}

// Not inlined: its marker calls stay in a function of their own. Reads intId (also read by
// the kernel) and ulongId (read only here).
__attribute__((noinline)) int helper(__global int *out, int x) {
  int v = get_int(usid_int, &intId, 0);
  ulong u = get_ulong(usid_ulong, &ulongId, 0);
  out[4] = (int)(u >> 32);
  out[5] = (int)u;
  return v * x + 1;
}

__kernel void WithSpec(__global int *out) {
  out[0] = get_int(usid_int, &intId, 0);
  out[1] = helper(out, 3);
  out[2] = get_short(usid_short, &shortId, 0);
  out[3] = get_int(usid_int, &intId, 0) - get_short(usid_short, &shortId, 0);
}
