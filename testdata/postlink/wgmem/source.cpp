// work_group_memory (a kernel argument backed by local memory), group_load / group_store of
// sycl_ext_oneapi_group_load_store with blocked and striped properties, a local_accessor kernel.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
class KWgMem;
class KWgMemArr;
class KGroupLS;
class KGroupLSStriped;
void run(sycl::queue &q, int *in, int *out) {
  q.submit([&](sycl::handler &h) {
    syclex::work_group_memory<int> m{h};
    h.parallel_for<KWgMem>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      if (it.get_local_linear_id() == 0) m = in[it.get_group_linear_id()];
      sycl::group_barrier(it.get_group());
      out[it.get_global_linear_id()] = m;
    });
  });
  q.submit([&](sycl::handler &h) {
    syclex::work_group_memory<int[16]> m{h};
    h.parallel_for<KWgMemArr>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      size_t l = it.get_local_linear_id();
      m[l] = in[it.get_global_linear_id()];
      sycl::group_barrier(it.get_group());
      out[it.get_global_linear_id()] = m[15 - l];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KGroupLS>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      int v[4];
      auto g = it.get_group();
      syclex::group_load(g, in + g.get_group_linear_id() * 64, sycl::span<int, 4>(v));
      for (int &x : v) x += 1;
      syclex::group_store(g, sycl::span<int, 4>(v), out + g.get_group_linear_id() * 64);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KGroupLSStriped>(sycl::nd_range<1>(32, 16), [=](sycl::nd_item<1> it) {
      int v[2];
      auto sg = it.get_sub_group();
      constexpr auto props = syclex::properties{syclex::data_placement_striped};
      syclex::group_load(sg, in + it.get_global_linear_id() / 16 * 32, sycl::span<int, 2>(v), props);
      syclex::group_store(sg, sycl::span<int, 2>(v), out + it.get_global_linear_id() / 16 * 32, props);
    });
  });
}
