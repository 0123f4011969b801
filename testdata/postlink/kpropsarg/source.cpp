// Kernel properties given as an argument: parallel_for(nd_range, properties, lambda) (deprecated) with
// work_group_size + sub_group_size, single_task(properties, lambda) with device_has,
// parallel_for(nd_range, properties, lambda) with work_group_size_hint, mixed with a functor whose
// get(properties_tag) gives the same work_group_size, an attribute kernel with the same shape, an
// nd_launch whose launch_config carries a work_group_progress forward-progress property (launch
// properties with compile-time kernel effects, like work_group_size, are a static_assert there),
// and a plain kernel.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KArgWg;
class KArgTask;
class KArgHint;
class KAttrWg;
class KPlainA;
class KLaunchProgress;
struct FGetWg {
  int *p;
  void operator()(sycl::nd_item<1> it) const { p[it.get_global_id(0)] = 7; }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::work_group_size<16>, syclex::sub_group_size<16>}; }
};
void run(sycl::queue &q, int *p) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KArgWg>(sycl::nd_range<1>(32, 16), syclex::properties{syclex::work_group_size<16>, syclex::sub_group_size<16>},
                           [=](sycl::nd_item<1> it) { p[it.get_global_id(0)] = 1; });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KArgTask>(syclex::properties{syclex::device_has<sycl::aspect::fp16>}, [=] { p[40] = 2; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KArgHint>(sycl::nd_range<2>({8, 8}, {4, 8}), syclex::properties{syclex::work_group_size_hint<4, 8>},
                             [=](sycl::nd_item<2> it) { p[it.get_global_linear_id()] = 3; });
  });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(32, 16), FGetWg{p}); });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAttrWg>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(16), sycl::reqd_sub_group_size(16)]] {
      p[it.get_global_id(0)] = 4;
    });
  });
  syclex::launch_config cfg2{sycl::nd_range<1>(32, 8), syclex::properties{syclex::work_group_progress<syclex::forward_progress_guarantee::concurrent, syclex::execution_scope::root_group>}};
  syclex::nd_launch<KLaunchProgress>(q, cfg2, [=](sycl::nd_item<1> it) { p[100 + it.get_global_id(0)] = 7; });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainA>([=] { p[50] = 5; }); });
}
