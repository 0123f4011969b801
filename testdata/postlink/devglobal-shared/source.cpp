// A device_image_scope device global used by two kernels, plus a plain device global: DPC++ rejects
// a split that puts the two kernels into different images (per_kernel: error.txt).
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
syclex::device_global<int, decltype(syclex::properties{syclex::device_image_scope})> dg_shared;
syclex::device_global<int> dg_plain;
class KSetShared;
class KGetShared;
void run(sycl::queue &q, int *a) {
  // Each kernel writes the globals before reading them (runs are independent of each other):
  // a[1] = (a[0] + 5) * 2, a[2] = 9 + 1
  q.submit([&](sycl::handler &h) { h.single_task<KSetShared>([=] { dg_shared = a[0] + 5; dg_plain = 9; a[1] = dg_shared * 2; a[2] = dg_plain + 1; }); });
  // a[3] = 4 + a[0]
  q.submit([&](sycl::handler &h) { h.single_task<KGetShared>([=] { dg_shared = 4; a[3] = dg_shared + a[0]; }); });
}
