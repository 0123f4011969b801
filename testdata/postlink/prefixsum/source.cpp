// A small prefix-sum application: KBlockScan (nd_range 16, local 8) takes an inclusive
// inclusive_scan_over_group of each work-group, writes it, and the group's last work-item writes
// the block total; KSgExcl (nd_range 16, local 8, reqd_sub_group_size 8) an exclusive_scan_over_group
// over the sub-group with an int spec constant as the initial value (default 100); KShuffle
// (nd_range 16, local 8, reqd_sub_group_size 8) writes select_from_group(sg, x, (lid + 3) % 8) and
// shift_group_left(sg, x, 1) (lane 7 writes -1 instead: its shifted value is unspecified); KMaxScan
// (nd_range 16, local 8) a float inclusive scan with sycl::maximum over the work-group. Input x[i] =
// i + 1 (ints) and f[i] = float((i * 7) % 16) for i < 16.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> initId(100);
class KBlockScan;
class KSgExcl;
class KShuffle;
class KMaxScan;
void run(sycl::queue &q, const int *x, const float *f, int *scan, int *totals, int *excl, int *sel,
         int *shl, float *fmax) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KBlockScan>(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it) {
      const size_t g = it.get_global_id(0);
      const int s = sycl::inclusive_scan_over_group(it.get_group(), x[g], sycl::plus<int>());
      scan[g] = s;
      if (it.get_local_id(0) == 7) totals[it.get_group(0)] = s;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KSgExcl>(sycl::nd_range<1>(16, 8),
                            [=](sycl::nd_item<1> it, sycl::kernel_handler kh) [[sycl::reqd_sub_group_size(8)]] {
      const size_t g = it.get_global_id(0);
      excl[g] = sycl::exclusive_scan_over_group(it.get_sub_group(), x[g],
                                                kh.get_specialization_constant<initId>(), sycl::plus<int>());
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KShuffle>(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(8)]] {
      const size_t g = it.get_global_id(0);
      sycl::sub_group sg = it.get_sub_group();
      const unsigned lid = sg.get_local_linear_id();
      sel[g] = sycl::select_from_group(sg, x[g], (lid + 3) % 8);
      const int left = sycl::shift_group_left(sg, x[g], 1);
      shl[g] = lid == 7 ? -1 : left;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KMaxScan>(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it) {
      const size_t g = it.get_global_id(0);
      fmax[g] = sycl::inclusive_scan_over_group(it.get_group(), f[g], sycl::maximum<float>());
    });
  });
}
