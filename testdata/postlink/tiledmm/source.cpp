// A small tiled matrix multiply application: KTiledMM (nd_range 8x8, local 4x4) stages 4x4 tiles
// of A and B in two 1-D local_accessors with group_barrier between phases; the tile size is an int
// spec constant (default 4) used in the index arithmetic and the tile count (8 / tile), alpha a
// float spec constant scaling the result; KNaiveMM (range 8x8, range rounding) is the plain int
// matrix multiply with no constants; KTranspose (nd_range 8x8, local 4x4) transposes through one
// local tile. Matrices are 8x8 row-major, A[i][j] = i + j, B[i][j] = i - j (as float for KTiledMM,
// int for the others). KTiledMM: C[i][j] = alpha * sum_k A[i][k] * B[k][j]; KNaiveMM the same sum
// without alpha; KTranspose: T[j][i] = A[i][j].
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> tileId(4);
constexpr sycl::specialization_id<float> alphaId(1.0f);
class KTiledMM;
class KNaiveMM;
class KTranspose;
void run(sycl::queue &q, const float *a, const float *b, float *c, const int *ai, const int *bi,
         int *ci, int *t) {
  constexpr int n = 8;
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<float, 1> ta(16, h), tb(16, h);
    h.parallel_for<KTiledMM>(sycl::nd_range<2>({8, 8}, {4, 4}), [=](sycl::nd_item<2> it, sycl::kernel_handler kh) {
      const int tile = kh.get_specialization_constant<tileId>();
      const int li = it.get_local_id(0), lj = it.get_local_id(1);
      const int i = it.get_global_id(0), j = it.get_global_id(1);
      float acc = 0.0f;
      for (int p = 0; p < n / tile; ++p) {
        ta[li * tile + lj] = a[i * n + p * tile + lj];
        tb[li * tile + lj] = b[(p * tile + li) * n + j];
        sycl::group_barrier(it.get_group());
        for (int k = 0; k < tile; ++k) acc += ta[li * tile + k] * tb[k * tile + lj];
        sycl::group_barrier(it.get_group());
      }
      c[i * n + j] = kh.get_specialization_constant<alphaId>() * acc;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KNaiveMM>(sycl::range<2>(8, 8), [=](sycl::item<2> it) {
      const int i = it.get_id(0), j = it.get_id(1);
      int acc = 0;
      for (int k = 0; k < n; ++k) acc += ai[i * n + k] * bi[k * n + j];
      ci[i * n + j] = acc;
    });
  });
  q.submit([&](sycl::handler &h) {
    sycl::local_accessor<int, 1> tl(16, h);
    h.parallel_for<KTranspose>(sycl::nd_range<2>({8, 8}, {4, 4}), [=](sycl::nd_item<2> it) {
      const int li = it.get_local_id(0), lj = it.get_local_id(1);
      const int gi = it.get_group(0) * 4, gj = it.get_group(1) * 4;
      tl[lj * 4 + li] = ai[(gi + li) * n + gj + lj];
      sycl::group_barrier(it.get_group());
      t[(gj + li) * n + gi + lj] = tl[li * 4 + lj];
    });
  });
}
