// Kernel attributes on noinline helper functions (not kernels, no dependencies flag):
// [[sycl::reqd_work_group_size(8)]] on a helper called by a plain nd_range kernel (KCallsWg),
// [[sycl::reqd_sub_group_size(16)]] on a helper called by a kernel with the same sub-group size
// (KSgSame) and by a plain one (KSgPlain), [[sycl::work_group_size_hint(4)]] on a helper
// (KCallsHint), [[sycl::device_has(fp16)]] on a helper that uses no half (KCallsDevHas); a
// kernel calling no helper (KPlain).
#include <sycl/sycl.hpp>
class KCallsWg;
class KSgSame;
class KSgPlain;
class KCallsHint;
class KCallsDevHas;
class KPlain;
[[sycl::reqd_work_group_size(8)]] __attribute__((noinline)) int wg_helper(int x) { return x * 2 + 1; }
[[sycl::reqd_sub_group_size(16)]] __attribute__((noinline)) int sg_helper(int x) { return x + 100; }
[[sycl::work_group_size_hint(4)]] __attribute__((noinline)) int hint_helper(int x) { return x * 5; }
[[sycl::device_has(sycl::aspect::fp16)]] __attribute__((noinline)) int devhas_helper(int x) { return x - 7; }
void run(sycl::queue &q, int *a) {
  // a[g] = 2g + 1
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KCallsWg>(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it) { a[it.get_global_linear_id()] = wg_helper(it.get_global_linear_id()); });
  });
  // a[g] = g + 100
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KSgSame>(sycl::nd_range<1>(16, 16), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
      a[it.get_global_linear_id()] = sg_helper(it.get_global_linear_id());
    });
  });
  // a[0] = a[0] + 100
  q.submit([&](sycl::handler &h) { h.single_task<KSgPlain>([=] { a[0] = sg_helper(a[0]); }); });
  // a[g] = 5g
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KCallsHint>(sycl::nd_range<1>(16, 4), [=](sycl::nd_item<1> it) { a[it.get_global_linear_id()] = hint_helper(it.get_global_linear_id()); });
  });
  // a[0] = a[0] - 7
  q.submit([&](sycl::handler &h) { h.single_task<KCallsDevHas>([=] { a[0] = devhas_helper(a[0]); }); });
  // a[1] = 55
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[1] = 55; }); });
}
