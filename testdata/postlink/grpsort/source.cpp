// sycl_ext_oneapi_group_sort: joint_sort of a work-group's slice of global memory with a
// group_with_scratchpad over a local_accessor<std::byte>, sort_over_group of one value per
// work-item (descending, std::greater), sort_over_group on a sub-group with a scratch span;
// group_load / group_store of 2 ints per work-item with the contiguous_memory and full_group
// hints; a plain kernel.
#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/experimental/group_sort.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KJointSort;
class KGroupSort;
class KSubSort;
class KLoadHints;
class KPlain;
constexpr size_t WG = 16;
void run(sycl::queue &q, int *a, int *b, int *c, int *d, int *e) {
  q.submit([&](sycl::handler &h) {
    size_t bytes = syclex::default_sorters::joint_sorter<>::memory_required<int>(sycl::memory_scope::work_group, WG);
    sycl::local_accessor<std::byte, 1> scratch(sycl::range<1>(bytes), h);
    h.parallel_for<KJointSort>(sycl::nd_range<1>(32, WG), [=](sycl::nd_item<1> it) {
      int *first = a + it.get_group_linear_id() * WG;
      syclex::joint_sort(syclex::group_with_scratchpad(it.get_group(), sycl::span{&scratch[0], bytes}), first, first + WG);
    });
  });
  q.submit([&](sycl::handler &h) {
    size_t bytes = syclex::default_sorters::group_sorter<int, std::greater<int>, 1>::memory_required(sycl::memory_scope::work_group, WG);
    sycl::local_accessor<std::byte, 1> scratch(sycl::range<1>(bytes), h);
    h.parallel_for<KGroupSort>(sycl::nd_range<1>(32, WG), [=](sycl::nd_item<1> it) {
      size_t g = it.get_global_linear_id();
      b[g] = syclex::sort_over_group(syclex::group_with_scratchpad(it.get_group(), sycl::span{&scratch[0], bytes}), b[g], std::greater<int>{});
    });
  });
  q.submit([&](sycl::handler &h) {
    size_t bytes = syclex::default_sorters::group_sorter<int, std::less<int>, 1>::memory_required(sycl::memory_scope::sub_group, WG);
    sycl::local_accessor<std::byte, 1> scratch(sycl::range<1>(bytes * 2), h);
    h.parallel_for<KSubSort>(sycl::nd_range<1>(32, WG), [=](sycl::nd_item<1> it) [[sycl::reqd_sub_group_size(8)]] {
      auto sg = it.get_sub_group();
      size_t g = it.get_global_linear_id();
      std::byte *mine = &scratch[0] + sg.get_group_linear_id() * bytes;
      c[g] = syclex::sort_over_group(syclex::group_with_scratchpad(sg, sycl::span{mine, bytes}), c[g]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KLoadHints>(sycl::nd_range<1>(32, WG), [=](sycl::nd_item<1> it) {
      auto g = it.get_group();
      int v[2];
      auto props = syclex::properties{syclex::contiguous_memory, syclex::full_group};
      syclex::group_load(g, d + g.get_group_linear_id() * WG * 2, sycl::span{v}, props);
      v[0] += 100;
      v[1] *= 2;
      syclex::group_store(g, sycl::span{v}, d + g.get_group_linear_id() * WG * 2, props);
    });
  });
  q.submit([&](sycl::handler &h) { h.parallel_for<KPlain>(sycl::range<1>(32), [=](sycl::id<1> i) { e[i] = i * 5; }); });
}
