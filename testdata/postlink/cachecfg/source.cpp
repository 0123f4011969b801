// Kernel properties not covered elsewhere: intel::experimental::cache_config(large_slm) and
// (large_data) through get(properties_tag), use_root_sync on an nd_launch, a kernel combining
// cache_config with sub_group_size, a plain kernel.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
namespace intelex = sycl::ext::intel::experimental;
struct KSlm {
  int *p;
  void operator()() const { p[0] = 1; }
  auto get(syclex::properties_tag) const { return syclex::properties{intelex::cache_config(intelex::large_slm)}; }
};
struct KData {
  int *p;
  void operator()() const { p[1] = 2; }
  auto get(syclex::properties_tag) const { return syclex::properties{intelex::cache_config(intelex::large_data)}; }
};
struct KSlmSg {
  int *p;
  void operator()(sycl::nd_item<1> it) const { p[2 + it.get_global_id(0)] = 3; }
  auto get(syclex::properties_tag) const { return syclex::properties{intelex::cache_config(intelex::large_slm), syclex::sub_group_size<16>}; }
};
class KRoot;
class KPlainC;
void run(sycl::queue &q, int *a) {
  q.submit([&](sycl::handler &h) { h.single_task(KSlm{a}); });
  q.submit([&](sycl::handler &h) { h.single_task(KData{a}); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(16, 16), KSlmSg{a}); });
  syclex::launch_config cfg{sycl::nd_range<1>(16, 16), syclex::properties{syclex::use_root_sync}};
  syclex::nd_launch<KRoot>(q, cfg, [=](sycl::nd_item<1> it) { a[20 + it.get_global_id(0)] = 4; });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainC>([=] { a[40] = 5; }); });
}
