// clang-link, the single-module equivalent of a.cl + b.cl (one translation unit, no -g):
// linking a.spv and b.spv must give the same symbolic IDs, SpecIds, descriptors and defaults.
// Built by scripts/gen-clang-testdata.sh (clang-15 + llvm-spirv-15, NOT a SYCL compiler).
// gen: -O1 --spirv-max-version=1.4

struct Pair { int a; char b; };                   // a@0, b@4, tail pad 5..7; size 8

typedef struct { int value; } sid_int;
typedef struct { struct Pair value; } sid_Pair;

int get_int(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_");
struct Pair get_Pair(const char *, const void *, const void *)
    __asm__("_Z40__sycl_getComposite2020SpecConstantValueI4PairET_PKcPKvS5_");

static __global const char usid_x[] = "uid0123456789abcdef____ZL1X";
static __global const char usid_y[] = "uid0123456789abcdef____ZL1Y";
static __global const sid_int X = {1000};
static __global const sid_Pair Y = {{-7, 'y'}};

// Not inlined, as it cannot be when it lives in another module.
__attribute__((noinline)) int helper(__global int *out, int x);

__kernel void K(__global int *out) {
  int x = get_int(usid_x, &X, 0);
  out[0] = x;
  out[1] = helper(out, x);
}

__attribute__((noinline)) int helper(__global int *out, int x) {
  int v = get_int(usid_x, &X, 0);
  struct Pair p = get_Pair(usid_y, &Y, 0);
  out[2] = v;
  out[3] = p.a;
  out[4] = p.b;
  return v * 2 + x + p.a;
}
