// Spec constants beside a reduction and local memory: an nd_range kernel staging scaled input in a
// local_accessor (scale and neighbour shift from spec constants, an added int constant), an
// nd_range kernel adding the same int constant before reduce_over_group, and a sycl::reduction
// kernel without constants (DPC++'s reduction parallel_for does not pass a kernel_handler to its
// body, so a reduction's own kernel cannot read spec constants). Outputs: KLocal (nd_range 16,
// local 8) out[g] = tile * in[base + (l + shift) % 8] + add, base = g - l; KGroupRed (nd_range
// 16, local 8) sums[grp] = sum over the group of (in[g] + add); KRedPlain *sum += sum of in[i].
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> addId(2);
constexpr sycl::specialization_id<int> tileId(4);
constexpr sycl::specialization_id<unsigned char> shiftId(1);
class KLocal;
class KGroupRed;
class KRedPlain;
void run(sycl::queue &q, const int *in, int *out, int *sums, int *sum) {
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> loc(8, h);
    h.parallel_for<KLocal>(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
      size_t l = it.get_local_id(0), g = it.get_global_id(0);
      loc[l] = kh.get_specialization_constant<tileId>() * in[g];
      sycl::group_barrier(it.get_group());
      out[g] = loc[(l + kh.get_specialization_constant<shiftId>()) % 8] + kh.get_specialization_constant<addId>();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KGroupRed>(sycl::nd_range<1>(16, 8), [=](sycl::nd_item<1> it, sycl::kernel_handler kh) {
      int v = in[it.get_global_id(0)] + kh.get_specialization_constant<addId>();
      int s = sycl::reduce_over_group(it.get_group(), v, sycl::plus<int>());
      if (it.get_local_id(0) == 0) sums[it.get_group(0)] = s;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KRedPlain>(sycl::range<1>(16), sycl::reduction(sum, sycl::plus<int>()),
                              [=](sycl::id<1> i, auto &s) { s += in[i]; });
  });
}
