// A small histogram application: KLocalHist (nd_range 32, local 8) counts values into 8 bins of a
// local_accessor<int> with work-group-scope local atomic_ref fetch_add, then each work-item l < 8
// adds bin l to the global histogram with a device-scope global atomic_ref; KHist64 (range 32)
// adds each value (as unsigned long long, times 2^32) to a 64-bit global bin; KLocal64 (nd_range
// 32, local 8) sums values in a local atomic_ref<unsigned long long> and one work-item per group
// adds the group sum to a global 64-bit total; KMinMax (range 32) keeps global int fetch_min /
// fetch_max. Input v[i] = (i * 5) % 8 for i < 32; bins: value b occurs 4 times for every b.
#include <sycl/sycl.hpp>
class KLocalHist;
class KHist64;
class KLocal64;
class KMinMax;
using sycl::memory_order, sycl::memory_scope, sycl::access::address_space;
void run(sycl::queue &q, const int *v, int *hist, unsigned long long *hist64,
         unsigned long long *total, int *mm) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> bins(8, h);
    h.parallel_for<KLocalHist>(sycl::nd_range<1>(32, 8), [=](sycl::nd_item<1> it) {
      const size_t l = it.get_local_id(0);
      bins[l] = 0;
      sycl::group_barrier(it.get_group());
      sycl::atomic_ref<int, memory_order::relaxed, memory_scope::work_group, address_space::local_space>
          lb(bins[v[it.get_global_id(0)]]);
      lb.fetch_add(1);
      sycl::group_barrier(it.get_group());
      sycl::atomic_ref<int, memory_order::relaxed, memory_scope::device, address_space::global_space>
          gb(hist[l]);
      gb.fetch_add(bins[l]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KHist64>(sycl::range<1>(32), [=](sycl::id<1> i) {
      sycl::atomic_ref<unsigned long long, memory_order::relaxed, memory_scope::device,
                       address_space::global_space>
          gb(hist64[v[i]]);
      gb.fetch_add(static_cast<unsigned long long>(v[i]) << 32);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<unsigned long long, 1> sum(1, h);
    h.parallel_for<KLocal64>(sycl::nd_range<1>(32, 8), [=](sycl::nd_item<1> it) {
      if (it.get_local_id(0) == 0) sum[0] = 0;
      sycl::group_barrier(it.get_group());
      sycl::atomic_ref<unsigned long long, memory_order::relaxed, memory_scope::work_group,
                       address_space::local_space>
          ls(sum[0]);
      ls.fetch_add(static_cast<unsigned long long>(v[it.get_global_id(0)]) + (1ull << 40));
      sycl::group_barrier(it.get_group());
      if (it.get_local_id(0) == 0) {
        sycl::atomic_ref<unsigned long long, memory_order::relaxed, memory_scope::device,
                         address_space::global_space>
            gt(*total);
        gt.fetch_add(sum[0]);
      }
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KMinMax>(sycl::range<1>(32), [=](sycl::id<1> i) {
      const int x = v[i] * 3 - 10;
      sycl::atomic_ref<int, memory_order::relaxed, memory_scope::device, address_space::global_space>
          lo(mm[0]), hi(mm[1]);
      lo.fetch_min(x);
      hi.fetch_max(x);
    });
  });
}
