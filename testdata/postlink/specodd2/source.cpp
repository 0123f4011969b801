// Spec constants of array-like and padded types at -O0: sycl::marray<float, 3> (12 bytes), a
// struct with tail padding (int then char: 8 bytes, 3 padding bytes at the end), a 2-D
// std::array<std::array<int, 2>, 3> read in a loop, and a kernel reading all three (optLevel 0:
// no inlining, the markers stay in the kernels' own functions). Outputs (int o[]): KMarr
// o[0..2] = bits(m[i]); KTail o[3] = t.i, o[4] = t.c; KGrid o[5 + 2r + c] = g[r][c];
// KAll o[11] = t.i + g[2][1] + int(m[1]).
#include <array>
#include <sycl/sycl.hpp>
struct TailPad { int i; char c; };
using Grid = std::array<std::array<int, 2>, 3>;
constexpr sycl::specialization_id<sycl::marray<float, 3>> marrId(sycl::marray<float, 3>{1.5f, -2.25f, 4.0f});
constexpr sycl::specialization_id<TailPad> tailId(TailPad{-5, 'q'});
constexpr sycl::specialization_id<Grid> gridId(Grid{{{{1, 2}}, {{3, 4}}, {{5, 6}}}});
class KMarr;
class KTail;
class KGrid;
class KAll;
void run(sycl::queue &q, int *o) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KMarr>([=](sycl::kernel_handler kh) {
      sycl::marray<float, 3> m = kh.get_specialization_constant<marrId>();
      for (int i = 0; i < 3; ++i) o[i] = sycl::bit_cast<int>(m[i]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KTail>([=](sycl::kernel_handler kh) {
      TailPad t = kh.get_specialization_constant<tailId>();
      o[3] = t.i;
      o[4] = t.c;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KGrid>([=](sycl::kernel_handler kh) {
      Grid g = kh.get_specialization_constant<gridId>();
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 2; ++c) o[5 + 2 * r + c] = g[r][c];
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KAll>([=](sycl::kernel_handler kh) {
      TailPad t = kh.get_specialization_constant<tailId>();
      Grid g = kh.get_specialization_constant<gridId>();
      sycl::marray<float, 3> m = kh.get_specialization_constant<marrId>();
      o[11] = t.i + g[2][1] + static_cast<int>(m[1]);
    });
  });
}
