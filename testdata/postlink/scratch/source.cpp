// Work-group local memory: a local_accessor (a kernel argument), group_local_memory_for_overwrite
// and work_group_scratch_memory (both reached through an implicit local argument the post-link
// step appends: [SYCL/implicit local arg]; scratch memory also [SYCL/work group dynamic local mem]).
// Each kernel reverses its work-group's ids through local memory: out[gid] = 15 - lid + 100 * group.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KLocalAcc;
class KGroupLocal;
class KScratch;
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> loc(16, h);
    h.parallel_for<KLocalAcc>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      size_t l = it.get_local_linear_id();
      loc[l] = static_cast<int>(l + 100 * it.get_group_linear_id());
      sycl::group_barrier(it.get_group());
      out[it.get_global_linear_id()] = loc[15 - l];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KGroupLocal>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      auto *loc = *sycl::ext::oneapi::group_local_memory_for_overwrite<int[16]>(it.get_group());
      size_t l = it.get_local_linear_id();
      loc[l] = static_cast<int>(l + 100 * it.get_group_linear_id());
      sycl::group_barrier(it.get_group());
      out[it.get_global_linear_id()] = loc[15 - l];
    });
  });
  syclex::launch_config cfg{sycl::nd_range<1>(32, 16), syclex::properties{syclex::work_group_scratch_size(16 * sizeof(int))}};
  syclex::nd_launch<KScratch>(q, cfg, [=](sycl::nd_item<1> it) {
    int *loc = static_cast<int *>(syclex::get_work_group_scratch_memory());
    size_t l = it.get_local_linear_id();
    loc[l] = static_cast<int>(l + 100 * it.get_group_linear_id());
    sycl::group_barrier(it.get_group());
    out[it.get_global_linear_id()] = loc[15 - l];
  });
}
