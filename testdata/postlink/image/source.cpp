// Legacy sycl::image with a read accessor + sampler (read_image with a sampler), a write
// accessor, an unsampled read, and a plain buffer kernel (image aspect? image args).
#include <sycl/sycl.hpp>
class KImgSample;
class KImgWrite;
class KImgPlain;
void run(sycl::queue &q, float *out) {
  sycl::image<2> src(sycl::image_channel_order::rgba, sycl::image_channel_type::fp32, sycl::range<2>(8, 8));
  sycl::image<2> dst(sycl::image_channel_order::rgba, sycl::image_channel_type::fp32, sycl::range<2>(8, 8));
  sycl::buffer<float> b(out, 64);
  q.submit([&](sycl::handler &h) {
    sycl::accessor<sycl::float4, 2, sycl::access::mode::read, sycl::access::target::image> ra(src, h);
    sycl::accessor wb(b, h, sycl::write_only);
    sycl::sampler smp(sycl::coordinate_normalization_mode::unnormalized, sycl::addressing_mode::clamp,
                      sycl::filtering_mode::nearest);
    h.parallel_for<KImgSample>(sycl::range<2>(8, 8), [=](sycl::item<2> it) {
      sycl::float4 v = ra.read(sycl::int2(it[0], it[1]), smp);
      wb[it[0] * 8 + it[1]] = v.x() + ra.read(sycl::int2(it[1], it[0])).y();
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor<sycl::float4, 2, sycl::access::mode::write, sycl::access::target::image> wa(dst, h);
    h.parallel_for<KImgWrite>(sycl::range<2>(8, 8), [=](sycl::item<2> it) {
      wa.write(sycl::int2(it[0], it[1]), sycl::float4(1.f, 2.f, 3.f, float(it[0])));
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor wb(b, h, sycl::write_only);
    h.single_task<KImgPlain>([=] { wb[0] = 0.f; });
  });
}
