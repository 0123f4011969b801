// Kernels with many arguments (accessors and USM pointers); spec constants whose
// defaults are built from constexpr expressions.
#include <sycl/sycl.hpp>
#include <limits>
constexpr int sq(int x) { return x * x; }
constexpr double poly(double x) { return 1.0 + x * (0.5 + x * 0.25); }
struct Cfg { int n; float eps; double c; unsigned long long mask; };
constexpr Cfg makeCfg(int k) { return Cfg{sq(k) + 1, 1.0f / (1 << k), poly(k), (1ull << (k * 7)) - 1}; }
constexpr sycl::specialization_id<int> nId(sq(5) - 3);
constexpr sycl::specialization_id<double> polyId(poly(3.0));
constexpr sycl::specialization_id<Cfg> cfgId(makeCfg(6));
constexpr sycl::specialization_id<int> maxId(std::numeric_limits<int>::max() / 7);
constexpr sycl::specialization_id<float> tinyId(std::numeric_limits<float>::denorm_min());
constexpr sycl::specialization_id<long long> minId(std::numeric_limits<long long>::min());
class KArgsAcc; class KArgsUsm;
void run(sycl::queue &q, sycl::buffer<float, 1> &b0, sycl::buffer<float, 1> &b1, sycl::buffer<int, 2> &b2,
         float *u0, double *u1, int *u2, long long *u3) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor a0(b0, h, sycl::read_only);
    sycl::accessor a1(b1, h, sycl::read_write);
    sycl::accessor a2(b2, h, sycl::write_only);
    h.parallel_for<KArgsAcc>(sycl::range<1>(16), [=](sycl::id<1> i, sycl::kernel_handler kh) {
      Cfg c = kh.get_specialization_constant<cfgId>();
      a1[i] = a0[i] * c.eps + u0[i] + (float)u1[i] * c.n;
      a2[sycl::id<2>(i[0], 1)] = (int)(c.mask & 0xff) + kh.get_specialization_constant<nId>() + u2[i];
      u3[i] = kh.get_specialization_constant<minId>() + (long long)c.c;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KArgsUsm>([=](sycl::kernel_handler kh) {
      Cfg c = kh.get_specialization_constant<cfgId>();
      u0[0] = c.eps + kh.get_specialization_constant<tinyId>();
      u1[0] = kh.get_specialization_constant<polyId>() + c.c;
      u2[0] = kh.get_specialization_constant<maxId>() + c.n;
      u2[1] = kh.get_specialization_constant<nId>();
      u3[0] = kh.get_specialization_constant<minId>() + (long long)c.mask;
    });
  });
}
