// Local-memory atomics with fence scopes (atomic_ref on local int / long / float with
// work_group and device scopes, atomic_fence at work_group scope), this_work_item queries in a
// helper, vec<double,3> swizzles, 64-bit integer math (mul_hi, division, rotate) without atomics.
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/free_function_queries.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KLocalAtomInt;
class KLocalAtomLong;
class KLocalAtomFloat;
class KVecD3;
class KI64;
__attribute__((noinline)) size_t query_id() { return sycl::ext::oneapi::this_work_item::get_nd_item<1>().get_global_linear_id(); }
void run(sycl::queue &q, int *a, long *l, float *f, double *d) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> loc(1, h);
    h.parallel_for<KLocalAtomInt>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      if (it.get_local_linear_id() == 0) loc[0] = 0;
      sycl::group_barrier(it.get_group());
      sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::work_group, sycl::access::address_space::local_space> r(loc[0]);
      r.fetch_add(1);
      sycl::atomic_fence(sycl::memory_order::acq_rel, sycl::memory_scope::work_group);
      sycl::group_barrier(it.get_group());
      a[query_id()] = loc[0];
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<long, 1> loc(1, h);
    h.parallel_for<KLocalAtomLong>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      sycl::atomic_ref<long, sycl::memory_order::acq_rel, sycl::memory_scope::device, sycl::access::address_space::local_space> r(loc[0]);
      r.store(0);
      r.fetch_max((long)it.get_local_linear_id());
      l[it.get_global_linear_id()] = r.load();
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> loc(1, h);
    h.parallel_for<KLocalAtomFloat>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::sub_group, sycl::access::address_space::local_space> r(loc[0]);
      r.fetch_add(1.0f);
      f[it.get_global_linear_id()] = r.exchange(2.0f);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KVecD3>([=] {
      sycl::vec<double, 3> v(d[0], d[1], d[2]);
      sycl::vec<double, 3> w = v.swizzle<2, 0, 1>() + v.swizzle<1, 1, 0>();
      d[3] = w.x(); d[4] = w.y(); d[5] = w.z();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KI64>([=] {
      long x = l[0], y = l[1];
      l[2] = sycl::mul_hi(x, y) + x / (y | 1) + (long)sycl::rotate((unsigned long)x, 13ul);
    });
  });
}
