// Shared non-inlined helpers in a call chain (helper calling helper), SYCL_EXTERNAL functions
// defined here and called by kernels (no device-image dependencies: copied into each image), a
// recursive-free function-pointer-free diamond, unnamed lambda kernels (single_task, range,
// nd_range), and a helper used by only one kernel.
#include <sycl/sycl.hpp>
__attribute__((noinline)) int leaf(int x) { return x * 7 - 1; }
__attribute__((noinline)) int mid_a(int x) { return leaf(x) + 2; }
__attribute__((noinline)) int mid_b(int x) { return leaf(x + 1) * 3; }
SYCL_EXTERNAL int ext_top(int x) { return mid_a(x) + mid_b(x); }
SYCL_EXTERNAL __attribute__((noinline)) float ext_scale(float x) { return x * 0.75f + 1.0f; }
__attribute__((noinline)) int only_one(int x) { return x ^ 0x55; }
void run(sycl::queue &q, int *a, float *f) {
  q.submit([&](sycl::handler &h) { h.single_task([=] { a[0] = ext_top(a[1]); }); });
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::range<1>(16), [=](sycl::id<1> i) { a[i] = mid_a(a[i]) + only_one(i[0]); });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<1>(64, 16), [=](sycl::nd_item<1> it) {
      size_t g = it.get_global_id(0);
      f[g] = ext_scale(f[g]) + mid_b(static_cast<int>(g));
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::range<2>(4, 4), [=](sycl::item<2> it) { f[it.get_linear_id()] = ext_scale(it[0] + it[1]); });
  });
}
