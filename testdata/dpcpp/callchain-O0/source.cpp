// gen: -O0
// Spec constants read in noinline device functions called from several kernels and
// through a chain of calls, inside loops, branches and a switch.
#include <sycl/sycl.hpp>
enum Mode : int { ModeAdd = 0, ModeMul = 1, ModeMax = 2, ModeMin = 3 };
constexpr sycl::specialization_id<Mode> modeId(ModeMul);
constexpr sycl::specialization_id<int> itersId(4);
constexpr sycl::specialization_id<float> thrId(10.0f);
constexpr sycl::specialization_id<bool> clampId(true);
constexpr sycl::specialization_id<short> stepId(2);

__attribute__((noinline)) float combine(sycl::kernel_handler &kh, float a, float b) {
  switch (kh.get_specialization_constant<modeId>()) {
  case ModeAdd: return a + b;
  case ModeMul: return a * b;
  case ModeMax: return a > b ? a : b;
  default: return a < b ? a : b;
  }
}
__attribute__((noinline)) float iterate(sycl::kernel_handler &kh, float v) {
  float acc = 1.0f;
  for (int k = 0; k < kh.get_specialization_constant<itersId>(); k += kh.get_specialization_constant<stepId>())
    acc = combine(kh, acc, v + k);
  return acc;
}
__attribute__((noinline)) float finish(sycl::kernel_handler &kh, float v) {
  float r = iterate(kh, v);
  if (kh.get_specialization_constant<clampId>() && r > kh.get_specialization_constant<thrId>())
    r = kh.get_specialization_constant<thrId>();
  return r;
}
class KChainA; class KChainB; class KChainC;
void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KChainA>(sycl::range<1>(16), [=](sycl::id<1> i, sycl::kernel_handler kh) {
      out[i] = finish(kh, (float)i[0]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KChainB>([=](sycl::kernel_handler kh) {
      float s = 0;
      for (int i = 0; i < 4; ++i) s += iterate(kh, (float)i);
      out[0] = s;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KChainC>([=](sycl::kernel_handler kh) {
      out[1] = combine(kh, 2.0f, 3.0f);
      out[2] = kh.get_specialization_constant<itersId>();
    });
  });
}
