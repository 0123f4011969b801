// Optimisation-level flags with spec constants and device-image dependencies (the flags file
// differs between optspec-os, -Os, and optspec-noearly, -fno-sycl-early-optimizations; the source
// is the same): int and float constants shared by two kernels, a struct constant in one kernel, a
// constant read in an exported SYCL_EXTERNAL function through kernel_handler, an exported
// function without constants, a double kernel with its own constant, a kernel with none; the
// optLevel each image records, the kernel-param masks (kept or dropped with the early
// optimisations) and the per-image spec-constant numbering.
#include <sycl/sycl.hpp>
struct Coef { int a; float b; };
constexpr sycl::specialization_id<int> sc_i(3);
constexpr sycl::specialization_id<float> sc_f(0.5f);
constexpr sycl::specialization_id<Coef> sc_s(Coef{2, 1.25f});
constexpr sycl::specialization_id<double> sc_d(4.0);
constexpr sycl::specialization_id<int> sc_ext(9);
SYCL_EXTERNAL int ext_spec(sycl::kernel_handler &kh, int x) { return x * kh.get_specialization_constant<sc_ext>(); }
SYCL_EXTERNAL int ext_plain(int x) { return x * x + 1; }
class KShared1;
class KShared2;
class KDouble;
class KNoSpec;
void run(sycl::queue &q, int *x, float *f, double *d) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KShared1>([=](sycl::kernel_handler kh) { x[0] = kh.get_specialization_constant<sc_i>() + ext_spec(kh, x[1]); });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KShared2>([=](sycl::kernel_handler kh) {
      Coef c = kh.get_specialization_constant<sc_s>();
      f[0] = kh.get_specialization_constant<sc_f>() * c.b + kh.get_specialization_constant<sc_i>() + c.a;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KDouble>([=](sycl::kernel_handler kh) { d[0] = d[1] * kh.get_specialization_constant<sc_d>() + ext_plain(x[2]); });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KNoSpec>(sycl::range<1>(8), [=](sycl::id<1> i) { x[10 + i] = ext_plain(static_cast<int>(i[0])); });
  });
}
