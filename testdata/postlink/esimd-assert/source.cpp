// An ESIMD kernel beside SYCL kernels that assert: DPC++'s `off` output is two images, and the
// SYCL one imports `__devicelib_assert_fail` (called by the device library's `__assert_fail`),
// which no image defines: the device compiler or the runtime provides it. Linking the two images
// keeps that import.
#include <cassert>
#include <sycl/sycl.hpp>
#include <sycl/ext/intel/esimd.hpp>
class KAssert;
class KEsimd;
class KPlain;
void run(sycl::queue &q, int *a, float *f) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAssert>(sycl::range<1>(16), [=](sycl::id<1> i) { assert(a[i] != 12345); a[i] += 1; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KEsimd>(sycl::range<1>(2), [=](sycl::id<1> i) SYCL_ESIMD_KERNEL {
      sycl::ext::intel::esimd::simd<float, 8> v(0.0f, 1.0f);
      v.copy_to(f + i * 8);
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[20] = 7; }); });
}
