// -fsycl-allow-device-image-dependencies with spec constants inside SYCL_EXTERNAL functions: one
// reads a constant through a kernel_handler& parameter (its image has no kernel), one calls it,
// a declared-only SYCL_EXTERNAL taking a kernel_handler&, a kernel with its own constant as well.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> kA(3);
constexpr sycl::specialization_id<float> kB(2.5f);
constexpr sycl::specialization_id<short> kC(7);
SYCL_EXTERNAL __attribute__((noinline)) int ext_spec(sycl::kernel_handler &kh, int x) {
  return x * kh.get_specialization_constant<kA>();
}
SYCL_EXTERNAL __attribute__((noinline)) float ext_spec2(sycl::kernel_handler &kh, float y) {
  return y * kh.get_specialization_constant<kB>() + ext_spec(kh, 1);
}
SYCL_EXTERNAL int ext_spec_decl(sycl::kernel_handler &kh, int x);
class KSpecA;
class KSpecB;
class KSpecDecl;
class KSpecOwn;
void run(sycl::queue &q, int *a, float *f) {
  q.submit([&](sycl::handler &h) { h.single_task<KSpecA>([=](sycl::kernel_handler kh) { a[0] = ext_spec(kh, a[1]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KSpecB>([=](sycl::kernel_handler kh) { f[0] = ext_spec2(kh, f[1]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KSpecDecl>([=](sycl::kernel_handler kh) { a[2] = ext_spec_decl(kh, a[3]); }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KSpecOwn>([=](sycl::kernel_handler kh) { a[4] = kh.get_specialization_constant<kC>() + ext_spec(kh, 2); });
  });
}
