// Several compile-time kernel properties on one kernel, as a properties list from
// get(properties_tag) and as the equivalent attributes: work_group_size<8, 4> + sub_group_size<16>
// + device_has<fp16, atomic64> on a kernel that uses neither (PropsAll) against
// [[sycl::reqd_work_group_size(8, 4)]] + [[intel::reqd_sub_group_size(16)]] +
// [[sycl::device_has(fp16, atomic64)]] (KAttrAll); work_group_size_hint<16> + sub_group_size<8> +
// device_has<fp64> on a kernel that uses a double (PropsHintDbl) against the same attributes
// (KAttrHintDbl); max_linear_work_group_size<64> + sub_group_size<16> + device_has<atomic64> on a
// kernel with a 64-bit atomic (PropsLinearAtom); a plain nd_range kernel.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KAttrAll;
class KAttrHintDbl;
class KPlain;
struct PropsAll {
  int *out;
  void operator()(sycl::nd_item<2> it) const { out[it.get_global_linear_id()] = it.get_local_linear_id() * 2 + 1; }
  auto get(syclex::properties_tag) const {
    return syclex::properties{syclex::work_group_size<8, 4>, syclex::sub_group_size<16>,
                              syclex::device_has<sycl::aspect::fp16, sycl::aspect::atomic64>};
  }
};
struct PropsHintDbl {
  double *d;
  void operator()(sycl::nd_item<1> it) const { size_t g = it.get_global_linear_id(); d[g] = d[g] * 0.5 + 1.0; }
  auto get(syclex::properties_tag) const {
    return syclex::properties{syclex::work_group_size_hint<16>, syclex::sub_group_size<8>,
                              syclex::device_has<sycl::aspect::fp64>};
  }
};
struct PropsLinearAtom {
  unsigned long long *u;
  void operator()(sycl::nd_item<1> it) const {
    sycl::atomic_ref<unsigned long long, sycl::memory_order::relaxed, sycl::memory_scope::device> r(u[0]);
    r.fetch_add(0x100000000ull + it.get_local_linear_id());
  }
  auto get(syclex::properties_tag) const {
    return syclex::properties{syclex::max_linear_work_group_size<64>, syclex::sub_group_size<16>,
                              syclex::device_has<sycl::aspect::atomic64>};
  }
};
void run(sycl::queue &q, int *out, double *d, unsigned long long *u) {
  // out[g] = local linear id * 2 + 1 (work-group 8x4)
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<2>({8, 8}, {8, 4}), PropsAll{out}); });
  // out[g] = local linear id * 3 (work-group 8x4)
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAttrAll>(sycl::nd_range<2>({8, 8}, {8, 4}), [=](sycl::nd_item<2> it)
        [[sycl::reqd_work_group_size(8, 4), intel::reqd_sub_group_size(16), sycl::device_has(sycl::aspect::fp16, sycl::aspect::atomic64)]] {
          out[it.get_global_linear_id()] = it.get_local_linear_id() * 3;
        });
  });
  // d[g] = d[g] * 0.5 + 1
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(32, 16), PropsHintDbl{d}); });
  // d[g] = d[g] * 0.25 + 2
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAttrHintDbl>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it)
        [[sycl::work_group_size_hint(16), intel::reqd_sub_group_size(8), sycl::device_has(sycl::aspect::fp64)]] {
          size_t g = it.get_global_linear_id();
          d[g] = d[g] * 0.25 + 2.0;
        });
  });
  // u[0] += 32 * 2^32 + 2 * (0 + ... + 15)
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(32, 16), PropsLinearAtom{u}); });
  // out[g] = g + 7
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KPlain>(sycl::nd_range<1>(32, 8), [=](sycl::nd_item<1> it) { out[it.get_global_linear_id()] = it.get_global_linear_id() + 7; });
  });
}
