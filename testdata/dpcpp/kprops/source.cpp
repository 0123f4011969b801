// Kernels with sycl::ext::oneapi::experimental kernel properties (work_group_size,
// sub_group_size, work_group_size_hint) together with spec constants; functor with get().
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
constexpr sycl::specialization_id<int> tileId(8);
constexpr sycl::specialization_id<float> gainId(1.25f);
struct PropFunctor {
  float *out;
  void operator()(sycl::nd_item<1> it, sycl::kernel_handler kh) const {
    out[it.get_global_id(0)] = kh.get_specialization_constant<gainId>() * kh.get_specialization_constant<tileId>();
  }
  auto get(syclex::properties_tag) const {
    return syclex::properties{syclex::work_group_size<16>, syclex::sub_group_size<16>};
  }
};
class KWgs; class KHint;
void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KWgs>(sycl::nd_range<1>(64, 32), syclex::properties{syclex::work_group_size<32>},
                         [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
                           out[it.get_global_id(0)] = it.get_local_id(0) % kh.get_specialization_constant<tileId>();
                         });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KHint>(sycl::range<1>(64), syclex::properties{syclex::work_group_size_hint<8>},
                          [=](sycl::id<1> i, sycl::kernel_handler kh) {
                            out[i] += kh.get_specialization_constant<gainId>();
                          });
  });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(64, 16), PropFunctor{out}); });
}
