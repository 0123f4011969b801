// Non-uniform groups (sycl_ext_oneapi_non_uniform_groups): fragment (binary_partition) with reduce, chunk<4> (chunked_partition)
// with a scan and a broadcast, tangle (entangle) with any_of, opportunistic_group
// with a shift, all with reqd_sub_group_size(16) except the last; a plain sub-group kernel.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KBallot;
class KFixed;
class KTangle;
class KOpp;
class KSgPlain;
void run(sycl::queue &q, int *p) {
  sycl::nd_range<1> r(32, 16);
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KBallot>(r, [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
      auto sg = it.get_sub_group();
      auto bg = syclex::binary_partition(sg, sg.get_local_linear_id() % 2 == 0);
      p[it.get_global_id(0)] = sycl::reduce_over_group(bg, 1, sycl::plus<int>());
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KFixed>(r, [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
      auto fg = syclex::chunked_partition<4>(it.get_sub_group());
      int v = sycl::inclusive_scan_over_group(fg, 1, sycl::plus<int>());
      p[it.get_global_id(0)] = sycl::group_broadcast(fg, v, 3);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KTangle>(r, [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
      auto sg = it.get_sub_group();
      if (sg.get_local_linear_id() < 5) {
        auto tg = syclex::entangle(sg);
        p[it.get_global_id(0)] = sycl::any_of_group(tg, p[it.get_global_id(0)] > 0);
      }
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KOpp>(r, [=](sycl::nd_item<1> it) {
      if (it.get_global_id(0) % 3 == 0) {
        auto og = syclex::this_work_item::get_opportunistic_group();
        p[it.get_global_id(0)] = sycl::reduce_over_group(og, 2, sycl::maximum<int>());
      }
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KSgPlain>(r, [=](sycl::nd_item<1> it) { p[it.get_global_id(0)] = sycl::reduce_over_group(it.get_sub_group(), 1, sycl::plus<int>()); });
  });
}
