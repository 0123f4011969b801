// gen: -O2 -g --spirv-debug-info-version=ocl-100
// Two kernels; ka calls helper, which the optimiser inlines: ka's code keeps helper's
// DebugFunction (which names the out-of-line helper) as an inlined-at scope. Split per kernel,
// ka's image does not take the out-of-line helper in for it, nor kb's anything of ka's.
double helper(double x) { return x * 2.5; }
kernel void ka(global double *d) { d[get_global_id(0)] = helper(d[get_global_id(0)]); }
kernel void kb(global int *p) { p[get_global_id(0)] += 1; }
