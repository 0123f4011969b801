// sycl::reduction: parallel_for over a range with one reduction (plus, USM), with two reductions
// (plus + maximum, buffers), and an nd_range parallel_for with a minimum reduction; DPC++'s
// reduction implementation generates auxiliary kernels beside the user's.
#include <sycl/sycl.hpp>
class KRedSum;
class KRedTwo;
class KRedNd;
void run(sycl::queue &q, int *in, int *sum, float *fin, size_t n) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KRedSum>(sycl::range<1>(n), sycl::reduction(sum, sycl::plus<int>()),
                            [=](sycl::id<1> i, auto &s) { s += in[i]; });
  });
  sycl::buffer<int> bs(1);
  sycl::buffer<float> bm(1);
  q.submit([&](sycl::handler &h) {
    auto rs = sycl::reduction(bs, h, sycl::plus<int>());
    auto rm = sycl::reduction(bm, h, sycl::maximum<float>());
    h.parallel_for<KRedTwo>(sycl::range<1>(n), rs, rm, [=](sycl::id<1> i, auto &s, auto &m) {
      s += in[i] * 2;
      m.combine(fin[i]);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KRedNd>(sycl::nd_range<1>(n, 16), sycl::reduction(sum + 1, sycl::minimum<int>()),
                           [=](sycl::nd_item<1> it, auto &m) { m.combine(in[it.get_global_id(0)]); });
  });
}
