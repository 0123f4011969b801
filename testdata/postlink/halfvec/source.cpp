// sycl::half vectors: half4 arithmetic with swizzles, half8 load/store only (no arithmetic),
// half3 from float conversion with convert<>, a half16 dot-like reduction via a helper, and a
// float4 kernel next to them (per_source: fp16 group and no-aspect group).
#include <sycl/sycl.hpp>
using sycl::half;
__attribute__((noinline)) float hsum(sycl::vec<half, 16> v) {
  half s = 0;
  for (int i = 0; i < 16; ++i) s += v[i];
  return static_cast<float>(s);
}
class KH4;
class KH8Copy;
class KH3Conv;
class KH16;
class KF4;
void run(sycl::queue &q, sycl::vec<half, 4> *h4, sycl::vec<half, 8> *h8, sycl::float4 *f4, float *f) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KH4>(sycl::range<1>(4), [=](sycl::id<1> i) {
      sycl::vec<half, 4> v = h4[i];
      h4[i] = v * v.swizzle<3, 2, 1, 0>() + half(1.0f);
    });
  });
  q.submit([&](sycl::handler &h) { h.parallel_for<KH8Copy>(sycl::range<1>(4), [=](sycl::id<1> i) { h8[i + 4] = h8[i]; }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KH3Conv>([=] {
      sycl::vec<half, 3> v = f4[0].swizzle<0, 1, 2>().convert<half>();
      f[0] = static_cast<float>(v.x() + v.z());
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KH16>([=] {
      sycl::vec<half, 16> v(half(0.5f));
      f[1] = hsum(v);
    });
  });
  q.submit([&](sycl::handler &h) { h.parallel_for<KF4>(sycl::range<1>(4), [=](sycl::id<1> i) { f4[i] = f4[i] * 2.0f + f4[i].swizzle<1, 0, 3, 2>(); }); });
}
