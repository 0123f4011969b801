// sub_group_size<8>, <16>, <32> properties on several kernels (two share 16) and kernel names
// from namespaces, an anonymous namespace, a nested class, a kernel name template with a
// namespace argument, and an unnamed lambda inside a function template instantiated twice.
#include <sycl/sycl.hpp>
namespace syclex = sycl::ext::oneapi::experimental;
namespace outer { namespace inner { class KNs8; } class KNs16; }
namespace { class KAnon32; }
struct Holder { class KNested16; };
template <typename T> class KTpl;
namespace tag { struct T1 {}; }
template <typename T> void tmpl_launch(sycl::queue &q, T *out) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for(sycl::nd_range<1>(32, 32), syclex::properties{syclex::sub_group_size<32>},
                   [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] = static_cast<T>(it.get_sub_group().get_local_id()[0]); });
  });
}
void run(sycl::queue &q, int *out, float *fout) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<outer::inner::KNs8>(sycl::nd_range<1>(32, 32), syclex::properties{syclex::sub_group_size<8>},
                                       [=](sycl::nd_item<1> it) { out[it.get_global_id(0)] = it.get_sub_group().get_local_range()[0]; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<outer::KNs16>(sycl::nd_range<1>(32, 32), syclex::properties{syclex::sub_group_size<16>},
                                 [=](sycl::nd_item<1> it) { out[32 + it.get_global_id(0)] = it.get_sub_group().get_group_id()[0]; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KAnon32>(sycl::nd_range<1>(32, 32), syclex::properties{syclex::sub_group_size<32>},
                            [=](sycl::nd_item<1> it) { out[64 + it.get_global_id(0)] = 3; });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<Holder::KNested16>(sycl::nd_range<1>(32, 32), syclex::properties{syclex::sub_group_size<16>},
                                      [=](sycl::nd_item<1> it) { out[96 + it.get_global_id(0)] = 4; });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KTpl<tag::T1>>([=] { out[200] = 5; }); });
  tmpl_launch<int>(q, out + 300);
  tmpl_launch<float>(q, fout);
}
