#include <sycl/sycl.hpp>
// Helpers that are not inlined and take the kernel_handler: at -O2 the front end's JIT image
// passes them the handler's spec-constant buffer pointer, which is null there (OpConstantNull),
// and the marker calls in them take it as their RTBuffer. In emulation mode that parameter
// carries no buffer: the buffer spec-link appends must reach these calls instead.
struct Pair { int a; float b; };
constexpr sycl::specialization_id<float> fId(1.5f);
constexpr sycl::specialization_id<Pair> pairId(Pair{4, 0.25f});
constexpr sycl::specialization_id<short> sId(-3);
__attribute__((noinline)) static float leaf(sycl::kernel_handler &kh) {
  return kh.get_specialization_constant<fId>();
}
__attribute__((noinline)) static float middle(sycl::kernel_handler &kh, int k) {
  auto p = kh.get_specialization_constant<pairId>();
  return leaf(kh) * k + p.a + p.b;
}
class KH;
void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KH>([=](sycl::kernel_handler kh) {
      out[0] = leaf(kh);
      out[1] = middle(kh, 2);
      out[2] = kh.get_specialization_constant<sId>();
    });
  });
}
