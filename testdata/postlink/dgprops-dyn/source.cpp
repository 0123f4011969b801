// The device_global property combinations of dgprops with
// -fsycl-allow-device-image-dependencies: the non-image-scope globals (host_access_read,
// host_access_read_write, host_access_write) are read and written inside SYCL_EXTERNAL functions
// (exported, images of their own), one of them taking a double (its own per_source group); the
// image-scope ones (host_access_none, host_access_read) only inside kernels; a kernel of the fp16
// group calls two exported functions, another kernel uses no global.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
using p_img_none = decltype(syclex::properties{syclex::device_image_scope, syclex::host_access_none});
using p_img_read = decltype(syclex::properties{syclex::device_image_scope, syclex::host_access_read});
using p_read = decltype(syclex::properties{syclex::host_access_read});
using p_rw = decltype(syclex::properties{syclex::host_access_read_write});
using p_write = decltype(syclex::properties{syclex::host_access_write});
syclex::device_global<int, p_img_none> dg_img_none;
syclex::device_global<int, p_img_read> dg_img_read;
syclex::device_global<int, p_read> dg_read;
syclex::device_global<double, p_rw> dg_rw;
syclex::device_global<short, p_write> dg_write;
SYCL_EXTERNAL int ext_read(int v) { return dg_read + v; }
SYCL_EXTERNAL double ext_rw(double v) { dg_rw = dg_rw * v; return dg_rw + dg_read; }
SYCL_EXTERNAL void ext_write(short v) { dg_write = v; }
class KDbl;
class KHalf;
class KImg;
class KNone;
void run(sycl::queue &q, int *x, double *d, sycl::half *hp) {
  q.submit([&](sycl::handler &h) { h.single_task<KDbl>([=] { d[1] = ext_rw(d[0]); }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KHalf>([=] { hp[0] = hp[1] * sycl::half(2.0f); ext_write(3); x[0] = ext_read(2) + dg_img_none; });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KImg>([=] { x[1] = dg_img_read + ext_read(1); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KNone>([=] { x[2] = 4; }); });
}
