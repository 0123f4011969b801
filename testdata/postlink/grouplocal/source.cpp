// group_local_memory_for_overwrite without work_group_scratch_memory: DPC++ appends no implicit
// local argument (nothing calls __sycl_dynamicLocalMemoryPlaceholder), but lists every kernel
// reaching the allocation in [SYCL/implicit local arg] with -1: one directly, one through a
// noinline helper; a local_accessor kernel and a plain kernel are not listed. Each local-memory
// kernel reverses its work-group's ids through local memory: out[gid] = 15 - lid + 100 * group.
#include <sycl/sycl.hpp>
class KDirect;
class KHelper;
class KAccessor;
class KPlain;
template <typename G> __attribute__((noinline)) int *grab(G g) {
  return *sycl::ext::oneapi::group_local_memory_for_overwrite<int[16]>(g);
}
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KDirect>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      auto *loc = *sycl::ext::oneapi::group_local_memory_for_overwrite<int[16]>(it.get_group());
      size_t l = it.get_local_linear_id();
      loc[l] = static_cast<int>(l + 100 * it.get_group_linear_id());
      sycl::group_barrier(it.get_group());
      out[it.get_global_linear_id()] = loc[15 - l];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KHelper>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      int *loc = grab(it.get_group());
      size_t l = it.get_local_linear_id();
      loc[l] = static_cast<int>(l + 100 * it.get_group_linear_id());
      sycl::group_barrier(it.get_group());
      out[it.get_global_linear_id()] = loc[15 - l];
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> loc(16, h);
    h.parallel_for<KAccessor>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      size_t l = it.get_local_linear_id();
      loc[l] = static_cast<int>(l + 100 * it.get_group_linear_id());
      sycl::group_barrier(it.get_group());
      out[it.get_global_linear_id()] = loc[15 - l];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KPlain>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      out[it.get_global_linear_id()] = static_cast<int>(it.get_global_linear_id()) + 1;
    });
  });
}
