// Compiled at -O0. A "library" translation unit with several shared spec constants: 16 single_task kernels L00..L15
// from a macro; kernel N reads constants cA (int), cB (float), cC (short), cD (unsigned char) in
// an order that depends on N % 4 (ABCD, DCBA, BDAC, CA), and N % 3 == 0 kernels also call a
// noinline helper reading cB and cD through kernel_handler&; two more noinline helpers without
// constants shared by all kernels. Outputs (float f[]): L<N> f[N] = the weighted sum in the source.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> cA(3);
constexpr sycl::specialization_id<float> cB(0.5f);
constexpr sycl::specialization_id<short> cC(-7);
constexpr sycl::specialization_id<unsigned char> cD(200);
__attribute__((noinline)) float h_spec(sycl::kernel_handler &kh, int n) {
  return kh.get_specialization_constant<cB>() * n + kh.get_specialization_constant<cD>();
}
__attribute__((noinline)) float h_scale(float x, int n) { return x * static_cast<float>(n + 1); }
__attribute__((noinline)) float h_off(float x) { return x - 1.0f; }
#define READ_ABCD kh.get_specialization_constant<cA>() + 2.0f * kh.get_specialization_constant<cB>() + 3.0f * kh.get_specialization_constant<cC>() + 4.0f * kh.get_specialization_constant<cD>()
#define READ_DCBA kh.get_specialization_constant<cD>() + 2.0f * kh.get_specialization_constant<cC>() + 3.0f * kh.get_specialization_constant<cB>() + 4.0f * kh.get_specialization_constant<cA>()
#define READ_BDAC kh.get_specialization_constant<cB>() + 2.0f * kh.get_specialization_constant<cD>() + 3.0f * kh.get_specialization_constant<cA>() + 4.0f * kh.get_specialization_constant<cC>()
#define READ_CA kh.get_specialization_constant<cC>() + 2.0f * kh.get_specialization_constant<cA>()
#define READ_0 READ_ABCD
#define READ_1 READ_DCBA
#define READ_2 READ_BDAC
#define READ_3 READ_CA
#define KERNEL(N, R, H)                                                                       \
  static void submit_##N(sycl::queue &q, float *f) {                                          \
    q.submit([&](sycl::handler &h) {                                                          \
      h.single_task<class L##N>([=](sycl::kernel_handler kh) {                                \
        float v = READ_##R;                                                                   \
        if (H) v += h_spec(kh, 1##N - 100);                                                   \
        f[1##N - 100] = h_off(h_scale(v, 1##N - 100));                                        \
      });                                                                                     \
    });                                                                                       \
  }
KERNEL(00, 0, 1) KERNEL(01, 1, 0) KERNEL(02, 2, 0) KERNEL(03, 3, 1)
KERNEL(04, 0, 0) KERNEL(05, 1, 0) KERNEL(06, 2, 1) KERNEL(07, 3, 0)
KERNEL(08, 0, 0) KERNEL(09, 1, 1) KERNEL(10, 2, 0) KERNEL(11, 3, 0)
KERNEL(12, 0, 1) KERNEL(13, 1, 0) KERNEL(14, 2, 0) KERNEL(15, 3, 1)
void run(sycl::queue &q, float *f) {
  submit_00(q, f); submit_01(q, f); submit_02(q, f); submit_03(q, f);
  submit_04(q, f); submit_05(q, f); submit_06(q, f); submit_07(q, f);
  submit_08(q, f); submit_09(q, f); submit_10(q, f); submit_11(q, f);
  submit_12(q, f); submit_13(q, f); submit_14(q, f); submit_15(q, f);
}
