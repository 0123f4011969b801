// sycl_ext_oneapi_prefetch: prefetch of a global pointer with the L1 hint, of a multi_ptr with
// a count and the L3 hint, joint_prefetch over a sub-group, prefetch inside a noinline helper used
// by two kernels, and a plain kernel.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KPre1;
class KPre2;
class KJoint;
class KHelp1;
class KHelp2;
class KPlainP;
__attribute__((noinline)) int pre_read(int *p, int i) {
  syclex::prefetch(p + i, syclex::properties{syclex::prefetch_hint_L2});
  return p[i];
}
void run(sycl::queue &q, int *p, float *f) {
  q.submit([&](sycl::handler &h) { h.single_task<KPre1>([=] { syclex::prefetch(p, syclex::properties{syclex::prefetch_hint_L1}); p[0] = p[1]; }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KPre2>([=] {
      auto mp = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(f);
      syclex::prefetch(mp, 4, syclex::properties{syclex::prefetch_hint_L3_nt});
      f[0] = f[1] + f[2];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KJoint>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      syclex::joint_prefetch(it.get_sub_group(), f + 16, 16 * sizeof(float));
      f[it.get_global_id(0)] += 1.0f;
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KHelp1>([=] { p[2] = pre_read(p, 3); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KHelp2>([=] { p[4] = pre_read(p, 5) + 1; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainP>([=] { p[6] = 7; }); });
}
