// clang-O0: built at -O0, where every argument of a marker call goes through a local variable
// (alloca, store, load) as in DPC++'s -O0 code: scalars, a struct through sret, a bool, a
// helper function (not inlined at -O0) reading the same symbolic ID as the kernel, and an
// RTBuffer argument that is a loaded null pointer rather than a literal null.
// Built by scripts/gen-clang-testdata.sh (clang-15 + llvm-spirv-15, NOT a SYCL compiler).
// gen: -O0 --spirv-max-version=1.4
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

struct A { long l; char c; float f[2]; };   // l@0, c@8, pad 9..11, f@12,16; tail pad 20..23; size 24

typedef struct { int value; } sid_int;
typedef struct { double value; } sid_double;
typedef struct { bool value; } sid_bool;
typedef struct { struct A value; } sid_A;

int get_int(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_");
double get_double(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIdET_PKcPKvS4_");
bool get_bool(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_");
struct A get_A(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueI1AET_PKcPKvS5_");

static __global const char usid_int[] = "uid0123456789abcdef____ZL5intId";
static __global const char usid_double[] = "uid0123456789abcdef____ZL8doubleId";
static __global const char usid_bool[] = "uid0123456789abcdef____ZL6boolId";
static __global const char usid_A[] = "uid0123456789abcdef____ZL8structId";
static __global const sid_int intId = {-77};
static __global const sid_double doubleId = {0.75};
static __global const sid_bool boolId = {false};
static __global const sid_A structId = {{-3L, 'k', {0.25f, 8.0f}}};

// Like DPC++'s kernel_handler::get_specialization_constant: the arguments are locals.
int read_int(void) {
  const char *id = usid_int;
  const void *def = &intId;
  const void *rt = 0;
  return get_int(id, def, rt);
}

__kernel void O0Kernel(__global int *out, __global double *dout) {
  const char *id = usid_int;
  const void *def = &intId;
  const void *rt = 0;
  int i = get_int(id, def, rt);           // all three arguments loaded from locals
  int j = read_int();                     // same symbolic ID, in a called function
  double x = get_double(usid_double, &doubleId, rt);   // direct IDs, loaded RTBuffer
  bool b = get_bool(usid_bool, &boolId, 0);
  const char *sid = usid_A;
  const void *sdef = &structId;
  struct A s = get_A(sid, sdef, rt);      // sret into the local s

  out[0] = i;
  out[1] = j + 1;
  out[2] = b ? 5 : 6;
  out[3] = (int)(s.l >> 32);
  out[4] = (int)s.l;
  out[5] = s.c;
  out[6] = (int)(s.f[0] * 100.0f);
  out[7] = (int)(s.f[1] * 100.0f);
  dout[0] = x;
  dout[1] = x * 4.0 + (double)i;
}
