#include <sycl/sycl.hpp>
// Helpers that are not inlined and take the kernel_handler: at -O2 the front end's JIT image
// passes them the handler's spec-constant buffer pointer, which is null there (OpConstantNull),
// and the marker calls in them take it as their RTBuffer. In emulation mode that parameter
// carries no buffer: the buffer spec-link appends must reach these calls instead. The pointer
// may reach them as an integer (the handler taken apart), merged by an OpPhi, or through a
// kernel_handler passed by value.
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
template <auto &Id> __attribute__((noinline)) auto rd(sycl::kernel_handler &kh) {
  return kh.get_specialization_constant<Id>();
}
static float branchy(sycl::kernel_handler &kh, int k) {
  float r;
  if (k & 1) r = rd<fId>(kh) * 2; else r = rd<fId>(kh) + 1;
  return r + rd<sId>(kh);
}
__attribute__((noinline)) static float outer(sycl::kernel_handler &kh, int k) {
  return branchy(kh, k) + branchy(kh, k + 1);
}
__attribute__((noinline)) static short byValue(sycl::kernel_handler kh) {
  return kh.get_specialization_constant<sId>();
}
static float byValueInner(sycl::kernel_handler kh) { return rd<fId>(kh); }
static float refToValue(sycl::kernel_handler &kh) { return byValueInner(kh); }
__attribute__((noinline)) static float asInteger(sycl::kernel_handler &kh, int k) {
  return refToValue(kh) * k;
}
__attribute__((noinline)) static float pick(sycl::kernel_handler &a, sycl::kernel_handler &b, int k) {
  sycl::kernel_handler &h = (k & 1) ? a : b;
  return rd<fId>(h);
}
class KH;
void run(sycl::queue &q, float *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KH>([=](sycl::kernel_handler kh) {
      int k = (int)out[63]; // 0 when run, unknown to the compiler
      out[0] = leaf(kh);
      out[1] = middle(kh, 2);
      out[2] = kh.get_specialization_constant<sId>();
      out[3] = outer(kh, k);
      out[4] = byValue(kh);
      out[5] = rd<pairId>(kh).a;
      out[6] = asInteger(kh, k + 3);
      sycl::kernel_handler other = kh;
      out[7] = pick(kh, other, k);
    });
  });
}
