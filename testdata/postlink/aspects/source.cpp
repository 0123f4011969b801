// Aspects the device code uses: double, half, both, 64-bit atomics, a helper whose double the
// optimiser folds away, none; and device_has(fp16, atomic64) on kernels that use neither, as the
// [[sycl::device_has]] attribute (KDevHas) and as the device_has property (DevHasProp).
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KDouble;
class KHalf;
class KBoth;
class KAtomic64;
class KViaHelper;
class KNone;
class KDevHas;
struct DevHasProp {
  int *a;
  void operator()() const { a[2] = 44; }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::device_has<sycl::aspect::fp16, sycl::aspect::atomic64>}; }
};
float via_helper(float x) { return (float)((double)x * 1.5); }
void run(sycl::queue &q, int *a, float *f, double *d, unsigned long long *u) {
  // d[0] = 2.0 / 3.0 + 1.25
  q.submit([&](sycl::handler &h) { h.single_task<KDouble>([=] { d[0] = 2.0 / (d[1] + 3.0) + 1.25; }); });
  // f[0] = half(2.5) * half(3) = 7.5
  q.submit([&](sycl::handler &h) { h.single_task<KHalf>([=] { sycl::half x = 2.5f + f[1]; f[0] = x * sycl::half(3.0f); }); });
  // d[2] = 0.5 + 1.0; f[2] = 1.5 * 2
  q.submit([&](sycl::handler &h) { h.single_task<KBoth>([=] { d[2] = d[3] + 1.5; sycl::half x = 1.5f; f[2] = x * sycl::half(2.0f); }); });
  // u[0] = 0x100000000 + 5 added twice to 0: 0x20000000a
  q.submit([&](sycl::handler &h) {
    h.single_task<KAtomic64>([=] {
      sycl::atomic_ref<unsigned long long, sycl::memory_order::relaxed, sycl::memory_scope::device> r(u[0]);
      r.fetch_add(0x100000005ull);
      r.fetch_add(0x100000005ull);
    });
  });
  // f[3] = 4 * 1.5 = 6
  q.submit([&](sycl::handler &h) { h.single_task<KViaHelper>([=] { f[3] = via_helper(4.0f); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KNone>([=] { a[0] = 42; }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KDevHas>([=]() [[sycl::device_has(sycl::aspect::fp16, sycl::aspect::atomic64)]] { a[1] = 43; });
  });
  q.submit([&](sycl::handler &h) { h.single_task(DevHasProp{a}); });
}
