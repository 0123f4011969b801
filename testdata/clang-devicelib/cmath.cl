// clang-devicelib, cmath: kernel M reads the float spec constant X and calls C math functions
// that only DPC++'s device libraries define: libsycl-cmath.spv exports sqrtf, frexpf, ... (each
// calling an imported __devicelib_* function) and libsycl-fallback-cmath.spv exports those.
// frexpf's int* here is an i8* in libsycl-cmath, which passes it on to the fallback's i32*: both
// links adapt the call with OpBitcast.
// Built by scripts/gen-clang-testdata.sh (clang-15 + llvm-spirv-15, NOT a SYCL compiler).
// gen: -O1

typedef struct { float value; } sid_float;

float get_float(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIfET_PKcPKvS4_");

static __global const char usid_x[] = "uid0123456789abcdef____ZL1X";
static __global const sid_float X = {16.0f};

// Declared only (llvm-spirv: LinkageAttributes "sqrtf" Import, ...).
float sqrtf(float);
float frexpf(float, int *);
float ldexpf(float, int);
float fabsf(float);
float floorf(float);
float copysignf(float, float);
float fmaxf(float, float);
float sinf(float);
float cosf(float);

__kernel void M(__global float *out, __global int *iout) {
  float x = get_float(usid_x, &X, 0);
  int e = 0;
  out[0] = x;
  out[1] = sqrtf(x);
  out[2] = frexpf(x, &e);
  iout[0] = e;
  out[3] = ldexpf(x, 3);
  out[4] = fabsf(-x);
  out[5] = floorf(x + 0.5f);
  out[6] = copysignf(x, -1.0f);
  out[7] = fmaxf(x, 3.0f);
  out[8] = sinf(x - x);
  out[9] = cosf(x - x);
}
