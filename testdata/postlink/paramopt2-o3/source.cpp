// paramopt2 at -O3: kernel argument elimination with many arguments: a functor with 10 members (pointers, scalars,
// a struct, an unused struct), a lambda capturing two accessors one unused and a
// local_accessor unused, a lambda capturing a struct by value whose fields are partly used, a
// kernel with every capture unused, and a range kernel (RoundedRange twins carry masks too).
#include <sycl/sycl.hpp>
struct Pair { int a; float b; };
struct Big { long x[4]; };
struct FMany {
  int *p0; int *p1; int s0; long s1; Pair pr; Big unusedBig; float f; double *dp; char c; short sh;
  void operator()() const { p0[0] = s0 + pr.a + static_cast<int>(pr.b * f) + c; }
};
class KAcc2;
class KStruct;
class KNoneUsed;
class KRange;
void run(sycl::queue &q, int *p, double *dp, sycl::buffer<int, 1> &b1, sycl::buffer<int, 1> &b2) {
  q.submit([&](sycl::handler &h) { h.single_task(FMany{p, p + 1, 3, 4, {5, 6.0f}, {{1, 2, 3, 4}}, 2.0f, dp, 'x', 9}); });
  q.submit([&](sycl::handler &h) {
    sycl::accessor a1(b1, h, sycl::write_only);
    sycl::accessor a2(b2, h, sycl::read_only);
    sycl::local_accessor<int, 1> loc(8, h);
    h.parallel_for<KAcc2>(sycl::nd_range<1>(8, 8), [=](sycl::nd_item<1> it) { a1[it.get_global_id()] = 1; });
  });
  Pair pr{7, 8.0f};
  Big big{{1, 2, 3, 4}};
  int k = 11;
  q.submit([&](sycl::handler &h) { h.single_task<KStruct>([=] { p[2] = pr.a + static_cast<int>(big.x[2]) + k; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KNoneUsed>([=] { (void)pr; (void)big; (void)k; (void)dp; }); });
  q.submit([&](sycl::handler &h) { h.parallel_for<KRange>(sycl::range<1>(100), [=](sycl::id<1> i) { p[10 + i] = k; (void)dp; }); });
}
