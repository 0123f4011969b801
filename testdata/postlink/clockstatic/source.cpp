// Aspects that type- and function-level __uses_aspects__ give, and work-group static memory:
// experimental::clock at device, work_group and sub_group scope (one kernel each, the sub-group one
// through a noinline helper), atomic_ref<half> fetch_add (ext_oneapi_atomic16 beside fp16),
// work_group_static<int> and work_group_static<float[16]> in an nd_range kernel, and a plain kernel.
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/work_group_static.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KClockDev;
class KClockWg;
class KClockSg;
class KAtomHalf;
class KWgStatic;
class KPlainC;
__attribute__((noinline)) unsigned long long sg_ticks() { return syclex::clock<syclex::clock_scope::sub_group>(); }
syclex::work_group_static<int> wg_counter;
syclex::work_group_static<float[16]> wg_buf;
void run(sycl::queue &q, unsigned long long *t, sycl::half *h, float *f) {
  q.submit([&](sycl::handler &cgh) { cgh.single_task<KClockDev>([=] { t[0] = syclex::clock<syclex::clock_scope::device>(); }); });
  q.submit([&](sycl::handler &cgh) { cgh.single_task<KClockWg>([=] { t[1] = syclex::clock<syclex::clock_scope::work_group>(); }); });
  q.submit([&](sycl::handler &cgh) { cgh.single_task<KClockSg>([=] { t[2] = sg_ticks(); }); });
  q.submit([&](sycl::handler &cgh) {
    cgh.single_task<KAtomHalf>([=] {
      sycl::atomic_ref<sycl::half, sycl::memory_order::relaxed, sycl::memory_scope::device> a(h[0]);
      a.fetch_add(sycl::half(1.0f));
    });
  });
  q.submit([&](sycl::handler &cgh) {
    cgh.parallel_for<KWgStatic>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      if (it.get_local_id(0) == 0) wg_counter = 0;
      wg_buf[it.get_local_id(0)] = f[it.get_global_id(0)];
      sycl::group_barrier(it.get_group());
      sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::work_group, sycl::access::address_space::local_space> c(wg_counter);
      c.fetch_add(1);
      sycl::group_barrier(it.get_group());
      f[it.get_global_id(0)] = wg_buf[15 - it.get_local_id(0)] + (int)wg_counter;
    });
  });
  q.submit([&](sycl::handler &cgh) { cgh.single_task<KPlainC>([=] { t[3] = 1; }); });
}
