// sycl::marray math: marray<float,4> sin/fma/fmax, marray<double,3> sqrt (fp64), marray<half,2>
// exp (fp16), marray<int,5> integer builtins (abs/clamp), marray<bool> any/all.
#include <sycl/sycl.hpp>
class KMF;
class KMD;
class KMH;
class KMI;
void run(sycl::queue &q, sycl::marray<float, 4> *mf, sycl::marray<double, 3> *md, sycl::marray<sycl::half, 2> *mh,
         sycl::marray<int, 5> *mi, int *r) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KMF>(sycl::range<1>(4), [=](sycl::id<1> i) {
      mf[i] = sycl::fma(sycl::sin(mf[i]), mf[i + 4], sycl::fmax(mf[i], 0.5f));
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KMD>([=] { md[0] = sycl::sqrt(md[1]) + md[2] * 2.0; }); });
  q.submit([&](sycl::handler &h) { h.single_task<KMH>([=] { mh[0] = sycl::exp(mh[1]); }); });
  q.submit([&](sycl::handler &h) {
    h.single_task<KMI>([=] {
      mi[0] = sycl::clamp(sycl::abs(mi[1]), 0, 100);
      r[0] = sycl::any(mi[0] > 50) + 2 * sycl::all(mi[1] != 0);
    });
  });
}
