#include <sycl/sycl.hpp>

struct P { int a; double b; };
constexpr sycl::specialization_id<int> sharedId(11);
constexpr sycl::specialization_id<P> pId(P{3, 4.5});
constexpr sycl::specialization_id<long> onlyBId(-9);

class KA;
class KB;
class KC;

__attribute__((noinline)) int helper(sycl::kernel_handler &kh, int x) {
  return x * kh.get_specialization_constant<sharedId>();
}

void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KA>(sycl::range<1>(4), [=](sycl::id<1> i, sycl::kernel_handler kh) {
      P p = kh.get_specialization_constant<pId>();
      out[i] = helper(kh, (int)i[0]) + p.a + (int)p.b;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KB>([=](sycl::kernel_handler kh) {
      out[4] = (int)kh.get_specialization_constant<onlyBId>() + kh.get_specialization_constant<sharedId>();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KC>([=]() { out[5] = 123; });
  });
}
