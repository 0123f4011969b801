// `-ffast-math` (fast-math flags on the IR; SPIR-V FPFastMathMode decorations): <cmath>
// std::sin / std::exp / std::sqrt on float with a float spec constant, std::pow / std::log on
// double, float division and a compare in a noinline helper shared by two kernels, a plain
// single_task.
#include <sycl/sycl.hpp>
#include <cmath>
constexpr sycl::specialization_id<float> scScale(0.5f);
class KMathSpec;
class KMathDbl;
class KHelp;
class KPlain;
__attribute__((noinline)) float ratio(float x, float y) { return x > y ? x / y : y / x; }
void run(sycl::queue &q, float *f, double *d, int *a) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KMathSpec>(sycl::range<1>(8), [=](sycl::id<1> i, sycl::kernel_handler kh) {
      float s = kh.get_specialization_constant<scScale>();
      f[i] = std::sin(f[i] * s) + std::exp(f[i + 8]) + std::sqrt(f[i + 16]) + ratio(f[i], s);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KMathDbl>([=] { d[0] = std::pow(d[1], 2.5) + std::log(d[2]); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KHelp>([=] { f[32] = ratio(f[33], f[34]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[0] = 7; }); });
}
