// clang-link, module a (built WITHOUT -g): kernel K reads spec constant X and calls helper(),
// which is only declared here (an Import); b.cl defines it.
// Built by scripts/gen-clang-testdata.sh (clang-15 + llvm-spirv-15, NOT a SYCL compiler).
// gen: -O1 --spirv-max-version=1.4

typedef struct { int value; } sid_int;

int get_int(const char *, const void *, const void *)
    __asm__("_Z37__sycl_getScalar2020SpecConstantValueIiET_PKcPKvS4_");

// Module a's own copies of X's symbolic-ID string and specialization_id (same string and
// default as b.cl's).
static __global const char usid_x[] = "uid0123456789abcdef____ZL1X";
static __global const sid_int X = {1000};

// Defined in b.cl (llvm-spirv: LinkageAttributes "helper" Import).
int helper(__global int *out, int x);

__kernel void K(__global int *out) {
  int x = get_int(usid_x, &X, 0);
  out[0] = x;
  out[1] = helper(out, x);
}
