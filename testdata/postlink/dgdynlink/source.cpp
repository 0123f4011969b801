// -fsycl-allow-device-image-dependencies with device globals and spec constants: SYCL_EXTERNAL
// functions that read a plain device_global and a host_access_read one, one calling the other,
// one declared only (imported), kernels calling them, a kernel using a spec constant and a
// device_image_scope global that nobody else uses.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
syclex::device_global<int> dg_base;
syclex::device_global<float, decltype(syclex::properties{syclex::host_access_read})> dg_ro;
syclex::device_global<int, decltype(syclex::properties{syclex::device_image_scope})> dg_img;
constexpr sycl::specialization_id<int> kId(42);
SYCL_EXTERNAL __attribute__((noinline)) int ext_base(int x) { return x + dg_base; }
SYCL_EXTERNAL __attribute__((noinline)) float ext_ro(float x) { return x * dg_ro + ext_base(1); }
SYCL_EXTERNAL int ext_elsewhere(int x);
class KUseBase;
class KUseRo;
class KUseElse;
class KSpecImg;
void run(sycl::queue &q, int *a, float *f) {
  q.submit([&](sycl::handler &h) { h.single_task<KUseBase>([=] { a[0] = ext_base(a[1]); dg_base = 5; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KUseRo>([=] { f[0] = ext_ro(f[1]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KUseElse>([=] { a[2] = ext_elsewhere(a[3]); }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KSpecImg>([=](sycl::kernel_handler kh) { dg_img = kh.get_specialization_constant<kId>(); a[4] = dg_img + 1; });
  });
}
