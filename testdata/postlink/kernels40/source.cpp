// 40 kernels made by a macro with few shared helpers: K<N> for N in 0..39, where N % 5 == 1 uses
// double, N % 5 == 2 uses half, N % 5 == 3 calls a noinline helper shared by those kernels,
// N % 10 == 4 uses both double and half, the rest plain int; kernels are submitted in an order
// different from their numbering, so per_source categories (fp64, fp16, fp64+fp16, none) and the
// image order within and across categories both show.
#include <sycl/sycl.hpp>
template <int N> class K;
__attribute__((noinline)) int shared_mix(int x) { return (x ^ 0x3c) * 5; }
template <int N> void launch(sycl::queue &q, int *x, double *d, sycl::half *hp) {
  q.submit([&](sycl::handler &h) {
    h.single_task<K<N>>([=] {
      if constexpr (N % 10 == 4) {
        d[N] = d[N + 1] * 0.5;
        hp[N] = hp[N + 1] + sycl::half(1.0f);
      } else if constexpr (N % 5 == 1) {
        d[N] = d[N + 1] * 3.0 + N;
      } else if constexpr (N % 5 == 2) {
        hp[N] = hp[N + 1] * sycl::half(2.0f);
      } else if constexpr (N % 5 == 3) {
        x[N] = shared_mix(x[N + 1]) + N;
      } else {
        x[N] = N;
      }
    });
  });
}
#define L(n) launch<n>(q, x, d, hp);
void run(sycl::queue &q, int *x, double *d, sycl::half *hp) {
  L(39) L(0) L(21) L(2) L(13) L(4) L(35) L(6) L(17) L(8) L(19) L(10) L(31) L(12) L(3) L(14)
  L(25) L(16) L(7) L(18) L(9) L(20) L(1) L(22) L(33) L(24) L(15) L(26) L(37) L(28) L(29)
  L(30) L(11) L(32) L(23) L(34) L(5) L(36) L(27) L(38)
}
