// Spec constants whose layout has padding from alignment: struct {int; vec<float, 4>} (12 inner
// padding bytes before the 16-aligned vec), struct {vec<float, 4>; int} (12 tail padding bytes),
// std::array<vec<float, 3>, 2> (each vec3 stored as 16 bytes), struct {char; double} (7 inner
// padding bytes), marray<bool, 3>; one kernel per constant and one reading all of them.
// Outputs (int o[]): KPadV o[0] = a, o[1] = bits(v[3]); KTailV o[2] = bits(v[0]), o[3] = b;
// KVec3Arr o[4] = bits(x[0][2] + x[1][0]); KCharDbl o[5] = c, d[0] = cd.d; KBools o[6] = b0 + 2 b1
// + 4 b2; KAllPad o[7] = a + b + c + (b1 ? 100 : 0), o[8] = bits(v3[1][2]), d[1] = cd.d * 2.
#include <array>
#include <sycl/sycl.hpp>
struct PadV { int a; sycl::vec<float, 4> v; };
struct TailV { sycl::vec<float, 4> v; int b; };
struct CharDbl { char c; double d; };
using V3Arr = std::array<sycl::vec<float, 3>, 2>;
constexpr sycl::specialization_id<PadV> padId(PadV{5, sycl::vec<float, 4>(1.0f, 2.0f, 3.0f, 4.0f)});
constexpr sycl::specialization_id<TailV> tailId(TailV{sycl::vec<float, 4>(0.5f, 1.5f, 2.5f, 3.5f), 9});
constexpr sycl::specialization_id<V3Arr> v3Id(V3Arr{{sycl::vec<float, 3>(1.0f, 2.0f, 3.0f), sycl::vec<float, 3>(4.0f, 5.0f, 6.0f)}});
constexpr sycl::specialization_id<CharDbl> cdId(CharDbl{'x', 0.25});
constexpr sycl::specialization_id<sycl::marray<bool, 3>> boolsId(sycl::marray<bool, 3>(true, false, true));
class KPadV;
class KTailV;
class KVec3Arr;
class KCharDbl;
class KBools;
class KAllPad;
void run(sycl::queue &q, int *o, double *d) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KPadV>([=](sycl::kernel_handler kh) {
      PadV p = kh.get_specialization_constant<padId>();
      o[0] = p.a;
      o[1] = sycl::bit_cast<int>(static_cast<float>(p.v[3]));
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KTailV>([=](sycl::kernel_handler kh) {
      TailV t = kh.get_specialization_constant<tailId>();
      o[2] = sycl::bit_cast<int>(static_cast<float>(t.v[0]));
      o[3] = t.b;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KVec3Arr>([=](sycl::kernel_handler kh) {
      V3Arr x = kh.get_specialization_constant<v3Id>();
      o[4] = sycl::bit_cast<int>(static_cast<float>(x[0][2] + x[1][0]));
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KCharDbl>([=](sycl::kernel_handler kh) {
      CharDbl cd = kh.get_specialization_constant<cdId>();
      o[5] = cd.c;
      d[0] = cd.d;
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KBools>([=](sycl::kernel_handler kh) {
      sycl::marray<bool, 3> b = kh.get_specialization_constant<boolsId>();
      o[6] = (b[0] ? 1 : 0) + (b[1] ? 2 : 0) + (b[2] ? 4 : 0);
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KAllPad>([=](sycl::kernel_handler kh) {
      PadV p = kh.get_specialization_constant<padId>();
      TailV t = kh.get_specialization_constant<tailId>();
      CharDbl cd = kh.get_specialization_constant<cdId>();
      V3Arr x = kh.get_specialization_constant<v3Id>();
      o[7] = p.a + t.b + cd.c + (kh.get_specialization_constant<boolsId>()[1] ? 100 : 0);
      o[8] = sycl::bit_cast<int>(static_cast<float>(x[1][2]));
      d[1] = cd.d * 2.0;
    });
  });
}
