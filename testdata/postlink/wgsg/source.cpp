// Work-group and sub-group shapes combined: reqd_work_group_size + reqd_sub_group_size on one
// kernel (1-D and 2-D), work_group_size_hint (attribute), work_group_size + sub_group_size
// properties together, a 2-D work_group_size_hint property, and plain range / nd_range kernels.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KBoth1;
class KBoth2;
class KHint;
class KPlainRange;
class KPlainNd;
struct PropsBoth {
  int *out;
  void operator()(sycl::nd_item<1> it) const { out[it.get_global_linear_id()] = it.get_sub_group().get_local_linear_id(); }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::work_group_size<32>, syclex::sub_group_size<8>}; }
};
struct HintProp {
  int *out;
  void operator()(sycl::nd_item<2> it) const { out[it.get_global_linear_id()] = it.get_local_linear_id(); }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::work_group_size_hint<4, 4>}; }
};
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KBoth1>(sycl::nd_range<1>(64, 32), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(32), sycl::reqd_sub_group_size(16)]] {
      out[it.get_global_linear_id()] = it.get_sub_group().get_group_linear_id();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KBoth2>(sycl::nd_range<2>({8, 16}, {2, 16}), [=](sycl::nd_item<2> it) [[sycl::reqd_work_group_size(2, 16), sycl::reqd_sub_group_size(8)]] {
      out[it.get_global_linear_id()] = it.get_local_linear_id();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KHint>(sycl::nd_range<1>(64, 16), [=](sycl::nd_item<1> it) [[sycl::work_group_size_hint(16)]] {
      out[it.get_global_linear_id()] = it.get_group_linear_id();
    });
  });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(64, 32), PropsBoth{out}); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<2>({8, 8}, {4, 4}), HintProp{out}); });
  q.submit([&](sycl::handler &h) { h.parallel_for<KPlainRange>(sycl::range<3>(2, 3, 4), [=](sycl::item<3> it) { out[it.get_linear_id()] = 1; }); });
  q.submit([&](sycl::handler &h) { h.parallel_for<KPlainNd>(sycl::nd_range<3>({2, 2, 2}, {1, 2, 2}), [=](sycl::nd_item<3> it) { out[it.get_global_linear_id()] = 2; }); });
}
