// Spec constants of many types (bool, char, short, int, long long, float, double, a struct with
// padding, an array) shared among kernels in different combinations, and a kernel with none:
// per-image numbering in split images, composite descriptors, default values.
#include <sycl/sycl.hpp>
struct Padded { char c; double d; short s; };
struct Arr { int v[3]; };
constexpr sycl::specialization_id<bool> boolId(true);
constexpr sycl::specialization_id<char> charId('x');
constexpr sycl::specialization_id<short> shortId(-7);
constexpr sycl::specialization_id<int> intId(1000);
constexpr sycl::specialization_id<long long> llId(1ll << 40);
constexpr sycl::specialization_id<float> floatId(0.25f);
constexpr sycl::specialization_id<double> doubleId(-3.5);
constexpr sycl::specialization_id<Padded> paddedId(Padded{'p', 2.5, 12});
constexpr sycl::specialization_id<Arr> arrId(Arr{{4, 5, 6}});
class KIntDouble;
class KIntFloatStruct;
class KSmall;
class KArr;
class KNoSpec;
void run(sycl::queue &q, long long *o) {
  // o[0] = int, o[1] = double bits
  q.submit([&](sycl::handler &h) {
    h.single_task<KIntDouble>([=](sycl::kernel_handler kh) {
      o[0] = kh.get_specialization_constant<intId>();
      double d = kh.get_specialization_constant<doubleId>();
      o[1] = sycl::bit_cast<long long>(d);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KIntFloatStruct>([=](sycl::kernel_handler kh) {
      Padded p = kh.get_specialization_constant<paddedId>();
      o[2] = kh.get_specialization_constant<intId>() + p.s;
      o[3] = sycl::bit_cast<int>(kh.get_specialization_constant<floatId>());
      o[4] = p.c + sycl::bit_cast<long long>(p.d);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KSmall>([=](sycl::kernel_handler kh) {
      o[5] = kh.get_specialization_constant<boolId>() ? 1 : 0;
      o[6] = kh.get_specialization_constant<charId>();
      o[7] = kh.get_specialization_constant<shortId>();
      o[8] = kh.get_specialization_constant<llId>();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KArr>([=](sycl::kernel_handler kh) {
      Arr a = kh.get_specialization_constant<arrId>();
      o[9] = a.v[0] * 100 + a.v[1] * 10 + a.v[2] + kh.get_specialization_constant<llId>();
    });
  });
  q.submit([&](sycl::handler &h) { h.single_task<KNoSpec>([=] { o[10] = 10; }); });
}
