#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> shId(1);
constexpr sycl::specialization_id<float> scId(2.0f);
constexpr sycl::specialization_id<unsigned> maskId(0xffu);
class KGrp; class KAtom;
void run(sycl::queue &q, float *out, int *cnt) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> loc(sycl::range<1>(64), h);
    h.parallel_for<KGrp>(sycl::nd_range<1>(128, 64), [=](sycl::nd_item<1> it, sycl::kernel_handler kh) [[sycl::reqd_sub_group_size(16)]] {
      auto sg = it.get_sub_group();
      float x = it.get_global_id(0) * kh.get_specialization_constant<scId>();
      x = sycl::shift_group_left(sg, x, kh.get_specialization_constant<shId>());
      x += sycl::select_from_group(sg, x, kh.get_specialization_constant<shId>() + 2);
      x += sycl::permute_group_by_xor(sg, x, kh.get_specialization_constant<maskId>() & 3);
      loc[it.get_local_id(0)] = x;
      sycl::group_barrier(it.get_group());
      float s = sycl::reduce_over_group(it.get_group(), loc[63 - it.get_local_id(0)], sycl::plus<float>());
      float e = sycl::exclusive_scan_over_group(sg, x, sycl::maximum<float>());
      bool any = sycl::any_of_group(sg, x > kh.get_specialization_constant<scId>());
      out[it.get_global_id(0)] = s + e + any;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAtom>(sycl::range<1>(256), [=](sycl::id<1> i, sycl::kernel_handler kh) {
      sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::device, sycl::access::address_space::global_space> a(cnt[0]);
      a.fetch_add(kh.get_specialization_constant<shId>());
      sycl::atomic_ref<unsigned, sycl::memory_order::acq_rel, sycl::memory_scope::work_group> b(*(unsigned *)&cnt[1]);
      b.fetch_or(kh.get_specialization_constant<maskId>());
      sycl::atomic_ref<float, sycl::memory_order::relaxed, sycl::memory_scope::device> c(out[0]);
      c.fetch_add(kh.get_specialization_constant<scId>());
      int exp = 0; a.compare_exchange_strong(exp, (int)i[0]);
    });
  });
}
