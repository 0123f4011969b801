// gen: -O0 -g -fdebug-compilation-dir=.
#include <sycl/sycl.hpp>
#include <utility>
struct Base {};
struct Derived : Base { int x; char y; };
struct Chars { char c[3]; };
struct Big { int v[40]; double d; };
struct PartInit { int a; float b; short c; };
enum Small : unsigned char { S0, S1, S7 = 7 };
constexpr sycl::specialization_id<Derived> derId(Derived{{}, 5, 'q'});
constexpr sycl::specialization_id<Chars> charsId(Chars{{'a', 'b', 'c'}});
constexpr sycl::specialization_id<Big> bigId(Big{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 2.5});
constexpr sycl::specialization_id<PartInit> partId(PartInit{9});
constexpr sycl::specialization_id<PartInit> zeroStructId;
constexpr sycl::specialization_id<Small> smallId(S7);
constexpr sycl::specialization_id<std::pair<int, double>> pairId(std::pair<int, double>{3, 0.25});
constexpr sycl::specialization_id<std::array<bool, 3>> boolsId(std::array<bool, 3>{true, false, true});
constexpr sycl::specialization_id<sycl::double3> d3Id(sycl::double3{1.0, 2.0, 3.0});
constexpr sycl::specialization_id<sycl::short3> s3Id(sycl::short3{4, 5, 6});
constexpr sycl::specialization_id<sycl::half3> h3Id(sycl::half3{1, 2, 3});
constexpr sycl::specialization_id<unsigned char> ucId(200);
constexpr sycl::specialization_id<signed char> scId(-100);
constexpr sycl::specialization_id<unsigned short> usId(60000);
constexpr sycl::specialization_id<uint64_t> u64Id(0xfedcba9876543210ull);
class KO;
void run(sycl::queue &q, double *out) {
  q.submit([&](sycl::handler &h) {
    h.single_task<KO>([=](sycl::kernel_handler kh) {
      auto d = kh.get_specialization_constant<derId>(); out[0] = d.x + d.y;
      auto c = kh.get_specialization_constant<charsId>(); out[1] = c.c[0] + c.c[2];
      auto b = kh.get_specialization_constant<bigId>(); out[2] = b.v[0] + b.v[39] + b.d;
      auto p = kh.get_specialization_constant<partId>(); out[3] = p.a + p.b + p.c;
      auto z = kh.get_specialization_constant<zeroStructId>(); out[4] = z.a + z.b + z.c;
      out[5] = kh.get_specialization_constant<smallId>();
      auto pr = kh.get_specialization_constant<pairId>(); out[6] = pr.first + pr.second;
      auto bs = kh.get_specialization_constant<boolsId>(); out[7] = bs[0] * 4 + bs[1] * 2 + bs[2];
      auto d3 = kh.get_specialization_constant<d3Id>(); out[8] = d3.x() + d3.z();
      auto s3 = kh.get_specialization_constant<s3Id>(); out[9] = s3.y();
      auto h3 = kh.get_specialization_constant<h3Id>(); out[10] = h3.z();
      out[11] = kh.get_specialization_constant<ucId>();
      out[12] = kh.get_specialization_constant<scId>();
      out[13] = kh.get_specialization_constant<usId>();
      out[14] = (double)kh.get_specialization_constant<u64Id>();
    });
  });
}
