// Group algorithms and local memory: local_accessor + group_barrier, reduce_over_group,
// inclusive_scan_over_group, sub-group shuffles (shift/select/permute), broadcast, any_of, and a
// sub-group reduce in a kernel with reqd_sub_group_size(16); a 2-D local_accessor.
#include <sycl/sycl.hpp>
class KReduce;
class KScan;
class KShuffle;
class KLocal2D;
void run(sycl::queue &q, int *a, float *f) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KReduce>(sycl::nd_range<1>(128, 64), [=](sycl::nd_item<1> it) {
      int v = a[it.get_global_id(0)];
      int s = sycl::reduce_over_group(it.get_group(), v, sycl::plus<int>());
      float m = sycl::reduce_over_group(it.get_group(), f[it.get_global_id(0)], sycl::maximum<float>());
      if (it.get_local_id(0) == 0) { a[1000 + it.get_group(0)] = s; f[1000 + it.get_group(0)] = m; }
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> tmp(64, h);
    h.parallel_for<KScan>(sycl::nd_range<1>(128, 64), [=](sycl::nd_item<1> it) {
      int x = sycl::inclusive_scan_over_group(it.get_group(), a[it.get_global_id(0)], sycl::plus<int>());
      tmp[it.get_local_id(0)] = x;
      sycl::group_barrier(it.get_group());
      a[it.get_global_id(0)] = tmp[63 - it.get_local_id(0)] + sycl::group_broadcast(it.get_group(), x, 3);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KShuffle>(sycl::nd_range<1>(64, 32), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
      auto sg = it.get_sub_group();
      int v = a[it.get_global_id(0)];
      int l = sycl::shift_group_left(sg, v, 1);
      int s = sycl::select_from_group(sg, v, 0);
      int p = sycl::permute_group_by_xor(sg, v, 2);
      bool any = sycl::any_of_group(sg, v > 100);
      a[it.get_global_id(0)] = l + s + p + (any ? 1 : 0) + sycl::reduce_over_group(sg, v, sycl::plus<>());
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 2> tile(sycl::range<2>(8, 8), h);
    h.parallel_for<KLocal2D>(sycl::nd_range<2>({16, 16}, {8, 8}), [=](sycl::nd_item<2> it) {
      size_t r = it.get_local_id(0), c = it.get_local_id(1);
      tile[r][c] = f[it.get_global_linear_id()];
      sycl::group_barrier(it.get_group());
      f[it.get_global_linear_id()] = tile[c][r];
    });
  });
}
