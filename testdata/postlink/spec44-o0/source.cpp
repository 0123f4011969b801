// -O0 with 44 spec constants of four scalar types (sc_N: int, short, float, unsigned char by
// N % 4; default N + 1): KAll reads all 44 in descending order, KOdd the odd-numbered ones inside a
// noinline helper taking kernel_handler&, KFirst sc_0..sc_3 (no inlining: every marker call stays
// in its own function, the numbering follows the -O0 use lists). Outputs (long long out[]):
// KAll out[0], KOdd out[1], KFirst out[2] = sum over the constants read of (N + 1) * (long
// long)sc_N.
#include <sycl/sycl.hpp>
template <int K> struct Ty;
template <> struct Ty<0> { using type = int; };
template <> struct Ty<1> { using type = short; };
template <> struct Ty<2> { using type = float; };
template <> struct Ty<3> { using type = unsigned char; };
#define LIST(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31) X(32) X(33) X(34) X(35) X(36) X(37) X(38) X(39) X(40) X(41) X(42) X(43)
#define REVERSED(X) X(43) X(42) X(41) X(40) X(39) X(38) X(37) X(36) X(35) X(34) X(33) X(32) X(31) X(30) X(29) X(28) X(27) X(26) X(25) X(24) X(23) X(22) X(21) X(20) X(19) X(18) X(17) X(16) X(15) X(14) X(13) X(12) X(11) X(10) X(9) X(8) X(7) X(6) X(5) X(4) X(3) X(2) X(1) X(0)
#define ODD(X) X(1) X(3) X(5) X(7) X(9) X(11) X(13) X(15) X(17) X(19) X(21) X(23) X(25) X(27) X(29) X(31) X(33) X(35) X(37) X(39) X(41) X(43)
#define DECL(N) constexpr sycl::specialization_id<Ty<N % 4>::type> sc_##N(N + 1);
LIST(DECL)
#define ADD(N) s += (N + 1) * static_cast<long long>(kh.get_specialization_constant<sc_##N>());
__attribute__((noinline)) long long odd_sum(sycl::kernel_handler &kh) {
  long long s = 0;
  ODD(ADD)
  return s;
}
class KAll;
class KOdd;
class KFirst;
void run(sycl::queue &q, long long *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KAll>([=](sycl::kernel_handler kh) {
      long long s = 0;
      REVERSED(ADD)
      out[0] = s;
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KOdd>([=](sycl::kernel_handler kh) { out[1] = odd_sum(kh); }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KFirst>([=](sycl::kernel_handler kh) {
      long long s = 0;
      ADD(0) ADD(1) ADD(2) ADD(3)
      out[2] = s;
    });
  });
}
