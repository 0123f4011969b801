// Kernels as named functor classes (operator() with kernel_handler) and a templated
// functor kernel instantiated for int, float, double; templated spec-constant ids.
#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> scaleId(3);
constexpr sycl::specialization_id<float> offsetId(0.5f);
template <typename T> constexpr sycl::specialization_id<T> typedId(T(7));

struct Scale {
  int *out;
  void operator()(sycl::item<1> it, sycl::kernel_handler kh) const {
    out[it.get_linear_id()] = (int)it.get_linear_id() * kh.get_specialization_constant<scaleId>();
  }
};

template <typename T> struct Axpy {
  T *x; T *y;
  void operator()(sycl::id<1> i, sycl::kernel_handler kh) const {
    T a = kh.get_specialization_constant<typedId<T>>();
    y[i] = a * x[i] + (T)kh.get_specialization_constant<offsetId>();
  }
};

struct Single {
  double *out;
  void operator()(sycl::kernel_handler kh) const {
    out[0] = kh.get_specialization_constant<typedId<double>>() + kh.get_specialization_constant<scaleId>();
  }
};

template <typename T> void axpy(sycl::queue &q, T *x, T *y) {
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(8), Axpy<T>{x, y}); });
}

void run(sycl::queue &q, int *oi, float *of, double *od) {
  q.submit([&](sycl::handler &h) { h.parallel_for(sycl::range<1>(8), Scale{oi}); });
  axpy<int>(q, oi, oi + 8);
  axpy<float>(q, of, of + 8);
  axpy<double>(q, od, od + 8);
  q.submit([&](sycl::handler &h) { h.single_task(Single{od}); });
}
