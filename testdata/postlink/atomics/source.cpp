// atomic_ref on USM: 32-bit int (device / work_group scope), 64-bit int (atomic64), float
// fetch_add, double fetch_add (fp64 + atomic64), compare_exchange on unsigned long long, atomic
// on a local_accessor (local address space), and atomic_fence.
#include <sycl/sycl.hpp>
using sycl::memory_order, sycl::memory_scope;
class KInt32;
class KInt64;
class KFloat;
class KDouble;
class KCas64;
class KLocalAtomic;
void run(sycl::queue &q, int *i, long long *l, float *f, double *d, unsigned long long *u) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KInt32>(sycl::range<1>(64), [=](sycl::id<1> x) {
      sycl::atomic_ref<int, memory_order::relaxed, memory_scope::device> r(i[0]);
      r.fetch_add(1);
      r.fetch_max(static_cast<int>(x[0]));
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KInt64>(sycl::range<1>(64), [=](sycl::id<1> x) {
      sycl::atomic_ref<long long, memory_order::relaxed, memory_scope::device> r(l[0]);
      r.fetch_add(1ll << 33);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KFloat>(sycl::range<1>(64), [=](sycl::id<1> x) {
      sycl::atomic_ref<float, memory_order::relaxed, memory_scope::device> r(f[0]);
      r.fetch_add(0.5f);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KDouble>(sycl::range<1>(64), [=](sycl::id<1> x) {
      sycl::atomic_ref<double, memory_order::relaxed, memory_scope::device> r(d[0]);
      r.fetch_add(0.25);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KCas64>([=] {
      sycl::atomic_ref<unsigned long long, memory_order::acq_rel, memory_scope::device> r(u[0]);
      unsigned long long e = 0;
      r.compare_exchange_strong(e, 0xdeadbeefcafeull);
      sycl::atomic_fence(memory_order::seq_cst, memory_scope::device);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> cnt(1, h);
    h.parallel_for<KLocalAtomic>(sycl::nd_range<1>(64, 32), [=](sycl::nd_item<1> it) {
      if (it.get_local_id(0) == 0) cnt[0] = 0;
      sycl::group_barrier(it.get_group());
      sycl::atomic_ref<int, memory_order::relaxed, memory_scope::work_group, sycl::access::address_space::local_space> r(cnt[0]);
      r.fetch_add(2);
      sycl::group_barrier(it.get_group());
      if (it.get_local_id(0) == 0) i[1 + it.get_group(0)] = cnt[0];
    });
  });
}
