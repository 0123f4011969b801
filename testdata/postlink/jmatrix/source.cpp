// sycl_ext_oneapi_matrix: joint_matrix bf16 x bf16 -> float multiply-add with
// reqd_sub_group_size(16) (load, joint_matrix_mad, store), joint_matrix_fill + apply on a float
// accumulator, and a plain kernel.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
namespace mx = sycl::ext::oneapi::experimental::matrix;
using bf16 = sycl::ext::oneapi::bfloat16;
class KMad;
class KFill;
class KPlainX;
constexpr size_t M = 8, N = 16, K = 16;
void run(sycl::queue &q, bf16 *a, bf16 *b, float *c) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KMad>(sycl::nd_range<2>({1, 16}, {1, 16}), [=](sycl::nd_item<2> it) [[sycl::reqd_sub_group_size(16)]] {
      auto sg = it.get_sub_group();
      mx::joint_matrix<sycl::sub_group, bf16, mx::use::a, M, K, mx::layout::row_major> ma;
      mx::joint_matrix<sycl::sub_group, bf16, mx::use::b, K, N, mx::layout::row_major> mb;
      mx::joint_matrix<sycl::sub_group, float, mx::use::accumulator, M, N> mc;
      auto ga = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(a);
      auto gb = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(b);
      auto gc = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(c);
      mx::joint_matrix_fill(sg, mc, 0.0f);
      mx::joint_matrix_load(sg, ma, ga, K);
      mx::joint_matrix_load(sg, mb, gb, N);
      mx::joint_matrix_mad(sg, mc, ma, mb, mc);
      mx::joint_matrix_store(sg, mc, gc, N, mx::layout::row_major);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KFill>(sycl::nd_range<2>({1, 16}, {1, 16}), [=](sycl::nd_item<2> it) [[sycl::reqd_sub_group_size(16)]] {
      auto sg = it.get_sub_group();
      mx::joint_matrix<sycl::sub_group, float, mx::use::accumulator, M, N> mc;
      mx::joint_matrix_fill(sg, mc, 2.0f);
      mx::joint_matrix_apply(sg, mc, [](float &x) { x = x * 3.0f; });
      auto gc = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(c);
      mx::joint_matrix_store(sg, mc, gc + M * N, N, mx::layout::row_major);
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainX>([=] { c[0] = 1.0f; }); });
}
