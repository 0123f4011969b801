// FPGA-style kernel attributes on a spir64 compile: [[intel::kernel_args_restrict]],
// [[intel::max_global_work_dim(0)]], [[intel::num_simd_work_items(4)]] with reqd_work_group_size,
// [[intel::no_global_work_offset]], [[intel::max_work_group_size]], a plain kernel.
#include <sycl/sycl.hpp>
class KRestrict;
class KMaxDim0;
class KSimd;
class KNoOffset;
class KIntelMaxWg;
class KPlainF;
void run(sycl::queue &q, int *a, int *b) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KRestrict>(sycl::range<1>(16), [=](sycl::id<1> i) [[intel::kernel_args_restrict]] { a[i] = b[i] + 1; });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KMaxDim0>([=]() [[intel::max_global_work_dim(0)]] { a[0] = 5; }); });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KSimd>(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it) [[intel::num_simd_work_items(4), sycl::reqd_work_group_size(8)]] { a[it.get_global_id(0)] = 2; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KNoOffset>(sycl::range<1>(16), [=](sycl::id<1> i) [[intel::no_global_work_offset(1)]] { b[i] = 3; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KIntelMaxWg>(sycl::nd_range<1>(16, 4), [=](sycl::nd_item<1> it) [[intel::max_work_group_size(1, 1, 4)]] { b[it.get_global_id(0)] = 4; });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainF>([=] { b[0] = 6; }); });
}
