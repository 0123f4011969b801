// A "library" translation unit: 32 tiny single_task kernels K00..K31 from a macro, sharing one int
// spec constant (read by every kernel whose number is not a multiple of 4) and three noinline
// helpers (number % 3 picks h_add, h_mul or h_xor), all in one source; run with the default split
// (auto) beside the explicit modes, to see which split auto picks for a many-kernel TU.
// Outputs (int o[]): K<N> o[N] = helper(N, c) with c = the constant (default 6) for N % 4 != 0,
// else helper(N, 1); h_add(x, y) = x + y, h_mul(x, y) = x * y, h_xor(x, y) = x ^ y.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> libId(6);
__attribute__((noinline)) int h_add(int x, int y) { return x + y; }
__attribute__((noinline)) int h_mul(int x, int y) { return x * y; }
__attribute__((noinline)) int h_xor(int x, int y) { return x ^ y; }
#define HELPER(N, X, Y) ((N) % 3 == 0 ? h_add(X, Y) : (N) % 3 == 1 ? h_mul(X, Y) : h_xor(X, Y))
#define KERNEL(N)                                                                             \
  class K##N;                                                                                 \
  static void submit_##N(sycl::queue &q, int *o) {                                           \
    q.submit([&](sycl::handler &h) {                                                          \
      h.single_task<class K##N>([=](sycl::kernel_handler kh) {                                \
        int y = (1##N - 100) % 4 != 0 ? kh.get_specialization_constant<libId>() : 1;          \
        o[1##N - 100] = HELPER(1##N - 100, 1##N - 100, y);                                    \
      });                                                                                     \
    });                                                                                       \
  }
KERNEL(00) KERNEL(01) KERNEL(02) KERNEL(03) KERNEL(04) KERNEL(05) KERNEL(06) KERNEL(07)
KERNEL(08) KERNEL(09) KERNEL(10) KERNEL(11) KERNEL(12) KERNEL(13) KERNEL(14) KERNEL(15)
KERNEL(16) KERNEL(17) KERNEL(18) KERNEL(19) KERNEL(20) KERNEL(21) KERNEL(22) KERNEL(23)
KERNEL(24) KERNEL(25) KERNEL(26) KERNEL(27) KERNEL(28) KERNEL(29) KERNEL(30) KERNEL(31)
void run(sycl::queue &q, int *o) {
  submit_00(q, o); submit_01(q, o); submit_02(q, o); submit_03(q, o); submit_04(q, o);
  submit_05(q, o); submit_06(q, o); submit_07(q, o); submit_08(q, o); submit_09(q, o);
  submit_10(q, o); submit_11(q, o); submit_12(q, o); submit_13(q, o); submit_14(q, o);
  submit_15(q, o); submit_16(q, o); submit_17(q, o); submit_18(q, o); submit_19(q, o);
  submit_20(q, o); submit_21(q, o); submit_22(q, o); submit_23(q, o); submit_24(q, o);
  submit_25(q, o); submit_26(q, o); submit_27(q, o); submit_28(q, o); submit_29(q, o);
  submit_30(q, o); submit_31(q, o);
}
