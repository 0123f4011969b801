// Many kernels mixing spec constants (bool, half, struct with an array, array of float) and
// device globals (plain, device_image_scope used by one kernel, host_access_read_write,
// host_access_none, a struct-typed one); constants shared by several kernels in different
// combinations; a kernel with neither; fp16 from a half spec constant.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
struct Cfg { int n; float scale[2]; bool on; };
constexpr sycl::specialization_id<bool> flagId(false);
constexpr sycl::specialization_id<sycl::half> halfId(1.5f);
constexpr sycl::specialization_id<Cfg> cfgId(Cfg{3, {0.5f, 2.0f}, true});
struct F4 { float v[4]; };
constexpr sycl::specialization_id<F4> f4Id(F4{{1.f, 2.f, 3.f, 4.f}});
struct Pair { int a; long b; };
syclex::device_global<int> dg_count;
syclex::device_global<float[8], decltype(syclex::properties{syclex::device_image_scope})> dg_table;
syclex::device_global<Pair, decltype(syclex::properties{syclex::host_access_read_write})> dg_pair;
syclex::device_global<int, decltype(syclex::properties{syclex::host_access_none})> dg_hidden;
class KFlagCount;
class KHalfTable;
class KCfgPair;
class KAll;
class KPlainMix;
void run(sycl::queue &q, float *f, int *a) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KFlagCount>([=](sycl::kernel_handler kh) {
      if (kh.get_specialization_constant<flagId>()) dg_count = dg_count + 1;
      a[0] = dg_count;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KHalfTable>(sycl::range<1>(8), [=](sycl::item<1> it, sycl::kernel_handler kh) {
      sycl::half x = kh.get_specialization_constant<halfId>();
      dg_table[it.get_linear_id()] = static_cast<float>(x) * f[it.get_linear_id()];
      f[it.get_linear_id()] = dg_table[7 - it.get_linear_id()];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KCfgPair>([=](sycl::kernel_handler kh) {
      Cfg c = kh.get_specialization_constant<cfgId>();
      Pair p = dg_pair;
      a[1] = c.on ? c.n + p.a : static_cast<int>(p.b);
      f[9] = c.scale[0] + c.scale[1];
      dg_hidden = a[2];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KAll>([=](sycl::kernel_handler kh) {
      F4 v = kh.get_specialization_constant<f4Id>();
      Cfg c = kh.get_specialization_constant<cfgId>();
      bool b = kh.get_specialization_constant<flagId>();
      f[10] = v.v[0] + v.v[3] * c.scale[1] + (b ? 1.f : 0.f);
      a[3] = dg_count + dg_hidden + dg_pair.get().a;
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainMix>([=] { a[4] = 7; }); });
}
