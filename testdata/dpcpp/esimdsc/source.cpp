#include <sycl/sycl.hpp>
#include <sycl/ext/intel/esimd.hpp>
using namespace sycl::ext::intel::esimd;
constexpr sycl::specialization_id<int> aId(7);
constexpr sycl::specialization_id<float> fId(1.5f);
class KEsimdSC;
void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KEsimdSC>(sycl::range<1>(16), [=](sycl::id<1> i, sycl::kernel_handler kh) SYCL_ESIMD_KERNEL {
      simd<float, 8> v(0.0f, 1.0f);
      v += (float)kh.get_specialization_constant<aId>() * kh.get_specialization_constant<fId>();
      v.copy_to(out + i * 8);
    });
  });
}
