// `-fsycl-instrument-device-code` (ITT annotations: the front end links in the ITT stubs and
// SYCLITTAnnotations wraps kernels, barriers and atomics in __itt_offload_* calls): an nd_range
// kernel with a group_barrier and a local_accessor, a kernel with an atomic_ref fetch_add and an
// int spec constant, a double kernel, a plain single_task.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> scI(4);
class KBarrier;
class KAtomSpec;
class KDbl;
class KPlain;
void run(sycl::queue &q, int *a, double *d) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> tile(sycl::range<1>(8), h);
    h.parallel_for<KBarrier>(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it) {
      tile[it.get_local_id(0)] = a[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      a[it.get_global_id(0)] = tile[7 - it.get_local_id(0)];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAtomSpec>(sycl::range<1>(8), [=](sycl::id<1> i, sycl::kernel_handler kh) {
      sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> r(a[32]);
      r.fetch_add(kh.get_specialization_constant<scI>() + static_cast<int>(i[0]));
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KDbl>([=] { d[0] = d[1] * 2.5; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[40] = 2; }); });
}
