// Kernel argument elimination: a functor with an unused pointer and an unused scalar, a lambda
// whose accessor is unused, a lambda with unused scalars between used ones, a kernel whose every
// argument is used (accessor ranges still eliminated), and a kernel_handler kernel without spec
// constants. [SYCL/kernel param opt] records the original arguments and the eliminated ones.
#include <sycl/sycl.hpp>
struct ParamFunctor {
  int *used;
  int *unused;
  int scalarUnused;
  long scalarUsed;
  void operator()() const { used[0] = static_cast<int>(scalarUsed * 2); }
};
class KUnusedAcc;
class KScalars;
class KAllUsed;
class KHandler;
void run(sycl::queue &q, sycl::buffer<int> &buf, int *p, int a, int b, float c, long l) {
  // used[0] = 2 * scalarUsed
  q.submit([&](sycl::handler &h) { h.single_task(ParamFunctor{p, p + 1, a, l}); });
  // p[1] = 77
  q.submit([&](sycl::handler &h) {
    sycl::accessor acc(buf, h, sycl::read_write);
    h.single_task<KUnusedAcc>([=] { (void)acc; p[1] = 77; });
  });
  // p[2] = b * 10 + 3; a and c unused
  q.submit([&](sycl::handler &h) {
    h.single_task<KScalars>([=] { int x = a; float y = c; (void)x; (void)y; p[2] = b * 10 + 3; });
  });
  // acc[0] = a + b; p[3] = a - b
  q.submit([&](sycl::handler &h) {
    sycl::accessor acc(buf, h, sycl::read_write);
    h.single_task<KAllUsed>([=] { acc[0] = a + b; p[3] = a - b; });
  });
  // p[4] = 99
  q.submit([&](sycl::handler &h) { h.single_task<KHandler>([=](sycl::kernel_handler) { p[4] = 99; }); });
}
