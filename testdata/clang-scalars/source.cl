// clang-scalars: one spec constant of every scalar type, read by value at -O1.
// Built by scripts/gen-clang-testdata.sh (clang-15 + llvm-spirv-15, NOT a SYCL compiler).
// gen: -O1 --spirv-max-version=1.4
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// sycl::specialization_id<T> is a struct whose first member is the default value.
typedef struct { int value; } sid_int;
typedef struct { char value; } sid_char;
typedef struct { short value; } sid_short;
typedef struct { long value; } sid_long;
typedef struct { float value; } sid_float;
typedef struct { double value; } sid_double;
typedef struct { half value; } sid_half;
typedef struct { bool value; } sid_bool;
typedef struct { uchar value; } sid_uchar;
typedef struct { ulong value; } sid_ulong;

// The SYCL 2020 scalar markers, given their C++ mangled names through asm labels.
int get_int(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_");
char get_char(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIcET_PKcPKvS4_");
short get_short(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIsET_PKcPKvS4_");
long get_long(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIlET_PKcPKvS4_");
float get_float(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIfET_PKcPKvS4_");
double get_double(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIdET_PKcPKvS4_");
half get_half(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIDhET_PKcPKvS4_");
bool get_bool(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIbET_PKcPKvS4_");
uchar get_uchar(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIhET_PKcPKvS4_");
ulong get_ulong(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueImET_PKcPKvS4_");

// Symbolic IDs and defaults (static = internal, as DPC++ emits them).
static __global const char usid_int[] = "uid0123456789abcdef____ZL5intId";
static __global const char usid_char[] = "uid0123456789abcdef____ZL6charId";
static __global const char usid_short[] = "uid0123456789abcdef____ZL7shortId";
static __global const char usid_long[] = "uid0123456789abcdef____ZL6longId";
static __global const char usid_float[] = "uid0123456789abcdef____ZL7floatId";
static __global const char usid_double[] = "uid0123456789abcdef____ZL8doubleId";
static __global const char usid_half[] = "uid0123456789abcdef____ZL6halfId";
static __global const char usid_bool[] = "uid0123456789abcdef____ZL6boolId";
static __global const char usid_uchar[] = "uid0123456789abcdef____ZL7ucharId";
static __global const char usid_ulong[] = "uid0123456789abcdef____ZL7ulongId";

static __global const sid_int intId = {42};
static __global const sid_char charId = {'A'};
static __global const sid_short shortId = {-300};
static __global const sid_long longId = {0x0123456789abcdefL};
static __global const sid_float floatId = {1.5f};
static __global const sid_double doubleId = {2.5};
static __global const sid_half halfId = {1.0h};
static __global const sid_bool boolId = {true};
static __global const sid_uchar ucharId = {200};
static __global const sid_ulong ulongId = {0xfedcba9876543210UL};

// out: the raw values at fixed offsets; d: values computed from them.
__kernel void Scalars(__global uchar *out, __global int *d) {
  int i = get_int(usid_int, &intId, 0);
  char c = get_char(usid_char, &charId, 0);
  short s = get_short(usid_short, &shortId, 0);
  long l = get_long(usid_long, &longId, 0);
  float f = get_float(usid_float, &floatId, 0);
  double x = get_double(usid_double, &doubleId, 0);
  half h = get_half(usid_half, &halfId, 0);
  bool b = get_bool(usid_bool, &boolId, 0);
  uchar uc = get_uchar(usid_uchar, &ucharId, 0);
  ulong ul = get_ulong(usid_ulong, &ulongId, 0);

  *(__global int *)(out + 0) = i;
  *(__global short *)(out + 4) = s;
  *(__global char *)(out + 6) = c;
  out[7] = b;                      // bool -> uchar: 1 or 0
  *(__global long *)(out + 8) = l;
  *(__global double *)(out + 16) = x;
  *(__global float *)(out + 24) = f;
  *(__global half *)(out + 28) = h;
  out[30] = uc;
  *(__global ulong *)(out + 32) = ul;

  d[0] = i * 3 + 1;
  d[1] = c;                        // sign-extended
  d[2] = s;                        // sign-extended
  d[3] = b ? 0x1111 : 0x2222;
  d[4] = (int)(l >> 32);           // arithmetic shift
  d[5] = (int)(f * 4.0f);
  d[6] = (int)(x * 2.0);
  d[7] = (int)(h + h);
  d[8] = uc;                       // zero-extended
  d[9] = (int)(ul & 0xffffUL);
}
