// sycl_ext_intel_grf_size: grf_size<256>, grf_size<128> and grf_size_automatic on kernels, and a
// plain kernel. The property is a kernel attribute (sycl-grf-size), a per_source category and
// [SYCL/misc properties] sycl-grf-size.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
namespace intelex = sycl::ext::intel::experimental;
struct Grf256 {
  int *out;
  void operator()() const { out[0] = 256; }
  auto get(syclex::properties_tag) const { return syclex::properties{intelex::grf_size<256>}; }
};
struct Grf128 {
  int *out;
  void operator()() const { out[1] = 128; }
  auto get(syclex::properties_tag) const { return syclex::properties{intelex::grf_size<128>}; }
};
struct GrfAuto {
  int *out;
  void operator()() const { out[2] = 1; }
  auto get(syclex::properties_tag) const { return syclex::properties{intelex::grf_size_automatic}; }
};
class KGrfPlain;
void run(sycl::queue &q, int *out) {
  q.submit([&](sycl::handler &h) { h.single_task(Grf256{out}); });
  q.submit([&](sycl::handler &h) { h.single_task(Grf128{out}); });
  q.submit([&](sycl::handler &h) { h.single_task(GrfAuto{out}); });
  q.submit([&](sycl::handler &h) { h.single_task<KGrfPlain>([=] { out[3] = 3; }); });
}
