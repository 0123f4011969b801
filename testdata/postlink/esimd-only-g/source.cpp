// ESIMD kernels only, with -g: no kernel is OptNone (DPC++'s ESIMD lowering inlines them), the
// module has debug information, and DPC++ writes optLevel 0.
#include <sycl/sycl.hpp>
#include <sycl/ext/intel/esimd.hpp>
using namespace sycl::ext::intel::esimd;
class KE1;
class KE2;
void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KE1>(sycl::range<1>(2), [=](sycl::id<1> i) SYCL_ESIMD_KERNEL {
      simd<float, 8> v(0.0f, 1.0f);
      v = v * 2.0f;
      v.copy_to(out + i * 8);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KE2>(sycl::range<1>(2), [=](sycl::id<1> i) SYCL_ESIMD_KERNEL {
      simd<float, 8> v(out + 16 + i * 8);
      v += 1.0f;
      v.copy_to(out + 16 + i * 8);
    });
  });
}
