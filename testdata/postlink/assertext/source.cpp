// assert without device-image dependencies: in a SYCL_EXTERNAL function called by two kernels, in
// a noinline helper, directly in a kernel next to one that does not assert; and
// experimental::printf inside a noinline helper (format string in the constant address space)
// shared by an asserting kernel and a double kernel, so that per_source has two groups using the
// device libraries' assert and printf code.
#include <cassert>
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
#ifdef __SYCL_DEVICE_ONLY__
#define CONSTANT __attribute__((opencl_constant))
#else
#define CONSTANT
#endif
const CONSTANT char fmt_v[] = "v=%d\n";
SYCL_EXTERNAL int ext_checked(int x) { assert(x < 1000 && "ext_checked range"); return x + 1; }
__attribute__((noinline)) void say(int v) { syclex::printf(fmt_v, v); }
__attribute__((noinline)) int helper_checked(int x) { assert(x != 42); return x * 2; }
class KExtA;
class KExtB;
class KDirect;
class KPrintDbl;
class KNoDiag;
void run(sycl::queue &q, int *x, double *d) {
  q.submit([&](sycl::handler &h) { h.single_task<KExtA>([=] { x[0] = ext_checked(x[1]); say(x[0]); }); });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KExtB>(sycl::range<1>(8), [=](sycl::id<1> i) { x[8 + i] = ext_checked(static_cast<int>(i[0])) + helper_checked(x[i]); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KDirect>([=] { assert(x[2] >= 0); x[3] = x[2]; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KPrintDbl>([=] { d[0] = d[1] * 1.5; say(static_cast<int>(d[0])); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KNoDiag>([=] { x[4] = 5; }); });
}
