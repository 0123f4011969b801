// The source of esimd-mixed at -O0: the front end makes the SYCL kernel optnone (OptNone in
// SPIR-V), not the ESIMD one, which DPC++'s ESIMD lowering inlines; every image has optLevel 0.
#include <sycl/sycl.hpp>
#include <sycl/ext/intel/esimd.hpp>
using namespace sycl::ext::intel::esimd;
__attribute__((noinline)) float scale(float x) { return x * 3.0f; }
class KSycl;
class KEsimd;
void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) { h.parallel_for<KSycl>(sycl::range<1>(16), [=](sycl::id<1> i) { out[i] = scale(out[i]); }); });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KEsimd>(sycl::range<1>(2), [=](sycl::id<1> i) SYCL_ESIMD_KERNEL {
      simd<float, 8> v(0.0f, 1.0f);
      v = v * scale(2.0f);
      v.copy_to(out + 16 + i * 8);
    });
  });
}
