// Diagnostics in device code: experimental::printf with a constant format string, assert (the
// __devicelib_assert_fail path), sycl::stream, a kernel using printf and assert together, and a
// plain kernel; the printf/assert helpers come from the device libraries.
#include <cassert>
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KPrintf;
class KAssert;
class KStream;
class KBothDiag;
class KQuiet;
#ifdef __SYCL_DEVICE_ONLY__
#define CONSTANT __attribute__((opencl_constant))
#else
#define CONSTANT
#endif
const CONSTANT char fmt1[] = "value %d\n";
const CONSTANT char fmt2[] = "f=%f i=%d\n";
void run(sycl::queue &q, int *a, float *f) {
  q.submit([&](sycl::handler &h) { h.single_task<KPrintf>([=] { syclex::printf(fmt1, a[0]); }); });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAssert>(sycl::range<1>(16), [=](sycl::id<1> i) { assert(a[i] >= 0); a[i] += 1; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::stream out(1024, 256, h);
    h.parallel_for<KStream>(sycl::nd_range<1>(4, 4), [=](sycl::nd_item<1> it) { out << "id " << it.get_global_id(0) << sycl::endl; });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KBothDiag>([=] { assert(f[0] != 1.0f); syclex::printf(fmt2, f[1], a[1]); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KQuiet>([=] { a[2] = 3; }); });
}
