// One kernel template instantiated for int, float, double and sycl::half (names
// KT<int>, KT<float>, KT<double>, KT<half>), a functor template instantiated twice with different
// non-type arguments, and a generic lambda kernel in a function template: per_source groups them
// by aspects (fp64, fp16, none).
#include <sycl/sycl.hpp>
template <typename T> class KT;
template <int N> struct Stride {
  int *p;
  void operator()(sycl::id<1> i) const { p[i * N] += N; }
};
template <typename T> void axpy(sycl::queue &q, T *x, T *y, T a) {
  q.submit([&](sycl::handler &h) {
    h.parallel_for<KT<T>>(sycl::range<1>(64), [=](sycl::id<1> i) { y[i] = a * x[i] + y[i]; });
  });
}
template <typename T> class KFill;
template <typename T> void fill(sycl::queue &q, T *p, T v) {
  q.submit([&](sycl::handler &h) { h.single_task<KFill<T>>([=] { p[0] = v; p[1] = v + v; }); });
}
void run(sycl::queue &q, int *i, float *f, double *d, sycl::half *hp) {
  axpy<int>(q, i, i + 64, 3);
  axpy<float>(q, f, f + 64, 1.5f);
  axpy<double>(q, d, d + 64, 2.25);
  axpy<sycl::half>(q, hp, hp + 64, sycl::half(0.5f));
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(8), Stride<2>{i}); });
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(8), Stride<4>{i}); });
  fill<long long>(q, reinterpret_cast<long long *>(d), 1ll << 40);
  fill<double>(q, d, 0.125);
}
