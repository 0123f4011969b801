// Compiled with -ffast-math: float sqrt/exp/division, a double kernel with fma and a comparison
// against NaN (folded under fast math), a half kernel, a float spec constant used as a divisor,
// and a plain integer kernel: what fast math changes in the property sets and the split.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<float> divId(4.0f);
class KFastF;
class KFastD;
class KFastH;
class KFastSpec;
class KFastInt;
void run(sycl::queue &q, float *f, double *d, sycl::half *hp, int *o) {
  q.submit([&](sycl::handler &h) { h.single_task<KFastF>([=] { f[0] = sycl::sqrt(f[1]) + sycl::exp(f[2]) / f[3]; }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KFastD>([=] { d[0] = sycl::fma(d[1], d[2], d[3]); o[0] = sycl::isnan(d[4]) ? 1 : 0; });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KFastH>([=] { hp[0] = hp[1] / hp[2]; }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KFastSpec>([=](sycl::kernel_handler kh) { f[4] = f[5] / kh.get_specialization_constant<divId>(); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KFastInt>([=] { o[1] = o[2] * 3; }); });
}
