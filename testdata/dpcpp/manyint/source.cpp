#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> a1(1), a2(2), a3(3), a4(4), a5(5);
constexpr sycl::specialization_id<float> f1(1.f), f2(2.f);
class KM;
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KM>(sycl::range<1>(8), [=](sycl::item<1> it, sycl::kernel_handler kh) {
      int i = it.get_linear_id();
      int r = 0;
      if (i & 1) r += kh.get_specialization_constant<a3>();
      else r += kh.get_specialization_constant<a1>();
      for (int k = 0; k < i; ++k) r += kh.get_specialization_constant<a2>() * (int)kh.get_specialization_constant<f2>();
      r += kh.get_specialization_constant<a5>() + kh.get_specialization_constant<a4>();
      r += (int)kh.get_specialization_constant<f1>();
      out[i] = r;
    });
  });
}
