// sycl::vec and math builtins: float4 arithmetic with sin/cos/fma, native::exp, half2 math
// (fp16), double3 length/sqrt (fp64), integer builtins (clz, popcount, mad_sat), swizzles,
// convert<>, and a float-only kernel that should need no aspect.
#include <sycl/sycl.hpp>
class KFloatVec;
class KHalfVec;
class KDoubleVec;
class KIntBuiltins;
class KNative;
void run(sycl::queue &q, sycl::float4 *f4, sycl::half2 *h2, double *d, int *a, float *f) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KFloatVec>(sycl::range<1>(32), [=](sycl::id<1> i) {
      sycl::float4 v = f4[i];
      sycl::float4 w = sycl::fma(sycl::sin(v), sycl::cos(v), sycl::float4(1.f));
      f4[i] = w.template swizzle<3, 2, 1, 0>() + sycl::fmax(v, w);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KHalfVec>(sycl::range<1>(32), [=](sycl::id<1> i) {
      sycl::half2 v = h2[i];
      h2[i] = sycl::fabs(v) * v + sycl::half2(0.5f);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KDoubleVec>([=] {
      sycl::double3 v(d[0], d[1], d[2]);
      d[3] = sycl::length(v) + sycl::sqrt(d[4]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KIntBuiltins>(sycl::range<1>(32), [=](sycl::id<1> i) {
      int x = a[i];
      sycl::int2 p(x, x + 1);
      sycl::int2 r = sycl::clz(p) + sycl::popcount(p);
      a[i] = sycl::mad_sat(r.x(), r.y(), x) + p.convert<float>().y();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KNative>(sycl::range<1>(32), [=](sycl::id<1> i) {
      f[i] = sycl::native::exp(f[i]) + sycl::native::recip(f[i] + 1.f) + sycl::half_precision::sqrt(f[i]);
    });
  });
}
