// -g debug info: kernels with a noinline helper shared by two kernels, a spec constant, a
// device_global, an unnamed lambda kernel and a double kernel; DebugInfo / NonSemantic
// instructions in the images (dead debug info of other kernels dropped in split images).
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
constexpr sycl::specialization_id<int> SC(4);
syclex::device_global<int> dg;
__attribute__((noinline)) int helper(int x) { return x * 7 + dg; }
class KA;
class KB;
class KSpec;
class KDbl;
void run(sycl::queue &q, int *out, double *d) {
  q.submit([&](sycl::handler &h) { h.single_task<KA>([=] { out[0] = helper(out[1]); }); });
  q.submit([&](sycl::handler &h) { h.parallel_for<KB>(sycl::range<1>(8), [=](sycl::id<1> i) { out[8 + i] = helper((int)i); }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KSpec>([=](sycl::kernel_handler kh) { out[2] = kh.get_specialization_constant<SC>(); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KDbl>([=] { d[0] = d[1] * 1.5; }); });
  q.submit([&](sycl::handler &h) { h.single_task([=] { out[3] = 42; }); });
}
