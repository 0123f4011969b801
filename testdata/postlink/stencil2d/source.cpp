// A small 2-D stencil application on buffers: KStencil (range 6x6 over the interior of an 8x8
// grid) reads a 2-D read_only accessor and writes a write_only ranged accessor with offset {1, 1}
// (accessor offsets in the index arithmetic), the 5-point weights from a float spec constant;
// KCopyBack (range 6x7: range rounding gives it a RoundedRangeKernel twin) copies through a
// read_write accessor with offset {1, 0}; KBoundary (range 8) zeroes the grid's first and last row
// through a 2-D write_only accessor; KUsmStencil (range 6x6) the same 5-point stencil on USM with
// int weights. run.json runs KUsmStencil only: the other kernels take multi-dimensional accessor
// ranges, which the host program cannot pass.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<float> centerId(0.5f);
class KStencil;
class KCopyBack;
class KBoundary;
class KUsmStencil;
void run(sycl::queue &q, sycl::buffer<float, 2> &in, sycl::buffer<float, 2> &out, const int *ui,
         int *uo) {
  q.submit([&](sycl::handler &h) {
    sycl::accessor src(in, h, sycl::read_only);
    sycl::accessor dst(out, h, sycl::range<2>(6, 6), sycl::id<2>(1, 1), sycl::write_only);
    h.parallel_for<KStencil>(sycl::range<2>(6, 6), [=](sycl::item<2> it, sycl::kernel_handler kh) {
      const size_t i = it.get_id(0) + 1, j = it.get_id(1) + 1;
      const float c = kh.get_specialization_constant<centerId>();
      const float side = (1.0f - c) / 4.0f;
      dst[it.get_id()] = c * src[i][j] + side * (src[i - 1][j] + src[i + 1][j] + src[i][j - 1] + src[i][j + 1]);
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor acc(in, h, sycl::range<2>(6, 7), sycl::id<2>(1, 0), sycl::read_write);
    sycl::accessor src(out, h, sycl::read_only);
    h.parallel_for<KCopyBack>(sycl::range<2>(6, 7), [=](sycl::id<2> id) {
      acc[id] = src[id[0] + 1][id[1]];
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::accessor dst(in, h, sycl::write_only);
    h.parallel_for<KBoundary>(sycl::range<1>(8), [=](sycl::id<1> j) {
      dst[0][j] = 0.0f;
      dst[7][j] = 0.0f;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KUsmStencil>(sycl::range<2>(6, 6), [=](sycl::id<2> id) {
      const size_t i = id[0] + 1, j = id[1] + 1;
      uo[i * 8 + j] = 4 * ui[i * 8 + j] - ui[(i - 1) * 8 + j] - ui[(i + 1) * 8 + j] - ui[i * 8 + j - 1] - ui[i * 8 + j + 1];
    });
  });
}
