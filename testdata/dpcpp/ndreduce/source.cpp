// nd_range kernels with local memory, group functions and sycl::reduction.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<float> weightId(2.0f);
constexpr sycl::specialization_id<int> biasId(1);
constexpr sycl::specialization_id<unsigned> maskId(0xffu);
class KLocal; class KRed; class KRedNd; class KAtomic; class KGroup;
void run(sycl::queue &q, float *in, float *out, int *isum) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> tile(sycl::range<1>(32), h);
    h.parallel_for<KLocal>(sycl::nd_range<1>(64, 32), [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
      size_t l = it.get_local_id(0), g = it.get_global_id(0);
      tile[l] = in[g] * kh.get_specialization_constant<weightId>();
      sycl::group_barrier(it.get_group());
      float s = sycl::reduce_over_group(it.get_group(), tile[31 - l], sycl::plus<float>());
      float b = sycl::group_broadcast(it.get_group(), s, 0);
      out[g] = b + kh.get_specialization_constant<biasId>();
    });
  });
  // sycl::reduction kernels cannot take a kernel_handler in DPC++ 2026.2 (reduction.hpp has no
  // kernel_handler overload), so the reduction kernel sits next to spec-constant kernels in the
  // same image, and KAtomic does the same sum by hand with atomic_ref + spec constants.
  q.submit([&](sycl::handler &h) {
    auto red = sycl::reduction(isum, sycl::plus<int>());
    h.parallel_for<KRed>(sycl::range<1>(128), red, [=](sycl::id<1> i, auto &sum) { sum += (int)i[0]; });
  });
  q.submit([&](sycl::handler &h) {
    auto red = sycl::reduction(out, 0.0f, sycl::plus<float>());
    h.parallel_for<KRedNd>(sycl::nd_range<1>(64, 16), red, [=](sycl::nd_item<1> it, auto &sum) { sum += in[it.get_global_id(0)]; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAtomic>(sycl::range<1>(128), [=](sycl::id<1> i, sycl::kernel_handler kh) {
      sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device> a(*isum);
      a.fetch_add((int)((unsigned)i[0] & kh.get_specialization_constant<maskId>()) + kh.get_specialization_constant<biasId>());
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KGroup>(sycl::nd_range<1>(64, 16), [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
      auto sg = it.get_sub_group();
      float v = in[it.get_global_id(0)] * kh.get_specialization_constant<weightId>();
      float m = sycl::reduce_over_group(sg, v, sycl::maximum<float>());
      bool any = sycl::any_of_group(it.get_group(), v > kh.get_specialization_constant<biasId>());
      out[it.get_global_id(0)] = any ? m : -m;
    });
  });
}
