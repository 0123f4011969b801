// `-fsycl-fp64-conv-emu` (fp64 conversion emulation: with AOT for Intel GPUs the front end leaves
// aspect fp64 off kernels whose doubles are only converted): a kernel that only converts (a
// loaded double to float, a float to a stored double), one that computes in double, one reading
// an int spec constant, a plain single_task. The JIT compiles for spir64, so DPC++ warns that
// the option is ignored.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> scI(6);
class KConvOnly;
class KDblCompute;
class KSpec;
class KPlain;
void run(sycl::queue &q, float *f, double *d, int *a) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KConvOnly>(sycl::range<1>(8), [=](sycl::id<1> i) {
      f[i] = (float)d[i];
      d[i + 8] = (double)f[i + 8];
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KDblCompute>([=] { d[0] = d[1] * d[2] + 1.0; }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KSpec>([=](sycl::kernel_handler kh) { a[0] = kh.get_specialization_constant<scI>(); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[1] = 3; }); });
}
