// Kernel attributes on noinline SYCL_EXTERNAL functions without the dependencies flag (the
// functions are copied into their callers' images, not entry points):
// [[sycl::reqd_work_group_size(8)]] (called by a plain nd_range kernel KCallsWg),
// [[sycl::reqd_sub_group_size(16)]] (called by a kernel with the same size, KSgSame, and by a
// plain single_task, KSgPlain), [[sycl::work_group_size_hint(4)]] (KCallsHint),
// [[sycl::device_has(fp16)]] on a function using no half (KCallsDevHas); a kernel calling none.
#include <sycl/sycl.hpp>
class KCallsWg;
class KSgSame;
class KSgPlain;
class KCallsHint;
class KCallsDevHas;
class KPlain;
[[sycl::reqd_work_group_size(8)]] __attribute__((noinline)) SYCL_EXTERNAL int ext_wg(int x) { return x * 2 + 1; }
[[sycl::reqd_sub_group_size(16)]] __attribute__((noinline)) SYCL_EXTERNAL int ext_sg(int x) { return x + 100; }
[[sycl::work_group_size_hint(4)]] __attribute__((noinline)) SYCL_EXTERNAL int ext_hint(int x) { return x * 5; }
[[sycl::device_has(sycl::aspect::fp16)]] __attribute__((noinline)) SYCL_EXTERNAL int ext_devhas(int x) { return x - 7; }
void run(sycl::queue &q, int *a) {
  // a[g] = 2g + 1
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KCallsWg>(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it) { a[it.get_global_linear_id()] = ext_wg(it.get_global_linear_id()); });
  });
  // a[g] = g + 100
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KSgSame>(sycl::nd_range<1>(16, 16), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
      a[it.get_global_linear_id()] = ext_sg(it.get_global_linear_id());
    });
  });
  // a[0] = a[0] + 100
  q.submit([&](sycl::handler &h) { h.single_task<KSgPlain>([=] { a[0] = ext_sg(a[0]); }); });
  // a[g] = 5g
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KCallsHint>(sycl::nd_range<1>(16, 4), [=](sycl::nd_item<1> it) { a[it.get_global_linear_id()] = ext_hint(it.get_global_linear_id()); });
  });
  // a[0] = a[0] - 7
  q.submit([&](sycl::handler &h) { h.single_task<KCallsDevHas>([=] { a[0] = ext_devhas(a[0]); }); });
  // a[1] = 55
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[1] = 55; }); });
}
