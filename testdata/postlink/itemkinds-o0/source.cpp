// Compiled at -O0. handler::parallel_for with every index argument kind: sycl::item<1>, sycl::item<2> with the
// deprecated global-offset overload (range<2> + id<2> offset), sycl::nd_item<3>, sycl::id<1>,
// a range<3> kernel taking sycl::item<3>, the deprecated range<3> + id<3> offset overload taking
// sycl::id<3>; and a single_task lambda capturing a 320-byte struct by value (a kernel argument
// larger than 256 bytes). The range kernels get `__pf_kernel_wrapper` / RoundedRangeKernel twins
// where the runtime may round the range.
#include <sycl/sycl.hpp>
struct Big { int v[80]; };
class KItem1;
class KItem2Off;
class KNd3;
class KId1;
class KItem3;
class KId3Off;
class KBig;
void run(sycl::queue &q, int *o, Big big) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KItem1>(sycl::range<1>(8), [=](sycl::item<1> it) { o[it.get_linear_id()] = static_cast<int>(it.get_range(0)); });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KItem2Off>(sycl::range<2>(2, 3), sycl::id<2>(1, 1), [=](sycl::item<2> it) {
      o[8 + it.get_linear_id()] = static_cast<int>(it.get_offset(0) + it[1]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KNd3>(sycl::nd_range<3>({2, 2, 2}, {1, 2, 2}), [=](sycl::nd_item<3> it) {
      o[16 + it.get_global_linear_id()] = static_cast<int>(it.get_group_linear_id());
    });
  });
  q.submit([&](sycl::handler &h) { h.parallel_for<KId1>(sycl::range<1>(4), [=](sycl::id<1> i) { o[24 + i] = static_cast<int>(i[0]) * 2; }); });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KItem3>(sycl::range<3>(2, 2, 2), [=](sycl::item<3> it) { o[28 + it.get_linear_id()] = static_cast<int>(it[2]); });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KId3Off>(sycl::range<3>(1, 2, 2), sycl::id<3>(0, 1, 1), [=](sycl::id<3> i) {
      o[36 + i[1] * 2 + i[2]] = static_cast<int>(i[0] + i[1] + i[2]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KBig>([=] {
      int s = 0;
      for (int k = 0; k < 80; ++k) s += big.v[k];
      o[48] = s;
      o[49] = big.v[79];
    });
  });
}
