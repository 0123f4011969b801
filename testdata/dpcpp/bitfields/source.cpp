#include <sycl/sycl.hpp>
// Bit-fields: clang gives the default value other types than the struct's own (bytes where the
// struct has a 16- or 32-bit storage unit). A leaf's default is the default's bytes where the
// leaf lies; DPC++ passes only the byte found at the leaf's offset to __spirv_SpecConstant, so
// its own native image reads these defaults wrong (run.json: dpcpp_native_wrong).
struct Odd { unsigned short a : 6; short b : 7; int c : 28; short d : 13; };
struct Wide { long long x : 25; unsigned y : 26; };
struct Mixed { unsigned a : 3; unsigned b : 5; int c : 12; char d; };
constexpr sycl::specialization_id<Odd> oddId(Odd{5, -63, 134217727, -2970});
constexpr sycl::specialization_id<Wide> wideId(Wide{15274472, 3});
constexpr sycl::specialization_id<Mixed> mixedId(Mixed{5, 17, -100, 'k'});
class KB;
void run(sycl::queue &q, long long *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KB>([=](sycl::kernel_handler kh) {
      auto o = kh.get_specialization_constant<oddId>();
      out[0] = o.a; out[1] = o.b; out[2] = o.c; out[3] = o.d;
      auto w = kh.get_specialization_constant<wideId>();
      out[4] = w.x; out[5] = w.y;
      auto m = kh.get_specialization_constant<mixedId>();
      out[6] = m.a; out[7] = m.b; out[8] = m.c; out[9] = m.d;
    });
  });
}
