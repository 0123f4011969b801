// device_global property combinations without device-image dependencies: device_image_scope with
// host_access_none, with host_access_write and with host_access_read; host_access_read_write
// given explicitly; host_access_read without image scope; a plain global; used from kernels in
// three per_source groups (fp64, fp16, none), the non-image-scope ones from several groups so
// that one global appears in images of different groups, and one global used by no kernel.
// (init_mode and implement_in_csr are not in DPC++ 2026.2's headers.)
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
using p_img_none = decltype(syclex::properties{syclex::device_image_scope, syclex::host_access_none});
using p_img_write = decltype(syclex::properties{syclex::host_access_write, syclex::device_image_scope});
using p_img_read = decltype(syclex::properties{syclex::device_image_scope, syclex::host_access_read});
using p_rw = decltype(syclex::properties{syclex::host_access_read_write});
using p_read = decltype(syclex::properties{syclex::host_access_read});
syclex::device_global<int[4], p_img_none> dg_img_none;
syclex::device_global<double, p_img_write> dg_img_write;
syclex::device_global<short, p_img_read> dg_img_read;
syclex::device_global<long, p_rw> dg_rw;
syclex::device_global<int, p_read> dg_read;
syclex::device_global<float> dg_plain;
syclex::device_global<int, p_read> dg_unused;
class KDbl;
class KHalf;
class KInt;
class KAll;
void run(sycl::queue &q, int *x, double *d, sycl::half *hp) {
  q.submit([&](sycl::handler &h) { h.single_task<KDbl>([=] { dg_img_write = d[0] * 2.0; d[1] = dg_img_write + dg_read; }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KHalf>([=] { hp[0] = hp[1] * sycl::half(2.0f); dg_rw = 7; x[0] = dg_img_none[1] + dg_read; });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KInt>([=] { dg_rw = dg_rw + x[1]; dg_plain = 1.5f; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KAll>([=] { x[2] = dg_img_read + dg_read + static_cast<int>(dg_plain.get()); }); });
}
