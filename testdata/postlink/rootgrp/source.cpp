// Root-group synchronisation (sycl_ext_oneapi_root_group): a functor with use_root_sync in
// get(properties_tag) calling group_barrier on the root group, a functor combining use_root_sync
// with work_group_size, an nd_launch kernel with use_root_sync as a launch property that only reads
// the root group's range, and a plain nd_range kernel.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
struct FRootBarrier {
  int *p;
  void operator()(sycl::nd_item<1> it) const {
    auto root = it.ext_oneapi_get_root_group();
    p[it.get_global_id(0)] = 1;
    sycl::group_barrier(root);
    p[it.get_global_id(0)] += p[(it.get_global_id(0) + 1) % 32];
  }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::use_root_sync}; }
};
struct FRootWg {
  int *p;
  void operator()(sycl::nd_item<1> it) const {
    auto root = it.ext_oneapi_get_root_group();
    sycl::group_barrier(root);
    p[it.get_global_id(0)] = 2;
  }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::use_root_sync, syclex::work_group_size<8>}; }
};
class KRootLaunch;
class KPlainR;
void run(sycl::queue &q, int *p) {
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(32, 8), FRootBarrier{p}); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(32, 8), FRootWg{p}); });
  syclex::launch_config cfg{sycl::nd_range<1>(32, 8), syclex::properties{syclex::use_root_sync}};
  syclex::nd_launch<KRootLaunch>(q, cfg, [=](sycl::nd_item<1> it) {
    p[40 + it.get_global_id(0)] = it.ext_oneapi_get_root_group().get_local_linear_range();
  });
  q.submit([&](sycl::handler &h) { h.parallel_for<KPlainR>(sycl::nd_range<1>(32, 8), [=](sycl::nd_item<1> it) { p[it.get_global_id(0)] = 3; }); });
}
