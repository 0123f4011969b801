// Hierarchical parallelism: parallel_for_work_group with a local range (work-group scope
// variable shared by parallel_for_work_item loops, a private_memory<int> between two loops),
// without a local range (the runtime picks it; parallel_for_work_item with a flexible range of
// 8 and h_item), a work-group kernel with a double, and a plain range kernel.
// Outputs (int o[]): KHierLocal o[g * 4 + l] = (g * 4 + l) * 2 + sum over the group (4 groups of
// 4); KHierFlex o[16 + g * 8 + i] = i (2 groups, 8 items each); KHierDbl d[g] = g * 0.5.
#include <sycl/sycl.hpp>
class KHierLocal;
class KHierFlex;
class KHierDbl;
class KPlainRange;
void run(sycl::queue &q, int *o, double *d) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group<KHierLocal>(sycl::range<1>(4), sycl::range<1>(4), [=](sycl::group<1> g) {
      int wgSum = 0;
      sycl::private_memory<int> mine(g);
      g.parallel_for_work_item([&](sycl::h_item<1> it) { mine(it) = static_cast<int>(it.get_global_id(0)) * 2; });
      g.parallel_for_work_item([&](sycl::h_item<1> it) { sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::work_group>(wgSum) += static_cast<int>(it.get_local_id(0)); });
      g.parallel_for_work_item([&](sycl::h_item<1> it) { o[it.get_global_id(0)] = mine(it) + wgSum; });
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group<KHierFlex>(sycl::range<1>(2), [=](sycl::group<1> g) {
      g.parallel_for_work_item(sycl::range<1>(8), [&](sycl::h_item<1> it) {
        o[16 + g.get_group_id(0) * 8 + it.get_logical_local_id(0)] = static_cast<int>(it.get_logical_local_id(0));
      });
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for_work_group<KHierDbl>(sycl::range<1>(2), sycl::range<1>(2), [=](sycl::group<1> g) {
      double scale = 0.5;
      g.parallel_for_work_item([&](sycl::h_item<1> it) {
        if (it.get_local_id(0) == 0) d[g.get_group_id(0)] = static_cast<double>(g.get_group_id(0)) * scale;
      });
    });
  });
  q.submit([&](sycl::handler &h) { h.parallel_for<KPlainRange>(sycl::range<1>(4), [=](sycl::id<1> i) { o[40 + i] = 1; }); });
}
