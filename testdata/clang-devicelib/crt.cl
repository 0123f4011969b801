// clang-devicelib, crt: kernel C reads the int spec constant N and calls memset, memcpy and
// memcmp, which libsycl-crt.spv exports (calling __devicelib_mem*, exported by
// libsycl-fallback-cstring.spv), and __assert_fail (libsycl-crt.spv; it calls
// __devicelib_assert_fail of libsycl-fallback-cassert.spv). Both this module and libsycl-crt.spv
// import built-in variables (`__spirv_BuiltInGlobalInvocationId`, LinkageAttributes Import +
// BuiltIn), which no module exports: the environment provides them.
// Built by scripts/gen-clang-testdata.sh (clang-15 + llvm-spirv-15, NOT a SYCL compiler).
// gen: -O1

typedef struct { int value; } sid_int;

int get_int(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_");

static __global const char usid_n[] = "uid0123456789abcdef____ZL1N";
static __global const sid_int N = {7};

// __assert_fail's strings (string literals are __constant in OpenCL C; these convert to generic).
static __global const char expr[] = "n != 12345", file[] = "crt.cl", func[] = "C";

// Declared only (llvm-spirv: LinkageAttributes "memcpy" Import, ...).
void *memcpy(void *, const void *, ulong);
void *memset(void *, int, ulong);
int memcmp(const void *, const void *, ulong);
void __assert_fail(const char *, const char *, unsigned int, const char *);

__kernel void C(__global int *out) {
  int n = get_int(usid_n, &N, 0);
  if (n == 12345)  // never true in run.json's override sets: links the assert path in
    __assert_fail(expr, file, __LINE__, func);
  int src[4] = {n, n + 1, n + 2, (int)get_global_id(0)};
  memset(out, 0x11, 32);
  memcpy(out, src, sizeof src);
  out[4] = memcmp(src, out, sizeof src);
}
