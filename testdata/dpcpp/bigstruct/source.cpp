// A struct with 24 members of mixed types, an array of structs, nested std::array of
// sycl::vec, and a struct holding a vec and a marray.
#include <sycl/sycl.hpp>
#include <array>
struct Big24 {
  char c0; int i1; double d2; short s3; float f4; bool b5; long long l6; unsigned char u7;
  sycl::half h8; unsigned u9; signed char sc10; double d11; int i12[3]; float f13; short s14;
  bool b15; unsigned long long u16; char c17; float f18; int i19; double d20; unsigned short us21;
  bool b22; int i23;
};
constexpr Big24 big0{'A', -1, 2.5, 3, 4.5f, true, -6, 7, sycl::half(8.0f), 9u, -10, 11.5, {12, 13, 14},
                     15.5f, 16, false, 17ull, 'R', 18.5f, 19, 20.25, 21, true, 23};
struct Particle { sycl::float3 pos; float mass; short kind; };
struct Mix { sycl::int2 v; sycl::marray<double, 2> m; char tag; };
using NestedVec = std::array<std::array<sycl::float4, 2>, 3>;
constexpr sycl::specialization_id<Big24> bigId(big0);
constexpr sycl::specialization_id<std::array<Particle, 3>> partsId(std::array<Particle, 3>{{
    {sycl::float3{1, 2, 3}, 0.5f, 1}, {sycl::float3{4, 5, 6}, 1.5f, 2}, {sycl::float3{7, 8, 9}, 2.5f, 3}}});
constexpr sycl::specialization_id<NestedVec> nestId(NestedVec{{
    {{sycl::float4{1, 2, 3, 4}, sycl::float4{5, 6, 7, 8}}},
    {{sycl::float4{9, 10, 11, 12}, sycl::float4{13, 14, 15, 16}}},
    {{sycl::float4{17, 18, 19, 20}, sycl::float4{21, 22, 23, 24}}}}});
constexpr sycl::specialization_id<Mix> mixId(Mix{sycl::int2{-1, -2}, sycl::marray<double, 2>{0.5, 0.25}, 'z'});
constexpr sycl::specialization_id<std::array<sycl::double2, 2>> d2arrId(std::array<sycl::double2, 2>{sycl::double2{1, 2}, sycl::double2{3, 4}});
class KBig; class KParts;
void run(sycl::queue &q, double *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KBig>([=](sycl::kernel_handler kh) {
      Big24 b = kh.get_specialization_constant<bigId>();
      out[0] = b.c0 + b.i1 + b.d2 + b.s3 + b.f4 + b.b5 + b.l6 + b.u7 + (float)b.h8 + b.u9 + b.sc10 + b.d11;
      out[1] = b.i12[0] + b.i12[2] + b.f13 + b.s14 + b.b15 + (double)b.u16 + b.c17 + b.f18 + b.i19 + b.d20 + b.us21 + b.b22 + b.i23;
      Mix m = kh.get_specialization_constant<mixId>();
      out[2] = m.v.x() + m.v.y() + m.m[0] + m.m[1] + m.tag;
      auto d2 = kh.get_specialization_constant<d2arrId>();
      out[3] = d2[0].y() + d2[1].x();
    });
  });
  q.submit([&](sycl::handler &h) {
    h.single_task<KParts>([=](sycl::kernel_handler kh) {
      auto ps = kh.get_specialization_constant<partsId>();
      double s = 0;
      for (int i = 0; i < 3; ++i) s += ps[i].pos.x() * ps[i].mass + ps[i].pos.z() + ps[i].kind;
      out[4] = s;
      auto n = kh.get_specialization_constant<nestId>();
      out[5] = n[0][0].x() + n[1][1].w() + n[2][0].y() + n[2][1].w();
    });
  });
}
