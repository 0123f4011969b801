// Compiled at -O0: spec constants through kernel_handler (int, float, struct, bool) in three
// kernels, a kernel_bundle-style set_specialization_constant on the handler, a kernel without
// spec constants but with a kernel_handler argument, and a non-inlined helper (-O0 keeps every
// call and unused arguments: optLevel 0, kernel param masks of all zeros).
#include <sycl/sycl.hpp>
struct S { int a; float b; };
constexpr sycl::specialization_id<int> iId(11);
constexpr sycl::specialization_id<float> fId(2.5f);
constexpr sycl::specialization_id<S> sId(S{4, 0.5f});
constexpr sycl::specialization_id<bool> bId(true);
class KO0Int;
class KO0Struct;
class KO0Bool;
class KO0Handler;
int helper0(int x, int unused) { return x + 1; }
void run(sycl::queue &q, int *a, float *f) {
  q.submit([&](sycl::handler &h) {
    h.set_specialization_constant<iId>(5);
    h.single_task<KO0Int>([=](sycl::kernel_handler kh) { a[0] = helper0(kh.get_specialization_constant<iId>(), 3); });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KO0Struct>([=](sycl::kernel_handler kh) {
      S s = kh.get_specialization_constant<sId>();
      f[0] = s.b * kh.get_specialization_constant<fId>();
      a[1] = s.a + kh.get_specialization_constant<iId>();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KO0Bool>(sycl::range<1>(8), [=](sycl::id<1> i, sycl::kernel_handler kh) {
      a[2 + i] = kh.get_specialization_constant<bId>() ? 1 : 0;
    });
  });
  q.submit([&](sycl::handler &h) {
    int unused = 9;
    h.single_task<KO0Handler>([=](sycl::kernel_handler) { a[10] = 10; (void)unused; });
  });
}
