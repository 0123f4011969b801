#include <sycl/sycl.hpp>
#include <sycl/ext/oneapi/bfloat16.hpp>
#include <complex>
#include <tuple>
using bf16 = sycl::ext::oneapi::bfloat16;
struct Empty {};
struct alignas(32) Over { int x; char c; };
struct WithOver { char a; Over o; short s; };
struct EmptyBase : Empty { int v; };
constexpr sycl::specialization_id<sycl::marray<float, 3>> maId(sycl::marray<float, 3>{1, 2, 3});
constexpr sycl::specialization_id<sycl::marray<bool, 5>> mbId(sycl::marray<bool, 5>{true, false, true, true, false});
constexpr sycl::specialization_id<sycl::vec<double, 16>> d16Id(sycl::vec<double, 16>(2.0));
constexpr sycl::specialization_id<sycl::vec<sycl::half, 16>> h16Id(sycl::vec<sycl::half, 16>(0.5f));
constexpr sycl::specialization_id<sycl::vec<char, 1>> c1Id(sycl::vec<char, 1>('x'));
constexpr sycl::specialization_id<Empty> eId;
constexpr sycl::specialization_id<WithOver> woId(WithOver{'a', Over{5, 'b'}, 7});
constexpr sycl::specialization_id<EmptyBase> ebId(EmptyBase{{}, 9});
constexpr sycl::specialization_id<std::array<std::array<char, 3>, 3>> aaId(std::array<std::array<char, 3>, 3>{{{'a','b','c'},{'d','e','f'},{'g','h','i'}}});
constexpr sycl::specialization_id<std::complex<double>> cxId(std::complex<double>(1.0, -2.0));
class KT3;
void run(sycl::queue &q, double *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KT3>([=](sycl::kernel_handler kh) {
      auto ma = kh.get_specialization_constant<maId>(); out[1] = ma[2];
      auto mb = kh.get_specialization_constant<mbId>(); out[2] = mb[0] + mb[3] * 2 + mb[4] * 4;
      auto d16 = kh.get_specialization_constant<d16Id>(); out[3] = d16[15];
      auto h16 = kh.get_specialization_constant<h16Id>(); out[4] = h16[7];
      out[5] = kh.get_specialization_constant<c1Id>()[0];
      auto e = kh.get_specialization_constant<eId>(); (void)e;
      auto wo = kh.get_specialization_constant<woId>(); out[6] = wo.a + wo.o.x + wo.o.c + wo.s;
      out[7] = kh.get_specialization_constant<ebId>().v;
      auto aa = kh.get_specialization_constant<aaId>(); out[8] = aa[2][1];
      auto cx = kh.get_specialization_constant<cxId>(); out[9] = cx.imag();
    });
  });
}
