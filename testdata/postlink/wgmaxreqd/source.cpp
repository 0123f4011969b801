// max_work_group_size together with work_group_size / reqd_work_group_size on the same kernel
// (1-D and 3-D), max_linear_work_group_size alone and with max_work_group_size, reqd_sub_group_size
// with max_work_group_size, and a plain kernel: program metadata and per_source categories.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KMaxReqd1;
class KMaxReqd3;
class KLinear;
class KLinMax;
class KMaxSg;
class KPlain;
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KMaxReqd1>(sycl::nd_range<1>(64, 32), syclex::properties{syclex::max_work_group_size<64>, syclex::work_group_size<32>},
                              [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] = 1; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KMaxReqd3>(sycl::nd_range<3>({4, 4, 4}, {2, 2, 4}), syclex::properties{syclex::max_work_group_size<4, 4, 4>},
                              [=](sycl::nd_item<3> it) [[sycl::reqd_work_group_size(2, 2, 4)]] { out[64 + it.get_global_linear_id()] = 2; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KLinear>(sycl::nd_range<1>(64, 16), syclex::properties{syclex::max_linear_work_group_size<128>},
                            [=](sycl::nd_item<1> it) { out[200 + it.get_global_id(0)] = 3; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KLinMax>(sycl::nd_range<2>({8, 8}, {4, 4}), syclex::properties{syclex::max_linear_work_group_size<32>, syclex::max_work_group_size<8, 8>},
                            [=](sycl::nd_item<2> it) { out[300 + it.get_global_linear_id()] = 4; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KMaxSg>(sycl::nd_range<1>(32, 32), syclex::properties{syclex::max_work_group_size<32>, syclex::sub_group_size<16>},
                           [=](sycl::nd_item<1> it) { out[400 + it.get_global_id(0)] = 5; });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { out[500] = 6; }); });
}
