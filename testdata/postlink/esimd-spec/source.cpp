// ESIMD kernels with specialization constants: an ESIMD kernel reading an int spec constant
// through kernel_handler, a SYCL kernel reading the same constant and a float one, an ESIMD
// kernel without constants: per-image spec-constant numbering with the ESIMD split (flag
// -fsycl-device-code-split-esimd, which the JIT accepts).
#include <sycl/sycl.hpp>
#include <sycl/ext/intel/esimd.hpp>
using namespace sycl::ext::intel::esimd;
constexpr sycl::specialization_id<int> SC_I(7);
constexpr sycl::specialization_id<float> SC_F(0.5f);
class KESpec;
class KSSpec;
class KENoSpec;
void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    h.set_specialization_constant<SC_I>(9);
    h.single_task<KESpec>([=](sycl::kernel_handler kh) SYCL_ESIMD_KERNEL {
      int n = kh.get_specialization_constant<SC_I>();
      simd<float, 8> v(static_cast<float>(n));
      v.copy_to(out);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KSSpec>([=](sycl::kernel_handler kh) {
      out[8] = kh.get_specialization_constant<SC_I>() * kh.get_specialization_constant<SC_F>();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KENoSpec>([=]() SYCL_ESIMD_KERNEL {
      simd<float, 8> v(2.0f);
      v.copy_to(out + 16);
    });
  });
}
