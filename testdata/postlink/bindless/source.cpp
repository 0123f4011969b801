// Bindless images (sycl_ext_oneapi_bindless_images): fetch_image from an unsampled_image_handle
// (2-D float4), write_image to another, sample_image through a sampled_image_handle (1-D float),
// in separate kernels, one through a noinline helper; a plain kernel.
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/bindless_images.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KFetch;
class KWrite;
class KSample;
class KPlainB;
__attribute__((noinline)) sycl::float4 fetch_at(syclex::unsampled_image_handle h, int x, int y) {
  return syclex::fetch_image<sycl::float4>(h, sycl::int2(x, y));
}
void run(sycl::queue &q, syclex::unsampled_image_handle in, syclex::unsampled_image_handle out,
         syclex::sampled_image_handle smp, float *f) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KFetch>(sycl::nd_range<2>({4, 4}, {2, 2}), [=](sycl::nd_item<2> it) {
      sycl::float4 v = fetch_at(in, it.get_global_id(0), it.get_global_id(1));
      f[it.get_global_linear_id()] = v.x() + v.w();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KWrite>(sycl::nd_range<2>({4, 4}, {2, 2}), [=](sycl::nd_item<2> it) {
      syclex::write_image(out, sycl::int2(it.get_global_id(0), it.get_global_id(1)), sycl::float4(1.0f, 2.0f, 3.0f, 4.0f));
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KSample>([=] { f[20] = syclex::sample_image<float>(smp, 0.5f); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainB>([=] { f[21] = 1.0f; }); });
}
