// gen: -O1 --spirv-max-version=1.4
// A lone float3 spec constant: its size is its store size, 12 bytes (no tail padding), so the
// int after it starts at blob offset 12 (regression: it was sized 16).
typedef struct { float3 value; } sid_f3;
typedef struct { int value; } sid_int;
float3 get_f3(const char *, const void *, const void *) __asm__("_Z40__sycl_getComposite2020SpecConstantValueIDv3_fET_PKcPKvS5_");
int get_int(const char *, const void *, const void *) __asm__("_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_");
static __global const char u1[] = "f3";
static __global const char u2[] = "int";
static __global const sid_f3 f3Id = {(float3)(5.0f, 6.0f, 7.0f)};
static __global const sid_int intId = {0x11223344};
__kernel void K(__global float *out, __global int *iout) {
  float3 f = get_f3(u1, &f3Id, 0);
  out[0] = f.x; out[1] = f.y; out[2] = f.z;
  iout[0] = get_int(u2, &intId, 0);
}
