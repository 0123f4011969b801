#include <sycl/sycl.hpp>
constexpr sycl::specialization_id<int> aId(5);
constexpr sycl::specialization_id<double> dId(0.75);
constexpr sycl::specialization_id<short> sId(-3);
namespace a { namespace b { namespace c { namespace d {
template <int N, typename T> struct Deep {
  __attribute__((noinline)) static T go(sycl::kernel_handler &kh, T v) {
    return Deep<N - 1, T>::go(kh, v + (T)kh.get_specialization_constant<aId>());
  }
};
template <typename T> struct Deep<0, T> {
  __attribute__((noinline)) static T go(sycl::kernel_handler &kh, T v) { return v * (T)kh.get_specialization_constant<dId>(); }
};
}}}}
__attribute__((noinline)) int byValue(sycl::kernel_handler kh, int x) { return x + kh.get_specialization_constant<sId>(); }
__attribute__((noinline)) int byRef(const sycl::kernel_handler &kh, int x) {
  return x * const_cast<sycl::kernel_handler &>(kh).get_specialization_constant<aId>();
}
class KLam; class KDeep; class KVal;
void run(sycl::queue &q, double *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KLam>([=](sycl::kernel_handler kh) {
      auto f = [&](int x) { return x + kh.get_specialization_constant<aId>(); };
      auto g = [kh](double y) mutable { return y * kh.get_specialization_constant<dId>(); };
      auto hh = [](sycl::kernel_handler k) { return k.get_specialization_constant<sId>(); };
      out[0] = f(1) + g(2.0) + hh(kh);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KDeep>([=](sycl::kernel_handler kh) {
      out[1] = a::b::c::d::Deep<12, double>::go(kh, 1.0) + a::b::c::d::Deep<5, int>::go(kh, 2);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KVal>([=](sycl::kernel_handler kh) {
      out[2] = byValue(kh, 3) + byRef(kh, 4);
    });
  });
}
