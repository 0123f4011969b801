// Compiled at -O0. experimental::printf, assert and a device_image_scope device_global together in one nd_range
// kernel with reqd_work_group_size(4) (KAll), beside a kernel with only printf and the same
// work-group size (KPrintWg), one with only the device_global and reqd_work_group_size(8)
// (KDgWg8, its own image-scope global), one with assert and a plain device_global (KAssertDg),
// and a plain kernel.
#include <cassert>
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
using img = decltype(syclex::properties{syclex::device_image_scope});
syclex::device_global<int[8], img> dg_all;
syclex::device_global<int[8], img> dg_wg8;
syclex::device_global<int> dg_plain;
#ifdef __SYCL_DEVICE_ONLY__
#define CONSTANT __attribute__((opencl_constant))
#else
#define CONSTANT
#endif
const CONSTANT char fmt[] = "gid %d dg %d\n";
const CONSTANT char fmt2[] = "wg %d\n";
class KAll;
class KPrintWg;
class KDgWg8;
class KAssertDg;
class KPlain;
void run(sycl::queue &q, int *o) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAll>(sycl::nd_range<1>(8, 4), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(4)]] {
      int g = static_cast<int>(it.get_global_id(0));
      assert(o[g] >= 0);
      dg_all[g] += o[g];
      syclex::printf(fmt, g, dg_all[g]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KPrintWg>(sycl::nd_range<1>(4, 4), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(4)]] {
      syclex::printf(fmt2, static_cast<int>(it.get_group(0)));
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KDgWg8>(sycl::nd_range<1>(8, 8), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(8)]] {
      size_t g = it.get_global_id(0);
      o[8 + g] = dg_wg8[g];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KAssertDg>([=] {
      assert(o[16] != 1);
      dg_plain = o[16];
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { o[17] = dg_plain; }); });
}
