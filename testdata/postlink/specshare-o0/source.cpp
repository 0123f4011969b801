// The source of specshare, built with -O0 (no inlining; every kernel keeps its spec-constant
// buffer argument).
// One specialization_id read through get_specialization_constant in a kernel lambda and in a
// functor's operator()(kernel_handler), a float constant beside it in the lambda, and a short
// constant read only inside a static noinline helper (no SYCL_EXTERNAL) that two lambda kernels
// and an nd_range functor call: per_kernel, every image whose kernel reaches the helper must
// describe the helper's constant. Outputs (int o[]): KLambda o[0] = 7 * scale, o[1] = int(4 *
// bias); FScale o[2] = 11 * scale; KHelp1 o[3] = 2 * only; KHelp2 o[4] = 5 * only + 1; FBoth
// (nd_range 4, local 4) o[8 + i] = i * scale + only; KPlainS o[5] = 5.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> scaleId(3);
constexpr sycl::specialization_id<float> biasId(0.5f);
constexpr sycl::specialization_id<short> onlyId(-9);
static __attribute__((noinline)) int times_only(sycl::kernel_handler &kh, int x) {
  return x * kh.get_specialization_constant<onlyId>();
}
class KLambda;
class KHelp1;
class KHelp2;
class KPlainS;
struct FScale {
  int *o;
  void operator()(sycl::kernel_handler kh) const { o[2] = 11 * kh.get_specialization_constant<scaleId>(); }
};
struct FBoth {
  int *o;
  void operator()(sycl::nd_item<1> it, sycl::kernel_handler kh) const {
    int i = static_cast<int>(it.get_global_id(0));
    o[8 + i] = i * kh.get_specialization_constant<scaleId>() + times_only(kh, 1);
  }
};
void run(sycl::queue &q, int *o) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KLambda>([=](sycl::kernel_handler kh) {
      o[0] = 7 * kh.get_specialization_constant<scaleId>();
      o[1] = static_cast<int>(4.0f * kh.get_specialization_constant<biasId>());
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task(FScale{o}); });
  q.submit([&](sycl::handler &h) { h.single_task<KHelp1>([=](sycl::kernel_handler kh) { o[3] = times_only(kh, 2); }); });
  q.submit([&](sycl::handler &h) { h.single_task<KHelp2>([=](sycl::kernel_handler kh) { o[4] = times_only(kh, 5) + 1; }); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::nd_range<1>(4, 4), FBoth{o}); });
  q.submit([&](sycl::handler &h) { h.single_task<KPlainS>([=] { o[5] = 5; }); });
}
