// Spec constants read in helpers the default -O2 inliner folds into the kernels (no flags): a
// helper reading an int constant through kernel_handler, called by a kernel that reads another
// int constant itself before the call, a second kernel reading that other constant only, a float
// helper called by two kernels, and a SYCL_EXTERNAL function reading a constant (inlined, kept
// as a definition only where called). DPC++'s SpecConstantsPass numbers in the markers' LLVM
// use-list order, which inlining changes in the unsplit module but not in cloned split modules.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> sc_outer(5);
constexpr sycl::specialization_id<int> sc_inner(7);
constexpr sycl::specialization_id<float> sc_fa(1.5f);
constexpr sycl::specialization_id<float> sc_fb(2.5f);
constexpr sycl::specialization_id<int> sc_ext(11);
static int inner_scaled(sycl::kernel_handler &kh, int x) { return x * kh.get_specialization_constant<sc_inner>(); }
static float fscale(sycl::kernel_handler &kh, float v) { return v * kh.get_specialization_constant<sc_fb>(); }
SYCL_EXTERNAL int ext_offset(sycl::kernel_handler &kh, int x) { return x + kh.get_specialization_constant<sc_ext>(); }
class KOuterInner;
class KOuter;
class KFloat1;
class KFloat2;
class KExt;
void run(sycl::queue &q, int *x, float *f) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KOuterInner>([=](sycl::kernel_handler kh) { x[0] = kh.get_specialization_constant<sc_outer>() + inner_scaled(kh, x[1]); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KOuter>([=](sycl::kernel_handler kh) { x[2] = kh.get_specialization_constant<sc_outer>(); }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KFloat1>([=](sycl::kernel_handler kh) { f[0] = kh.get_specialization_constant<sc_fa>() + fscale(kh, f[1]); });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KFloat2>([=](sycl::kernel_handler kh) { f[2] = fscale(kh, f[3]); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KExt>([=](sycl::kernel_handler kh) { x[3] = ext_offset(kh, x[4]); }); });
}
