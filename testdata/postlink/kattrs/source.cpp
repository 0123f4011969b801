// Kernel attributes and properties that become execution modes and device requirements:
// reqd_work_group_size 1-D / 2-D / 3-D as attributes, work_group_size 2-D / 3-D as properties,
// reqd_sub_group_size in two kernels that disagree (32 first, then 16), and a plain kernel
// (max_work_group_size is in `maxwg`: the CPU OpenCL device cannot build it). Every kernel writes
// its local and group ids, so a launch with the wrong shape shows.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KWg1;
class KWg2;
class KWg3;
class KSg32;
class KSg16;
class KPlain;
// out[global linear id] = local linear id + 100 * group linear id
template <int D> void ids(int *out, sycl::nd_item<D> it) {
  out[it.get_global_linear_id()] = static_cast<int>(it.get_local_linear_id() + 100 * it.get_group_linear_id());
}
struct Wg3Prop {
  int *out;
  void operator()(sycl::nd_item<3> it) const { ids(out, it); }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::work_group_size<2, 4, 8>}; }
};
struct Wg2Prop {
  int *out;
  void operator()(sycl::nd_item<2> it) const { ids(out, it); }
  auto get(syclex::properties_tag) const { return syclex::properties{syclex::work_group_size<8, 16>}; }
};
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KWg1>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) [[sycl::reqd_work_group_size(16)]] { ids(out, it); });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KWg2>(sycl::nd_range<2>({8, 8}, {4, 8}), [=](sycl::nd_item<2> it) [[sycl::reqd_work_group_size(4, 8)]] { ids(out, it); });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KWg3>(sycl::nd_range<3>({2, 4, 8}, {2, 4, 8}), [=](sycl::nd_item<3> it) [[sycl::reqd_work_group_size(2, 4, 8)]] { ids(out, it); });
  });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<3>({2, 4, 8}, {2, 4, 8}), Wg3Prop{out}); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<2>({8, 16}, {8, 16}), Wg2Prop{out}); });
  // out[i] = sub-group size * 1000 + sub-group local id
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KSg32>(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(32)]] {
      auto sg = it.get_sub_group();
      out[it.get_global_linear_id()] = static_cast<int>(sg.get_local_range()[0] * 1000 + sg.get_local_linear_id());
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KSg16>(sycl::nd_range<1>(64, 64), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(16)]] {
      auto sg = it.get_sub_group();
      out[it.get_global_linear_id()] = static_cast<int>(sg.get_local_range()[0] * 1000 + sg.get_local_linear_id());
    });
  });
  q.submit([&](sycl::handler &h) { h.parallel_for<KPlain>(sycl::nd_range<1>(32, 8), [=](sycl::nd_item<1> it) { ids(out, it); }); });
}
