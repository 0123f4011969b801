// An int spec constant as a loop trip count in a kernel that also reads and writes a
// device_image_scope device_global (KLoopDg), beside a kernel using only a device_image_scope
// global of its own (KDgOnly, nd_range) and a kernel reading only the spec constant (KLoopOnly);
// a plain device_global is written by KLoopDg and read by KDgOnly. Every image-scope global has
// one user, so per_kernel split is legal. Outputs (int o[]): KLoopDg o[0] = sum_{i<n} (i + 1) with
// n = the constant (default 4 → 10), o[1] = dg_loop[2] before the write; KDgOnly o[2 + gid] =
// dg_only[gid] + dg_plain; KLoopOnly o[6] = 3 * n.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
using img = decltype(syclex::properties{syclex::device_image_scope});
syclex::device_global<int[4], img> dg_loop;
syclex::device_global<int[4], img> dg_only;
syclex::device_global<int> dg_plain;
constexpr sycl::specialization_id<int> tripId(4);
class KLoopDg;
class KDgOnly;
class KLoopOnly;
void run(sycl::queue &q, int *o) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KLoopDg>([=](sycl::kernel_handler kh) {
      int n = kh.get_specialization_constant<tripId>();
      int s = 0;
      for (int i = 0; i < n; ++i) {
        s += i + 1;
        dg_loop[i & 3] += i;
      }
      o[0] = s;
      o[1] = dg_loop[2];
      dg_plain = s;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KDgOnly>(sycl::nd_range<1>(4, 4), [=](sycl::nd_item<1> it) {
      size_t g = it.get_global_id(0);
      o[2 + g] = dg_only[g] + dg_plain;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KLoopOnly>([=](sycl::kernel_handler kh) {
      int t = 0;
      for (int i = 0; i < kh.get_specialization_constant<tripId>(); ++i) t += 3;
      o[6] = t;
    });
  });
}
