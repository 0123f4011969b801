// `-O0 -fsycl-optimize-non-user-code` (-O0 for the user's code, SYCL header code optimised): a
// range kernel with a double calling a noinline user helper, a kernel reading an int and a float
// spec constant, an nd_range kernel with a local_accessor, a plain single_task.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> scI(2);
constexpr sycl::specialization_id<float> scF(1.5f);
class KDbl;
class KSpec;
class KLocal;
class KPlain;
__attribute__((noinline)) double twice(double x) { return 2.0 * x; }
void run(sycl::queue &q, int *a, float *f, double *d) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KDbl>(sycl::range<1>(8), [=](sycl::id<1> i) { d[i] = twice(d[i + 8]); });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KSpec>([=](sycl::kernel_handler kh) { f[0] = kh.get_specialization_constant<scI>() * kh.get_specialization_constant<scF>(); });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> tmp(sycl::range<1>(4), h);
    h.parallel_for<KLocal>(sycl::nd_range<1>(8, 4), [=](sycl::nd_item<1> it) {
      tmp[it.get_local_id(0)] = a[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      a[it.get_global_id(0)] = tmp[3 - it.get_local_id(0)];
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[20] = 1; }); });
}
