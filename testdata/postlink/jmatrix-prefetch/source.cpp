// joint_matrix prefetch and checked load, store and fill (SPV_INTEL_joint_matrix instructions the
// SPIR-V grammar of rspirv lacks: OpCooperativeMatrixPrefetchINTEL, Load/Store/
// ConstructCheckedINTEL) in one kernel, beside an ESIMD kernel and a plain one: DPC++'s `off`
// images are two (ESIMD, SYCL), which the split links before splitting.
#include <sycl/sycl.hpp>
#include <sycl/ext/intel/esimd.hpp>
#include <sycl/ext/oneapi/matrix/matrix.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
namespace mx = sycl::ext::oneapi::experimental::matrix;
namespace mxi = sycl::ext::intel::experimental::matrix;
constexpr sycl::specialization_id<int> scale(3);
class KPrefetch;
class KEsimd;
class KPlain;
void run(sycl::queue &q, int *a, float *f, sycl::ext::oneapi::bfloat16 *pa) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KPrefetch>(sycl::nd_range<2>({1, 16}, {1, 16}), [=](sycl::nd_item<2> it, sycl::kernel_handler kh) [[sycl::reqd_sub_group_size(16)]] {
      auto sg = it.get_sub_group();
      mx::joint_matrix<sycl::sub_group, sycl::ext::oneapi::bfloat16, mx::use::a, 8, 16, mx::layout::row_major> ma;
      mx::joint_matrix<sycl::sub_group, float, mx::use::accumulator, 8, 16> mc;
      auto ga = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(pa);
      auto gc = sycl::address_space_cast<sycl::access::address_space::global_space, sycl::access::decorated::no>(f);
      mx::joint_matrix_prefetch<8, 16>(sg, f, 16, mx::layout::row_major, syclex::properties{syclex::prefetch_hint_L1});
      mxi::joint_matrix_fill_checked(sg, mc, static_cast<float>(kh.get_specialization_constant<scale>()), 8, 16, 0, 0);
      mxi::joint_matrix_load_checked(sg, ma, ga, 16, 8, 16, 0, 0);
      mx::joint_matrix_apply(sg, mc, [](float &x) { x = x * 2.0f; });
      mxi::joint_matrix_store_checked(sg, mc, gc, 16, mx::layout::row_major, 8, 16, 0, 0);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KEsimd>(sycl::range<1>(2), [=](sycl::id<1> i) SYCL_ESIMD_KERNEL {
      sycl::ext::intel::esimd::simd<int, 8> v = sycl::ext::intel::esimd::block_load<int, 8>(a + i * 8);
      sycl::ext::intel::esimd::block_store(a + i * 8, v * 2);
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlain>([=] { a[0] = 7; }); });
}
