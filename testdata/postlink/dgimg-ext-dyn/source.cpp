// -fsycl-allow-device-image-dependencies with device_image_scope globals: one used only inside a
// noinline SYCL_EXTERNAL function that two kernels call (the kernels import it), one used by a
// SYCL_EXTERNAL function and by a kernel directly, one used by a single kernel.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
using img = decltype(syclex::properties{syclex::device_image_scope});
syclex::device_global<int, img> dgi_ext;
syclex::device_global<int, img> dgi_mixed;
syclex::device_global<int, img> dgi_own;
SYCL_EXTERNAL __attribute__((noinline)) int ext_img(int x) { dgi_ext = x; return dgi_ext + 1; }
SYCL_EXTERNAL __attribute__((noinline)) int ext_mixed(int x) { return dgi_mixed + x; }
class KE1;
class KE2;
class KMixed;
class KOwn;
void run(sycl::queue &q, int *a) {
  q.submit([&](sycl::handler &h) { h.single_task<KE1>([=] { a[0] = ext_img(a[0]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KE2>([=] { a[1] = ext_img(a[1]) * 2; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KMixed>([=] { dgi_mixed = 4; a[2] = ext_mixed(a[2]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KOwn>([=] { dgi_own = a[3]; a[3] = dgi_own + 1; }); });
}
