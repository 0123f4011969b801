// device_image_scope device globals reached only through SYCL_EXTERNAL functions (no dependency
// flag: copied into the images): one used by two kernels of one per_source group, another used
// only by a kernel that needs fp64 (its own group), a plain global used from both groups and a
// host_access_read image-scope global read in a helper: per_source legal, per_kernel rejected.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
using img_props = decltype(syclex::properties{syclex::device_image_scope});
using img_ro_props = decltype(syclex::properties{syclex::device_image_scope, syclex::host_access_read});
syclex::device_global<int, img_props> dg_shared_img;
syclex::device_global<double[2], img_props> dg_fp64_img;
syclex::device_global<long> dg_plain;
static syclex::device_global<int, img_ro_props> dg_ro;
SYCL_EXTERNAL int ext_bump(int x) {
  dg_shared_img = dg_shared_img + x;
  dg_plain = dg_plain + 1;
  return dg_shared_img;
}
SYCL_EXTERNAL double ext_fp64(double d) {
  dg_fp64_img[0] = d;
  dg_plain = dg_plain + 2;
  return dg_fp64_img[0] * dg_fp64_img[1];
}
__attribute__((noinline)) int read_ro() { return dg_ro; }
class KA;
class KB;
class KD;
class KRo;
void run(sycl::queue &q, int *out, double *d) {
  q.submit([&](sycl::handler &h) { h.single_task<KA>([=] { out[0] = ext_bump(1); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KB>([=] { out[1] = ext_bump(out[2]) + read_ro(); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KD>([=] { d[0] = ext_fp64(d[1]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KRo>([=] { out[3] = static_cast<int>(dg_plain.get()); }); });
}
