// `-fno-sycl-esimd-force-stateless-mem` (ESIMD accessors stay stateful: surface-indexed
// memory accesses instead of pointers): an ESIMD range kernel with block_load / block_store
// through a buffer accessor, an ESIMD kernel reading an int spec constant, a SYCL kernel with a
// double, a plain SYCL kernel.
#include <sycl/sycl.hpp>
#include <sycl/ext/intel/esimd.hpp>
using namespace sycl::ext::intel::esimd;
constexpr sycl::specialization_id<int> scI(3);
class KEAcc; class KESpec; class KSDbl; class KSPlain;
void run(sycl::queue &q, sycl::buffer<float, 1> &buf, float *out, double *d) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor acc(buf, h, sycl::read_write);
    h.parallel_for<KEAcc>(sycl::range<1>(2), [=](sycl::id<1> i) SYCL_ESIMD_KERNEL {
      simd<float, 8> v = block_load<float, 8>(acc, i[0] * 32);
      v = v * 2.0f;
      block_store<float, 8>(acc, i[0] * 32, v);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KESpec>([=](sycl::kernel_handler kh) SYCL_ESIMD_KERNEL {
      simd<float, 8> v(static_cast<float>(kh.get_specialization_constant<scI>()));
      v.copy_to(out);
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KSDbl>([=] { d[0] = d[1] * 2.5; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KSPlain>([=] { out[9] = 1.0f; }); });
}
