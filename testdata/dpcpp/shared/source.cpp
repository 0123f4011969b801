#include <sycl/sycl.hpp>
struct S { float x; int y[2]; };
constexpr sycl::specialization_id<S> sId(S{1.5f, {2, 3}});
constexpr sycl::specialization_id<int> nId(4);
constexpr sycl::specialization_id<double> dId(0.125);
SYCL_EXTERNAL __attribute__((noinline)) float use(sycl::kernel_handler &kh, float v) {
  S s = kh.get_specialization_constant<sId>();
  return v * s.x + s.y[1];
}
class K1; class K2; class K3;
void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> loc(sycl::range<1>(16), h);
    h.parallel_for<K1>(sycl::nd_range<1>(16, 16), [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
      size_t i = it.get_global_id(0);
      loc[i] = use(kh, i) + kh.get_specialization_constant<nId>();
      sycl::group_barrier(it.get_group());
      out[i] = loc[15 - i];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<K2>([=](sycl::kernel_handler kh) {
      out[16] = use(kh, 2.f) + kh.get_specialization_constant<dId>();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<K3>([=](sycl::kernel_handler kh) {
      out[17] = kh.get_specialization_constant<dId>() + kh.get_specialization_constant<nId>() + kh.get_specialization_constant<sId>().y[0];
    });
  });
}
