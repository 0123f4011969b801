// max_work_group_size (sycl_ext_oneapi_kernel_properties) 1-D and 2-D, next to a plain kernel:
// OpExecutionMode MaxWorkgroupSizeINTEL (capability 5892, which Intel's CPU OpenCL device rejects,
// so this case has no run.json), [SYCL/program metadata] <kernel>@max_work_group_size and
// work_group_num_dim.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
struct MaxWg1 {
  int *out;
  void operator()(sycl::nd_item<1> it) const { out[it.get_global_linear_id()] = 1; }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::max_work_group_size<64>}; }
};
struct MaxWg2 {
  int *out;
  void operator()(sycl::nd_item<2> it) const { out[it.get_global_linear_id()] = 2; }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::max_work_group_size<8, 16>}; }
};
class KPlainNd;
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(64, 32), MaxWg1{out}); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<2>({8, 16}, {8, 8}), MaxWg2{out}); });
  q.submit([&](sycl::handler &h) { h.parallel_for<KPlainNd>(sycl::nd_range<1>(32, 8), [=](sycl::nd_item<1> it) { out[it.get_global_linear_id()] = 3; }); });
}
