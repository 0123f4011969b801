// ESIMD shared local memory with spec constants: an ESIMD nd_range kernel with slm_init<1024>,
// slm_block_store / barrier / slm_block_load at a byte offset read from an int spec constant and
// a scale from a float spec constant (kernel_handler beside nd_item), a second ESIMD kernel with
// slm_init<4096> and slm_block_load of int through a noinline ESIMD helper reading the int
// constant too, an ESIMD kernel with SLM and no constants, and a SYCL kernel with a
// local_accessor reading the float constant: the SLM size each image records
// (SharedLocalMemorySizeINTEL), per-image spec-constant numbering with the ESIMD split.
#include <sycl/sycl.hpp>
#include <sycl/ext/intel/esimd.hpp>
using namespace sycl::ext::intel::esimd;
constexpr sycl::specialization_id<int> SC_OFF(1);
constexpr sycl::specialization_id<float> SC_SCALE(1.5f);
constexpr sycl::specialization_id<short> SC_ADD(3);
class KESlm;
class KESlmInt;
class KESlmNoSpec;
class KSLocal;
__attribute__((noinline)) SYCL_ESIMD_FUNCTION simd<int, 8> load_shifted(int blocks) {
  return slm_block_load<int, 8>(static_cast<uint32_t>(blocks) * 32);
}
void run(sycl::queue &q, float *in, float *out, int *iout) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KESlm>(sycl::nd_range<1>(1, 1), [=](sycl::nd_item<1>, sycl::kernel_handler kh) SYCL_ESIMD_KERNEL {
      slm_init<1024>();
      simd<float, 32> v(in);
      slm_block_store<float, 32>(0, v * kh.get_specialization_constant<SC_SCALE>());
      barrier();
      simd<float, 16> w = slm_block_load<float, 16>(static_cast<uint32_t>(kh.get_specialization_constant<SC_OFF>()) * 16);
      w.copy_to(out);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KESlmInt>(sycl::nd_range<1>(1, 1), [=](sycl::nd_item<1>, sycl::kernel_handler kh) SYCL_ESIMD_KERNEL {
      slm_init<4096>();
      simd<int, 16> seq(0, 1);
      slm_block_store<int, 16>(0, seq + kh.get_specialization_constant<SC_ADD>());
      barrier();
      simd<int, 8> r = load_shifted(kh.get_specialization_constant<SC_OFF>());
      r.copy_to(iout);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KESlmNoSpec>(sycl::nd_range<1>(1, 1), [=](sycl::nd_item<1>) SYCL_ESIMD_KERNEL {
      slm_init<256>();
      slm_block_store<int, 8>(0, simd<int, 8>(7));
      barrier();
      simd<int, 8> r = slm_block_load<int, 8>(0);
      r.copy_to(iout + 8);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> loc(sycl::range<1>(16), h);
    h.parallel_for<KSLocal>(sycl::nd_range<1>(16, 16), [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
      size_t l = it.get_local_id(0);
      loc[l] = in[l] * kh.get_specialization_constant<SC_SCALE>();
      sycl::group_barrier(it.get_group());
      out[16 + l] = loc[15 - l];
    });
  });
}
