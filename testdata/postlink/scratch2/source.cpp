// Implicit local arguments in several kernels: group_local_memory_for_overwrite reached through a
// noinline helper from two kernels, twice in one kernel, work_group_scratch_memory in two
// nd_launch kernels (one through a helper), and a kernel without local memory.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
template <typename G> __attribute__((noinline)) int *grab(G g) {
  return *sycl::ext::oneapi::group_local_memory_for_overwrite<int[16]>(g);
}
__attribute__((noinline)) int read_scratch(size_t l) {
  int *loc = static_cast<int *>(syclex::get_work_group_scratch_memory());
  return loc[l];
}
class KHelp1;
class KHelp2;
class KTwice;
class KScr1;
class KScr2;
class KNoLocal;
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KHelp1>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      int *loc = grab(it.get_group()); size_t l = it.get_local_linear_id();
      loc[l] = (int)l; sycl::group_barrier(it.get_group()); out[it.get_global_linear_id()] = loc[15 - l];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KHelp2>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      int *loc = grab(it.get_group()); size_t l = it.get_local_linear_id();
      loc[l] = 2 * (int)l; sycl::group_barrier(it.get_group()); out[32 + it.get_global_linear_id()] = loc[15 - l];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KTwice>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      auto *a = *sycl::ext::oneapi::group_local_memory_for_overwrite<int[16]>(it.get_group());
      auto *b = *sycl::ext::oneapi::group_local_memory_for_overwrite<float[16]>(it.get_group());
      size_t l = it.get_local_linear_id();
      a[l] = (int)l; b[l] = 0.5f * l; sycl::group_barrier(it.get_group());
      out[64 + it.get_global_linear_id()] = a[15 - l] + (int)b[l];
    });
  });
  syclex::launch_config cfg{sycl::nd_range<1>(32, 16), syclex::properties{syclex::work_group_scratch_size(16 * sizeof(int))}};
  syclex::nd_launch<KScr1>(q, cfg, [=](sycl::nd_item<1> it) {
    int *loc = static_cast<int *>(syclex::get_work_group_scratch_memory());
    size_t l = it.get_local_linear_id();
    loc[l] = (int)l; sycl::group_barrier(it.get_group()); out[96 + it.get_global_linear_id()] = loc[15 - l];
  });
  syclex::nd_launch<KScr2>(q, cfg, [=](sycl::nd_item<1> it) {
    int *loc = static_cast<int *>(syclex::get_work_group_scratch_memory());
    size_t l = it.get_local_linear_id();
    loc[l] = 3 * (int)l; sycl::group_barrier(it.get_group()); out[128 + it.get_global_linear_id()] = read_scratch(15 - l);
  });
  q.submit([&](sycl::handler &h) { h.parallel_for<KNoLocal>(sycl::range<1>(16), [=](sycl::id<1> i) { out[200 + i] = (int)i; }); });
}
