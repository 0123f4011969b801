// Aspects and spec constants reached only through helpers: a kernel reading a spec constant in a
// noinline helper taking the kernel_handler (-O2), fp16 arithmetic only inside a noinline helper,
// double math (sqrt, exp) in a helper only two of four kernels call (per_source grouping by
// aspects), and a [[sycl::device_has(aspect::fp64)]] kernel that uses no double (known gap).
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> SC_N(3);
constexpr sycl::specialization_id<double> SC_D(1.25);
__attribute__((noinline)) int from_kh(sycl::kernel_handler &kh, int x) { return x * kh.get_specialization_constant<SC_N>(); }
__attribute__((noinline)) float half_helper(float a, float b) {
  sycl::half ha = a, hb = b;
  return static_cast<float>(ha * hb + ha);
}
__attribute__((noinline)) double dbl_helper(double x) { return sycl::sqrt(x) + sycl::exp(x); }
class KSpecHelper;
class KHalfHelper;
class KDbl1;
class KDbl2;
class KDevHasFp64;
class KSpecDbl;
void run(sycl::queue &q, int *out, float *f, double *d) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KSpecHelper>([=](sycl::kernel_handler kh) { out[0] = from_kh(kh, out[1]); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KHalfHelper>([=] { f[0] = half_helper(f[1], f[2]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KDbl1>([=] { d[0] = dbl_helper(d[1]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KDbl2>([=] { f[3] = static_cast<float>(dbl_helper(f[4])); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KDevHasFp64>([=]() [[sycl::device_has(sycl::aspect::fp64)]] { out[2] = 8; }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KSpecDbl>([=](sycl::kernel_handler kh) { d[2] = kh.get_specialization_constant<SC_D>() + from_kh(kh, 2); });
  });
}
