#include <sycl/sycl.hpp>
#include <array>
struct V3C { sycl::vec<int, 3> v; char c; };
struct H3C { sycl::half3 h; char c; short s; };
struct BF { unsigned a : 3; unsigned b : 5; int c : 12; char d; };
struct Nest { V3C x; BF y; double z; };
constexpr sycl::specialization_id<V3C> v3cId(V3C{sycl::int3{1, 2, 3}, 'z'});
constexpr sycl::specialization_id<H3C> h3cId(H3C{sycl::half3{1, 2, 3}, 'y', 9});
constexpr sycl::specialization_id<std::array<sycl::half, 5>> ahId(std::array<sycl::half, 5>{1, 2, 3, 4, 5});
constexpr sycl::specialization_id<BF> bfId(BF{5, 17, -100, 'k'});
constexpr sycl::specialization_id<Nest> nestId(Nest{V3C{sycl::int3{7, 8, 9}, 'n'}, BF{1, 2, 3, 'b'}, 6.25});
constexpr sycl::specialization_id<std::array<sycl::int3, 3>> av3Id(std::array<sycl::int3, 3>{sycl::int3{1,2,3}, sycl::int3{4,5,6}, sycl::int3{7,8,9}});
class KOdd2;
void run(sycl::queue &q, double *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KOdd2>([=](sycl::kernel_handler kh) {
      auto a = kh.get_specialization_constant<v3cId>(); out[0] = a.v.z() + a.c;
      auto b = kh.get_specialization_constant<h3cId>(); out[1] = b.h.z() + b.c + b.s;
      auto c = kh.get_specialization_constant<ahId>(); out[2] = c[0] + c[4];
      auto d = kh.get_specialization_constant<bfId>(); out[3] = d.a + d.b + d.c + d.d;
      auto e = kh.get_specialization_constant<nestId>(); out[4] = e.x.v.y() + e.x.c + e.y.b + e.y.c + e.z;
      auto f = kh.get_specialization_constant<av3Id>(); out[5] = f[2].z() + f[0].x();
    });
  });
}
