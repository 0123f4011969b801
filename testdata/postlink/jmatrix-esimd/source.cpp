// A bfloat16 joint_matrix multiply-add (OpCooperativeMatrixMulAddKHR with the Intel operand bit
// MatrixAAndBBFloat16ComponentsINTEL) beside an ESIMD kernel: the `off` split gives two images,
// which a split of them links together.
#include <sycl/sycl.hpp>
#include <sycl/ext/intel/esimd.hpp>
namespace mx = sycl::ext::oneapi::experimental::matrix;
using bf16 = sycl::ext::oneapi::bfloat16;
using namespace sycl::ext::intel::esimd;
class KMadE;
class KEsimdM;
class KPlainM;
void run(sycl::queue &q, bf16 *a, float *c) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KMadE>(sycl::nd_range<2>({1, 16}, {1, 16}), [=](sycl::nd_item<2> it) [[sycl::reqd_sub_group_size(16)]] {
      auto sg = it.get_sub_group();
      mx::joint_matrix<sycl::sub_group, bf16, mx::use::a, 8, 16, mx::layout::row_major> ma;
      mx::joint_matrix<sycl::sub_group, bf16, mx::use::b, 16, 16, mx::layout::row_major> mb;
      mx::joint_matrix<sycl::sub_group, float, mx::use::accumulator, 8, 16> mc;
      auto ga = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(a);
      auto gc = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(c);
      mx::joint_matrix_fill(sg, mc, 0.0f);
      mx::joint_matrix_load(sg, ma, ga, 16);
      mx::joint_matrix_load(sg, mb, ga + 128, 16);
      mx::joint_matrix_mad(sg, mc, ma, mb, mc);
      mx::joint_matrix_store(sg, mc, gc, 16, mx::layout::row_major);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KEsimdM>(sycl::range<1>(2), [=](sycl::id<1> i) SYCL_ESIMD_KERNEL {
      simd<float, 8> v(0.0f, 1.0f);
      v.copy_to(c + 128 + i * 8);
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainM>([=] { c[0] = 1.0f; }); });
}
