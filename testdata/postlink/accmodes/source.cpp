// Buffers and accessors of several access modes (read, write, read_write, write + no_init,
// a ranged accessor with an offset), handler.copy / handler.fill between accessors and
// pointers (runtime-generated copy/fill kernels), an accessor that is captured but unused.
#include <sycl/sycl.hpp>
class KAccRW;
class KAccNoInit;
class KAccRanged;
class KAccUnused;
void run(sycl::queue &q, float *host, float *usm) {
  sycl::buffer<float> a(host, 64), b(64), c(64);
  q.submit([&](sycl::handler &h) {
    sycl::accessor ra(a, h, sycl::read_only);
    sycl::accessor wb(b, h, sycl::write_only);
    sycl::accessor rwc(c, h, sycl::read_write);
    h.parallel_for<KAccRW>(sycl::range<1>(64), [=](sycl::id<1> i) { wb[i] = ra[i] * 2.f; rwc[i] += ra[i]; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor wb(b, h, sycl::write_only, sycl::no_init);
    h.parallel_for<KAccNoInit>(sycl::range<1>(64), [=](sycl::id<1> i) { wb[i] = float(i[0]); });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor rc(c, h, sycl::range<1>(16), sycl::id<1>(8), sycl::read_write);
    h.parallel_for<KAccRanged>(sycl::range<1>(16), [=](sycl::id<1> i) { rc[i] *= 3.f; });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor ra(a, h, sycl::read_only);
    sycl::accessor wb(b, h, sycl::write_only);
    h.single_task<KAccUnused>([=] { wb[0] = 1.f; (void)ra; });
  });
  q.submit([&](sycl::handler &h) { sycl::accessor wb(b, h, sycl::write_only); h.fill(wb, 5.f); });
  q.submit([&](sycl::handler &h) { sycl::accessor rb(b, h, sycl::read_only); sycl::accessor wc(c, h, sycl::write_only); h.copy(rb, wc); });
  q.submit([&](sycl::handler &h) { sycl::accessor rc(c, h, sycl::read_only); h.copy(rc, usm); });
  q.wait();
}
