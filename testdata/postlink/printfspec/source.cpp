// experimental::printf inside a branch on a bool spec constant, and a printf in a loop bounded
// by an int spec constant; a kernel reading the int spec constant without printf; plain kernel.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
#ifdef __SYCL_DEVICE_ONLY__
#define CONSTANT __attribute__((opencl_constant))
#else
#define CONSTANT
#endif
constexpr sycl::specialization_id<bool> verbose(false);
constexpr sycl::specialization_id<int> reps(2);
const CONSTANT char fmt1[] = "v=%d\n";
const CONSTANT char fmt2[] = "rep %d of %f\n";
class KPrintIf;
class KPrintLoop;
class KSpecOnly;
class KPlainP;
void run(sycl::queue &q, int *a, float *f) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KPrintIf>([=](sycl::kernel_handler kh) {
      if (kh.get_specialization_constant<verbose>()) syclex::printf(fmt1, a[0]);
      a[1] = a[0] + 1;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KPrintLoop>([=](sycl::kernel_handler kh) {
      int n = kh.get_specialization_constant<reps>();
      for (int k = 0; k < n; ++k)
        if (kh.get_specialization_constant<verbose>()) syclex::printf(fmt2, k, f[k]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KSpecOnly>([=](sycl::kernel_handler kh) { a[2] = kh.get_specialization_constant<reps>() * 3; });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainP>([=] { a[3] = 7; }); });
}
