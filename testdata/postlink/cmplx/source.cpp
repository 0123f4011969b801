// std::complex<float> and std::complex<double> arithmetic (multiply/divide: __mulsc3/__divsc3,
// __muldc3/__divdc3), std::abs/std::exp of complex, and <cmath> std::sin/std::exp/std::pow on
// float and double in device code (device library functions: imported or linked in?).
#include <sycl/sycl.hpp>
#include <complex>
#include <cmath>
class KCF;
class KCD;
class KMathF;
class KMathD;
void run(sycl::queue &q, std::complex<float> *cf, std::complex<double> *cd, float *f, double *d) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KCF>(sycl::range<1>(8), [=](sycl::id<1> i) {
      cf[i] = cf[i] * cf[i + 8] / (cf[i] + std::complex<float>(1.f, 2.f));
      f[i] = std::abs(cf[i]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KCD>([=] { cd[0] = std::exp(cd[1] * cd[2]) / cd[3]; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KMathF>(sycl::range<1>(8), [=](sycl::id<1> i) { f[i] = std::sin(f[i]) + std::exp(f[i + 8]) + std::pow(f[i], 2.5f); });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KMathD>([=] { d[0] = std::sin(d[1]) * std::exp(d[2]) + std::log(d[3]); });
  });
}
